package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wantPastLimit fails t unless v takes approval for going past limit:
// tier 3, not denied, the limit named.
func wantPastLimit(t *testing.T, what string, v Verdict, limit int) {
	t.Helper()
	if v.Denied || v.Tier != TierDestructive || !strings.Contains(v.Reason, fmt.Sprintf("more than %d ", limit)) ||
		!strings.Contains(v.Reason, "past what the classifier reads") {
		t.Errorf("%s: %s, want tier 3 for going past %d", what, formatVerdict(v), limit)
	}
}

// wantWithin fails t if v was raised for going past a limit.
func wantWithin(t *testing.T, what string, v Verdict) {
	t.Helper()
	if strings.Contains(v.Reason, "past what the classifier reads") {
		t.Errorf("%s: %s, want no limit passed", what, formatVerdict(v))
	}
}

// TestStartupLimits: a pattern of start-up files is looked at as at most
// maxStartupGlob files, the units of one systemctl call as maxUnits, and
// docker's configuration adds at most maxPluginDirs plugin directories,
// absolute ones only; a configuration that is not JSON adds none. A file
// up to a limit is read; a call past one takes approval, since what lies
// past it is not read.
func TestStartupLimits(t *testing.T) {
	dir, _ := lastingDir(t, "startlim-")
	home := filepath.Join(dir, "home")
	p, err := New(Rules{Path: "/usr/bin:/bin", Dir: dir, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	p.rootHome = ""
	// docker runs its CLI plugins on every command (docker ps is tier 0).
	fn := func(i int) string { return fmt.Sprintf(".docker/cli-plugins/docker-p%03d", i) }
	const clean, evil = "#!/bin/sh\nexit 0\n", "#!/bin/sh\nsystemctl reboot\n"
	for i := range maxStartupGlob {
		writeUnder(t, home, fn(i), clean)
	}
	wantWithin(t, fmt.Sprintf("%d plugins", maxStartupGlob), p.Evaluate(Input{Command: "docker ps"}))
	writeUnder(t, home, fn(maxStartupGlob-1), evil)
	if v := p.Evaluate(Input{Command: "docker ps"}); !v.Denied {
		t.Errorf("the last of %d plugins running reboot: %s, want denied", maxStartupGlob, formatVerdict(v))
	}
	writeUnder(t, home, fn(maxStartupGlob-1), clean)
	writeUnder(t, home, fn(maxStartupGlob), evil)
	wantPastLimit(t, fmt.Sprintf("%d plugins", maxStartupGlob+1), p.Evaluate(Input{Command: "docker ps"}), maxStartupGlob)
	os.RemoveAll(filepath.Join(home, ".docker"))

	units := func(n int) string {
		var us []string
		for i := range n {
			us = append(us, fmt.Sprintf("u%d", i))
		}
		return "systemctl --user start " + strings.Join(us, " ")
	}
	wantWithin(t, fmt.Sprintf("%d units", maxUnits), p.Evaluate(Input{Command: units(maxUnits)}))
	unit := writeUnder(t, home, fmt.Sprintf(".config/systemd/user/u%d.service", maxUnits-1), "[Service]\nExecStart=/sbin/reboot\n")
	if v := p.Evaluate(Input{Command: units(maxUnits)}); !v.Denied {
		t.Errorf("the last of %d units running reboot: %s, want denied", maxUnits, formatVerdict(v))
	}
	os.Remove(unit)
	wantPastLimit(t, fmt.Sprintf("%d units", maxUnits+1), p.Evaluate(Input{Command: units(maxUnits + 1)}), maxUnits)

	var dirs []string
	for i := range maxPluginDirs + 1 {
		dirs = append(dirs, fmt.Sprintf(`"%s/p%d"`, dir, i))
	}
	for _, tc := range []struct {
		cfg, plugin string
		deny, past  bool
	}{
		{`{"cliPluginsExtraDirs": [` + strings.Join(dirs[:maxPluginDirs], ", ") + `]}`, fmt.Sprintf("p%d/docker-x", maxPluginDirs-1), true, false},
		{`{"cliPluginsExtraDirs": [` + strings.Join(dirs, ", ") + `]}`, fmt.Sprintf("p%d/docker-x", maxPluginDirs), false, true},
		{`{"cliPluginsExtraDirs": ["p0"]}`, "p0/docker-x", false, false}, // relative: not read
		{"{not json", "p0/docker-x", false, false},
		{`{"cliPluginsExtraDirs": 3}`, "p0/docker-x", false, false},
	} {
		writeUnder(t, home, ".docker/config.json", tc.cfg)
		f := writeUnder(t, dir, tc.plugin, "#!/bin/sh\nsystemctl poweroff\n")
		v := p.Evaluate(Input{Command: "cd " + dir + " && docker ps"})
		switch {
		case tc.past:
			wantPastLimit(t, "config "+tc.cfg, v, maxPluginDirs)
		case v.Denied != tc.deny:
			t.Errorf("config %s, plugin %s: %s, want denied %v", tc.cfg, tc.plugin, formatVerdict(v), tc.deny)
		}
		os.Remove(f)
	}
}

// TestProjectLimits: a project's pattern is read as at most
// maxProjectGlob files, as are Cargo.toml's build scripts and a git
// template's hooks (its samples not counted); a Makefile's includes as
// maxProgramGlobs files, maxIncludeDepth levels down. Each is read up to
// the limit, and a call past it takes approval.
func TestProjectLimits(t *testing.T) {
	dir, _ := lastingDir(t, "projlim-")
	home, bin := filepath.Join(dir, "home"), filepath.Join(dir, "bin")
	// Programs the classifier finds, so they are classified by name.
	writeUnder(t, bin, "msbuild", "#!/bin/sh\n")
	writeUnder(t, bin, "cargo", "#!/bin/sh\n")
	writeUnder(t, bin, "make", "#!/bin/sh\n")
	p, err := New(Rules{Path: bin + ":/usr/bin:/bin", Dir: dir, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	const clean, evil = "<Project></Project>\n", "<Project><Target Name=\"B\" BeforeTargets=\"Build\"><Exec Command=\"reboot\"/></Target></Project>\n"
	for i := range maxProjectGlob {
		writeUnder(t, dir, fmt.Sprintf("cs/a%02d.csproj", i), clean)
	}
	build := "cd " + dir + "/cs && msbuild"
	wantWithin(t, fmt.Sprintf("%d project files", maxProjectGlob), p.Evaluate(Input{Command: build}))
	writeUnder(t, dir, fmt.Sprintf("cs/a%02d.csproj", maxProjectGlob-1), evil)
	if v := p.Evaluate(Input{Command: build}); !v.Denied {
		t.Errorf("the last of %d project files running reboot: %s, want denied", maxProjectGlob, formatVerdict(v))
	}
	writeUnder(t, dir, fmt.Sprintf("cs/a%02d.csproj", maxProjectGlob-1), clean)
	writeUnder(t, dir, fmt.Sprintf("cs/a%02d.csproj", maxProjectGlob), evil)
	wantPastLimit(t, fmt.Sprintf("%d project files", maxProjectGlob+1), p.Evaluate(Input{Command: build}), maxProjectGlob)

	manifest := func(n int) {
		var b strings.Builder
		b.WriteString("[package]\nname = \"x\"\n")
		for i := range n {
			fmt.Fprintf(&b, "build = \"b%d.rs\"\n", i)
		}
		writeUnder(t, dir, "rs/Cargo.toml", b.String())
	}
	cargo := "cd " + dir + "/rs && cargo build"
	manifest(maxProjectGlob)
	wantWithin(t, fmt.Sprintf("%d build scripts", maxProjectGlob), p.Evaluate(Input{Command: cargo}))
	writeUnder(t, dir, fmt.Sprintf("rs/b%d.rs", maxProjectGlob-1), "fn main() { std::process::Command::new(\"reboot\").status().unwrap(); }\n")
	if v := p.Evaluate(Input{Command: cargo}); !v.Denied {
		t.Errorf("the last of %d build scripts running reboot: %s, want denied", maxProjectGlob, formatVerdict(v))
	}
	manifest(maxProjectGlob + 1)
	os.Remove(filepath.Join(dir, fmt.Sprintf("rs/b%d.rs", maxProjectGlob-1)))
	wantPastLimit(t, fmt.Sprintf("%d build scripts", maxProjectGlob+1), p.Evaluate(Input{Command: cargo}), maxProjectGlob)

	// A Makefile's includes: maxProgramGlobs files, maxIncludeDepth levels.
	const mk, evilMk = "x:\n\ttrue\n", "y:\n\treboot\n"
	var incs []string
	for i := range maxProgramGlobs + 1 {
		incs = append(incs, fmt.Sprintf("i%02d.mk", i))
		writeUnder(t, dir, "mk/"+incs[i], mk)
	}
	makeIn := func(sub string) Verdict { return p.Evaluate(Input{Command: "cd " + dir + "/" + sub + " && make x"}) }
	writeUnder(t, dir, "mk/Makefile", "include "+strings.Join(incs[:maxProgramGlobs], " ")+"\n")
	wantWithin(t, fmt.Sprintf("%d included files", maxProgramGlobs), makeIn("mk"))
	writeUnder(t, dir, "mk/"+incs[maxProgramGlobs-1], evilMk)
	if v := makeIn("mk"); !v.Denied {
		t.Errorf("the last of %d included files running reboot: %s, want denied", maxProgramGlobs, formatVerdict(v))
	}
	writeUnder(t, dir, "mk/"+incs[maxProgramGlobs-1], mk)
	writeUnder(t, dir, "mk/"+incs[maxProgramGlobs], evilMk)
	writeUnder(t, dir, "mk/Makefile", "include "+strings.Join(incs, " ")+"\n")
	wantPastLimit(t, fmt.Sprintf("%d included files", maxProgramGlobs+1), makeIn("mk"), maxProgramGlobs)
	writeUnder(t, dir, "deep/Makefile", "include l1.mk\n")
	for l := 1; l < maxIncludeDepth; l++ {
		writeUnder(t, dir, fmt.Sprintf("deep/l%d.mk", l), fmt.Sprintf("include l%d.mk\n", l+1))
	}
	writeUnder(t, dir, fmt.Sprintf("deep/l%d.mk", maxIncludeDepth), evilMk)
	if v := makeIn("deep"); !v.Denied {
		t.Errorf("an include %d levels down running reboot: %s, want denied", maxIncludeDepth, formatVerdict(v))
	}
	writeUnder(t, dir, fmt.Sprintf("deep/l%d.mk", maxIncludeDepth), fmt.Sprintf("include l%d.mk\n", maxIncludeDepth+1))
	writeUnder(t, dir, fmt.Sprintf("deep/l%d.mk", maxIncludeDepth+1), evilMk)
	wantPastLimit(t, fmt.Sprintf("an include %d levels down", maxIncludeDepth+1), makeIn("deep"), maxIncludeDepth)

	writeUnder(t, dir, "repo/.git/HEAD", "ref: refs/heads/main\n")
	writeUnder(t, home, ".gitconfig", "[init]\n\ttemplateDir = "+dir+"/tpl\n")
	for _, s := range []string{"applypatch-msg", "commit-msg", "pre-commit", "pre-push", "update"} {
		writeUnder(t, dir, "tpl/hooks/"+s+".sample", "#!/bin/sh\nexit 0\n")
	}
	for i := range maxProjectGlob - 1 {
		writeUnder(t, dir, fmt.Sprintf("tpl/hooks/a%02d", i), "#!/bin/sh\nexit 0\n")
	}
	hook := writeUnder(t, dir, "tpl/hooks/post-checkout", "#!/bin/sh\nsystemctl reboot\n")
	clone := "cd " + dir + " && git clone repo r"
	if v := p.Evaluate(Input{Command: clone}); !v.Denied || !strings.Contains(v.Reason, hook) {
		t.Errorf("post-checkout, the last of %d hooks beside samples: %s, want denied", maxProjectGlob, formatVerdict(v))
	}
	writeUnder(t, dir, fmt.Sprintf("tpl/hooks/a%02d", maxProjectGlob), "#!/bin/sh\nexit 0\n")
	wantPastLimit(t, fmt.Sprintf("%d hooks", maxProjectGlob+1), p.Evaluate(Input{Command: clone}), maxProjectGlob)
}

// TestRepoDirsLimit: git's and Mercurial's repositories, and a Go module's
// root, are looked for at most maxRepoUp directories up, so a path of many
// parts costs a bounded number of lookups; the repository is found up to
// the limit, and a call from further down takes approval.
func TestRepoDirsLimit(t *testing.T) {
	f := newLocalFixture(t)
	for _, tc := range []struct{ cfg, text, cmd string }{
		{".git/config", "[core]\n\tfsmonitor = reboot\n", "git status"},
		{".hg/hgrc", "[hooks]\npre-status = reboot\n", "hg status"},
		{"main.go", "package main\nimport \"os/exec\"\nfunc main() { exec.Command(\"reboot\").Run() }\n", "go run ."},
	} {
		repo := filepath.Join(f.dir, strings.Fields(tc.cmd)[0])
		writeUnder(t, repo, tc.cfg, tc.text)
		writeUnder(t, repo, "go.mod", "module x\n")
		dir := repo + strings.Repeat("/d", maxRepoUp-1)
		if err := os.MkdirAll(dir+"/d", 0o755); err != nil {
			t.Fatal(err)
		}
		if v := f.p.Evaluate(Input{Command: "cd " + dir + " && " + tc.cmd}); !v.Denied {
			t.Errorf("%s %d directories below the repository: %s, want denied", tc.cmd, maxRepoUp-1, formatVerdict(v))
		}
		wantPastLimit(t, fmt.Sprintf("%s %d directories below the repository", tc.cmd, maxRepoUp),
			f.p.Evaluate(Input{Command: "cd " + dir + "/d && " + tc.cmd}), maxRepoUp)
	}
}

// TestRootsLimit: the programs a wrapper runs in another root are read
// there for up to maxAltRoots roots; past them, a script run there is one
// the classifier cannot see, which takes approval.
func TestRootsLimit(t *testing.T) {
	dir, p := lastingDir(t, "rootslim-")
	var cmds []string
	for i := range maxAltRoots + 1 {
		writeUnder(t, dir, fmt.Sprintf("r%d/job.sh", i), "#!/bin/sh\nexit 0\n")
		cmds = append(cmds, fmt.Sprintf("chroot %s/r%d sh /job.sh", dir, i))
	}
	within := strings.Join(cmds[:maxAltRoots], "; ")
	wantWithin(t, fmt.Sprintf("%d roots", maxAltRoots), p.Evaluate(Input{Command: within}))
	writeUnder(t, dir, fmt.Sprintf("r%d/job.sh", maxAltRoots-1), "#!/bin/sh\nreboot\n")
	if v := p.Evaluate(Input{Command: within}); !v.Denied {
		t.Errorf("the job of the last of %d roots running reboot: %s, want denied", maxAltRoots, formatVerdict(v))
	}
	writeUnder(t, dir, fmt.Sprintf("r%d/job.sh", maxAltRoots-1), "#!/bin/sh\nexit 0\n")
	writeUnder(t, dir, fmt.Sprintf("r%d/job.sh", maxAltRoots), "#!/bin/sh\nreboot\n")
	if v := p.Evaluate(Input{Command: strings.Join(cmds, "; ")}); v.Denied || v.Tier != TierDestructive {
		t.Errorf("the job of a root past %d: %s, want tier 3", maxAltRoots, formatVerdict(v))
	}
}

// TestUserLimit: commands run as up to maxUsers users are told apart; one
// run as a user past them takes approval, whose files are not followed.
func TestUserLimit(t *testing.T) {
	p := testPolicy(t)
	script := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "sudo -u wz-nouser%d true\n", i)
		}
		return b.String()
	}
	wantWithin(t, fmt.Sprintf("%d users", maxUsers), p.Evaluate(Input{Interpreter: "bash", Script: script(maxUsers)}))
	wantPastLimit(t, fmt.Sprintf("%d users", maxUsers+1), p.Evaluate(Input{Interpreter: "bash", Script: script(maxUsers + 1)}), maxUsers)
}

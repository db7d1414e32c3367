package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestBlindSpotWalkedAside: text the call runs that is walked on a fork
// of its evaluation — a script file run by a shell or by its own path, a
// hook or a project's recipe, another interpreter's program file, the
// command line an unknown program's argument holds — may itself run what
// its walk cannot see (exec 3<plain; sh <&3). The files that text names
// then meet the deny list as the call's own words do. Each case was
// tier 3 and not denied before: once approved, it ran reboot.
func TestBlindSpotWalkedAside(t *testing.T) {
	f := newLocalFixture(t)
	d := f.dir
	write := func(name, text string) string { return f.write(t, name, []byte(text)) }
	P := write("plain", "echo start\nreboot\n")
	// What a script file holds: the spellings of running a file's text
	// that the call's own text is denied for (TestBlindSpotNamedFiles).
	bodies := []string{
		"exec 3<" + P + "; sh <&3", "sh 3<" + P + " <&3", "sh /dev/fd/3 3<" + P, "sh -c \"$(cat " + P + ")\"",
		"eval \"$(cat " + P + ")\"", "$(cat " + P + ")", "sh <(cat " + P + ")", "source <(cat " + P + ")",
		"sh <<< \"$(cat " + P + ")\"", "x=$(cat " + P + "); $x", "mapfile -t a < " + P + "; \"${a[@]}\"",
		"read -r x < " + P + "; $x", "cat < " + P + " | sh", "head -100 " + P + " | sh", "dd if=" + P + " | sh",
		"sed -n p " + P + " | sh", "awk '{system($0)}' " + P, "xargs -a " + P + " -I{} sh -c {}",
		"perl -ne 'system($_)' " + P, "h=" + P + "; sh < \"$h\"", "cd " + d + "; sh < plain",
		"d=" + d + "; cat ${d}/plain | sh", "HOME=" + d + "; cat ~/plain | sh", "BASH_ENV=" + P + " bash -c true",
		"cd " + d + "; python3 -m plain_job", "tail -n +3 \"$0\" | sh\nexit\nreboot",
	}
	write("plain_job.py", "import os\nos.system('poweroff')\n")
	var cases []string
	for i, body := range bodies {
		name := "s" + strings.Repeat("x", i) + ".sh"
		s := write(name, body+"\n")
		cases = append(cases, "sh "+s, "bash "+s, ". "+s, "cd "+d+" && bash ./"+name)
	}
	// Chains, hooks, recipes, settings, other interpreters' files, the
	// command line an unknown program is given.
	write("chain1.sh", "sh "+d+"/chain2.sh\n")
	write("chain2.sh", "h="+P+"\nsh < \"$h\"\n")
	write("r1/.git/hooks/pre-commit", "#!/bin/sh\nexec 3<"+P+"; sh <&3\n")
	write("r2/package.json", `{"scripts": {"test": "x=$(cat `+P+`); $x"}}`)
	write("r3/Makefile", "all:\n\tsh < "+P+"\n")
	write("r4/.git/config", "[core]\n\tpager = sh -c 'x=$(cat "+P+"); $x'\n")
	write("r5/conftest.py", "exec(open('"+P+"').read())\n")
	write("job.py", "import os\nos.system(open('"+P+"').read())\n")
	write("run.pl", "system(`cat "+P+"`);\n")
	cases = append(cases,
		"sh "+d+"/chain1.sh", "cd "+d+"/r1 && git commit -m x", "cd "+d+"/r2 && npm test", "make -C "+d+"/r3",
		"git -C "+d+"/r4 log", "cd "+d+"/r5 && pytest", "python3 "+d+"/job.py", "perl "+d+"/run.pl",
		"foo_unknown --exec 'exec 3<"+P+"; sh <&3'",
	)
	wantDenied(t, f.p, "", cases)
	// A walk that saw everything looks nothing up: a script naming the
	// file only to read it runs nothing of it.
	write("reads.sh", "grep -c start "+P+"\nwc -l < "+P+"\n")
	if v := f.p.Evaluate(Input{Command: "sh " + d + "/reads.sh"}); v.Denied {
		t.Errorf("a script that only reads the file: %s, want not denied", formatVerdict(v))
	}
	f.unreadOldOrRemote(t, "sh "+d+"/chain1.sh")
	f.unreadOldOrRemote(t, "python3 "+d+"/job.py")
}

// TestBlindSpotScriptPath: a program named without a slash runs from the
// directories the script puts on PATH first — a known program's name
// too — so the file found there is read as one found on the policy's
// search path is.
func TestBlindSpotScriptPath(t *testing.T) {
	f := newLocalFixture(t)
	d := f.dir
	for _, name := range []string{"sub/tool", "sub/ls"} {
		f.write(t, name, []byte("#!/bin/sh\nreboot\n"))
	}
	f.write(t, "sub/fine", []byte("#!/bin/sh\necho fine\n"))
	s := d + "/sub"
	big := "export PATH=" + s + ":$PATH\n" + strings.Repeat("echo padding the script past one piece\n", 4000) + "tool\n"
	wantDenied(t, f.p, "", []string{
		"PATH=" + s + ":$PATH; tool", "PATH=" + s + ":$PATH tool", "export PATH=" + s + "; tool", "env PATH=" + s + " tool",
		"cd " + s + " && PATH=.:$PATH tool", "PATH=\"" + s + ":$PATH\" ls -l", "declare -x PATH=" + s + ":/usr/bin; ls",
		"p=" + s + "; PATH=$p:$PATH; tool", big,
	})
	wantNotDenied(t, f.p, []string{"PATH=" + s + ":$PATH; fine", "PATH=/usr/sbin:$PATH; last reboot | head -3"})
	f.unreadOldOrRemote(t, "PATH="+s+":$PATH; tool")
}

// TestWalkedAsideLimits: what is kept of text walked aside is bounded —
// maxUnseenBytes of text, maxSearchDirs directories of the script's PATH.
func TestWalkedAsideLimits(t *testing.T) {
	f := newLocalFixture(t)
	e := newEval(f.p)
	defer e.release()
	e.local = true
	e.addUnseen(unseenText{text: strings.Repeat("x", maxUnseenBytes-1)})
	e.addUnseen(unseenText{text: "y"})
	e.addUnseen(unseenText{text: "z"})
	if len(e.unseen) != 2 || e.unseenBytes != maxUnseenBytes {
		t.Errorf("kept %d texts, %d bytes; want 2, %d", len(e.unseen), e.unseenBytes, maxUnseenBytes)
	}
	// The 16th directory the script puts on PATH is searched, the 17th not.
	var dirs []string
	for i := range maxSearchDirs + 1 {
		dir := filepath.Join(f.dir, "d"+strings.Repeat("x", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	f.write(t, filepath.Base(dirs[maxSearchDirs-1])+"/tool", []byte("#!/bin/sh\nreboot\n"))
	if v := f.p.Evaluate(Input{Command: "PATH=" + strings.Join(dirs, ":") + "; tool"}); !v.Denied {
		t.Errorf("the %dth directory on PATH: %s, want denied", maxSearchDirs, formatVerdict(v))
	}
	if err := os.Rename(filepath.Join(dirs[maxSearchDirs-1], "tool"), filepath.Join(dirs[maxSearchDirs], "tool")); err != nil {
		t.Fatal(err)
	}
	if v := f.p.Evaluate(Input{Command: "PATH=" + strings.Join(dirs, ":") + "; tool"}); v.Denied {
		t.Errorf("the %dth directory on PATH was searched: %s", maxSearchDirs+1, formatVerdict(v))
	}
}

// TestBlindSpotProgramByGlobOrHash: a glob in command position runs the
// file it matches, and hash -p FILE NAME makes NAME run FILE; either
// file is read as a program named by its path is.
func TestBlindSpotProgramByGlobOrHash(t *testing.T) {
	f := newLocalFixture(t)
	d := f.dir
	tool := f.write(t, "bin/tool", []byte("#!/bin/sh\nreboot\n"))
	wantDenied(t, f.p, "", []string{
		"hash -p " + tool + " ls; ls", "hash -p" + tool + " ls", "hash -rp " + tool + " ls", "hash -p /sbin/reboot ls; ls",
		d + "/bi?/tool", d + "/*/to[o]l -x", "cd " + d + "; bin/t*", "cd " + d + "/bin; ./to?l", "cd " + d + "; */tool",
	})
	wantNotDenied(t, f.p, []string{"hash -p /bin/ls ll; ll", "/usr/bin/l? -l", "cd /usr/bin && ./l? -l"})
	f.unreadOldOrRemote(t, d+"/bi?/tool")
	f.unreadOldOrRemote(t, "hash -p "+tool+" ls")
	// At most maxProgramGlobs globs are expanded, none with more than
	// two parts that have wildcards.
	pad := strings.Repeat(d+"/nothing?; ", maxProgramGlobs-1)
	if v := f.p.Evaluate(Input{Command: pad + d + "/bi?/tool"}); !v.Denied {
		t.Errorf("the %dth glob: %s, want denied", maxProgramGlobs, formatVerdict(v))
	}
	if v := f.p.Evaluate(Input{Command: pad + d + "/nothing?; " + d + "/bi?/tool"}); v.Denied {
		t.Errorf("the %dth glob was expanded: %s", maxProgramGlobs+1, formatVerdict(v))
	}
	if v := f.p.Evaluate(Input{Command: "/" + strings.TrimPrefix(d, "/")[:1] + "*/*/*/bin/tool"}); v.Denied {
		t.Errorf("a glob with three wild parts was expanded: %s", formatVerdict(v))
	}
}

// TestBlindSpotDirectoryRunners: run-parts DIR runs every program in DIR,
// and find DIR -exec {} (or sh {}) each file it finds; the files there
// changed since warden started are read as programs named by path are.
func TestBlindSpotDirectoryRunners(t *testing.T) {
	f := newLocalFixture(t)
	d := f.dir
	f.write(t, "parts/10-ok", []byte("#!/bin/sh\necho fine\n"))
	f.write(t, "parts/20-job", []byte("#!/bin/sh\nreboot\n"))
	f.write(t, "tree/a/b/job.sh", []byte("#!/bin/sh\npoweroff\n"))
	wantDenied(t, f.p, "", []string{
		"run-parts " + d + "/parts", "run-parts --regex . " + d + "/parts", "cd " + d + " && run-parts parts",
		"find " + d + "/tree -type f -exec {} \\;", "find " + d + "/tree -name '*.sh' -exec sh {} \\;",
		"cd " + d + "/tree && find . -type f -execdir bash {} +", "find " + d + "/tree -type f -exec sh -c '\"$1\"' _ {} \\;",
	})
	wantNotDenied(t, f.p, []string{"run-parts --test " + d + "/parts", "find " + d + "/tree -type f -exec grep -c reboot {} +", "find " + d + " -type f -exec ls -l {} \\;"})
	f.unreadOldOrRemote(t, "run-parts "+d+"/parts")
	f.unreadOldOrRemote(t, "find "+d+"/tree -type f -exec {} \\;")
	// warden's own state under the directory is never read, nor named
	// to a command find runs (its deny rules name it).
	state := filepath.Join(d, "tree", "0state") // walked first
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	f.write(t, "tree/0state/token", []byte("reboot\n"))
	own, err := New(Rules{Path: f.bin + ":" + d, Dir: d, Protect: []string{state}, Deny: []string{regexp.QuoteMeta(state)}})
	if err != nil {
		t.Fatal(err)
	}
	if v := own.Evaluate(Input{Command: "find " + d + "/tree -type f -size -64k -exec grep -l canary {} +"}); v.Denied {
		t.Errorf("a find that greps under warden's state: %s, want not denied", formatVerdict(v))
	}
	if v := own.Evaluate(Input{Command: "find " + d + "/tree -type f -exec {} \\;"}); !v.Denied || strings.Contains(v.Reason, "0state") {
		t.Errorf("find -exec {} beside warden's state: %s, want denied for tree/a/b/job.sh alone", formatVerdict(v))
	}
	// At most maxProgramGlobs files of a directory are read.
	for i := range maxProgramGlobs - 1 {
		f.write(t, "many/"+string(rune('a'+i)), []byte("echo fine\n"))
	}
	f.write(t, "many/z", []byte("reboot\n"))
	if v := f.p.Evaluate(Input{Command: "run-parts " + d + "/many"}); !v.Denied {
		t.Errorf("the %dth file: %s, want denied", maxProgramGlobs, formatVerdict(v))
	}
	f.write(t, "many/y", []byte("echo fine\n"))
	if v := f.p.Evaluate(Input{Command: "run-parts " + d + "/many"}); v.Denied {
		t.Errorf("the %dth file was read: %s", maxProgramGlobs+1, formatVerdict(v))
	}
	// And at most maxNamedFiles entries an evaluation are looked at.
	big := filepath.Join(d, "big")
	if err := os.MkdirAll(big, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range maxNamedFiles - 4 { // with big, and parts, 10-ok and 20-job: 4,096
		if err := os.Mkdir(filepath.Join(big, fmt.Sprint(i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	walk := "find " + big + " -exec {} \\; ; run-parts " + d + "/parts"
	if v := f.p.Evaluate(Input{Command: walk}); !v.Denied {
		t.Errorf("within %d entries: %s, want denied", maxNamedFiles, formatVerdict(v))
	}
	if err := os.Mkdir(filepath.Join(big, "more"), 0o755); err != nil {
		t.Fatal(err)
	}
	if v := f.p.Evaluate(Input{Command: walk}); v.Denied {
		t.Errorf("past %d entries: %s, want the directory not read", maxNamedFiles, formatVerdict(v))
	}
}

// TestBlindSpotOptionScriptFiles: a script an option hands a program —
// vim's -S, -s and -u, bash's --rcfile and --init-file, a file attached
// to its option (awk -f/srv/p.awk, sed -nf/srv/s.sed, make -fjob.mk) —
// is read for what it runs as a file the call names apart is.
func TestBlindSpotOptionScriptFiles(t *testing.T) {
	f := newLocalFixture(t)
	d := f.dir
	for name, text := range map[string]string{
		"v.vim": "!reboot\n", "k.keys": ":!poweroff\n", "rc": "reboot\n", "p.awk": "BEGIN{system(\"reboot\")}\n",
		"p.sed": "1e halt\n", "job.mk": "all:\n\treboot\n",
	} {
		f.write(t, name, []byte(text))
	}
	wantDenied(t, f.p, "", []string{
		"vim -S " + d + "/v.vim", "vim -es -S " + d + "/v.vim", "vim -RS " + d + "/v.vim", "vim -u " + d + "/v.vim",
		"vim -s " + d + "/k.keys /etc/hostname", "bash --rcfile " + d + "/rc -i", "bash --init-file " + d + "/rc -i",
		"nawk -f" + d + "/p.awk", "sed -n -f" + d + "/p.sed /etc/hostname", "sed -nf" + d + "/p.sed /etc/hostname",
		"make -f" + d + "/job.mk", "cd " + d + " && make -fjob.mk", "cd " + d + " && awk -fp.awk /dev/null",
	})
	f.write(t, "fine.vim", []byte("set number\n"))
	wantNotDenied(t, f.p, []string{"vim -S " + d + "/fine.vim", "cd " + d + " && ls -la", "cd " + d + " && awk -F: '{print $1}' /etc/passwd"})
	f.unreadOldOrRemote(t, "vim -S "+d+"/v.vim")
}

// TestScriptRunSeenWhole: a shell script the call runs by a shell (sh
// job.sh, bash job.sh) that the classifier read and walked whole is seen
// as ./job.sh is: a deny-list word in a comment or a string of it does
// not deny the call. Anything else in the call that may change the file
// first (a write, a copy, another script) or a walk that did not see
// everything keeps the call opaque, its named files scanned raw.
func TestScriptRunSeenWhole(t *testing.T) {
	f := newLocalFixture(t)
	d := f.dir
	s := f.write(t, "check.sh", []byte("#!/bin/sh\n# reboot when the kernel asks for it\nif [ -f /var/run/reboot-required ]; then echo 'reboot required'; fi\necho ok\n"))
	f.write(t, "evil", []byte("reboot\n"))
	f.write(t, "self.sh", []byte("tail -n +3 \"$0\" | sh\nexit\n# reboot\n"))
	f.write(t, "writer.sh", []byte("printf 'reboot\\n' > "+s+"\n"))
	for _, c := range []string{"sh " + s, "bash " + s, "cd " + d + " && bash check.sh 2>&1 | tail -5", "bash " + s + " > /dev/null; echo done"} {
		v := f.p.Evaluate(Input{Command: c})
		if v.Denied || v.Tier != TierDestructive {
			t.Errorf("Evaluate(%q) = %s, want tier 3, not denied: the script's words are seen", c, formatVerdict(v))
		}
	}
	wantDenied(t, f.p, "", []string{
		"bash " + s + "; sed 's/^# //' " + s + " | sh", "cp " + d + "/evil " + s + "; sh " + s, "printf 'reboot\\n' > " + s + "; sh " + s,
		"echo reboot >> " + s + "; bash " + s, "sh " + d + "/writer.sh; sh " + s, "sh " + s + " & cp " + d + "/evil " + s,
		"cp " + d + "/evil " + s + " & sh " + s, "sh " + s + " | cp " + d + "/evil " + s, "sh " + d + "/self.sh",
		"ln -sf " + d + "/evil " + s + "; bash " + s,
	})
}

// TestSourcedFileSeenWhole: a file sourced (. FILE, source FILE) that the
// classifier read and walked whole, and that does no more than read and
// set variables, is seen as sh FILE is: a deny-list word in its comment
// or a string does not deny the call. One that changes how the rest of
// the text runs — a cd, an exec, PATH, IFS, BASH_ENV, a builtin loaded
// or a function, alias or hash entry that does more than read — keeps
// the call opaque, its named files scanned raw, as does the rest of the
// call doing more than read.
func TestSourcedFileSeenWhole(t *testing.T) {
	f := newLocalFixture(t)
	d := f.dir
	env := f.write(t, "env.sh", []byte("# a reboot is needed after the upgrade\nexport APP_ENV=prod DB_HOST=localhost\nreadonly APP_DIR=/srv/app\nset -e\necho 'check /var/run/reboot-required before you reboot'\n"))
	f.write(t, "job.sh", []byte("reboot\n"))
	for _, c := range []string{". " + env, "source " + env + " && echo \"$APP_ENV\"", "cd " + d + " && . ./env.sh && ls -la", "set -a; . " + env + "; set +a; env | grep APP"} {
		if v := f.p.Evaluate(Input{Command: c}); v.Denied || v.Tier != TierDestructive {
			t.Errorf("Evaluate(%q) = %s, want tier 3, not denied: the sourced file's words are seen", c, formatVerdict(v))
		}
	}
	for name, text := range map[string]string{
		"cd": "cd " + d, "cd by a builtin": "builtin cd /", "cd computed": "c=cd; $c " + d, "exec": "exec 3<" + d + "/job.sh",
		"descriptor": "exec {x}<" + d + "/job.sh", "PATH": "PATH=" + d + ":$PATH", "IFS": "IFS=X", "BASH_ENV": "export BASH_ENV=" + d + "/job.sh",
		"builtin loaded": "enable -f /srv/x.so ls", "function": "ls() { rm -rf /srv; }", "alias": "shopt -s expand_aliases; alias ls='rm -rf /srv'",
		"hash": "hash -p " + d + "/job.sh ls", "handler": "command_not_found_handle() { sh " + d + "/job.sh; }", "trap": "trap 'sh " + d + "/job.sh' EXIT",
		"nested": ". " + d + "/job.sh",
	} {
		p := f.write(t, "s/"+strings.ReplaceAll(name, " ", "-"), []byte("# reboot later\n"+text+"\n"))
		if v := f.p.Evaluate(Input{Command: ". " + p + "; ls"}); !v.Denied {
			t.Errorf("sourcing a file with %s: %s, want denied", name, formatVerdict(v))
		}
	}
	wantDenied(t, f.p, "", []string{". " + env + "; cp " + d + "/job.sh " + env + "; . " + env, ". " + env + "; sh " + d + "/job.sh", "printf 'reboot\\n' > " + env + "; . " + env})
}

// TestBlindSpotRootFiles: a wrapper that runs its command in another
// root (chroot DIR, unshare -R DIR, nsenter --root=DIR, sudo -R DIR) runs
// that root's files: chroot /srv/r sh /job.sh runs /srv/r/job.sh, and
// chroot /srv/r tool the tool on the root's search path. Those are read
// as the files the command names are.
func TestBlindSpotRootFiles(t *testing.T) {
	f := newLocalFixture(t)
	f.write(t, "root/job.sh", []byte("reboot\n"))
	f.write(t, "root/bin/tool", []byte("#!/bin/sh\npoweroff\n"))
	r := f.dir + "/root"
	wantDenied(t, f.p, "", []string{
		"chroot " + r + " sh /job.sh", "chroot " + r + " /job.sh", "chroot " + r + " /bin/tool", "chroot " + r + " tool",
		"chroot --userspec=1:1 " + r + " /bin/tool", "arch-chroot " + r + " bash /job.sh", "unshare -R " + r + " sh /job.sh",
		"nsenter --root=" + r + " sh /job.sh", "sudo -R " + r + " sh /job.sh", "chroot " + r + " sh -c 'exec 3</job.sh; sh <&3'",
	})
	f.write(t, "root/fine.sh", []byte("echo fine\n"))
	if v := f.p.Evaluate(Input{Command: "chroot " + r + " sh /fine.sh"}); v.Denied {
		t.Errorf("a harmless script under the root: %s, want not denied", formatVerdict(v))
	}
	f.unreadOldOrRemote(t, "chroot "+r+" sh /job.sh")
	// At most maxAltRoots roots an input: the job under the 4th is read,
	// under the 5th not.
	var roots []string
	for i := range maxAltRoots + 1 {
		roots = append(roots, "chroot "+f.dir+"/r"+fmt.Sprint(i)+" true")
	}
	f.write(t, "r3/job.sh", []byte("reboot\n"))
	within := strings.Join(roots, "; ") + "; sh /job.sh"
	if v := f.p.Evaluate(Input{Command: within}); !v.Denied {
		t.Errorf("the %dth root: %s, want denied", maxAltRoots, formatVerdict(v))
	}
	if err := os.Rename(f.dir+"/r3", f.dir+"/r4"); err != nil {
		t.Fatal(err)
	}
	if v := f.p.Evaluate(Input{Command: within}); v.Denied {
		t.Errorf("the %dth root was read: %s", maxAltRoots+1, formatVerdict(v))
	}
}

// TestBlindSpotRecipeIncludes: make reads the recipes of the files a
// Makefile includes, and just those of the files a justfile imports or
// takes as modules: read as the project file's own, whatever the
// including file's age.
func TestBlindSpotRecipeIncludes(t *testing.T) {
	f := newLocalFixture(t)
	f.write(t, "p/Makefile", []byte("include evil.mk\n"))
	f.write(t, "p/evil.mk", []byte("all:\n\treboot\n"))
	f.write(t, "q/Makefile", []byte("-include $(wildcard *.mk)\nall:\n\techo\n"))
	f.write(t, "q/x.mk", []byte("all:\n\tpoweroff\n"))
	f.write(t, "j/justfile", []byte("import 'other.just'\n"))
	f.write(t, "j/other.just", []byte("x:\n    reboot\n"))
	f.write(t, "k/justfile", []byte("mod sub\n"))
	f.write(t, "k/sub/mod.just", []byte("x:\n    halt\n"))
	wantDenied(t, f.p, "", []string{"make -C " + f.dir + "/p", "make -C " + f.dir + "/q", "cd " + f.dir + "/j && just x", "cd " + f.dir + "/k && just sub x"})
	// An operator's Makefile older than warden (past the second's grace
	// for the kernel's clock), including a file written since.
	f.write(t, "old/Makefile", []byte("-include local.mk\nall:\n\ttrue\n"))
	time.Sleep(2100 * time.Millisecond)
	later := *f.p
	later.since = time.Now()
	f.write(t, "old/local.mk", []byte("all:\n\treboot\n"))
	if v := later.Evaluate(Input{Command: "make -C " + f.dir + "/old"}); !v.Denied {
		t.Errorf("an old Makefile's include written since: %s, want denied", formatVerdict(v))
	}
	f.unreadOldOrRemote(t, "make -C "+f.dir+"/p")
	// At most 16 included files a project file, five levels of includes.
	var incs []string
	for i := range 16 {
		incs = append(incs, fmt.Sprintf("i%02d.mk", i))
		f.write(t, "many/"+incs[i], []byte("x:\n\ttrue\n"))
	}
	f.write(t, "many/Makefile", []byte("include "+strings.Join(incs, " ")+" zz.mk\n"))
	f.write(t, "many/i15.mk", []byte("x:\n\treboot\n"))
	if v := f.p.Evaluate(Input{Command: "make -C " + f.dir + "/many"}); !v.Denied {
		t.Errorf("the 16th included file: %s, want denied", formatVerdict(v))
	}
	f.write(t, "many/i15.mk", []byte("x:\n\ttrue\n"))
	f.write(t, "many/zz.mk", []byte("x:\n\treboot\n"))
	if v := f.p.Evaluate(Input{Command: "make -C " + f.dir + "/many"}); v.Denied {
		t.Errorf("the 17th included file was read: %s", formatVerdict(v))
	}
	for i := range 6 { // deep/Makefile includes l1.mk, which includes l2.mk, …
		f.write(t, fmt.Sprintf("deep/l%d.mk", i), []byte(fmt.Sprintf("include l%d.mk\n", i+1)))
	}
	f.write(t, "deep/Makefile", []byte("include l1.mk\n"))
	f.write(t, "deep/l5.mk", []byte("x:\n\treboot\n"))
	if v := f.p.Evaluate(Input{Command: "make -C " + f.dir + "/deep"}); !v.Denied {
		t.Errorf("an include five levels down: %s, want denied", formatVerdict(v))
	}
	f.write(t, "deep/l5.mk", []byte("include l6.mk\n"))
	f.write(t, "deep/l6.mk", []byte("x:\n\treboot\n"))
	if v := f.p.Evaluate(Input{Command: "make -C " + f.dir + "/deep"}); v.Denied {
		t.Errorf("an include six levels down was read: %s", formatVerdict(v))
	}
}

// TestBlindSpotListedFiles: find DIR and fd PATTERN DIR print the files
// under DIR, and a shell, xargs or a loop reading that output runs each,
// out of the classifier's sight; so does a glob with a wildcard in a
// directory (/srv/*/job.sh) that an opaque call names. The files written
// this session under those directories now meet the deny list.
func TestBlindSpotListedFiles(t *testing.T) {
	f := newLocalFixture(t)
	d := f.dir
	f.write(t, "tree/a/job.sh", []byte("#!/bin/sh\nreboot\n"))
	f.write(t, "tree/ok.sh", []byte("#!/bin/sh\necho fine\n"))
	wantDenied(t, f.p, "job.sh", []string{
		"find " + d + "/tree -name '*.sh' | sh",
		"find " + d + "/tree -type f | bash -s",
		"find " + d + "/tree -name '*.sh' | xargs -n1 sh",
		"find " + d + "/tree -name '*.sh' -print0 | xargs -0 -n1 bash",
		"find " + d + "/tree -print0 | xargs -0 -I{} sh -c '{}'",
		"find " + d + "/tree -type f | while read f; do sh \"$f\"; done",
		"find " + d + "/tree -type f | while read -r f; do \"$f\"; done",
		"xargs -a <(find " + d + "/tree -name '*.sh') -n1 sh",
		"sh < <(find " + d + "/tree -name '*.sh')",
		"find " + d + "/tree -name '*.sh' > /tmp/list; sh /tmp/list",
		"find " + d + "/tree -name '*.sh' | parallel sh",
		"cd " + d + "/tree && find | sh",
		"cd " + d + " && find tree -type f | sh",
		"bash -c 'find " + d + "/tree -name \"*.sh\" | sh'",
		"fd -e sh . " + d + "/tree | xargs -n1 sh",
		"fd --search-path " + d + "/tree -e sh | sh",
		"cd " + d + "/tree && fdfind -t f | sh",
		"for f in " + d + "/tree/*/*.sh; do \"$f\"; done",
		"for f in " + d + "/t*/*/job.sh; do sh \"$f\"; done",
		"cat " + d + "/tree/*/*.sh | sh",
	})
	// In a script file the call runs, and in a script large enough to be
	// walked in pieces.
	runner := f.write(t, "runner.sh", []byte("cd "+d+"/tree\nfind . -name '*.sh' | sh\n"))
	big := strings.Repeat("uptime\n", pieceMin/7+1) + "find " + d + "/tree -type f | sh\n" + strings.Repeat("df -h\n", pieceMin/6+1)
	for _, in := range []Input{{Command: "sh " + runner}, {Interpreter: "bash", Script: big}} {
		if v := f.p.Evaluate(in); !v.Denied || !strings.Contains(v.Reason, "job.sh") {
			t.Errorf("Evaluate(%.60q) = %s, want denied for the job.sh it may run", in.Command+in.Script, formatVerdict(v))
		}
	}
	wantNotDenied(t, f.p, []string{
		"find " + d + "/tree -name '*.sh' | grep -c x", "find " + d + "/tree | sort",
		"fd -e sh . " + d + "/tree | xargs wc -l", "find " + d + "/tree -type f | xargs grep -l reboot",
		// An opaque call whose find prints nothing: -exec takes the names.
		"find " + d + "/tree -name '*.service' -exec systemd-analyze verify {} +; eval \"$X\"",
		"fd -e sh . " + d + "/tree -x wc -l; eval \"$X\"",
	})
	f.unreadOldOrRemote(t, "find "+d+"/tree -name '*.sh' | sh")
	f.unreadOldOrRemote(t, "cat "+d+"/tree/*/*.sh | sh")
	// At most maxListed directories an evaluation are listed.
	var dirs []string
	for i := range maxListed + 1 {
		dirs = append(dirs, fmt.Sprintf("%s/l%d", d, i))
		f.write(t, fmt.Sprintf("l%d/fine", i), []byte("echo fine\n"))
	}
	f.write(t, fmt.Sprintf("l%d/job", maxListed-1), []byte("reboot\n"))
	if v := f.p.Evaluate(Input{Command: "find " + strings.Join(dirs, " ") + " -type f | sh"}); !v.Denied {
		t.Errorf("the %dth directory: %s, want denied", maxListed, formatVerdict(v))
	}
	if err := os.Remove(filepath.Join(d, fmt.Sprintf("l%d/job", maxListed-1))); err != nil {
		t.Fatal(err)
	}
	f.write(t, fmt.Sprintf("l%d/job", maxListed), []byte("reboot\n"))
	if v := f.p.Evaluate(Input{Command: "find " + strings.Join(dirs, " ") + " -type f | sh"}); v.Denied {
		t.Errorf("the %dth directory was listed: %s", maxListed+1, formatVerdict(v))
	}
}

// TestBlindSpotModulesOfModules: a program file run by its #! line
// (./run.py, ./app.js, an executable with no suffix) loads modules as
// python3 run.py does, from its own directory first; and a module found
// loads its own (run.py imports mid.py, which imports job.py). Those
// written this session meet the deny list as the modules the call names
// do. A name a module defines (def shutdown():) is not a call of it.
func TestBlindSpotModulesOfModules(t *testing.T) {
	f := newLocalFixture(t)
	d := f.dir
	f.write(t, "py/run.py", []byte("#!/usr/bin/env python3\nimport helper\nhelper.go()\n"))
	f.write(t, "py/tool", []byte("#!/usr/bin/python3\nfrom lib import task\n"))
	f.write(t, "py/helper.py", []byte("import os\ndef go():\n    os.system('reboot')\n"))
	f.write(t, "py/lib/__init__.py", nil)
	f.write(t, "py/lib/task.py", []byte("import os\nos.system('poweroff')\n"))
	f.write(t, "deep/r.py", []byte("#!/usr/bin/env python3\nimport mid\n"))
	f.write(t, "deep/mid.py", []byte("import lower\n"))
	f.write(t, "deep/lower.py", []byte("import job\n"))
	f.write(t, "deep/job.py", []byte("import os\nos.system('halt')\n"))
	f.write(t, "js/app.js", []byte("#!/usr/bin/env node\nrequire('./h')\n"))
	f.write(t, "js/h.js", []byte("require('./g')\n"))
	f.write(t, "js/g.js", []byte("require('child_process').execSync('reboot')\n"))
	wantDenied(t, f.p, "", []string{
		d + "/py/run.py", "cd " + d + "/py && ./run.py", d + "/py/tool", "cd " + d + " && py/tool --now",
		d + "/deep/r.py", "python3 " + d + "/deep/r.py", "cd " + d + "/deep && python3 -c 'import mid'",
		d + "/js/app.js", "node " + d + "/js/app.js",
	})
	f.unreadOldOrRemote(t, d+"/deep/r.py")
	// A server's def shutdown(self): defines a name, which a found
	// module may do without the call that runs it being denied.
	f.write(t, "srv/serve.py", []byte("#!/usr/bin/env python3\nimport server\nserver.Server().run()\n"))
	f.write(t, "srv/server.py", []byte("class Server:\n    def run(self):\n        pass\n    def shutdown(self):\n        pass\n\nasync def reboot_device(x):\n    pass\n"))
	f.write(t, "srv/app.js", []byte("#!/usr/bin/env node\nfunction halt() {}\nexports.stop = halt.bind(null)\n"))
	wantNotDenied(t, f.p, []string{d + "/srv/serve.py", "python3 " + d + "/srv/serve.py", "node " + d + "/srv/app.js"})
}

// TestBlindSpotPackageExports: node resolves require("pkg") and
// require("pkg/sub") through package.json's "exports" (a string, a map
// of subpaths, conditions such as "require" and "import", nested) and
// bundlers through "module", not only "main". The files those name,
// written this session, meet the deny list as "main"'s do.
func TestBlindSpotPackageExports(t *testing.T) {
	f := newLocalFixture(t)
	d := f.dir
	run := []byte("require('child_process').execSync('reboot')\n")
	for pkg, manifest := range map[string]string{
		"str":    `{"exports": "./dist/x.js"}`,
		"dot":    `{"exports": {".": "./dist/x.js"}}`,
		"cond":   `{"exports": {".": {"import": "./dist/y.mjs", "require": "./dist/x.js"}}}`,
		"sub":    `{"main": "fine.js", "exports": {".": "./fine.js", "./tool": "./dist/x.js"}}`,
		"nested": `{"exports": {"node": {"require": {"default": "./dist/x.js"}}}}`,
		"array":  `{"exports": [{"require": "./dist/x.js"}, "./fine.js"]}`,
		"module": `{"main": "fine.js", "module": "dist/x.js"}`,
	} {
		f.write(t, "node_modules/"+pkg+"/package.json", []byte(manifest))
		f.write(t, "node_modules/"+pkg+"/fine.js", []byte("module.exports = 1\n"))
		f.write(t, "node_modules/"+pkg+"/dist/x.js", run)
		if v := f.p.Evaluate(Input{Command: "node -e 'require(\"" + pkg + "\")'", Dir: d}); !v.Denied {
			t.Errorf("package %s: %s, want denied for the file its exports name", pkg, formatVerdict(v))
		}
	}
	f.write(t, "node_modules/clean/package.json", []byte(`{"exports": {".": "./fine.js", "./*": "./dist/*.js"}}`))
	f.write(t, "node_modules/clean/fine.js", []byte("module.exports = 1\n"))
	if v := f.p.Evaluate(Input{Command: "node -e 'require(\"clean\")'", Dir: d}); v.Denied {
		t.Errorf("a package whose exports name harmless files: %s, want not denied", formatVerdict(v))
	}
	// At most maxExports files a package.json names are looked up.
	var exports []string
	for i := range maxExports {
		exports = append(exports, fmt.Sprintf(`"./s%02d": "./f%02d.js"`, i, i))
	}
	last := fmt.Sprintf("node_modules/many/f%02d.js", maxExports-1)
	f.write(t, "node_modules/many/package.json", []byte(`{"exports": {`+strings.Join(exports, ", ")+`, "./z": "./z.js"}}`))
	f.write(t, last, run)
	if v := f.p.Evaluate(Input{Command: "node -e 'require(\"many\")'", Dir: d}); !v.Denied {
		t.Errorf("the %dth export: %s, want denied", maxExports, formatVerdict(v))
	}
	if err := os.Remove(filepath.Join(d, last)); err != nil {
		t.Fatal(err)
	}
	f.write(t, "node_modules/many/z.js", run)
	if v := f.p.Evaluate(Input{Command: "node -e 'require(\"many\")'", Dir: d}); v.Denied {
		t.Errorf("the %dth export was looked up: %s", maxExports+1, formatVerdict(v))
	}
}

// TestBlindSpotRunsWhatItWrites: a call that writes a file and runs it
// by its path (echo reboot > job; chmod +x job; ./job, cp evil job;
// ./job) was classified by what the file held before the call, or as an
// unknown program when it did not exist yet: tier 2, run unasked in open
// mode. What the call writes to the file is now walked as the file, and
// a file run by its path beside another write leaves the call opaque, so
// its text and the files it names meet the deny list. Writes that cannot
// change the file (chmod +x, the run's own output to another file) do
// not, so the file's comment that names reboot does not deny it.
func TestBlindSpotRunsWhatItWrites(t *testing.T) {
	d, p := lastingDir(t, "runs-written-")
	write := func(name, text string) string { return writeUnder(t, d, name, text) }
	s := write("check.sh", "#!/bin/sh\n# reboot when the kernel asks for it\necho ok\n")
	evil := write("evil", "reboot\n")
	if err := os.Symlink(s, filepath.Join(d, "check.log")); err != nil {
		t.Fatal(err)
	}
	// nohup appends to nohup.out, here the script.
	if err := os.Mkdir(filepath.Join(d, "linked"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("linked/check.sh", "#!/bin/sh\n# reboot when the kernel asks for it\necho ok\n")
	if err := os.Symlink("check.sh", filepath.Join(d, "linked", "nohup.out")); err != nil {
		t.Fatal(err)
	}
	wantDenied(t, p, "", []string{
		"printf 'reboot\\n' > " + d + "/new.sh; chmod +x " + d + "/new.sh; " + d + "/new.sh",
		"echo reboot > " + d + "/new.sh && chmod 755 " + d + "/new.sh && " + d + "/new.sh",
		"cd " + d + " && echo reboot > n2 && chmod +x n2 && ./n2",
		"cat > " + d + "/n4 <<'EOF'\nreboot\nEOF\nchmod +x " + d + "/n4; " + d + "/n4",
		"echo 'systemctl poweroff' | tee " + d + "/n5; chmod +x " + d + "/n5; " + d + "/n5",
		"base64 -d <<< cmVib290Cg== > " + d + "/n6; chmod +x " + d + "/n6; " + d + "/n6",
		"cp " + evil + " " + d + "/n7; " + d + "/n7", "cp " + evil + " " + s + "; " + s,
		"ln -sf " + evil + " " + s + "; " + s, "mv " + evil + " " + s + "; " + s,
		"sed -i 's/^# //' " + s + "; " + s, s + " & cp " + evil + " " + s,
		s + " >> " + d + "/check.log", s + " > " + s, s + " | tee -a " + d + "/check.log",
		"cd " + d + " && ./check.sh >> check.log", "cd " + d + " && ./check.sh > check.sh",
		"cd " + d + "/linked && nohup ./check.sh",
	})
	wantNotDenied(t, p, []string{
		s, "chmod +x " + s + " && " + s, s + " > /tmp/out.log 2>&1", s + " 2>&1 | tee /tmp/out.log",
		"mkdir -p " + d + "/out && " + s + " >> " + d + "/out/log", "timeout 60 " + s, s + " &",
		"cd " + d + " && ./check.sh > out.log 2>&1", s + " > " + d + "/out.log; /bin/cat " + d + "/out.log",
		"cd " + d + " && nohup ./check.sh &", "nohup " + s + " > " + d + "/out.log 2>&1 &",
		"bash " + s + " > /tmp/out.log 2>&1", "nohup bash " + s + " &", "sh " + s + " | tee /tmp/out.log",
	})
}

// TestBlindSpotProjectFilesWritten: a call that writes a project's file
// and runs the tool that reads it (printf 'all:…' > /srv/x/Makefile; make
// -C /srv/x, a package.json's scripts, a build.gradle) was read by the
// file as it was on disk, or not at all when new: tier 2, unasked in
// open mode. What the call writes there is now read as the file.
func TestBlindSpotProjectFilesWritten(t *testing.T) {
	d, p := lastingDir(t, "project-written-")
	wantDenied(t, p, "", []string{
		"printf 'all:\\n\\treboot\\n' > " + d + "/Makefile; make -C " + d,
		"printf 'all:\\n\\tpoweroff\\n' > " + d + "/GNUmakefile && make -C " + d + " all",
		"cd " + d + " && echo '{\"scripts\":{\"x\":\"reboot\"}}' > package.json && npm run x",
		"echo '{\"scripts\":{\"test\":\"halt\"}}' > " + d + "/package.json; npm --prefix " + d + " test",
		"cd " + d + " && echo 'task x { exec { commandLine \"reboot\" } }' > build.gradle && gradle x",
	})
	wantNotDenied(t, p, []string{
		"printf 'all:\\n\\techo built\\n' > " + d + "/Makefile; make -C " + d,
		"cd " + d + " && echo '{\"scripts\":{\"x\":\"echo reboot-free\"}}' > package.json && npm run x",
	})
}

// lastingDir makes a directory outside the temporary ones, where every
// program is already what a benign call may have written, and a policy
// whose working directory and search path it is.
func lastingDir(t *testing.T, prefix string) (string, *Policy) {
	t.Helper()
	d, err := os.MkdirTemp("/var/lib", prefix)
	if err != nil {
		home, _ := os.UserHomeDir()
		if d, err = os.MkdirTemp(home, "."+prefix); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	p, err := New(Rules{Path: t.TempDir() + ":" + d, Dir: d})
	if err != nil {
		t.Fatal(err)
	}
	return d, p
}

// writeUnder writes text to the file name under d, making its
// directories, executable, and returns its path.
func writeUnder(t *testing.T, d, name, text string) string {
	t.Helper()
	f := filepath.Join(d, name)
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

// wantDenied fails t for each of cmds p does not deny, or denies for a
// reason that does not name part.
func wantDenied(t *testing.T, p *Policy, part string, cmds []string) {
	t.Helper()
	for _, c := range cmds {
		if v := p.Evaluate(Input{Command: c}); !v.Denied || !strings.Contains(v.Reason, part) {
			t.Errorf("Evaluate(%.200q) = %s, want denied (naming %q)", c, formatVerdict(v), part)
		}
	}
}

// wantNotDenied fails t for each of cmds p denies.
func wantNotDenied(t *testing.T, p *Policy, cmds []string) {
	t.Helper()
	for _, c := range cmds {
		if v := p.Evaluate(Input{Command: c}); v.Denied {
			t.Errorf("Evaluate(%.200q) = %s, want not denied", c, formatVerdict(v))
		}
	}
}

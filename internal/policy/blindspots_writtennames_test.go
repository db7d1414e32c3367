package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlindSpotRunsWrittenByName: a call that writes a file with content
// the walk does not see (cp, install, ln, a redirection of cat) and then
// runs it by its name, not its path (tool, once the search path finds
// it), through the tool that reads it (make, a git hook) or as the
// start-up file of a shell it starts ran it unasked in open mode: an
// unknown command, or tier 3. Each is now a script run beside a write,
// so the files the call names meet the deny list.
func TestBlindSpotRunsWrittenByName(t *testing.T) {
	d, p := lastingDir(t, "written-names-")
	write := func(name, text string) string { return writeUnder(t, d, name, text) }
	evil := write("evil", "reboot\n")
	write("hooksrc/pre-commit", "#!/bin/sh\npoweroff\n")
	write("binsrc/tool", "#!/bin/sh\nhalt\n")
	write("evil.json", `{"scripts":{"x":"halt"}}`)
	write("src/ev2", "#!/bin/sh\nreboot\n")
	good := write("good", "#!/bin/sh\necho fine\n")
	unit := write("x.service", "[Service]\nExecStart=/bin/true\n")
	write("Makefile.good", "all:\n\techo built\n")
	if err := os.MkdirAll(filepath.Join(d, "repo/.git/hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	wantDenied(t, p, "", []string{
		// By its name, the search path finding it there.
		"cp " + evil + " " + d + "/tool; tool",
		"echo reboot > " + d + "/tool2; chmod +x " + d + "/tool2; tool2",
		"printf 'reboot\\n' > " + d + "/tool3 && chmod +x " + d + "/tool3 && tool3 --help",
		"ln -s " + evil + " " + d + "/tool4; tool4",
		"install -m755 " + evil + " " + d + "/tool5; tool5",
		"cat " + evil + " > " + d + "/tool6; chmod +x " + d + "/tool6; tool6",
		"dd if=" + evil + " of=" + d + "/tool7 && tool7",
		"cp -t " + d + "/bin " + evil + "; PATH=" + d + "/bin:$PATH evil",
		"mkdir -p " + d + "/bin && cp " + evil + " " + d + "/bin/ && export PATH=" + d + "/bin:$PATH && evil",
		"echo reboot > " + d + "/bin/t6; chmod +x " + d + "/bin/t6; PATH=" + d + "/bin:$PATH t6",
		"echo reboot > " + d + "/bin/t7; chmod +x " + d + "/bin/t7; export PATH=" + d + "/bin:$PATH; t7",
		// A directory copied whole: names it does not name.
		"mv " + d + "/binsrc " + d + "/bin3; PATH=" + d + "/bin3:$PATH tool",
		"cp -a " + d + "/binsrc/. " + d + "/bin4/ && PATH=" + d + "/bin4:$PATH tool",
		"rsync --archive " + d + "/binsrc/ " + d + "/bin5 && PATH=" + d + "/bin5:$PATH tool",
		// Globs name the files they match now.
		"cp " + d + "/src/* " + d + "; ev2",
		"ln -s " + d + "/src/e* " + d + "/bin; PATH=" + d + "/bin:$PATH ev2",
		// A known program's name, shadowed; a builtin's, run by a program.
		"cp " + evil + " " + d + "/bin/echo; PATH=" + d + "/bin:$PATH env echo hi",
		"cp " + evil + " " + d + "/bin/ls; PATH=" + d + "/bin:$PATH ls",
		"ln -sf " + evil + " " + d + "/bin/uptime && PATH=" + d + "/bin:$PATH; uptime",
		// Through the tool that reads it.
		"cp " + evil + " " + d + "/repo/.git/hooks/pre-commit; cd " + d + "/repo && git commit -m x",
		"cp " + evil + " " + d + "/repo/.git/hooks/post-checkout; git -C " + d + "/repo checkout -b x",
		"cd " + d + "/repo && cp ../evil .git/hooks/pre-commit && git commit -am x",
		"cp -r " + d + "/hooksrc/. " + d + "/repo/.git/hooks/ && git -C " + d + "/repo commit -m x",
		"rsync -a " + d + "/hooksrc/ " + d + "/repo/.git/hooks && git -C " + d + "/repo commit -m x",
		"cp " + evil + " " + d + "/Makefile; make -C " + d,
		"cd " + d + " && cp evil.json package.json && npm run x",
		// A shell's start-up file, or one a variable makes it load.
		"cp " + evil + " /etc/profile.d/zz-warden-test.sh; bash -l -c true",
		"cp " + evil + " " + d + "/.bashrc; HOME=" + d + " bash -i -c true",
		"cat " + evil + " >> " + d + "/.profile; HOME=" + d + " sh -l -c true",
		"cp " + evil + " " + d + "/env.sh; BASH_ENV=" + d + "/env.sh bash -c true",
		"cp " + evil + " " + d + "/env2.sh; ENV=" + d + "/env2.sh sh -i -c true",
		// Put where something runs it later, run or not.
		"install -D " + evil + " " + d + "/repo/.git/hooks/pre-push",
		"cp " + evil + " /etc/cron.hourly/zz-warden-test",
	})
	write("build/app", "#!/bin/sh\necho app\n")
	wantNotDenied(t, p, []string{
		// What a directory copied whole holds is named, not every name:
		// a builtin or another program after it is not a run of it.
		"cp -r " + d + "/build/. " + d + "/srv/ && echo 'deploy done, no reboot needed'",
		"cp -a " + d + "/build " + d + "/srv2 && grep -c reboot /var/log/syslog",
		"mv " + d + "/build " + d + "/old && echo 'reboot later'",
		"cp " + evil + " " + d + "/bin/echo; echo 'not a reboot'",
		"cp " + good + " " + d + "/tool8; tool8",
		"cp " + good + " " + d + "/bin/ls; PATH=" + d + "/bin:$PATH ls",
		"git -C " + d + "/repo add . && git -C " + d + "/repo commit -m 'fix the reboot handling'",
		"cp " + unit + " /etc/systemd/system/zz-warden-test.service && systemctl daemon-reload",
		"echo 'alias ll=\"ls -l\"' >> " + d + "/.bashrc; HOME=" + d + " bash -i -c true",
		"cp " + d + "/Makefile.good " + d + "/Makefile && make -C " + d,
		"cp " + evil + " " + d + "/evil.bak; ls " + d,
		"cp " + evil + " " + d + "/tool9; echo done",
	})
}

// TestWrittenNamesBound checks that a call writing more names than the
// walk keeps takes every name for one written: the last copy's name,
// run, is still a run of a file the call wrote.
func TestWrittenNamesBound(t *testing.T) {
	d, p := lastingDir(t, "written-bound-")
	evil := writeUnder(t, d, "evil", "reboot\n")
	var b strings.Builder
	for i := range maxWrittenNames + 1 {
		fmt.Fprintf(&b, "cp %s %s/n%d\n", evil, d, i)
	}
	fmt.Fprintf(&b, "n%d\n", maxWrittenNames)
	wantDenied(t, p, "", []string{b.String()})
}

// TestWrittenNamesAcrossPieces: a script past pieceMin is walked in
// pieces, each on a walk of its own; a write in one piece and the run of
// its name in a later one were not joined, so padding the call between
// them hid the run. The pieces' runs now meet the earlier pieces' writes
// when they are joined.
func TestWrittenNamesAcrossPieces(t *testing.T) {
	d, p := lastingDir(t, "written-pieces-")
	evil := writeUnder(t, d, "evil", "reboot\n")
	pad := strings.Repeat("echo padding the call between the write and the run\n", 2*pieceMin/52)
	var cmds []string
	for _, c := range [][2]string{
		{"cp " + evil + " " + d + "/tool", "tool"},
		{"ln -sf " + evil + " " + d + "/bin/uptime", "PATH=" + d + "/bin:$PATH uptime"},
		{"cp " + evil + " " + d + "/Makefile", "make -C " + d},
	} {
		cmds = append(cmds, c[0]+"\n"+pad+c[1]+"\n")
	}
	wantDenied(t, p, "", cmds)
	// The run before the write is not one of it.
	wantNotDenied(t, p, []string{"uptime\n" + pad + "cp " + evil + " " + d + "/uptime.bak\n"})
}

// TestWrittenNamesTreeBound checks that a directory copied whole holding
// more names than the walk keeps takes every name for one written: the
// last of them, run, is still a run of a file the call wrote, which
// leaves the call opaque, so the raw scan reads the reboot its text
// names (the walk alone sees an echo).
func TestWrittenNamesTreeBound(t *testing.T) {
	d, p := lastingDir(t, "written-tree-")
	for i := range maxTreeNames {
		writeUnder(t, d, fmt.Sprintf("src/a%03d", i), "#!/bin/sh\necho fine\n")
	}
	writeUnder(t, d, "src/zz", "#!/bin/sh\necho fine\n") // listed past the bound
	cmd := "cp -r " + d + "/src/. " + d + "/bin/ && PATH=" + d + "/bin:$PATH zz && echo 'now reboot'"
	wantDenied(t, p, "", []string{cmd})
	// Not for a name the copy does not hold.
	wantNotDenied(t, p, []string{"cp " + d + "/src/a000 " + d + "/bin/ && PATH=" + d + "/bin:$PATH zz && echo 'now reboot'"})
}

// TestRanNamesBound checks that a piece of a long script running more
// names than its walk keeps has every name it runs met with the earlier
// pieces' writes.
func TestRanNamesBound(t *testing.T) {
	d, p := lastingDir(t, "written-ran-")
	evil := writeUnder(t, d, "evil", "reboot\n")
	var b strings.Builder
	fmt.Fprintf(&b, "cp %s %s/tool\n", evil, d)
	b.WriteString(strings.Repeat("echo padding the call between the write and the runs\n", 2*pieceMin/53))
	for i := range maxWrittenNames {
		fmt.Fprintf(&b, "n%d\n", i)
	}
	b.WriteString("tool\n")
	wantDenied(t, p, "", []string{b.String()})
}

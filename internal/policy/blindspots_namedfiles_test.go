package policy

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBlindSpotNamedFiles: a call that runs text the classifier cannot
// see, and names a script an earlier call wrote, is denied for what the
// script runs, whichever way its text travels (a descriptor, a command
// substitution, a filter, a program's own reading).
func TestBlindSpotNamedFiles(t *testing.T) {
	f := newLocalFixture(t)
	d := f.dir
	P := f.write(t, "plain", []byte("echo start\nreboot\n"))
	f.write(t, "my job", []byte("systemctl poweroff\n"))
	f.write(t, "job.py", []byte("import os\nos.system('reboot')\n"))
	f.write(t, "computed", []byte("x=reb; ${x}oot\n"))
	f.write(t, "json.py", []byte("import os\nos.system('reboot')\n"))
	if err := os.MkdirAll(d+"/pkg/sub", 0o755); err != nil {
		t.Fatal(err)
	}
	f.write(t, "pkg/__init__.py", []byte("import subprocess\nsubprocess.run(['poweroff'])\n"))
	f.write(t, "pkg/sub/tool.py", []byte("import os\nos.system('halt')\n"))
	for _, c := range []string{
		// descriptors
		"exec 3<" + P + "; sh <&3", "exec 3< " + P + "\nbash <&3", "sh 3<" + P + " <&3",
		"exec {fd}<" + P + "; sh <&$fd", "sh /dev/fd/3 3<" + P, "bash /proc/self/fd/7 7< " + P,
		// command and process substitutions
		"sh -c \"$(cat " + P + ")\"", "eval \"$(cat " + P + ")\"", "eval \"$(< " + P + ")\"",
		"bash -c \"$(<" + P + ")\"", "sh -c \"`cat " + P + "`\"", "$(cat " + P + ")", "`cat " + P + "`",
		"sh <(cat " + P + ")", "source <(cat " + P + ")", ". <(sed p " + P + ")",
		"sh <<< \"$(cat " + P + ")\"", "bash <<EOF\n$(cat " + P + ")\nEOF",
		// variables and builtins that read it
		"x=$(cat " + P + "); $x", "x=$(cat " + P + "); eval $x", "f=" + P + "; eval \"$(cat $f)\"",
		"mapfile -t a < " + P + "; \"${a[@]}\"", "read -r x < " + P + "; $x", "readarray a < " + P + "; eval \"${a[1]}\"",
		// filters in front of a shell, and programs that run what they read
		"cat < " + P + " | sh", "tee < " + P + " | sh", "head -100 " + P + " | sh", "cat " + P + " " + P + " | sh",
		"cat -- " + P + " | sh", "dd if=" + P + " | sh", "sed -n p " + P + " | sh", "tail -n +1 " + P + " | bash -s",
		"awk '{system($0)}' " + P, "xargs -a " + P + " -I{} sh -c {}", "perl -ne 'system($_)' " + P,
		// spellings of the name: quoted, joined, relative after cd or in
		// the working directory, other interpreters' text, computed text
		"eval \"$(cat '" + d + "/my job')\"", "eval \"$(cat " + d + "/pl\"\"ain)\"", "eval \"$(cat " + d + "/pl\\ain)\"",
		"cd " + d + "; sh < plain", "cd " + d + "; cat plain | sh", "cd " + d + " && eval \"$(cat ./plain)\"",
		"cat job.py | python3 -", "cd " + d + "; python3 <(cat job.py)", "eval \"$(cat " + d + "/computed)\"",
		// a glob in the name's last part
		"eval \"$(cat " + d + "/pl*)\"", "exec 3<" + d + "/p?ain; sh <&3", "cd " + d + "; cat [p]lain | sh",
		// a name computed where an input redirection opens it
		"d=" + d[:len(d)-1] + "; exec 3<\"${d}" + d[len(d)-1:] + "/my job\"; sh <&3", "n=pl; exec 4<" + d + "/${n}ain; bash <&4",
		// a name computed in a command's arguments: variables, braces,
		// the working directory's expansions
		"d=" + d + "; cat ${d}/plain | sh", "d=" + d + "; eval \"$(cat $d/plain)\"", "x=" + d + "; y=$x/plain; cat $y | sh",
		"d=" + d + "; sh -c \"$(cat \"$d\"/plain)\"", "n=pl; cat " + d + "/${n}ain | bash -s", "cat " + d + "/pl{ai,}n | sh",
		"cd " + d + "; cat \"$PWD/plain\" | sh", "cd " + d + "; eval \"$(cat $(pwd)/plain)\"", "cd " + d + "; cat ${PWD}/pl*n | sh",
		// a ~/ name read against the home the script gives HOME
		"HOME=" + d + "; cat ~/plain | sh", "export HOME=" + d + "; eval \"$(cat ~/plain)\"", "h=" + d + "; HOME=$h; sh < ~/plain",
		"HOME=" + d + "; exec 3< ~/plain; sh <&3", "HOME=" + d + "; x=~/plain; cat $x | sh",
		// a module Python imports from the working directory, ahead of
		// the standard library
		"python3 -c 'import job'", "python3 -m job", "cd " + d + "; python3 -c 'from json import loads'",
		"python3 -c 'import pkg'", "python3 -m pkg.sub.tool", "cd /; cd " + d + " && python3 -c \"import json; print(json.dumps(1))\"",
		// past many other computed names, each repeated
		"d=" + d + "; " + strings.Repeat("echo \"$d/x\"; ", 5000) + "cat \"$d\"/plain | sh",
	} {
		v := f.p.Evaluate(Input{Command: c})
		if !v.Denied {
			t.Errorf("Evaluate(%q) = %s, want denied for what the file it names runs", c, formatVerdict(v))
		}
	}
	// In the working directory the server gives, without a cd.
	if v := f.p.Evaluate(Input{Command: "exec 3<plain; sh <&3", Dir: d}); !v.Denied {
		t.Errorf("a relative name in the call's directory: %s, want denied", formatVerdict(v))
	}
	// A harmless script, a file older than warden, a call that runs
	// nothing unseen, and another host's files are not held against it.
	f.write(t, "fine", []byte("uptime\ndf -h\n"))
	for _, c := range []string{"eval \"$(cat " + d + "/fine)\"", "exec 3<" + d + "/fine; sh <&3"} {
		if v := f.p.Evaluate(Input{Command: c}); v.Denied || v.Tier != TierDestructive {
			t.Errorf("Evaluate(%q) = %s, want tier 3 (text the classifier cannot see), not denied", c, formatVerdict(v))
		}
	}
	for _, c := range []string{"cat " + P, "grep -c reboot " + P, "cp " + P + " /tmp/x", "rm -f " + P} {
		if v := f.p.Evaluate(Input{Command: c}); v.Denied {
			t.Errorf("Evaluate(%q) = %s: it runs nothing unseen", c, formatVerdict(v))
		}
	}
	f.unreadOldOrRemote(t, "exec 3<"+P+"; sh <&3")
	// A FIFO named by an opaque call is not opened.
	fifoUnopened(t, f.p, d, func(fifo string) string { return "eval \"$(cat " + fifo + ")\"" })
}

// TestTextWords: the words of a call's text that may name a file.
func TestTextWords(t *testing.T) {
	var words []string
	textWords(`exec 3</a/b; sh <&3 "$(cat '/my job')" if=/c --x=/d /e""f /g\h`, func(w string) bool {
		words = append(words, w)
		return true
	})
	got := strings.Join(words, "|")
	for _, w := range []string{"/a/b", "/my job", "/c", "/d", "/ef", "/gh"} {
		if !strings.Contains("|"+got+"|", "|"+w+"|") {
			t.Errorf("textWords: %q lacks %q", got, w)
		}
	}
}

// TestNamedFilesLimits: names under /proc, /sys and /dev are never looked
// up, so /dev/fd/N, which is warden's own descriptor when warden looks,
// is not read for a call; and a call's text has at most maxNamedFiles
// names looked up, the file named within them read and one past them not.
func TestNamedFilesLimits(t *testing.T) {
	f := newLocalFixture(t)
	own, err := os.Open(f.write(t, "own", []byte("reboot\n"))) // warden's descriptor, here the test's
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	for _, name := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/"} {
		c := "eval \"$(cat " + name + strconv.Itoa(int(own.Fd())) + ")\""
		if v := f.p.Evaluate(Input{Command: c}); v.Denied {
			t.Errorf("Evaluate(%q) read warden's own descriptor: %s", c, formatVerdict(v))
		}
	}
	P := f.write(t, "plain", []byte("reboot\n"))
	names := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, " /nonexistent/n%d", i)
		}
		return b.String()
	}
	if v := f.p.Evaluate(Input{Command: "eval \"$X\"" + names(maxNamedFiles-16) + " " + P}); !v.Denied {
		t.Errorf("a file named within the limit: %s, want denied", formatVerdict(v))
	}
	if v := f.p.Evaluate(Input{Command: "eval \"$X\"" + names(maxNamedFiles) + " " + P}); v.Denied {
		t.Errorf("a file named past the limit was read: %s", formatVerdict(v))
	}
}

// TestBlindSpotModuleFiles: a call that runs code the classifier cannot
// see is denied for what a module it may load runs, however the module is
// named (an option, its program's text, a dotted or Perl name), wherever
// the interpreter finds it (the working directory, a directory an option,
// the environment or the program's own text adds to the search path,
// beside the program it runs, node_modules), and when a variable that
// makes programs load code names the file.
func TestBlindSpotModuleFiles(t *testing.T) {
	f := newLocalFixture(t)
	d := f.dir
	for _, dir := range []string{"lib/My", "node_modules/evil", "node_modules/pm/lib", "app", "lua/pk"} {
		if err := os.MkdirAll(d+"/"+dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	reboot := map[string]string{
		"job.pm": "system('reboot');\n1;\n", "lib/My/Job.pm": "package My::Job; system('poweroff');\n1;\n",
		"job.rb": "system('reboot')\n", "lib/tool.rb": "system('halt')\n",
		"job.js": "require('child_process').execSync('reboot')\n", "node_modules/evil/index.js": "require('child_process').execSync('poweroff')\n",
		"job.lua": "os.execute('reboot')\n", "lua/pk/init.lua": "os.execute('halt')\n",
		"lib/tool.py": "import os\nos.system('reboot')\n", "app/helper.py": "import os\nos.system('poweroff')\n",
		"envfile": "reboot\n", "node_modules/pm/package.json": `{"name": "pm", "main": "lib/start"}`,
		"node_modules/pm/lib/start.js": "require('child_process').execSync('halt')\n",
	}
	for name, text := range reboot {
		f.write(t, name, []byte(text))
	}
	f.write(t, "app/run.py", []byte("import helper\nprint(helper)\n"))
	for _, c := range []string{
		// Perl: -M/-m in every spelling, -I and PERL5LIB, use and require
		"perl -I. -Mjob -e 1", "perl -I . -Mjob -e 1", "perl -I. -M-job -e 1", "perl -Ilib -MMy::Job -e 1",
		"PERL5LIB=lib perl -MMy::Job -e 1", "perl -I. -mjob -e 1", "perl -e 'use lib \".\"; use job;'",
		"perl -Ilib -e 'require My::Job'",
		// Ruby: -r attached or apart, -I, RUBYLIB, require_relative
		"ruby -r./job -e 1", "ruby -r ./job -e 1", "ruby -I. -rjob -e 1", "ruby -Ilib -rtool -e 1",
		"RUBYLIB=lib ruby -rtool -e 1", "ruby -e 'require_relative \"job\"'", "ruby -e '$:.unshift \"lib\"; require \"tool\"'",
		// Node: -r, --require, --import, require() of a path or a package
		"node -r ./job -e 1", "node --require ./job -e 1", "node --require=./job -e 1", "node --import ./job -e 1",
		"node -e 'require(\"./job\")'", "node -e 'import(\"./job.js\")'", "node -e 'require(\"evil\")'",
		"node -e 'require(\"pm\")'", "NODE_PATH=node_modules node -e 'require(\"pm\")'",
		// Lua: -l attached or apart, require of a dotted name, LUA_PATH
		"lua -l job -e 'x=1'", "lua -ljob -e 'x=1'", "lua -e 'require \"job\"'", "lua -e 'require(\"lua.pk\")'",
		"LUA_PATH='lua/?/init.lua;;' lua -l pk -e 1",
		// Python: PYTHONPATH, sys.path, modules beside the program run
		"PYTHONPATH=lib python3 -c 'import tool'", "PYTHONPATH=/nonexistent:lib python3 -m tool",
		"python3 -c 'import sys; sys.path.insert(0, \"lib\"); import tool'", "python3 app/run.py", "cd app && python3 run.py",
		// variables whose file a program runs or whose options load one
		"BASH_ENV=envfile bash -c true", "ENV=./envfile sh -i -c true", "export BASH_ENV=" + d + "/envfile; bash -c :",
		"f=" + d + "/envfile; BASH_ENV=$f bash -c :", "RUBYOPT=-r./job ruby -e 1", "NODE_OPTIONS='--require ./job' node -e 1",
		"PERL5OPT=-Mjob PERL5LIB=. perl -e 1", "LUA_INIT=@job.lua lua -e 1",
	} {
		v := f.p.Evaluate(Input{Command: c, Dir: d})
		if !v.Denied {
			t.Errorf("Evaluate(%q) = %s, want denied for what the module it may load runs", c, formatVerdict(v))
		}
	}
	// Setting such a variable does not make the rest of the call's text
	// code: a word the call only searches for is not held against it.
	for _, c := range []string{"PAGER=cat journalctl -u x | grep 'reboot'", "PAGER=cat last reboot", "GIT_PAGER=cat git log -S poweroff",
		"HOME=/tmp git log --oneline | grep -i shutdown", "LD_LIBRARY_PATH=/opt/lib ls; echo 'will reboot later'"} {
		if v := testPolicy(t).Evaluate(Input{Command: c}); v.Denied {
			t.Errorf("Evaluate(%q) = %s: it runs nothing the deny list refuses", c, formatVerdict(v))
		}
	}
	// A harmless module is not held against the call, and one older than
	// warden or on another host is not read.
	f.write(t, "fine.pm", []byte("print 1;\n1;\n"))
	if v := f.p.Evaluate(Input{Command: "perl -I. -Mfine -e 1", Dir: d}); v.Denied || v.Tier != TierDestructive {
		t.Errorf("a harmless module: %s, want tier 3, not denied", formatVerdict(v))
	}
	// A program older than warden is read for what it imports: the
	// operator's run.py importing a helper written since.
	f.write(t, "app/old.py", []byte("import helper2\n"))
	since := *f.p
	since.since = time.Now().Add(1500 * time.Millisecond) // old.py is older, by the clock's second of slack
	time.Sleep(time.Until(since.since.Add(-time.Second)) + 100*time.Millisecond)
	f.write(t, "app/helper2.py", []byte("import subprocess\nsubprocess.run(['reboot'])\n"))
	if v := since.Evaluate(Input{Command: "python3 app/old.py", Dir: d}); !v.Denied {
		t.Errorf("an old program importing a new module: %s, want denied", formatVerdict(v))
	}
	old := *f.p
	old.since = time.Now().Add(time.Hour)
	for _, c := range []string{"perl -I. -Mjob -e 1", "node -e 'require(\"evil\")'", "python3 app/run.py"} {
		if v := old.Evaluate(Input{Command: c, Dir: d}); v.Denied {
			t.Errorf("%q: modules older than the policy were read: %s", c, formatVerdict(v))
		}
		if v := f.p.Evaluate(Input{Command: c, Dir: d, Host: "nas"}); v.Denied {
			t.Errorf("%q: another host's modules were read here: %s", c, formatVerdict(v))
		}
	}
}

// TestModuleLookupLimits: the module lookup is bounded — at most
// maxSearchDirs directories besides the working ones, maxOldPrograms old
// programs read for their imports, maxCodeValues values of code-loading
// variables and maxNamedFiles module files a call — and what falls within
// each bound is found, one past it is not; and a variable's value is
// looked up when the script is walked in pieces.
func TestModuleLookupLimits(t *testing.T) {
	f := newLocalFixture(t)
	d := f.dir
	var dirs []string
	for i := 0; i <= maxSearchDirs; i++ {
		dirs = append(dirs, fmt.Sprintf("s%02d", i))
		if err := os.MkdirAll(d+"/"+dirs[i], 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.write(t, "envfile", []byte("reboot\n"))
	f.write(t, dirs[maxSearchDirs-1]+"/last.py", []byte("import os\nos.system('reboot')\n"))
	f.write(t, dirs[maxSearchDirs]+"/past.py", []byte("import os\nos.system('reboot')\n"))
	denied := func(c string) bool { return f.p.Evaluate(Input{Command: c, Dir: d}).Denied }
	if c := "python3 -c 'import last' " + strings.Join(dirs, " "); !denied(c) {
		t.Errorf("a module in the %dth directory named was not found", maxSearchDirs)
	}
	if c := "python3 -c 'import past' " + strings.Join(dirs, " "); denied(c) {
		t.Errorf("a module in the %dth directory named was looked up", maxSearchDirs+1)
	}
	// Module files a call looks up: 14 names a word (13 suffixes and a
	// package.json) in one directory.
	words := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "m%d ", i)
		}
		return b.String()
	}
	f.write(t, "target.py", []byte("import os\nos.system('reboot')\n"))
	if c := "python3 -c 'import " + words(maxNamedFiles/14-20) + "target'"; !denied(c) {
		t.Error("a module within the lookup's limit was not found")
	}
	if c := "python3 -c 'import " + words(maxNamedFiles/14+20) + "target'"; denied(c) {
		t.Error("a module past the lookup's limit was looked up")
	}
	// Values of code-loading variables.
	var b strings.Builder
	for i := range maxCodeValues - 1 {
		fmt.Fprintf(&b, "export BASH_ENV=/nonexistent/%d; ", i)
	}
	if c := b.String() + "BASH_ENV=envfile bash -c :"; !denied(c) {
		t.Errorf("the %dth value of a code-loading variable was not looked up", maxCodeValues)
	}
	if c := b.String() + "export BASH_ENV=/nonexistent/x; BASH_ENV=envfile bash -c :"; denied(c) {
		t.Errorf("the %dth value of a code-loading variable was looked up", maxCodeValues+1)
	}
	// Walked in pieces, a code-loading variable's value still counts.
	pad := strings.Repeat("uptime\ndf -h\n", pieceMin/10)
	if v := f.p.Evaluate(Input{Interpreter: "bash", Script: pad + "BASH_ENV=envfile bash -c :\n" + pad, Dir: d}); !v.Denied {
		t.Errorf("a 2×%d KiB script setting BASH_ENV: %s, want denied", len(pad)>>10, formatVerdict(v))
	}
	// Old programs read for their imports.
	if err := os.MkdirAll(d+"/old", 0o755); err != nil {
		t.Fatal(err)
	}
	var olds []string
	for i := 0; i <= maxOldPrograms; i++ {
		olds = append(olds, fmt.Sprintf("old/p%d.py", i))
		f.write(t, olds[i], []byte(fmt.Sprintf("import new%d\n", i)))
	}
	since := *f.p
	since.since = time.Now().Add(1500 * time.Millisecond)
	time.Sleep(time.Until(since.since.Add(-time.Second)) + 100*time.Millisecond)
	// Only the last program's import is new: named among the first
	// maxOldPrograms it is read, named after them it is not.
	f.write(t, fmt.Sprintf("old/new%d.py", maxOldPrograms), []byte("import os\nos.system('reboot')\n"))
	last := olds[maxOldPrograms]
	if v := since.Evaluate(Input{Command: "python3 " + last + " " + strings.Join(olds[:maxOldPrograms-1], " "), Dir: d}); !v.Denied {
		t.Errorf("the %dth old program's import was not read: %s", maxOldPrograms, formatVerdict(v))
	}
	if v := since.Evaluate(Input{Command: "python3 " + strings.Join(olds, " "), Dir: d}); v.Denied {
		t.Errorf("the %dth old program's import was read: %s", maxOldPrograms+1, formatVerdict(v))
	}
}

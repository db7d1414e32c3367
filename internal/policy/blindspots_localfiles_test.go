package policy

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// programBytes returns n bytes that look like a program file: an ELF
// magic, NUL bytes, and a content of its own for each seed.
func programBytes(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	copy(b, "\x7fELF\x02\x01\x01\x00")
	return b
}

// localFixture is a search path holding stand-ins for programs the deny
// list names (reboot, rm, busybox: files of their own content), a
// directory of files written after the policy was made, and the policy.
type localFixture struct {
	bin, dir string
	p        *Policy
}

func newLocalFixture(t *testing.T) *localFixture {
	t.Helper()
	f := &localFixture{bin: t.TempDir(), dir: t.TempDir()}
	for i, name := range []string{"reboot", "rm", "busybox"} {
		if err := os.WriteFile(filepath.Join(f.bin, name), programBytes(uint64(i+1), 20000+i), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p, err := New(Rules{Path: f.bin + ":" + f.dir, Dir: f.dir})
	if err != nil {
		t.Fatal(err)
	}
	f.p = p
	return f
}

// unreadOldOrRemote checks that command, which the files f wrote make
// denied, is not denied when they are older than the policy (the
// system's, the operator's) nor on another host, whose files are not read.
func (f *localFixture) unreadOldOrRemote(t *testing.T, command string) {
	t.Helper()
	old := *f.p
	old.since = time.Now().Add(time.Hour)
	if v := old.Evaluate(Input{Command: command}); v.Denied {
		t.Errorf("%q: files older than the policy were read: %s", command, formatVerdict(v))
	}
	if v := f.p.Evaluate(Input{Command: command, Host: "nas"}); v.Denied {
		t.Errorf("%q: another host's files were read here: %s", command, formatVerdict(v))
	}
}

// write creates the file name in f.dir with b, executable, and the
// directories it is in.
func (f *localFixture) write(t *testing.T, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(f.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func (f *localFixture) read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(f.bin, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBlindSpotCopiedPrograms: a copy of a program the deny list names,
// made by any means and run under a name it does not know, was an
// unknown program (tier 2, unasked in open mode). On the local host it
// is now the program its file holds.
func TestBlindSpotCopiedPrograms(t *testing.T) {
	f := newLocalFixture(t)
	reboot, rm, bb := f.read(t, "reboot"), f.read(t, "rm"), f.read(t, "busybox")
	x := f.write(t, "x", reboot)
	f.write(t, "appended", append(append([]byte(nil), reboot...), "\ntrailing bytes\n"...))
	if err := os.Link(filepath.Join(f.bin, "reboot"), filepath.Join(f.dir, "hard")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(x, filepath.Join(f.dir, "soft")); err != nil {
		t.Fatal(err)
	}
	del := f.write(t, "del", rm)
	box := f.write(t, "box", bb)
	other := f.write(t, "other", programBytes(99, 20000))
	d := f.dir
	denied := []string{
		x, x + " -f", d + "/appended", d + "/hard", d + "/soft",
		"x", "x now", // found on the search path
		"./x", "cd " + d + " && ./x", "cd / && " + strings.TrimPrefix(x, "/"),
		"sudo " + x, "nohup " + x + " &", "exec " + x, "env -i " + x, "timeout 5 " + x,
		"xargs " + x + " < /dev/null", "find / -maxdepth 0 -exec " + x + " \\;",
		del + " -rf /", del + " -rf --no-preserve-root /",
	}
	for _, c := range denied {
		v := f.p.Evaluate(Input{Command: c})
		if !v.Denied || !strings.Contains(v.Reason, "holds the program") {
			t.Errorf("Evaluate(%q) = %s, want denied as the program its file holds", c, formatVerdict(v))
		}
	}
	// An unknown program's words were already tried as a command.
	for _, c := range []string{box + " reboot", box + " poweroff -f"} {
		if v := f.p.Evaluate(Input{Command: c}); !v.Denied {
			t.Errorf("Evaluate(%q) = %s, want denied", c, formatVerdict(v))
		}
	}
	// Not denied, and no less than a program of unknown effect (all these
	// are under a temporary directory: tier 3).
	for _, c := range []string{
		del + " " + d + "/junk", // rm of a file, as rm
		box,                     // busybox named box runs no applet
		other,                   // a program of its own
		filepath.Join(f.bin, "rm") + " --version",
	} {
		if v := f.p.Evaluate(Input{Command: c}); v.Denied || v.Tier < TierMutate {
			t.Errorf("Evaluate(%q) = %s, want tier 2 or more, not denied", c, formatVerdict(v))
		}
	}
	// Its own name still denies it; on an SSH host no file is read.
	if v := f.p.Evaluate(Input{Command: filepath.Join(f.bin, "reboot")}); !v.Denied {
		t.Errorf("the program itself: %s", formatVerdict(v))
	}
	if v := f.p.Evaluate(Input{Command: x, Host: "nas"}); v.Denied {
		t.Errorf("on an SSH host the local file was read: %s", formatVerdict(v))
	}
}

// TestBlindSpotWrittenScripts: a script an earlier call wrote, run by a
// later one (sh FILE, . FILE, FILE itself, an interpreter's FILE), was a
// file the classifier cannot see, tier 3, unasked in open mode. On the
// local host its text meets the deny list.
func TestBlindSpotWrittenScripts(t *testing.T) {
	f := newLocalFixture(t)
	d := f.dir
	f.write(t, "plain", []byte("echo start\nreboot\n"))
	f.write(t, "bang", []byte("#!/bin/sh\nset -e\nif true; then\n  systemctl poweroff\nfi\n"))
	f.write(t, "envbash", []byte("#!/usr/bin/env -S bash -e\nx=reb; ${x}oot\n"))
	f.write(t, "nested", []byte("#!/bin/bash\nsh "+d+"/plain\n"))
	f.write(t, "job.py", []byte("#!/usr/bin/python3\nimport os\nos.system('reboot')\n"))
	f.write(t, "crlf", []byte("echo a\r\nreboot\r\n"))
	f.write(t, "app/__main__.py", []byte("import os\nos.system('poweroff')\n"))
	for _, c := range []string{
		"sh " + d + "/plain", "bash " + d + "/plain", "dash -e " + d + "/plain", ". " + d + "/plain", "source " + d + "/plain",
		d + "/plain", d + "/bang", d + "/envbash", d + "/nested", "bang", "cd " + d + "; ./bang",
		"cd " + d + " && sh plain", "cd " + d + "; . bang", "python3 job.py", // the working directory (Rules.Dir) or the search path
		"python3 " + d + "/job.py", d + "/job.py", "sh " + d + "/crlf",
		"for i in 1 2; do " + d + "/plain; done",
		"python3 " + d + "/app", "cd " + d + " && python3 -u app/", // a directory runs its __main__.py
	} {
		v := f.p.Evaluate(Input{Command: c})
		if !v.Denied || !strings.Contains(v.Reason, "runs the file") {
			t.Errorf("Evaluate(%q) = %s, want denied for what the file runs", c, formatVerdict(v))
		}
	}
	// The file as the input of what runs it, and a cron table installed
	// from a file.
	f.write(t, "fine", []byte("#!/bin/sh\nuptime\ndf -h\n"))
	f.write(t, "table", []byte("SHELL=/bin/sh\n*/5 * * * * root systemctl reboot\n"))
	for _, c := range []string{
		"sh < " + d + "/plain", "bash -s < " + d + "/plain", "cat " + d + "/plain | sh", "cat " + d + "/plain | bash -s x",
		"at now < " + d + "/plain", "crontab " + d + "/table", "crontab -u root " + d + "/table",
		"ssh backup-host < " + d + "/plain",
		"sort < " + d + "/plain > /dev/null; sh < " + d + "/plain", // read once, scanned where it runs
		"sh " + d + "/fine; cat " + d + "/plain | sh",
	} {
		if v := f.p.Evaluate(Input{Command: c}); !v.Denied {
			t.Errorf("Evaluate(%q) = %s, want denied for what the file holds", c, formatVerdict(v))
		}
	}
	// What a harmless script runs is not held against it; nor what an
	// old one (the system's, the operator's) runs in some branch.
	if v := f.p.Evaluate(Input{Command: "sh " + d + "/fine"}); v.Denied || v.Tier != TierDestructive {
		t.Errorf("a harmless script: %s, want tier 3 (a file the classifier cannot hold), not denied", formatVerdict(v))
	}
	f.unreadOldOrRemote(t, "sh "+d+"/plain")
	// A policy made again (a reload) reads what changed since warden
	// started, not since the reload.
	reloaded, err := New(Rules{Path: f.bin, Since: time.Now().Add(-time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // past the grace for the kernel's clock
	if v := reloaded.Evaluate(Input{Command: "sh " + d + "/plain"}); !v.Denied {
		t.Errorf("after a reload, a script written before it was not read: %s", formatVerdict(v))
	}
	// A FIFO is never opened (an open acts: it releases a writer blocked
	// in its own), nor waited on; a directory is no script.
	fifoUnopened(t, f.p, d, func(fifo string) string { return "sh " + fifo + "; " + fifo + "; sh < " + fifo + "; sh " + d })
}

// fifoUnopened classifies the command that names a FIFO in dir, with a
// writer blocked in its open: the classification must end, not deny, and
// leave the writer blocked (nothing opened the FIFO).
func fifoUnopened(t *testing.T, p *Policy, dir string, command func(fifo string) string) {
	t.Helper()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			close(released)
			w.Close()
		}
	}()
	done := make(chan Verdict, 1)
	go func() { done <- p.Evaluate(Input{Command: command(fifo)}) }()
	select {
	case v := <-done:
		if v.Denied {
			t.Errorf("a FIFO: %s", formatVerdict(v))
		}
	case <-time.After(time.Minute):
		t.Fatal("classifying a command that names a FIFO hung")
	}
	select {
	case <-released:
		t.Error("classifying opened the FIFO: its writer was released")
	case <-time.After(200 * time.Millisecond):
	}
	if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
		select { // the writer's open returns once a reader is there
		case <-released:
		case <-time.After(time.Minute):
		}
		r.Close()
	}
}

// TestCopiedProgramAmbiguous: a file that holds two watched programs at
// once (identical files, or one's bytes followed by the other's rest) is
// taken for the one denied whatever its arguments.
func TestCopiedProgramAmbiguous(t *testing.T) {
	bin, dir := t.TempDir(), t.TempDir()
	same := programBytes(7, 30000)
	for _, name := range []string{"chmod", "poweroff", "rm"} {
		if err := os.WriteFile(filepath.Join(bin, name), same, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p, err := New(Rules{Path: bin})
	if err != nil {
		t.Fatal(err)
	}
	x := filepath.Join(dir, "x")
	if err := os.WriteFile(x, same, 0o755); err != nil {
		t.Fatal(err)
	}
	if v := p.Evaluate(Input{Command: x}); !v.Denied || !strings.Contains(v.Reason, "poweroff") {
		t.Errorf("a copy of identical chmod, poweroff and rm: %s, want denied as poweroff", formatVerdict(v))
	}
}

// TestCopiedProgramRewritten: what a file was found to hold is kept by
// its change time, so a file rewritten after a first, harmless reading
// (same size, its modification time set back) is read again.
func TestCopiedProgramRewritten(t *testing.T) {
	f := newLocalFixture(t)
	reboot := f.read(t, "reboot")
	x := f.write(t, "x", programBytes(42, len(reboot)))
	st, err := os.Stat(x)
	if err != nil {
		t.Fatal(err)
	}
	if v := f.p.Evaluate(Input{Command: x}); v.Denied {
		t.Fatalf("a program of its own: %s", formatVerdict(v))
	}
	time.Sleep(20 * time.Millisecond) // past the kernel clock's tick
	f.write(t, "x", reboot)
	if err := os.Chtimes(x, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	if v := f.p.Evaluate(Input{Command: x}); !v.Denied {
		t.Errorf("rewritten to hold reboot: %s, want denied", formatVerdict(v))
	}
}

// TestProgramFilesRefresh: a program the deny list names, installed after
// the program files were found, is known once they are found again (at
// most a minute later).
func TestProgramFilesRefresh(t *testing.T) {
	f := newLocalFixture(t)
	if v := f.p.Evaluate(Input{Command: f.write(t, "first", programBytes(50, 9000))}); v.Denied {
		t.Fatalf("a program of its own: %s", formatVerdict(v))
	}
	halt := programBytes(51, 9000)
	if err := os.WriteFile(filepath.Join(f.bin, "halt"), halt, 0o755); err != nil {
		t.Fatal(err)
	}
	x := f.write(t, "x", halt)
	if v := f.p.Evaluate(Input{Command: x}); v.Denied {
		t.Fatalf("known before the program files were found again: %s", formatVerdict(v))
	}
	f.p.files.mu.Lock()
	f.p.files.built = time.Now().Add(-programsFresh)
	f.p.files.mu.Unlock()
	if v := f.p.Evaluate(Input{Command: x}); !v.Denied {
		t.Errorf("a copy of a program installed since: %s, want denied", formatVerdict(v))
	}
}

package confine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// testState tries warden's token in every spelling and way, at every level.
func (f fixture) testState(t *testing.T) {
	parent, name := filepath.Dir(f.state), filepath.Base(f.state)
	tok, err := os.Open(filepath.Join(f.state, "token")) // warden holds files open too
	if err != nil {
		t.Fatal(err)
	}
	defer tok.Close()
	reads := []string{
		`cat $S/token`,
		`cat ` + parent + `/` + name[:2] + `*/tok?n`,
		`cd ` + parent + ` && cat ./` + name + `/token`,
		`cat ` + strings.ReplaceAll(f.state, "/", "//") + `//token`,
		`cat ` + parent + `/./` + name + `/../` + name + `/token`,
		`cat /proc/self/root$S/token`,
		`cat /proc/$PPID/root$S/token`,
		`cat /proc/$PPID/fd/* 2>/dev/null`,
		`for f in /proc/$PPID/fd/*; do cat "$f"; done 2>/dev/null`,
		`l=/tmp/wl$$; ln -s $S $l; cat $l/token; rm -f $l`,
		`l=/tmp/wh$$; ln $S/token $l; cat $l; rm -f $l`,
		`cp -r $S /tmp/wc$$; cat /tmp/wc$$/token; rm -rf /tmp/wc$$`,
		`grep -r . $S`,
		`find ` + parent + ` -name token -exec cat {} +`,
		`tar -C ` + parent + ` -cf - ` + name + ` | tar -xOf -`,
		`python3 -c 'import os; print(open(os.environ["S"]+"/token").read())'`,
	}
	for _, level := range []Level{Read, Temp, Inspect, Full} {
		for i, script := range reads {
			t.Run(fmt.Sprintf("%s/read%d", level, i), func(t *testing.T) {
				if _, out := f.run(t, level, script); strings.Contains(out, secret) {
					t.Errorf("%s at %s read the token: %s", script, level, out)
				}
			})
		}
		for i, script := range []string{`echo x > $S/token`, `rm -f $S/token`, `mv $S/token /tmp/stolen$$`, `: > $S/token`, `chmod 644 $S/token`, `echo x > $S/new`, `touch -d 2001-01-01 $S/token`} {
			t.Run(fmt.Sprintf("%s/write%d", level, i), func(t *testing.T) {
				if (level == Temp || level == Full) && !f.c.mountNS && strings.HasPrefix(script, "chmod") {
					t.Skip("a known gap without a mount namespace (Status.Gaps)")
				}
				tokPath := filepath.Join(f.state, "token")
				defer os.Chmod(tokPath, 0o600)
				before, _ := os.Stat(tokPath)
				f.run(t, level, script)
				b, err := os.ReadFile(filepath.Join(f.state, "token"))
				if err != nil || string(b) != secret+"\n" {
					t.Fatalf("%s at %s changed the token: %q, %v", script, level, b, err)
				}
				if fi, _ := os.Stat(tokPath); fi.Mode().Perm() != 0o600 {
					t.Errorf("%s at %s changed the token's mode to %v", script, level, fi.Mode())
				} else if !fi.ModTime().Equal(before.ModTime()) && !(strings.HasPrefix(script, "touch") && !f.c.mountNS && level != Read && level != Inspect) {
					t.Errorf("%s at %s changed the token's times", script, level)
				}
				if _, err := os.Stat(filepath.Join(f.state, "new")); err == nil {
					t.Errorf("%s at %s created a file in the state dir", script, level)
				}
			})
		}
	}
}

// testAbove works in the directory above warden's state. With a mount
// namespace an approved program adds, moves and removes files and
// directories there as it would unconfined; at no level can a program
// move the state dir or a directory above it away and plant another in
// its place, or reach the state past the mounts that cover it.
func (f fixture) testAbove(t *testing.T) {
	base := filepath.Dir(f.state)
	B := "export B=" + base + "; "
	if f.c.mountNS {
		f.testGrowing(t)
		f.testReplaced(t)
		script := B + `echo a > $B/cfg && sed -i s/a/b/ $B/cfg && mkdir $B/d && mv $B/cfg $B/d/ && mv $B/d $B/d2 && cat $B/d2/cfg && rm -r $B/d2`
		if code, out := f.run(t, Full, script); code != 0 || out != "b\n" {
			t.Errorf("an approved program could not work beside warden's state: exit %d: %s", code, out)
		}
	}
	moves := []string{
		`mv $S $S-moved; mkdir $S; echo planted > $S/token`,
		`mv $B $B-moved; mkdir -p $S; echo planted > $S/token`,
		`rm -rf $S; mkdir $S; echo planted > $S/token`,
		`mkdir $B/fake && echo planted > $B/fake/token && mv -T $B/fake $S`,
		`echo planted > $S/planted`,
		`ln -s /tmp $B/link && mv -T $B/link $S`,
		`cat /proc/1/root$S/token > $B/stolen; echo planted > /proc/1/root$S/token`,
		`umount -l $S; cat $S/token > $B/stolen; echo planted > $S/token`,
		`mount --bind /tmp $B; cat $S/token > $B/stolen`,
		// open_tree(AT_FDCWD, $B, OPEN_TREE_CLONE): a copy of the mount
		// without the masks beneath it.
		`python3 -c 'import ctypes, os; fd = ctypes.CDLL(None).syscall(428, -100, os.environ["B"].encode(), 1); print(open("/proc/self/fd/%d/%s/token" % (fd, os.path.basename(os.environ["S"]))).read())' > $B/stolen`,
	}
	for _, level := range []Level{Temp, Full} {
		for i, script := range moves {
			t.Run(fmt.Sprintf("%s/%d", level, i), func(t *testing.T) {
				defer os.RemoveAll(base + "-moved")
				defer os.RemoveAll(filepath.Join(base, "fake"))
				defer os.RemoveAll(filepath.Join(base, "d2"))
				defer os.Remove(filepath.Join(base, "link"))
				defer os.Remove(filepath.Join(base, "stolen"))
				f.run(t, level, B+script)
				if b, err := os.ReadFile(filepath.Join(f.state, "token")); err != nil || string(b) != secret+"\n" {
					t.Errorf("%s at %s replaced warden's state: %q, %v", script, level, b, err)
				}
				if entries, _ := os.ReadDir(f.state); len(entries) != 1 {
					t.Errorf("%s at %s changed what the state dir holds: %v", script, level, entries)
				}
				if b, _ := os.ReadFile(filepath.Join(base, "stolen")); strings.Contains(string(b), secret) {
					t.Errorf("%s at %s read warden's token", script, level)
				}
				if _, err := os.Stat(base + "-moved"); err == nil {
					t.Errorf("%s at %s moved the directory above warden's state", script, level)
				}
			})
		}
	}
	// No program opens a file by handle past the mounts that cover it.
	if os.Geteuid() == 0 {
		_, out := f.run(t, Full, `grep CapBnd /proc/self/status`)
		var bnd uint64
		fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(out, "CapBnd:")), "%x", &bnd)
		if bnd == 0 || bnd&(1<<unix.CAP_DAC_READ_SEARCH) != 0 {
			t.Errorf("an approved program may hold CAP_DAC_READ_SEARCH: %s", out)
		}
	}
}

// testGrowing keeps an audit log outside the state dir, in a directory
// warden adds rotated files to: a file added there is not covered until
// the rules are built again, so that directory stays closed to new
// entries even for approved programs.
func (f fixture) testGrowing(t *testing.T) {
	g, audit := f.besideState(t, "log", "audit.jsonl", secret, true)
	dir := filepath.Dir(audit)
	if code, _ := g.run(t, Full, "echo x > "+dir+"/planted"); code == 0 {
		t.Errorf("an approved program added a file beside warden's audit log")
	}
	if _, out := g.run(t, Full, "cat "+audit); strings.Contains(out, secret) {
		t.Errorf("an approved program read warden's audit log: %s", out)
	}
}

// besideState makes a file of warden's in a directory beside its state
// (one warden adds files to, if growing) and returns it with a fixture
// whose confiner protects it too.
func (f fixture) besideState(t *testing.T, dir, name, content string, growing bool) (fixture, string) {
	t.Helper()
	dir = filepath.Join(filepath.Dir(f.state), dir)
	t.Cleanup(func() { os.RemoveAll(dir) })
	file := filepath.Join(dir, name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(content+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := Options{Protect: []string{f.state, file}, Enter: f.c.enter}
	if growing {
		o.Growing = []string{dir}
	}
	c, err := New(o, Required)
	if err != nil {
		t.Fatal(err)
	}
	g := f
	g.c = c
	return g, file
}

// testReplaced renames a new file over one of warden's files (an operator
// saving the config) while a read runs: the mount that covered the old
// file no longer covers the new one, and the read still cannot open it.
func (f fixture) testReplaced(t *testing.T) {
	g, conf := f.besideState(t, "conf", "warden.yaml", "old", false)
	saved := filepath.Join(os.TempDir(), fmt.Sprintf("warden-saved-%d", os.Getpid()))
	defer os.Remove(saved)
	done := make(chan string)
	go func() {
		_, out := g.run(t, Read, "until [ -e "+saved+" ]; do sleep 0.05; done; cat "+conf)
		done <- out
	}()
	time.Sleep(300 * time.Millisecond)
	if err := os.WriteFile(conf+".new", []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(conf+".new", conf); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(saved, nil, 0o644)
	if out := <-done; strings.Contains(out, secret) {
		t.Errorf("a read running while warden's config was replaced read the new one: %s", out)
	}
}

// testPrivate tries the SSH key warden authenticates with: below Full it
// is out of reach like warden's state; an approved program may read it.
func (f fixture) testPrivate(t *testing.T) {
	dir := filepath.Dir(f.key)
	reads := []string{
		`cat $K`,
		`cat ` + dir + `/id_*`,
		`cd ` + dir + ` && cat ./id_ed25519`,
		`cat ` + strings.ReplaceAll(f.key, "/", "//"),
		`cat ` + dir + `/../.ssh/./id_ed25519`,
		`cat /proc/self/root$K`,
		`l=/tmp/wk$$; ln -s ` + dir + ` $l; cat $l/id_ed25519; rm -f $l`,
		`l=/tmp/wk$$; ln $K $l; cat $l; rm -f $l`,
		`grep -r . ` + dir,
		`tar -C ` + dir + ` -cf - . | tar -xOf -`,
		`python3 -c 'import os; print(open(os.environ["K"]).read())'`,
	}
	for _, level := range []Level{Read, Temp, Inspect} {
		for i, script := range reads {
			t.Run(fmt.Sprintf("%s/%d", level, i), func(t *testing.T) {
				if _, out := f.run(t, level, "K="+f.key+"; "+script); strings.Contains(out, privKey) {
					t.Errorf("%s at %s read warden's SSH key: %s", script, level, out)
				}
			})
		}
	}
	// The agent's socket is a path-named socket, which Landlock does not
	// rule before ABI 8: only a mount namespace covers it.
	talk := `python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect("` + filepath.Join(dir, "agent.sock") + `"); print(s.recv(100).decode())'`
	if f.c.mountNS {
		for _, level := range []Level{Read, Temp, Inspect} {
			if _, out := f.run(t, level, talk); strings.Contains(out, privKey) {
				t.Errorf("a program at %s reached warden's ssh-agent: %s", level, out)
			}
		}
	}
	// The controls: the same key and agent are reachable when approved.
	if _, out := f.run(t, Full, "cat "+f.key); !strings.Contains(out, privKey) {
		t.Errorf("an approved program could not read the key: %s", out)
	}
	if _, out := f.run(t, Full, talk); !strings.Contains(out, privKey) {
		t.Errorf("an approved program could not reach the agent: %s", out)
	}
}

package confine

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// testSetID: below tier 2 no program leaves a setuid or setgid file in a
// temporary directory, which would run as the call's user for whoever
// starts it later outside warden (root's: a way to root for every local
// user). Each way to the bits is tried at Temp, where the directory is
// writable: chmod, fchmod, fchmodat, install -m, a mode given to open
// and openat with O_CREAT, and mknod. Approved, chmod sets them (the
// control).
func (f fixture) testSetID(t *testing.T) {
	if !f.c.seccomp {
		t.Skip("needs seccomp")
	}
	dir, err := os.MkdirTemp("/tmp", "warden-confine-setid-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o777)
	tries := map[string]string{
		"chmod":         `cp /bin/true $D/f && chmod 6755 $D/f`,
		"chmod g+s":     `cp /bin/true $D/f && chmod g+s $D/f`,
		"install":       `install -m 4755 /bin/true $D/f`,
		"open mode":     `python3 -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o4755))' $D/f`,
		"openat mode":   `python3 -c 'import os, sys; d = os.open(sys.argv[1], os.O_DIRECTORY); os.close(os.open("f", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o2755, dir_fd=d))' $D`,
		"mknod":         `python3 -c 'import os, stat, sys; os.mknod(sys.argv[1], stat.S_IFREG | 0o4755)' $D/f`,
		"fchmod":        `python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o755); os.fchmod(fd, 0o4755)' $D/f`,
		"chmod via dir": `python3 -c 'import os, sys; open(sys.argv[1] + "/f", "w").close(); os.chmod("f", 0o2755, dir_fd=os.open(sys.argv[1], os.O_DIRECTORY))' $D`,
	}
	setID := func() string {
		fi, err := os.Stat(filepath.Join(dir, "f"))
		if err != nil || fi.Mode()&(os.ModeSetuid|os.ModeSetgid) == 0 {
			return ""
		}
		return fi.Mode().String()
	}
	for name, script := range tries {
		t.Run(name, func(t *testing.T) {
			for _, level := range []Level{Temp, Full} {
				os.Remove(filepath.Join(dir, "f"))
				_, out := f.run(t, level, "D="+dir+"; "+script)
				got := setID()
				if level == Temp && got != "" {
					t.Errorf("a benign call left mode %s after %s: %s", got, script, out)
				}
				if level == Full && name == "chmod" && got == "" {
					t.Errorf("control: an approved chmod set no set-id bit: %s", out)
				}
			}
		})
	}
	// Modes without the bits stay: a benign call makes executables and
	// private files, and sets the sticky bit on a shared directory.
	script := fmt.Sprintf(`D=%s; install -m 755 /bin/true $D/x && chmod 600 $D/x && mkdir -m 1777 $D/d && python3 -c 'import os; os.close(os.open("%s/y", os.O_WRONLY | os.O_CREAT, 0o755))' && echo made`, dir, dir)
	if code, out := f.run(t, Temp, script); code != 0 || out != "made\n" {
		t.Errorf("a benign call could not set a plain mode: exit %d: %s", code, out)
	}
}

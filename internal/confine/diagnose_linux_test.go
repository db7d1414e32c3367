package confine

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

var diagnosed sync.Once

// diagnose logs, once per suite, why a program could not be started at
// level: each layer of the worker's confinement is tried alone on a
// thread of its own, and what it sees of /dev/null is reported.
func (f fixture) diagnose(t *testing.T, level Level) {
	diagnosed.Do(func() {
		var b strings.Builder
		c := f.c
		protect := slices.Clone(c.protect)
		if private, err := c.listed(c.opts.Private); err == nil {
			protect = append(protect, private...)
		} else {
			fmt.Fprintf(&b, "private: %v\n", err)
		}
		probe := func(name string, fn func() error) {
			err := onThread(func() error {
				if c.enter > 0 {
					if err := enter(c.enter); err != nil {
						return err
					}
				}
				var st unix.Stat_t
				if err := unix.Stat("/dev/null", &st); err != nil {
					fmt.Fprintf(&b, "%s: stat /dev/null before: %v\n", name, err)
				} else {
					fmt.Fprintf(&b, "%s: /dev/null before: mode %o rdev %x ino %d dev %x\n", name, st.Mode, st.Rdev, st.Ino, st.Dev)
				}
				if err := fn(); err != nil {
					return err
				}
				if err := unix.Stat("/dev/null", &st); err != nil {
					fmt.Fprintf(&b, "%s: stat /dev/null after: %v\n", name, err)
				} else {
					fmt.Fprintf(&b, "%s: /dev/null after: mode %o rdev %x ino %d dev %x\n", name, st.Mode, st.Rdev, st.Ino, st.Dev)
				}
				fd, err := unix.Open("/dev/null", unix.O_RDONLY|unix.O_CLOEXEC, 0)
				fmt.Fprintf(&b, "%s: open /dev/null: %v\n", name, err)
				if err == nil {
					unix.Close(fd)
				}
				if mi, err := os.ReadFile("/proc/thread-self/mountinfo"); err == nil {
					for line := range strings.Lines(string(mi)) {
						if strings.Contains(line, " /dev") {
							fmt.Fprintf(&b, "%s: mount %s", name, line)
						}
					}
				}
				return nil
			})
			if err != nil {
				fmt.Fprintf(&b, "%s: %v\n", name, err)
			}
		}
		temps := c.temps
		probe("entered only", func() error { return nil })
		probe("mounts only", func() error {
			p := append(slices.Clone(protect), watchdogs("/dev")...)
			fmt.Fprintf(&b, "protected: %q\n", p)
			if !c.mountNS {
				return nil
			}
			t, err := clean(temps)
			if err != nil {
				return err
			}
			return c.mounts(level, p, t)
		})
		probe("landlock only", func() error {
			p := append(slices.Clone(protect), watchdogs("/dev")...)
			t, err := clean(temps)
			if err != nil {
				return err
			}
			rs, err := c.ruleset(level, Profile{}, p, t)
			if err != nil {
				return err
			}
			defer rs.close()
			if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
				return err
			}
			return ll.LandlockRestrictSelf(rs.fd, 0)
		})
		t.Logf("diagnosis of a failed start at %s:\n%s", level, b.String())
	})
}

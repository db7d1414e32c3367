package sessions

import (
	"testing"
)

// A wrapper's option value or leading operand is no program, and taking
// it for one hid the reader after it: after "env -u X head -n 1", head
// takes "echo \" and "touch /etc/x" runs alone.
func TestReadersAfterWrapperValues(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"env -u X head -n 1", "env -C /tmp head -n 1", "env --unset X cat", "env --chdir /tmp cat", "env --ch /tmp cat",
		"sudo -u root head -n 1", "sudo -g adm cat", "sudo -C 5 cat", "sudo -D /tmp cat", "sudo -h host cat",
		"timeout -s INT 5 head -n 1", "timeout -k 1 5 cat", "timeout --sig INT 5 cat", "taskset -c 0 head -n 1",
		"taskset 1 cat", "runuser -u root head -n 1", "runuser -g adm cat", "setpriv --reuid 0 head -n 1",
		"ionice -c 3 cat", "ionice -n 7 cat", "ionice --class 3 cat", "chrt -f 1 cat", "chrt 1 cat",
		"nice -n 5 cat", "nice --adj 5 cat", "stdbuf -o 0 cat", "stdbuf --out 0 cat", "time -f x cat", "time -o f cat",
		"flock /tmp/l cat", "flock -w 5 /tmp/l cat", "chroot / cat", "unshare -S 0 cat", "sudo -u u nice -n 1 env -u X cat",
		"doas -u root cat", "xargs -a f ls; sudo -u x read y",
	} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "echo \\", "touch /etc/x"); last.unseen == "" {
				t.Errorf("%q is classified as echo's argument", last.text)
			}
		})
	}
	for _, c := range []string{"sudo -u root cat /etc/hosts", "timeout -s INT 5 grep x /etc/hosts", "env -u X ls",
		"nice -n 5 sort /etc/hosts", "taskset -c 0 ls", "stdbuf -o0 tail -n 5 /var/log/syslog", "sudo -u cat ls"} {
		if _, last := typeAll(tty, c, "ls"); last.unseen != "" {
			t.Errorf("%q then ls: %s", c, last.unseen)
		}
	}
}

// TestWrapperValueReaderInATerminal: in a real terminal, head after
// "env -u X" takes "echo \", and the touch typed next runs alone; no
// unapproved send may make the marker.
func TestWrapperValueReaderInATerminal(t *testing.T) {
	t.Parallel()
	for _, opener := range []string{"env -u X head -n 1", "timeout -s INT 30 head -n 1", "taskset 1 head -n 1"} {
		t.Run(opener, func(t *testing.T) { openerLeavesNoWrite(t, opener, 5) })
	}
}

package sessions

import (
	"testing"
)

// The terminal is the shell's descriptors 0, 1 and 2 and has names
// through links and relative paths: a reader given any of them takes the
// line typed next, and the touch after "echo \" runs alone.
func TestTerminalsOtherNames(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"head -n 1 < /dev/stderr", "head -n 1 < /dev/stdout", "head -n 1 < /dev/fd/2", "head -n 1 < /dev/fd/1",
		"head -n 1 < /proc/self/fd/2", "head -n 1 < /proc/self/fd/255", "head -n 1 < /dev/fd/255", "head -n 1 < /dev/fd/3",
		"head -n 1 /dev/stderr", "head -n 1 /dev/fd/2", "cat /dev/stderr", "sed q /dev/stdout", "read x < /dev/stderr",
		"read x </dev/fd/1", "head -n 1 <> /dev/stderr", "ls | head -n 1 /dev/stderr", "ls | head -n 1 < /dev/stderr",
		"dd if=/dev/stderr bs=1 count=3", "dd if=/dev/fd/2 count=1", "head -n 1 < /proc/self/fd/0/",
		"head -n 1 < /proc/self/root/dev/tty", "head -n 1 < /proc/self/cwd/../../dev/tty", "head -n 1 < /dev/char/5:0",
		"head -n 1 < /dev/char/136:0", "head -n 1 < /dev/ptmx", "head -n 1 < ~/../../dev/tty", "head -n 1 < /./dev/tty",
		"head -n 1 < dev/tty", "head -n 1 < ../dev/pts/0", "head -n 1 < tty", "head -n 1 < pts/3", "head -n 1 stdin",
		"head -n 1 < /proc/1234/fd/2", "head -n 1 < /proc/thread-self/fd/1", "head -n 1 < proc/self/fd/0",
		"head -n 1 < /d?v/tty", "cat /d*/stdin", "head -n 1 < /dev/serial/by-id/usb-x", "head -n 1 < /dev/ttyUSB0",
		"head -n 1 < /dev/hvc0", "grep -m1 x /dev/stderr", "tac /dev/fd/0", "cat < /dev/vc/1",
	} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "echo \\", "touch /etc/x"); last.unseen == "" {
				t.Errorf("%q is classified as echo's argument", last.text)
			}
		})
	}
	for _, c := range []string{
		"head -c 512 /dev/sda", "cat /dev/null", "head -c 16 /dev/urandom", "cat /proc/cpuinfo", "cat /proc/self/status",
		"head -n 5 /var/log/syslog", "grep x /etc/hosts", "cat tty.log", "cat *.log", "ls /dev/tty*", "wc -l < /etc/hosts",
		"cat /sys/class/tty/tty/dev", "head -n 1 < /dev/null", "cat /dev/shm/x", "cat /dev/disk/by-id/x", "ls -l /proc/self/fd",
		"cd /tmp", "cd ..", "cd ~/dev", "cd ~/src/project", "cd /var/log", "cd $HOME",
	} {
		if _, last := typeAll(tty, c, "ls"); last.unseen != "" {
			t.Errorf("%q then ls: %s", c, last.unseen)
		}
	}
}

// A directory where relative names may be the terminal, or a new name of
// it, ends the model: after "cd /proc/self/fd", "< 0" is the terminal;
// after "ln -s /dev/tty /tmp/t", so is "< /tmp/t".
func TestNewNamesOfTheTerminal(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"cd /proc/self/fd", "cd /dev", "cd /dev/pts", "cd /dev/fd", "cd /proc", "cd /proc/1/fd", "pushd /dev/char",
		"cd ../../dev", "cd dev", "cd proc/self", "cd /dev/", "cd //dev", "cd /proc/self/root/dev",
		"ln -s /dev/tty /tmp/t", "ln -sf /proc/self/fd/0 t", "ln -s /dev /tmp/d", "cp -a /dev/tty /tmp/t",
		"mknod /tmp/t c 5 0", "cp -s /dev/stdin /tmp/s", "ln -s ../../dev/tty x", "rsync -D /dev/tty /tmp/",
		"sudo ln -s /dev/tty /tmp/t", "ls; cd /dev",
	} {
		t.Run(c, func(t *testing.T) {
			_, last := typeAll(tty, c, "ls")
			if last.unseen == "" {
				t.Errorf("%q then ls: seen", c)
			}
		})
	}
}

// TestOtherNamesInATerminal: in a real terminal, head reading
// /dev/stderr takes "echo \", and no unapproved send may make the marker.
func TestOtherNamesInATerminal(t *testing.T) {
	t.Parallel()
	for _, opener := range []string{"head -n 1 < /dev/stderr", "head -n 1 /dev/fd/1", "read x < /proc/self/fd/2"} {
		t.Run(opener, func(t *testing.T) { openerLeavesNoWrite(t, opener, 9) })
	}
}

// TestTerminalsComputedOrExpanded: a reader's file named at run time
// ($(tty) prints the terminal's name, /proc/$$/fd/0, "$f"), by bash's
// brace expansion (/de{v,x}/tty reads /dev/tty first) or under a
// directory of $PWD or $OLDPWD (~+/tty after PWD=/dev) may be the
// terminal; so may ./tty, as tty is.
func TestTerminalsComputedOrExpanded(t *testing.T) {
	t.Parallel()
	for _, host := range []keyboard{tty, {pty: true}} {
		for _, c := range []string{
			"head -n 1 $(tty)", `head -n 1 "$(tty)"`, "head -n 1 `tty`", "head -n 1 $SSH_TTY", "cat $GPG_TTY",
			"f=/dev/tty; head -n 1 $f", `head -n 1 "$f"`, "head -n 1 /proc/$$/fd/0", `head -n 1 "$d/0"`,
			"head -n1 /dev/${t}", "cat /proc/${x}/fd/0", "head -n 1 /dev/$(echo tty)", "sed q /dev/char/$m:0",
			"grep -m1 x $(readlink /proc/self/fd/0)", "sort $(tty)", "awk 1 $(tty)", "tac $T",
			"head -n 1 /de{v,x}/tty", "head -n 1 < /de{v,x}/tty", "bash -c 'head -n 1 /de{v,x}/tty'", "head -n 1 {/dev/tty,}",
			"head -n 1 /{dev,x}/tty", "cat /dev/tt{x..z}", "grep x /dev/{null,tty}", "sort {/etc/hosts,/dev/stdin}",
			"head -n 1 /proc/self/fd/{0,1}", "cat /{etc/hosts,proc/self/fd/0}", "head -n 1 /de{{v,x},y}/tty",
			"head -n 1 ~+/tty", "head -n 1 < ~+/tty", "PWD=/dev; head -n 1 ~+/tty", "OLDPWD=/dev; head -n 1 ~-/tty",
			"OLDPWD=/proc/self/fd; head -n 1 ~-/0", "head -n 1 $PWD/tty", "head -n 1 ${HOME%/*}/dev/tty",
			"head -n 1 ./tty", "head -n 1 < ./stdin", "cat x/../pts/0", "head -n 1 ./fd/0",
		} {
			t.Run(c, func(t *testing.T) {
				if _, last := typeAll(host, c, "echo \\", "touch /etc/x"); last.unseen == "" {
					t.Errorf("%q is classified as echo's argument", last.text)
				}
			})
		}
	}
	for _, c := range []string{
		"cat $HOME/.profile", "head -n 5 /var/log/syslog", "cat /etc/{hosts,passwd}", "ls /dev/{sda,sdb}", "cat ~/notes.txt",
		"grep -r x $HOME/src", "tail -n 20 /var/log/$LOG.log", "cd $d", "kill $pid", "systemctl status $svc", "cat ./README.md",
		"cat {a,b}.txt", "echo {1..10}", "cat x{1..3}.log", "head -n1 ~/tty.txt", "head -n 3 \"$f.conf\"", "cat ${dir}/config.yaml",
		"grep x $(ls *.go)_test", "cat /etc/{x}", "echo $(tty)", "ls -l $(tty)", "stat $(tty)", "cd ~/dev", "cat ~/src/main.go",
	} {
		if _, last := typeAll(tty, c, "ls"); last.unseen != "" {
			t.Errorf("%q then ls: %s", c, last.unseen)
		}
	}
}

// TestComputedTerminalInATerminal: in a real terminal, head given the
// name tty prints takes "echo \"; no unapproved send may make the marker.
func TestComputedTerminalInATerminal(t *testing.T) {
	t.Parallel()
	for _, opener := range []string{"head -n 1 $(tty)", "head -n 1 /proc/$$/fd/0"} {
		t.Run(opener, func(t *testing.T) { openerLeavesNoWrite(t, opener, 11) })
	}
}

package policy

import (
	"strings"
	"testing"
)

// watchdogOpens open the hardware watchdog, which arms it: the host
// reboots when the descriptor is closed without the magic character.
// Each is denied on the local host and on an SSH host, whatever the
// policy protects.
var watchdogOpens = []string{
	// Literal, as operands of readers.
	`cat /dev/watchdog`,
	`head -c1 /dev/watchdog0`,
	`xxd /dev/watchdog1`,
	`tail -f /dev/watchdog`,
	`awk 1 /dev/watchdog`,
	`cp /dev/watchdog /tmp/x`,
	`cat "/dev/watchdog"`,
	`cat '/dev/watch''dog'`,
	`cat /dev/watchdog31`,
	// Redirections of every kind.
	`exec 3</dev/watchdog`,
	`cat < /dev/watchdog`,
	`cat <> /dev/watchdog`,
	`exec 3<>/dev/watchdog0`,
	`exec 4< /dev/watchdog0`,
	`sleep 1 3</dev/watchdog`,
	`read x < /dev/watchdog`,
	`while read l; do :; done < /dev/watchdog`,
	`f=/dev/watchdog0; exec 5<"$f"`,
	// Option values.
	`dd if=/dev/watchdog of=/dev/null count=1`,
	`dd if=/dev/watchdog0 bs=1 count=0`,
	`grep --file=/dev/watchdog x`,
	`wc --files0-from=/dev/watchdog`,
	// Globs that can match it.
	`cat /dev/w*`,
	`cat /dev/watch?og`,
	`head -c1 /dev/watchdog[0-9]`,
	`cat /dev/[w]atchdog`,
	`cat /dev/watchdog*`,
	`cat /dev/*`,
	`cat /dev/*/*`,
	`for f in /dev/*; do head -c1 "$f"; done`,
	`for f in /dev/wat*; do cat $f; done`,
	`shopt -s nocaseglob; cat /dev/WATCH*`,
	// Braces and other spellings of the same path.
	`cat /dev/{watchdog,null}`,
	`cat /dev/{w,x}atchdog`,
	`for f in /dev/watch{d,x}og; do cat $f; done`,
	`a=(/dev/wat{c,x}hdog); cat ${a[0]}`,
	`cat /dev/char/1{0,1}:1{3,4}0`,
	`cat /dev/wat"ch"dog`,
	`x=chdog; cat /dev/wat$x`,
	`cat /dev/$'\x77atchdog'`,
	`cat /dev/watchdo[g]`,
	`cat /dev/watchdog{0..3}`,
	`cat /dev//watchdog`,
	`cat /dev/./watchdog`,
	`cat /sys/../dev/watchdog`,
	`cat /../dev/watchdog`,
	`cat /dev/char/10:130`,
	`cat /dev/char/*`,
	// Relative after a change of directory.
	`cd /dev && cat watchdog`,
	`pushd /dev; cat watchdog`,
	`cd -P /dev && head -c1 watchdog0`,
	`d=/dev; cd $d; cat watchdog`,
	`cd / && cat dev/watchdog`,
	`cd /sys && cat ../dev/watchdog`,
	`cd /dev/char && cat 10:130`,
	`cd /dev; for f in *; do head -c1 "$f"; done`,
	// Variables with values known at parse time.
	`D=/dev; cat $D/watchdog`,
	`W=watchdog; cat /dev/$W`,
	`D=/dev; W=watchdog0; head -c1 "$D/$W"`,
	// Wrappers, nested shells, other hosts.
	`sh -c 'cat /dev/watchdog'`,
	`bash -c "head -c1 /dev/watchdog"`,
	`sh -c "exec 3</dev/watchdog"`,
	`ssh host cat /dev/watchdog`,
	`sudo cat /dev/watchdog`,
	`sudo -u root head -c1 /dev/watchdog0`,
	`env LANG=C cat /dev/watchdog`,
	`timeout 1 cat /dev/watchdog`,
	`nohup cat /dev/watchdog &`,
	`echo /dev/watchdog | xargs cat`,
	`printf '%s\n' /dev/watchdog0 | xargs -n1 head -c1`,
	`cat $(echo /dev/watchdog)`,
	`find /dev -name 'watchdog*' -exec cat {} \;`,
	`find /dev -name 'watch*' -exec head -c1 {} +`,
	`find /dev -maxdepth 1 -exec head -c1 {} \;`,
	`find / -maxdepth 2 -type c -exec cat {} \;`,
	`cd /dev && find . -maxdepth 1 -exec head -c1 {} \;`,
	`cd /dev; find -type c -exec cat {} +`,
	`find /dev/ -exec cat {} +`,
	`find / -name 'watchdog?' -execdir cat {} \;`,
	`find /dev -iname 'WATCHDOG' -exec cat {} \;`,
	`find /dev \( -name sda -o -name watchdog \) -exec cat {} \;`,
	`find /dev -type c -exec sh -c 'head -c1 "$1"' _ {} \;`,
	`find -L /dev/char -exec cat {} \;`,
	`find /dev -name 'watchdog*' | xargs cat`,
	`find /dev -maxdepth 1 -type c | xargs -n1 head -c1`,
	`find /dev/ -print0 | xargs -0 -I{} dd if={} of=/dev/null count=1`,
	`cd /dev && find . | while read -r f; do head -c1 "$f"; done`,
	`find /dev -name 'watch*' | parallel cat`,
	`fd watchdog /dev -x cat`,
	// Listings handed to what opens them.
	`cat $(find /dev -name 'watchdog*')`,
	`for f in $(find /dev -name watchdog); do cat $f; done`,
	`head -c1 $(find /dev -type c)`,
	`for f in $(ls /dev); do head -c1 /dev/$f; done`,
	`ls /dev | xargs -I{} head -c1 /dev/{}`,
	`cd /dev && ls | xargs -n1 head -c1`,
	`ls /dev | while read f; do head -c1 "/dev/$f"; done`,
	`cd /dev; ls | while read f; do cat "$f"; done`,
	`ls -R / | xargs cat`,
	`cd ~/../../dev && cat watchdog`,
	`cd "$HOME"/../../dev; cat watchdog`,
	`cd / && cd dev && cat watchdog`,
	`cd ..; cd ../dev; head -c1 watchdog0`,
	`fd -t c . /dev --exec head -c1`,
	`cd /dev && fdfind -g 'watch*' -X cat`,
	// More spellings: interpreters, wrappers, expansions, paths.
	`cat /dev/watchdog 2>/dev/null`,
	`exec {fd}</dev/watchdog`,
	`cat /dev/watchdog0 &`,
	`(cat /dev/watchdog)`,
	`{ cat; } < /dev/watchdog`,
	`cat <(cat /dev/watchdog)`,
	`true < /dev/watchdog`,
	`: < /dev/watchdog`,
	`< /dev/watchdog`,
	`source /dev/watchdog`,
	`. /dev/watchdog`,
	`cat -- /dev/watchdog`,
	`busybox cat /dev/watchdog`,
	`export W=/dev/watchdog; cat $W`,
	`a=(/dev/watchdog); cat "${a[0]}"`,
	`cat $(printf /dev/watchdog)`,
	`od -An -N1 /dev/watchdog0`,
	`hexdump -n1 /dev/watchdog`,
	`strings /dev/watchdog`,
	`python3 -c "import os; os.open('/dev/watchdog', os.O_RDONLY)"`,
	`perl -e 'open(my $f, "<", "/dev/watchdog")'`,
	`ruby -e 'File.open("/dev/watchdog")'`,
	`node -e 'require("fs").openSync("/dev/watchdog","r")'`,
	`echo V > /dev/watchdog`,
	`printf V >/dev/watchdog0`,
	`tee /dev/watchdog < /dev/null`,
	`socat -u FILE:/dev/watchdog -`,
	`socat - /dev/watchdog`,
	`ssh db1 'cat /dev/watchdog'`,
	`ssh -t db1 sudo head -c1 /dev/watchdog`,
	`doas cat /dev/watchdog`,
	`nice -n 10 cat /dev/watchdog`,
	`stdbuf -o0 cat /dev/watchdog`,
	`chroot / cat /dev/watchdog`,
	`nsenter -t 1 -m cat /dev/watchdog`,
	`cat /dev/watchdog${N}`,
	`cat /dev/watchdog$((0))`,
	`cat /dev/watchdog$(echo 0)`,
	`eval cat /dev/watchdog`,
	`eval "cat /dev/watch""dog"`,
	`echo 'cat /dev/watchdog' | sh`,
	`sh <<< 'cat /dev/watchdog'`,
	`bash -c 'cd /dev; cat watchdog'`,
	`cat /dev/watchdog[[:digit:]]`,
	`cat /dev/wa*dog`,
	`cat /dev/?atchdog`,
	`cat /d?v/watchdog`,
	`cat /*/watchdog`,
	`shopt -s globstar; cat /**/watchdog`,
	`cat /dev/char/10\:130`,
	`cat /dev/char/10:13?`,
	`cat /proc/self/root/dev/watchdog`,
	`cat /proc/1/root/dev/watchdog`,
	`cat ~/../../dev/watchdog`,
	`cat $HOME/../../dev/watchdog`,
	`cd; cd ../../dev; cat watchdog`,
	`cd /; cd dev; cat watchdog`,
	`OLDPWD=/dev; cd -; cat watchdog`,
	`cd /dev; cat ./watchdog`,
	`cd /dev && cat "$PWD/watchdog"`,
	`cd /dev && cat $(pwd)/watchdog`,
	`dd iflag=nonblock if=/dev/watchdog`,
	`head -c1 < /dev/char/10:130`,
	`sudo sh -c 'echo > /dev/watchdog'`,
	`systemd-run cat /dev/watchdog`,
	`flock /dev/watchdog true`,
	`sh /dev/watchdog`,
	`cat /dev/{null,watchdog0}`,
	`cat /dev/watch{dog,er}`,
	`a=watch; b=dog; cat /dev/$a$b`,
	`cat ${P:-/dev/watchdog}`,
	`p=/dev/watchdog; p=${p%x}; cat $p`,
	`cat /dev/!(null)`,
	`shopt -s extglob; cat /dev/@(watchdog|null)`,
	`cd /dev; cat *`,
	`cd /dev; cat w*`,
	`cd /dev; head -c1 watchdog?`,
	`for f in /dev/watchdog /dev/null; do :; done`,
	`xargs cat <<< /dev/watchdog`,
	`xargs -a <(echo /dev/watchdog) cat`,
	`while read f; do cat "$f"; done <<< /dev/watchdog`,
	`timeout 5 bash -c 'exec 3</dev/watchdog'`,
	`setsid -f head -c1 /dev/watchdog`,
	`su -c 'cat /dev/watchdog'`,
	`sudo -i cat /dev/watchdog`,
	`sudo bash -c 'cat /dev/watchdog'`,
	`rsync /dev/watchdog /tmp/x`,
	`tar cf - /dev/watchdog`,
	`cat /dev/../dev/watchdog`,
	`cat ///dev///watchdog`,
	`cat /dev/watchdog/`,
	`cat /dev/watchdog/.`,
	`less -f /dev/watchdog`,
	`vim /dev/watchdog`,
	`watchdog_dev=/dev/watchdog; cat "$watchdog_dev"`,
	`cat /dev/watchdog 0</dev/null`,
	`ssh db1 "cd /dev && cat watchdog"`,
	`find /dev -name watchdog -exec dd if={} of=/dev/null count=1 \;`,
	`find /dev -regex '.*watch.*' -exec cat {} \;`,
	`find /dev -path '*watch*' -exec cat {} \;`,
	`python3 -c 'open("/dev/watchdog")'`,
	`perl -e 'open F, "</dev/watchdog"'`,
}

// watchdogNames name the watchdog without opening it, and are denied
// all the same: the classifier does not follow a name to what opens it.
var watchdogNames = []string{
	`ls /dev/watchdog`,
	`ls -l /dev/watchdog*`,
	`stat /dev/watchdog`,
	`wdctl /dev/watchdog0`,
}

// watchdogMentions name the watchdog without opening the device; each
// keeps its verdict.
var watchdogMentions = []struct {
	cmd  string
	tier Tier
}{
	{`ls /dev`, TierRead},
	{`ls -la /dev/`, TierRead},
	{`ls -l /dev/ | grep watch`, TierRead},
	{`systemctl status watchdog`, TierRead},
	{`cat /etc/watchdog.conf`, TierRead},
	{`grep watchdog /var/log/syslog`, TierRead},
	{`wdctl`, TierMutate},
	{`dmesg | grep -i watchdog`, TierRead},
	{`ls /sys/class/watchdog`, TierRead},
	{`cat /sys/class/watchdog/watchdog0/timeout`, TierRead},
	{`cat /sys/class/watchdog/watchdog0/identity`, TierRead},
	{`journalctl -u watchdog --since today`, TierRead},
	{`cat /dev/null`, TierRead},
	{`head -c 16 /dev/urandom | xxd`, TierRead},
	{`ls -l /dev/sd*`, TierRead},
	{`find /dev -name 'sd*'`, TierRead},
	{`find /dev -maxdepth 1 -type b -exec ls -l {} \;`, TierRead},
	{`cd /dev && ls`, TierRead},
	{`cat watchdog.log`, TierRead},
	{`grep -r x /dev`, TierRead}, // GNU grep skips devices when it recurses
	{`find /var/log -name '*.log' -exec tail -1 {} \;`, TierRead},
	{`find / -maxdepth 1 -exec ls -d {} \;`, TierRead},
	{`find /dev -name 'tty*' -exec ls -l {} +`, TierRead},
	{`find . -type f -exec grep -l x {} +`, TierRead},
	{`cd /dev && find . -type b -exec ls -l {} +`, TierRead},
	{`grep -r usb /dev/disk`, TierRead},
	{`find /dev -name 'sd*' | xargs ls -l`, TierRead},
	{`find /dev -maxdepth 1 | xargs ls -ld`, TierRead},
	{`find /var/log -type f | xargs grep -l error`, TierRead},
	{`fd -t f . /dev -x cat`, TierRead},
	{`ls /dev | grep -c tty`, TierRead},
	{`ls -l $(find /dev -type c)`, TierRead},
	{`cat $(find /etc -name '*.conf' | head -1)`, TierRead},
	{`for f in $(ls /var/log); do echo $f; done`, TierRead},
	{`ls /dev | xargs -n1 echo`, TierRead},
	{`cd dev && cat watchdog.conf`, TierRead},
	{`fd sda /dev -x ls -l`, TierRead},
}

// watchdogPolicies are the test policy and one like warden's own: paths
// of its state protected, home and directory known, the kernel holding
// them.
func watchdogPolicies(t *testing.T) map[string]*Policy {
	own, err := New(Rules{Protect: []string{"/root/.local/state/warden"}, Home: "/root", Dir: "/root", KernelHolds: true})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*Policy{"test": testPolicy(t), "own": own}
}

func TestWatchdogOpenDenied(t *testing.T) {
	for name, p := range watchdogPolicies(t) {
		for _, host := range []string{"local", "db1"} {
			for _, c := range append(watchdogOpens, watchdogNames...) {
				v := p.Evaluate(Input{Command: c, Host: host})
				if !v.Denied {
					t.Errorf("%s %s: %q: got %v, want denied", name, host, c, v)
				}
			}
		}
	}
	// The reason names the outcome.
	v := testPolicy(t).Evaluate(Input{Command: "cat /dev/watchdog", Host: "db1"})
	if !strings.Contains(v.Reason, "hardware watchdog") {
		t.Errorf("reason %q does not name the hardware watchdog", v.Reason)
	}
}

func TestWatchdogMentionsStay(t *testing.T) {
	for name, p := range watchdogPolicies(t) {
		for _, host := range []string{"local", "db1"} {
			for _, c := range watchdogMentions {
				v := p.Evaluate(Input{Command: c.cmd, Host: host})
				if v.Denied || v.Tier != c.tier {
					t.Errorf("%s %s: %q: got %v, want tier %v, not denied", name, host, c.cmd, v, c.tier)
				}
			}
		}
	}
}

// TestBracesInListsNamePaths: the words of a for list or an array are
// brace-expanded before they are checked, for warden's own paths as for
// the watchdog.
func TestBracesInListsNamePaths(t *testing.T) {
	p, err := New(Rules{Protect: []string{"/root/.local/state/warden"}, Home: "/root", Dir: "/root"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{
		`for f in /root/.local/state/war{d,x}en/token; do cat $f; done`,
		`a=(/root/.local/state/w{a,b}rden/token); cat ${a[0]}`,
		`for f in /root/.local/{state,share}/warden/*; do cat "$f"; done`,
		`select f in /root/.local/state/{warden,x}; do cat $f/token; done`,
		`declare -a a=(/root/.{local,cache}/state/warden/token)`,
		`for f in /root/.local/sta{t,x}e/warden; do ls $f; done`,
	} {
		for _, host := range []string{"local", "db1"} {
			if v := p.Evaluate(Input{Command: c, Host: host}); !v.Denied {
				t.Errorf("%s: %q: got %v, want denied", host, c, v)
			}
		}
	}
}

// TestWatchdogPathPolicy: the file tools never open the watchdog, even
// where the operator's rules replace the defaults that deny /dev.
func TestWatchdogPathPolicy(t *testing.T) {
	pp, err := NewPathPolicy(PathRules{ReplaceDefaults: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/dev/watchdog", "/dev/watchdog0", "/dev/watchdog1", "/dev/watchdog31", "/dev/char/10:130"} {
		if err := pp.Check(p); err == nil || !strings.Contains(err.Error(), "hardware watchdog") {
			t.Errorf("%s: got %v, want the hardware watchdog refused", p, err)
		}
	}
	for _, p := range []string{"/dev/null", "/dev", "/dev/char", "/sys/class/watchdog/watchdog0/timeout", "/etc/watchdog.conf"} {
		if err := pp.Check(p); err != nil {
			t.Errorf("%s: got %v, want allowed", p, err)
		}
	}
}

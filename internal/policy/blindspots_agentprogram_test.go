package policy

import "testing"

// TestBlindSpotAgentWrittenPrograms: a program run by a path through a
// temporary directory was classified by its name, so /tmp/ls was ls, tier
// 0: a benign call can write any file there, so on a plain SSH host (and
// in open mode) whatever it wrote ran as a read. Run by such a path,
// through a descriptor, or relative to a working directory the input
// makes temporary, the program is tier 3 whatever its name, through any
// wrapper.
func TestBlindSpotAgentWrittenPrograms(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`/tmp/ls`,
		`/tmp/cat /etc/hosts`,
		`/tmp/x`,
		`/tmp/x.sh`,
		`/tmp/check.py --all`,
		`/var/tmp/x/bin/ps aux`,
		`/dev/shm/uptime`,
		`/tmp//ls`,
		`/tmp/./ls`,
		`/tmp/x/../../usr/bin/ls`,
		`/var/tmp/../../bin/cat /etc/hosts`,
		`/proc/self/fd/3`,
		`/proc/self/root/tmp/ls`,
		`/proc/1/cwd/ls`,
		`/dev/fd/3`,
		`exec 3</tmp/x; /dev/fd/3`,
		`cd /tmp && ./ls`,
		`cd /tmp; ./df -h`,
		`cd /var/tmp/build && bin/tool`,
		`cd /tmp/x && ../ls`,
		`pushd /tmp && ./x`,
		`sudo /tmp/ls`,
		`sudo -u bob /tmp/id`,
		`env /tmp/uptime`,
		`env -i PATH=/usr/bin /tmp/ls`,
		`nohup /tmp/df &`,
		`nice -n 5 /tmp/ls`,
		`timeout 5 /tmp/ls`,
		`xargs /tmp/cat < /etc/hosts`,
		`find /etc -name hosts -exec /tmp/cat {} \;`,
		`exec /tmp/ls`,
		`watch /tmp/ls`,
		`ssh h /tmp/ls`,
		`bash -c /tmp/ls`,
		`sh -c 'cd /tmp && ./ls'`,
		`for f in /etc/hosts; do /tmp/cat "$f"; done`,
	))
	runExactHosts(t, p, []exactCase{
		{"system ls", `/usr/bin/ls`, TierRead},
		{"system cat", `/bin/cat /etc/hosts`, TierRead},
		// The working directory's file, a repository's ./ls, is not ls
		// (TestBlindSpotForeignPrograms).
		{"relative", `./ls`, TierMutate},
		{"opt", `/opt/x/bin/ls`, TierRead},
		{"home", `~/bin/ls`, TierRead},
		{"home after cd", `cd /tmp && ~/bin/ls`, TierRead},
		{"srv script", `cd /srv/app && ./status.sh`, TierMutate},
		{"tmp file read", `cat /tmp/x`, TierRead},
		{"tmp path arg", `ls /tmp/x`, TierRead},
	})
}

package policy

import "testing"

// TestBlindSpotProgramNameInAnyCase: on a Mac reached over SSH the file
// systems ignore case, so REBOOT runs reboot and /USR/BIN/RM -rf / is rm:
// a name no table knows as spelled but one does in lower case is
// classified as that program (its deny rules included), through every
// wrapper and nested shell, and at least as the unknown program it is on
// Linux, never lower: LS may be any program there. Names the tables know
// as spelled (R, Rscript, VBoxManage) and shell functions keep theirs.
func TestBlindSpotProgramNameInAnyCase(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"REBOOT", "Reboot", "reBoot now", "SHUTDOWN -h now", "Poweroff", "HALT", "/SBIN/REBOOT", "/sbin/Reboot",
		"RM -rf /", "Rm -rf /*", "/USR/BIN/RM -rf /", "/bin/RM --recursive --force /", "MKFS.EXT4 /dev/sda", "Mkfs -t ext4 /dev/sdb",
		"DD if=/dev/zero of=/dev/sda", "KILL -9 1", "Kill -1", "WIPEFS -a /dev/sda", "Systemctl reboot", "SYSTEMCTL poweroff",
		"INIT 0", "Telinit 6", "sudo REBOOT", "sudo -u root RM -rf /", "env REBOOT", "nice -n5 REBOOT", "timeout 5 REBOOT",
		"xargs REBOOT < /dev/null", "find / -exec REBOOT \\;", "sh -c 'REBOOT'", "bash -c 'RM -rf /'", "echo REBOOT | sh",
		"command REBOOT", "exec REBOOT",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"cd /tmp/x && GIT status", "cd /tmp/x && Git log -p", "/USR/BIN/GIT -C /tmp/x status", "Python3 -c 'import os'",
		"cd /tmp/x && PYTHON3 -m json.tool f", "Bash -c \"$x\"", "Sh /tmp/x.sh", "cd /tmp/x && MAKE -n", "Perl -e 1",
	))
	runExactHosts(t, p, []exactCase{
		{"ls in capitals is no read", "LS -la", TierMutate},
		{"cat in capitals is no read", "Cat f", TierMutate},
		{"echo in capitals", "ECHO hi", TierMutate},
		{"R", "R --version", TierRead},
		{"VBoxManage", "VBoxManage list vms", TierRead},
		{"unknown", "MyTool --x", TierMutate},
		{"function", "F() { echo; }; F", TierRead},
		{"lower case", "ls -la", TierRead},
	})
}

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

// TestBlindSpotPayloadNamesInAnyCase: the deny list's text scan over code
// in another grammar (interpreter payloads, here-documents they read,
// debugger and editor commands) folds a deny-listed program's name as the
// shell reading does: on a Mac os.system("REBOOT") runs reboot, as REBOOT
// typed does. Text that names no such program keeps its tier.
func TestBlindSpotPayloadNamesInAnyCase(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`python3 -c 'import os; os.system("REBOOT")'`, `python3 -c 'import os; os.system("/SBIN/REBOOT")'`,
		`python3 -c 'import subprocess; subprocess.run(["Shutdown", "-h", "now"])'`, `python3.12 -c 'import os; os.execv("/sbin/HALT", ["x"])'`,
		`perl -e 'system("REBOOT")'`, `perl -e 'exec "/usr/sbin/HALT"'`, `ruby -e 'system("PowerOff")'`, `ruby -e '%x(Reboot)'`,
		`node -e 'require("child_process").execSync("REBOOT")'`, `php -r 'system("REBOOT");'`, `lua -e 'os.execute("REBOOT")'`,
		`python3 - <<'EOF'
import os
os.system("REBOOT")
EOF`, `perl <<< 'system "MKFS.EXT4 /dev/sda"'`, `gdb -batch -ex 'shell REBOOT'`, `expect -c 'spawn REBOOT'`,
		`sudo python3 -c 'import os; os.system("REBOOT")'`, `env python3 -c 'import os; os.system("Reboot")'`,
		`C=REBOOT awk 'BEGIN{system(ENVIRON["C"])}'`, `awk 'BEGIN{system("WIPEFS -a /dev/sda")}'`,
	))
	runExactHosts(t, p, []exactCase{
		{"awk print capitals", `awk 'BEGIN{print "Hello"}'`, TierRead},
		{"awk pattern", "awk '/ERROR/ {print $1}' /var/log/syslog", TierRead},
		{"sed pattern", "sed -n '/WARNING/p' f", TierRead},
		{"python constants", `python3 -c 'print(True, None)'`, TierDestructive},
	})
}

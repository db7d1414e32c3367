package policy

import "testing"

// TestBlindSpotShellInput: a shell opened without a command reads its
// input as commands, and a terminal multiplexer, expect, at or a debugger
// runs the command its words give; what the deny list refuses there is
// denied, on the local host and an SSH host, as it is typed anywhere else.
func TestBlindSpotShellInput(t *testing.T) {
	p := protectedPolicy(t)
	var cases []blindCase
	for _, c := range []string{
		`sudo -s <<< reboot`,
		`sudo -i <<< 'systemctl reboot'`,
		"sudo -s <<'EOF'\nreboot\nEOF",
		`echo reboot | sudo -s`,
		`printf 'rm -rf /\n' | sudo -i`,
		`pkexec <<< reboot`,
		`doas -s <<< reboot`,
		`su <<< reboot`,
		`su - <<< 'echo b > /proc/sysrq-trigger'`,
		`sudo su <<< reboot`,
		`sudo su - root <<< poweroff`,
		`runuser -l root <<< reboot`,
		`fakeroot <<< reboot`,
		`script -q /dev/null <<< reboot`,
		`tmux new -d reboot`,
		`tmux new-session -d 'systemctl poweroff'`,
		`screen -dm reboot`,
		`screen -dmS x sh -c 'rm -rf /'`,
		`byobu new -d reboot`,
		`dtach -n /tmp/s reboot`,
		`abduco -n s reboot`,
		`expect -c 'spawn reboot'`,
		`at now <<< 'rm -rf /'`,
		`echo reboot | batch`,
		`gdb -batch -ex 'shell reboot'`,
		`ed -s /dev/null <<< '!reboot'`,
		`echo '!poweroff' | ed -s`,
		`ex -s <<< '!reboot'`,
		`tmux new -d 'x!reboot'`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"root shell", `sudo -s`, TierDestructive},
		{"root shell reading a file", `sudo -s < /tmp/x`, TierDestructive},
		{"root shell listing", `sudo -s <<< 'ls /'`, TierDestructive},
		{"tmux list with a format", `tmux ls -F '#{session_name}'`, TierDestructive},
		{"tmux echo", `tmux new -d 'echo hi'`, TierDestructive},
	})
}

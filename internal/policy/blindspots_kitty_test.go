package policy

import "testing"

// TestBlindSpotTerminalsOwnCommands: kitty's and wezterm's own commands
// that start one — kitty's remote control (@ launch, @ run, @ new-window,
// @ action launch, in each spelling of its global options), +runpy,
// +launch, +hold and the ssh kitten, wezterm ssh and connect — hand what
// they start to the deny rules, as ssh HOST CMD does. What remote control
// types into another window is read as a command too, and is tier 3.
func TestBlindSpotTerminalsOwnCommands(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"kitty @ launch reboot", "kitty @ launch --type=tab --cwd /srv reboot", "kitty @launch --title x poweroff",
		"kitten @ launch --type background reboot", "kitten @ --to unix:/tmp/k launch -m id:1 reboot",
		"kitty @ --password-env K run /sbin/reboot", "kitten @ new-window --new-tab reboot",
		"kitten @ action launch --type=os-window reboot", "kitten @ action new_window reboot",
		"kitten @ send-text --match all 'reboot\\r'", "kitty @ send-text 'sudo poweroff\\n'",
		"kitten @ action send_text all 'reboot\\r'",
		`kitty +runpy 'import os; os.system("reboot")'`, "kitty +hold reboot", "kitty +kitten ssh h reboot",
		"kitty + kitten ssh --kitten login_shell=sh h poweroff", "kitten ssh -p 2222 h reboot",
		"kitten ssh -o ProxyCommand=reboot h", "kitty +kitten @ launch reboot",
		"wezterm ssh h reboot", "wezterm ssh --class x user@h 'systemctl poweroff'",
		"wezterm ssh -o ProxyCommand=reboot h", "wezterm ssh --ssh-option 'ProxyCommand reboot' h uptime",
		"wezterm connect sshmux reboot", "wezterm connect --workspace w dom -- /sbin/reboot",
	))
	runExactHosts(t, p, []exactCase{
		{"launch htop", "kitty @ launch --type=tab htop", TierMutate},
		{"list windows", "kitten @ ls", TierMutate},
		{"send-text", "kitten @ send-text --match title:x 'ls\\r'", TierDestructive},
		{"remote env", "kitten @ env LD_PRELOAD=/tmp/x.so", TierDestructive},
		{"own kitten in tmp", "kitty +kitten /tmp/k.py", TierDestructive},
		{"wezterm ssh uptime", "wezterm ssh h uptime", TierMutate},
	})
}

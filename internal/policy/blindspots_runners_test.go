package policy

import "testing"

// TestBlindSpotCommandRunners: programs that start the command in their
// arguments — terminal emulators, multiplexers' and recorders' run verbs,
// tracers and profilers, jails and container runtimes, guests' exec verbs,
// per-connection servers, the Rust rewrites of sudo and su and uutils'
// multicall binary — hand the deny rules what they run, in each program's
// own spelling (-e and -x words, -c and --command text, words after the
// options, after "--", after a container or address). Without their
// grammar the classifier could only guess a command among the words,
// which raises the tier to 3 but refuses nothing.
func TestBlindSpotCommandRunners(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		// Terminal emulators.
		"kitty reboot", "kitty --hold reboot", "kitty -T t --class c /sbin/reboot", "kitty --title=t shutdown -h now",
		"foot reboot", "foot -H poweroff", "foot -T x -D /tmp halt", "footclient -N reboot",
		"ghostty -e reboot", "cool-retro-term -e poweroff", "eterm -e reboot", "aterm -e reboot", "mlterm -e reboot",
		"rio -e reboot", "rio --command reboot", "i3-sensible-terminal -e reboot",
		"sakura -x reboot", "sakura -e reboot", "sakura --execute='shutdown -h now'",
		"mate-terminal -x reboot", "mate-terminal -e 'rm -rf /'", "mate-terminal --command=poweroff",
		"lxterminal -e reboot", "lxterminal --command=reboot", "qterminal -e reboot", "terminology -e reboot",
		"guake -e reboot", "tilda -c reboot", "blackbox -c 'systemctl poweroff'", "ptyxis -x reboot", "ptyxis -- reboot",
		"kgx -- reboot", "kgx -e reboot", "xdg-terminal-exec reboot", "wezterm start reboot", "wezterm start --cwd /tmp -- reboot",
		// Multiplexers and recorders.
		"zellij run -- reboot", "zellij run -n x -- poweroff", "zellij run -c reboot", "zellij action new-pane -- reboot",
		"zellij action new-pane -d right -- poweroff", "wezterm cli spawn reboot", "wezterm cli spawn --cwd /tmp -- reboot",
		"uv tool run reboot", "uv tool run --from x reboot", "asciinema rec -c reboot", "asciinema rec --command='rm -rf /' x.cast",
		"ttyrec -e reboot", "termrec -e reboot",
		// Tracers and profilers.
		"rr record reboot", "rr record -n poweroff", "heaptrack reboot", "heaptrack -o /tmp/x reboot",
		"uftrace record reboot", "uftrace live -F main reboot", "trace-cmd record reboot", "trace-cmd record -e sched -F reboot",
		// Jails, runtimes, guests.
		"nsjail -Mo -- reboot", "nsjail --chroot / -- /sbin/reboot", "minijail0 reboot", "minijail0 -u nobody -g nogroup reboot",
		"fakechroot reboot", "fakechroot -e x reboot", "rootlesskit reboot", "rootlesskit --net=slirp4netns reboot",
		"rootlesskit --net slirp4netns reboot", "buildah unshare reboot", "podman unshare reboot", "podman unshare rm -rf /",
		"runc exec c reboot", "runc exec -u 0 c reboot", "crun exec c reboot", "lxc-attach -n x -- reboot",
		"vzctl exec 100 reboot", "vzctl exec2 100 'rm -rf /'", "jexec 1 reboot", "jexec -u root j reboot",
		"pct exec 100 -- reboot", "pct exec 100 reboot", "qm guest exec 100 -- reboot", "qm guest exec 100 reboot",
		"qm guest exec 100 --timeout 5 -- poweroff", "iocage exec j reboot", "iocage exec -u root j poweroff",
		"machinectl shell x /sbin/reboot", "machinectl shell root@x /usr/sbin/poweroff", "ctr run img id reboot",
		"ctr run --env A=b --rm img id reboot",
		// Privilege tools, package runners, retry loops, servers.
		"please reboot", "please -u root reboot", "sudo-rs reboot", "sudo-rs -u root rm -rf /", "su-rs -c reboot",
		"pkgx reboot", "pkgx FOO=1 reboot", "pkgx +x reboot", "pkgx +a +b@2 rm -rf /", "uvx reboot", "uvx --from x reboot", "retry -t 3 -- reboot",
		"empty -f reboot", "tcpserver 0 1 reboot", "s6-tcpserver 0 1 reboot", "tcpsvd 0 1 reboot",
		"ttyd reboot", "ttyd -p 8080 reboot", "gotty reboot", "gotty --port 1 reboot", "dropbear -c reboot",
		"websocketd --port=8080 reboot", "websocketd -port 8080 --devconsole reboot", "websocketd --ssl --sslcert c --sslkey k reboot",
		"coreutils rm -rf /", "/usr/lib/cargo/bin/coreutils rm -rf /etc",
	))
	runExactHosts(t, p, []exactCase{
		// What they run otherwise keeps its own tier, and the programs
		// alone stay what they were.
		{"kitty alone", "kitty", TierMutate},
		{"kitty runs htop", "kitty --hold htop", TierMutate},
		{"kitty's own kitten", "kitty +kitten icat x.png", TierMutate},
		{"kitty remote control", "kitty @ ls", TierMutate},
		{"pkgx package", "pkgx +rust cargo build", TierMutate},
		{"wezterm cli list", "wezterm cli list", TierMutate},
		{"uv tool list", "uv tool list", TierMutate},
		{"sakura runs top", "sakura -x top", TierMutate},
		{"rr replay", "rr replay", TierMutate},
		{"uftrace report", "uftrace report", TierMutate},
		{"sudo-rs ls", "sudo-rs ls", TierRead},
		{"sudo-rs -u ls", "sudo-rs -u x ls /", TierRead},
		{"su-rs -c ls", "su-rs -c ls", TierRead},
		{"coreutils ls", "coreutils ls /", TierRead},
		{"pct list", "pct list", TierRead},
		{"pct exec ls", "pct exec 100 -- ls", TierDestructive},
		{"qm guest exec ls", "qm guest exec 100 -- ls", TierDestructive},
		{"qm guest cmd shutdown", "qm guest cmd 100 shutdown", TierDestructive},
		{"qm guest cmd ping", "qm guest cmd 100 ping", TierRead},
		{"podman unshare ls", "podman unshare ls", TierMutate},
	})
}

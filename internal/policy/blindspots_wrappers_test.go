package policy

import "testing"

// TestBlindSpotWrapperShells: a wrapper given no program opens a shell
// (fakeroot, pkexec, setarch, linux32/64, torsocks --shell), and
// setarch's flags may follow its architecture.
func TestBlindSpotWrapperShells(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"fakeroot", "fakeroot -u", "fakeroot -l /x",
		"pkexec", "pkexec --user bob",
		"setarch x86_64", "setarch x86_64 -R", "setarch -R x86_64", "linux32", "linux64 -R",
		"torsocks --shell", "torsocks -i --shell", "torsocks --sh",
	))
	runBlind(t, p, sameCases(TierDestructive, true, "setarch x86_64 -R reboot"))
	runExact(t, p, []exactCase{
		{"fakeroot ls", "fakeroot ls", TierRead},
		{"fakeroot -i", "fakeroot -i /tmp/x ls", TierRead},
		{"fakeroot --version", "fakeroot --version", TierRead},
		{"pkexec ls", "pkexec --user bob ls", TierRead},
		{"pkexec --version", "pkexec --version", TierRead},
		{"setarch ls", "setarch x86_64 -R ls", TierRead},
		{"setarch --list", "setarch --list", TierRead},
		{"linux32 ls", "linux32 ls", TierRead},
		{"torsocks ls", "torsocks -i ls", TierRead},
	})
}

// TestBlindSpotWrapperOptionsRun: a wrapper's own options run or load
// code (rlwrap -z, chpst -e, dbus-run-session --dbus-daemon and
// --config-file), act on other processes (cpulimit -p/-e/-P) or leave a
// daemon running (dbus-launch); chpst -/ runs the program in another root.
func TestBlindSpotWrapperOptionsRun(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"rlwrap -z filter ls", "rlwrap --filter='touch /etc/x' ls",
		"chpst -e /tmp/env ls", "chpst -u bob -e /tmp/env ls",
		"dbus-run-session --dbus-daemon=/tmp/x ls", "dbus-run-session --dbus-daemon /tmp/x ls",
		"dbus-run-session --config-file=/tmp/x ls", "dbus-launch --config-file=/tmp/x ls",
	))
	runBlind(t, p, sameCases(TierMutate, false,
		"cpulimit -p 1 -l 10", "cpulimit --pid=1 --limit=10", "cpulimit --pid 1 -l 10", "cpulimit --pi=1 -l 10",
		"cpulimit -l10 -p1", "cpulimit -e nginx -l 10", "cpulimit --exe=nginx -l 10",
		"cpulimit -P /usr/bin/yes -l 10", "cpulimit --path=/usr/bin/yes -l 10",
		"dbus-launch", "dbus-launch --sh-syntax", "dbus-launch ls",
		"chpst -/ /x ls",
	))
	runExact(t, p, []exactCase{
		{"cpulimit command", "cpulimit -l 10 ls", TierRead},
		{"cpulimit command's -p", "cpulimit -l 10 -- ls -p", TierRead},
		{"chpst -u", "chpst -u bob ls", TierRead},
		{"dbus-run-session", "dbus-run-session -- ls", TierRead},
	})
}

// TestBlindSpotFirejail: firejail with no program opens a shell, and its
// own options (setuid root) write files, set the environment, choose code
// it runs, or reach other sandboxes and the host.
func TestBlindSpotFirejail(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"firejail", "firejail --noprofile", "firejail --private", "firejail --join=x",
		"firejail --env=LD_PRELOAD=/tmp/x.so ls", "firejail --shell=/tmp/x ls",
		"firejail --profile=/tmp/x ls", "firejail --include=/tmp/x ls", "firejail --audit=/tmp/x ls",
	))
	runBlind(t, p, sameCases(TierMutate, false,
		"firejail --output=/etc/x ls", "firejail --output-stderr=/etc/x ls", "firejail --trace=/etc/x ls",
		"firejail --build=/etc/x ls", "firejail --dbus-log=/etc/x ls",
		"firejail --shutdown=x", "firejail --bandwidth=x set eth0 1 1",
		"firejail --overlay-clean", "firejail --join=x ls", "firejail --join-or-start=x ls",
		"firejail --chroot=/x ls", "firejail --private=/etc ls", "firejail --net=eth0 ls", "firejail --nice=-5 ls",
	))
	runExact(t, p, []exactCase{
		{"ls", "firejail ls", TierRead},
		{"restrictions", "firejail --noprofile --private --net=none --seccomp --caps.drop=all ls", TierRead},
		{"--list", "firejail --list", TierRead},
		{"--tree", "firejail --tree", TierRead},
		{"--fs.print", "firejail --fs.print=x", TierRead},
		{"--ls", "firejail --ls=x /", TierRead},
		{"--trace", "firejail --trace ls", TierRead},
		{"--shell=none", "firejail --shell=none ls", TierRead},
		{"-c", "firejail -c ls", TierRead},
	})
}

// TestBlindSpotMoreWrappers: gosu, su-exec, daemontools', s6's and
// moreutils' wrappers, aa-exec, systemd-cat, nq, bwrap and proot run the
// program in their arguments, which is classified (and denied) as itself;
// their own effects count too (a lock file, an environment directory,
// writable binds, proot's shell and emulator).
func TestBlindSpotMoreWrappers(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"gosu root reboot", "gosu root rm -rf /etc", "su-exec root reboot", "setuidgid root reboot",
		"s6-setuidgid root reboot", "envdir /tmp/env reboot", "softlimit -m 1000 reboot",
		"setlock /tmp/x reboot", "lckdo -W 5 /tmp/x reboot", "chronic reboot", "ifne -n reboot",
		"aa-exec -p x -- reboot", "aa-exec --profile=x rm -rf /etc", "systemd-cat reboot", "nq reboot",
		"bwrap --ro-bind / / reboot", "bwrap --dev-bind / / rm -rf /etc", "proot -0 reboot",
	))
	runBlind(t, p, sameCases(TierDestructive, false,
		"envdir /tmp/env ls", "s6-envdir /tmp/env ls",
		"bwrap --ro-bind / / --setenv LD_PRELOAD /tmp/x.so ls", "bwrap --args 3 ls",
		"proot", "proot -0", "proot -q qemu-arm ls", "proot --qemu=/tmp/x ls",
	))
	runBlind(t, p, sameCases(TierMutate, false,
		"setlock /etc/x ls", "s6-setlock -t 10 /etc/x ls", "lckdo /etc/x ls", "nq ls",
		"bwrap --bind /etc /tmp/x ls", "proot -r /x ls", "proot -b /etc:/tmp/x ls", "proot --bind=/etc:/tmp/x ls",
	))
	runBlind(t, p, sameCases(TierBenign, false, "systemd-cat -t x echo hi"))
	// run0 asks the service manager to run the command, like systemd-run.
	runBlind(t, p, sameCases(TierDestructive, true,
		"run0 reboot", "run0 --user bob rm -rf /etc", "arch-chroot /mnt reboot"))
	runBlind(t, p, sameCases(TierDestructive, false,
		"run0 ls", "run0", "run0 --setenv=LD_PRELOAD=/tmp/x.so ls", "arch-chroot /mnt"))
	runExact(t, p, []exactCase{
		{"gosu", "gosu bob ls", TierRead},
		{"su-exec", "su-exec bob ls", TierRead},
		{"softlimit", "softlimit -m 1000 ls", TierRead},
		{"chronic", "chronic ls", TierRead},
		{"aa-exec", "aa-exec -p x ls", TierRead},
		{"bwrap", "bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all ls", TierRead},
		{"proot", "proot -0 -w /etc ls", TierRead},
	})
}

// TestBlindSpotInhibit: systemd-inhibit holds off shutdown, sleep or
// idle for everyone while its command runs (tier 1), and its options take
// their values in either spelling.
func TestBlindSpotInhibit(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierBenign, false,
		"systemd-inhibit --what=shutdown --mode=block sleep 1000", "systemd-inhibit sleep 1",
	))
	runExact(t, p, []exactCase{
		{"separate value", "systemd-inhibit --what shutdown --why x sleep 1", TierBenign},
		{"list", "systemd-inhibit --list", TierRead},
	})
}

// TestBlindSpotFaketime: faketime's -f and -m are flags, so after them
// come the timestamp and then the program, which is classified (it was
// read one word late); --date-prog runs the program it names.
func TestBlindSpotFaketime(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"faketime -f '+1d' reboot now", "faketime -f +1d rm -rf /etc", "faketime --date-prog reboot 1 ls",
		"faketime -p 1 2020-01-01 reboot",
	))
	runExact(t, p, []exactCase{
		{"-f", "faketime -f '+1d' ls /etc", TierRead},
		{"-m -f", "faketime -m -f '+1d' ls", TierRead},
	})
}

// TestBlindSpotWrapperValueOptions: a wrapper's long options that take
// the next word as their value (chroot --userspec, unshare --setgroups,
// prlimit -o) do not push the command one word on.
func TestBlindSpotWrapperValueOptions(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"chroot --userspec 0:0 / reboot", "chroot --groups wheel / reboot", "chroot --use 0:0 / reboot",
		"unshare --setgroups deny reboot", "unshare --map-users 0:1000:1 reboot", "unshare --monotonic 10 reboot",
		"prlimit -o RESOURCE reboot", "systemd-run -C x reboot", "systemd-run --capsule x reboot",
		"systemd-run --background x reboot",
		// strace's --quiet and --decode-fds take a value only after '=', and
		// --output-separately none; ltrace's -S, -T, -L and -b are flags.
		"strace --quiet reboot", "strace --decode-fds reboot", "strace --output-separately -o /tmp/x reboot",
		"ltrace -S reboot", "ltrace -T reboot", "ltrace -L reboot", "ltrace -b reboot", "ltrace -w 3 reboot",
	))
}

// TestBlindSpotDBusClients: every qdbus build (qdbus-qt5, qdbus-qt6,
// qdbus6) asking logind or systemd to power off is denied like qdbus, and
// KillUnit of init.scope like systemctl kill init.scope.
func TestBlindSpotDBusClients(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"qdbus-qt5 --system org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager.Reboot true",
		"qdbus6 --system org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager.PowerOff true",
		"qdbus-qt6 --system org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager.Halt",
		"busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager KillUnit ssi init.scope all 9",
		"dbus-send --system --dest=org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager.KillUnit string:init.scope string:all int32:9",
	))
}

// TestBlindSpotCoredumpctl: coredumpctl debug runs a debugger (gdb's
// prompt runs shell commands; --debugger names another program), dump -o
// writes, list and info read.
func TestBlindSpotCoredumpctl(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false, "coredumpctl debug", "coredumpctl gdb", "coredumpctl debug -A '-ex x'"))
	runBlind(t, p, sameCases(TierDestructive, true, "coredumpctl debug --debugger=reboot", "coredumpctl debug --debugger reboot"))
	runBlind(t, p, sameCases(TierMutate, false, "coredumpctl dump -o /etc/x", "coredumpctl -o/etc/x dump", "coredumpctl --outp=/etc/x dump"))
	runExact(t, p, []exactCase{
		{"list", "coredumpctl list", TierRead},
		{"info", "coredumpctl info 1234", TierRead},
		{"no verb", "coredumpctl", TierRead},
	})
}

// TestBlindSpotDBusVerbs: a D-Bus StartTransientUnit asks systemd to run
// a command outside warden's confinement, like systemd-run (tier 3);
// calls, property sets and signals are tier 2; listing, introspecting,
// reading properties and watching stay tier 0; busctl -H runs ssh.
func TestBlindSpotDBusVerbs(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager StartTransientUnit 'ssa(sv)a(sa(sv))' x.service fail 1 ExecStart 'a(sasb)' 1 /bin/touch 2 /bin/touch /etc/x false 0",
		"dbus-send --system --dest=org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager.StartTransientUnit string:x",
		"gdbus call --system -d org.freedesktop.systemd1 -o /org/freedesktop/systemd1 -m org.freedesktop.systemd1.Manager.StartTransientUnit x",
	))
	runBlind(t, p, sameCases(TierBenign, false, "busctl -H host list"))
	runExact(t, p, []exactCase{
		{"busctl list", "busctl list", TierRead},
		{"busctl status", "busctl status", TierRead},
		{"busctl tree", "busctl tree org.freedesktop.hostname1", TierRead},
		{"busctl get-property", "busctl get-property org.freedesktop.hostname1 /org/freedesktop/hostname1 org.freedesktop.hostname1 Hostname", TierRead},
		{"busctl call", "busctl call org.freedesktop.hostname1 /org/freedesktop/hostname1 org.freedesktop.hostname1 SetHostname sb x false", TierMutate},
		{"gdbus introspect", "gdbus introspect --system --dest org.freedesktop.login1 --object-path /org/freedesktop/login1", TierRead},
		{"gdbus call", "gdbus call --system --dest org.freedesktop.hostname1 --object-path /org/freedesktop/hostname1 --method org.freedesktop.hostname1.SetHostname x false", TierMutate},
		{"dbus-send", "dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.ListNames", TierMutate},
		{"qdbus list", "qdbus org.kde.ksmserver /KSMServer", TierRead},
		{"qdbus call", "qdbus org.kde.ksmserver /KSMServer logout 0 0 0", TierMutate},
	})
}

package policy

import "testing"

// TestBlindSpotJobModeIsolate: systemctl start --job-mode=isolate is
// systemctl isolate, which stops every unit its target does not need, in
// every spelling getopt_long takes.
func TestBlindSpotJobModeIsolate(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"systemctl start --job-mode=isolate multi-user.target", "systemctl --job-mode=isolate start basic.target",
		"systemctl start --job-mode isolate graphical.target", "systemctl start --job-m=isolate basic.target",
		"systemctl restart --job-mode=isolate sockets.target", "sudo systemctl start --job-mode=\"$M\" basic.target",
	))
	runExact(t, p, []exactCase{
		{"other job mode", "systemctl start --job-mode=replace nginx", TierMutate},
		{"status", "systemctl status --job-mode=isolate nginx", TierRead},
	})
}

// TestBlindSpotOtherInits: the power and run-level commands of other init
// systems (OpenRC, runit, s6, dinit, Shepherd, launchd), SysV scripts run
// through service, and rtcwake's suspend and power-off modes are denied
// like reboot and init 1, behind wrappers too.
func TestBlindSpotOtherInits(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"rtcwake -m off -s 60", "rtcwake -moff -s 1", "rtcwake --mode=mem -s 1", "rtcwake --mo disk -s 1",
		"rtcwake -um freeze -s 1", "rtcwake -s 60", "sudo rtcwake -d rtc0 -m standby -t 1700000000",
		"openrc single", "openrc -n single", "sudo openrc shutdown", "openrc-shutdown -r now", "openrc-shutdown --sing now",
		"openrc-shutdown -p now", "openrc-init 0", "runit-init 6", "busybox sh -c 'runit-init 0'",
		"s6-svscanctl -6 /run/service", "s6-svscanctl -q7 /run/service", "s6-linux-init-shutdown -p now", "s6-linux-init-hpr -r",
		"dinitctl shutdown", "herd stop root", "herd power-off shepherd", "launchctl reboot userspace",
		"service halt stop", "service single start", "invoke-rc.d reboot stop", "env service sendsigs stop",
	))
	runExact(t, p, []exactCase{
		{"rtcwake show", "rtcwake -m show", TierMutate},
		{"rtcwake dry run", "rtcwake -n -m off -s 60", TierMutate},
		{"rtcwake alarm only", "rtcwake -m no -s 60", TierMutate},
		{"rtcwake help", "rtcwake --help", TierMutate},
		{"rtcwake with no wake time", "rtcwake -m off", TierMutate},
		{"rtcwake modes", "rtcwake --list-modes", TierMutate},
		{"openrc-shutdown dry run", "openrc-shutdown -D -r now", TierMutate},
		{"s6-svscanctl alarm", "s6-svscanctl -a /run/service", TierMutate},
		{"herd status", "herd status root", TierMutate},
		{"service status", "service halt status", TierRead},
		{"service restart", "service nginx restart", TierMutate},
	})
}

// TestBlindSpotDBusDisruptors: a D-Bus call of a method that does what
// systemctl stop/kill/mask/disable/poweroff, loginctl terminate-user or
// nmcli networking off do is tier 3 like those commands, through every
// client; listings and property reads stay tier 0, other calls tier 2.
func TestBlindSpotDBusDisruptors(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager StopUnit ss sshd.service replace",
		"busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/sshd_2eservice org.freedesktop.systemd1.Unit Stop s replace",
		"busctl --system call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager KillUnit ssi sshd.service all 9",
		"dbus-send --system --print-reply --dest=org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager.MaskUnitFiles array:string:sshd.service boolean:false boolean:true",
		"dbus-send --system --dest=org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager.SetDefaultTarget string:multi-user.target boolean:true",
		"gdbus call --system --dest org.freedesktop.NetworkManager --object-path /org/freedesktop/NetworkManager --method org.freedesktop.NetworkManager.Sleep true",
		"gdbus call --system --dest org.freedesktop.NetworkManager --object-path /org/freedesktop/NetworkManager --method org.freedesktop.NetworkManager.DeactivateConnection /x",
		"qdbus --system org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager.TerminateUser 0",
		"busctl call org.freedesktop.timedate1 /org/freedesktop/timedate1 org.freedesktop.timedate1 SetTime xbb 0 false false",
	))
	runExact(t, p, []exactCase{
		{"start a unit", "busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager StartUnit ss nginx.service replace", TierMutate},
		{"list units", "busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager ListUnits", TierMutate},
		{"property", "busctl get-property org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager Version", TierRead},
		{"introspect", "gdbus introspect --system --dest org.freedesktop.login1 --object-path /org/freedesktop/login1", TierRead},
	})
}

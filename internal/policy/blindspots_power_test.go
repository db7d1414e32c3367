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

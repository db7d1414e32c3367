package policy

import "testing"

// TestBlindSpotPsEnvironment: ps's BSD e letter, alone or in a cluster
// (ps e, ps auxe, ps eww, ps axwwe), shows every process's environment
// after its command, as reading /proc/*/environ does: at least tier 2.
// Its other forms, and the letter e inside an option's value (-o etime),
// stay reads.
func TestBlindSpotPsEnvironment(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"ps e", "ps eww", "ps auxe", "ps axwwe", "ps -ef e", "ps U root e", "ps aux e | grep TOKEN",
		"sudo ps auxe", "watch -n1 ps e", "ps -o pid e",
		// A BSD word known only at run time may hold the letter.
		"ps $opts", `ps "$X" -o pid`, "ps $(cat /tmp/opts)",
	))
	runExactHosts(t, p, []exactCase{
		{"aux", "ps aux", TierRead},
		{"ef", "ps -ef", TierRead},
		{"all", "ps -e", TierRead},
		{"eo", "ps -eo pid,etime,cmd", TierRead},
		{"o value", "ps -o pid,user,etime -p 1", TierRead},
		{"bsd o value", "ps axo pid,etime", TierRead},
		{"sort", "ps aux --sort -pmem", TierRead},
		{"format", "ps --format pid,etime", TierRead},
		{"user", "ps -U www-data -o pid,cmd", TierRead},
		{"forest", "ps axjf", TierRead},
		{"computed value", "ps -p $(pgrep nginx) -o etime=", TierRead},
		{"computed dash option", "ps -$X", TierRead},
	})
}

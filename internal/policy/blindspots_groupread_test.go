package policy

import "testing"

// TestBlindSpotGroupReadsItsInput: a group or subshell that begins with
// read (or mapfile) takes its line from the group's input as a while
// read loop does, so the name printf prints into it, or a here-string or
// process substitution gives it, is the value the commands after it use.
func TestBlindSpotGroupReadsItsInput(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"printf '/etc/warden/%s\\n' config.yaml | { read f; cat \"$f\"; }",
		"printf '/etc/warden/%s\\n' config.yaml | ( read -r f; cat \"$f\" )",
		"printf '%s/%s\\n' /root/.local/state/warden token | { IFS= read -r f; base64 \"$f\"; }",
		"{ read f; cat \"$f\"; } <<< /etc/warden/config.yaml",
		"{ read -r d; cat \"$d\"/audit.key; } <<< /etc/warden",
		"( read -r f; head \"$f\" ) <<< /root/.local/state/warden/token",
		"{ IFS= read -r f; cat \"$f\"; } < <(printf '/etc/%s/config.yaml\\n' warden)",
		"{ read -r f; cat \"$f\"; } <<EOF\n/etc/warden/audit.key\nEOF",
		"printf '/etc/warden/%s\\n' config.yaml | { mapfile -t a; cat \"${a[@]}\"; }",
		"printf '/etc/warden/%s\\n' config.yaml | { readarray a; cat ${a[0]}; }",
		"printf '/etc/%s\\n' warden | { read d; cp \"$d/config.yaml\" /tmp/x; }",
	))
	runExactHosts(t, p, []exactCase{
		{"other file", "echo /tmp/x | { read f; cat \"$f\"; }", TierRead},
		{"here-string of another file", "{ read f; cat \"$f\"; } <<< /etc/hosts", TierRead},
		{"group without read", "printf '/etc/warden/%s\\n' config.yaml | { cat; }", TierRead},
	})
}

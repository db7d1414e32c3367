package policy

import "testing"

// TestBlindSpotBackupGlobalValues: restic (cobra) takes the word after
// any global option it cannot name as a boolean as its value, and borg
// (argparse, abbreviations taken) takes one after --debug-topic and its
// other value options, so a reading verb there is the value and the next
// word runs; restic's global --cleanup-cache removes cache directories
// whatever the command.
func TestBlindSpotBackupGlobalValues(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"restic --key-hint snapshots forget x",
		"restic --http-user-agent snapshots forget latest",
		"restic --http-user-agent ls prune",
		"restic --key-hint stats unlock --remove-all",
		"restic --some-new-option cat tag --add x latest",
		"restic -o snapshots forget x",
		"sudo restic --key-hint snapshots forget x",
		"restic --cleanup-cache snapshots",
		"restic --cleanup-cache=true ls latest",
		"restic -r /srv/repo --cleanup-cache check",
		"borg --debug-topic list delete /repo",
		"borg --debug-t list delete /repo::a",
		"borg --remote-ratelimit list prune /repo",
		"env borg --debug-topic info compact /repo",
	))
	runExactHosts(t, p, []exactCase{
		{"restic snapshots", "restic -r /srv/repo snapshots", TierRead},
		{"restic --no-lock", "restic --no-lock -r /srv/repo snapshots --json", TierRead},
		{"restic -v ls", "restic -v ls latest", TierRead},
		{"restic --insecure-tls", "restic --insecure-tls --no-cache stats", TierRead},
		{"restic --cleanup-cache=false", "restic --cleanup-cache=false snapshots", TierRead},
		{"restic -o", "restic -o s3.region=eu-west-1 snapshots", TierRead},
		{"borg list", "borg list /repo", TierRead},
		{"borg --lock-wait", "borg --lock-wait 5 info /repo", TierRead},
		{"borg --debug-topic", "borg --debug-topic lock list /repo", TierRead},
		{"borg --iec", "borg --iec --log-json info /repo", TierRead},
	})
}

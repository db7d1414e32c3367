package policy

import "testing"

// TestBackupCheckLocks: restic check and borg check take the repository's
// exclusive lock. A call killed at its timeout leaves it behind, and every
// backup then fails until someone runs restic unlock or borg
// break-lock: tier 2, in any spelling, unless the check is told to read
// without the lock. Listing snapshots and archives stays a read.
func TestBackupCheckLocks(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"restic check",
		"restic -r /srv/restic check",
		"restic --repo sftp:nas:/backup check --read-data",
		"restic check --read-data-subset=5%",
		"RESTIC_REPOSITORY=/srv/r restic check",
		"sudo -u backup restic check",
		"nice -n 19 restic -q check",
		"borg check /srv/borg",
		"borg check --verify-data ssh://nas/./repo",
		"borg --lock-wait 5 check /repo",
		"BORG_REPO=/repo borg check",
		"sudo borg check -v /repo",
	))
	runExactHosts(t, p, []exactCase{
		{"restic no-lock", "restic check --no-lock", TierRead},
		{"restic global no-lock", "restic --no-lock -r /srv/r check", TierRead},
		{"borg bypass", "borg check --bypass-lock /repo", TierRead},
		{"borg global bypass", "borg --bypass-lock check /repo", TierRead},
		{"restic snapshots", "restic snapshots", TierRead},
		{"borg list", "borg list /repo", TierRead},
	})
}

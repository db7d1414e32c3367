package policy

import "testing"

// TestBlindSpotBackupRepoOutOfSight: a restic or borg repository named
// where the command line does not show it, by a variable or a file, still
// reaches its host through ssh. A host beginning with '-' is ssh's option
// (-oProxyCommand runs a program), denied as it is after -r; a repository
// file a tier 1 call can write may hold one, so reading it is tier 3.
func TestBlindSpotBackupRepoOutOfSight(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"RESTIC_REPOSITORY='sftp:-oProxyCommand=x:/r' restic snapshots",
		"RESTIC_REPOSITORY='sftp:u@-oProxyCommand=x:/r' restic snapshots",
		"export RESTIC_REPOSITORY='sftp://-oProxyCommand=x/r'; restic snapshots",
		"env RESTIC_REPOSITORY=sftp:-F/tmp/c:/r restic ls latest",
		"BORG_REPO='ssh://-oProxyCommand=x/r' borg list",
		"env BORG_REPO='ssh://u@-oProxyCommand=x/r' borg list",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"restic --repository-file /tmp/f snapshots",
		"restic --repository-file=/tmp/f snapshots",
		"restic snapshots --repository-file /var/tmp/f",
		"restic --repository-file $F snapshots",
		"cd /tmp && restic --repository-file f snapshots",
		"sudo restic --repository-file /dev/shm/f ls latest",
		"RESTIC_REPOSITORY_FILE=/tmp/f restic snapshots",
		"export RESTIC_REPOSITORY_FILE=/tmp/f; restic snapshots",
	))
	runExactHosts(t, p, []exactCase{
		{"snapshots", "restic snapshots", TierRead},
		{"operator's repository file", "restic --repository-file /etc/restic/repo snapshots", TierRead},
		{"repo in tmp", "restic --repo /tmp/x snapshots", TierRead},
	})
}

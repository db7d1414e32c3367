package policy

import "testing"

// TestBlindSpotBackupRepoVars: a repository the input names through the
// variable restic or borg reads (RESTIC_REPOSITORY, BORG_REPO) is placed
// as -r's is: set in the input, with export, as a prefix, through env or
// the call's own environment, a local one outside the temporary
// directories makes a writing subcommand tier 2. A remote one, one under
// /tmp, and one set outside the input keep tier 1.
func TestBlindSpotBackupRepoVars(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"RESTIC_REPOSITORY=/etc/x restic init",
		"RESTIC_REPOSITORY=/srv/r restic backup /var/www",
		"RESTIC_REPOSITORY=local:/srv/r restic backup /var/www",
		"export RESTIC_REPOSITORY=/srv/r; restic backup /var/www",
		"export RESTIC_REPOSITORY=/srv/r\nrestic init",
		"R=/srv/r; export RESTIC_REPOSITORY=$R; restic init",
		"env RESTIC_REPOSITORY=/srv/r restic init",
		"env -i RESTIC_REPOSITORY=relative/r restic init",
		"BORG_REPO=/srv/b borg create ::a /var/www",
		"export BORG_REPO=/etc/x; borg init -e none",
		"env BORG_REPO=/srv/b borg create ::a /var/www",
	))
	for _, h := range classifierHosts {
		got := p.Evaluate(Input{Command: "restic init", Env: map[string]string{"RESTIC_REPOSITORY": "/srv/r"}, Host: h})
		if got.Tier < TierMutate || got.Denied {
			t.Errorf("restic init with RESTIC_REPOSITORY=/srv/r in its environment, host %q = %s (%s); want tier 2", h, got.Tier, got.Reason)
		}
	}
	runExactHosts(t, p, []exactCase{
		{"tmp repo", "RESTIC_REPOSITORY=/tmp/r restic backup /var/www", TierBenign},
		{"sftp repo", "RESTIC_REPOSITORY=sftp:backup@nas:/srv/restic restic backup /var/www", TierBenign},
		{"s3 repo", "env RESTIC_REPOSITORY=s3:s3.amazonaws.com/bucket restic init", TierBenign},
		{"borg ssh repo", "BORG_REPO=ssh://backup@nas/./repo borg create ::a /var/www", TierBenign},
		{"borg scp-like repo", "env BORG_REPO=backup@nas:repo borg create ::a /var/www", TierBenign},
		{"borg tmp repo", "export BORG_REPO=/var/tmp/b; borg create ::a /var/www", TierBenign},
		{"listing", "RESTIC_REPOSITORY=/srv/r restic snapshots", TierRead},
		{"flag wins", "RESTIC_REPOSITORY=/srv/r restic -r /tmp/r backup /var/www", TierBenign},
	})
}

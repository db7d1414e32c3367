package policy

import "strings"

// restic init, backup and copy and borg init and create write the
// repository. A repository on another machine (restic's sftp:, s3:,
// rest: … backends, borg's ssh:// and host:path) is written there, and
// one under /tmp or /var/tmp is within what tier 1 may write; a local
// path anywhere else (restic -r /etc/x init creates /etc/x) is a write
// outside the temporary directories, tier 2 and held to the protected
// paths as any write is; so is --repository-file's, which the classifier
// cannot place. A repository named by RESTIC_REPOSITORY or BORG_REPO
// (borg's ::ARCHIVE) is read as -r's is when the input itself sets the
// variable (RESTIC_REPOSITORY=/srv/x restic init); one set outside it is
// the operator's configuration and keeps the subcommand's tier.

// resticRemotes are restic's backends other than local:.
var resticRemotes = []string{"sftp:", "rest:", "s3:", "b2:", "azure:", "gs:", "swift:", "rclone:"}

// backupRepoWrite classifies where restic's and borg's writing
// subcommands put the repository.
func (c *call) backupRepoWrite(first string) (Tier, string) {
	var local []arg // the repositories on this machine
	named := false
	switch {
	case c.name == "restic" && (first == "init" || first == "backup" || first == "copy"):
		if len(exactOptVals(c.args, "--repository-file")) > 0 {
			return TierMutate, "restic " + first + ": writes the repository --repository-file names"
		}
		repos := exactOptVals(c.args, "-r", "--repo")
		if len(repos) == 0 {
			repos = c.scriptVar("RESTIC_REPOSITORY")
		}
		for _, r := range repos {
			named = true
			if v, ok := strings.CutPrefix(r.val, "local:"); ok {
				r.val = v
			} else if r.known && hasAnyPrefix(r.val, resticRemotes) {
				continue
			}
			local = append(local, r)
		}
	case c.name == "borg" && (first == "init" || first == "create"):
		ops, _ := afterSub(c.args, first, "eC", "--encryption --exclude --exclude-from --pattern --patterns-from --comment "+
			"--compression --chunker-params --checkpoint-interval --timestamp --remote-path --rsh --lock-wait --files-cache "+
			"--upload-ratelimit --stdin-name --storage-quota")
		var repos []arg
		if len(ops) > 0 {
			repo := ops[0]
			repo.val, _, _ = strings.Cut(repo.val, "::") // REPO::ARCHIVE; ::ARCHIVE is BORG_REPO's
			repos = append(repos, repo)
		}
		if len(repos) == 0 || repos[0].known && repos[0].val == "" {
			repos = c.scriptVar("BORG_REPO")
		}
		for _, repo := range repos {
			named = named || repo.val != "" || !repo.known
			if (repo.val != "" || !repo.known) && !(repo.known && (strings.HasPrefix(repo.val, "ssh://") || remoteSpec(repo.val))) {
				local = append(local, repo)
			}
		}
	default:
		return TierRead, ""
	}
	if !named {
		return TierRead, ""
	}
	r := raiser{TierRead, ""}
	for _, repo := range local {
		if !repo.known || !tmpPath(repo.val) {
			r.raise(c.writeArg(repo, c.name+" "+first+" repository"))
		}
	}
	return r.t, r.why
}

// scriptVar returns the literal values the input gives the variable
// name, each a word of c's.
func (c *call) scriptVar(name string) []arg {
	if c.ctx.sc == nil {
		return nil
	}
	var out []arg
	for _, v := range c.ctx.sc.values(name) {
		out = append(out, arg{val: v, known: true})
	}
	return out
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

package policy

import (
	"fmt"
	"slices"
	"strings"
)

// Object-store and backup clients whose deletes hide in options rather
// than in a verb infraProgram sees: sync modes that delete at the
// destination what the source lacks (s3cmd --delete-removed, gsutil
// rsync -d, gcloud's --delete-unmatched-destination-objects, az's
// --delete-destination, rclone bisync), and what rclone runs itself
// (--password-command, the sftp backend's ssh command, the metadata
// mapper), given as options, in a connection string or in the
// environment.

// objectStoreProgram classifies rclone, s3cmd, gsutil, gcloud, az and aws:
// infraProgram's verbs, then the deleting options and rclone's commands.
// A dry run (rclone --dry-run or -n, aws --dryrun) deletes nothing, so it
// brings a deleting verb down to TierMutate.
func objectStoreProgram(c *call) (Tier, string) {
	r := raiser{}
	r.raise(infraProgram(c))
	vals := c.vals()
	words, _ := c.leadWords(3)
	first := ""
	if len(words) > 0 {
		first = words[0]
	}
	switch c.name {
	case "rclone":
		r.raise(c.rcloneRuns())
		switch {
		case first == "bisync":
			r.raise(TierDestructive, "rclone bisync: deletes on each side what the other lacks")
		case first == "rc" && len(words) > 1 && rcloneRcDeletes(words[1]):
			r.raise(TierDestructive, "rclone rc "+truncate(words[1], 48)+": deletes through the remote control API")
		}
	case "s3cmd":
		for _, v := range vals {
			if longFlag(v, "--delete-removed") || longFlag(v, "--delete-after-fetch") {
				r.raise(TierDestructive, "s3cmd "+truncate(v, 32)+": deletes files the other side lacks, or the source after fetching")
			}
		}
	case "gsutil":
		for i, v := range vals {
			if strings.ToLower(v) == "rsync" && hasFlag(vals[i+1:], 'd', "") {
				r.raise(TierDestructive, "gsutil rsync -d: deletes at the destination what the source lacks")
			}
		}
	case "gcloud":
		for _, v := range vals {
			if longFlag(v, "--delete-unmatched-destination-objects") {
				r.raise(TierDestructive, "gcloud storage rsync --delete-unmatched-destination-objects: deletes at the destination what the source lacks")
			}
		}
	case "az":
		if deleteDestination(vals) {
			r.raise(TierDestructive, "az --delete-destination: deletes at the destination what the source lacks")
		}
	}
	if setsExpiry(c.name, vals) {
		r.raise(TierDestructive, c.name+": sets a bucket's lifecycle rules, whose expiry deletes objects")
	}
	if r.t == TierDestructive && !c.e.opaque && allKnown(c.args) && dryRun(c.name, vals) {
		return TierMutate, c.name + " dry run: reports what it would delete"
	}
	return r.t, r.why
}

// setsExpiry reports whether a client's command sets a bucket's lifecycle
// (object expiry) rules, which the store then applies by deleting
// objects: aws s3api put-bucket-lifecycle(-configuration), s3cmd
// setlifecycle and expire, gsutil lifecycle set, gcloud's
// --lifecycle-file, az's management-policy create or update, b2's
// lifecycle rule options, and rclone backend lifecycle given -o options.
func setsExpiry(name string, vals []string) bool {
	has := func(w string) bool {
		return slices.ContainsFunc(vals, func(v string) bool { return strings.EqualFold(v, w) })
	}
	switch name {
	case "aws":
		return slices.ContainsFunc(vals, func(v string) bool {
			return strings.HasPrefix(strings.ToLower(v), "put-bucket-lifecycle")
		})
	case "s3cmd":
		return has("setlifecycle") || has("expire")
	case "gsutil":
		return has("lifecycle") && has("set")
	case "gcloud":
		return slices.ContainsFunc(vals, func(v string) bool { return longFlag(v, "--lifecycle-file") })
	case "az":
		return has("management-policy") && (has("create") || has("update"))
	case "b2":
		return slices.ContainsFunc(vals, func(v string) bool {
			n := strings.ToLower(strings.ReplaceAll(v, "-", ""))
			return strings.HasPrefix(n, "lifecyclerule")
		})
	case "rclone":
		return has("backend") && has("lifecycle") && hasFlag(vals, 'o', "--option")
	}
	return false
}

// dryRun reports whether vals ask c's program for a dry run that no
// earlier option can take as its value (pflag gives --exclude the next
// word, --dry-run included) and no later one turns off.
func dryRun(name string, vals []string) bool {
	found := false
	for i, v := range vals {
		n, val, eq := strings.Cut(v, "=")
		is := false
		switch name {
		case "rclone":
			is = n == "--dry-run" || v == "-n"
		case "aws":
			is = n == "--dryrun" || n == "--dry-run"
		}
		if !is {
			continue
		}
		if eq && falseValue(val) {
			return false
		}
		if i > 0 {
			p := vals[i-1]
			if strings.HasPrefix(p, "-") && !strings.Contains(p, "=") && !dryRunNeighbours[p] {
				return false
			}
		}
		found = true
	}
	return found
}

// dryRunNeighbours are options that take no value, so a dry-run flag
// after them is a flag.
var dryRunNeighbours = set(`-v -vv -vvv -q -P -n --progress --verbose --quiet --dry-run --dryrun
	--recursive -r --interactive -i --checksum -c --update -u --fast-list --no-traverse`)

// rcloneRcDeletes reports whether rclone rc's command deletes
// (operations/purge, operations/delete, sync/sync, sync/bisync).
func rcloneRcDeletes(cmd string) bool {
	cmd = strings.ToLower(cmd)
	if strings.HasPrefix(cmd, "sync/") {
		return true
	}
	for _, s := range []string{"purge", "delete", "rmdir", "cleanup", "dedupe"} {
		if strings.Contains(cmd, s) {
			return true
		}
	}
	return false
}

// rcloneCommandOpts are rclone's options whose value is a command it
// runs: the password command, the sftp backend's ssh and the metadata
// mapper (space-separated lists, run like a shell's simple command).
var rcloneCommandOpts = []string{"--password-command", "--sftp-ssh", "--metadata-mapper"}

// rcloneCommandNames are rcloneCommandOpts and every option in args
// whose name ends in -command: the backends' flags for a command rclone
// runs (--webdav-bearer-token-command; --sftp-server-command runs on
// the server) follow that pattern.
func rcloneCommandNames(args []arg) []string {
	names := rcloneCommandOpts
	for _, a := range args {
		name, _, _ := strings.Cut(a.val, "=")
		if strings.HasPrefix(name, "--") && strings.HasSuffix(name, "-command") && name != "--password-command" {
			names = append(names[:len(names):len(names)], name)
		}
	}
	return names
}

// rcloneRuns classifies what rclone runs and reaches: the command options,
// a config file named by --config,
// an ssh= parameter of a connection string (:sftp,ssh='…':path or
// remote,ssh=…:), and a connection string's host= or url= against the
// host rules.
func (c *call) rcloneRuns() (Tier, string) {
	r := raiser{TierRead, ""}
	for _, v := range exactOptVals(c.args, rcloneCommandNames(c.args)...) {
		r.raise(c.shellArg(v, "rclone command option"))
	}
	if len(exactOptVals(c.args, "--config")) > 0 {
		// As RCLONE_CONFIG: an sftp remote's ssh = … in that file is a
		// command rclone runs, and the classifier cannot read the file.
		r.raise(TierDestructive, "rclone --config: a config file's sftp remotes can name a command rclone runs")
	}
	for _, v := range exactOptVals(c.args, "--sftp-host", "--ftp-host", "--http-url", "--webdav-url", "--s3-endpoint", "--swift-auth") {
		if v.known {
			c.checkHost(v.val)
		}
	}
	param := func(k string, v arg, what string) {
		switch nk := strings.ToLower(strings.ReplaceAll(k, "-", "_")); {
		case nk == "ssh" || nk == "metadata_mapper" || strings.HasSuffix(nk, "_command"):
			r.raise(c.shellArg(v, what+" "+k))
		case nk == "host" || nk == "url" || nk == "endpoint":
			if v.known {
				c.checkHost(v.val)
			}
		}
	}
	for _, a := range c.args {
		if !a.known || strings.HasPrefix(a.val, "-") || !strings.Contains(a.val, ",") {
			continue
		}
		for _, p := range connParams(a.val) {
			k, v, _ := strings.Cut(p, "=")
			param(k, arg{val: v, known: true}, "rclone connection string")
		}
	}
	// config create NAME TYPE and config update NAME store key value
	// pairs (or key=value) that every later rclone command on the remote
	// uses: an ssh command stored there runs later.
	var ops []arg
	for _, a := range c.args {
		if !a.known || !strings.HasPrefix(a.val, "-") {
			ops = append(ops, a)
		}
	}
	if len(ops) >= 3 && ops[0].val == "config" && (ops[1].val == "create" || ops[1].val == "update") {
		kv := ops[3:]
		if ops[1].val == "create" && len(kv) > 0 {
			kv = kv[1:] // the remote's type
		}
		for i := 0; i < len(kv); i++ {
			if k, v, ok := strings.Cut(kv[i].val, "="); ok && kv[i].known {
				param(k, arg{val: v, known: true}, "rclone config")
				continue
			}
			if i+1 < len(kv) {
				param(kv[i].val, kv[i+1], "rclone config")
				i++
			}
		}
	}
	return r.t, r.why
}

// connParams returns the key=value parameters of an rclone connection
// string (remote,k=v,k2='v, with comma':path): rclone quotes a value
// with ' or " and doubles the quote inside.
func connParams(s string) []string {
	_, s, ok := strings.Cut(s, ",")
	if !ok {
		return nil
	}
	var out []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case (b == '\'' || b == '"') && strings.HasSuffix(cur.String(), "="):
			j := i + 1
			for ; j < len(s); j++ {
				if s[j] == b {
					if j+1 < len(s) && s[j+1] == b {
						cur.WriteByte(b)
						j++
						continue
					}
					break
				}
				cur.WriteByte(s[j])
			}
			i = j
		case b == ',' || b == ':':
			out = append(out, cur.String())
			cur.Reset()
			if b == ':' {
				return out
			}
		default:
			cur.WriteByte(b)
		}
	}
	return append(out, cur.String())
}

// backupRepoVars name a backup repository; an sftp: or ssh:// one makes
// restic and borg run ssh to its host, as -r does.
var backupRepoVars = set(`RESTIC_REPOSITORY RESTIC_FROM_REPOSITORY BORG_REPO BORG_OTHER_REPO`)

// backupVar checks a variable the backup clients read: a repository's
// host meets the host rules as -r's does, and rclone's command variables
// (RCLONE_PASSWORD_COMMAND, RCLONE_SFTP_SSH, a remote's
// RCLONE_CONFIG_<REMOTE>_SSH) are commands rclone runs, classified as
// shell; one known only at run time is TierDestructive.
func (e *eval) backupVar(name, val string, known bool, ctx cctx, where string) {
	// The clients read these names as written, so no case folding.
	if shellValued[name] && !known {
		// The name alone says a program will run the value.
		e.opaque = true
		e.note(TierDestructive, ctx.covered, "%s sets %s to a command known only at run time", where, name)
		return
	}
	if backupRepoVars[name] && !known {
		// -r with such a value is TierDestructive too: the host it
		// reaches is unknown.
		e.opaque = true
		e.note(TierDestructive, ctx.covered, "%s sets %s to a repository known only at run time", where, name)
		return
	}
	if backupRepoVars[name] && where == "env" && localRepo(val) {
		// env's assignments and the call's own environment reach the
		// client unseen by the program's words, which is where -r's
		// repository is placed (programs_backuprepo.go): a local one
		// outside the temporary directories is written there by init,
		// backup, copy and create.
		e.note(TierMutate, ctx.covered, "%s sets %s to %s, which restic's and borg's writing commands create or write", where, name, truncate(val, 64))
	}
	if backupRepoVars[name] {
		if h := repoHost(val); h != "" {
			if r, ok := e.p.hostDenied(h); ok {
				e.deny(fmt.Sprintf("%s sets %s: repository host %q is denied by host rule %q", where, name, truncate(h, 64), r))
			}
			if strings.HasPrefix(hostKey(h), "-") {
				// As -r's: ssh would read the host as an option.
				e.deny(fmt.Sprintf("%s sets %s: repository host %q begins with '-' and would be read as an option", where, name, truncate(h, 64)))
			}
			if strings.HasPrefix(val, "sftp:") || strings.HasPrefix(val, "ssh://") {
				e.note(TierBenign, ctx.covered, "%s sets %s: the backup client reaches %s through ssh", where, name, truncate(h, 64))
			}
		}
	}
	if !strings.HasPrefix(name, "RCLONE_") {
		return
	}
	for _, s := range []string{"_PASSWORD_COMMAND", "_SSH", "_METADATA_MAPPER"} {
		if !strings.HasSuffix(name, s) {
			continue
		}
		if !known {
			e.opaque = true
			e.note(TierDestructive, ctx.covered, "%s sets %s to a command known only at run time", where, name)
			return
		}
		if val != "" {
			ctx.nest++
			e.script(val, ctx, name)
		}
		return
	}
}

// localRepo reports whether a repository variable's value is a path on
// this machine outside the temporary directories.
func localRepo(v string) bool {
	v = strings.TrimPrefix(v, "local:")
	return v != "" && !strings.Contains(v, "://") && !remoteSpec(v) && !hasAnyPrefix(v, resticRemotes) && !tmpPath(v)
}

// repoHost returns the host of a restic or borg repository reached over
// ssh (sftp:[user@]host:path, sftp://[user@]host/path,
// ssh://[user@]host[:port]/path), or of one over http (rest:, s3:
// endpoints), or "".
func repoHost(v string) string {
	host := ""
	switch {
	case strings.HasPrefix(v, "sftp:"):
		host = strings.TrimPrefix(strings.TrimPrefix(v, "sftp:"), "//")
		host, _, _ = strings.Cut(host, "/")
		if !strings.HasPrefix(host, "[") {
			host, _, _ = strings.Cut(host, ":")
		}
	case strings.Contains(v, "://"):
		_, host, _ = strings.Cut(v, "://")
		host, _, _ = strings.Cut(host, "/")
	}
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	return host
}

package policy

import (
	"path"
	"slices"
	"strings"
)

// Backup, image and upload tools read every file under the directories
// they are given, as tar c does: borg create /tmp/r::a /var/lib puts
// /var/lib/warden/token in a repository the next call can extract, and
// rclone copy /var/lib remote: sends it away. Archivers that take their
// names on standard input (cpio -o, tar -T -, zip -@, rsync
// --files-from=-) read every file a finder before them lists, as xargs
// cat does.

// backupOperands returns the directories such a tool reads every file
// under, when it is one and the words make it read (create, backup, copy).
func backupOperands(name string, args []arg) ([]arg, bool) {
	switch name {
	case "pax":
		if !hasFlag(argVals(args), 'w', "") {
			return nil, false
		}
		return nonEmpty(optionOperands(args, "bfopsxBDEGTU", "")), true
	case "tarsnap":
		if !hasFlag(argVals(args), 'c', "") {
			return nil, false
		}
		return nonEmpty(optionOperands(args, "fCTX", "--keyfile --cachedir --configfile --exclude --include --files-from --newer --newer-than --creationtime")), true
	case "mksquashfs", "mkfs.erofs", "mkcramfs", "mkfs.cramfs":
		ops := nonEmpty(optionOperands(args, "", ""))
		if name != "mksquashfs" {
			// mkfs.erofs IMAGE DIR: the image comes first.
			if len(ops) > 0 {
				ops = ops[1:]
			}
			return ops, len(ops) > 0
		}
		if len(ops) > 0 {
			ops = ops[:len(ops)-1] // the image
		}
		return ops, len(ops) > 0
	case "genisoimage", "mkisofs", "xorrisofs", "xorriso":
		ops := nonEmpty(optionOperands(args, "oVApPbcxmMG", ""))
		return ops, len(ops) > 0
	case "borg", "borgbackup":
		if ops, ok := afterSub(args, "create", "eC", "--exclude --exclude-from --pattern --patterns-from --comment --compression --chunker-params --checkpoint-interval --timestamp --remote-path --rsh --lock-wait --files-cache --upload-ratelimit --stdin-name"); ok && len(ops) > 0 {
			return ops[1:], true // the first is the archive
		}
	case "restic":
		return afterSub(args, "backup", "reopO", "--repo --exclude --exclude-file --iexclude --iexclude-file --files-from --files-from-raw --files-from-verbatim --host --tag --parent --password-file --password-command --option --cache-dir --limit-upload --limit-download --key-hint --cacert --tls-client-cert --compression --pack-size --read-concurrency --stdin-filename --time --exclude-larger-than --repository-file")
	case "kopia":
		// kopia snapshot create DIR (or snap create).
		return afterSub(args, "create", "", "--description --tags --parallel --config-file --password")
	case "duplicity":
		var out []arg
		for _, o := range nonEmpty(optionOperands(args, "t", "--exclude --include --exclude-filelist --include-filelist --name --archive-dir --encrypt-key --sign-key --volsize --time --full-if-older-than --gpg-options --ssh-options --tempdir --log-file --hidden-encrypt-key --file-to-restore")) {
			if !o.known || !strings.Contains(o.val, "://") && !slices.Contains([]string{"full", "incr", "incremental", "backup"}, o.val) {
				out = append(out, o)
			}
		}
		return out, len(out) > 0
	case "rclone":
		for _, sub := range []string{"copy", "sync", "move", "copyto", "moveto", "bisync", "check", "cryptcheck", "md5sum", "sha1sum", "hashsum", "serve", "mount", "nfsmount"} {
			if ops, ok := afterSub(args, sub, "", "--config --exclude --include --filter --exclude-from --include-from --filter-from --files-from --transfers --checkers --bwlimit --log-file --backup-dir --suffix --compare-dest --copy-dest --max-age --min-age --max-size --min-size --addr --user --pass"); ok {
				if sub == "serve" && len(ops) > 0 {
					ops = ops[1:] // the protocol: rclone serve http DIR
				}
				if len(ops) > 1 && !strings.HasPrefix(sub, "serve") && sub != "mount" && sub != "nfsmount" && sub != "md5sum" && sub != "sha1sum" && sub != "hashsum" {
					ops = ops[:1] // the source; the destination is written
				}
				return localOnly(ops), true
			}
		}
	case "aws":
		if ops, ok := afterSub(args, "sync", "", "--exclude --include --acl --storage-class --region --profile --endpoint-url --sse --sse-kms-key-id --content-type --cache-control --metadata --expires --grants"); ok {
			return localOnly(ops), true
		}
		if hasFlag(argVals(args), 0, "--recursive") {
			if ops, ok := afterSub(args, "cp", "", "--exclude --include --acl --storage-class --region --profile --endpoint-url --sse --content-type --expires"); ok {
				return localOnly(ops), true
			}
		}
	case "gsutil", "gcloud":
		vals := argVals(args)
		if hasFlag(vals, 'r', "--recursive") || hasFlag(vals, 'R', "") || slices.Contains(vals, "rsync") {
			for _, sub := range []string{"cp", "rsync", "mv"} {
				if ops, ok := afterSub(args, sub, "hx", ""); ok {
					return localOnly(ops), true
				}
			}
		}
	case "ugrep", "ug", "ugrep+", "ug+":
		vals := argVals(args)
		if hasFlag(vals, 'r', "--recursive") || hasFlag(vals, 'R', "--dereference-recursive") || name == "ug" || name == "ug+" {
			return patternOperands(args, "efABCdDmgMNOtK", "--regexp --file --after-context --before-context --context --directories --devices --max-count --glob --include --exclude --file-type --file-extension"), true
		}
	case "hashdeep", "md5deep", "sha1deep", "sha256deep", "tigerdeep", "whirlpooldeep":
		if hasFlag(argVals(args), 'r', "") {
			return nonEmpty(optionOperands(args, "cfioIkjM", "")), true
		}
	}
	return nil, false
}

// afterSub returns the operands after the subcommand sub when it is the
// first operand, or the second after a global one (kopia snapshot create).
func afterSub(args []arg, sub, valued, long string) ([]arg, bool) {
	ops := nonEmpty(optionOperands(args, valued, long))
	for i := 0; i < len(ops) && i < 3; i++ {
		if !ops[i].known {
			return nil, false
		}
		if ops[i].val == sub {
			return ops[i+1:], true
		}
	}
	return nil, false
}

// localOnly drops the operands that name a remote (remote:path,
// s3://bucket).
func localOnly(ops []arg) []arg {
	var out []arg
	for _, o := range ops {
		if o.known && (strings.Contains(o.val, "://") || remoteSpec(o.val)) {
			continue
		}
		out = append(out, o)
	}
	return out
}

// namesFromStdin reports whether a command reads the files named on its
// standard input: cpio -o and -p, tar -T -, zip -@, rsync --files-from=-,
// pax -w with no operands, sort --files0-from=-.
func namesFromStdin(args []arg) bool {
	if len(args) == 0 || !args[0].known {
		return false
	}
	name := normaliseName(path.Base(args[0].val))
	if !stdinNamers[name] {
		return false
	}
	vals := argVals(args[1:])
	switch name {
	case "cpio":
		return hasFlag(vals, 'o', "--create") || hasFlag(vals, 'p', "--pass-through")
	case "afio":
		return hasFlag(vals, 'o', "")
	case "zip":
		return hasFlag(vals, '@', "--names-stdin")
	case "pax":
		return hasFlag(vals, 'w', "") && len(nonEmpty(optionOperands(args[1:], "bfopsxBDEGTU", ""))) == 0
	case "sort":
		// sort --files0-from=- prints the lines of every file named.
		for i, a := range args[1:] {
			opt, val, hasVal := strings.Cut(a.val, "=")
			if a.known && len(opt) >= 5 && strings.HasPrefix("--files0-from", opt) {
				if !hasVal && i+2 < len(args) {
					val = args[i+2].val
				}
				if val == "-" || val == "/dev/stdin" {
					return true
				}
			}
		}
	case "tar", "bsdtar", "gtar", "rsync", "tarsnap":
		for _, v := range filesFrom(args[1:]) {
			switch v {
			case "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
				return true
			}
		}
	}
	return false
}

// stdinNamers are the programs namesFromStdin knows.
var stdinNamers = map[string]bool{"cpio": true, "afio": true, "zip": true, "pax": true, "tar": true, "bsdtar": true, "gtar": true, "rsync": true, "tarsnap": true, "sort": true}

// filesFrom returns the values of tar's -T and --files-from (rsync's too),
// in every cluster: -T -, -T-, -cfT x -, the old style's cfT x -.
func filesFrom(args []arg) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		v := args[i].val
		switch {
		case !args[i].known:
		case strings.HasPrefix(v, "--files-from="):
			out = append(out, strings.TrimPrefix(v, "--files-from="))
		case v == "--files-from":
			if i+1 < len(args) {
				out = append(out, args[i+1].val)
			}
			i++
		case strings.HasPrefix(v, "--"):
		case strings.HasPrefix(v, "-") || i == 0 && v != "" && !strings.Contains(v, "/"):
			i = tarClusterValues(args, i, func(c byte, val string) {
				if c == 'T' {
					out = append(out, val)
				}
			})
		}
	}
	return out
}

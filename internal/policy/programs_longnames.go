package policy

import "strings"

// Long option tables for the handlers that compare whole names: GNU tar
// (argp) and the iptables family (getopt_long) take any unambiguous
// prefix of a long option, so "tar --remove-f" removes the files it
// archives and "iptables --ins INPUT … --jum DROP" inserts a rule. Each
// table lists every long option the program has (tar 1.34, iptables
// 1.8 with the tcp and udp matches), so an abbreviation two options
// begin with stays unresolved, as the program rejects it.

var tarLongOpts = strings.Fields(`--absolute-names --acls --add-file --after-date --anchored --append
	--atime-preserve --auto-compress --backup --block-number --blocking-factor --bzip2 --catenate
	--check-device --check-links --checkpoint --checkpoint-action --clamp-mtime --compare --compress
	--concatenate --confirmation --create --delay-directory-restore --delete --dereference --diff
	--directory --exclude --exclude-backups --exclude-caches --exclude-caches-all --exclude-caches-under
	--exclude-from --exclude-ignore --exclude-ignore-recursive --exclude-tag --exclude-tag-all
	--exclude-tag-under --exclude-vcs --exclude-vcs-ignores --extract --file --files-from --force-local
	--format --full-time --get --group --group-map --gunzip --gzip --hard-dereference --help
	--hole-detection --ignore-case --ignore-command-error --ignore-failed-read --ignore-zeros
	--incremental --index-file --info-script --interactive --keep-directory-symlink --keep-newer-files
	--keep-old-files --label --level --list --listed-incremental --lzip --lzma --lzop --mode --mtime
	--multi-volume --new-volume-script --newer --newer-mtime --no-acls --no-anchored --no-auto-compress
	--no-check-device --no-delay-directory-restore --no-ignore-case --no-ignore-command-error --no-null
	--no-overwrite-dir --no-quote-chars --no-recursion --no-same-owner --no-same-permissions --no-seek
	--no-selinux --no-unquote --no-verbatim-files-from --no-wildcards --no-wildcards-match-slash
	--no-xattrs --null --numeric-owner --occurrence --old-archive --one-file-system --one-top-level
	--overwrite --overwrite-dir --owner --owner-map --pax-option --portability --posix --preserve-order
	--preserve-permissions --quote-chars --quoting-style --read-full-records --record-size --recursion
	--recursive-unlink --remove-files --restrict --rmt-command --rsh-command --same-order --same-owner
	--same-permissions --seek --selinux --show-defaults --show-omitted-dirs --show-snapshot-field-ranges
	--show-stored-names --show-transformed-names --skip-old-files --sort --sparse --sparse-version
	--starting-file --strip-components --suffix --tape-length --test-label --to-command --to-stdout
	--totals --touch --transform --uncompress --ungzip --unlink-first --unquote --update --usage
	--use-compress-program --utc --verbatim-files-from --verbose --verify --version --volno-file
	--warning --wildcards --wildcards-match-slash --xattrs --xattrs-exclude --xattrs-include --xform
	--xz --zstd`)

var iptablesLongOpts = strings.Fields(`--append --check --delete --delete-chain --destination
	--destination-port --destination-ports --dport --dports --exact --flush --fragment --goto --help
	--in-interface --insert --ipv4 --ipv6 --jump --line-numbers --list --list-rules --match --modprobe
	--new-chain --numeric --out-interface --policy --protocol --reject-with --rename-chain --replace
	--set-counters --source --source-port --source-ports --sport --sports --syn --table --tcp-flags
	--tcp-option --verbose --version --wait --wait-interval --zero`)

// longName reads a long option word as getopt_long does against opts:
// its whole name (the only option it abbreviates, or itself) and the
// value attached with "=". Other words come back as they are.
func longName(v string, opts []string) (name, val string, hasVal bool) {
	if !strings.HasPrefix(v, "--") || v == "--" {
		return v, "", false
	}
	name, val, hasVal = strings.Cut(v, "=")
	return longOpt(name, opts), val, hasVal
}

// emacsLongOpts are the long options emacs completes an abbreviation
// against (startup.el's longopts and the C-level ones): "--ev" is --eval.
var emacsLongOpts = strings.Fields(`--funcall --load --insert --kill --dump-file --seccomp --directory
	--eval --execute --no-splash --find-file --visit --file --no-desktop --debug-init --user --iconic
	--icon-type --quick --no-blinking-cursor --basic-display --temacs --init-directory --batch --script
	--chdir --daemon --bg-daemon --fg-daemon --no-init-file --no-site-file --no-site-lisp --no-x-resources
	--terminal --display --no-window-system --version --help --module-assertions --no-build-details`)

// emacsLispOpts are emacs's options that run Lisp: from the command line
// (eval, execute, funcall), a file (load, script, -x) or the init files a
// batch run would otherwise skip.
var emacsLispOpts = set(`-e -l -f -x -eval -execute -load -funcall -batch -script
	--eval --execute --load --funcall --batch --script`)

// emacsRunsLisp reports whether an emacs argument is an option that runs
// Lisp, in the spellings emacs takes: one dash or two, abbreviated, a
// value attached with "=".
func emacsRunsLisp(v string) bool {
	name, _, _ := longName(v, emacsLongOpts)
	return emacsLispOpts[name]
}

// sysConfLongOpts are systemd-tmpfiles' and systemd-sysusers' long
// options (getopt_long): "--rep=FILE" is --replace.
var sysConfLongOpts = strings.Fields(`--user --create --clean --remove --purge --boot --prefix --exclude-prefix
	--root --image --image-policy --replace --dry-run --inline --cat-config --tldr --no-pager --graceful
	--help --version`)

// mountLongOpts are util-linux mount's long options (2.38).
var mountLongOpts = strings.Fields(`--all --bind --fake --fork --fstab --help --internal-only --label
	--make-private --make-rprivate --make-rshared --make-rslave --make-runbindable --make-shared
	--make-slave --make-unbindable --mkdir --move --namespace --no-canonicalize --no-mtab --options
	--options-mode --options-source --options-source-force --rbind --read-only --read-write --rw
	--show-labels --source --target --target-prefix --test-opts --types --uuid --verbose --version
	--map-users --map-groups --onlyonce`)

// dmsetupValueLong are dmsetup's long options that take a value.
var dmsetupValueLong = strings.Fields(`--uuid --major --minor --uid --gid --mode --readahead --table
	--udevcookie --options --target --count --interval --select --manglename --separator --sort --exec
	--alias --programid --regionid --groupid --start --length --bounds --units --area --areas`)

// cryptsetupValueLong are cryptsetup's long options that take a value.
// popt takes them whole, so an abbreviation read as one of them is an
// error there; no flag's whole name begins one of them (--debug-json and
// --hw-opal, flags, are left out so --debug stays a flag).
var cryptsetupValueLong = strings.Fields(`--cipher --hash --key-file --key-size --keyfile-size
	--keyfile-offset --new-keyfile-size --new-keyfile-offset --key-slot --new-key-slot --size --offset
	--skip --tries --timeout --iter-time --pbkdf --pbkdf-memory --pbkdf-parallel
	--pbkdf-force-iterations --type --uuid --label --subsystem --header --header-backup-file
	--volume-key-file --master-key-file --sector-size --luks2-metadata-size --luks2-keyslots-size
	--keyslot-cipher --keyslot-key-size --integrity --priority --token-id --token-type
	--key-description --json-file --device-size --reduce-device-size --resilience --resilience-hash
	--hotzone-size --align-payload --veracrypt-pim --external-tokens-path --active-name
	--link-vk-to-keyring --volume-key-keyring --new-token-id --keyfile-id --progress-frequency`)

package policy

import (
	"slices"
	"strings"
)

// The query modes of Nix's nix-env and Gentoo's emerge, whose operation
// is an option rather than a subcommand: nix-env -q lists packages and
// --list-generations the profile's generations; emerge -p only shows
// what it would do, and -s, -S and --info search and report. Their
// other operations install, remove, upgrade, switch or sync: tier 2 as
// before.

// nixEnvQuery are the options nix-env's query and generation-listing
// forms may take. Left out: -f and -I (a Nix file or search path of the
// caller's, evaluated), --arg and --argstr (Nix expressions), --option
// (any nix.conf setting, a build hook's program among them), and every
// other operation (-i, -e, -u, --set, --rollback, -G, -S,
// --delete-generations …).
var nixEnvQuery = optSpec{flags: "qasbcPAvQkK", valueShort: "pj",
	longFlags: set(`--query --installed --available --status --compare-versions --xml --json --prebuilt-only
		--attr-path --no-name --out-path --drv-path --description --meta --system --attr --list-generations
		--verbose --quiet --no-build-output --keep-going --keep-failed --fallback --readonly-mode --show-trace
		--version --help`),
	longVals: set(`--profile --max-jobs --cores --system-filter --log-format`)}

// nixEnvProgram classifies nix-env: tier 0 for a query, the generation
// list, its version or help, with only nixEnvQuery's options.
func nixEnvProgram(c *call) (Tier, string) {
	// Nix splits -qaP into -q -a -P, so a value option takes the next
	// word even inside a cluster: -pq is -p -q, and -q's word is then
	// -p's value. Only a cluster ending in -p or -j reads as getopt does.
	for _, a := range c.args {
		v := a.val
		if a.known && len(v) > 2 && v[0] == '-' && v[1] != '-' && strings.ContainsAny(v[1:len(v)-1], "pj") {
			return TierMutate, "nix-env " + truncate(v, 32) + ": a value option inside a cluster"
		}
	}
	_, seen, ok := c.readOpts(nixEnvQuery)
	if ok {
		for _, f := range strings.Fields(seen) {
			switch {
			case f == "--query" || f == "--list-generations" || f == "--version" || f == "--help":
				return TierRead, "nix-env " + f + ": lists packages or generations"
			case !strings.HasPrefix(f, "--") && strings.IndexByte(f, 'q') >= 0:
				return TierRead, "nix-env -q: lists packages"
			}
		}
	}
	return TierMutate, "nix-env: installs, removes or switches packages or generations"
}

// emergePretendShort and emergePretendLong are the options emerge takes
// with --pretend, which then only prints what it would merge, unmerge,
// clean or fetch. Left out as doing something all the same: --sync,
// --config, --regen, --metadata, --resume, --deselect, --getbinpkg(only)
// (which fetch a binary host's index), --autounmask-write (which writes
// package.* files) and --root, --config-root, --sysroot and --prefix.
const emergePretendShort = "pvuDNUetoOn1qaBbcCPfFkKhsSV"

var emergePretendLong = set(`--pretend --verbose --update --deep --newuse --changed-use --changed-deps
	--changed-slot --emptytree --tree --oneshot --noreplace --quiet --ask --onlydeps --nodeps --fetchonly
	--fetch-all-uri --usepkg --usepkgonly --buildpkg --buildpkgonly --columns --color --backtrack
	--verbose-conflicts --complete-graph --with-bdeps --with-test-deps --exclude --keep-going --jobs
	--load-average --binpkg-respect-use --rebuilt-binaries --dynamic-deps --autounmask --nospinner --debug
	--alphabetical --ignore-default-opts --select --depclean --unmerge --prune --help --version --search
	--searchdesc --unordered-display --quiet-build --update-if-installed`)

// emergeQueryShort and emergeQueryLong are the options of emerge's
// search, info, version and help actions without --pretend.
const emergeQueryShort = "sSvqhV"

var emergeQueryLong = set(`--search --searchdesc --info --version --help --verbose --quiet --color --nospinner
	--fuzzy-search --search-index --search-similarity --regex-search-auto --ignore-default-opts`)

// emergeProgram classifies emerge: -p with emergePretendLong's options,
// or a search, --info, --version or --help, is tier 0. emerge --info
// with a package runs that installed package's pkg_info, and an ebuild
// file named as an operand is sourced by bash for its metadata even
// when pretending: both stay tier 2.
func emergeProgram(c *call) (Tier, string) {
	var shorts string
	var longs, ops []string
args:
	for i, a := range c.args {
		if !a.known {
			return TierMutate, "emerge: option or package computed at run time"
		}
		v := a.val
		switch {
		case v == "--":
			ops = append(ops, argVals(c.args[i+1:])...)
			break args
		case strings.HasPrefix(v, "--"):
			name, _, _ := strings.Cut(v, "=")
			longs = append(longs, name)
		case len(v) > 1 && v[0] == '-':
			shorts += v[1:]
		default:
			ops = append(ops, v)
		}
	}
	has := func(short byte, long string) bool {
		return strings.IndexByte(shorts, short) >= 0 || slices.Contains(longs, long)
	}
	within := func(short string, long map[string]bool) bool {
		for i := 0; i < len(shorts); i++ {
			if strings.IndexByte(short, shorts[i]) < 0 {
				return false
			}
		}
		for _, l := range longs {
			if !long[l] {
				return false
			}
		}
		return true
	}
	for _, o := range ops {
		if strings.HasPrefix(o, "/") || strings.HasPrefix(o, ".") || strings.Contains(o, ".ebuild") {
			return TierMutate, "emerge " + truncate(o, 64) + ": a package file, whose ebuild bash runs"
		}
	}
	info := slices.Contains(longs, "--info")
	switch {
	case info && len(ops) > 0:
		return TierMutate, "emerge --info with a package: runs its pkg_info"
	case has('p', "--pretend") && within(emergePretendShort, emergePretendLong):
		return TierRead, "emerge --pretend: shows what it would do"
	case (has('s', "--search") || has('S', "--searchdesc") || info || has('h', "--help") || has('V', "--version")) &&
		within(emergeQueryShort, emergeQueryLong):
		return TierRead, "emerge: searches or reports"
	}
	return TierMutate, "emerge: installs, removes or syncs packages"
}

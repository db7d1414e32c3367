package policy

import "strings"

// The options OpenWrt's uci, ubus and opkg take before their command, read
// as their own parsers read them, so an option's value is never taken for
// the command: "uci -c show set …" sets with show as the configuration
// directory, "ubus -t list call uci set …" calls with a timeout atoi reads
// as 0, "opkg --add-arch list install X" installs.

// routerGrammar is one program's option table.
type routerGrammar struct {
	values string // short options that take a value, attached or next
	// maybe are short options that some versions read with a value from
	// the next word and others only attached (opkg's -V: "V:" before
	// "V::"); both readings are classified.
	maybe string
	long  map[string]bool // long names (no dashes): whether each takes a value
	// longOnly is getopt_long_only: "-add-arch" is --add-arch, and a
	// word with one dash is a long option when it begins one.
	longOnly bool
}

// routerGrammars: uci and ubus use getopt and stop with their usage at
// an option they do not know, as opkg does at any option it cannot parse,
// so an unknown letter read either way runs nothing.
var routerGrammars = map[string]routerGrammar{
	"uci":  {values: "cdfpPt"},
	"ubus": {values: "mMst"},
	"opkg": {values: "dfopt", maybe: "V", longOnly: true, long: longTable(
		`cache conf-file conf dest offline offline-root offline-path offline-root-path add-arch add-dest
		add-exclude add-ignore-recommends tmp-dir tmp_dir cache-dir lists-dir verify-program`,
		`query-all autoremove force-maintainer force_maintainer force-depends force_depends force-overwrite
		force_overwrite force-downgrade force_downgrade force-reinstall force_reinstall force-space force_space
		recursive force-removal-of-dependent-packages force_removal_of_dependent_packages
		force-removal-of-essential-packages force_removal_of_essential_packages force-postinstall
		force_postinstall force-remove force_remove force-checksum force-signature noaction download-only
		nodeps nocase test verbosity version host-cache-dir volatile-cache prefer-arch-to-version combine
		size strip-abi no-check-certificate verbose-wget multiple-providers`)},
}

// longTable maps the long option names of values to true (they take a
// value) and of flags to false.
func longTable(values, flags string) map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(flags) {
		m[n] = false
	}
	for _, n := range strings.Fields(values) {
		m[n] = true
	}
	return m
}

// routerReadings returns the operands of name's vals, the command first,
// once for each way its parser may read them (more than one only where a
// version differs); a program without a grammar has one reading with
// every option taken for a flag.
func routerReadings(name string, vals []string) [][]string {
	g, ok := routerGrammars[name]
	if !ok {
		return [][]string{operands(vals)}
	}
	attached := g.operands(vals, false)
	next := g.operands(vals, true)
	if strings.Join(attached, "\x00") == strings.Join(next, "\x00") {
		return [][]string{attached}
	}
	return [][]string{attached, next}
}

// operands returns the words of vals that are neither options nor their
// values; maybeNext says whether a maybe option with nothing attached
// takes the next word.
func (g routerGrammar) operands(vals []string, maybeNext bool) []string {
	var out []string
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		switch {
		case v == "--":
			return append(out, vals[i+1:]...)
		case len(v) < 2 || v[0] != '-':
			out = append(out, v)
		case g.takesNext(v, maybeNext):
			i++
		}
	}
	return out
}

// takesNext reports whether the option word v takes the next word as its
// value.
func (g routerGrammar) takesNext(v string, maybeNext bool) bool {
	if strings.HasPrefix(v, "--") || g.longOnly && len(v) > 2 {
		name, _, eq := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(v, "-"), "-"), "=")
		if value, ok := g.longOpt(name); ok {
			return value && !eq
		}
		if strings.HasPrefix(v, "--") {
			return false // unknown: the program stops
		}
	}
	for j := 1; j < len(v); j++ {
		f := v[j]
		switch {
		case strings.IndexByte(g.values, f) >= 0:
			return j == len(v)-1
		case strings.IndexByte(g.maybe, f) >= 0:
			return j == len(v)-1 && maybeNext
		}
	}
	return false
}

// longOpt looks name up as getopt_long does: whole, or the long options
// it begins. Where those differ in taking a value the name is ambiguous,
// an error there (ok false); where they agree (--tmp is --tmp-dir or
// --tmp_dir) it reads as they do.
func (g routerGrammar) longOpt(name string) (value, ok bool) {
	if value, ok := g.long[name]; ok {
		return value, true
	}
	seen := map[bool]bool{}
	for n, takes := range g.long {
		if name != "" && strings.HasPrefix(n, name) {
			seen[takes] = true
			value = takes
		}
	}
	return value, len(seen) == 1
}

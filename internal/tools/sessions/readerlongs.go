package sessions

import "strings"

// The line readers' long options that take a value take it in the next
// word as well as after "=" (head --lines 1, grep --max-count 1 x), and
// getopt_long takes them abbreviated (head --li 1). Read as a flag, such
// an option left its value to be taken for a file, and the reader for one
// that reads a file: after "head --lines 1", head took "echo \" and the
// next line ran alone. readerLongValues lists, per reader, the long
// options that take a value; a word that is one of them or the start of
// one (one letter or more after "--") takes the next word.

var readerLongValues = map[string][]string{
	"head": {"--lines", "--bytes"},
	"tail": {"--lines", "--bytes", "--sleep-interval", "--pid", "--max-unchanged-stats"},
	"grep": {"--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context", "--devices",
		"--directories", "--binary-files", "--label", "--include", "--exclude", "--exclude-from", "--exclude-dir",
		"--group-separator"},
	"sed":  {"--expression", "--file", "--line-length"},
	"awk":  {"--assign", "--file", "--field-separator", "--source", "--include", "--load", "--exec"},
	"jq":   {"--from-file", "--indent", "--seq-file"},
	"cut":  {"--bytes", "--characters", "--delimiter", "--fields", "--output-delimiter"},
	"sort": {"--key", "--field-separator", "--output", "--buffer-size", "--temporary-directory", "--parallel", "--batch-size", "--compress-program", "--files0-from", "--random-source"},
	"uniq": {"--skip-fields", "--skip-chars", "--check-chars"},
	"wc":   {"--files0-from"}, "tac": {"--separator"}, "fold": {"--width"}, "fmt": {"--width", "--goal", "--prefix"},
	"paste": {"--delimiters"}, "base64": {"--wrap"}, "base32": {"--wrap"}, "basenc": {"--wrap"},
	"nl": {"--body-numbering", "--section-delimiter", "--footer-numbering", "--header-numbering", "--line-increment",
		"--join-blank-lines", "--number-format", "--number-separator", "--starting-line-number", "--number-width"},
	"od":      {"--address-radix", "--skip-bytes", "--read-bytes", "--format", "--endian"},
	"hexdump": {"--length", "--skip", "--format", "--format-file"},
	"column":  {"--table-columns", "--separator", "--output-separator", "--table-name", "--output-width", "--table-order", "--table-right", "--table-truncate", "--table-noextreme", "--table-wrap", "--table-hide"},
	"shuf":    {"--head-count", "--input-range", "--output", "--random-source"},
	"iconv":   {"--from-code", "--to-code", "--output"},
	"strings": {"--bytes", "--encoding", "--radix", "--target", "--output-separator"},
	"split":   {"--lines", "--bytes", "--line-bytes", "--suffix-length", "--additional-suffix", "--number", "--filter"},
	"numfmt":  {"--from", "--to", "--field", "--format", "--from-unit", "--to-unit", "--padding", "--round", "--suffix", "--invalid", "--header"},
	"cmp":     {"--bytes", "--ignore-initial"},
	"xargs":   {"--arg-file", "--delimiter", "--eof", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"},
	"tr":      {},
	"shasum":  {"--algorithm"},
}

// readerScriptOpts are the long options whose value is the reader's
// script or pattern rather than a file, so its first operand is a file.
var readerScriptOpts = setOf("--regexp", "--file", "--expression", "--source", "--from-file")

// readerLongValue says whether the word a, given to reader name, is a
// long option that takes the next word as its value, and which option
// (the whole name) it is.
func readerLongValue(name, a string) (string, bool) {
	if !strings.HasPrefix(a, "--") || strings.Contains(a, "=") || len(a) < 3 {
		return "", false
	}
	list, ok := readerLongValues[name]
	if !ok {
		list = readerLongValues[unaliasedReader(name)]
	}
	for _, o := range list {
		if strings.HasPrefix(o, a) {
			return o, true
		}
	}
	return "", false
}

// unaliasedReader is the reader whose options name's are: egrep's are
// grep's, gawk's awk's.
func unaliasedReader(name string) string {
	switch name {
	case "egrep", "fgrep", "rgrep":
		return "grep"
	case "gawk", "mawk", "nawk":
		return "awk"
	}
	return name
}

package policy

// What a transforming filter prints when its input and its arguments are
// literal: base64, base32, xxd -r -p, rev, tr, a sed of s/// and y///, cut,
// head, tail, paste -s, tac, basename, dirname and awk's tolower/toupper.
// Each implements only the options it reads exactly; any other option, or
// an input it would reject, leaves the output unknown. Inputs and outputs
// are bounded so a long script stays linear.

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"path"
	"regexp"
	"strconv"
	"strings"
)

const maxFilterText = 4096 // bytes a filter is computed over, in and out

// filterNames are the programs filterOut computes; readsIn those that read
// standard input.
var filterNames = map[string]bool{
	"base64": true, "base32": true, "basenc": true, "xxd": true, "rev": true, "tr": true,
	"sed": true, "cut": true, "head": true, "tail": true, "paste": true, "tac": true,
	"basename": true, "dirname": true, "awk": true, "gawk": true, "mawk": true,
	"openssl": true, "cat": true, "tee": true,
}

// filterOut returns what the filter vals (its name first, by base name)
// prints reading in, or false when that is not known exactly. hasIn is
// false when its standard input is not known.
func filterOut(vals []string, in string, hasIn bool) (string, bool) {
	if len(in) > maxFilterText {
		return "", false
	}
	var out string
	ok := false
	args := vals[1:]
	switch vals[0] {
	case "basename":
		out, ok = basenameOut(args)
	case "dirname":
		out, ok = dirnameOut(args)
	default:
		if !hasIn {
			return "", false
		}
		switch vals[0] {
		case "cat":
			out, ok = in, len(args) == 0 || len(args) == 1 && args[0] == "-"
		case "tee":
			out, ok = in, true // its files are written apart; the pipe gets the input
		case "base64", "base32", "basenc":
			out, ok = decodeOut(vals[0], args, in)
		case "openssl":
			out, ok = opensslDecode(args, in)
		case "xxd":
			out, ok = xxdOut(args, in)
		case "rev":
			out, ok = linesOut(in, reverseRunes), len(args) == 0
		case "tac":
			out, ok = tacOut(in), len(args) == 0
		case "tr":
			out, ok = trOut(args, in)
		case "sed":
			out, ok = sedOut(args, in)
		case "cut":
			out, ok = cutOut(args, in)
		case "head", "tail":
			out, ok = headTail(vals[0] == "head", args, in)
		case "paste":
			out, ok = pasteOut(args, in)
		case "awk", "gawk", "mawk":
			out, ok = awkCase(args, in)
		}
	}
	if !ok || len(out) > maxFilterText {
		return "", false
	}
	return out, true
}

// linesOut applies f to each line of in, keeping the line ends.
func linesOut(in string, f func(string) string) string {
	var b strings.Builder
	for in != "" {
		line, rest, nl := strings.Cut(in, "\n")
		b.WriteString(f(line))
		if nl {
			b.WriteByte('\n')
		}
		in = rest
	}
	return b.String()
}

func reverseRunes(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// splitLines splits text into lines without their ends, and reports
// whether the last one ended.
func splitLines(in string) ([]string, bool) {
	if in == "" {
		return nil, true
	}
	ended := strings.HasSuffix(in, "\n")
	return strings.Split(strings.TrimSuffix(in, "\n"), "\n"), ended
}

func tacOut(in string) string {
	lines, _ := splitLines(in)
	var b strings.Builder
	for i := len(lines) - 1; i >= 0; i-- {
		b.WriteString(lines[i])
		b.WriteByte('\n')
	}
	return b.String()
}

func basenameOut(args []string) (string, bool) {
	suffix, multi := "", false
	var names []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			names = append(names, args[i+1:]...)
			i = len(args)
		case a == "-a" || a == "--multiple":
			multi = true
		case a == "-s" || a == "--suffix":
			if i+1 >= len(args) {
				return "", false
			}
			suffix, multi = args[i+1], true
			i++
		case strings.HasPrefix(a, "--suffix="):
			suffix, multi = a[len("--suffix="):], true
		case strings.HasPrefix(a, "-") && a != "-":
			return "", false
		default:
			names = append(names, a)
		}
	}
	if !multi {
		if len(names) == 2 {
			suffix, names = names[1], names[:1]
		} else if len(names) != 1 {
			return "", false
		}
	}
	var b strings.Builder
	for _, n := range names {
		base := path.Base(n)
		if n == "" {
			base = ""
		}
		if suffix != "" && base != suffix {
			base = strings.TrimSuffix(base, suffix)
		}
		b.WriteString(base + "\n")
	}
	return b.String(), len(names) > 0
}

func dirnameOut(args []string) (string, bool) {
	var b strings.Builder
	n := 0
	for i, a := range args {
		if a == "--" && i == 0 {
			continue
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			return "", false
		}
		d := path.Dir(strings.TrimRight(a, "/"))
		if strings.Trim(a, "/") == "" && a != "" {
			d = "/"
		}
		b.WriteString(d + "\n")
		n++
	}
	return b.String(), n > 0
}

// decodeOut is base64 -d, base32 -d and basenc --base64/--base32/--base16 -d.
func decodeOut(name string, args []string, in string) (string, bool) {
	dec, garbage := false, false
	for _, a := range args {
		switch {
		case a == "-d" || a == "--decode" || a == "-D" && name == "base64":
			dec = true
		case a == "-i" || a == "--ignore-garbage":
			garbage = true
		case a == "-di" || a == "-id":
			dec, garbage = true, true
		case name == "basenc" && (a == "--base64" || a == "--base32" || a == "--base16"):
			name = a[2:]
		case a == "-":
		default:
			return "", false
		}
	}
	if !dec || name == "basenc" {
		return "", false
	}
	return decodeText(name, in, garbage)
}

// decodeText decodes base64, base32 or base16 text, line ends ignored;
// other characters outside the alphabet are dropped with garbage, and
// make the output unknown without it.
func decodeText(name, in string, garbage bool) (string, bool) {
	alpha := "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
	switch name {
	case "base32":
		alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567="
	case "base16":
		alpha = "0123456789ABCDEF"
	}
	var b strings.Builder
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch {
		case strings.IndexByte(alpha, c) >= 0:
			b.WriteByte(c)
		case c == '\n' || garbage:
		default:
			return "", false
		}
	}
	s := b.String()
	var out []byte
	var err error
	switch name {
	case "base32":
		out, err = base32.StdEncoding.DecodeString(s)
		if err != nil && !strings.Contains(s, "=") {
			out, err = base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(s)
		}
	case "base16":
		out, err = hex.DecodeString(s)
	default:
		out, err = base64.StdEncoding.DecodeString(s)
		if err != nil && !strings.Contains(s, "=") {
			out, err = base64.RawStdEncoding.DecodeString(s)
		}
	}
	return string(out), err == nil
}

// opensslDecode is openssl base64 -d and openssl enc -base64 -d.
func opensslDecode(args []string, in string) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	b64, dec := args[0] == "base64", false
	if args[0] != "base64" && args[0] != "enc" {
		return "", false
	}
	for _, a := range args[1:] {
		switch a {
		case "-d":
			dec = true
		case "-base64", "-a":
			b64 = true
		case "-A":
		default:
			return "", false
		}
	}
	if !dec || !b64 {
		return "", false
	}
	return decodeText("base64", in, false)
}

// xxdOut is xxd -r -p: hex digits in pairs, other characters skipped.
func xxdOut(args []string, in string) (string, bool) {
	r, p := false, false
	for _, a := range args {
		switch a {
		case "-r", "-revert":
			r = true
		case "-p", "-ps", "-postscript", "-plain":
			p = true
		case "-rp", "-pr":
			r, p = true, true
		default:
			return "", false
		}
	}
	if !r || !p {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(in); i++ {
		c := in[i]
		if isHex(c) {
			b.WriteByte(c)
		} else if c != ' ' && c != '\n' && c != '\t' {
			return "", false
		}
	}
	s := b.String()
	if len(s)%2 != 0 {
		return "", false
	}
	out, err := hex.DecodeString(s)
	return string(out), err == nil
}

// awkCase is awk '{print tolower($0)}' and toupper.
var awkCaseProg = regexp.MustCompile(`^\s*\{\s*print\s*\(?\s*(tolower|toupper)\s*\(\s*\$0\s*\)\s*\)?\s*;?\s*\}\s*$`)

func awkCase(args []string, in string) (string, bool) {
	if len(args) != 1 {
		return "", false
	}
	m := awkCaseProg.FindStringSubmatch(args[0])
	if m == nil {
		return "", false
	}
	if m[1] == "tolower" {
		return linesOut(in, asciiLower), true
	}
	return linesOut(in, asciiUpper), true
}

// asciiLower and asciiUpper change the case of ASCII letters only, as the
// C locale does.
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

func asciiUpper(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, s)
}

// pasteOut is paste -s with -d LIST joining the lines of one input.
func pasteOut(args []string, in string) (string, bool) {
	serial, delims := false, "\t"
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-s" || a == "--serial":
			serial = true
		case a == "-" && i == len(args)-1:
		case a == "-d" && i+1 < len(args):
			delims = args[i+1]
			i++
		case strings.HasPrefix(a, "-sd"):
			serial, delims = true, a[3:]
		case strings.HasPrefix(a, "-d"):
			delims = a[2:]
		case strings.HasPrefix(a, "--delimiters="):
			delims = a[len("--delimiters="):]
		default:
			return "", false
		}
	}
	if !serial || delims == "" || strings.Contains(delims, `\`) {
		return "", false
	}
	lines, _ := splitLines(in)
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte(delims[(i-1)%len(delims)])
		}
		b.WriteString(l)
	}
	b.WriteByte('\n')
	return b.String(), true
}

// headTail is head and tail with -c N, -n N, -N, and tail's +N.
func headTail(head bool, args []string, in string) (string, bool) {
	bytes, spec := false, "10"
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-" && i == len(args)-1:
		case (a == "-c" || a == "-n") && i+1 < len(args):
			bytes, spec = a == "-c", args[i+1]
			i++
		case strings.HasPrefix(a, "--bytes="), strings.HasPrefix(a, "--lines="):
			bytes = strings.HasPrefix(a, "--bytes=")
			_, spec, _ = strings.Cut(a, "=")
		case len(a) > 2 && (a[:2] == "-c" || a[:2] == "-n"):
			bytes, spec = a[1] == 'c', a[2:]
		case len(a) > 1 && a[0] == '-' && allDigits(a[1:]):
			spec = a[1:]
		default:
			return "", false
		}
	}
	sign := ""
	if spec != "" && (spec[0] == '+' || spec[0] == '-') {
		sign, spec = spec[:1], spec[1:]
	}
	if !allDigits(spec) || len(spec) > 6 || sign == "+" && head || sign == "-" && !head {
		return "", false
	}
	n, _ := strconv.Atoi(spec)
	if bytes {
		switch {
		case head && sign == "-":
			return in[:max(0, len(in)-n)], true
		case head:
			return in[:min(n, len(in))], true
		case sign == "+":
			return in[min(max(n-1, 0), len(in)):], true
		default:
			return in[max(0, len(in)-n):], true
		}
	}
	lines, ended := splitLines(in)
	switch {
	case head && sign == "-":
		lines = lines[:max(0, len(lines)-n)]
		ended = true
	case head:
		if n < len(lines) {
			lines, ended = lines[:n], true
		}
	case sign == "+":
		lines = lines[min(max(n-1, 0), len(lines)):]
	default:
		lines = lines[max(0, len(lines)-n):]
	}
	if len(lines) == 0 {
		return "", true
	}
	out := strings.Join(lines, "\n")
	if ended {
		out += "\n"
	}
	return out, true
}

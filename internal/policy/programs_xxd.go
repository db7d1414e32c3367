package policy

import "strings"

// xxdValueRest are xxd's options that take a value, each with the rest
// of a word that makes it take the next word instead of the rest of its
// own ("-cols 8", "-seek 1"); -R takes the next word only when nothing
// follows the letter.
var xxdValueRest = map[byte][]string{
	'c': {"ols"}, 'g': {"roup"}, 'o': {"ffset"}, 's': {"kip", "eek"}, 'l': {"en"}, 'n': {"ame"}, 'R': nil,
}

// xxdOutputs returns the words xxd may take for its output file, read as
// its own parser reads its options: an option is told by its first two
// characters alone ("-ps", "-postscript" and "-pxyz" are all -p, "-rp"
// is -r), "--x…" is read as "-x…", a valued option takes the rest of its
// word or the next word, and options end at "--" or at the first word
// that is no option; the second operand is the output. A word computed
// at run time may be an option that takes the next word or an operand,
// so then every later word may be the output.
func xxdOutputs(args []arg) []arg {
	var ops []arg
	unsure := false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !a.known {
			unsure = true
			break
		}
		v := a.val
		if v == "--" {
			i++
			break
		}
		pp := v
		if strings.HasPrefix(v, "--") && len(v) > 2 {
			pp = v[1:]
		}
		if len(pp) < 2 || pp[0] != '-' {
			break // the first operand
		}
		rests, valued := xxdValueRest[pp[1]]
		if !valued {
			if strings.IndexByte("abeupiCdrEv", pp[1]) < 0 {
				return nil // unknown: xxd stops with its usage
			}
			continue
		}
		if pp[1] == 'c' && strings.HasPrefix(pp[2:], "apitalize") {
			continue // -capitalize is -C
		}
		next := pp[2:] == ""
		for _, r := range rests {
			if strings.HasPrefix(pp[2:], r) {
				next = true
			}
		}
		if next {
			i++
		}
	}
	ops = args[min(i, len(args)):]
	if unsure {
		if len(ops) < 2 {
			return nil
		}
		return ops[1:]
	}
	if len(ops) != 2 || ops[1].val == "-" {
		return nil // more than two is a usage error; "-" is standard output
	}
	return ops[1:]
}

package policy

import "strings"

// gitConfigValueLongs are git config's long options that take the next
// word as their value (--file F, --type bool, --comment C); parse-options
// also takes a unique abbreviation of each (--fil F), and an ambiguous one
// is an error, so any prefix of one is read as taking a value.
var gitConfigValueLongs = []string{"--file", "--blob", "--type", "--default", "--comment", "--value", "--url"}

// gitConfigWrites are git config's actions that change a file; --edit
// runs the editor on it.
var gitConfigWrites = []string{"--add", "--unset", "--unset-all", "--replace-all", "--edit",
	"--rename-section", "--remove-section"}

// gitConfigArgs reads git config's words as parse-options does: the
// operands, with option values left out (-f FILE, -tbool, --file=F,
// --comment C), and whether an option asks to read (--get*, --list, -l)
// or to write (--add, --unset, --edit, -e in a cluster such as -ze).
func gitConfigArgs(rest []string) (ops []string, reads, writes bool) {
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			return append(ops, rest[i+1:]...), reads, writes
		case strings.HasPrefix(a, "--"):
			name, _, hasVal := strings.Cut(a, "=")
			for _, l := range gitConfigValueLongs {
				if !hasVal && len(name) > 2 && strings.HasPrefix(l, name) {
					i++
					break
				}
			}
			for _, w := range gitConfigWrites {
				if longFlag(name, w) {
					writes = true
				}
			}
			if strings.HasPrefix(name, "--get") || longFlag(name, "--list") {
				reads = true
			}
		case len(a) > 1 && a[0] == '-':
			for k := 1; k < len(a); k++ {
				switch a[k] {
				case 'e':
					writes = true
				case 'l':
					reads = true
				case 'f', 't':
					if k == len(a)-1 {
						i++
					}
					k = len(a)
				}
			}
		default:
			ops = append(ops, a)
		}
	}
	return ops, reads, writes
}

// gitConfigSets reports whether git config, given the words after it,
// changes a setting: a writing action or subcommand, or a name and value
// outside the reading forms (git 2.46's get and list, --get*, --list).
func gitConfigSets(rest []string) bool {
	ops, reads, writes := gitConfigArgs(rest)
	if writes {
		return true
	}
	if len(ops) > 0 {
		switch ops[0] {
		case "set", "unset", "edit", "rename-section", "remove-section":
			return true
		}
	}
	// The get and list subcommands come first; anywhere else "get" is a
	// key or an option's value (--comment get core.pager x sets core.pager).
	sub := len(rest) > 0 && (rest[0] == "get" || rest[0] == "list")
	return !sub && !reads && len(ops) >= 2
}

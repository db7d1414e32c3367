package sessions

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/policy"
)

// A shell keeps state between the lines it reads that changes what a
// later line runs: an alias or a function gives a name a new meaning
// (alias ls='touch x', ls() { touch x; }), and hash -p and enable point a
// name at another file or builtin. policy classifies each send on its own,
// so once such a definition has run (approved, in a writable session or on
// a host with no confinement) a later "ls" would pass as a read. warden
// remembers the names a send gave a new meaning, and a later send that
// mentions one of them is unseen.
//
// A declaration can do the same to a variable: after declare -i n (or
// typeset, local), every later assignment to n is arithmetic, which runs
// a $(…) in the value (n=$(cat f) runs what f holds), and after declare
// -n r, r names another variable whose subscript may run one. warden
// remembers such names too.
//
// Some definitions name nothing a later line shows: a trap runs its
// action on later events (every command for DEBUG, Ctrl-C for INT; trap ''
// INT keeps Ctrl-C from clearing the typed line in bash), a
// command_not_found_handle runs for any unknown name, and an alias or
// function whose name is computed at run time cannot be followed. Those
// end the model for good, as a key change does (rekey.go).

// maxRenamed bounds the names warden remembers for a session; more end
// the model.
const maxRenamed = 64

// renameWords are the words that may start a definition renames looks
// for; text without any of them (and without '(') is not parsed.
var renameWords = []string{"alias", "hash", "enable", "trap", "function", "declare", "typeset", "local"}

// renames returns the names the commands of text give a new meaning, and
// why text changes what later lines run in a way no name shows, or "".
// text is what the shell has run: complete commands.
func renames(text string) (names []string, why string) {
	return renamesIn(text, 0)
}

func renamesIn(text string, depth int) (names []string, why string) {
	if !mayRename(text) {
		return nil, ""
	}
	if depth > rekeyDepth {
		return nil, "an alias, function, hash or trap in strings nested too deep to follow"
	}
	f, err := policy.ParseBash(text)
	if err != nil {
		// A definition only lasts when the shell itself runs it, and it
		// runs no line or eval'd string that does not parse (a string
		// run by another program defines nothing here).
		return nil, ""
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.FuncDecl:
			switch {
			case n.Name == nil:
				why = "a function without a name"
			case n.Name.Value == "command_not_found_handle":
				why = "command_not_found_handle runs for every name the shell does not find, which warden does not see"
			default:
				names = append(names, n.Name.Value)
			}
		case *syntax.DeclClause:
			if n.Variant != nil && n.Variant.Value != "export" && n.Variant.Value != "readonly" {
				var got []string
				got, why = evaluatedNames(declWords(n))
				names = append(names, got...)
			}
		case *syntax.CallExpr:
			var got []string
			got, why = renameCall(n)
			names = append(names, got...)
		case *syntax.Word:
			if v := literal(n); v != text && !isName(v) && mayRename(v) {
				// A string that may be run as shell: read it as one.
				var got []string
				got, why = renamesIn(v, depth+1)
				names = append(names, got...)
			}
		}
		return why == ""
	})
	return names, why
}

// mayRename reports whether text may hold a definition renames looks for.
func mayRename(text string) bool {
	if strings.IndexByte(text, '(') >= 0 {
		return true // a function definition
	}
	for _, w := range renameWords {
		if spelled(text, w) {
			return true
		}
	}
	return false
}

// renameCall returns the names the simple command c gives a new meaning,
// and why it changes later lines in a way no name shows.
func renameCall(c *syntax.CallExpr) (names []string, why string) {
	vals := literals(c.Args)
	for i, v := range vals {
		if i > 0 && !wrapper[progName(vals[i-1])] && !wrapper[progName(vals[0])] && vals[i-1] != "eval" && !computed(vals[i-1]) {
			continue
		}
		rest := vals[i+1:]
		switch progName(v) {
		case "alias":
			for _, a := range rest {
				if strings.HasPrefix(a, "-") {
					continue
				}
				name, _, set := strings.Cut(a, "=")
				if computed(name) || !set && computed(a) {
					return nil, "an alias whose name is computed at run time may give any name a new meaning"
				}
				if set {
					names = append(names, name)
				}
			}
		case "hash":
			p := false
			for j := 0; j < len(rest); j++ {
				a := rest[j]
				switch {
				case a == "-p":
					p = true
					j++ // the file
				case strings.HasPrefix(a, "-p"):
					p = true
				case strings.HasPrefix(a, "-"):
				case computed(a) && p:
					return nil, "hash -p with a name computed at run time may point any name at another file"
				case p:
					names = append(names, a)
				}
			}
		case "enable":
			for j := 0; j < len(rest); j++ {
				a := rest[j]
				switch {
				case a == "-f":
					j++ // the shared object
				case strings.HasPrefix(a, "-"):
				case computed(a):
					return nil, "enable with a name computed at run time may give any name another builtin"
				default:
					names = append(names, a)
				}
			}
		case "declare", "typeset", "local":
			got, why := evaluatedNames(rest)
			if why != "" {
				return nil, why
			}
			names = append(names, got...)
		case "trap":
			if len(rest) > 0 && rest[0] != "-p" && rest[0] != "-l" {
				return nil, "trap runs its action on later events that warden does not see (a signal, Ctrl-C, " +
					"every command for DEBUG), and trap '' INT keeps Ctrl-C from clearing the typed line"
			}
		}
	}
	return names, ""
}

// declWords returns the literals of a declaration's words: its options,
// and its names with any "=value".
func declWords(d *syntax.DeclClause) []string {
	var out []string
	for _, a := range d.Args {
		switch {
		case a.Name != nil:
			out = append(out, a.Name.Value)
		case a.Value != nil:
			out = append(out, literal(a.Value))
		}
	}
	return out
}

// evaluatedNames returns the names a declaration's words (options and
// names, each perhaps with "=value") give the integer or nameref
// attribute, whose later assignments bash evaluates, and why it cannot
// tell which names they are.
func evaluatedNames(words []string) (names []string, why string) {
	flags := ""
	for _, w := range words {
		name, _, _ := strings.Cut(w, "=")
		if strings.HasPrefix(w, "-") || computed(name) {
			flags += w // a word computed at run time may be -i
		}
	}
	if !strings.ContainsAny(flags, "in") && !computed(flags) {
		return nil, ""
	}
	for _, w := range words {
		if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+") {
			continue
		}
		name, _, _ := strings.Cut(w, "=")
		name, _, _ = strings.Cut(name, "[")
		if computed(name) {
			return nil, "a declare -i or -n whose name is computed at run time may make any variable's later assignments evaluated"
		}
		names = append(names, name)
	}
	return names, ""
}

// computed reports whether a word's literal (see literal) has a part
// computed at run time.
func computed(v string) bool {
	return strings.IndexByte(v, 0) >= 0
}

// addRenamed adds names to the list of names given a new meaning (one a
// line), or says why there are too many to follow.
func addRenamed(list string, names []string) (string, string) {
	for _, n := range names {
		if n == "" || hasName(list, n) {
			continue
		}
		if strings.Count(list, "\n") >= maxRenamed {
			return list, "more names were given a new meaning (aliases, functions, hash -p) than warden follows"
		}
		list += n + "\n"
	}
	return list, ""
}

func hasName(list, name string) bool {
	for _, n := range strings.Split(list, "\n") {
		if n == name {
			return true
		}
	}
	return false
}

var unquoter = strings.NewReplacer("'", "", `"`, "", `\`, "")

// usesRenamed says why text may run a name that list (see renamed) says an
// earlier send gave a new meaning, or returns "". A name matches where one
// of its tokens is a token of text, or, for a name of punctuation only,
// where it occurs at all.
func usesRenamed(text, list string) string {
	if list == "" || text == "" {
		return ""
	}
	// A function runs under any quoting of its name ('ls', l\s, l""s),
	// so quotes and backslashes are dropped before the names are found.
	have := map[string]bool{}
	for _, t := range tokens(unquoter.Replace(text)) {
		have[t] = true
	}
	for _, n := range strings.Split(strings.TrimSuffix(list, "\n"), "\n") {
		nt := tokens(n)
		hit := len(nt) == 0 && strings.Contains(unquoter.Replace(text), n)
		for _, t := range nt {
			hit = hit || have[t]
		}
		if hit {
			return "an earlier send gave " + truncate(n, 40) + " a new meaning (an alias, a function, hash -p, enable, or declare -i/-n), " +
				"which warden does not follow into later sends"
		}
	}
	return ""
}

package audit

import "strings"

// Argv lists built one item per statement: Java's cmd.add("--password");
// cmd.add("…"), JavaScript's args.push("-p"); args.push("…"), Python's
// argv.append("--token")⏎argv.append("…"). The option is one call's
// argument, its value the next call's, so the chain reads across the
// statement's end as it does across Rust's .arg("-p").arg("…").

// addMethods are the calls that add one item to a list: Java's and C#'s
// add, JavaScript's push, Python's append, C++'s push_back, Rust's arg.
var addMethods = [...]string{".add(", ".push(", ".append(", ".Add(", ".arg(", ".addArgument(", ".addArg(", ".addArgs(",
	".push_back(", ".emplace_back(", ".Append("}

// maxAddGap bounds the text between one call and the next, so a look
// stays short.
const maxAddGap = 96

// nextAddCall returns the index of the '(' of the next statement's call
// that adds an item to a list (X.add(, X.push(, X.append(, X.Add(, X.arg(),
// when only a ';', blanks, line ends and the receiver's name lie between k
// and it; 0 otherwise.
func nextAddCall(s string, k int) int {
	lim := min(len(s), k+maxAddGap)
	if k < lim && s[k] == ';' {
		k++
	}
	for k < lim {
		switch {
		case s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r':
			k++
		case strings.HasPrefix(s[k:], `\n`) || strings.HasPrefix(s[k:], `\t`):
			k += 2 // a line end written as an escape inside a quoted script
		default:
			goto name
		}
	}
	return 0
name:
	// The receiver may be a call itself (pb.command().add(…)).
	for b := k; k < lim; k++ {
		if s[k] == '.' && k > b {
			for _, m := range addMethods {
				if strings.HasPrefix(s[k:], m) {
					return k + len(m) - 1
				}
			}
		}
		if !wordByte[s[k]] && strings.IndexByte("$()[]", s[k]) < 0 {
			return 0
		}
	}
	return 0
}

// addChainBreak reports whether the statement end at i (';' or a line
// end) only separates two calls that add items to an argv list
// (cmd.add("-p"); cmd.add("…")), so the program the list names goes on.
func addChainBreak(s string, i int) bool {
	k := i
	for k > 0 && i-k < 8 && (s[k-1] == ' ' || s[k-1] == '\t' || s[k-1] == '\r' || s[k-1] == ';') {
		k--
	}
	return k >= 2 && s[k-1] == ')' && (s[k-2] == '"' || s[k-2] == '\'') && nextAddCall(s, i) > 0
}

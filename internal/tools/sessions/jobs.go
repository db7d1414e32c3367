package sessions

import "strings"

// Job control is what makes the terminal's foreground mean what held.go
// takes it to. With it on, a shell runs each command in a process group
// of its own and hands it the terminal, and a program in the background
// that reads the terminal is stopped. With it off (set +m), programs run
// in the shell's own process group: the foreground is the shell's while
// a program that ignores Ctrl-C still reads, so "a shell at its prompt"
// is seen after Ctrl-C and the next send goes to that program, and one
// started in the background (coproc cat </dev/tty) reads beside the
// shell. So turning job control off, in the session's shell or in a
// shell started in it, ends the model for good, as a key change does.

const jobsOff = " turns job control off, so programs run in the shell's own process group: one that outlives Ctrl-C " +
	"or runs in the background reads the terminal while the shell looks to be at its prompt"

// jobControlOff says why the command vals, at its word i, turns job
// control off, or returns "": set +m or set +o monitor (options
// clustered, +o's name in the next word), shopt -u -o monitor, and a
// shell started with them (bash +m, sh +o monitor).
func jobControlOff(vals []string, i int) string {
	b := progName(vals[i])
	rest := vals[i+1:]
	switch {
	case b == "set" || interactiveShells[b]:
		for j, a := range rest {
			if a == "--" || a == "-" {
				break
			}
			if len(a) > 1 && a[0] == '+' && strings.ContainsRune(a[1:], 'm') {
				return b + " " + a + jobsOff
			}
			// set +eo monitor: o takes its name from the next word.
			if a == "monitor" && j > 0 && len(rest[j-1]) > 1 && rest[j-1][0] == '+' && strings.ContainsRune(rest[j-1], 'o') {
				return b + " " + rest[j-1] + " monitor" + jobsOff
			}
		}
	case b == "shopt":
		// shopt -o reaches set's options; -u turns them off.
		flags, monitor := "", false
		for _, a := range rest {
			if strings.HasPrefix(a, "-") {
				flags += " " + a
			}
			monitor = monitor || a == "monitor"
		}
		if monitor && strings.ContainsRune(flags, 'o') && strings.ContainsRune(flags, 'u') {
			return "shopt" + flags + " monitor" + jobsOff
		}
	}
	return ""
}

package audit

import "testing"

// TestRedactWritesToReaderProcesses: what a command writes to a reader's
// input other than through a pipe is its secret: an output process
// substitution (> >(chpasswd)), a descriptor exec opened to one (exec 3>
// >(chpasswd); … >&3), a coprocess's input (>&"${COPROC[1]}", named or
// not, a simple command or a group).
func TestRedactWritesToReaderProcesses(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, rd := range []string{"chpasswd", "sudo -S id", "passwd --stdin bob", "docker login -u bob --password-stdin r.io"} {
		for _, wr := range []string{"echo bob:" + pw, "printf 'bob:%s\\n' " + pw, "echo -n 'bob:" + pw + "'"} {
			for _, c := range []string{
				wr + " > >(" + rd + ")",
				wr + " 1> >(" + rd + " 2>&1)",
				wr + " >> >(" + rd + ")",
				"exec 3> >(" + rd + ")\n" + wr + " >&3\nexec 3>&-",
				"exec 4> >(" + rd + "); ls; " + wr + " 1>&4",
				"coproc " + rd + "\n" + wr + " >&\"${COPROC[1]}\"",
				"coproc " + rd + "; " + wr + " >&${COPROC[1]}; wait",
				"coproc SETPW { " + rd + "; }\n" + wr + " >&\"${SETPW[1]}\"",
				"coproc SETPW ( " + rd + " ); " + wr + " >&${SETPW[1]}",
			} {
				cases = append(cases, detourCase{"local", c, []string{rd}}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
			}
		}
	}
	checkSubtests(t, pw, cases)

	// Kept: processes, descriptors and coprocesses that read no secret,
	// and a reader's coprocess written by another name.
	checkSpellings(t, []spelling{
		{"echo 'deploy notes' > >(logger -t app)", nil, []string{"deploy notes"}},
		{"exec 3> >(logger -t app); echo 'deploy notes' >&3", nil, []string{"deploy notes"}},
		{"exec 3> >(chpasswd); echo 'deploy notes' >&4", nil, []string{"deploy notes"}},
		{"coproc bc; echo '2+2' >&\"${COPROC[1]}\"", nil, []string{"2+2"}},
		{"coproc P { chpasswd; }; echo 'deploy notes' >&\"${Q[1]}\"", nil, []string{"deploy notes"}},
		{"echo 'deploy notes' >&2", nil, []string{"deploy notes"}},
		{"diff <(sort a) >(cat) > /tmp/out", nil, []string{"diff <(sort a) >(cat) > /tmp/out"}},
	})
}

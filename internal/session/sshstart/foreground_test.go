package sshstart

import "testing"

// TestForegroundReport: the remote report is read line by line; a name
// cannot add a line of its own (the script drops newlines in names).
func TestForegroundReport(t *testing.T) {
	for _, c := range []struct {
		out  string
		want bool
	}{
		{"fg 10\n", false},
		{"fg 11\n", false},
		{"fg 11\ncomm sh\nsame\nin /dev/pts/3\n", true},
		{"fg 11\ncomm sh\nsame\nin /dev/pts/3\narg -i\n", true},
		{"fg 11\ncomm sh\nin /dev/pts/3\n", false},
		{"fg 11\ncomm zsh\nsame\nin /dev/pts/3\n", false},
		{"fg 11\ncomm sh\nsame\nin /tmp/s.sh\n", false},
		{"fg 11\ncomm bash\nsame\nin /dev/pts/3\narg -c\narg x\n", false},
		{"fg 11\ncomm bash\nsame\nin /dev/pts/3\narg s.sh\n", false},
		// Another process in the shell's group: job control is off.
		{"fg 11\nshared\ncomm sh\nsame\nin /dev/pts/3\n", false},
		{"fg 11\ncomm bash\nsame\nin /dev/pts/3\narg -i\nshared\n", false},
		{"", false},
		{"fg x\n", false},
	} {
		if got, _ := ownsForeground(c.out); got != c.want {
			t.Errorf("%q: %v, want %v", c.out, got, c.want)
		}
	}
}

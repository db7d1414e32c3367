package session

import "strings"

// A program that asks for a password on its terminal turns the terminal's
// echo off and reads a whole line (canonical mode): getpass, sudo, ssh,
// passwd, mysql -p, read -s. What is typed then is that password, whatever
// the program, so the recording and the audit record must not keep it —
// rules that know programs by name (sessions' prompts.go) cannot list
// every one. A shell's own line editor turns echo off too, but reads keys
// one by one (canonical mode off), so a command typed at its prompt is no
// password.

// silencer is what a Process has when it can tell whether its terminal
// reads a line without echoing it.
type silencer interface {
	Silent() bool
}

// Silent reports whether the session's terminal reads a line without
// echoing it, as it does at a password prompt. A session without a
// terminal, or whose terminal cannot be asked, is not.
func (r *Registry) Silent(id string) bool {
	s, err := r.get(id)
	if err != nil {
		return false
	}
	return s.silent()
}

func (s *session) silent() bool {
	p, ok := s.proc.(silencer)
	return ok && p.Silent()
}

// silentLine is what is typed up to the line's end: the answer to the
// prompt that reads it.
func silentLine(data []byte) string {
	line, _, _ := strings.Cut(strings.ReplaceAll(string(data), "\r", "\n"), "\n")
	return line
}

package sessions

import "path"

// Whether non-ASCII text is text depends on the locale of the shell that
// reads it (keyboard.utf8), which warden reads from the session's start.
// A line can change it for the lines after: "export LC_ALL=C", "unset
// LANG", "LC_ALL=C bash", a shell under su or sudo -i with the target's
// own environment. In a C locale bash may read a UTF-8 character's bytes
// as Alt- keys that edit the line (with /etc/inputrc's input-meta on, in
// readline versions that convert meta characters). So once a line
// mentions the locale's variables, or switches users, non-ASCII text is
// no longer taken for text in that session: it is refused, as in a session
// whose locale warden does not know.

// localeChanges reports whether text, complete commands, may change the
// locale of the shell that reads the lines after it.
func localeChanges(text string) bool {
	for _, t := range tokens(text) {
		switch path.Base(t) {
		case "LC_ALL", "LC_CTYPE", "LANG", "su", "sudo", "doas", "runuser", "login", "machinectl", "pkexec", "run0":
			return true
		}
	}
	return false
}

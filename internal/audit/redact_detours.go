package audit

import "strings"

// Programs that read a secret on their input only with an option given
// somewhere on their command line (xfreerdp /from-stdin, mount -t davfs,
// encfs -S), read by a bounded look at the command's words.

// flagReader reports whether the program w, its arguments starting rest,
// reads a password (or a user and password) on its input.
func flagReader(w, rest string) bool {
	switch w {
	case "mount.davfs":
		return true // asks for the user name and password, reads a pipe
	case "mount":
		return commandHas(rest, func(a string) bool { return a == "davfs" || a == "-tdavfs" || a == "-t=davfs" || a == "--types=davfs" })
	case "xfreerdp", "xfreerdp3", "wlfreerdp", "wlfreerdp3", "sdl-freerdp", "sdl-freerdp3", "freerdp":
		return commandHas(rest, func(a string) bool {
			return a == "/from-stdin" || a == "+from-stdin" || strings.HasPrefix(a, "/from-stdin:")
		})
	case "tcplay", "scrypt", "zipcloak":
		// They ask for a passphrase; what is fed to them is meant as one.
		return true
	case "zip":
		return commandHas(rest, func(a string) bool { return a == "-e" || a == "--encrypt" })
	case "encfs":
		return commandHas(rest, func(a string) bool { return a == "-S" || a == "--stdinpass" })
	}
	return false
}

// commandHas reports whether a word of the command whose arguments start
// rest, up to its end and at most maxEditLook bytes, satisfies is.
func commandHas(rest string, is func(string) bool) bool {
	end := min(len(rest), maxEditLook)
	for k := 0; k < end; {
		k = skipBlanks(rest, k)
		if k >= end || strings.IndexByte("\n\r;|&)`", rest[k]) >= 0 {
			return false
		}
		e := shellWordEnd(rest, k)
		if e == k {
			e = k + 1
		}
		if is(strings.Trim(rest[k:min(e, end)], `'"`)) {
			return true
		}
		k = e
	}
	return false
}

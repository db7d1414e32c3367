package audit

import "strings"

// Secrets encoded in the pipeline: a literal fed to base64 is a Basic
// credential being built (echo -n bob:pw | base64 inside curl -H
// "Authorization: Basic $(…)"), a Kubernetes secret's data or a registry
// auth being written; nothing else is worth encoding by hand. What echo,
// printf, a here-string or a here-document feeds an encoder is redacted
// as if the encoder read a password there; decoding (base64 -d) reads no
// secret.

// encoderCmd reports whether the program w, its arguments the start of
// rest, encodes its input as base64 or base32 (base64, base32, basenc,
// openssl base64, openssl enc -a): not when it decodes.
func encoderCmd(w, rest string) bool {
	switch w {
	case "base64", "base32", "basenc", "gbase64", "gbase32", "b64":
		return !decodes(rest)
	case "xxd":
		// Plain hex (-p, -ps, -plain) of a literal is an encoded value
		// being built, as base64's is; a dump read by eye is not.
		o := strings.TrimSpace(rest[:min(len(rest), 16)])
		return (strings.HasPrefix(o, "-p") || strings.HasPrefix(o, "-u -p")) && !strings.HasPrefix(o, "-r")
	}
	return false
}

// opensslEncodes reports whether the word w of an openssl command,
// followed by rest, makes it write its input as base64: openssl base64,
// openssl enc -base64 or -a, when it does not decode (-d).
func opensslEncodes(w, rest string) bool {
	switch w {
	case "base64", "-base64", "-a", "-A":
		return !decodes(rest)
	}
	return false
}

// decodes reports whether the options at the start of rest, up to the
// end of the command, ask for decoding: -d, --decode, or a cluster of
// short options holding d (-di, -wd).
func decodes(rest string) bool {
	end := len(rest)
	if end > 256 {
		end = 256
	}
	for k := 0; k < end; {
		k = skipBlanks(rest, k)
		if k >= end {
			break
		}
		if strings.IndexByte("\n\r;|&)`", rest[k]) >= 0 {
			break
		}
		e := k
		for e < end && strings.IndexByte(" \t\n\r;|&)`", rest[e]) < 0 {
			e++
		}
		w := strings.Trim(rest[k:e], `'"`)
		switch {
		case w == "--decode" || strings.HasPrefix(w, "--dec"):
			return true
		case len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.ContainsAny(w[1:], "dD") && !strings.ContainsAny(w, "=0123456789"):
			return true
		}
		if e == k {
			e++
		}
		k = e
	}
	return false
}

// editsCredentialFile reports whether the sed or perl command whose
// script part ends at k edits a credential file in place (sed -i
// 's/x/…/' /etc/app/secret.conf): a later word of the command, read at
// most maxEditLook bytes on, names one (credentialFile).
func (r *redactor) editsCredentialFile(k int) bool {
	switch r.stdin.cmd {
	case "sed", "gsed", "perl", "ssed":
	default:
		return false
	}
	s := r.s
	if k < r.editEnd {
		return r.editHit // s/a/b/;s/c/d/: the same command's files
	}
	end := min(len(s), k+maxEditLook)
	r.editEnd, r.editHit = end, false
	for k < end && s[k] != ' ' && s[k] != '\t' {
		k++ // the rest of the script's word: /g'
	}
	for k < end {
		k = skipBlanks(s, k)
		if k >= end || strings.IndexByte("\n\r;|&)`", s[k]) >= 0 {
			return false
		}
		e := shellWordEnd(s, k)
		if e == k {
			e = k + 1
		}
		if w := s[k:min(e, end)]; len(w) > 1 && w[0] != '-' && credentialFile(w) {
			r.editHit = true
			return true
		}
		k = e
	}
	return false
}

// maxEditLook bounds how far editsCredentialFile reads; an s command
// inside what the last look read reuses its answer (editEnd), so the
// pass stays linear.
const maxEditLook = 512

// copiesInput reports whether the command cmd, its arguments starting
// rest, copies its standard input into a credential file: dd
// of=/etc/app/token, cp /dev/stdin ~/.pgpass, install -m600 /dev/stdin
// /run/secrets/x. It reads the command's words up to its end, at most
// maxEditLook bytes.
func copiesInput(cmd, rest string) bool {
	stdin, tk, te := copyTarget(cmd, rest)
	return stdin && te > tk && credentialFile(rest[tk:te])
}

// copyTarget reports whether dd, cp, install, mv or rsync (cmd, its
// arguments rest) copies standard input, and the span in rest of the
// file it copies to.
func copyTarget(cmd, rest string) (stdin bool, tk, te int) {
	switch cmd {
	case "dd", "cp", "install", "mv", "rsync":
	default:
		return false, 0, 0
	}
	end := min(len(rest), maxEditLook)
	stdin = cmd == "dd"
	for k := 0; k < end; {
		k = skipBlanks(rest, k)
		if k >= end || strings.IndexByte("\n\r;|&)`<>", rest[k]) >= 0 {
			break
		}
		e := shellWordEnd(rest, k)
		if e == k {
			e = k + 1
		}
		w := strings.Trim(rest[k:min(e, end)], `'"`)
		switch {
		case cmd == "dd" && strings.HasPrefix(w, "if="):
			stdin = stdinPath(w[3:])
		case cmd == "dd" && strings.HasPrefix(w, "of="):
			tk, te = k+strings.Index(rest[k:], "of=")+3, min(e, end)
		case cmd == "dd":
			// bs=, status=: no file.
		case stdinPath(w):
			stdin = true
		case len(w) > 1 && w[0] != '-':
			tk, te = k, min(e, end) // the last operand is the target
		}
		k = e
	}
	return stdin, tk, te
}

// stdinPath reports whether p names standard input as a file.
func stdinPath(p string) bool {
	switch p {
	case "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		return true
	}
	return false
}

// colonSub reports whether the word s[i:j] is a subcommand joined to the
// one before by ':' (netlify env:set, heroku config:set, firebase
// functions:secrets:set): lower-case letters after a ':' that follows a
// word's letter.
func colonSub(s string, i, j int) bool {
	if i < 2 || s[i-1] != ':' || !isLower(s[i-2]) {
		return false
	}
	for k := i; k < j; k++ {
		if !isLower(s[k]) {
			return false
		}
	}
	return j >= len(s) || s[j] == ' ' || s[j] == '\t' || s[j] == ':'
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// aclHash reports whether h is a Redis ACL rule's SHA-256 of a password:
// 64 hex digits, the form a #… rule takes.
func aclHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	for k := 0; k < len(h); k++ {
		if c := h[k]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// aclLine redacts the password rules after an ACL SETUSER written as
// text (echo 'ACL SETUSER bob on >pw' | redis-cli, a stdin text) or a
// users.acl line (user bob on >pw ~* +@all), the word w ending at j.
func (r *redactor) aclLine(i, j int) {
	s, w := r.s, r.s[i:j]
	switch {
	case strings.EqualFold(w, "setuser"):
		b := strings.TrimRight(s[max(0, i-8):i], " \t")
		if len(b) < 3 || !strings.EqualFold(b[len(b)-3:], "acl") {
			return
		}
	case w == "user" && directiveStart(s, i):
		// user NAME rules…: a rule word follows the name, on the same
		// line: a quote the name opens is not followed past it, or every
		// line of a text full of "user" keys would scan to its end.
		k := skipBlanks(s, j)
		line := s
		if n := strings.IndexByte(s[k:], '\n'); n >= 0 {
			line = s[:k+n]
		}
		e := shellWordEnd(line, k)
		if e == k || !strings.Contains(s[e:min(len(s), e+64)], ">") && !strings.Contains(s[e:min(len(s), e+64)], "#") {
			return
		}
	default:
		return
	}
	r.lookAhead(j, positional{every: true, split: aclRule}, false)
}

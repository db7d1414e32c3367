package audit

import "strings"

// Secrets a program reads from a file its option names, when the command
// itself supplies that file: standard input (sshpass -f /dev/stdin,
// sshpass -d 0, ldappasswd -T /dev/stdin), another descriptor fed by a
// here-string or here-document (sshpass -d 3 … 3<<< secret, openssl
// -passin fd:3, gpg --passphrase-fd 3), or a process substitution that
// prints it (sshpass -f <(echo secret), --password-file <(printf …),
// -passin file:<(echo …), htpasswd -i … < <(echo secret)).

// secretFileOption reports whether the option w of the command cmd names
// a file or descriptor it reads a secret from.
func secretFileOption(cmd, w string) bool {
	switch {
	case cmd == "sshpass" && (w == "-f" || w == "-d"),
		strings.HasPrefix(cmd, "ldap") && (w == "-y" || w == "-T"),
		cmd == "curl" && (w == "-K" || w == "--config" || w == "--netrc-file"),
		cmd == "openssl" && (w == "-passin" || w == "-passout" || w == "-pass" || w == "-kfile"),
		// openvpn --auth-user-pass <(printf 'u\npw'): user and password
		// lines; smbclient -A: an authentication file.
		cmd == "openvpn" && (w == "--auth-user-pass" || w == "--askpass" || w == "--http-proxy-user-pass"),
		// ipmitool -f: a file holding the remote password; mount -o
		// credentials= is read by credentialsOption.
		cmd == "ipmitool" && w == "-f",
		// NSS's tools: certutil -f/-@, pk12util -w/-k, modutil -pwfile.
		(cmd == "certutil" || cmd == "crlutil") && (w == "-f" || w == "-@"), cmd == "pk12util" && (w == "-w" || w == "-k"),
		cmd == "modutil" && (w == "-pwfile" || w == "-newpwfile"),
		strings.HasPrefix(cmd, "smb") && w == "-A", cmd == "rpcclient" && w == "-A", cmd == "net" && w == "-A",
		strings.HasSuffix(cmd, "vncviewer") && (w == "-passwd" || w == "-PasswordFile"):
		return true
	}
	name := strings.TrimLeft(w, "-")
	if len(name) == len(w) || len(name) < 4 {
		return false
	}
	if passwordFileOption(w) {
		return true // initdb --pwfile, --passfile, --secretfile
	}
	// --password-file, --passphrase-fd, --key-file, --token-file.
	for _, suf := range [...]string{"-file", "_file", "-fd", "_fd"} {
		if base, ok := strings.CutSuffix(name, suf); ok {
			return secretName(base) || secretKey(base) != keyNone || base == "netrc" || base == "cred"
		}
	}
	return false
}

// secretSource looks at the value of the option w ending at j, which the
// command cmd reads a secret from: attached (-d3, --password-file=…) or
// the next word, after openssl's file: or fd: prefix.
func (r *redactor) secretSource(cmd, w string, j int) {
	s := r.s
	k := j
	switch {
	case k < len(s) && s[k] == '=':
		k++
	case k < len(s) && (s[k] == ' ' || s[k] == '\t'):
		k = skipBlanks(s, k)
	case len(w) != 2:
		return // a short option's value may be attached: -f/dev/stdin
	}
	if strings.HasPrefix(s[k:], "file:") || strings.HasPrefix(s[k:], "fd:") {
		k += strings.IndexByte(s[k:], ':') + 1
	}
	if strings.HasPrefix(s[k:], "<(") {
		r.processSecret(k + 1)
		return
	}
	e := k
	for e < len(s) && e-k < 20 && strings.IndexByte(" \t\n;|&<>)'\"", s[e]) < 0 {
		e++
	}
	v := s[k:e]
	if e > k && !isDigits(v) && !strings.HasPrefix(v, "/dev/") && !strings.HasPrefix(v, "/proc/") {
		// A plain file: what the command wrote there is the secret
		// (redact_pwfiles.go): smbclient -A /tmp/a, ipmitool -f /tmp/p.
		r.readsPassword(k)
	}
	fd := -1
	switch {
	case v == "/dev/stdin" || v == "/proc/self/fd/0":
		fd = 0
	case strings.HasPrefix(v, "/dev/fd/") && len(v) == 9 && isDigits(v[8:]):
		fd = int(v[8] - '0')
	case len(v) == 1 && isDigits(v) && (strings.HasSuffix(w, "fd") || w == "-d" || strings.HasPrefix(s[j:], " fd:") || strings.HasPrefix(s[j:], "=fd:")):
		fd = int(v[0] - '0')
	}
	r.readsFd(fd, j)
}

// readsFd notes that the current command reads a secret from the
// descriptor fd (-1: none); its option ends at j.
func (r *redactor) readsFd(fd, j int) {
	switch {
	case fd == 0:
		r.secretInput(j)
	case fd > 0:
		r.stdin.fds |= 1 << fd
	}
}

// processSecret redacts what the process substitution whose '(' is at k
// prints by echo, printf or yes: the secret the program reads from it.
func (r *redactor) processSecret(k int) {
	if k < r.procEnd {
		return // inside one read before: each byte is read once
	}
	r.procEnd = groupEnd(r.s, k)
	from, end := processEcho(r.s, k)
	if end > from && from >= r.done && (len(r.pending) == 0 || r.pending[len(r.pending)-1].to <= from) {
		r.pending = append(r.pending, span{from, end})
	}
}

// processEcho returns the arguments of the echo, printf or yes that the
// process substitution whose '(' is at k runs, an empty span for any
// other command.
func processEcho(s string, k int) (int, int) {
	end := groupEnd(s, k) - 1 // the closing ')'
	b := skipBlanks(s, k+1)
	e := b
	for e < end && wordByte[s[e]] {
		e++
	}
	if w := s[b:e]; w != "echo" && w != "printf" && w != "yes" {
		return 0, 0
	}
	from := skipBlanks(s, e)
	for end > from && (s[end-1] == ' ' || s[end-1] == '\t') {
		end--
	}
	return from, end
}

// redirectFd returns the descriptor a redirection at i names (3<<<), 0
// when it names none.
func redirectFd(s string, i int) int {
	if i >= 2 && s[i-1] >= '1' && s[i-1] <= '9' && startsWord(s, i-1) {
		return int(s[i-1] - '0')
	}
	return 0
}

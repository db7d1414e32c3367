package audit

import "strings"

// Credential pairs: values that hold a user name and a password together
// under a name that is no credential word. A proxy is [user:password@]host
// with or without a scheme (https_proxy=bob:pw@proxy:3128 curl …, pip
// --proxy, git config http.proxy), etcdctl reads ETCDCTL_USER=user:password
// and Samba's tools USER=user%password; mount.cifs takes
// -o username=user%password and curlftpfs -o user=user:password. The
// password is redacted, the user and host kept.

// pairSplit says how the value of the variable, key or option named w
// holds a password next to a user name, and false when it holds none.
func (r *redactor) pairSplit(w string) (split, bool) {
	name := strings.TrimLeft(w, "-")
	switch {
	case len(name) >= 5 && hasNormSuffix(name, "proxy") && (len(name) == 5 || normKeyByte(name[len(name)-6]) == '_'):
		return userinfo, true
	case strings.EqualFold(name, "etcdctl_user"):
		return afterColon, true
	case name == "USER" && w[0] != '-':
		return afterPercent, true // Samba's USER=user%password
	case name == "p" && r.prog != nil && r.prog.dsn:
		return whole, true // pt-table-checksum h=db,u=root,p=secret
	case r.prog != nil && r.prog.userSep != 0 && (name == "user" || name == "username"):
		if r.prog.userSep == '%' {
			return afterPercent, true
		}
		return afterColon, true
	}
	return whole, false
}

// pairValue redacts the password of a credential pair named by the word
// s[i:j] when its value follows ('=', or a blank after an option), and
// returns where scanning resumes, or 0.
func (r *redactor) pairValue(i, j int) int {
	s := r.s
	how, ok := r.pairSplit(s[i:j])
	if !ok || j >= len(s) {
		return 0
	}
	k := j
	switch {
	case s[j] == '=':
		// A list's next key= ends the value (mount -o
		// username=bob%pw,uid=0).
		start, end := r.valueWord(j+1, true)
		if how != userinfo && r.prog != nil && (r.prog.userSep != 0 || r.prog.dsn) {
			// In a mount option list every ',' ends an option
			// (user=bob:pw,allow_other).
			if c := strings.IndexByte(s[start:end], ','); c >= 0 {
				end = start + c
			}
		}
		return r.splitValue(start, end, how)
	case s[i] == '-' && (s[j] == ' ' || s[j] == '\t'):
		if k = skipBlanks(s, j); k >= len(s) || s[k] == '-' {
			return 0
		}
	default:
		return 0
	}
	return r.optionValue(k, how)
}

// redactPair redacts the password of the credential pair v, the value of
// a JSON key named name (run_command's env: {"https_proxy": "u:pw@p"}).
func redactPair(name, v string) string {
	r := newRedactor(v)
	how, ok := r.pairSplit(name)
	if !ok || r.optionValue(0, how) == 0 {
		return v
	}
	return string(r.out) + v[r.done:]
}

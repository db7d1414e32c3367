package audit

import "strings"

// Password hashes in the modular crypt format ($6$salt$hash,
// $2y$10$…, $apr1$…, $argon2id$v=19$…, and with each '$' doubled as
// Compose files and Traefik labels escape it: $$apr1$$…) wherever they
// stand: haproxy's user … password HASH, a Caddyfile's basicauth block,
// useradd -p, an Ansible vars file. A hash is cracked offline, so it is
// kept out like the password.

// cryptIDs are the schemes' ids between the first two '$'.
var cryptIDs = map[string]bool{
	"1": true, "2a": true, "2b": true, "2x": true, "2y": true, "5": true, "6": true, "7": true,
	"y": true, "gy": true, "apr1": true, "md5": true, "sha1": true, "sm3": true,
	"argon2i": true, "argon2d": true, "argon2id": true, "scrypt": true,
	"pbkdf2": true, "pbkdf2-sha256": true, "pbkdf2-sha512": true,
}

// maxCrypt bounds a hash's length; the longest (argon2 with its
// parameters) stay well below.
const maxCrypt = 512

// cryptToken returns the end of the crypt hash starting with the '$' at
// i, or 0. The last '$'-separated part, the hash itself, is at least 16
// bytes, so shell expansions ($1$2, $HOME$x) are none.
func cryptToken(s string, i int) int {
	if i > 0 && (wordByte[s[i-1]] || s[i-1] == '$' || s[i-1] == '\\') {
		return 0
	}
	sep := "$"
	if strings.HasPrefix(s[i:], "$$") {
		sep = "$$"
	}
	k := i + len(sep)
	e := k
	for e < len(s) && e-k < 16 && (s[e] >= 'a' && s[e] <= 'z' || s[e] >= '0' && s[e] <= '9' || s[e] == '-') {
		e++
	}
	if !strings.HasPrefix(s[e:], sep) || !cryptIDs[s[k:e]] {
		return 0
	}
	end := e
	for end < len(s) && end-i < maxCrypt && cryptByte(s[end]) {
		end++
	}
	last := strings.LastIndexByte(s[e:end], '$')
	if end-i < 24 || last < 0 || end-(e+last+1) < 16 {
		return 0
	}
	return end
}

func cryptByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '.' || c == '/' || c == '+' || c == '=' || c == ',' || c == '$' || c == '-' || c == '_'
}

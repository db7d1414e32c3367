package audit

import "strings"

// Credential lines known by their shape alone, whatever file or command
// they are written to: a password file need not be named like one
// (write_file /srv/app/db.cfg, echo … > /tmp/p; PGPASSFILE=/tmp/p psql).

// maxShapeLook bounds how far back pgpassField reads from a colon; a
// line past it is no pgpass line, and the pass stays linear.
const maxShapeLook = 256

// pgpassField returns the end of the password field of a PostgreSQL
// password file line, host:port:database:user:password, whose fourth
// colon is at i, or 0. The port is digits or '*'; there are exactly five
// fields, none but the password empty, so times (12:30:45), IPv6
// addresses (eight fields, or an empty one) and host:port pairs are not
// read as one. A backslash escapes a colon, as in the file.
func pgpassField(s string, i int) int {
	if i == 0 || i+1 >= len(s) || shapeEnd(s[i+1]) || s[i-1] == '\\' {
		return 0
	}
	lo := max(0, i-maxShapeLook)
	var cols [3]int
	n := 0
	k := i - 1
	for ; k >= lo && !shapeEnd(s[k]); k-- {
		if s[k] == ':' && (k == 0 || s[k-1] != '\\') {
			if n == len(cols) {
				return 0 // more than five fields
			}
			cols[n] = k
			n++
		}
	}
	if n != 3 || k < lo && lo > 0 {
		return 0
	}
	start := k + 1
	// cols holds the colons right to left: user, database, port.
	host, port, db, user := s[start:cols[2]], s[cols[2]+1:cols[1]], s[cols[1]+1:cols[0]], s[cols[0]+1:i]
	if host == "" || db == "" || user == "" || port != "*" && (port == "" || len(port) > 5 || !isDigits(port)) {
		return 0
	}
	end := i + 1
	for end < len(s) && !shapeEnd(s[end]) {
		if s[end] == ':' && s[end-1] != '\\' {
			return 0 // a sixth field
		}
		end++
	}
	return end
}

// shapeEnd reports whether c ends a word that may be a credential line:
// a blank, a line end, a quote or a shell operator.
func shapeEnd(c byte) bool {
	return strings.IndexByte(" \t\r\n'\"`<>;|&(){}=,", c) >= 0
}

// smbHashes returns the end of the LM and NT hash fields of a Samba
// smbpasswd line (bob:1000:LMHASH:NTHASH:[U ]:LCT-…:) when the ':' at i
// ends its uid field, or 0. An unset LM hash is 32 X.
func smbHashes(s string, i int) int {
	k := i + 1
	for f := 0; f < 2; f++ {
		if k+33 > len(s) || s[k+32] != ':' {
			return 0
		}
		for _, c := range []byte(s[k : k+32]) {
			if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'F' || c >= 'a' && c <= 'f' || c == 'X') {
				return 0
			}
		}
		k += 33
	}
	return k - 1
}

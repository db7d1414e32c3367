package audit

import "strings"

// Lines of network devices' configuration, typed into a session or fed to
// one (ssh router <<EOF, printf … | ssh switch), and of interfaces(5):
// username admin privilege 15 secret 0 PW, enable secret PW, snmp-server
// community PW RO, tacacs-server key 7 PW, crypto isakmp key PW address
// …, ppp chap password PW, key-string PW, wpa-psk PW. The secret follows
// the line's password, secret, key or community word, after the digit
// that gives its encryption type.

// deviceLineStart marks the first bytes of deviceDirective's words.
var deviceLineStart = func() (t [256]bool) {
	for _, c := range "uestrckpw" {
		t[c] = true
	}
	return t
}()

// deviceDirective reports whether w starts such a line.
func deviceDirective(w string) bool {
	switch w {
	case "username", "enable", "snmp-server", "tacacs-server", "radius-server", "crypto", "ppp",
		"key-string", "wpa-psk", "wpa-password", "wpa-passphrase":
		return true
	}
	return false
}

// deviceLineAt reports whether the word at i starts a line: at the start
// of s, of a line, of a quoted string or after ';' (conf t; enable secret
// …), blanks before it aside.
func deviceLineAt(s string, i int) bool {
	k := i - 1
	for k >= 0 && (s[k] == ' ' || s[k] == '\t') {
		k--
	}
	return k < 0 || strings.IndexByte("\n\r'\";", s[k]) >= 0
}

// deviceLine queues the secret of the device line whose directive w ends
// at j and returns j. It reads the line's words once, to its end, a command
// break or the quote that closes the string it sits in.
func (r *redactor) deviceLine(w string, j int) int {
	s := r.s
	if j < r.lookEnd {
		return j
	}
	q, _ := r.quoteAt(j)
	// key-string and wpa-psk are followed by the secret itself.
	trigger := w == "key-string" || strings.HasPrefix(w, "wpa-")
	k := j
	for n := 0; n < 16; n++ {
		k = skipBlanks(s, k)
		if k >= len(s) || q != 0 && s[k] == q || strings.IndexByte("\n\r;|&)`", s[k]) >= 0 {
			break
		}
		e := wordEnd(s, k, q, false)
		if e == k {
			e = k + 1
		}
		w := s[k:e]
		if trigger {
			if len(w) == 1 && w[0] >= '0' && w[0] <= '9' {
				// The encryption type, when a value follows it.
				if v := skipBlanks(s, e); v < len(s) && strings.IndexByte("\n\r;|&)`", s[v]) < 0 && (q == 0 || s[v] != q) {
					k = e
					continue
				}
			}
			r.queue(k, e, whole)
			k = e
			break
		}
		switch w {
		case "password", "secret", "community", "pre-shared-key":
			trigger = true
		case "key":
			// crypto key generate rsa …: a command, no secret.
			trigger = !strings.HasPrefix(s[skipBlanks(s, e):], "generate")
		}
		k = e
	}
	r.lookEnd = k
	return j
}

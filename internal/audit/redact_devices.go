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
	for _, c := range "uestrckpwniad" {
		t[c] = true
	}
	return t
}()

// deviceDirective reports whether w starts such a line.
func deviceDirective(w string) bool {
	switch w {
	case "username", "enable", "snmp-server", "tacacs-server", "radius-server", "crypto", "ppp",
		"key-string", "wpa-psk", "wpa-password", "wpa-passphrase",
		// Routing daemons' lines (FRR's vtysh, Cisco IOS): neighbor …
		// password, ip ospf authentication-key, isis password,
		// area-password, domain-password.
		"neighbor", "isis", "ip", "ipv6", "area-password", "domain-password":
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
	// key-string, wpa-psk, area-password and domain-password are
	// followed by the secret itself.
	trigger := w == "key-string" || strings.HasPrefix(w, "wpa-") || w == "area-password" || w == "domain-password"
	dir, k := w, j
	for n := 0; n < 48; n++ {
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
			if len(w) == 1 && w[0] >= '0' && w[0] <= '9' || w == "clear" || w == "md5" || w == "hmac-md5" {
				// The encryption type, when a value follows it (isis
				// password clear …, area-password md5 …).
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
		case "password", "secret", "community", "pre-shared-key", "authentication-key", "area-password", "domain-password":
			trigger = true
		case "enc", "auth", "auth-trunc", "aead":
			// ip xfrm state add … enc ALGO KEY auth ALGO KEY: each key
			// after its algorithm; the line may hold two.
			if dir != "ip" {
				break
			}
			a := skipBlanks(s, e)
			if a >= len(s) || q != 0 && s[a] == q || strings.IndexByte("\n\r;|&)`", s[a]) >= 0 {
				break
			}
			v := skipBlanks(s, wordEnd(s, a, q, false))
			if v >= len(s) || q != 0 && s[v] == q || strings.IndexByte("\n\r;|&)`", s[v]) >= 0 {
				break
			}
			e = wordEnd(s, v, q, false)
			r.queue(v, e, whole)
		case "message-digest-key":
			// ip ospf message-digest-key 1 md5 [7] KEY: the id and the
			// algorithm come first.
			if t := skipBlanks(s, e); t < len(s) && s[t] >= '0' && s[t] <= '9' {
				e = shellWordEnd(s, t)
			}
			trigger = true
		case "key":
			switch {
			case dir == "ip" && strings.HasPrefix(s[j:], " macsec "):
				// ip macsec add … sa 0 … key ID KEY: the key after its id.
				if t := skipBlanks(s, e); t < len(s) && strings.IndexByte("\n\r;|&)`", s[t]) < 0 && (q == 0 || s[t] != q) {
					e = wordEnd(s, t, q, false)
				}
				trigger = true
			case dir == "ip":
				// ip tunnel … key 1234: GRE's key is an id, no secret.
			default:
				// crypto key generate rsa …: a command, no secret.
				trigger = !strings.HasPrefix(s[skipBlanks(s, e):], "generate")
			}
		}
		k = e
	}
	r.lookEnd = k
	return j
}

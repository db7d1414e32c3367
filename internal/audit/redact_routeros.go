package audit

import "strings"

// RouterOS names an SNMP community by the community string itself, the
// agent's password: /snmp community add name=S3cret, set [find] name=…,
// set OLD name=NEW, /snmp/community/set …, typed directly or sent over
// ssh. Its menus and arguments may be cut to any unique prefix (/snmp
// comm set 0 na=…), so the menu's and name's spellings are prefixes. Only
// those values go: addresses=, security= and the verb stay readable.

// routerCommands are the community menu's commands; true for those whose
// first unnamed argument picks communities by their names (numbers=).
var routerCommands = []struct {
	name  string
	picks bool
}{
	{"add", false}, {"comment", true}, {"disable", true}, {"edit", true}, {"enable", true},
	{"export", false}, {"find", false}, {"get", true}, {"print", false}, {"remove", true},
	{"reset", true}, {"set", true}, {"unset", true},
}

// routerCommand reads tok as a community menu's command, which RouterOS
// takes cut to a prefix too (a for add).
func routerCommand(tok string) (known, picks bool) {
	for _, c := range routerCommands {
		if strings.HasPrefix(c.name, tok) {
			known, picks = true, picks || c.picks
		}
	}
	return known, picks
}

// routerCommunity queues the community strings of the RouterOS command
// whose word s[i:j] may be the community menu, after /snmp, and returns
// j.
func (r *redactor) routerCommunity(i, j int) int {
	s := r.s
	if j < r.lookEnd || !strings.HasPrefix("community", s[i:j]) || !routerSNMPBefore(s, i) {
		return j
	}
	q, _ := r.quoteAt(j)
	// menu: the menu stood alone on its line (/snmp community⏎set …⏎add
	// …, as /export writes it), so each line after it is its command;
	// depth counts the [ ] a word opens and closes: one that closes more
	// than were opened ends the [/snmp community find] the menu is in.
	k, cmd, verb, unnamed, menu, depth := j, false, false, false, false, 0
	for n := 0; n < 256; n++ {
		for k < len(s) {
			switch {
			case s[k] == ' ' || s[k] == '\t' || s[k] == '/' && !cmd:
			case s[k] == '\\' && k+1 < len(s) && s[k+1] == '\n':
				k++ // a line continued
			case (s[k] == '\n' || s[k] == '\r' || s[k] == ';') && (!cmd || menu):
				menu = menu || !cmd
				cmd, verb, unnamed = false, false, false
				if t := skipBlanks(s, k+1); t < len(s) && (s[t] == '/' || s[t] == ':') {
					r.lookEnd = t // another menu, or a script's own command
					return j
				}
			default:
				goto word
			}
			k++
		}
	word:
		if k >= len(s) || q != 0 && s[k] == q || strings.IndexByte("\n\r;|&)`{}", s[k]) >= 0 {
			break
		}
		e := wordEnd(s, k, q, false)
		if e == k {
			e = k + 1
		}
		tok := s[k:e]
		x := strings.IndexByte(tok, '=')
		switch {
		case x > 0:
			// name=S3cret, [find name=S3cret], na="S 3", numbers=OLD.
			key := strings.TrimLeft(tok[:x], "[")
			v := e
			for v > k+x+1 && (s[v-1] == ']' || s[v-1] == '}') && !strings.ContainsAny(s[k+x+1:v-1], "[{") {
				v-- // the close of [find name=…] or of do={…}
			}
			if k+x+1 < v && (strings.HasPrefix("name", key) ||
				len(key) > 1 && strings.HasPrefix("numbers", key) && !routerItemNumbers(s[k+x+1:v])) {
				r.queue(k+x+1, v, whole)
			}
		case depth > 0 || tok[0] == '[' || tok[len(tok)-1] == ']':
			// A [find …] that picks the items.
		case !cmd:
			var known bool
			cmd = true
			if known, verb = routerCommand(tok); !known {
				r.lookEnd = e // no command of the menu: leave it
				return j
			}
		case verb && !unnamed:
			unnamed = true
			if !routerItemNumbers(tok) {
				r.queue(k, e, whole) // set public name=…: the old community
			}
		}
		if depth += strings.Count(tok, "[") - strings.Count(tok, "]"); depth < 0 {
			k = e // [/snmp community find]: its close ends the command
			break
		}
		k = e
	}
	r.lookEnd = k
	return j
}

// routerSNMPBefore reports whether the word before i, blanks or '/'
// between, is RouterOS's snmp menu (or a prefix of it of two letters or
// more): /snmp, /sn after a blank or a line's start (ssh r /snmp …), or
// snmp that starts a command. A line of /snmp alone enters the menu,
// and the next line's community is in it.
func routerSNMPBefore(s string, i int) bool {
	k := i
	if k == 0 || strings.IndexByte(" \t/\n\r", s[k-1]) < 0 {
		return false
	}
	lines := false
	for k > 0 && strings.IndexByte(" \t/\n\r", s[k-1]) >= 0 {
		lines = lines || s[k-1] == '\n' || s[k-1] == '\r'
		k--
	}
	b := k
	for b > 0 && k-b < 4 && wordByte[s[b-1]] {
		b--
	}
	if k-b < 2 || !strings.HasPrefix("snmp", strings.ToLower(s[b:k])) {
		return false
	}
	if b > 0 && s[b-1] == '/' {
		return b == 1 || strings.IndexByte(" \t\n\r'\";[{", s[b-2]) >= 0 // do={/snmp …}, [/snmp …]
	}
	return !lines && deviceLineAt(s, b)
}

// routerItemNumbers reports whether an unnamed argument picks items by
// their number, id or a variable (0,1, *1A, $c), not by a community.
func routerItemNumbers(tok string) bool {
	if tok[0] == '$' || tok[0] == '*' {
		return true
	}
	for _, c := range tok {
		if (c < '0' || c > '9') && c != ',' {
			return false
		}
	}
	return true
}

// routerAssigned redacts, in the second pass, the value a RouterOS
// script gives the variable s[i:j] (:local p "…", :global p …, :set p …)
// when a secret's place expands it (password=$p, name=$c in the
// community menu), as the shell's p=… is (holdWord), and returns where
// scanning resumes, or 0.
func (r *redactor) routerAssigned(i, j int) int {
	s := r.s
	b := i
	for b > 0 && (s[b-1] == ' ' || s[b-1] == '\t') {
		b--
	}
	if b == i {
		return 0
	}
	a := b
	for a > 0 && s[a-1] >= 'a' && s[a-1] <= 'z' {
		a--
	}
	if a == 0 || s[a-1] != ':' {
		return 0
	}
	switch s[a:b] {
	case "local", "global", "set":
	default:
		return 0
	}
	k := skipBlanks(s, j)
	if k == j || k >= len(s) || strings.IndexByte("\n\r;|&)}]", s[k]) >= 0 {
		return 0
	}
	start, end := r.valueWord(k, false)
	if end <= start {
		return 0
	}
	return r.replace(start, end, Redacted)
}

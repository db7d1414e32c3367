package audit

import "strings"

// A JSON array of strings in a call's arguments may be an argv list
// (["sshpass", "-p", "…", "ssh", "h"], ["--password", "…"]): each string
// alone shows no secret, so the array's items are read in order, as the
// items of a script's argv list are (redact_quoted.go).

// argvList is what an array's items so far say.
type argvList struct {
	prog       *program // the program its items are options of, if any
	secretNext bool     // the next item is a secret option's value
	// wrapped: the list runs another program that a later item names
	// (["sudo", "-u", "x", "mysql", "-p…"], ["docker", "exec", "c",
	// "mysql", …]); so does a list whose first item no rule knows.
	wrapped bool
	first   string // the first item's program name
	// subs are the program's plain items so far (docker login …),
	// for its options that a subcommand qualifies.
	subs []string
}

// hasSub reports whether a plain item so far is the subcommand w.
func (a *argvList) hasSub(w string) bool {
	for _, s := range a.subs {
		if s == w {
			return true
		}
	}
	return false
}

// item notes the string v, the n'th item (from 1), and returns the
// program whose options it is, by whose rules v is to be redacted, or nil.
func (a *argvList) item(v string, n int) *program {
	base := ""
	if v != "" && v[0] != '-' && !strings.ContainsAny(v, " \t\n=") {
		base = v[strings.LastIndexByte(v, '/')+1:]
	}
	switch {
	case n == 1:
		a.first, a.prog = base, lookupProgram(base)
		a.wrapped = a.prog == nil || stdinWrapper(base)
		if a.prog != nil {
			return nil
		}
	case !a.wrapped && subWrapper(a.first, v):
		a.wrapped = true // after global options too: kubectl -n x exec
	case a.wrapped && base != "":
		// The wrapped program, as the shell's words name it after
		// sudo, env, timeout or a container's exec.
		if p := lookupProgram(base); p != nil {
			a.prog, a.wrapped, a.subs = p, false, a.subs[:0]
			return nil
		}
	}
	if n > 1 && base != "" && len(a.subs) < 8 {
		a.subs = append(a.subs, v)
	}
	a.secretNext = len(v) > 1 && v[0] == '-' && !strings.ContainsAny(v, "= \t\n") && secretOption(a.prog, v, a.hasSub) && !holdsValue(a.prog, v)
	return a.prog
}

// takeSecret reports whether the item now read is the value of the
// secret option before it.
func (a *argvList) takeSecret() bool {
	s := a.secretNext
	a.secretNext = false
	return s
}

// secretOption reports whether the option item v takes a secret as the
// next item: by the program's rules, or by its name (--password,
// --api-token).
func secretOption(p *program, v string, hasSub func(string) bool) bool {
	if _, ok := nextItemOption(p, v, hasSub); ok {
		return true
	}
	return !strings.HasPrefix(v, "--no-") && (secretKey(v) != keyNone || flagSecretName(v))
}

// holdsValue reports whether the option item v holds its own value, so
// the item after it is no value of it: a short option of p with its value
// attached (-pS3cret, curl -ubob:pw, or inside a cluster, ldapsearch
// -xwS3cret), a single-dash word of p whose first letter takes a value
// and is no secret option (mysql -hdb.example), or any item with a
// character no option name has (-ubob:pw, -p#x). A secret-sounding value
// (-ppassword) made the next item a secret before, redacting a database
// or host name.
func holdsValue(p *program, v string) bool {
	name := strings.TrimLeft(v, "-")
	if strings.IndexFunc(name, func(c rune) bool {
		return c >= 0x80 || !wordByte[c]
	}) >= 0 {
		return true
	}
	if p == nil || strings.HasPrefix(v, "--") || len(v) < 3 {
		return false
	}
	for _, o := range p.opts {
		if o.name == v && !o.attachedOnly {
			return false // the option itself, -passin
		}
	}
	for _, o := range p.opts {
		if len(v) > len(o.name) && strings.HasPrefix(v, o.name) && (o.attachedOnly || len(o.name) == 2 && !p.noAttach) {
			return true
		}
	}
	if !p.cluster {
		return false
	}
	for x := 1; x < len(v); x++ {
		for _, o := range p.opts {
			if len(o.name) == 2 && o.name[1] == v[x] {
				return x < len(v)-1 // -xwS3cret; -xw takes the next item
			}
		}
		if p.flags != "" && strings.IndexByte(p.flags, v[x]) < 0 {
			return true // mysql -hdb.example: -h's value
		}
	}
	return false
}

// nextItemOption returns p's secret option whose value is the item after
// the option item v: v itself (-p, --password), or the last letter of a
// cluster of short options (ldapsearch -xw, curl -sSu). hasSub says
// whether a subcommand word came before (docker login -p).
func nextItemOption(p *program, v string, hasSub func(string) bool) (option, bool) {
	if p == nil {
		return option{}, false
	}
	for _, o := range p.opts {
		if o.name == v && !o.attachedOnly && (o.sub == "" || hasSub(o.sub)) {
			return o, true
		}
	}
	if !p.cluster || len(v) < 3 || v[0] != '-' || v[1] == '-' {
		return option{}, false
	}
	for x := 1; x < len(v); x++ {
		for _, o := range p.opts {
			if len(o.name) == 2 && o.name[1] == v[x] && (o.sub == "" || hasSub(o.sub)) {
				return o, x == len(v)-1 && !o.attachedOnly
			}
		}
		if p.flags != "" && strings.IndexByte(p.flags, v[x]) < 0 {
			return option{}, false
		}
	}
	return option{}, false
}

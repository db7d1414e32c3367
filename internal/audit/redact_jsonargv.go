package audit

import "strings"

// A JSON array of strings in a call's arguments may be an argv list
// (["sshpass", "-p", "…", "ssh", "h"], ["--password", "…"]): each string
// alone shows no secret, so the array's items are read in order, as the
// items of a script's argv list are (redact_quoted.go).

// argvList is what an array's items so far say.
type argvList struct {
	prog       *program // the program its first item names, if any
	secretNext bool     // the next item is a secret option's value
}

// item notes the string v, the n'th item (from 1), and returns the
// program whose options it is, by whose rules v is to be redacted, or nil.
func (a *argvList) item(v string, n int) *program {
	if n == 1 {
		if base := v[strings.LastIndexByte(v, '/')+1:]; base != "" && !strings.ContainsAny(base, " \t\n=") {
			a.prog = lookupProgram(base)
		}
		if a.prog != nil {
			return nil
		}
	}
	a.secretNext = len(v) > 1 && v[0] == '-' && !strings.ContainsAny(v, "= \t\n") && secretOption(a.prog, v)
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
func secretOption(p *program, v string) bool {
	if p != nil {
		for _, o := range p.opts {
			if o.name == v && !o.attachedOnly && o.sub == "" {
				return true
			}
		}
	}
	return !strings.HasPrefix(v, "--no-") && (secretKey(v) != keyNone || flagSecretName(v))
}

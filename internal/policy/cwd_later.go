package policy

// Code read before it runs: a function's body is classified where it is
// defined and a trap's action where it is set, yet either runs later, in
// whatever directory the script has gone to by then (f() { git status;
// }; cd /tmp/x; f and trap 'make' EXIT; cd /tmp/x run git and make in
// /tmp/x). A program there that takes code from its working directory
// (git's .git/config, a Makefile, a shim's version file) asks agentCwdOf
// whether that directory may be one a tier 1 write filled; asked inside
// such code and answered no, the question is asked again once the whole
// input has been walked, with every cd it makes.

// laterCwd is what code that runs later asked of the working directory.
type laterCwd struct {
	depth int     // function bodies and trap actions being walked
	asked [2]bool // agentCwdOf(false) and agentCwdOf(true) answered no there
}

// ask records that later code asked agentCwdOf(below) and was told no.
func (l *laterCwd) ask(below bool) {
	if below {
		l.asked[1] = true
	} else {
		l.asked[0] = true
	}
}

// laterCwdVerdict raises the tier to 3 when code that runs later took its
// working directory for the operator's, and a cd anywhere in the input
// may make it a temporary one or one known only at run time.
func (e *eval) laterCwdVerdict() {
	for b, asked := range e.later.asked {
		if !asked {
			continue
		}
		if why := e.agentCwdNow(b == 1); why != "" {
			e.opaque = true
			e.note(TierDestructive, false, "a function or trap action runs a program that takes code from its working directory, "+
				"and it may run after a cd: %s", why)
			return
		}
	}
}

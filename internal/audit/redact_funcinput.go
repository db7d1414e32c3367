package audit

// A shell function whose body reads a secret on its input reads it when
// called: f() { chpasswd; }; f <<< 'bob:…', echo … | f, function setpw
// { sudo -S "$@"; }; setpw id <<EOF. The body's group already marks a
// reader (groupSecret); its close, for a function's body, records the
// function's name, and a command that calls it is then a reader as
// chpasswd is. Names are matched however the function is scoped, which
// redacts at worst a call's input more.

// funcDefs is what the redactor keeps for this rule, in stdinState.
type funcDefs struct {
	// def is the function being defined, its body's group not yet
	// open; body is the one whose body is open.
	def, body string
	// readers are the functions whose bodies read a secret on their
	// input, the latest kept when there are more.
	readers [4]string
	n       int
}

// funcName notes the word w, ending at j, when it names a function being
// defined: f() …, f () …, or function f ….
func (r *redactor) funcName(w string, j int, atCmd bool) {
	st := &r.stdin
	if atCmd {
		st.fns.def = ""
		if k := skipBlanks(r.s, j); k+1 < len(r.s) && r.s[k] == '(' && r.s[k+1] == ')' && shellName(w) {
			st.fns.def = w
		}
		return
	}
	if st.cmd == "function" && st.fns.def == "" && st.fns.body == "" && shellName(w) {
		st.fns.def = w
	}
}

// funcBodyOpens is called at a '(' or '{' at i at group depth 0: when it
// opens the body of the function being defined, the body's close will
// tell whether the function reads a secret. It reports whether it did.
func (r *redactor) funcBodyOpens(i int) bool {
	st := &r.stdin
	if st.fns.def == "" || r.s[i] == '(' && i+1 < len(r.s) && r.s[i+1] == ')' {
		return false // f(): the name's parentheses, the body is next
	}
	st.fns.body, st.fns.def = st.fns.def, ""
	return true
}

// funcBodyCloses is called when the outermost group closes: the function
// whose body it was reads a secret when a command inside did.
func (r *redactor) funcBodyCloses() {
	f := &r.stdin.fns
	if f.body == "" {
		return
	}
	if r.stdin.groupSecret && !f.reads(f.body) {
		if f.n == len(f.readers) {
			copy(f.readers[:], f.readers[1:])
			f.n--
		}
		f.readers[f.n] = f.body
		f.n++
	}
	f.body = ""
}

// reads reports whether the function w reads a secret on its input.
func (f *funcDefs) reads(w string) bool {
	for _, n := range f.readers[:f.n] {
		if n == w {
			return true
		}
	}
	return false
}

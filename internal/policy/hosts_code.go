package policy

import (
	"fmt"
	"path"
	"strings"
)

// Code an interpreter runs from its command line (python3 -c, perl -e,
// node -e) names the host it connects to as a string literal as often as
// a URL: socket.create_connection(("169.254.169.254", 80)),
// IO::Socket::INET->new("169.254.169.254:80"). Such code is tier 3
// already; a quoted literal that is a denied host's spelling is denied,
// as a URL in the code is. Only whole literals count, so code that
// merely mentions an address inside longer text keeps its tier.

// codeLiterals denies an interpreter's code — its words, a
// here-document on its standard input, a script file the script wrote —
// holding a quoted literal that names a denied host.
func (e *eval) codeLiterals(args []arg, ctx cctx) {
	if len(e.p.denyHosts) == 0 || len(args) < 1 || !interpreterName(path.Base(args[0].val)) {
		return
	}
	name := path.Base(args[0].val)
	texts := make([]string, 0, len(args))
	for _, a := range args[1:] {
		if a.known {
			texts = append(texts, a.val)
		}
	}
	if ctx.stdin.kind == stdinText {
		texts = append(texts, ctx.stdin.text) // python3 <<'EOF'
	}
	for _, a := range args[1:] {
		if a.known && !strings.HasPrefix(a.val, "-") {
			texts = append(texts, ctx.sc.fileTexts(a.val)...) // a script the script wrote
			break
		}
	}
	for _, v := range texts {
		if e.quotedHostDenied(name, v) {
			return
		}
	}
}

// interpreterName reports whether n names an interpreter, versioned or
// not (python3.12, perl5.36), as normaliseName reads it, without looking
// up a handler: codeLiterals asks for every command.
func interpreterName(n string) bool {
	if interpreters[n] {
		return true
	}
	t := n
	for len(t) > 0 && versionByte(t[len(t)-1]) {
		t = t[:len(t)-1]
	}
	return t != n && t != "" && (interpreters[t] || strings.HasPrefix(n, "python3") || strings.HasPrefix(n, "python2"))
}

// quotedHostDenied denies a quoted literal of code v that names a
// denied host, and reports whether it did.
func (e *eval) quotedHostDenied(name, v string) bool {
	for i := 0; i < len(v); i++ {
		q := v[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		j := i + 1
		for j < len(v) && v[j] != q && v[j] != '\n' {
			j++
		}
		if j < len(v) && v[j] == q {
			if lit := v[i+1 : j]; lit != "" && len(lit) < 256 {
				if r, ok := e.p.hostDenied(lit); ok {
					e.deny(fmt.Sprintf("%s: code names %q, a host denied by host rule %q", name, truncate(lit, 64), r))
					return true
				}
			}
		}
		i = j // an unclosed quote (don't, in a comment) ends at its line
	}
	return false
}

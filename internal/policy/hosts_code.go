package policy

import (
	"fmt"
	"path"
)

// Code an interpreter runs from its command line (python3 -c, perl -e,
// node -e) names the host it connects to as a string literal as often as
// a URL: socket.create_connection(("169.254.169.254", 80)),
// IO::Socket::INET->new("169.254.169.254:80"). Such code is tier 3
// already; a quoted literal that is a denied host's spelling is denied,
// as a URL in the code is. Only whole literals count, so code that
// merely mentions an address inside longer text keeps its tier.

// codeLiterals denies an interpreter's word holding a quoted literal
// that names a denied host.
func (e *eval) codeLiterals(args []arg) {
	if len(e.p.denyHosts) == 0 || len(args) < 2 || !interpreters[normaliseName(path.Base(args[0].val))] {
		return
	}
	for _, a := range args[1:] {
		if !a.known {
			continue
		}
		v := a.val
		for i := 0; i < len(v); i++ {
			q := v[i]
			if q != '"' && q != '\'' && q != '`' {
				continue
			}
			j := i + 1
			for j < len(v) && v[j] != q && v[j] != '\n' {
				j++
			}
			if j >= len(v) || v[j] != q {
				break
			}
			if lit := v[i+1 : j]; lit != "" && len(lit) < 256 {
				if r, ok := e.p.hostDenied(lit); ok {
					e.deny(fmt.Sprintf("%s: code names %q, a host denied by host rule %q", path.Base(args[0].val), truncate(lit, 64), r))
					return
				}
			}
			i = j
		}
	}
}

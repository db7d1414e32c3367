package policy

import "strings"

// curl 8.3's variables: --variable NAME=VALUE sets one, and an
// --expand-OPTION value has {{NAME}} (or {{NAME:function}}) replaced by
// it, so --variable h=169.254.169.254 --expand-url http://{{h}}/ goes to
// that host. Such a value is tier 3 already (its host is computed); when
// every variable it names has a literal value, the expanded text meets
// the host rules and a denied host is denied.

// curlExpanded applies the host rules to curl's --expand-* values with
// the literal --variable values substituted.
func (c *call) curlExpanded() {
	if len(c.e.p.denyHosts) == 0 || !argsHavePrefix(c.args, "--expand-") {
		return
	}
	vars := map[string]string{}
	for _, v := range c.optVals(c.args, "--variable") {
		if n, val, ok := strings.Cut(v.val, "="); v.known && ok && !strings.HasPrefix(n, "%") {
			vars[n] = val
		}
	}
	for i, a := range c.args {
		name, val, eq := strings.Cut(a.val, "=")
		if !a.known || !strings.HasPrefix(name, "--expand-") {
			continue
		}
		if !eq {
			if i+1 >= len(c.args) || !c.args[i+1].known {
				continue
			}
			val = c.args[i+1].val
		}
		if x, ok := curlExpand(val, vars); ok {
			c.forwardSpec(name, x)
		}
	}
}

// curlExpand replaces each {{NAME}} or {{NAME:function}} in v with the
// variable's value; it fails when one has none.
func curlExpand(v string, vars map[string]string) (string, bool) {
	var b strings.Builder
	for {
		i := strings.Index(v, "{{")
		if i < 0 {
			b.WriteString(v)
			return b.String(), true
		}
		j := strings.Index(v[i:], "}}")
		if j < 0 {
			b.WriteString(v)
			return b.String(), true
		}
		n, _, _ := strings.Cut(v[i+2:i+j], ":")
		val, ok := vars[n]
		if !ok {
			return "", false
		}
		b.WriteString(v[:i])
		b.WriteString(val)
		v = v[i+j+2:]
	}
}

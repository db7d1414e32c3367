package policy

import "strings"

// configSetPrograms are the programs a CLI's config set stores for its
// later runs to start: gh's and glab's editor, pager and browser, a
// kubeconfig user's exec credential plugin (kubectl config
// set-credentials --exec-command, kubectl config set
// users.NAME.exec.command), and aws's credential_process. gh's, glab's
// and aws's are command lines, split into words as a shell would.
func (c *call) configSetPrograms() []arg {
	// The words after config (aws: configure) that are not options:
	// global options before it may take values (aws --profile p).
	sub := "config"
	if c.name == "aws" {
		sub = "configure"
	}
	var ops []arg
	for i, a := range c.args {
		if !a.known || a.val != sub {
			continue
		}
		rest := c.args[i+1:]
		for j := 0; j < len(rest); j++ {
			b := rest[j]
			switch {
			case b.known && (b.val == "-h" || b.val == "--host"):
				j++ // gh config set -h HOST KEY VALUE
			case !b.known || !strings.HasPrefix(b.val, "-"):
				ops = append(ops, b)
			}
		}
		break
	}
	if len(ops) < 1 {
		return nil
	}
	if !ops[0].known {
		return []arg{ops[0]}
	}
	var out []arg
	switch verb := ops[0].val; {
	case c.name == "kubectl" && verb == "set-credentials":
		out = append(out, exactOptVals(c.args, "--exec-command")...)
	case verb == "set" && len(ops) >= 3:
		key, val := ops[1], ops[2]
		if !key.known {
			return []arg{key}
		}
		k := strings.ToLower(key.val)
		switch c.name {
		case "gh", "glab":
			if k == "editor" || k == "pager" || k == "browser" {
				out = append(out, val)
			}
		case "kubectl":
			if strings.HasPrefix(k, "users.") && strings.HasSuffix(k, ".exec.command") {
				out = append(out, val)
			}
		case "aws":
			if k == "credential_process" || strings.HasSuffix(k, ".credential_process") {
				out = append(out, val)
			}
		}
	}
	return out
}

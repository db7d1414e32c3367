package declare

import (
	"slices"
	"strings"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/shellword"
)

// secretValues returns the call's parameter values that the command as
// rendered holds at a secret's place: the audit record keeps a tool's
// arguments, not its command, and a parameter named plainly (`p`, `v`)
// is no secret to a reader of the arguments alone, though the template
// makes it one (`mysql -p{{ .p }}`, `sshpass -p {{ .v }}`, run.env's
// `PGPASSWORD={{ .v }}`). A value is one when redacting the command (and
// the templated environment, read as assignments) removes every place it
// stood; a value also kept somewhere (a user name, a port) is not.
func (p *Prepared) secretValues(args map[string]any) []string {
	var text strings.Builder
	text.WriteString(p.Policy.Command)
	names := make([]string, 0, len(p.Policy.Env))
	for k := range p.Policy.Env {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		text.WriteString("\nexport " + k + "=" + shellword.Quote(p.Policy.Env[k]))
	}
	src := text.String()
	red := audit.Redact(src)
	if red == src {
		return nil
	}
	var out []string
	values := stringValues(args)
	// A secret inside a value of several words (a split parameter's
	// "-p … ssh h", an array's element) is the part the redaction found,
	// as the shell reads it.
	for _, f := range audit.SecretsIn(src) {
		f = unquoteSingle(f)
		if len(f) >= 4 && !slices.Contains(out, f) && slices.ContainsFunc(values, func(v string) bool { return v != f && strings.Contains(v, f) }) {
			out = append(out, f)
		}
	}
	for _, v := range values {
		if v == "" || slices.Contains(out, v) {
			continue
		}
		// The value as each quoting context writes it.
		forms := []string{v, strings.ReplaceAll(v, "'", `'\''`), escapeDouble(v)}
		in := slices.ContainsFunc(forms, func(f string) bool { return strings.Contains(src, f) })
		kept := slices.ContainsFunc(forms, func(f string) bool { return strings.Contains(red, f) })
		if in && !kept {
			out = append(out, v)
		}
	}
	return out
}

// stringValues are the texts of a call's arguments: strings and the
// elements of arrays.
func stringValues(args map[string]any) []string {
	var out []string
	for _, v := range args {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, e := range x {
				if s, ok := e.(string); ok {
					out = append(out, s)
				}
			}
		case []string:
			out = append(out, x...)
		}
	}
	return out
}

// unquoteSingle returns a text the redaction found as the shell reads it
// when it is one single-quoted word, a quote inside written as the four
// bytes quote, backslash, quote, quote.
func unquoteSingle(f string) string {
	if len(f) < 2 || f[0] != '\'' || f[len(f)-1] != '\'' {
		return f
	}
	inner := strings.ReplaceAll(f[1:len(f)-1], `'\''`, "'")
	if strings.Contains(inner, "'") && !strings.Contains(f, `'\''`) {
		return f // several quoted parts: not one word
	}
	return inner
}

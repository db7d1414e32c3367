package declare

import (
	"fmt"
	"slices"
)

// hostileValue is the string every string parameter takes in validate's
// second render: it breaks out of any naive interpolation, so a command
// that could not quote it fails validation rather than a call.
const hostileValue = "'; id; '$(id)`id`\n\"x\"${IFS}$((1))}\\"

// sampleValues are values of every type, for validate: the defaults where
// given, and for strings a hostile value.
func sampleValues(t *Tool, hostile bool) map[string]any {
	vals := map[string]any{}
	for _, p := range t.Params {
		var v any
		switch p.Type {
		case TypeString:
			v = "/srv/sample"
			if hostile {
				v = hostileValue
			}
			if p.Raw {
				v = "sample"
			}
			if p.Split && hostile {
				v = `a 'b c' "d\"e" $(id) ;`
			}
		case TypeInteger:
			v = int64(1)
		case TypeNumber:
			v = 1.5
		case TypeBoolean:
			v = true
		case TypeArray:
			v = []string{"-l", "/srv/sample dir"}
			if hostile {
				v = []string{hostileValue, "", "*"}
			}
		}
		if p.Default != nil && !hostile {
			v, _ = typedValue(p, p.Default)
		}
		vals[p.Name] = v
	}
	return vals
}

// Validate renders every template of the tool with sample values and
// with hostile ones, reporting the first that fails: a command that is
// not valid shell, a value that lands where it cannot be quoted, a
// function that fails.
func (t *Tool) Validate() error {
	_, _, err := t.check()
	return err
}

// EnvRead returns the names the tool's templates read with env that it
// does not list in run.env: they render empty unless the operator lists
// them in exec.env_passthrough.
func (t *Tool) EnvRead() []string {
	names, _, _ := t.check()
	return names
}

func (t *Tool) check() ([]string, []string, error) {
	var read, notes []string
	env := Env{Any: true, Read: &read, Notes: &notes}
	for _, hostile := range []bool{false, true} {
		vals := sampleValues(t, hostile)
		if _, err := t.Run.Command.Render(vals, env); err != nil {
			return nil, nil, fmt.Errorf("run.command: %v", err)
		}
		if t.Prefix != nil {
			if _, err := t.Prefix.Render(vals, Env{Shown: true}); err != nil {
				return nil, nil, fmt.Errorf("output.prefix: %v", err)
			}
		}
		for _, e := range t.Run.Env {
			if e.Value != nil {
				if _, err := e.Value.Render(vals, env); err != nil {
					return nil, nil, fmt.Errorf("run.env %s: %v", e.Name, err)
				}
			}
		}
		for _, r := range t.Run.Runners {
			for name, tm := range r.optTemplates {
				if _, err := tm.Render(vals, env); err != nil {
					return nil, nil, fmt.Errorf("runner %s option %s: %v", r.Name, name, err)
				}
			}
			for name, tms := range r.listTmpls {
				for _, tm := range tms {
					if _, err := tm.Render(vals, env); err != nil {
						return nil, nil, fmt.Errorf("runner %s option %s: %v", r.Name, name, err)
					}
				}
			}
		}
	}
	var out []string
	for _, name := range read {
		listed := slices.ContainsFunc(t.Run.Env, func(e EnvVar) bool { return e.Name == name && e.Value == nil })
		if !listed && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	slices.Sort(notes)
	return out, slices.Compact(notes), nil
}

// Hints are advice for a tool that loads: MCPShell behaviour warden does
// not copy silently.
func (t *Tool) Hints() []string {
	var out []string
	env, notes, _ := t.check()
	for _, name := range env {
		out = append(out, fmt.Sprintf("env %q is read but not listed in run.env: calls fail unless warden.yaml lists it in exec.env_passthrough", name))
	}
	out = append(out, notes...)
	for _, p := range t.Params {
		if p.SplitByName {
			out = append(out, fmt.Sprintf("params.%s: split into words as MCPShell's shell split it (\"-l -a\" is two arguments; quotes group, nothing expands or runs); `split: false` passes it as one argument", p.Name))
		}
	}
	return out
}

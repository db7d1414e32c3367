package declare

import (
	"fmt"
	"strconv"
	"strings"
)

// A runner option is a template too, and a parameter's value printed in
// it must stay the one value it is, as it does in run.command: options
// that are shell text quote it for its place, and the others refuse the
// characters that would make it more than one value of the option's own
// syntax.

// shellOptions are the runner options that are shell text: docker's
// prepare_command, which the container's /bin/sh runs before the
// command, and docker_run_opts, which is split as shell words. A value
// pasted into either unquoted ran as code (`echo {{ .name }}` with
// "; touch f") or became other options ("x --read-only").
var shellOptions = map[string]bool{"prepare_command": true, "docker_run_opts": true}

// profileOptions are sandbox profiles written as text: firejail's lines,
// Seatbelt's S-expressions. A line end in a value adds a directive, and a
// parenthesis or quote a Seatbelt rule.
var profileOptions = map[string]bool{"custom_profile": true}

// shellTemplate is how a shell template of t renders: in the dialect of
// shell, with the tool's raw and split parameters.
func shellTemplate(t *Tool, shell string) TemplateOptions {
	o := TemplateOptions{Shell: true, ShellPath: shell, Raw: map[string]bool{}, Split: map[string]bool{}, Option: map[string]bool{}, Default: map[string]any{}}
	for _, pm := range t.Params {
		o.Raw[pm.Name] = pm.Raw
		o.Split[pm.Name] = pm.Split
		o.Option[pm.Name] = pm.Option || pm.Split || pm.Type == TypeArray && argListName(pm.Name)
		o.Default[pm.Name] = pm.Default
	}
	return o
}

// optionTemplate is how the template of runner option name renders.
// prepare_command runs as `/bin/sh -c`, so it is POSIX shell whatever
// mcp.run.shell says.
//
// Only prepare_command may read warden's environment, as run.command
// does, by reference: every other option is written into the sandbox
// program's command line (docker run --hostname=…, bwrap --bind …) or
// its profile, where every local process could read the value.
func optionTemplate(name string, t *Tool) TemplateOptions {
	var o TemplateOptions
	switch {
	case shellOptions[name]:
		o = shellTemplate(t, "/bin/sh")
	case profileOptions[name]:
		o = TemplateOptions{Check: profileValue}
	default:
		o = TemplateOptions{Check: optionValue}
	}
	if name != "prepare_command" {
		o.NoEnv = "runner option " + name + " is written into the sandbox program's command line or profile, which every local process can read; list the variable in run.env and let the command (or docker's prepare_command) read it"
	}
	return o
}

// optionValue refuses a value with a control character: no option takes
// one, and a line end would start another entry wherever the option is
// written as lines.
func optionValue(v string) error {
	if i := strings.IndexFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }); i >= 0 {
		return fmt.Errorf("value holds the control character %q", v[i])
	}
	return nil
}

// profileValue refuses, besides control characters, what would end a
// Seatbelt string or expression, unless the action printed one string
// quoted whole (`{{ .v | quote }}`), whose quotes and backslashes are
// escaped as Seatbelt reads them.
func profileValue(v string) error {
	if err := optionValue(v); err != nil {
		return err
	}
	if _, err := strconv.Unquote(v); err == nil && strings.HasPrefix(v, `"`) {
		return nil
	}
	if i := strings.IndexAny(v, `()"\;`); i >= 0 {
		return fmt.Errorf("value holds %q, which a sandbox profile would read as its own syntax", v[i])
	}
	return nil
}

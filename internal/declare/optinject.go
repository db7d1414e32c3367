package declare

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A value that starts a word of a command's arguments is read by the
// program as an option when it starts with '-': quoting keeps it one
// word, not an operand. `grep {{ .pattern }} f` with "-f/etc/shadow",
// `tar -cf a.tar {{ .path }}` with "--checkpoint-action=exec=sh x",
// `rsync {{ .src }} d` with "-e sh -c …", `find {{ .dir }}` with
// "-exec", `ssh {{ .host }}` with "-oProxyCommand=…", `sort {{ .f }}`
// with "-o/etc/passwd" all let the agent choose what the program does. A
// call is refused when such a value lands there, unless
//
//   - the template puts it after a `--` word of the same command, which
//     ends the options;
//   - it is attached to an option or other text (--name={{ .x }},
//     x{{ .x }}), which makes it that option's value;
//   - the parameter says it holds options: `option: true`, a split
//     parameter ({{ .args }}, `split: true`), an array with an
//     argument-list name, or its value is the operator's default;
//   - the command is test, [ or echo, whose options run nothing;
//   - the command is printf or a shell, which read options only before
//     their first operand (the format, the script), and one comes
//     before the value; or it is the value of a builtin's option that
//     takes one (read -p {{ .prompt }}).
//
// A value after any other program's option (grep -e {{ .p }}) is
// refused all the same: whether that option takes a value is the
// program's to say (grep -i does not). Attach it instead: -e{{ .p }}.
//
// Integers and numbers are printed as they are, never refused (-5).
// Pagers and editors also read a leading '+' as a command to run (less
// +!cmd, vim +'!cmd'), so for them '+' counts as well.

// optionFree are commands whose arguments may start with '-' harmlessly.
var optionFree = map[string]bool{"test": true, "[": true, "echo": true}

// operandsEnd are commands that read options only before their first
// operand: printf's format, a shell's script or -c command string; the
// words after it are the format's arguments or the script's parameters.
var operandsEnd = map[string]bool{"printf": true}

// builtinValueOpts are the options of shell builtins that take the next
// word as their value.
var builtinValueOpts = map[string]string{"read": "adinNptu", "mapfile": "dnOstuCc", "readarray": "dnOstuCc"}

// plusCommands read a word starting with '+' as a command of their own.
var plusCommands = map[string]bool{"less": true, "more": true, "most": true, "vi": true, "vim": true, "nvim": true, "view": true, "rvim": true, "ex": true, "emacs": true, "nano": true}

// optionPosition reports whether the value whose sentinel starts at start
// (stack: the nodes down to its Lit or SglQuoted) begins an argument word
// of a simple command, with no `--` word before it, and names the
// command.
func optionPosition(stack []syntax.Node, s string, start int) (string, bool) {
	for i := len(stack) - 2; i >= 1; i-- {
		switch stack[i].(type) {
		case *syntax.DblQuoted, *syntax.SglQuoted:
			continue
		case *syntax.Word:
		default:
			return "", false
		}
		w := stack[i].(*syntax.Word)
		call, ok := stack[i-1].(*syntax.CallExpr)
		if !ok {
			return "", false
		}
		idx := slices.Index(call.Args, w)
		off := int(w.Pos().Offset())
		if idx < 1 || off > start || strings.Trim(strings.ReplaceAll(s[off:start], "$'", ""), `"'`) != "" {
			return "", false
		}
		return optionCommand(call, idx)
	}
	return "", false
}

// optionCommand reports whether the argument idx of call (idx ≥ 1) would
// be read as an option when it starts with '-', and names the command.
func optionCommand(call *syntax.CallExpr, idx int) (string, bool) {
	name, _ := litText(call.Args[0])
	name = strings.TrimSuffix(name[strings.LastIndexByte(name, '/')+1:], ".exe")
	if optionFree[name] {
		return "", false
	}
	for j, a := range call.Args[1:idx] {
		t, lit := litText(a)
		if lit && t == "--" {
			return "", false
		}
		// An operand before: printf's format, a shell's script.
		if (operandsEnd[name] || shells[name]) && (!lit || !strings.HasPrefix(t, "-")) && !(j > 0 && shells[name] && isShellValueOpt(call.Args[j])) {
			return "", false
		}
	}
	if prev, ok := litText(call.Args[idx-1]); ok && len(prev) == 2 && prev[0] == '-' && strings.IndexByte(builtinValueOpts[name], prev[1]) >= 0 {
		return "", false // read -p {{ .prompt }}
	}
	if name == "" {
		name = "the command"
	}
	return name, true
}

// optionStart reports whether w would be read as an option by prog.
func optionStart(w, prog string) bool {
	return len(w) > 1 && (w[0] == '-' || w[0] == '+' && plusCommands[prog])
}

// checkOption refuses a value that would be an option of prog.
func checkOption(p placeholder, prog string) error {
	if p.mayOpt || p.from == "" {
		return nil
	}
	texts := []string{p.text}
	if p.isWords {
		texts = p.words
	}
	for _, w := range texts {
		if w == "--" && p.name != "" {
			return nil // an array's own "--": the rest are operands
		}
		if optionStart(w, prog) {
			return fmt.Errorf("parameter %s starts an argument of %s with %q, which %s would read as an option; refused (the tool's command can put the value after `--`, attach it to its option as --name={{ .%s }}, or declare the parameter option: true)", p.from, prog, w[:1], prog, p.from)
		}
	}
	return nil
}

// optionSource sets where a printed value comes from, for checkOption:
// the parameter printed unchanged, or, for any other text (a function's
// result, `{{ .x | quote }}`), a parameter whose value the call chose
// starts with '-' or '+' and is found in the text (or the text in it, case
// aside: upper, trunc, trim). A parameter that may be an option, and a
// value that is its parameter's default, chosen by the operator, count
// for nothing.
func (r *renderer) optionSource(p *placeholder) {
	if r.anyOption {
		return
	}
	if p.name != "" {
		p.from = p.name
		p.mayOpt = r.opts.Option[p.name] || !p.isWords && isDefault(r.opts.Default[p.name], p.text)
		return
	}
	texts := []string{p.text}
	if p.isWords {
		texts = p.words
	}
	names := make([]string, 0, len(r.data))
	for name := range r.data {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, w := range texts {
		if len(w) < 2 || w[0] != '-' && w[0] != '+' {
			continue
		}
		lw := strings.ToLower(w)
		for _, name := range names {
			if r.opts.Option[name] {
				continue
			}
			var vals []string
			switch v := r.data[name].(type) {
			case string:
				vals = []string{v}
			case []string:
				vals = v
			}
			for _, v := range vals {
				if isDefault(r.opts.Default[name], v) {
					continue
				}
				v = strings.ToLower(strings.TrimSpace(v))
				if len(v) < 2 || v[0] != '-' && v[0] != '+' {
					continue
				}
				if strings.Contains(lw, v) || strings.Contains(v, lw) {
					p.from = name
					return
				}
			}
		}
	}
}

// isDefault reports whether v is the parameter's default, def.
func isDefault(def any, v string) bool {
	d, ok := def.(string)
	return ok && d == v
}

// isShellValueOpt reports whether w is a shell option that takes the next
// word (-o NAME, +o NAME, -O NAME), which is then no operand.
func isShellValueOpt(w *syntax.Word) bool {
	t, ok := litText(w)
	return ok && (t == "-o" || t == "+o" || t == "-O" || t == "+O")
}

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// spec is one subcommand as its help, the completion scripts and the test
// over every subcommand see it. Every subcommand has the same shape:
// -h/--help prints its usage and examples to stdout and exits 0, an
// unknown flag or a bad flag value is one line on stderr and exit 2.
type spec struct {
	// name is the command path after "warden", e.g. "audit tail".
	name string
	// args is the synopsis of the positional arguments, e.g. "[FILE…]".
	args string
	// summary says what the command does, in a sentence or two.
	summary  string
	examples []string
	// flags declares the command's flags on fs; nil means none.
	flags func(fs *flag.FlagSet)
	// files: the positional arguments are file names (for completion).
	files bool
	// firstArgEndsFlags: flags come before the first positional argument
	// only (exe, whose NAME=VALUE arguments are the tool's).
	firstArgEndsFlags bool
}

// group is a command that only names subcommands (audit, config, …).
type group struct {
	name, summary string
}

func groups() []group {
	return []group{
		{"config", "Check the configuration."},
		{"audit", "Verify and read the audit log."},
		{"session", "Review recorded interactive sessions."},
		{"token", "Manage named bearer tokens of the HTTP transport."},
		{"lockout", "Read and edit a running server's lockout table."},
		{"approvals", "List and answer the calls waiting for an operator's approval."},
		{"completion", "Print a shell completion script."},
	}
}

// commands is every subcommand, in the order help lists them.
func commands() []spec {
	return []spec{
		{name: "serve", summary: "Serve MCP over stdio, or over streamable HTTP with --http.",
			examples: []string{"warden serve", "warden serve --http 127.0.0.1:8787", "warden serve --config /etc/warden/warden.yaml --tools /etc/warden/tools"},
			flags:    func(fs *flag.FlagSet) { serveFlags(fs) }},
		{name: "doctor", summary: "Check this machine and configuration. Confinement, sandboxes, state dir and token file modes, the audit chain and SSH hosts, each finding explained; with --url, whether the server there runs the config on disk. Exits 1 when a check fails.",
			examples: []string{"warden doctor", "warden doctor --url http://127.0.0.1:8787/mcp"},
			flags:    func(fs *flag.FlagSet) { doctorFlags(fs) }},
		{name: "config check", args: "[FILE]", files: true,
			summary:  "Validate a configuration exactly as serve does. Every problem is reported at once; regexes are compiled, files opened and declarative tools loaded. Prints the effective configuration with secrets masked; exits 1 on any problem.",
			examples: []string{"warden config check", "warden config check /etc/warden/warden.yaml"},
			flags:    func(fs *flag.FlagSet) { configCheckFlags(fs) }},
		{name: "validate", args: "FILE…", files: true,
			summary:  "Check declarative tool files. Strict keys, known runners, CEL that compiles, templates that render, commands that parse as shell. --fix writes keys MCPShell ignored, moved where they belong, to FILE.fixed.yaml.",
			examples: []string{"warden validate tools.yaml", "warden validate /etc/warden/tools/*.yaml", "warden validate --fix mcpshell-tools.yaml"},
			flags:    func(fs *flag.FlagSet) { validateFlags(fs) }},
		{name: "tools", summary: "List the declarative tools and whether each can run here. For each: the runner it would use, or why none is available.",
			examples: []string{"warden tools --tools ./tools"},
			flags:    func(fs *flag.FlagSet) { toolsFlags(fs) }},
		{name: "exe", args: "TOOL [NAME=VALUE…]", firstArgEndsFlags: true,
			summary:  "Run one tool once. The call goes through the same policy, approval, bounds and audit as under serve; warden exits with its status.",
			examples: []string{"warden exe run_command command='uptime'", "warden exe --tools ./tools disk_usage path=/srv"},
			flags:    func(fs *flag.FlagSet) { exeFlags(fs) }},
		{name: "audit verify", args: "[FILE…]", files: true,
			summary:  "Verify the audit log's hash chain. Any edit, insertion, deletion or reordering is found, and records cut from the end against the head file or an --anchor kept elsewhere.",
			examples: []string{"warden audit verify", "warden audit verify ~/.local/state/warden/audit.jsonl", "warden audit verify --anchor 8123:5f0c…"},
			flags:    func(fs *flag.FlagSet) { auditVerifyFlags(fs) }},
		{name: "audit tail", args: "[FILE…]", files: true,
			summary:  "Print the last audit records as JSON lines, oldest first.",
			examples: []string{"warden audit tail -n 5", "warden audit tail --decision denied --tool run_command"},
			flags:    func(fs *flag.FlagSet) { auditTailFlags(fs) }},
		{name: "session list", summary: "List recorded interactive sessions.",
			examples: []string{"warden session list"},
			flags:    func(fs *flag.FlagSet) { sessionFlags(fs) }},
		{name: "session show", args: "ID", summary: "Print a recorded session as text.",
			examples: []string{"warden session show 3f2a…"},
			flags:    func(fs *flag.FlagSet) { sessionFlags(fs) }},
		{name: "token new", args: "NAME", summary: "Create a named bearer token and print its secret, once.",
			examples: []string{"warden token new laptop --scope warden:operate"},
			flags:    func(fs *flag.FlagSet) { tokenFlags(fs) }},
		{name: "token list", summary: "List the named bearer tokens (never their secrets).",
			examples: []string{"warden token list"},
			flags:    func(fs *flag.FlagSet) { tokenFlags(fs) }},
		{name: "token revoke", args: "NAME", summary: "Revoke a named bearer token. A running server stops accepting it.",
			examples: []string{"warden token revoke laptop"},
			flags:    func(fs *flag.FlagSet) { tokenFlags(fs) }},
		{name: "lockout list", summary: "List the addresses a running server has locked out.",
			examples: []string{"warden lockout list"}},
		{name: "lockout delete", args: "ADDR", summary: "Lift one lockout.",
			examples: []string{"warden lockout delete 192.0.2.7"}},
		{name: "lockout flush", summary: "Lift every lockout.",
			examples: []string{"warden lockout flush"}},
		{name: "approvals list", summary: "List the calls waiting for an operator's approval in every warden serving this state dir (the default subcommand).",
			examples: []string{"warden approvals", "warden approvals list --json"},
			flags:    func(fs *flag.FlagSet) { approvalsFlags(fs, false) }},
		{name: "approvals show", args: "ID", summary: "Show one waiting call: tool, host, tier, why it needs approval, who asked, its redacted arguments and digest.",
			examples: []string{"warden approvals show 9c1e…"},
			flags:    func(fs *flag.FlagSet) { approvalsFlags(fs, false) }},
		{name: "approvals approve", args: "ID", summary: "Approve one waiting call: it runs once, and the audit log names you as its approver. The answer is bound to the call shown by show.",
			examples: []string{"warden approvals approve 9c1e…", "warden approvals approve 9c1e… --reason 'planned cleanup'"},
			flags:    func(fs *flag.FlagSet) { approvalsFlags(fs, true) }},
		{name: "approvals deny", args: "ID", summary: "Deny one waiting call: the agent gets denied with your reason.",
			examples: []string{"warden approvals deny 9c1e… --reason 'not on the production database'"},
			flags:    func(fs *flag.FlagSet) { approvalsFlags(fs, true) }},
		{name: "watch", args: "SESSION", summary: "Follow a live session's output as it happens, read-only, from its start until it ends. Plain text unless --raw. --takeover also types stdin into it (console.takeover, audited).",
			examples: []string{"warden watch 3f2a…", "warden watch --raw 3f2a…", "warden watch --takeover 3f2a…"},
			flags:    func(fs *flag.FlagSet) { watchFlags(fs) }},
		{name: "completion bash", summary: "Print the bash completion script.",
			examples: []string{"source <(warden completion bash)", "warden completion bash > /etc/bash_completion.d/warden"}},
		{name: "completion zsh", summary: "Print the zsh completion script.",
			examples: []string{"source <(warden completion zsh)   # after compinit", "warden completion zsh > \"${fpath[1]}/_warden\""}},
		{name: "completion fish", summary: "Print the fish completion script.",
			examples: []string{"warden completion fish > ~/.config/fish/completions/warden.fish"}},
		{name: "version", summary: "Print the version, commit and commit time of this binary.",
			examples: []string{"warden version"}},
	}
}

// lookup returns the spec of a command path.
func lookup(name string) spec {
	for _, s := range commands() {
		if s.name == name {
			return s
		}
	}
	panic("no spec for " + name)
}

// parseArgs parses args with the flags s declares on fs (fs must have
// been declared with s.flags' function) and returns the positional
// arguments. Flags may come before or after them; "--" ends flags. ok is
// false when the caller must return code: 0 after help, 2 after a usage
// error reported on one line.
func parseArgs(s spec, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (rest []string, code int, ok bool) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			printHelp(stdout, s, fs)
			return nil, 0, false
		}
		if err != nil {
			usageError(stderr, s.name, flagMessage(err))
			return nil, 2, false
		}
		if fs.NArg() == 0 {
			return rest, 0, true
		}
		if i := len(args) - fs.NArg() - 1; s.firstArgEndsFlags || (i >= 0 && args[i] == "--") {
			return append(rest, fs.Args()...), 0, true
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// flags declares s's flags on a new set.
func (s spec) flagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("warden "+s.name, flag.ContinueOnError)
	if s.flags != nil {
		s.flags(fs)
	}
	return fs
}

// parse is parseArgs for a command whose flags are only read through the
// spec (the set is built here).
func (s spec) parse(args []string, stdout, stderr io.Writer) (*flag.FlagSet, []string, int, bool) {
	fs := s.flagSet()
	rest, code, ok := parseArgs(s, fs, args, stdout, stderr)
	return fs, rest, code, ok
}

// usageError reports a usage error on one line.
func usageError(stderr io.Writer, name, msg string) {
	fmt.Fprintf(stderr, "warden %s: %s (see 'warden %s --help')\n", name, msg, name)
}

var flagNameRE = regexp.MustCompile(`(^|[ :])-([A-Za-z][\w-]+)`)

// flagMessage rewrites the flag package's errors in the form the help
// shows flags in: --name for long flags.
func flagMessage(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		msg = "unknown flag " + name
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		msg = name + " needs a value"
	}
	msg = strings.Replace(msg, "for flag ", "for ", 1)
	msg = strings.Replace(msg, ": parse error", ": not a number", 1)
	return flagNameRE.ReplaceAllString(msg, "$1--$2")
}

// flagName is how help and completion write a flag: -n, --config.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// printHelp writes a command's usage, flags and examples.
func printHelp(w io.Writer, s spec, fs *flag.FlagSet) {
	synopsis := "warden " + s.name
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		synopsis += " [flags]"
	}
	if s.args != "" {
		synopsis += " " + s.args
	}
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", synopsis, wrap(s.summary, 76))
	fmt.Fprintf(w, "\nFlags:\n")
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		head := flagName(f.Name)
		if arg != "" {
			head += " " + strings.ToUpper(arg)
		}
		if e, ok := f.Value.(*enumFlag); ok {
			usage += " (" + strings.Join(e.allowed, ", ") + ")"
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "0s" && f.DefValue != "[]" {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "  %-24s %s\n", head, usage)
	})
	fmt.Fprintf(w, "  %-24s %s\n", "-h, --help", "show this help")
	if len(s.examples) > 0 {
		fmt.Fprintf(w, "\nExamples:\n")
		for _, e := range s.examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
}

// wrap breaks text into lines of at most width characters.
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(text) {
		if i > 0 && n+1+len(word) > width {
			b.WriteByte('\n')
			n = 0
		} else if i > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += len(word)
	}
	return b.String()
}

// runGroup dispatches a group's subcommands: help for the group itself,
// one line and exit 2 for a missing or unknown subcommand.
func runGroup(name string, args []string, stdout, stderr io.Writer, run func(sub string, args []string) int) int {
	var subs []spec
	for _, s := range commands() {
		if strings.HasPrefix(s.name, name+" ") {
			subs = append(subs, s)
		}
	}
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		printGroupHelp(stdout, name, subs)
		return 0
	}
	if len(args) == 0 {
		usageError(stderr, name, "missing subcommand: "+strings.Join(subNames(subs), ", "))
		return 2
	}
	if !slices.Contains(subNames(subs), args[0]) {
		if strings.HasPrefix(args[0], "-") {
			usageError(stderr, name, "unknown flag "+args[0]+"; a subcommand comes first: "+strings.Join(subNames(subs), ", "))
		} else {
			usageError(stderr, name, fmt.Sprintf("unknown subcommand %q: %s", args[0], strings.Join(subNames(subs), ", ")))
		}
		return 2
	}
	return run(args[0], args[1:])
}

func subNames(subs []spec) []string {
	var names []string
	for _, s := range subs {
		names = append(names, s.name[strings.LastIndexByte(s.name, ' ')+1:])
	}
	return names
}

func printGroupHelp(w io.Writer, name string, subs []spec) {
	summary := ""
	for _, g := range groups() {
		if g.name == name {
			summary = g.summary
		}
	}
	fmt.Fprintf(w, "Usage: warden %s COMMAND [flags]\n\n%s\n\nCommands:\n", name, summary)
	for _, s := range subs {
		fmt.Fprintf(w, "  %-22s %s\n", strings.TrimPrefix(s.name, name+" ")+" "+s.args, firstSentence(s.summary))
	}
	fmt.Fprintf(w, "\nRun 'warden %s COMMAND --help' for a command's flags and examples.\n", name)
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

// usage is warden's own help.
func usage() string {
	var b strings.Builder
	b.WriteString("warden — policy-gated, audited hands for AI agents on real hosts\n\nUsage: warden COMMAND [flags] [arguments]\n\nCommands:\n")
	for _, s := range commands() {
		fmt.Fprintf(&b, "  %-24s %s\n", strings.TrimSpace(s.name+" "+s.args), firstSentence(s.summary))
	}
	b.WriteString(`
Run 'warden COMMAND --help' for a command's flags and examples.
serve speaks MCP over stdio unless --http is given. Environment:
  WARDEN_CONFIG, WARDEN_MODE, WARDEN_TOKEN, WARDEN_STATE_DIR, WARDEN_HTTP
`)
	return b.String()
}

// enumFlag is a flag whose value must be one of a fixed set.
type enumFlag struct {
	value   string
	allowed []string
}

func newEnum(fs *flag.FlagSet, name, usage string, allowed ...string) *enumFlag {
	e := &enumFlag{allowed: allowed}
	fs.Var(e, name, usage)
	return e
}

func (e *enumFlag) String() string {
	if e == nil {
		return ""
	}
	return e.value
}

func (e *enumFlag) Set(v string) error {
	if !slices.Contains(e.allowed, v) {
		return fmt.Errorf("must be one of %s", strings.Join(e.allowed, ", "))
	}
	e.value = v
	return nil
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// Package declare owns declarative tools: YAML files in the MCPShell format
// that describe commands an operator is willing to let an agent run, with
// typed parameters, CEL constraints, shell-quoting templates, environment
// pass-through, sandbox runners and prompts. It loads them strictly,
// validates them, chooses each tool's runner and registers the tools and
// prompts through the relay, so a declarative call passes the same policy,
// approval, bounds and audit as a built-in one.
package declare

import (
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// ParamType is the type of a tool parameter.
type ParamType string

// Parameter types. An integer is an integer in CEL and in the JSON schema,
// a number is a double.
const (
	TypeString  ParamType = "string"
	TypeNumber  ParamType = "number"
	TypeInteger ParamType = "integer"
	TypeBoolean ParamType = "boolean"
	// TypeArray is a list of strings (a warden extension): printed as an
	// argument, each element is one shell word, quoted, never split again.
	TypeArray ParamType = "array"
)

// File is one loaded tool file.
type File struct {
	Path        string
	Description string
	// Shell runs every command of the file as Shell -c COMMAND.
	Shell string
	// StrictTemplates makes a template key that is not a parameter an
	// error; by default it renders empty, as in MCPShell.
	StrictTemplates bool
	Tools           []*Tool
	Prompts         *Prompts
}

// Tool is one declarative tool.
type Tool struct {
	Name        string
	Description string
	Params      []*Param
	Constraints []*Constraint
	Run         Run
	// Prefix is the output.prefix template put before the output.
	Prefix *Template
	// Tier is the least policy tier of every call (warden extension).
	Tier policy.Tier
	// File and Line say where the tool was defined.
	File string
	Line int

	shell string
}

// Param is one typed tool parameter.
type Param struct {
	Name        string
	Type        ParamType
	Description string
	Required    bool
	// Default is the typed default value, or nil.
	Default any
	// Raw inserts the value into the command without shell quoting.
	Raw bool
	// Split prints the value as several shell words, split the way the
	// shell reads unquoted text but with nothing run or expanded. It is
	// on by default for a string parameter with an argument-list name
	// (args, flags, …; see argListName), as MCPShell's shell split
	// {{ .args }}; `split: false` turns it off.
	Split bool
	// SplitByName says Split came from the parameter's name, not from
	// `split: true`.
	SplitByName bool
	// Option says the value may be an option of the command it is an
	// argument of (start with '-'); otherwise a value starting an
	// argument word is refused there (optinject.go).
	Option bool
	Line   int
}

// Run says how a tool runs.
type Run struct {
	Command *Template
	// Env lists NAME (passed from warden's environment) or NAME=VALUE
	// (a template rendered without quoting) entries.
	Env     []EnvVar
	Timeout time.Duration
	Runners []*RunnerSpec
}

// EnvVar is one run.env entry.
type EnvVar struct {
	Name string
	// Value is nil for a name passed from warden's environment.
	Value *Template
}

// RunnerSpec is one entry of run.runners.
type RunnerSpec struct {
	Name         string
	OS           string
	Executables  []string
	Options      map[string]any
	Line         int
	kind         *Kind
	optTemplates map[string]*Template
	listTmpls    map[string][]*Template
}

// Prompts are the file's prompts, served as one MCP prompt.
type Prompts struct {
	Name        string
	Description string
	System      []string
	User        []string
}

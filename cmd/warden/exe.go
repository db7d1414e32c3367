package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/server"
)

// Exit statuses of warden exe besides the command's own.
const (
	exitRefused = 1   // denied, approval required, or an error
	exitInvalid = 2   // bad arguments or a constraint that does not hold
	exitTimeout = 124 // the command timed out (as timeout(1))
)

type exeOpts struct {
	config string
	tools  multiFlag
}

func exeFlags(fs *flag.FlagSet) *exeOpts {
	o := &exeOpts{}
	fs.StringVar(&o.config, "config", "", "config `file` (default: WARDEN_CONFIG, else the embedded default)")
	fs.Var(&o.tools, "tools", "declarative tool `file` or directory (repeatable)")
	return o
}

// cmdExe runs one tool through the same pipeline as serve — policy,
// approval, bounds, audit — over an in-memory MCP connection to an
// assembled server. Arguments are NAME=VALUE, typed by the tool's schema.
// It exits with the command's exit status, or exitInvalid on bad
// arguments and constraint failures, exitTimeout on a timeout and
// exitRefused when the call did not run.
func cmdExe(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) int {
	fs := flag.NewFlagSet("warden exe", flag.ContinueOnError)
	o := exeFlags(fs)
	rest, code, ok := parseArgs(lookup("exe"), fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) == 0 {
		usageError(stderr, "exe", "TOOL is missing")
		return exitInvalid
	}
	cfgPath := &o.config
	cfg, err := loadChecked(*cfgPath, getenv, func(c *config.Config) { addTools(c, o.tools) })
	if err != nil {
		reportConfig(stderr, err)
		return 1
	}
	w, err := server.New(server.Options{
		Config:        cfg,
		Version:       versionString(),
		Transport:     "exe",
		Getenv:        getenv,
		ConfigPath:    configPath(*cfgPath, getenv),
		LocalIdentity: localIdentity(),
		Logger:        slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		fmt.Fprintf(stderr, "warden: %v\n", err)
		return 1
	}
	defer w.Close()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := w.MCP.Connect(ctx, st, nil)
	if err != nil {
		fmt.Fprintf(stderr, "warden: %v\n", err)
		return 1
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "warden-exe", Version: versionString()}, nil).Connect(ctx, ct, nil)
	if err != nil {
		fmt.Fprintf(stderr, "warden: %v\n", err)
		return 1
	}
	defer cs.Close()

	name := rest[0]
	var tool *mcp.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			fmt.Fprintf(stderr, "warden: %v\n", err)
			return 1
		}
		if t.Name == name {
			tool = t
		}
	}
	if tool == nil {
		fmt.Fprintf(stderr, "warden exe: no tool %q (see warden tools)\n", name)
		return exitInvalid
	}
	callArgs, err := typedArgs(tool, rest[1:])
	if err != nil {
		fmt.Fprintf(stderr, "warden exe: %v\n", err)
		return exitInvalid
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: callArgs})
	if err != nil {
		fmt.Fprintf(stderr, "warden exe: %v\n", err)
		return exitRefused
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			fmt.Fprintln(stdout, t.Text)
		}
	}
	var sc struct {
		Status   string `json:"status"`
		Reason   string `json:"reason"`
		ExitCode *int   `json:"exit_code"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &sc)
	switch sc.Status {
	case "ok":
		if sc.ExitCode != nil {
			return min(max(*sc.ExitCode, 0), 255)
		}
		return 0
	case "invalid_argument":
		return exitInvalid
	case "timeout":
		return exitTimeout
	default:
		if sc.Reason != "" {
			fmt.Fprintf(stderr, "warden exe: %s: %s\n", sc.Status, sc.Reason)
		}
		return exitRefused
	}
}

// typedArgs turns NAME=VALUE pairs into arguments typed by the tool's
// input schema: integers, numbers and booleans are parsed, an array
// parameter gets one element per pair, the rest are strings.
func typedArgs(tool *mcp.Tool, pairs []string) (map[string]any, error) {
	var schema struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
	}
	b, _ := json.Marshal(tool.InputSchema)
	_ = json.Unmarshal(b, &schema)
	out := map[string]any{}
	for _, kv := range pairs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("argument %q is not NAME=VALUE", kv)
		}
		prop, known := schema.Properties[k]
		if !known {
			return nil, fmt.Errorf("tool %s has no parameter %q", tool.Name, k)
		}
		var err error
		switch prop.Type {
		case "integer":
			out[k], err = strconv.ParseInt(v, 10, 64)
		case "number":
			out[k], err = strconv.ParseFloat(v, 64)
		case "boolean":
			out[k], err = strconv.ParseBool(v)
		case "array":
			// Each NAME=VALUE of an array parameter is one element.
			list, _ := out[k].([]any)
			out[k] = append(list, v)
		default:
			out[k] = v
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a%s %s", k, v, map[bool]string{true: "n", false: ""}[prop.Type == "integer"], prop.Type)
		}
	}
	return out, nil
}

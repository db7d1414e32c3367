package main

import (
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/declare"
)

// toolsFlags declares the flags of warden tools, which are exe's.
func toolsFlags(fs *flag.FlagSet) *exeOpts { return exeFlags(fs) }

// cmdTools lists every declarative tool with the runner it would use and
// whether it is available, with the reason when it is not.
func cmdTools(args []string, stdout, stderr io.Writer, getenv env) int {
	fs := flag.NewFlagSet("warden tools", flag.ContinueOnError)
	o := toolsFlags(fs)
	rest, code, ok := parseArgs(lookup("tools"), fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		usageError(stderr, "tools", fmt.Sprintf("unexpected argument %q", rest[0]))
		return 2
	}
	cfg, err := loadConfig(o.config, getenv, func(c *config.Config) { addTools(c, o.tools) })
	if err != nil {
		reportConfig(stderr, err)
		return 1
	}
	if len(cfg.Tools) == 0 {
		fmt.Fprintln(stderr, "warden: no declarative tools configured (tools: in the config, or --tools)")
		return 1
	}
	set, err := declare.LoadPaths(cfg.Tools)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 1
	}
	d := declare.Deps{Path: cfg.Exec.Path, LandlockHelper: declare.LandlockHelper(), DockerHost: getenv("DOCKER_HOST")}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tRUNNER\tAVAILABLE\tDEFINED AT\tREASON")
	for _, t := range set.Tools() {
		c := d.Choose(t)
		runner, avail := "-", "no"
		if c.Reason == "" {
			runner, avail = c.Runner.Name, "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s:%d\t%s\n", t.Name, runner, avail, t.File, t.Line, c.Reason)
	}
	tw.Flush()
	return 0
}

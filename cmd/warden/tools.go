package main

import (
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/declare"
)

// cmdTools lists every declarative tool with the runner it would use and
// whether it is available, with the reason when it is not.
func cmdTools(args []string, stdout, stderr io.Writer, getenv env) int {
	fs := flag.NewFlagSet("tools", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "config file")
	var tools multiFlag
	fs.Var(&tools, "tools", "declarative tool file or directory (repeatable)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg, err := loadConfig(*cfgPath, getenv, func(c *config.Config) { c.Tools = append(c.Tools, tools...) })
	if err != nil {
		fmt.Fprintf(stderr, "warden: invalid configuration:\n%v\n", err)
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

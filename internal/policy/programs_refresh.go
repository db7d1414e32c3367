package policy

import (
	"strconv"
	"strings"
)

// Package tools' read verbs that refresh the package index or write a
// repository file first: apk -U (--update-cache), dnf and yum --refresh
// download metadata under /var/cache, and zypper repos -e FILE exports
// every repository into FILE. Tier 1 runs where only the temporary
// directories are writable, so these are tier 2 as apt-get update is.

// packageRefresh classifies what c's options add to a package tool's
// subcommand first.
func (c *call) packageRefresh(first string) (Tier, string) {
	vals := c.vals()
	switch c.name {
	case "apk":
		if hasFlag(vals, 'U', "--update-cache") {
			return TierMutate, "apk -U: refreshes the package index under /var/cache/apk"
		}
	case "dnf", "yum":
		if hasFlag(vals, 0, "--refresh") {
			return TierMutate, c.name + " --refresh: downloads repository metadata under /var/cache"
		}
	case "zypper":
		if first == "repos" || first == "lr" {
			for _, f := range c.optVals(c.args, "-e", "--export") {
				if f.known && f.val == "-" {
					continue // the repositories on standard output
				}
				return c.writeArg(f, "zypper repos --export")
			}
		}
	}
	return TierRead, ""
}

// goBoolFlag reports whether args set the Go flag package's boolean flag
// name: -name or --name, or with a value strconv.ParseBool reads as true
// (--name=1, -name=T).
func goBoolFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		n, v, eq := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if !strings.HasPrefix(a, "-") || n != name {
			continue
		}
		if !eq {
			return true
		}
		if b, err := strconv.ParseBool(v); err == nil && b {
			return true
		}
	}
	return false
}

// aptSimulateVerbs are the apt verbs -s turns into a report: they
// resolve and print what dpkg would do, and neither download nor run it.
// update, clean and source act whatever -s says.
var aptSimulateVerbs = set(`install reinstall remove purge upgrade dist-upgrade full-upgrade autoremove autopurge build-dep satisfy`)

// aptSimulates reports whether c is apt or apt-get simulating one of
// aptSimulateVerbs (-s, --simulate, --just-print, --dry-run, --recon,
// --no-act). A -o or -c could set APT::Get::Simulate back to false, or
// name a configuration that does, and a word computed at run time could
// be either, so with any of them it is not a simulation.
func aptSimulates(c *call, first string) bool {
	if c.name != "apt" && c.name != "apt-get" || !aptSimulateVerbs[first] || !allKnown(c.args) {
		return false
	}
	sim := false
	for _, a := range c.args {
		v := a.val
		switch {
		case v == "--":
			return sim
		case v == "-s" || v == "--simulate" || v == "--just-print" || v == "--dry-run" || v == "--recon" || v == "--no-act":
			sim = true
		case strings.HasPrefix(v, "-o") || strings.HasPrefix(v, "--option") || strings.HasPrefix(v, "-c") ||
			strings.HasPrefix(v, "--config-file") || strings.HasPrefix(v, "--no-") || strings.Contains(v, "imulate"):
			return false
		}
	}
	return sim
}

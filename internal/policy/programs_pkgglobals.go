package policy

import "strings"

// pkgCodeKeys are the pkg.conf settings, set by pkg -o KEY=VALUE, that
// pick code pkg runs on any command, a listing included: the plugins
// (shared objects) it loads at start and where from, and the ports tree
// whose Makefiles pkg version runs make in to read versions.
var pkgCodeKeys = set(`PLUGINS PLUGINS_DIR PLUGINS_CONF_DIR PKG_ENABLE_PLUGINS PORTSDIR`)

// pkgCodeGlobals says why the global options of FreeBSD's pkg, before
// its subcommand first, make it load code a tier 1 call may have
// written, or returns "": a configuration (-C) that can set those keys
// or a chroot (-c) whose libraries and programs pkg then loads, at a
// place such a call can write; -o setting one of pkgCodeKeys; any of
// them computed at run time. Any other -o key, and -R's repository
// configurations, change what pkg reads as its database or
// repositories: tier 2 (pkgOtherGlobals).
func (c *call) pkgCodeGlobals(first string) string {
	globals := c.pkgGlobals(first)
	for _, f := range c.optVals(globals, "-C", "--config", "-c", "--chroot") {
		if where := c.pluginPlaceAgent(f, true); where != "" {
			return "pkg loads the plugins and programs its configuration or chroot names, and " + where
		}
	}
	for _, o := range c.optVals(globals, "-o", "--option") {
		k, _, _ := strings.Cut(o.val, "=")
		if !o.known || pkgCodeKeys[strings.ToUpper(strings.TrimSpace(k))] {
			return "pkg -o " + truncate(o.val, 64) + ": picks the plugins pkg loads or the ports whose Makefiles it runs"
		}
	}
	return ""
}

// pkgOtherGlobals says why pkg's global options other than those of
// pkgCodeGlobals make it read another database or repositories than the
// system's, or returns "".
func (c *call) pkgOtherGlobals(first string) string {
	globals := c.pkgGlobals(first)
	for _, o := range c.optVals(globals, "-o", "--option") {
		// ASSUME_ALWAYS_YES only answers pkg's own questions.
		if k, _, _ := strings.Cut(o.val, "="); strings.ToUpper(strings.TrimSpace(k)) != "ASSUME_ALWAYS_YES" {
			return "pkg -o " + truncate(o.val, 64) + ": reads another package database or settings than the system's"
		}
	}
	if len(c.optVals(globals, "-R", "--repo-conf-dir")) > 0 {
		return "pkg -R: reads repository configurations from another directory"
	}
	return ""
}

// pkgGlobals are pkg's words before its subcommand first (all of them
// when there is none).
func (c *call) pkgGlobals(first string) []arg {
	if first == "" {
		return c.args
	}
	return c.args[:len(c.args)-len(afterWord(c.args, first))]
}

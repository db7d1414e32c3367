package policy

import "strings"

// pkgCodeKeys are the pkg.conf settings, set by pkg -o KEY=VALUE, that
// pick code pkg runs on any command, a listing included: the plugins
// (shared objects) it loads at start and where from, and the ports tree
// whose Makefiles pkg version runs make in to read versions.
var pkgCodeKeys = set(`PLUGINS PLUGINS_DIR PLUGINS_CONF_DIR PORTSDIR`)

// pkgCodeGlobals says why the global options of FreeBSD's pkg, before
// its subcommand first, make it load code a tier 1 call may have
// written, or returns "": a configuration (-C) that can set those keys
// or a chroot (-c) whose libraries and programs pkg then loads, at a
// place such a call can write; -o setting one of pkgCodeKeys; any of
// them computed at run time.
func (c *call) pkgCodeGlobals(first string) string {
	globals := c.args[:len(c.args)-len(afterWord(c.args, first))]
	if first == "" {
		globals = c.args
	}
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

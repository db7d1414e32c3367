package policy

import (
	"fmt"
	"path"
	"strings"
)

// Variables named by convention. Programs name the variables they read
// after themselves and what the value is: FOO_PAGER, FOO_EDITOR,
// FOO_BROWSER, FOO_ASKPASS, FOO_PASSWORD_COMMAND, FOO_RSH, FOO_SSH,
// FOO_PROGRAM, FOO_HOOK, FOO_HELPER, FOO_VIEWER, FOO_SHELL and FOO_EXEC
// hold a command the program runs, FOO_PROVIDER and FOO_MODULE a library
// it loads (SSH_SK_PROVIDER, PKCS11_PROVIDER_MODULE); FOO_OPTS, FOO_OPTIONS and FOO_FLAGS hold its
// options (ERL_AFLAGS='-eval …' runs code, ASAN_OPTIONS=log_path=… writes);
// FOO_CONFIG, FOO_CONFIG_DIR, FOO_RC, FOO_PLUGIN_PATH, FOO_LOAD_PATH and
// the like name configuration or code it loads (WIRESHARK_CONFIG_DIR's Lua
// plugins run in tshark -r, MAGICK_CONFIGURE_PATH's delegates in
// identify); FOO_HISTFILE and FOO_HISTORY a file it writes. The lists in
// programs.go name the variables known; these suffixes take the rest a
// list cannot foresee, in the tier the named ones of their kind have.

var (
	codeSuffixes = []string{"_PAGER", "_EDITOR", "_BROWSER", "_ASKPASS", "_COMMAND", "_CMD", "PASSCOMMAND", "_RSH", "_SSH",
		"_WRAPPER", "_OPTS", "_OPTIONS", "FLAGS", "_ARGS", "_CONFIG", "_CONF", "_CONFIG_FILE", "_CONF_FILE", "_CONFIG_DIR", "_CONFIG_PATH",
		"_CONFIG_HOME", "_CONFIG_DIRS", "_DATA_DIRS", "_PLUGIN_DIRS", "_MODULE_DIRS", "_CONFDIR", "_CONFIGURE_PATH", "_RC", "_RCFILE", "_INIT", "_STARTUP", "_PLUGIN_PATH", "_PLUGIN_DIR",
		"_PLUGINS", "_MODULE", "_MODULE_PATH", "_MODULE_FILE", "_MODULES", "_LOAD_PATH", "_LIBRARY_PATH", "_LIB_PATH", "_PRELOAD", "_DEPOT_PATH",
		"_SCRIPTS_PATH", "_DATADIR", "_PROGRAM", "_PROG", "_PROVIDER", "_HOOK", "_HELPER", "_VIEWER", "_SHELL", "_EXEC"}
	fileSuffixes = []string{"HISTFILE", "_HISTORY", "_LOGFILE", "_LOG_FILE", "_LOG_PATH", "_TRACE_FILE", "KEYLOGFILE"}
)

// commandSuffixes are the codeSuffixes of variables whose value is a
// command line a program runs; PAGER and EDITOR count with no underscore
// before them (CRASHPAGER, GITEDITOR).
var commandSuffixes = []string{"PAGER", "EDITOR", "_BROWSER", "_ASKPASS", "_COMMAND", "_CMD", "PASSCOMMAND", "_RSH", "_SSH",
	"_WRAPPER", "_PROGRAM", "_PROG", "_HOOK", "_HELPER", "_VIEWER", "_SHELL", "_EXEC"}

// commandVar reports whether a variable no list names holds, by the
// convention its name follows, a command line a program runs: its value
// is classified as one, so the deny rules meet it (X_PAGER=reboot).
func commandVar(name string) bool {
	if len(name) < 6 || name != strings.ToUpper(name) {
		return false
	}
	for _, s := range commandSuffixes {
		if strings.HasSuffix(name, s) && len(name) > len(s) {
			return true
		}
	}
	return false
}

// deniedProgramValue denies exporting a variable whose value is the path
// of a denied program in a bin directory (AUTOM4TE=/sbin/reboot
// autoconf): whatever the variable's name, the program that reads it can
// only run what it names.
func (e *eval) deniedProgramValue(name, val, where string) {
	words := strings.Fields(val)
	if len(words) == 0 || !strings.Contains(words[0], "/") {
		return
	}
	p := path.Clean(words[0])
	if d := path.Base(path.Dir(p)); d != "bin" && d != "sbin" {
		return
	}
	if why := denyCheck(normaliseName(path.Base(p)), words[1:]); why != "" {
		e.deny(fmt.Sprintf("%s sets %s to %s, a program the command may run (%s)", where, name, truncate(val, 64), why))
	}
}

// conventionRisk classifies a variable by the convention its name
// follows, for the names no list holds.
func conventionRisk(name string) (Tier, string) {
	if !strings.Contains(name, "_") || name != strings.ToUpper(name) {
		return TierRead, "" // programs read upper-case NAME_KIND variables
	}
	if shellValued[name] || cacheDirVars[name] || tempDirs[name] || strings.HasPrefix(name, "RCLONE_") {
		return TierRead, "" // their values are classified where they are set (envVarCtx, backupVar)
	}
	for _, s := range codeSuffixes {
		if strings.HasSuffix(name, s) && len(name) > len(s) {
			return TierDestructive, "by its name holds a command, options, configuration or code a program loads or runs"
		}
	}
	for _, s := range fileSuffixes {
		if strings.HasSuffix(name, s) && len(name) > len(s) {
			return TierMutate, "by its name names a file programs write"
		}
	}
	return TierRead, ""
}

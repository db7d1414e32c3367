package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotConfigSearchDirVars: XDG_CONFIG_DIRS and XDG_DATA_DIRS are
// searched for the files XDG_CONFIG_HOME and XDG_DATA_HOME hold (pip's
// site pip.conf, whose python re-runs pip list under that interpreter;
// fish's vendor_conf.d; neovim's plugins), and a program's own
// FOO_CONFIG_DIRS, FOO_PLUGIN_DIRS and the like name where it loads them,
// so setting one is tier 3 as setting XDG_CONFIG_HOME is, in every way a
// variable is set. The variables read, and a script's own lower-case
// names, keep their tiers.
func TestBlindSpotConfigSearchDirVars(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, n := range []string{"XDG_CONFIG_DIRS", "XDG_DATA_DIRS", "MYTOOL_CONFIG_DIRS", "GST_PLUGIN_DIRS", "APP_DATA_DIRS", "X_MODULE_DIRS"} {
		for _, f := range []string{"%s=/tmp/x pip list", "%s=/tmp/x:/etc/xdg pip3 list", "export %s=/tmp/x; pip list", "%s=/tmp/x; export %s; pip list",
			"env %s=/tmp/x pip list", "sudo %s=/tmp/x pip list", "%s=$d fish -c true", "declare -x %s=/tmp/x; nvim f",
			"typeset -x %s=/srv/x; pip list", "%s=/etc/xdg pip list", "local %s=/tmp/x", "%s+=:/tmp/x; pip list"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", n))
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"read", `echo "$XDG_CONFIG_DIRS"`, TierRead},
		{"printenv", "printenv XDG_DATA_DIRS", TierRead},
		{"lower case", `xdg_config_dirs=/tmp/x; echo "$xdg_config_dirs"`, TierRead},
		{"data dir of a script", `data_dirs=/srv; ls "$data_dirs"`, TierRead},
		{"pip list", "pip list", TierRead},
	})
}

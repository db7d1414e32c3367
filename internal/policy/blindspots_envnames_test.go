package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotConventionalVarNames: variables no list names but whose
// names say what programs do with them (FOO_PAGER, FOO_PASSWORD_COMMAND,
// FOO_RSH, FOO_OPTS, FOO_CONFIG_DIR, FOO_LOAD_PATH …) change which code
// runs, as the listed ones of their kind do, in every way a variable is
// set; those naming a history file make the program write it.
func TestBlindSpotConventionalVarNames(t *testing.T) {
	p := testPolicy(t)
	forms := []string{
		"%s=x tshark -r a.pcap", "export %s=x; tshark -r a.pcap", "declare -x %s=x; ls", "typeset -x %s=x",
		"f() { local -x %s=x; ls; }; f", "readonly %s=x", "env %s=x ls", "env -u HOME %s=x ls", "sudo %s=x ls",
		"nice env %s=x ls", "timeout 5 env %s=x ls", "read %s; ls", "printf -v %s x; ls", "mapfile -t %s < f",
		"eval %s=x", ": ${%s:=x}", "declare -n r=%s; r=x", "export -- %s=x", "%s=$(cat f) ls", "sh -c '%s=x ls'",
	}
	var code, files []string
	for _, n := range []string{"MYAPP_PAGER", "KOPIA_PASSWORD_COMMAND", "BORG_NEW_PASSCOMMAND", "BZR_SSH", "X_ASKPASS",
		"FOO_EDITOR", "FOO_BROWSER", "ERL_AFLAGS", "ERL_ZFLAGS", "VALGRIND_OPTS", "ASAN_OPTIONS", "UBSAN_OPTIONS",
		"DOCKER_OPTS", "JULIA_DEPOT_PATH", "JULIA_LOAD_PATH", "WIRESHARK_CONFIG_DIR", "MAGICK_CONFIGURE_PATH",
		"GST_PLUGIN_PATH", "TCL_LIBRARY_PATH", "FOO_RCFILE", "FOO_CONFIG", "NMAP_DATADIR", "SCREEN_RC"} {
		for _, f := range forms {
			code = append(code, strings.ReplaceAll(f, "%s", n))
		}
	}
	for _, n := range []string{"IPYTHON_HISTFILE", "MONGOSH_HISTORY", "FOO_LOGFILE", "APP_LOG_FILE"} {
		for _, f := range forms {
			files = append(files, strings.ReplaceAll(f, "%s", n))
		}
	}
	runBlind(t, p, sameCases(TierDestructive, false, code...))
	runBlind(t, p, sameCases(TierMutate, false, files...))
	runExact(t, p, []exactCase{
		{"locale", "LC_ALL=C sort f", TierRead},
		{"tz", "TZ=UTC date", TierRead},
		{"columns", "COLUMNS=200 ps aux", TierRead},
		{"systemd colors", "SYSTEMD_COLORS=0 systemctl status nginx", TierRead},
		{"no color", "NO_COLOR=1 ls", TierRead},
		{"lang", "LANG=C.UTF-8 ls", TierRead},
		{"lower case", "my_opts=x; echo $my_opts", TierRead},
		// A listed command variable's value is classified, not its name.
		{"known command var", "BORG_RSH='ssh -p 2222' borg list h:r", TierBenign},
	})
}

// TestBlindSpotCommandVarsSetByName: a variable whose value a program
// runs (BORG_RSH, RESTIC_PASSWORD_COMMAND, rclone's) set by read, printf
// -v, mapfile, getopts or ${NAME:=…} holds a command known only at run
// time, as BORG_RSH=$(cat f) does; a temporary directory, repository or
// libvirt URI set so is as unknown.
func TestBlindSpotCommandVarsSetByName(t *testing.T) {
	p := testPolicy(t)
	var cmds []string
	for _, n := range []string{"BORG_RSH", "BORG_PASSCOMMAND", "RESTIC_PASSWORD_COMMAND", "RCLONE_PASSWORD_COMMAND", "RESTIC_REPOSITORY", "BORG_REPO", "LIBVIRT_DEFAULT_URI"} {
		for _, f := range []string{
			"read %s; borg list", "read -r %s <&3; restic snapshots", "IFS= read -r %s; virsh list", "printf -v %s %%s \"$y\"; restic snapshots",
			"mapfile -t %s < f; rclone lsd r:", "getopts ab %s; borg list", ": ${%s:=$x}; borg list", "read -a %s; borg list",
		} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", n))
		}
	}
	runBlind(t, p, sameCases(TierDestructive, false, cmds...))
	runBlind(t, p, sameCases(TierMutate, false, "read TMPDIR; sort f", "printf -v TMPDIR %s \"$d\"; sort f"))
	runExact(t, p, []exactCase{
		{"read a line", "read -r line < f; echo \"$line\"", TierRead},
		{"read fields", "IFS=: read -r a b <<< \"$l\"; echo \"$a\"", TierRead},
	})
}

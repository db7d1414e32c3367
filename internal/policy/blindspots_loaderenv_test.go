package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotLoaderVariables: variables that make a reading program
// load code from a place a tier 1 call may have filled, in every way a
// variable is set. systemd-analyze verify finds its units in
// SYSTEMD_UNIT_PATH, and a unit's Documentation=man:ls(-Hcmd) runs cmd
// as man's browser; --generators runs SYSTEMD_GENERATOR_PATH's programs;
// an ImageMagick unpacked to run where it lies reads delegates.xml and
// coder modules under MAGICK_HOME; OpenSSL's pkcs11 provider loads
// PKCS11_PROVIDER_MODULE, and other FOO_MODULE variables name a library
// the same way.
func TestBlindSpotLoaderVariables(t *testing.T) {
	p := protectedPolicy(t)
	forms := []string{
		"%s systemd-analyze verify foo.service", "export %s; systemd-analyze verify foo.service", "env %s systemd-analyze verify x.service",
		"%s systemd-analyze --generators=yes unit-paths", "%s identify a.png", "declare -x %s; identify a.png", "%s openssl version",
		"sudo %s systemd-analyze verify foo.service", "nice env %s identify a.png", "set -a; %s; openssl version",
		"typeset -x %s; ls", "f() { local -x %s; ls; }; f", "sh -c '%s systemd-analyze verify foo.service'", "readonly %s; ls",
	}
	var cmds []string
	for _, v := range []string{"SYSTEMD_UNIT_PATH=/tmp/x", "SYSTEMD_UNIT_PATH=/tmp/x:", "SYSTEMD_GENERATOR_PATH=/tmp/x",
		"SYSTEMD_ENVIRONMENT_GENERATOR_PATH=/tmp/x", "MAGICK_HOME=/tmp/x", "MAGICK_HOME=/var/tmp/im", "PKCS11_PROVIDER_MODULE=/tmp/x/m.so",
		"PKCS11_MODULE=/tmp/x/m.so", "FOO_MODULE=/dev/shm/m.so", `SYSTEMD_UNIT_PATH="$d"`} {
		for _, f := range forms {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", v))
		}
	}
	cmds = append(cmds, "read SYSTEMD_UNIT_PATH; systemd-analyze verify foo.service", "printf -v MAGICK_HOME %s /tmp/x; identify a.png")
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"verify", "systemd-analyze verify foo.service", TierRead},
		{"go modules switch", "GO111MODULE=on go version", TierRead},
		{"systemd log level", "SYSTEMD_LOG_LEVEL=debug systemctl status nginx", TierRead},
		{"identify", "identify /srv/a.png", TierRead},
	})
}

// TestBlindSpotInstallRootVariables: FOO_HOME, FOO_ROOT, FOO_PREFIX and
// FOO_RUNTIME_DIR name where a program is installed or keeps its runtime
// files, and it loads what it finds there (XDG_RUNTIME_DIR's
// systemd/user units, whose Documentation= systemd-analyze --user verify
// hands to man; SPARK_HOME's jars). A literal path into a temporary
// directory is a tree a tier 1 call may have laid out: tier 3, however
// the variable is set. The operator's places, and values computed at run
// time (/run/user/$(id -u)), keep the call's tier.
func TestBlindSpotInstallRootVariables(t *testing.T) {
	p := protectedPolicy(t)
	forms := []string{
		"%s systemd-analyze --user verify foo.service", "export %s; systemctl --user cat foo", "env %s spark-submit --version",
		"declare -x %s; ls", "sudo %s systemd-analyze --user verify foo.service", "set -a; %s; flutter --version",
		"nice env %s ls", "sh -c '%s systemd-analyze --user verify x.service'", "typeset -x %s; ls",
	}
	var cmds []string
	for _, v := range []string{"XDG_RUNTIME_DIR=/tmp/x", "XDG_RUNTIME_DIR=/dev/shm/r", "SPARK_HOME=/tmp/x", "FLUTTER_ROOT=/var/tmp/f",
		"APP_PREFIX=/tmp/x/../y", "MYTOOL_HOME=/private/tmp/t", "FOO_ROOT=/srv:/tmp/x"} {
		for _, f := range forms {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", v))
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"runtime dir", "XDG_RUNTIME_DIR=/run/user/1000 systemctl --user status", TierRead},
		{"runtime dir computed", "XDG_RUNTIME_DIR=/run/user/$(id -u) systemctl --user status", TierRead},
		{"operator's home", "APP_HOME=/srv/app ls", TierRead},
		{"cache under /tmp", "XDG_CACHE_HOME=/tmp/c ls", TierRead},
		{"script's root", "ROOT=/tmp/x; ls $ROOT", TierRead},
	})
}

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

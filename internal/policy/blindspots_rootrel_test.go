package policy

import "testing"

// A variable naming where a program keeps the code it loads (FOO_HOME,
// FOO_ROOT, FOO_PREFIX, FOO_RUNTIME_DIR) set to a relative path reaches a
// temporary directory when the working directory may be one or when the
// path climbs to one: exiftool requires $EXIFTOOL_HOME/.ExifTool_config,
// Perl, so cd /tmp/w && EXIFTOOL_HOME=. exiftool f.jpg runs what a tier 1
// call wrote there, as EXIFTOOL_HOME=/tmp/w does. The operator's
// directories, climbs that stay out of temporary ones and a home stay as
// they were.
func TestBlindRootVarRelative(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"cd /tmp/w && EXIFTOOL_HOME=. exiftool f.jpg",
		"cd /tmp/w && EXIFTOOL_HOME=cfg exiftool f.jpg",
		"cd /tmp/w; export EXIFTOOL_HOME=.; exiftool -a f.jpg",
		"cd /var/tmp/w && env EXIFTOOL_HOME=./c exiftool f.jpg",
		"cd /dev/shm && EXIFTOOL_HOME=x exiftool f.jpg",
		"cd \"$(mktemp -d)\" && EXIFTOOL_HOME=. exiftool f.jpg",
		"EXIFTOOL_HOME=../../tmp/x exiftool f.jpg",
		"EXIFTOOL_HOME=../../../../../var/tmp/x exiftool f.jpg",
		"cd /srv && EXIFTOOL_HOME=../tmp/x exiftool f.jpg",
		"cd /tmp/w/sub && EXIFTOOL_HOME=.. exiftool f.jpg",
		"cd /tmp/w && XDG_RUNTIME_DIR=. systemctl --user status",
	))
	runExactHosts(t, p, []exactCase{
		{"operator dir", "cd /srv/app && EXIFTOOL_HOME=. exiftool f.jpg", TierRead},
		{"climb", "APP_HOME=.. ls", TierRead},
		{"home", "EXIFTOOL_HOME=~/x exiftool f.jpg", TierRead},
		{"absolute", "EXIFTOOL_HOME=/srv/cfg exiftool f.jpg", TierRead},
		{"plain", "exiftool f.jpg", TierRead},
	})
}

package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotMagickComputedNames: ImageMagick opens an image name that
// starts with "|" as a pipe from that command, reads more names from
// @FILE, and runs msl: and mvg: names as scripts. A name computed at run
// time ("$f", $(…), xargs' and find's {}) can be any of these, and so can
// the names a pattern expands to where a benign call made them (a file
// named '|sh s' in /tmp/x makes cd /tmp/x && identify * run ./s): tier 3,
// as the literal pipe is. A name whose literal start is a path (/srv/$f,
// ./$f, ~/$f, and patterns under a named directory) is a file whatever
// follows.
func TestBlindSpotMagickComputedNames(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, tool := range []string{"identify", "magick identify", "convert", "magick", "magick convert", "montage",
		"composite", "compare", "mogrify", "sudo identify", "timeout 5 identify", "nice identify", "env identify", "command identify"} {
		for _, f := range []string{
			`read f; %s "$f" info:`, `%s "$1" info:`, `%s $f info:`, `%s "${f}" info:`, `%s "$d/x.png" info:`,
			`%s "msl:$f" info:`, `%s msl:"$f" info:`, `%s "$(head -1 /tmp/x/l)" info:`, `%s $(cat /tmp/x/l) info:`,
			"%s `cat /tmp/x/l` info:", `for f in $(cat /tmp/x/l); do %s "$f" info:; done`,
			`while read -r f; do %s "$f" info:; done < /tmp/x/l`, "cd /tmp/x && %s * info:", "cd /tmp/x; %s *.png info:",
			"cd /var/tmp/y && %s ?.jpg info:", `cd "$d" && %s *.png info:`, "cat /tmp/x/l | xargs %s",
			"ls /tmp/x | xargs %s", "cd /tmp/x && ls | xargs %s", "xargs -a /tmp/x/l %s", "find /tmp/x -type f -exec %s {} +",
			`cd /tmp/x && for f in *; do %s "$f" info:; done`, `sh -c '%s "$0" info:' "$f"`,
		} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", tool))
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	for _, d := range []string{"/tmp/x", "/dev/shm"} {
		if v := p.Evaluate(Input{Command: "identify *.png", Dir: d}); v.Tier < TierDestructive {
			t.Errorf("identify *.png in %s = %s (%s); want tier 3", d, v.Tier, v.Reason)
		}
	}
	runExactHosts(t, p, []exactCase{
		{"literal", "identify /srv/a.png b.jpg", TierRead},
		{"under a named directory", `identify "/srv/img/$f"`, TierRead},
		{"relative path start", `identify "./$f"`, TierRead},
		{"home", `identify ~/"$f"`, TierRead},
		{"quoted start", `identify '/srv/'"$f"`, TierRead},
		{"pattern, no directory named", "identify *.png", TierRead},
		{"pattern under a named directory", "identify /srv/img/*", TierRead},
		{"dot-slash pattern", "cd /srv/img && identify ./*.png", TierRead},
		{"operator's loop", `for f in /srv/img/*.png; do identify "$f"; done`, TierRead},
		{"format", "identify -format '%w %h' /srv/a.png", TierRead},
		{"verbose", "identify -verbose a.png", TierRead},
	})
}

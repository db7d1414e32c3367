package policy

import "testing"

// TestBlindSpotMagickContentSniffing: ImageMagick picks the coder by what
// a file holds, not by its name: a file that starts "push graphic-context"
// is MVG, whose image primitives open further names (|CMD, msl:,
// ephemeral:), and SVG and PostScript are programs too — the ImageTragick
// files were named exploit.png. So an image read from under a temporary
// directory, or by a relative name where the working directory is one, is
// a script a tier 1 call may have written: tier 3, whatever its name, in
// every tool and through magick's subcommands. Outputs there, and images
// in the operator's directories, keep their tiers.
func TestBlindSpotMagickContentSniffing(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, tool := range []string{"identify", "identify -verbose", "magick identify", "convert", "magick", "magick convert",
		"montage", "composite", "compare", "mogrify -resize 50%", "sudo identify", "timeout 5 identify", "nice convert", "env identify"} {
		for _, f := range []string{"/tmp/x/a.png", "/var/tmp/a.jpg", "/dev/shm/a.gif", "png:/tmp/x/a.png", "'/tmp/x/a.png[0]'",
			"/tmp/x/../x/a.png", "/private/tmp/a.png", "/run/lock/a.png", "/tmp/a.svg"} {
			cmds = append(cmds, tool+" "+f+" info:")
		}
		cmds = append(cmds, "cd /tmp/x && "+tool+" a.png info:", "cd /var/tmp; "+tool+" ./a.png info:")
	}
	cmds = append(cmds, "convert /tmp/x/a.png -resize 50% /srv/b.png", "compare /srv/a.png /tmp/x/b.png /srv/d.png",
		"find /tmp/x -name '*.png' -exec identify {} +", "for f in /tmp/x/*.png; do identify \"$f\"; done")
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	for _, d := range []string{"/tmp/x", "/var/tmp"} {
		if v := p.Evaluate(Input{Command: "identify a.png", Dir: d}); v.Tier < TierDestructive {
			t.Errorf("identify a.png in %s = %s (%s); want tier 3", d, v.Tier, v.Reason)
		}
	}
	runExactHosts(t, p, []exactCase{
		{"operator's image", "identify /srv/a.png", TierRead},
		{"relative, no directory named", "identify a.png", TierRead},
		{"operator's directory", "cd /srv/img && identify a.png", TierRead},
		{"output under /tmp", "convert /srv/a.png -resize 50% /tmp/b.png", TierMutate},
		{"built-in image to /tmp", "convert rose: /tmp/rose.png", TierMutate},
		{"canvas to /tmp", "convert -size 10x10 xc:white /tmp/w.png", TierMutate},
	})
}

// TestBlindSpotMagickStreams: an image read from a stream the classifier
// cannot see (standard input from a pipe or a file, a descriptor, fd:N)
// is whatever the writer sent — curl … | identify - runs a server's MVG —
// and a name whose literal start is a temporary directory ("/tmp/x/$f")
// or a pattern that can reach one is a file there: tier 3.
func TestBlindSpotMagickStreams(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"identify - < /tmp/x/a.png", "cat /tmp/x/a.png | identify -", "curl -s https://h/a.png | identify -",
		"identify png:- < /tmp/x/a.png", "convert - info: < /tmp/x/a.png", "wget -qO- https://h/a | convert - info:",
		"identify fd:3 3< /tmp/x/a.png", "identify fd:0 < /tmp/x/a.png", "identify /dev/stdin < /tmp/x/a.png",
		"identify - <<< 'push graphic-context viewbox 0 0 1 1'", "magick identify - < /tmp/x/a.png",
		`identify "/tmp/x/$f"`, `identify '/var/tmp/'"$f"`, "identify /t?p/x/a.png", "identify /tmp/x/*.png",
		"identify {/tmp/x/a.png,/srv/b.png}", "cd /tmp/x && identify /proc/self/cwd/a.png",
	))
	runExactHosts(t, p, []exactCase{
		{"to standard output", "convert /srv/a.png png:-", TierRead},
		{"dash output", "convert /srv/a.png -", TierRead},
		{"no input stream", "identify -format %w /srv/a.png", TierRead},
	})
}

package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotMagickCoders: ImageMagick reads an ephemeral:FILE and then
// deletes it, so identify ephemeral:/etc/passwd removed the file at tier
// 0; x: captures an X display's screen and the print: output runs the
// print delegate. Each coder is matched in any case, in every tool and
// through magick's subcommands.
func TestBlindSpotMagickCoders(t *testing.T) {
	p := protectedPolicy(t)
	var del, capture []string
	for _, tool := range []string{"identify", "magick identify", "convert", "magick", "magick convert", "montage", "compare",
		"composite", "sudo identify", "timeout 5 identify", "sh -c 'identify"} {
		end := ""
		if strings.HasPrefix(tool, "sh -c") {
			end = "'"
		}
		for _, f := range []string{"ephemeral:/etc/passwd", "EPHEMERAL:/etc/passwd", "Ephemeral:/srv/data/a.png", "ephemeral:/etc/x.png[0]",
			"-verbose ephemeral:/var/lib/x.jpg", "ephemeral:$HOME/a.png"} {
			del = append(del, tool+" "+f+" info:"+end)
		}
		for _, f := range []string{"x:root", "X:", "x:0x1234"} {
			capture = append(capture, tool+" "+f+" info:"+end)
		}
	}
	runBlind(t, p, sameCases(TierMutate, false, del...))
	runBlind(t, p, sameCases(TierMutate, false, capture...))
	runBlind(t, p, sameCases(TierMutate, false, "convert a.png print:", "magick a.png PRINT:", "convert a.png -write print: info:"))
	runBlind(t, p, sameCases(TierDestructive, true, "identify ephemeral:/root/.local/state/warden/token",
		"convert 'ephemeral:/root/.local/state/warden/audit.jsonl' info:"))
	runExact(t, p, []exactCase{
		{"identify", "identify /srv/a.png", TierRead},
		{"info", "convert /srv/a.png -format %w info:", TierRead},
		{"png coder", "identify png:/srv/a.png", TierRead},
	})
}

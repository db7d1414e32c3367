package policy

import "testing"

// An output named as a pipe feeds the program's output to the command:
// a shell there runs code from input the classifier never sees, as one
// at the end of a pipeline does (cat f | bash -i).
func TestBlindPipeOutputFeedsAShell(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"gs -sOutputFile='|bash -i' f.ps",
		"gs -sOutputFile='|sh -s' f.ps",
		"gs -o '|bash -s' f.ps",
		"gs -sOutputFile='%pipe%zsh -i' f.ps",
		"gs -sOutputFile='%PIPE%dash -i' f.ps",
		"gs -sOutputFile='| bash -i' f.ps",
		"gs -dBATCH -sOutputFile='|busybox sh -s' f.ps",
	))
	runExactHosts(t, p, []exactCase{
		{"printer", "gs -sOutputFile='|lpr' f.ps", TierMutate},
		{"printer with options", "gs -sOutputFile='|lpr -P office' f.ps", TierMutate},
		{"compressor", "gs -sOutputFile='|gzip -c' f.ps", TierMutate},
		{"file", "gs -sOutputFile=out.pdf f.ps", TierMutate},
	})
}

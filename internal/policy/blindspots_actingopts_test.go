package policy

import "testing"

// TestBlindSpotAbbreviatedActingOptions: options that make a command act
// count in the spellings their parsers take: git's parse-options takes
// submodule foreach's --recursive and --quiet abbreviated, so the word
// after them is the command (denied like any rm -rf /); argp takes
// update-binfmts --inst; HTTPie's argparse --down (writes the file).
func TestBlindSpotAbbreviatedActingOptions(t *testing.T) {
	p := testPolicy(t)
	var cases []blindCase
	for _, o := range []string{"--recu", "--recursiv", "--qu", "--quie", "-qq", "-q --rec", "--recursive --qu", "--"} {
		cmd := "git submodule foreach " + o + " 'rm -rf /'"
		cases = append(cases, blindCase{cmd, cmd, TierDestructive, true})
	}
	for _, o := range []string{"--inst", "--insta", "--install", "--imp", "--impor", "--import"} {
		cmd := "update-binfmts " + o + " x /tmp/interp --magic AA"
		cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
	}
	cases = append(cases, sameCases(TierMutate, false,
		"http --down example.org/file", "http --downl example.org/file", "https --do example.org/f", "http --outp=/tmp/f example.org",
	)...)
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"git submodule foreach status", "git submodule foreach --recur 'git status'", TierMutate},
		{"update-binfmts --display", "update-binfmts --display", TierRead},
		{"pg_dump -f tmp", "pg_dump --fi=/tmp/x.sql db", TierMutate},
		{"http GET", "http example.org/x", TierBenign},
	})
}

// TestBlindSpotBorgRshAbbreviated: borg's argparse takes --rsh by any
// prefix, so its command is classified as shell in every spelling.
func TestBlindSpotBorgRshAbbreviated(t *testing.T) {
	p := testPolicy(t)
	var cases []blindCase
	for _, o := range []string{"--rs 'rm -rf /'", "--rs='rm -rf /'", "--rsh 'rm -rf /'", "--rsh='rm -rf /'"} {
		for _, tail := range []string{"list ssh://backup/repo", "info ssh://backup/repo", "check ssh://backup/repo"} {
			cmd := "borg " + o + " " + tail
			cases = append(cases, blindCase{cmd, cmd, TierDestructive, true})
		}
	}
	runBlindHosts(t, p, cases)
}

//go:build unix

package policy

import (
	"os/exec"
	"strings"
	"testing"
)

// keywordOn are spellings that turn on bash's keyword option, after which
// a NAME=VALUE word anywhere in a command is an assignment in its
// environment: "ls LD_PRELOAD=/tmp/x.so" preloads the library, "git log
// GIT_PAGER=cmd" runs cmd, though the classifier reads both words as plain
// arguments. Each is followed by a command; the %s is where the test puts
// it when it asks bash.
var keywordOn = []string{
	"set -k; %s",
	"set -ek; %s",
	"set -ke; %s",
	"set -euk; %s",
	"set -o keyword; %s",
	"set -eo keyword; %s",
	"set -o pipefail -o keyword; %s",
	"set -e -k; %s",
	"set -k -- a b; %s",
	"set -o keyword -- a b; %s",
	"builtin set -k; %s",
	"command set -k; %s",
	"\\set -k; %s",
	"'set' -k; %s",
	"s\"et\" -o keyword; %s",
	"eval 'set -k'; %s",
	"eval set -o keyword; %s",
	"f() { set -k; }; f; %s",
	"{ set -k; }; %s",
	"if true; then set -k; fi; %s",
	"true && set -k; %s",
	"shopt -so keyword; %s",
	"shopt -os keyword; %s",
	"shopt -s -o keyword; %s",
	"shopt -o -s keyword; %s",
	"builtin shopt -so keyword; %s",
	"o=keyword; set -o $o; %s",
	"o=-k; set $o; %s",
}

// keywordShells are shells started with the option: their payload's
// NAME=VALUE words are environment. %s is the payload.
var keywordShells = []string{
	"bash -k -c %s",
	"bash -kc %s",
	"bash -ek -c %s",
	"bash -o keyword -c %s",
	"bash -eo keyword -c %s",
	"bash --norc -k -c %s",
	"bash -c -k %s",
	"sh -k -c %s",
	"sudo bash -k -c %s",
	"env bash -o keyword -c %s",
	"timeout 5 bash -k -c %s",
}

// TestBlindSpotKeywordOption: turning on the keyword option is tier 3 in
// every spelling bash takes (the installed bash confirms each one makes a
// later argument environment), since the classifier reads the commands
// after it — and a session's later lines — as if it were off.
func TestBlindSpotKeywordOption(t *testing.T) {
	p := testPolicy(t)
	var cases []blindCase
	for _, f := range keywordOn {
		for _, after := range []string{"ls LD_PRELOAD=/tmp/x.so", "git log GIT_PAGER='rm -rf ~'", "true"} {
			c := strings.Replace(f, "%s", after, 1)
			// The pager the keyword option hands git runs rm -rf ~,
			// which the text scan finds in GIT_PAGER's value.
			cases = append(cases, blindCase{c, c, TierDestructive, strings.Contains(after, "rm -rf")})
		}
	}
	for _, f := range keywordShells {
		c := strings.Replace(f, "%s", shq("ls LD_PRELOAD=/tmp/x.so"), 1)
		cases = append(cases, blindCase{c, c, TierDestructive, false})
	}
	// Computed option words may be -k or keyword.
	cases = append(cases, sameCases(TierDestructive, false,
		"set $(cat /tmp/opts)",
		`set "$1"`,
		"set -o $(cat /tmp/opt)",
		`set -e -o "$X"`,
		`bash -o "$X" -c ls`,
		`bash -eo "$(cat /tmp/o)" -c ls`,
	)...)
	runBlind(t, p, cases)

	bash, err := exec.LookPath("bash")
	if err != nil {
		return
	}
	// The spellings are real: in each, bash passes a later NAME=VALUE
	// argument in the environment.
	for _, f := range append(append([]string{}, keywordOn...), keywordShells...) {
		probe := "printenv WARDEN_KW WARDEN_KW=on"
		var script string
		if strings.Contains(f, "-c %s") || strings.HasSuffix(f, " %s") && !strings.Contains(f, ";") {
			script = strings.Replace(f, "%s", shq(probe), 1)
			script = strings.TrimPrefix(script, "sudo ")
		} else {
			script = strings.Replace(f, "%s", probe, 1)
		}
		if strings.HasPrefix(script, "sh ") {
			if out, _ := exec.Command("sh", "-c", "set -k 2>/dev/null && echo y").Output(); strings.TrimSpace(string(out)) != "y" {
				continue // sh is not a shell with -k here (dash)
			}
		}
		out, _ := exec.Command(bash, "--norc", "--noprofile", "-c", script).Output()
		if strings.TrimSpace(string(out)) != "on" {
			t.Errorf("bash -c %q printed %q: not a spelling that turns on the keyword option", script, out)
		}
	}
}

// TestKeywordOptionStaysUsable: the options scripts set every day, turning
// keyword off, -k as a positional parameter, listing options and the
// glob options stay as they were.
func TestKeywordOptionStaysUsable(t *testing.T) {
	p := testPolicy(t)
	runExact(t, p, []exactCase{
		{"set -e", "set -e", TierRead},
		{"set -euo pipefail", "set -euo pipefail; ls", TierRead},
		{"set -x", "set -x", TierRead},
		{"set +k", "set +k; ls", TierRead},
		{"set +o keyword", "set +o keyword", TierRead},
		{"set -o lists", "set -o", TierRead},
		{"set +o lists", "set +o", TierRead},
		{"-k as an operand", "set -- -k; echo $1", TierRead},
		{"positional from a value", `set -- $(cat /etc/hostname)`, TierRead},
		{"set -o pipefail", "set -o pipefail", TierRead},
		{"bash -ec", "bash -ec 'ls /'", TierRead},
		{"-k as $0", "bash -c 'echo $0' -k", TierRead},
		{"shopt -s nullglob", "shopt -s nullglob", TierRead},
		{"shopt -o lists", "shopt -o", TierRead},
		{"zsh -k is comments", "zsh -k -c 'ls # x'", TierRead},
	})
}

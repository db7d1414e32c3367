package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotComputedShellOptions: an option name computed at run time,
// or a pattern the shell first matches against file names, may be
// cdable_vars, expand_aliases or any option that changes how later lines
// run, so it is unknown code, as set -o $x is.
func TestBlindSpotComputedShellOptions(t *testing.T) {
	p := testPolicy(t)
	var cmds []string
	for _, w := range []string{`$x`, `"$x"`, `${x}`, `"${opts[@]}"`, `$(cat f)`, "`cat f`", `cdable_var?`, `cdable_[v]ars`, `*vars`} {
		for _, f := range []string{
			"shopt -s %s", "shopt -s -- %s", "shopt -qs %s", "shopt -s nullglob %s", "shopt -u %s",
			"shopt %s cdable_vars", "builtin shopt -s %s", "command shopt -s %s", "eval 'shopt -s %s'",
			"f() { shopt -s %s; }; f", "bash -c 'shopt -s %s; ls'", "setopt %s", "unsetopt %s",
			"zsh -c 'setopt %s'", "ssh h 'setopt %s'", "f() { shopt -s \"$1\"; }; f %s",
		} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", w))
		}
	}
	runBlind(t, p, sameCases(TierDestructive, false, cmds...))
	runExact(t, p, []exactCase{
		{"glob options", "shopt -s nullglob dotglob", TierRead},
		{"query", "shopt -q extglob", TierRead},
		{"list", "shopt", TierRead},
	})
}

// TestBlindSpotZshCdOptions: zsh takes CDABLE_VARS, AUTO_CD, CORRECT,
// CORRECT_ALL and PATH_DIRS in any case, with or without underscores, as
// "no" negated, as letters (-T, -J, -0, -O, -Q), from setopt, unsetopt,
// set and its own invocation; each makes a name go or run where its words
// do not say, as bash's cdable_vars does.
func TestBlindSpotZshCdOptions(t *testing.T) {
	p := testPolicy(t)
	var cmds []string
	for _, f := range []string{
		"setopt %s", "builtin setopt %s", "unsetopt no%s", "unsetopt NO_%s", "setopt extendedglob %s",
		"zsh -o %s -c ls", "zsh -f -o %s -c ls", "zsh +o no%s -c ls", "zsh --%s -c ls", "zsh -c 'setopt %s; ls'",
		"zsh -c 'set -o %s; ls'", "zsh -c 'set +o no%s'", "sudo zsh -o %s -c ls", "env zsh -o %s -c ls",
		"ssh h 'setopt %s'", "ssh h zsh -o %s -c ls",
	} {
		for _, o := range []string{"cdablevars", "CDABLE_VARS", "cdable_vars", "CdAbLeVaRs", "auto_cd", "AUTOCD", "correct", "CORRECT_ALL", "pathdirs", "Path_Dirs"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", o))
		}
	}
	for _, l := range []string{"T", "J", "0", "O", "Q"} {
		for _, f := range []string{"setopt -%s", "unsetopt +%s", "zsh -%s -c ls", "zsh -f%s -c ls", "zsh -c 'set -%s; ls'", "ssh h 'setopt -%s'"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", l))
		}
	}
	cmds = append(cmds, "zsh --cdable-vars -c ls", "zsh --auto-cd -c ls", "setopt -m 'cd*'")
	runBlind(t, p, sameCases(TierDestructive, false, cmds...))
	runExact(t, p, []exactCase{
		{"zsh -f", "zsh -f -c ls", TierRead},
		{"zsh extendedglob", "zsh -o extendedglob -c ls", TierRead},
		{"zsh -c set -e", "zsh -c 'set -e; ls'", TierRead},
	})
}

// TestBlindSpotCommentsOff: with interactive comments off, an interactive
// bash (a session's) runs what follows "#" on a line, which the
// classifier reads as a comment: "ls # ; rm -rf ~" runs rm. Turning them
// off is TierDestructive in every spelling bash and zsh take.
func TestBlindSpotCommentsOff(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"shopt -u interactive_comments", "shopt -qu interactive_comments", "shopt -u -q interactive_comments",
		"shopt -uo interactive-comments", "shopt -u -o interactive-comments", "builtin shopt -u interactive_comments",
		"command shopt -u interactive_comments", "eval shopt -u interactive_comments", "shopt -u 'interactive_comments'",
		"set +o interactive-comments", "set +eo interactive-comments", "set -e +o interactive-comments",
		"builtin set +o interactive-comments", "eval 'set +o interactive-comments'", "f() { set +o interactive-comments; }; f",
		"bash +O interactive_comments", "bash -i +O interactive_comments", "bash +o interactive-comments",
		"sudo bash +O interactive_comments", "env bash +o interactive-comments -i", "exec bash +O interactive_comments",
		"unsetopt interactivecomments", "unsetopt INTERACTIVE_COMMENTS", "setopt nointeractivecomments",
		"setopt no_interactive_comments", "unsetopt -k", "setopt +k", "zsh +k -i", "zsh +o interactivecomments -i",
		"zsh --no-interactive-comments -i", "zsh -o nointeractivecomments -i",
	))
	runExact(t, p, []exactCase{
		{"set -eo pipefail", "set -eo pipefail", TierRead},
		{"comments on", "set -o interactive-comments", TierRead},
		{"set +e", "set +e", TierRead},
	})
}

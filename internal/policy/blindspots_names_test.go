package policy

import "testing"

// TestBlindSpotVariablesSetByName: builtins, loops and expansions that set
// a variable by its name set the ones that change what runs as surely as
// an assignment word does: read PATH <<< /tmp; ls runs /tmp/ls.
func TestBlindSpotVariablesSetByName(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"read PATH <<< /tmp; ls",
		"read -r PATH < /tmp/f; ls",
		"IFS= read -r -d '' BASH_ENV < /tmp/f; export BASH_ENV; bash -c :",
		"printf -v PATH /tmp; ls",
		"printf -vPATH '%s' /tmp; ls",
		"mapfile -t PATH < /tmp/f",
		"readarray -t LD_PRELOAD < /tmp/f",
		"getopts a PATH",
		"wait -p PATH -n",
		"for PATH in /tmp; do ls; done",
		"select PS4 in x; do set -x; done",
		"coproc PATH { cat; }",
		"exec {PATH}>/dev/null",
		": ${PATH:=/tmp}",
		"declare -n r=PATH; r=/tmp; ls",
		"read PS4 <<< x; set -x",
		"read PROMPT_COMMAND < /tmp/f",
		"unset PATH; ls",
		"read -a BASH_CMDS <<< x",
		"declare -A BASH_CMDS; BASH_CMDS[ls]=/tmp/evil; ls",
		"declare -A BASH_CMDS=([ls]=/tmp/evil)",
		"declare -A BASH_ALIASES; BASH_ALIASES[ls]=reboot",
		"declare -A BASH_CMDS; printf -v 'BASH_CMDS[ls]' /tmp/evil; ls",
		"declare -A BASH_CMDS; read 'BASH_CMDS[ls]' <<< /tmp/evil; ls",
	))
	// PROMPT_COMMAND's value runs: reboot there meets the deny list.
	runBlind(t, p, sameCases(TierDestructive, true, "declare -n r; r=PROMPT_COMMAND; r=reboot"))
	runExact(t, p, []exactCase{
		{"read a line", "read -r line < /etc/hostname; echo $line", TierRead},
		{"printf -v", "printf -v x '%s' hi; echo $x", TierRead},
		{"loop", "for f in /etc/*.conf; do wc -l $f; done", TierRead},
		{"default", "echo ${x:=default}", TierRead},
		{"unset other", "unset x y; unset -f f", TierRead},
		{"named descriptor", "exec {fd}</etc/hostname; cat <&$fd", TierRead},
		{"getopts", "getopts ab opt", TierRead},
	})
}

// TestBlindSpotDirectoryVariables: OLDPWD and DIRSTACK are where cd -,
// ~- and popd go, so a value given to them is a directory the input can
// make current.
func TestBlindSpotDirectoryVariables(t *testing.T) {
	p := protectedPolicy(t)
	runBlind(t, p, sameCases(TierRead, true,
		"OLDPWD=/etc/warden; cd -; cat config.yaml",
		"DIRSTACK[1]=/etc/warden; popd; cat config.yaml",
		"pushd /tmp; DIRSTACK[1]=/root/.local/state/warden; popd; cat token",
	))
	runBlind(t, p, sameCases(TierMutate, false,
		"read OLDPWD < /tmp/d; cd -; cat config.yaml",
		"OLDPWD=$(cat /tmp/d); cd -; cat token",
	))
	runExact(t, p, []exactCase{
		{"cd back", "cd /var/log; cd -; cat config.yaml", TierRead},
	})
}

// TestBlindSpotShellInvocationDebugger: bash -O extdebug at invocation
// runs the debugger profile, as --debugger does.
func TestBlindSpotShellInvocationDebugger(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"bash -O extdebug -c ls",
		"bash -xO extdebug -c ls",
	))
	runExact(t, p, []exactCase{
		{"other shopt", "bash -O nullglob -c 'ls /etc/*.conf'", TierRead},
		{"turned off", "bash +O extdebug -c ls", TierRead},
	})
}

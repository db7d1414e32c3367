package policy

import (
	"strings"
	"testing"
)

// TestEverydayScriptShapes: a script's "shopt -s nullglob" (and the other
// options that change only how globs match) and kill of its own job by
// job spec (%1 after cmd &) are tier 0; shopt options that change how
// commands run or parse, a kill of a job spec with no job started, of a
// named job or of another process stay high, and a glob that vanishes
// under nullglob in command position is still judged by what follows.
func TestEverydayScriptShapes(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(
		"shopt -s nullglob",
		"shopt -s nullglob dotglob",
		"shopt -s globstar; ls /etc/**/*.conf",
		"shopt -u nocaseglob",
		"shopt -qs failglob",
		"shopt -s nullglob\nfor f in /var/log/*.log; do wc -l \"$f\"; done",
		"tail -F -n 20 /var/log/nginx/access.log & sleep 3; kill %1",
		"journalctl -f & sleep 2; kill -TERM %%",
		"tcpdump -nn -i eth0 -c 100 port 53 & sleep 5; kill -INT %1",
		"ip monitor & sleep 1; kill %+",
	))
	runExactHosts(t, p, []exactCase{
		{"shopt extglob", "shopt -s extglob", TierBenign},
		{"shopt other", "shopt -s checkwinsize", TierBenign},
		// o's one value is exact after its assignment (loops_exact.go):
		// shopt -s nullglob is a read, extglob benign.
		{"shopt computed", "o=nullglob; shopt -s $o", TierRead},
		{"shopt computed extglob", "o=extglob; shopt -s $o", TierBenign},
		{"kill job no bg", "kill %1", TierMutate},
		{"kill named job", "tail -F x & sleep 1; kill %nginx", TierMutate},
		{"kill job and pid", "tail -F x & sleep 1; kill %1 1234", TierMutate},
		{"kill other", "tail -F x & sleep 1; kill 1234", TierMutate},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"shopt -s nullglob expand_aliases",
		"shopt -s nullglob; /usr/bin/zz* id",
		"shopt -s nullglob; sudo /nomatch* id",
		"shopt -s nullglob; awk -f /nomatch* /tmp/prog.awk",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"shopt -s nullglob; /nomatch* rm -rf /srv",
		"tail -F x & sleep 1; kill %1 1",
		"tail -F x & sleep 1; kill -9 -1 %1",
	))
}

// TestEverydayLowerCaseVariables: a script's own lower-case variables
// (home, env, shell, editor, ifs, python_version) are not the upper-case
// ones programs read, so setting them is tier 0; the upper-case names,
// zsh's lower-case twins of its search paths and prompt, and npm's and
// yarn's configuration prefixes (read in either case) stay tier 3.
func TestEverydayLowerCaseVariables(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(
		`home=/home/alice; ls "$home"`,
		`env=prod; kubectl get pods -n "$env"`,
		`shell=$(getent passwd root | cut -d: -f7); echo "$shell"`,
		`editor=vim; echo "$editor"`,
		`pager=less; echo "$pager"`,
		"readarray -t ifs < /etc/hostname",
		`python_version=$(python3 -V 2>&1); echo "$python_version"`,
		`node_name=$(hostname); echo "$node_name"`,
		`ld_path=/lib; ls "$ld_path"`,
		"read -r home rest < /etc/hostname",
		`for shell in bash zsh; do command -v "$shell"; done`,
		`cc=us; echo "$cc"`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"PATH=/tmp ls",
		"HOME=/tmp git status",
		"IFS=/; echo x",
		"EDITOR=/tmp/x; echo x",
		"for PATH in /tmp; do ls; done",
		"path=(/tmp); ls",
		"for path in /tmp/x; do ls; done",
		"cdpath=/tmp; cd x",
		"fpath=(/tmp); autoload x",
		"module_path=(/tmp); zmodload x",
		"prompt='$(id)'",
		"mailpath=('/tmp/m?$(id)')",
		"NULLCMD=reboot; > /tmp/x",
		"READNULLCMD='sh -c id'; < /etc/hosts",
		"PROMPT='$(id)'",
		"RPROMPT='$(id)'",
		"RPS1='$(id)'",
		"SPROMPT='$(id)'",
		"PROMPT4='$(id)'",
		"precmd_functions+=(f)",
		"preexec_functions=(f)",
		"chpwd_functions=(x); cd /tmp",
		"export READNULLCMD=x",
		"npm_config_script_shell=/tmp/x npm ls",
		"NPM_CONFIG_SCRIPT_SHELL=/tmp/x npm ls",
		"yarn_rc_filename=/tmp/x yarn list",
		"warden_config=/tmp/x; echo",
		"LD_PRELOAD=/tmp/x.so ls",
		"PYTHONPATH=/tmp python3 -V",
		"read -r PATH < /tmp/x",
		"readarray -t PATH < /tmp/x",
	))
}

// TestEverydayDigitsFromTr: a value taken from tr -dc '0-9' (which keeps
// only digits and line ends) is a number arithmetic can use at tier 0, as
// wc -l's is; a tr that keeps other characters, does not delete, is not
// last in the pipeline, or is the script's own function stays tier 3.
func TestEverydayDigitsFromTr(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(
		"usage=$(df --output=pcent / | tail -1 | tr -dc '0-9'); if (( usage > 90 )); then echo full; fi",
		"u=$(df / | tail -1 | tr -cd '[:digit:]'); echo $((u + 1))",
		"n=$(tr -dc '0-9\\n' < /sys/class/thermal/thermal_zone0/temp); echo $((n / 1000))",
		"pct=$(cat /sys/class/power_supply/BAT0/capacity | tr -d -c 0-9); (( pct < 20 )) && echo low",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"u=$(cat /tmp/x | tr -dc '0-9a-z[]$()'); (( u > 1 ))",
		"u=$(cat /tmp/x | tr -d '0-9'); (( u > 1 ))",
		"u=$(cat /tmp/x | tr -c '0-9' x); (( u > 1 ))",
		"u=$(cat /tmp/x | tr -dc '[:alnum:]'); (( u > 1 ))",
		"u=$(cat /tmp/x | tr -dc '0-9' | sed p); (( u > 1 ))",
		"u=$(cat /tmp/x | tr -dc '0-9'; cat /tmp/y); (( u > 1 ))",
		"tr() { cat /tmp/x; }; u=$(echo 1 | tr -dc 0-9); (( u > 1 ))",
		"u=$(cat /tmp/x | tr -dc \"$set\"); (( u > 1 ))",
	))
}

// TestEverydayKillOwnJobs: kill $(jobs -p), the usual cleanup trap, only
// signals this shell's own jobs; with another pid, a job list other than
// -p's, or a script function named jobs it stays high.
func TestEverydayKillOwnJobs(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(
		"trap 'kill $(jobs -p) 2>/dev/null' EXIT",
		"trap 'kill $(jobs -p)' EXIT\ntcpdump -nn -i eth0 -c 50 port 53 &\nsleep 5",
		"kill $(jobs -p)",
		"kill -TERM $(jobs -pr) 2>/dev/null || true",
	))
	runExactHosts(t, p, []exactCase{
		{"function jobs", "jobs() { echo 1; }; kill $(jobs -p)", TierMutate},
		{"jobs without -p", "kill $(jobs)", TierMutate},
		{"jobs -l", "kill $(jobs -l)", TierMutate},
		{"pgrep", "kill $(pgrep nginx)", TierMutate},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"kill $(jobs -p) 1",
		"kill -9 -1 $(jobs -p)",
	))
}

// TestEverydayNestedSubstitutions: a value whose double-quoted $(…)
// holds another substitution (x="$(echo $(pwd))") was read with an
// evaluation that had no printer for the inner one, and every such call
// came back "classifier fault" at tier 3.
func TestEverydayNestedSubstitutions(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(
		`x="$(echo $(pwd))"; echo "$x"`,
		`export X="$(cat $(ls /etc/hostname))"`,
		`for i in "$(echo $(id -u))"; do echo "$i"; done`,
		`read -r v <<< "$(echo ${HOME:-$(pwd)})"; echo "$v"`,
		"d=/tmp; x=\"$(echo `pwd`/x)\"; echo \"$x\"",
		`f() { local y="$(printf %s $(date +%s))"; echo "$y"; }; f`,
	))
	for _, c := range []string{`eval "$(echo $(pwd))"`, `declare -i n="$(echo $(id -u))"`, `x=${y:-"$(echo {a,b}$(pwd))"}`} {
		if v := p.Evaluate(Input{Command: c}); strings.Contains(v.Reason, "fault") {
			t.Errorf("Evaluate(%q) = %s", c, formatVerdict(v))
		}
	}
}

// TestEverydayAssignmentSubstitution: a $(…) holding only assignments
// ($(x=1)) has no command words, and reading it as $(cat FILE) faulted.
func TestEverydayAssignmentSubstitution(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(`x=$(y=1); echo "$x"`, `echo "$(y=1 z=2)"`, "x=`y=1`"))
}

package policy

import "testing"

// TestBlindSpotExtGlob: bash expands the substitutions inside an extended
// glob pattern (@(…), !(…), +(…), *(…), ?(…)) before it matches, in
// arguments, case patterns and [[ == ]] alike; the parser keeps the
// pattern as text.
func TestBlindSpotExtGlob(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"argument", "shopt -s extglob; echo @($(reboot)|x)", TierDestructive, true},
		{"one or more", "echo +(a|$(poweroff))", TierDestructive, true},
		{"negation", "ls !(`init 0`)", TierDestructive, true},
		{"case pattern", "case x in @($(reboot))) ;; esac", TierDestructive, true},
		{"test pattern", "[[ x == ?($(reboot)) ]]", TierDestructive, true},
		{"nested", "echo *(a|@($(reboot)))", TierDestructive, true},
		{"write", "echo @($(touch /var/x))", TierMutate, false},
		{"unknown arithmetic", "echo @($((x)))", TierMutate, false},
		{"prompt expansion", "echo @(${x@P})", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"plain alternatives", "ls @(*.txt|*.md)", TierRead},
		{"negated glob", "ls !(*.log)", TierRead},
		{"parameter in pattern", `case $f in @("$x"|b)) echo y;; esac`, TierRead},
		{"read in pattern", "ls @($(date +%Y)*)", TierRead},
	})
}

// TestBlindSpotQuotedDefaults: inside a double-quoted ${x:-…} (and :+ := :?
// and their forms without the colon) and in a here-document, single
// quotes are plain characters, so bash expands the $(…) between them;
// the parser reads them as quoting.
func TestBlindSpotQuotedDefaults(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"default", `echo "${x:-'$(reboot)'}"`, TierDestructive, true},
		{"alternate", `echo "${x+'$(poweroff)'}"`, TierDestructive, true},
		{"assign", `: "${x:='$(init 0)'}"`, TierDestructive, true},
		{"backquotes", "echo \"${x-'`reboot`'}\"", TierDestructive, true},
		{"assignment value", `y="${x:-'$(reboot)'}"`, TierDestructive, true},
		{"nested", `echo "${x:-${y:-'$(reboot)'}}"`, TierDestructive, true},
		{"here-document", "cat <<EOF\n${x:-'$(reboot)'}\nEOF", TierDestructive, true},
		{"write", `echo "${x:-'$(touch /var/x)'}"`, TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"unquoted expansion quotes", `echo ${x:-'$(reboot)'}`, TierRead},
		{"pattern quotes", `echo "${x#'$(reboot)'}"`, TierRead},
		{"quoted here-document", "cat <<'EOF'\n${x:-'$(reboot)'}\nEOF", TierRead},
		{"plain default", `echo "${x:-'default value'}"`, TierRead},
	})
}

// TestBlindSpotPositionals: the arguments after sh -c TEXT are the
// payload's $1…, until it changes them (set --, shift) or uses them in a
// function, which has its own.
func TestBlindSpotPositionals(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"set from input", `bash -c 'read x; set -- "$x"; (( $1 ))' _ 5`, TierMutate, false},
		{"set from file", `sh -c 'set -- $(cat /tmp/x); echo $(( $1 ))' _ 5`, TierMutate, false},
		{"builtin set", `bash -c 'builtin set -- "$(cat /tmp/x)"; let "$1"' _ 5`, TierMutate, false},
		{"function arguments", `bash -c 'f() { echo $(( $1 )); }' _ 5`, TierMutate, false},
		{"shift", `bash -c 'shift; echo $(( $1 ))' _ 5`, TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"known argument", `bash -c 'echo $(( $1 + 1 ))' _ 5`, TierRead},
		{"set options only", `bash -c 'set -euo pipefail; echo $(( $1 * 2 ))' _ 3`, TierRead},
	})
}

// TestBlindSpotShadowedOutput: the classifier computes what echo and
// printf print and trusts wc, seq, nproc and the like to print a number;
// a function of the same name, in the script or exported to a child
// bash, prints what it likes.
func TestBlindSpotShadowedOutput(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"echo piped to sh", "echo() { cat /tmp/x; }; echo ls | sh", TierDestructive, false},
		{"printf piped to bash", "function printf { cat /tmp/x; }; printf id | bash", TierDestructive, false},
		{"echo in here-string", `echo() { cat /tmp/x; }; sh <<< "$(echo ls)"`, TierDestructive, false},
		{"seq in arithmetic", "seq() { cat /tmp/x; }; for i in $(seq 3); do (( i )); done", TierMutate, false},
		{"wc assigned", "wc() { cat /tmp/x; }; n=$(wc -l < /tmp/f); (( n ))", TierMutate, false},
		{"nproc in arithmetic", "nproc() { cat /tmp/x; }; echo $(( $(nproc) ))", TierMutate, false},
		{"exported echo", "echo() { cat /tmp/x; }; export -f echo; bash -c 'echo ls | sh'", TierDestructive, false},
		{"declare -fx", "declare -fx printf", TierDestructive, false},
		// Counts that print file names: a name can be a[$(cmd)].
		{"grep -c over a glob", "n=$(grep -c x /tmp/d/*); (( n ))", TierMutate, false},
		{"grep -cH", "n=$(grep -cH x /tmp/f); echo $(( n ))", TierMutate, false},
		{"wc --files0-from", "n=$(wc -l --files0-from=/tmp/l); (( n ))", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"other function", "f() { ls; }; echo ls | sh", TierRead},
		{"exported other function", "f() { ls; }; export -f f", TierRead},
		{"count", "n=$(wc -l < /etc/hosts); (( n > 1 )) && echo many", TierRead},
	})
}

// TestBlindSpotPromptExpansion: ${x@P} expands x's value as a prompt,
// running the command substitutions in it, like eval.
func TestBlindSpotPromptExpansion(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"unknown value", "echo ${n@P}", TierMutate, false},
		{"quoted", `echo "${n@P}"`, TierMutate, false},
		{"read value", "read -r p; echo \"${p@P}\"", TierMutate, false},
		{"substituted value", "p=$(cat /tmp/p); printf '%s' \"${p@P}\"", TierMutate, false},
		{"known code", "n='$(reboot)'; echo ${n@P}", TierDestructive, true},
		{"known backquotes", "n='`poweroff`'; x=${n@P}", TierDestructive, true},
		{"known write", "n='$(touch /tmp/p)'; echo ${n@P}", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"integer", "n=3; echo ${n@P}", TierRead},
		{"other operator", "echo ${n@Q}", TierRead},
	})
}

// TestBlindSpotIntegerAttributeReach: a variable's integer attribute
// reaches every way bash assigns it: through a nameref declared before or
// after the attribute, from code this shell runs later (eval's words, a
// trap action, source of a here-string), into that code, with option
// words computed at run time, and for bash's own variables that become
// integers (SECONDS once read, BASHPID's +=). Each evaluates a value not
// known at parse time.
func TestBlindSpotIntegerAttributeReach(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"declare -i x; declare -n r=x; r=$1",
		"declare -n r=x; declare -i x; r=$1",
		"declare -n r=x; declare -i x; read r",
		"declare -n r=x; declare -i x; printf -v r %s \"$1\"",
		"declare -n s=x; declare -n r=s; declare -i x; r=$1",
		"command declare -n r=x; declare -i x; r=$1",
		"eval 'declare -i x'; x=$1",
		"eval declare -i x; x=$1",
		"builtin eval 'typeset -i x'; x=$1",
		"trap 'declare -i x' DEBUG; x=$1",
		"source /dev/stdin <<< 'declare -i x'; x=$1",
		"declare -$(echo i) x; x=$1",
		"declare -i x; eval 'x=$1'",
		"declare -i x; eval 'read x'",
		"declare -i x; trap 'x=$1' EXIT",
		"declare -i x; mapfile -C 'x=$1 #' -c 1 < /etc/hostname",
		"declare -i x; source /dev/stdin <<< 'x=$1'",
		"declare -n r=x; declare -i x; eval 'r=$1'",
		"declare -i x; getopts a x",
		"SECONDS=$1",
		"echo $SECONDS; SECONDS=$1",
		"BASHPID+=$1",
	))
	runExact(t, p, []exactCase{
		{"nameref to a string", "declare -n r=x; r=$1; echo $x", TierRead},
		{"eval of an echo", "eval 'echo hi'; x=$1; echo $x", TierRead},
		{"trap cleanup", "trap 'echo done' EXIT; x=$(cat /etc/hostname); echo $x", TierRead},
		{"integer literal", "declare -i x; eval 'x=5'; echo $x", TierRead},
		{"seconds reset", "SECONDS=0; sleep 1; echo $SECONDS", TierRead},
		{"getopts", "while getopts ab opt; do echo $opt; done", TierRead},
	})
}

// TestBlindSpotAssocOnlyAfterDeclare: an associative array's subscripts
// are strings, but -A is given when the declaration runs and only in
// the scope it runs in. A subscript used before it, after unset, beside
// a declaration in a function never called, a subshell or a branch not
// taken, or under a local that hides the array, is arithmetic on an
// indexed array, and runs the $(…) in a value not known at parse time.
func TestBlindSpotAssocOnlyAfterDeclare(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"read k; a[$k]=1; declare -A a",
		"echo ${a[$1]}; declare -A a",
		"read -r k; : ${h[$k]}; typeset -A h",
		"f() { declare -A a; }; a[$1]=1",
		"f() { local -A a; }; echo ${a[$1]}",
		"declare -A a; unset a; a[$1]=1",
		"declare -A a; unset -v a; echo ${a[$1]}",
		"declare -A a; builtin unset a; read k; a[$k]=1",
		"declare -A a; unset \"$n\"; a[$1]=1",
		"declare -A a; f() { local a; a[$1]=1; }; f",
		"declare -A a; f() { local -a a; a[$1]=1; }; f",
		"declare -A a; f() { command local a; a[$1]=1; }; f",
		"( declare -A a ); a[$1]=1",
		"{ declare -A a; } & a[$1]=1",
		"if false; then declare -A a; fi; a[$1]=1",
		"false && declare -A a; a[$1]=1",
		"declare -A a <&7; a[$1]=1",
		"declare -A a > /x/y; read k; echo ${a[$k]}",
		"while read -r k; do c[$k]=1; done < /tmp/f; declare -A c",
		"read k; a+=([$k]=1); declare -A a",
		"read 'a[x]'; declare -A a",
		"declare -A a; eval \"$s\"; a[$1]=1",
	))
	runExactHosts(t, p, []exactCase{
		{"count words", "declare -A c; while read -r w; do c[$w]=1; done < /tmp/f; echo ${#c[@]}", TierRead},
		{"lookup", "declare -A h=([a]=1); read k; echo ${h[$k]}", TierRead},
		{"typeset", "typeset -A seen; read -r x; seen[$x]=1", TierRead},
		{"printed", "declare -A a; a[$1]=1; declare -p a", TierRead},
		{"global again", "declare -A a; read k; a+=([$k]=1); echo ${!a[@]}", TierRead},
		{"element unset", "declare -A a; read k; a[$k]=1; unset 'a[x]'", TierRead},
		{"function use after", "declare -A a; f() { echo ${a[$1]}; }; f x", TierRead},
	})
}

// TestBlindSpotDeclarationAsCall: a declaration the parser reads as a
// plain call, not a declaration clause (after an assignment prefix,
// command, builtin, or with its name quoted), still evaluates the value
// of an integer variable as arithmetic and a nameref's value as a
// variable name with a subscript.
func TestBlindSpotDeclarationAsCall(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"x=1 declare -i y=$1",
		"LC_ALL=C typeset -i y=$(cat /tmp/f)",
		"read v; x=1 declare -ri y=$v",
		"x=1 declare -ix y=\"$1\"",
		"command declare -n r=\"$1\"; r=1",
		"builtin declare -n r=$1; echo $r",
		"\\declare -n r=\"$1\"; echo ${r}",
		"'typeset' -n r=$1; : $r",
		"d''eclare -n r=\"$1\"",
		"command -p declare -n r=\"$1\"",
		"builtin command declare -n r=$(cat /tmp/f)",
		"f() { builtin local -n r=$1; echo $r; }; f \"$@\"",
		"f() { command local -i n=$1; }; f \"$@\"",
		"declare -i y; command export y=$1",
		"declare -i y; x=1 readonly y=$1",
		"command declare -n r; builtin declare r=$1",
		"x=1 declare a[$1]=1",
		"read k; builtin typeset \"a[$k]=1\"",
		"command declare $o y=$1",
	))
	runExactHosts(t, p, []exactCase{
		{"integer literal", "command declare -i n=5", TierRead},
		{"local counter", "f() { builtin local -i i=0; }; f", TierRead},
		{"nameref to a literal", "builtin declare -n r=x; echo $r", TierRead},
		{"plain value", "command declare x=$1", TierRead},
		{"exported value", "x=1 export X=\"$1\"", TierRead},
		{"argument count", "x=1 declare -i y=$#", TierRead},
		{"option after operand", "command declare x=$1 -i y", TierRead},
	})
}

// TestBlindSpotSkippedTopStatement: a declaration or loop whose
// redirection fails (a missing file, a closed descriptor) does not run,
// so the variable it would have set to an integer or a plain name keeps
// the value the environment gave it, which arithmetic then evaluates.
func TestBlindSpotSkippedTopStatement(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"declare x=5 <&3; (( x ))",
		"for x in 1 2; do :; done </tmp/nonexistent; (( x ))",
		"typeset -i n=0 < /etc/hostname; echo $(( n + 1 ))",
		"declare y=x <&4; echo ${!y}",
		"for i in 1; do :; done <&9; echo ${s:i}",
		"export n=1 <\"$f\"; [[ $n -eq 1 ]]",
		"for ((i=0;i<3;i++)); do :; done <&5; echo ${a[i]}",
		"readonly n=2 0<x; let m=n",
	))
	runExactHosts(t, p, []exactCase{
		{"errors discarded", "declare n=5 2>/dev/null; (( n ))", TierRead},
		{"loop output discarded", "for i in 1 2; do :; done &>/dev/null; echo $(( i ))", TierRead},
		{"standard streams", "declare n=5 2>&1; echo $((n))", TierRead},
		{"here-string", "declare n=5 <<< x; (( n ))", TierRead},
		{"no redirection", "for i in 1 2; do :; done; echo ${a[i]}", TierRead},
	})
}

// TestBlindSpotShadowedDeclaration: a function named declare, typeset,
// export, readonly or local runs instead of the builtin, so the
// declarations the parser reads assign nothing and their variables keep
// the environment's values; exported, it does so in every child bash.
func TestBlindSpotShadowedDeclaration(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"function typeset { :; }; typeset -i n=0; echo $((n))",
		"function declare { :; }; declare x=5; (( x ))",
		"function export { :; }; export n=1; [[ $n -eq 1 ]]",
		"function readonly { :; }; readonly n=2; let m=n",
		"function declare() { :; }; declare -A a; a[$1]=1",
		"function declare { :; }; declare y=x; echo ${!y}",
		"f() { function declare { :; }; }; f; declare n=5; (( n ))",
		"function declare { :; }; export -f declare; bash -c 'declare n=5; (( n ))'",
		"function typeset { :; }; declare -fx typeset; bash -c 'typeset -i n=0; echo $((n))'",
	))
	runExactHosts(t, p, []exactCase{
		{"function of another name", "function setup { :; }; declare n=5; (( n ))", TierRead},
		{"exported helper", "function greet { echo hi; }; export -f greet; bash -c 'declare n=5; echo $((n))'", TierRead},
	})
}

// TestBlindSpotHiddenPositionals: eval text, a trap action, a mapfile
// callback and a sourced file run in the same shell and can set or
// shift the positional parameters the caller gave sh -c, so $1 after
// them is not the known argument.
func TestBlindSpotHiddenPositionals(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`bash -c 'eval "set -- \"\$(cat /tmp/x)\""; (( $1 ))' _ 5`,
		`bash -c 'eval set -- \"\$X\"; echo $(( $1 ))' _ 5`,
		`bash -c "eval 'set -- \"\$X\"'; (( \$1 ))" _ 5`,
		`bash -c 'builtin eval set -- \"\$X\"; let "$1"' _ 5`,
		`bash -c 'trap "set -- \"\$X\"" DEBUG; :; (( $1 ))' _ 5`,
		`bash -c 'source /dev/stdin <<< "set -- \"\$X\""; (( $1 ))' _ 5`,
		`bash -c '. ./lib.sh; (( $1 ))' _ 5`,
		`bash -c 'mapfile -C "set -- \"\$X\" #" -c 1 x <<< y; (( $1 ))' _ 5`,
		`bash -c 'eval "eval shift"; echo ${a[$1]}' _ 5 "$X"`,
		`bash -c 'eval "$c"; (( $1 ))' _ 5`,
	))
	runExactHosts(t, p, []exactCase{
		{"trap cleanup", `bash -c 'trap "echo done" EXIT; echo $(( $1 + 1 ))' _ 5`, TierRead},
		{"eval of an echo", `bash -c 'eval "echo hi"; echo $(( $1 * 2 ))' _ 3`, TierRead},
		{"mapfile without callback", `bash -c 'mapfile -t l < /etc/hostname; echo $(( $1 ))' _ 3`, TierRead},
	})
}

// TestBlindSpotInteractiveMail: an interactive shell, as a session is,
// evaluates MAILCHECK as arithmetic when it is assigned, and expands the
// message after a '?' in MAILPATH, $(…) included, when a mailbox in it
// changes.
func TestBlindSpotInteractiveMail(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"read x; MAILCHECK=$x",
		"MAILCHECK=$(cat /tmp/f)",
		"export MAILCHECK=\"$1\"",
		"printf -v MAILCHECK %s \"$1\"",
		"MAILPATH='/tmp/m?$(reboot)'",
		"export MAILPATH=\"/tmp/m?$1\"",
		"read -r MAILPATH",
		"MAILPATH=/var/mail/root",
	))
	runExactHosts(t, p, []exactCase{
		{"mail check interval", "MAILCHECK=60", TierRead},
		{"mail check off", "MAILCHECK=0; echo $MAILCHECK", TierRead},
	})
}

// TestBlindSpotHistoryWithSlashes: in a session's interactive shell a
// command name with a history event runs an earlier command, edited by
// its modifiers; the slashes of :s/old/new/ must not make it a path
// whose last component is a harmless name.
func TestBlindSpotHistoryWithSlashes(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"!!:s/echo/rm/",
		"!!:gs/a/b/",
		"!!/x",
		"sudo !-2:s/a/b/",
		"!-1:s/x/y/ -f",
		"!ec:s/echo //",
		"x!!",
		"^echo^",
	))
	runExactHosts(t, p, []exactCase{
		{"last argument", "echo !$", TierRead},
		{"bang then space", "echo hi; [ ! -e /tmp/x ] && echo none", TierRead},
		{"negated pipeline", "! grep -q x /etc/hostname", TierRead},
	})
}

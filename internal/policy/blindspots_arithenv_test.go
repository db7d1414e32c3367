package policy

import "testing"

// An arithmetic assignment sets a variable as an assignment word does:
// (( PATH = 1 )) makes PATH the relative directory 1, so a later ls runs
// ./1/ls, a file a tier 1 call can write in a temporary working
// directory; (( HOME = 1 )) points git at ./1/.gitconfig. Every context
// bash evaluates as arithmetic assigns: (( )), let, $(( )), for (( )),
// array subscripts, ${s:offset}, [[ -eq ]] operands, integer variables'
// values and quoted text. Counters in a script's own names stay tier 0.
func TestBlindArithEnv(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"(( PATH=1 )); ls",
		"cd /tmp/w && (( PATH = 1 )) && ls -l",
		"(( PATH=1 ))\nls",
		"let PATH=1; ls",
		"let HOME=1 ; git log",
		"let 'HOME = 1'; git log",
		`let "PATH=1"; ls`,
		`(( "PATH=1" )); ls`,
		"echo $(( PATH=1 )); ls",
		": $(( HOME=1 )); git log",
		"x=$(( HOME=1 )); git log",
		`echo "$(( HOME = 2 ))"; git status`,
		"a[HOME=1]=2; git log",
		"echo ${x[HOME=1]}; git log",
		"echo ${x:HOME=1}; git log",
		"echo ${x:0:HOME=1}; git log",
		"[[ HOME=1 -eq 1 ]]; git log",
		"[[ 1 -lt PATH=2 ]]; ls",
		"[[ $((HOME=1)) ]]; git log",
		"printf '%d\\n' $(( HOME = 1 )); git log",
		"for ((HOME=1;0;)); do :; done; git log",
		"for ((i=0; i<1; PATH=i++)); do :; done; ls",
		"(( a = 1, PATH = 2 )); ls",
		"(( x = PATH = 2 )); ls",
		"(( 1 ? PATH = 1 : 0 )); ls",
		"declare -i x; x=HOME=1; git log",
		"declare -i x; x='PATH=1'; ls",
		"[[ -v a[PATH=1] ]]; ls",
		"set -a; (( BASH_ENV=1 )); bash -c ls",
		"(( LD_PRELOAD=1 )); ls",
		"(( GIT_PAGER = 1 )); git log",
		"(( IFS = 1 )); ls",
		"sh -c '(( PATH = 1 )); ls'",
		"bash -c 'let PATH=1; ls'",
		"f() { (( PATH = 1 )); }; f; ls",
		"( (( PATH=1 )); ls )",
		"if (( PATH = 1 )); then ls; fi",
		"(( RUSTUP_TOOLCHAIN = 1 )); cargo --version",
	))
	runExactHosts(t, p, []exactCase{
		{"(( i=1 )); ls", "(( i=1 )); ls", TierRead},
		{"counter", "(( COUNT = 0 )); echo $COUNT", TierRead},
		{"let n", "let n=5; echo $n", TierRead},
		{"for loop", "for ((i=0; i<3; i++)); do echo $i; done", TierRead},
		{"arith echo", "echo $(( 6 * 7 ))", TierRead},
		{"arith assign", "total=$(( 2 + 3 )); echo $total", TierRead},
		{"test", "[[ 3 -gt 2 ]] && ls", TierRead},
		{"slice", "s=abcdef; echo ${s:1:2}", TierRead},
	})
}

package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotBracedDeclarations: bash brace-expands a declaration
// builtin's argument whose name holds braces (it is no assignment word to
// the parser) and the builtin reads each field as an assignment, so export
// LD_{PRELOAD,X}=/tmp/x.so sets LD_PRELOAD for the next program as export
// LD_PRELOAD=/tmp/x.so does; declare -i and -n given that way change what
// later assignments do.
func TestBlindSpotBracedDeclarations(t *testing.T) {
	p := testPolicy(t)
	var cmds []string
	for _, b := range []string{"export", "declare -x", "typeset -x", "readonly", "local -x", "declare -gx", "export --",
		"declare", "command export", "builtin declare -x", "declare -rx"} {
		for _, w := range []string{"LD_{PRELOAD,X}=/tmp/x.so", "LD_PRELOAD{,}=/tmp/x.so", "{LD_PRELOAD,X}=/tmp/x.so",
			"L{D_PRE,}LOAD=/tmp/x.so", "LD_PRE{LOAD,}=/tmp/x.so", "PATH{,}=/tmp/x", "BASH_ENV{,}=/tmp/x", "PROMPT_COMMAND{,}=id",
			"GIT_{SSH_COMMAND,X}=id", "PS4{,}='$(id)'", "LD_{AUDIT,PRELOAD}=/tmp/x.so", "LD_PRELOAD{,}+=/tmp/x.so"} {
			cmds = append(cmds, b+" "+w+"; ls")
		}
	}
	cmds = append(cmds, "declare -i n{,}; n=$x", "declare -n r{,}; r=$x", "declare -n r{,}=PATH", "typeset -i n{a,b}",
		"local -n r{,}=LD_PRELOAD", "declare -in n{,}")
	runBlind(t, p, sameCases(TierDestructive, false, cmds...))
	runExact(t, p, []exactCase{
		{"harmless names", "export A{1,2}=x", TierRead},
		{"print braced", "declare -p A{1,2}", TierRead},
		{"braced value", "export X=/tmp/{a,b}", TierRead},
		{"many harmless", "declare -a arr{1..3}", TierRead},
	})
	if !strings.Contains(p.Evaluate(Input{Command: "export LD_{PRELOAD,X}=/tmp/x.so"}).Reason, "LD_PRELOAD") {
		t.Error("the reason does not name the variable set")
	}
}

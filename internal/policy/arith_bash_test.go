package policy

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// bashValueSources are the ways a value not known at parse time reaches
// a script as V: an argument, a line of input, the environment, a file.
var bashValueSources = []struct{ name, prefix string }{
	{"argument", `V=$1; `},
	{"input", `read -r V; `},
	{"environment", ``},
	{"file", `V=$(cat v); `},
}

// bashPayloads are values of V that run "touch M" in some context bash
// evaluates: as arithmetic (a subscript expands $(…)), as a variable
// name, as shell text, as a program.
var bashPayloads = []string{
	"a[$(touch M)]",
	"x[$(touch M)]",
	"1+a[$(touch M)]",
	"a[$(touch M)]=1",
	"$(touch M)",
	"`touch M`",
	"./mk",
}

// bashValueContexts are the templates the differential test asks bash
// about: each uses V, a value not known at parse time.
var bashValueContexts = []string{
	// Arithmetic.
	"(( V ))", "(( $V ))", "(( x = V ))", "(( x = $V + 1 ))", "((V)) || :", "(( a[$V] ))", "(( a[V] ))",
	"echo $(( V ))", "echo $(( $V ))", "echo $(( ${V} ))", "echo $(( V + 1 ))", "echo $[ V ]", "echo $[ $V ]",
	"echo ${x:-$((V))}", "echo \"$(( V ))\"",
	"let V", "let x=V", `let "x=$V"`, "let x=$V", "let x+=V", "let 'x = V'",
	"for (( i=0; i<V; i++ )); do break; done", "for (( i=V; i<1; i++ )); do :; done",
	"x=V; (( x ))", "x=V; echo $(( x ))", "x=V; let x", "x=V; [[ x -eq 1 ]]",
	// Integer variables.
	"declare -i x; x=$V", "declare -i x; x=V", "declare -i x; x+=$V", "declare -i x=$V", "typeset -i x=$V",
	"f() { local -i x=$V; }; f", "declare -ix x=$V", "declare -ri x=$V", "declare -i x; x=\"$V\"",
	"declare -i x; read x", "declare -i x; IFS= read -r x", "declare -i x; printf -v x %s \"$V\"",
	"declare -ai x; mapfile x", "declare -ai x; x=($V)", "declare -ai x; x+=(\"$V\")", "declare -ia x=(\"$V\")",
	"declare -i x; : ${x:=$V}", "declare -i x; for x in \"$V\"; do :; done", "declare -i x; select x in \"$V\"; do break; done",
	"declare -i x; x=$(cat v)", "declare -i x; x=${V}", "declare -i x; x=${V:-1}",
	"declare -i x; export x=$V", "declare -i x; readonly x=$V", "declare -i x; x=(\"$V\")", "declare -i x; declare x=$V",
	"declare -i x; getopts a x", "f() { declare -i x; x=$V; }; f", "typeset -i x; x=$V",
	"x=1 declare -i x=$V", "LC_ALL=C typeset -ri y=$V", "command declare -n r=\"$V\"; r=1", "builtin typeset -n r=$V; : $r",
	"\\declare -n r=$V; echo $r", "'declare' -n r=\"$V\"; echo ${r}", "x=1 declare a[$V]=1", "declare -i y; command export y=$V",
	"declare V=5 <&3; (( V ))", "for V in 1; do :; done <&9; echo ${s:V}", "typeset -i V=0 < nonexistent; echo $(( V ))",
	"declare y=V <&4; echo ${!y}", "function typeset { :; }; typeset -i V=0; echo $((V))", "function declare { :; }; declare -A a; a[$V]=1",
	"function declare { :; }; export -f declare; bash -c 'declare V=5; (( V ))'",
	"bash -c 'eval set -- \\\"\\$V\\\"; (( $1 ))' _ 5", "bash -c 'trap \"set -- \\\"\\$V\\\"\" DEBUG; :; (( $1 ))' _ 5",
	// [[ ]], test, [.
	"[[ $V -eq 1 ]]", "[[ V -eq 1 ]]", "[[ 1 -ne $V ]]", "[[ $V -lt 1 || 1 ]]", "[[ \"$V\" -ge 1 ]]",
	"[[ -v $V ]]", "[[ -v a[$V] ]]", "[[ -v \"$V\" ]]", "[[ -R $V ]]", "[[ -v a[V] ]]",
	"test -v \"$V\"", "[ -v \"$V\" ]", "[ -R \"$V\" ]", "test -v \"a[$V]\"", "test \"$V\" -eq 1", "[ \"$V\" -gt 0 ]", "test $V", "[ $V ]",
	"[[ x == $V ]]", "[[ x =~ $V ]]", "case x in $V) ;; esac", "[[ $V ]]",
	// Array subscripts.
	"a[$V]=1", "a[V]=1", "a+=([$V]=1)", "a=([$V]=1)", "declare -a a=([$V]=1)", "declare -a \"a=([$V]=1)\"",
	"declare \"a=($V)\"", "declare -a \"a=($V)\"", "f() { local \"a=($V)\"; }; f", "declare -A h; h[$V]=1",
	"a[$V]+=1", "declare a[$V]=1", "export a[$V]=1", "readonly a[$V]=1",
	"a[$V]=1; declare -A a", "echo ${a[$V]}; declare -A a", "f() { declare -A a; }; a[$V]=1", "( declare -A a ); a[$V]=1",
	"declare -A a; unset a; a[$V]=1", "declare -A a; f() { local a; a[$V]=1; }; f", "false && declare -A a; a[$V]=1",
	"declare -A a; a[$V]=1", "declare -A a; echo ${a[$V]}",
	"echo ${a[$V]}", "echo ${a[V]}", "echo \"${a[$V]}\"", "echo ${a[$V]:-x}", ": ${a[$V]:=1}", "echo ${#a[$V]}",
	"echo ${!a[$V]}", "echo ${V[$V]}", "echo ${a[$V]@Q}", "declare -A h; echo ${h[$V]}",
	// Substrings.
	"echo ${V:$V}", "echo ${V:0:$V}", "echo ${V:V}", "echo ${a[@]:$V}", "echo ${@:$V}", "set -- x; echo ${@:V}", "echo ${*:0:V}",
	// Indirection, transformations, patterns.
	"echo ${!V}", "echo \"${!V}\"", "echo ${!V:-x}", "echo ${!V[@]}", "echo ${!V@}", "echo ${#V}",
	"echo ${V@P}", "echo \"${V@P}\"", "echo ${V@Q}", "echo ${V@E}", "echo ${V@A}", "echo ${V@K}",
	"echo ${V//x/y}", "x=1; echo ${x//$V/y}", "echo ${x:-$V}", "echo ${x:-${V}}", ": ${V:=x}", "echo ${x#$V}",
	"echo ${V:?x}",
	// Namerefs.
	"declare -n r=$V; echo $r", "declare -n r=\"$V\"; r=1", "declare -n r; r=$V; echo $r", "declare -n r=V; (( r ))",
	"f() { local -n r=$V; echo $r; }; f", "declare -n r=\"$V\"; unset r", "declare -n r=\"$V\"; echo ${r}",
	"typeset -n r=$V; : $r", "declare -n r; for r in \"$V\"; do :; done",
	// Builtins that take variable names.
	"printf -v \"$V\" %s x", "printf -v \"a[$V]\" %s x", "printf -v x %d \"$V\"", "printf %d \"$V\"", "printf '%*d' \"$V\" 1",
	"printf '%.*s' \"$V\" x", "printf '%(%s)T' \"$V\"", "printf %s \"$V\"", "printf \"$V\"", "printf %b \"$V\"",
	"read \"$V\" <<< x", "read -r \"$V\" <<< x", "read -a \"$V\" <<< x", "read \"a[$V]\" <<< x", "read -t \"$V\" x <<< x",
	"read -n \"$V\" x <<< x", "read -N \"$V\" x <<< x", "read -u \"$V\" x", "read -d \"$V\" x <<< x",
	"mapfile -t \"$V\" <<< x", "readarray \"$V\" <<< x", "mapfile -n \"$V\" x <<< x", "mapfile -O \"$V\" x <<< x",
	"mapfile -s \"$V\" x <<< x", "mapfile -c \"$V\" -C : x <<< x", "mapfile -C \"$V\" -c 1 x <<< x", "mapfile -u \"$V\" x",
	"getopts o \"$V\"", "getopts \"$V\" x", "OPTIND=$V; getopts o x", "OPTIND=$V",
	"unset \"$V\"", "unset -v \"$V\"", "unset -n \"$V\"", "unset -f \"$V\"", "unset \"a[$V]\"", "unset a[$V]",
	"sleep 0 & wait -p \"$V\"", "sleep 0 & wait -n -p \"$V\"", "wait \"$V\"",
	"export \"$V\"", "export \"$V=1\"", "export \"$V\"=1", "declare \"$V\"", "declare \"$V=1\"", "declare -g \"$V\"",
	"declare -p \"$V\"", "declare +x \"$V\"", "typeset \"$V\"", "readonly \"$V\"", "readonly \"$V=1\"",
	"f() { local \"$V\"; }; f", "f() { local \"$V=1\"; }; f", "export -n \"$V\"", "declare -a \"$V\"", "declare -i \"$V\"",
	"declare $V", "export $V", "local $V", "declare -- \"$V\"", "command declare \"$V\"", "builtin export \"$V\"",
	"compgen -v \"$V\"", "compgen -W \"$V\" x", "compgen -C \"$V\" x", "compgen -F \"$V\" x", "compgen -G \"$V\"",
	"compgen -X \"$V\" -W x", "compgen -A variable \"$V\"", "complete -C \"$V\" x", "complete -W \"$V\" x",
	"exec {a[$V]}>/dev/null", "declare -i x; exec {x}>/dev/null",
	// Builtins that take numbers.
	"shift \"$V\"", "set -- a; shift $V", "exit \"$V\"", "f() { return \"$V\"; }; f", "for i in 1; do break \"$V\"; done",
	"for i in 1; do continue \"$V\"; done", "ulimit -n \"$V\"", "ulimit -t \"$V\"", "umask \"$V\"", "history -d \"$V\"",
	"set -o history; history -d \"$V\"", "fc -l \"$V\"", "kill -\"$V\" 99999999", "kill -s \"$V\" 99999999",
	"kill -n \"$V\" 99999999", "kill -l \"$V\"", "caller \"$V\"", "dirs +\"$V\"", "popd +\"$V\"", "jobs %\"$V\"",
	"disown %\"$V\"", "trap \"$V\" EXIT", "trap -- \"$V\" DEBUG; :", "trap '' \"$V\"", "select x in 1; do break; done",
	"type \"$V\"", "shopt -s \"$V\"", "set -o \"$V\"", "times \"$V\"", "hash -d \"$V\"",
	// Variables bash evaluates when assigned or used.
	"RANDOM=$V", "SECONDS=$V", "SRANDOM=$V", "HISTCMD=$V", "LINENO=$V", "BASHPID=$V", "EPOCHSECONDS=$V",
	"BASH_ARGV0=$V", "FUNCNEST=$V; f() { :; }; f", "HISTSIZE=$V", "HISTFILESIZE=$V", "LINES=$V", "COLUMNS=$V",
	"TMOUT=$V; read x <<< x", "BASH_XTRACEFD=$V", "BASH_XTRACEFD=$V; set -x; :", "OPTERR=$V", "BASH_COMPAT=$V",
	"PS4=$V; set -x; :", "PS4=\"$V\"; set -x; :", "export PS4=\"$V\"; bash -xc :", "PS4=\"$V\" bash -xc :",
	"BASH_ENV=$V bash -c :", "BASH_ENV=\"$V\" bash -c :", "export BASH_ENV=\"$V\"; bash -c :", "export BASH_ENV=\"$V\"; sh -c :",
	"ENV=\"$V\" sh -i </dev/null", "ENV=\"$V\" bash --posix -i </dev/null", "TIMEFORMAT=$V; time :",
	"PROMPT_COMMAND=$V", "IGNOREEOF=$V", "HISTTIMEFORMAT=$V; history", "COMP_WORDBREAKS=$V",
	"shopt -s expand_aliases\nalias x=\"$V\"\nx", "x=$V; echo ${x@P}",
	// Code and programs.
	"$V", "\"$V\"", "hash -p \"$V\" ls; ls", "source \"$V\"", ". \"$V\"", "enable -f \"$V\" x", "command \"$V\"",
	"exec \"$V\"", "coproc $V", "eval \"$V\"", "x=$V; $x",
	// Values straight from a file.
	": $(( $(cat v) ))", "(( $(cat v) ))", "x=$(<v); (( x ))", "[[ $(cat v) -eq 1 ]]", "printf -v \"$(cat v)\" x",
	"read -r x < v; (( x ))", "mapfile -t l < v; (( l ))", "while read -r l; do (( l )); done < v",
	"IFS= read -r x < v; echo ${a[$x]}", "x=$(head -1 v); echo $((x))",
}

// bashScriptContexts are inputs that hand the content of a file, not
// known at parse time, to a shell or an interpreter as code.
var bashScriptContexts = []string{
	"bash <&3 3<s", "exec 3<s; bash <&3", "exec 3<s; bash /dev/fd/3", "bash /dev/fd/3 3<s", "bash /proc/self/fd/3 3<s",
	"exec 0<s; bash", "exec <s; sh", "source /dev/stdin <s", ". /dev/stdin < s", "source <(cat s)", ". <(cat s)",
	"bash <(cat s)", "sh -s < <(cat s)", "{ cat s; } | bash", "cat s | bash", "cat < s | sh", "bash -c \"$(cat s)\"",
	"bash -c \"$(<s)\"", "sh -c \"`cat s`\"", "eval \"$(cat s)\"", "xargs -a s -I{} sh -c {}", "xargs -d '\\n' sh -c < s",
	"env bash < s", "env sh <s", "command bash < s", "exec bash < s", "bash -s < s", "bash - < s", "sh /dev/stdin < s",
	"bash <<< \"$(cat s)\"", "bash <<EOF\n$(cat s)\nEOF", "$(< s)", "$(cat s)", "while read -r l; do $l; done < s",
	"read -r l < s; $l", "exec 4<s; exec 0<&4; bash", "bash 0<s", "bash 3<s 0<&3", "{ bash; } < s", "(bash) < s",
	"cat s | env -i bash", "nice bash < s", "timeout 5 bash < s", "sh < /dev/fd/3 3<s", "dash <&3 3<s",
	"python3 /dev/fd/0 < s.py", "python3 - < s.py", "python3 < s.py", "python3 /dev/fd/3 3<s.py",
	"cat s.py | python3", "python3 <(cat s.py)", "perl - 3<s.pl <&3", "perl < s.pl", "perl /dev/fd/3 3<s.pl",
	"cat s.pl | perl", "awk -f /dev/stdin < s.awk", "awk -f /dev/fd/3 3<s.awk", "awk -f <(cat s.awk) /dev/null",
}

// bashFiles are written into each run's directory.
var bashFiles = map[string]string{
	"s":     "touch M\n",
	"s.py":  "open('M', 'w')\n",
	"s.pl":  "open(F, '>M');\n",
	"s.awk": "BEGIN { system(\"touch M\") }\n",
	"mk":    "#!/bin/sh\ntouch M\n",
}

// bashRuns reports whether bash, running script with payload as $1, as
// each line of input, as V in the environment and as the content of v,
// creates M.
func bashRuns(t *testing.T, bash, script, payload string) bool {
	dir := t.TempDir()
	for name, text := range bashFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "v"), []byte(payload+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", script, "_", payload)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "V=" + payload}
	cmd.Stdin = strings.NewReader(strings.Repeat(payload+"\n", 4))
	_ = cmd.Run()
	_, err := os.Stat(filepath.Join(dir, "M"))
	return err == nil
}

// hostVerdict is a verdict and the host it was asked for.
type hostVerdict struct {
	host string
	Verdict
}

// TestArithContextsAgainstBash asks real bash which contexts run the
// command substitutions of a value not known at parse time, and holds the
// classifier to at least tier 2 (or a denial) for every one that does,
// on the local host and over SSH.
func TestArithContextsAgainstBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	if testing.Short() {
		t.Skip("runs bash some thousand times")
	}
	p := testPolicy(t)
	type probe struct {
		script, source, payload string
		low                     []hostVerdict // the verdicts below tier 2 and not denied
		control                 bool          // bash must run it, or the harness is broken
	}
	var probes []probe
	for i, tmpl := range bashValueContexts {
		for _, s := range bashValueSources {
			probes = append(probes, probe{script: s.prefix + tmpl, source: s.name, control: i == 0})
		}
	}
	for _, tmpl := range bashScriptContexts {
		probes = append(probes, probe{script: tmpl, source: "file content", control: tmpl == "cat s | bash"})
	}
	// Bash is asked only where its answer could fail the test: about
	// probes some host classifies below tier 2, and the controls. Running
	// bash costs milliseconds each time; classifying, microseconds.
	var asked []int
	for i := range probes {
		for _, h := range classifierHosts {
			if v := p.Evaluate(Input{Command: probes[i].script, Host: h}); v.Tier < TierMutate && !v.Denied {
				probes[i].low = append(probes[i].low, hostVerdict{h, v})
			}
		}
		if len(probes[i].low) > 0 || probes[i].control {
			asked = append(asked, i)
		}
	}
	var mu sync.Mutex
	work := make(chan int)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				for _, pl := range bashPayloads {
					if bashRuns(t, bash, probes[i].script, pl) {
						mu.Lock()
						probes[i].payload = pl
						mu.Unlock()
						break
					}
				}
			}
		}()
	}
	for _, i := range asked {
		work <- i
	}
	close(work)
	wg.Wait()
	ran := 0
	for _, pr := range probes {
		if pr.control && pr.payload == "" {
			t.Errorf("bash did not run %q from %s with any payload: the harness is broken", pr.script, pr.source)
		}
		if pr.payload == "" {
			continue
		}
		ran++
		for _, v := range pr.low {
			t.Errorf("bash runs %q from %s (V=%q) but Evaluate(host %q) = %s (%s); want at least %s", pr.script, pr.source, pr.payload, v.host, v.Tier, v.Reason, TierMutate)
		}
	}
	t.Logf("asked bash about %d of %d probes (the rest are held at tier 2 or denied on every host); %d ran the payload", len(asked), len(probes), ran)
}

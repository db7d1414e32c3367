//go:build unix

package policy

import (
	"context"
	"encoding/base64"
	"flag"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// shq quotes s as one single-quoted shell word.
func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// spelling is one way of writing a command word whose value is n: pre
// runs first (assignments, definitions), word is what stands in the
// command's place.
type spelling struct {
	name string
	of   func(n string) (pre, word string)
}

func lit(word string) func(string) (string, string) {
	return with("", word)
}

// with spells n with pre run first; N in pre and word stands for n, LEN
// for its length.
func with(pre, word string) func(string) (string, string) {
	return func(n string) (string, string) {
		r := strings.NewReplacer("N", n, "LEN", strconv.Itoa(len(n)))
		return r.Replace(pre), r.Replace(word)
	}
}

// hexEsc and octEsc spell n as $'…' escapes; head and tail split it.
func hexEsc(n string) string {
	var b strings.Builder
	for i := range len(n) {
		b.WriteString(`\x` + hex2(n[i]))
	}
	return "$'" + b.String() + "'"
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

func octEsc(n string) string {
	var b strings.Builder
	for i := range len(n) {
		c := n[i]
		b.WriteString(`\` + string([]byte{'0' + c>>6, '0' + (c>>3)&7, '0' + c&7}))
	}
	return "$'" + b.String() + "'"
}

func head(n string) string { return n[:len(n)/2] }
func tail(n string) string { return n[len(n)/2:] }

// nameSpellings are the ways (A) of spelling a program or file name n.
// Each run's directory holds a file nf whose content is n, an executable
// n (or a link to the real program) in the directory and in bin/, which
// is first on PATH.
var nameSpellings = []spelling{
	{"plain", lit("N")},
	{"single-quoted", lit("'N'")},
	{"double-quoted", lit(`"N"`)},
	{"split-quotes", func(n string) (string, string) { return "", head(n) + `'` + tail(n) + `'` }},
	{"split-double", func(n string) (string, string) { return "", `"` + head(n) + `"` + tail(n) }},
	{"empty-quotes", func(n string) (string, string) { return "", head(n) + `""` + tail(n) }},
	{"backslash", func(n string) (string, string) { return "", `\` + head(n) + `\` + tail(n) }},
	{"backslash-in-double", func(n string) (string, string) { return "", `"` + head(n) + `\` + tail(n) + `"` }},
	{"ansi-hex", func(n string) (string, string) { return "", hexEsc(n) }},
	{"ansi-octal", func(n string) (string, string) { return "", octEsc(n) }},
	{"ansi-partial", func(n string) (string, string) { return "", head(n) + hexEsc(tail(n)) }},
	{"locale-quote", lit(`$"N"`)},
	{"default", lit("${x:-N}")},
	{"default-unset", lit("${x-N}")},
	{"assign-default", lit("${x:=N}")},
	{"alternative", with("x=1; ", "${x:+N}")},
	{"replace", func(n string) (string, string) { return "x=" + head(n) + "QQ; ", "${x/QQ/" + tail(n) + "}" }},
	{"replace-all", func(n string) (string, string) { return "x=Q" + head(n) + "Q" + tail(n) + "; ", "${x//Q}" }},
	{"strip-prefix", with("x=zzN; ", "${x#zz}")},
	{"strip-suffix", with("x=Nzz; ", "${x%zz}")},
	{"strip-glob", with("x=a/b/N; ", "${x##*/}")},
	{"substring", with("x=zN; ", "${x:1}")},
	{"upper-to-lower", func(n string) (string, string) { return "x=" + strings.ToUpper(n) + "; ", "${x,,}" }},
	{"lower-to-upper", func(n string) (string, string) { return "x=" + strings.ToLower(n) + "; ", "${x^^}" }},
	{"toggle", func(n string) (string, string) { return "x=" + strings.ToUpper(n[:1]) + n[1:] + "; ", "${x~}" }},
	{"indirect", with("x=N; r=x; ", "${!r}")},
	{"transform-E", func(n string) (string, string) { return "x=" + shq(octEsc(n)[2:len(octEsc(n))-1]) + "; ", "${x@E}" }},
	{"transform-P", with("x=N; ", "${x@P}")},
	{"array-0", with("a=(N z); ", "${a[0]}")},
	{"array-all", with("a=(N); ", "${a[@]}")},
	{"nameref", with("x=N; declare -n r=x; ", "$r")},
	{"var", with("x=N; ", "$x")},
	{"var-braced", with("x=N; ", `"${x}"`)},
	{"declare", with("declare x=N; ", "$x")},
	{"local", with("sp() { local x=N; \"$x\" \"$@\"; }; ", "sp")},
	{"export", with("export x=N; ", "$x")},
	{"readonly", with("readonly x=N; ", "$x")},
	{"printf-v", with("printf -v x %s N; ", "$x")},
	{"printf-v-escape", func(n string) (string, string) {
		return "printf -v x " + shq(octEsc(n)[2:len(octEsc(n))-1]) + "; ", "$x"
	}},
	{"read-herestring", with("read -r x <<< N; ", "$x")},
	{"mapfile", with("mapfile -t a <<< N; ", "${a[0]}")},
	{"for-loop", with("for x in N; do :; done; ", "$x")},
	{"getopts", func(n string) (string, string) {
		return "set -- -" + n[:1] + "; getopts " + n[:1] + " o; ", "${o}" + n[1:]
	}},
	{"case", with("case 1 in 1) x=N;; esac; ", "$x")},
	{"ifs-split", with("IFS=,; x=N,zz; ", "$x")},
	{"ifs-split-array", with("IFS=,; a=(N,zz); ", "${a[0]}")},
	{"brace", lit("{N,}")},
	{"brace-prefix", func(n string) (string, string) { return "", head(n) + "{" + tail(n) + ",}" }},
	{"cmdsub-echo", lit("$(echo N)")},
	{"cmdsub-backquote", lit("`printf N`")},
	{"cmdsub-file", lit("$(<nf)")},
	{"cmdsub-cat", lit("$(cat nf)")},
	{"glob-question", func(n string) (string, string) { return "", "./" + n[:len(n)-1] + "?" }},
	{"glob-class", func(n string) (string, string) { return "", "[" + n[:1] + "]" + n[1:] }},
	{"glob-star", func(n string) (string, string) { return "", "./" + head(n) + "*" + n[len(n)-1:] }},
	{"tilde-plus", lit("~+/N")},
	{"tilde-home", lit("~/bin/N")},
	{"absolute", lit("ABS/bin/N")},
	{"relative", lit("./N")},
	{"alias", with("shopt -s expand_aliases\nalias y=N\n", "y")},
	{"function", with("sp3() { N \"$@\"; }; ", "sp3")},
	{"hash-p", with("hash -p ./bin/N y; ", "y")},
	{"path-assign", with("PATH=./bin; ", "N")},
	{"path-prefix", lit("PATH=ABS/bin N")},
	{"line-continuation", func(n string) (string, string) { return "", head(n) + "\\\n" + tail(n) }},
	{"leading-backslash", lit(`\N`)},
	{"trailing-empty", lit(`N''`)},
	{"leading-empty", lit(`""N`)},
	{"dollar-single", lit("$'N'")},
	{"substring-length", with("x=zNzz; ", "${x:1:LEN}")},
	{"substring-negative", with("x=zzN; ", "${x: -LEN}")},
	{"replace-anchored", with("x=zzN; ", "${x/#zz}")},
	{"replace-end", with("x=Nzz; ", "${x/%zz/}")},
	{"upper-first", func(n string) (string, string) { return "x=" + strings.ToUpper(n[:1]) + n[1:] + "; ", "${x,}" }},
	{"transform-L", func(n string) (string, string) { return "x=" + strings.ToUpper(n) + "; ", "${x@L}" }},
	{"transform-U", func(n string) (string, string) { return "x=" + strings.ToLower(n) + "; ", "${x@U}" }},
	{"declare-lower", func(n string) (string, string) { return "declare -l x=" + strings.ToUpper(n) + "; ", "$x" }},
	{"declare-upper", func(n string) (string, string) { return "typeset -u x=" + strings.ToLower(n) + "; ", "$x" }},
	{"append", func(n string) (string, string) { return "x=" + head(n) + "; x+=" + tail(n) + "; ", "$x" }},
	{"concat-vars", func(n string) (string, string) { return "a=" + head(n) + " b=" + tail(n) + "; ", "$a$b" }},
	{"copy-var", with("x=N; y=$x; ", "$y")},
	{"nested-default", lit("${x:-${y:-N}}")},
	{"assign-side-effect", with(": ${x=N}; ", "$x")},
	{"eval-assign", with("eval x=N; ", "$x")},
	{"assoc", with("declare -A h=([k]=N); ", "${h[k]}")},
	{"array-last", with("a=(z N); ", "${a[-1]}")},
	{"array-star", with("a=(N); ", `"${a[*]}"`)},
	{"positional", with("set -- N; ", "$1")},
	{"positional-all", with("set -- N; ", `"$@"`)},
	{"positional-slice", with("set -- z N; ", "${@:2}")},
	{"function-arg", with("sp1() { \"$1\"; }; ", "sp1 N")},
	{"read-array", with("read -ra a <<< 'z N'; ", "${a[1]}")},
	{"read-delim", with("IFS=, read -r x y <<< N,z; ", "$x")},
	{"mapfile-delim", with("mapfile -td, a <<< N,z; ", "${a[0]}")},
	{"local-nameref", with("sp2() { local -n r=$1; \"$r\"; }; x=N; ", "sp2 x")},
	{"bash-aliases", with("shopt -s expand_aliases\nBASH_ALIASES[y]=N\n", "y")},
	{"alias-space", with("shopt -s expand_aliases\nalias c='command ' y=N\n", "c y")},
	{"cmdsub-printf-escape", func(n string) (string, string) { return "", "$(printf " + shq(octEsc(n)[2:len(octEsc(n))-1]) + ")" }},
	{"cmdsub-tr", func(n string) (string, string) { return "", "$(echo " + strings.ToUpper(n) + " | tr A-Z a-z)" }},
	{"cmdsub-rev", func(n string) (string, string) {
		b := []byte(n)
		slices.Reverse(b)
		return "", "$(rev <<< " + string(b) + ")"
	}},
	{"cmdsub-heredoc", lit("$(cat <<E\nN\nE\n)")},
	{"cmdsub-base64", func(n string) (string, string) {
		return "", "$(echo " + base64.StdEncoding.EncodeToString([]byte(n)) + " | base64 -d)"
	}},
	{"arith-index", with("a=(z N); ", "${a[1+0]}")},
	{"glob-extglob", with("shopt -s extglob\n", "./@(N)")},
	{"glob-posix-class", func(n string) (string, string) { return "", "./[[:alpha:]]" + n[1:] }},
	{"glob-var", func(n string) (string, string) { return "x=" + n[:len(n)-1] + "; ", "./${x}?" }},
	{"pwd-var", lit("$PWD/N")},
	{"home-var", lit("$HOME/bin/N")},
	{"cmdsub-pwd", lit("$(pwd)/N")},
	{"tilde-minus", with("cd bin; cd ..; ", "~-/bin/N")},
	{"dot-dot", lit("bin/../N")},
	{"double-slash", lit(".//bin///N")},
	{"command-v", lit("$(command -v N)")},
	{"type-P", lit("$(type -P N)")},
	{"ansi-unicode", func(n string) (string, string) { return "", `$'\u00` + hex2(n[0]) + `'` + n[1:] }},
	{"last-arg", with(": N; ", "$_")},
	{"rematch", with("[[ zN =~ z(.*) ]]; ", "${BASH_REMATCH[1]}")},
	{"var-names", func(n string) (string, string) {
		return strings.ReplaceAll(n, "-", "_") + "=1; ", "${!" + head(n) + "*}"
	}},
	{"path-first", lit("${PATH%%:*}/N")},
	{"compgen", func(n string) (string, string) { return "", "$(compgen -c " + n + " | head -1)" }},
	{"ls-bin", lit("$(ls bin)")},
	{"glob-bin", lit("./bin/*")},
	{"echo-glob", lit("$(echo bin/*)")},
	{"basename", lit("$(basename ABS/bin/N)")},
	{"read-file", with("read -r x < nf; ", "$x")},
	{"mapfile-file", with("mapfile -t a < nf; ", "${a[0]}")},
	{"read-fd", with("exec {fd}<nf; read -r -u $fd x; ", "$x")},
	{"cmdsub-sed", lit("$(sed s/^z// <<< zN)")},
	{"cmdsub-cut", lit("$(cut -d, -f2 <<< z,N)")},
	{"cmdsub-awk", lit("$(awk '{ print $2 }' <<< 'z N')")},
	{"cmdsub-xargs", lit("$(xargs <<< N)")},
	{"eval-printf", with("eval \"$(printf 'x=%s' N)\"; ", "$x")},
	{"typeset", with("typeset x=N; ", "$x")},
	{"declare-quoted", with("declare \"x=N\"; ", "$x")},
	{"quote-transform", with("x=N; ", "${x@Q}")},
	{"indirect-array", with("a=(N); r='a[0]'; ", "${!r}")},
	{"prefix-insert", func(n string) (string, string) { return "x=" + tail(n) + "; ", "${x/#/" + head(n) + "}" }},
	{"pattern-class", func(n string) (string, string) { return "x=" + head(n) + "9" + tail(n) + "; ", "${x//[9]/}" }},
	{"scalar-index", with("x=N; ", "${x[0]}")},
}

// invocation is a context (B) in which a command runs: pre is the
// spelling's setup, w the command word, a its arguments.
type invocation struct {
	name string
	of   func(pre, w, a string) string
}

func around(tmpl string) func(pre, w, a string) string {
	return func(pre, w, a string) string {
		c := strings.TrimSpace(w + " " + a)
		return pre + strings.NewReplacer("W", w, "C", c).Replace(tmpl)
	}
}

func inner(tmpl string) func(pre, w, a string) string {
	return func(pre, w, a string) string {
		c := strings.TrimSpace(w + " " + a)
		return strings.ReplaceAll(tmpl, "Q", shq(pre+c))
	}
}

var invocations = []invocation{
	{"plain", around("C")},
	{"command", around("command C")},
	{"builtin-command", around("builtin command C")},
	{"exec", around("exec C")},
	{"env", around("env C")},
	{"nice", around("nice C")},
	{"nohup", around("nohup C 2>/dev/null")},
	{"time", around("time C")},
	{"timeout", around("timeout 5 C")},
	{"setsid", around("setsid C")},
	{"xargs", func(pre, w, a string) string {
		return pre + "echo " + a + " | xargs " + w
	}},
	{"find-exec", around(`find . -maxdepth 0 -exec C \;`)},
	{"bang", around("! C")},
	{"group", around("{ C; }")},
	{"subshell", around("( C )")},
	{"cmdsub", around("echo $(C)")},
	{"procsub-in", around("cat <(C)")},
	{"procsub-out", around(": > >(C); wait")},
	{"if-cond", around("if C; then :; fi")},
	{"if-body", around("if true; then C; fi")},
	{"while", around("while C; do break; done")},
	{"until", around("until C; do break; done")},
	{"case-body", around("case x in x) C;; esac")},
	{"for-body", around("for i in 1; do C; done")},
	{"and", around("true && C")},
	{"or", around("false || C")},
	{"pipe-to", around("echo | C")},
	{"pipe-from", around("C | cat")},
	{"background", around("C & wait")},
	{"coproc", around("coproc C; wait")},
	{"trap-exit", func(pre, w, a string) string { return pre + "trap " + shq(strings.TrimSpace(w+" "+a)) + " EXIT" }},
	{"trap-debug", func(pre, w, a string) string {
		return pre + "trap " + shq(strings.TrimSpace(w+" "+a)+"; trap - DEBUG") + " DEBUG; :"
	}},
	{"trap-err", func(pre, w, a string) string { return pre + "trap " + shq(strings.TrimSpace(w+" "+a)) + " ERR; false" }},
	{"eval", inner("eval Q")},
	{"eval-split", func(pre, w, a string) string { return pre + "eval " + shq(w) + " " + shq(a) }},
	{"bash-c", inner("bash -c Q")},
	{"sh-c", inner("sh -c Q")},
	{"dash-c", inner("dash -c Q")},
	{"source-stdin", inner("source /dev/stdin <<< Q")},
	{"dot-procsub", inner(". <(printf '%s\\n' Q)")},
	{"heredoc-bash", func(pre, w, a string) string {
		return "bash <<'EOF'\n" + pre + strings.TrimSpace(w+" "+a) + "\nEOF"
	}},
	{"herestring-bash", inner("bash <<< Q")},
	{"dbl-bracket", around("[[ $(C) ]]")},
	{"arith", around("(( $(C) 1 ))")},
	{"array-assign", around("a=( $(C) )")},
	{"default-cmdsub", around(": ${y:-$(C)}")},
	{"ps4", func(pre, w, a string) string {
		return pre + "PS4=" + shq("$("+strings.TrimSpace(w+" "+a)+")") + "; set -x; :"
	}},
	{"prompt-command", func(pre, w, a string) string {
		return "PROMPT_COMMAND=" + shq(pre+strings.TrimSpace(w+" "+a)) + " bash --norc -i </dev/null >/dev/null 2>&1"
	}},
	{"function-later", around("inv() { C; }; inv")},
	{"exec-a", around("exec -a z C")},
	{"command-p", around("command -p C")},
	{"env-i", around("env -i PATH=\"$PATH\" C")},
	{"env-S", func(pre, w, a string) string { return pre + "env -S " + shq(strings.TrimSpace(w+" "+a)) }},
	{"stdbuf", around("stdbuf -o0 C")},
	{"ionice", around("ionice -c3 C")},
	{"chrt", around("chrt -o 0 C")},
	{"taskset", around("taskset 1 C")},
	{"flock", around("flock lk C")},
	{"xargs-I", func(pre, w, a string) string { return pre + "echo " + a + " | xargs -I{} " + w + " {}" }},
	{"find-execdir", around(`find . -maxdepth 0 -execdir C \;`)},
	{"find-sh", inner(`find . -maxdepth 0 -exec sh -c Q \;`)},
	{"sh-argv0", func(pre, w, a string) string { return pre + "sh -c '\"$0\" \"$@\"' " + w + " " + a }},
	{"bash-args", func(pre, w, a string) string { return pre + "bash -c '\"$@\"' _ " + w + " " + a }},
	{"awk-system", inner(`awk -v c=Q 'BEGIN { system(c) }'`)},
	{"perl-system", inner(`perl -e 'system $ARGV[0]' Q`)},
	{"python-system", inner(`python3 -c 'import os, sys; os.system(sys.argv[1])' Q`)},
	{"busybox-sh", inner("busybox sh -c Q")},
	{"script-file", func(pre, w, a string) string {
		return "printf '%s\\n' " + shq(pre+strings.TrimSpace(w+" "+a)) + " > sf; bash sf"
	}},
	{"source-file", func(pre, w, a string) string {
		return "printf '%s\\n' " + shq(pre+strings.TrimSpace(w+" "+a)) + " > sf; . ./sf"
	}},
	{"bash-env", func(pre, w, a string) string {
		return "printf '%s\\n' " + shq(pre+strings.TrimSpace(w+" "+a)) + " > sf; BASH_ENV=sf bash -c :"
	}},
	{"mapfile-callback", func(pre, w, a string) string {
		return pre + "mapfile -C " + shq(strings.TrimSpace(w+" "+a)+" #") + " -c 1 z <<< x"
	}},
	{"trap-return", func(pre, w, a string) string {
		return pre + "trap " + shq(strings.TrimSpace(w+" "+a)) + " RETURN; . /dev/null"
	}},
	{"while-read", func(pre, w, a string) string {
		return pre + "while read -r l; do " + strings.TrimSpace(w+" "+a) + "; done <<< x"
	}},
	{"redirect-first", around("</dev/null C")},
	{"herestring-in", around("C <<< x")},
	{"select", around("select s in 1; do C; break; done <<< 1 2>/dev/null")},
	{"negated-pipe", around("! echo | C")},
	{"pipe-all", around("C |& cat")},
	{"subshell-bg", around("( C ) & wait")},
	{"nested-cmdsub", around("echo $(echo $(C))")},
	{"test-cmdsub", around("test -n \"$(C)\"")},
	{"let-cmdsub", around("let x=$(C)1")},
	{"for-words", around("for i in $(C); do :; done")},
	{"case-word", around("case $(C) in *) ;; esac")},
	{"export-cmdsub", around("export z=$(C)")},
	{"local-cmdsub", around("inv() { local z=$(C); }; inv")},
	{"outer-bash-c", func(pre, w, a string) string { return pre + "bash -c " + shq(strings.TrimSpace(w+" "+a)) }},
	{"not-found-handler", func(pre, w, a string) string {
		return pre + "command_not_found_handle() { unset -f command_not_found_handle; " + strings.TrimSpace(w+" "+a) + "; }; nosuchprogram"
	}},
	{"trap-signal", func(pre, w, a string) string {
		return pre + "trap " + shq(strings.TrimSpace(w+" "+a)) + " USR1; kill -USR1 $$"
	}},
	{"export-f", func(pre, w, a string) string {
		return pre + "inv() { " + strings.TrimSpace(w+" "+a) + "; }; export -f inv; bash -c inv"
	}},
	{"fd-source", inner(". /dev/fd/3 3<<< Q")},
	{"stdin-bash", inner("bash /dev/stdin <<< Q")},
	{"pipe-bash", inner("echo Q | bash")},
	{"procsub-sh", inner("sh < <(echo Q)")},
	{"bash-s", inner("bash -s <<< Q")},
	{"rcfile", func(pre, w, a string) string {
		return "printf '%s\\n' " + shq(pre+strings.TrimSpace(w+" "+a)) + " > sf; bash --rcfile sf -i </dev/null >/dev/null 2>&1"
	}},
	{"env-sh-i", func(pre, w, a string) string {
		return "printf '%s\\n' " + shq(pre+strings.TrimSpace(w+" "+a)) + " > sf; ENV=./sf sh -i </dev/null >/dev/null 2>&1"
	}},
	{"script-c", inner("script -qc Q /dev/null >/dev/null")},
	{"chroot", around("chroot / C")},
	{"xargs-0", func(pre, w, a string) string {
		return pre + "printf '%s\\0' " + w + " " + a + " | xargs -0 sh -c '\"$@\"' _"
	}},
	{"subshell-exec", around("(exec C)")},
	{"bg-redirect", around("C &>/dev/null & wait")},
	{"time-group", around("time { C; }")},
	{"coproc-group", around("coproc { C; }; wait")},
	{"arith-expansion", around("echo $(( $(C) 1 ))")},
	{"subscript", around("a=(); echo ${a[$(C)0]}")},
	{"subscript-assign", around("a[$(C)0]=1")},
	{"substring-offset", around("x=abc; echo ${x:$(C)0}")},
	{"pattern", around("x=abc; echo ${x/$(C)/}")},
	{"case-pattern", around("case x in $(C)) ;; esac")},
	{"dbl-bracket-pattern", around("[[ x == $(C) ]]")},
	{"herestring-cmdsub", around("cat <<< $(C)")},
	{"redirect-target", around("echo > /dev/null$(C)")},
	{"procsub-stdin", around("cat < <(C)")},
	{"exec-procsub", around("exec 3< <(C); cat <&3")},
	{"func-redirect", around("inv() { :; } > /dev/null$(C); inv")},
	{"for-arith", around("for ((i=$(C)0; i<1; i++)); do :; done")},
	{"while-arith", around("while (( $(C)0 )); do :; done")},
	{"select-words", around("select s in $(C)1; do break; done <<< 1 2>/dev/null")},
	{"declare-i", around("declare -i z=$(C)0")},
	{"printf-v-cmdsub", around("printf -v z %s $(C)")},
	{"read-herestring-cmdsub", around("read z <<< $(C)")},
	{"test-brackets", around("[ $(C) ]")},
	{"alias-def", around("alias z=\"$(C)\"")},
	{"readonly-cmdsub", around("readonly z=$(C)")},
	{"declare-array", around("declare -a z=( $(C) )")},
	{"assign-cmdsub", around("z=$(C)")},
	{"heredoc-cmdsub", func(pre, w, a string) string {
		return pre + "cat <<E\n$(" + strings.TrimSpace(w+" "+a) + ")\nE"
	}},
}

// spellPrograms are names the classifier holds destructive that no
// Debian machine has: a spelling that reaches one can only reach the stub.
var spellPrograms = []string{"sysupgrade", "firstboot", "jffs2reset", "synopoweroff", "syno_poweroff_task", "flash_eraseall"}

// spellWrite is a command that creates M: prog is the program it runs
// (spelled through (A) when the probe spells the program), args its
// arguments with F standing for the file name (spelled when the probe
// spells the file).
type spellWrite struct{ prog, args string }

var spellWrites = []spellWrite{
	{"touch", "F"},
	{"cp", "src F"},
	{"tee", "F </dev/null"},
	{"dd", "of=F status=none </dev/null"},
	{"sed", "-n 'w F' src"},
	{"sort", "-o F src"},
	{"mkdir", "F"},
	{"ln", "-s src F"},
	{"mv", "src2 F"},
	{"install", "src F"},
	{"printf", "x > F"},
	{"printf", "x >> F"},
	{"printf", "x >| F"},
	{"echo", "x &> F"},
	{"exec", "3> F"},
	{"exec", "{fd}> F"},
	{"tee", "F <<EOF\nx\nEOF"},
	{"awk", `'BEGIN { print > "F" }'`},
	{"truncate", "-s 0 F"},
	{"xxd", "src F"},
	{"iconv", "-o F src"},
	{"curl", "-so F file://ABS/src"},
	{"link", "src F"},
	{"mkfifo", "F"},
	{"fallocate", "-l 1 F"},
	{"shuf", "-o F src"},
	{"uniq", "src F"},
	{"tar", "cf F src"},
	{"sqlite3", "F 'create table t(x)'"},
	{"openssl", "rand -out F 1"},
	{"mawk", `-v f=F 'BEGIN { print > f }'`},
	{"find", ". -maxdepth 0 -fprint F"},
	{"sort", "--output=F src"},
	{"cat", "src 1<>F"},
	{"cat", "src >& F"},
	{"echo", "x &>> F"},
	{"exec", "{fd}<> F"},
	{"history", "-w F"},
	{"tee", "-a F </dev/null"},
	{"ln", "src F"},
	{"install", "-d F"},
	{"mkdir", "-p F/x"},
	{"cp", "-t . src && mv src F"},
	{"split", "-n 1 src F && mv Faa F"},
	{"script", "-qc true F"},
	{"declare", "-p > F"},
	{"tee", "/dev/null F </dev/null"},
	{"sed", "-n 'w F' src"},
	{"{", ":; } > F"},
	{"(", ":) > F"},
	{"for", "i in 1; do :; done > F"},
	{"while", "false; do :; done > F"},
	{"if", ":; then :; fi > F"},
	{"case", "x in x) ;; esac > F"},
	{"[[", "1 ]] > F"},
	{"((", "1 )) > F"},
	{"g()", "{ :; } > F; g"},
	{"time", ": > F"},
	{"echo", "x > >(tee F)"},
	{"exec", "3>F; echo x >&3"},
	{"echo", "x 3>F"},
	{"echo", "x | tee F"},
	{"echo", "x | tee /dev/null F"},
	{"ln", "-s F lk && echo x > lk"},
	{"type", "ls > F"},
	{"cat", "<<E > F\nx\nE"},
	{"mapfile", "z < src; printf %s \"${z[@]}\" > F"},
	{"find", "src -exec cp {} F \\;"},
	{"xargs", "touch <<< F"},
	{"env", "touch F"},
	{"command", "touch F"},
	{"nice", "touch F"},
	{"timeout", "5 touch F"},
}

// spellAll asks bash the whole product of spellings and invocations
// (some minutes) rather than the sample.
var spellAll = flag.Bool("spell.all", false, "TestSpellingsAgainstBash: run every spelling in every invocation")

// spellRun is one (A)×(B) probe and what bash did with it.
type spellRun struct {
	script, spell, inv, target string
	fired                      bool
}

// spellFires runs script in a fresh directory under parent and reports
// whether the stub ran (program oracle) or M appeared (write oracle).
func spellFires(t *testing.T, bash, parent, script, name string, stub bool) bool {
	dir, err := os.MkdirTemp(parent, "run-")
	if err != nil {
		t.Error(err)
		return false
	}
	defer os.RemoveAll(dir)
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Error(err)
		return false
	}
	script = strings.ReplaceAll(script, "ABS", abs)
	bin := filepath.Join(abs, "bin")
	marker := filepath.Join(abs, "RAN")
	files := map[string]string{"nf": name + "\n", "src": "x\n", "src2": "x\n"}
	for f, text := range files {
		if err := os.WriteFile(filepath.Join(abs, f), []byte(text), 0o644); err != nil {
			t.Error(err)
			return false
		}
	}
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Error(err)
		return false
	}
	if stub {
		text := "#!/bin/sh\n: > " + marker + "\n"
		for _, p := range []string{filepath.Join(bin, name), filepath.Join(abs, name)} {
			if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
				t.Error(err)
				return false
			}
		}
	} else if name != "M" {
		if real, err := exec.LookPath(name); err == nil {
			_ = os.Symlink(real, filepath.Join(bin, name))
			_ = os.Symlink(real, filepath.Join(abs, name))
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", script)
	cmd.Dir = abs
	cmd.Env = []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "HOME=" + abs}
	cmd.Stdin = strings.NewReader("")
	// The script's children (a coprocess, a background job, a runaway
	// subshell) are in its process group: end them all, on a timeout too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	_ = cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	check := marker
	if !stub {
		check = filepath.Join(abs, "M")
	}
	_, err = os.Lstat(check)
	return err == nil
}

// spellProbes builds the probes of one oracle: every spelling with some
// invocations and every invocation with some spellings, drawn with a
// fixed seed so each run asks bash the same questions.
func spellProbes(perSpell, perInv int, build func(s spelling, inv invocation, r *rand.Rand) spellRun) []spellRun {
	r := rand.New(rand.NewPCG(11, 29))
	if *spellAll {
		perSpell, perInv = 0, 0
		var out []spellRun
		for i := range nameSpellings {
			for j := range invocations {
				out = append(out, build(nameSpellings[i], invocations[j], r))
			}
		}
		return out
	}
	seen := map[[2]int]bool{}
	var out []spellRun
	add := func(i, j int) {
		if seen[[2]int{i, j}] {
			return
		}
		seen[[2]int{i, j}] = true
		out = append(out, build(nameSpellings[i], invocations[j], r))
	}
	for i := range nameSpellings {
		add(i, 0)
		for range perSpell {
			add(i, r.IntN(len(invocations)))
		}
	}
	for j := range invocations {
		for range perInv {
			add(r.IntN(len(nameSpellings)), j)
		}
	}
	return out
}

// TestSpellingsAgainstBash asks real bash which spellings (A) of a
// program or file name, in which invocation contexts (B), run a
// destructive program or write a file, and holds the classifier to tier
// 3 (or a denial) for every probe that ran the program and to tier 2 for
// every probe that wrote the file, on the local host and over SSH.
func TestSpellingsAgainstBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	if testing.Short() {
		t.Skip("runs bash some thousand times")
	}
	for _, n := range spellPrograms {
		if _, err := exec.LookPath(n); err == nil {
			t.Skipf("%s exists on this machine: a spelling could reach the real one", n)
		}
	}
	// Not under a temporary directory, where tier 1 allows writes, nor in
	// the source tree, which other packages' tests read while this runs
	// (cmd/warden's TestGoInstallLatest zips it).
	parent, err := os.MkdirTemp("/var/lib", "spell-probe-")
	if err != nil {
		home, _ := os.UserHomeDir()
		if parent, err = os.MkdirTemp(home, ".spell-probe-"); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { os.RemoveAll(parent) })
	p := testPolicy(t)

	progs := spellProbes(3, 3, func(s spelling, inv invocation, r *rand.Rand) spellRun {
		n := spellPrograms[r.IntN(len(spellPrograms))]
		pre, w := s.of(n)
		return spellRun{script: inv.of(pre, w, ""), spell: s.name, inv: inv.name, target: n}
	})
	writes := spellProbes(3, 3, func(s spelling, inv invocation, r *rand.Rand) spellRun {
		wr := spellWrites[r.IntN(len(spellWrites))]
		if r.IntN(2) == 0 && wr.prog != "exec" {
			pre, w := s.of(wr.prog)
			return spellRun{script: inv.of(pre, w, strings.ReplaceAll(wr.args, "F", "M")), spell: s.name, inv: inv.name, target: wr.prog}
		}
		pre, f := s.of("M")
		return spellRun{script: inv.of(pre, wr.prog, strings.ReplaceAll(wr.args, "F", f)), spell: s.name, inv: inv.name, target: "M"}
	})

	// Bash is asked only where its answer could fail the test: about
	// probes some host classifies below the tier their kind demands, and
	// the first of each kind (the plain spelling in the plain context),
	// which must fire or the harness is broken. Running bash costs
	// milliseconds each time; classifying, microseconds.
	type kind struct {
		runs []spellRun
		stub bool
		what string
		ok   func(Verdict) bool
		want string
	}
	kinds := []kind{
		{progs, true, "runs the program", func(v Verdict) bool { return v.Denied || v.Tier >= TierDestructive }, "a denial or " + TierDestructive.String()},
		{writes, false, "writes the file", func(v Verdict) bool { return v.Denied || v.Tier >= TierMutate }, "a denial or at least " + TierMutate.String()},
	}
	type job struct {
		run  *spellRun
		stub bool
	}
	var jobs []job
	low := map[*spellRun][]hostVerdict{}
	asked := make([]int, len(kinds))
	for ki, k := range kinds {
		for i := range k.runs {
			r := &k.runs[i]
			for _, h := range classifierHosts {
				if v := p.Evaluate(Input{Command: r.script, Host: h}); !k.ok(v) {
					low[r] = append(low[r], hostVerdict{h, v})
				}
			}
			if i == 0 || len(low[r]) > 0 {
				jobs = append(jobs, job{r, k.stub})
				asked[ki]++
			}
		}
	}
	work := make(chan job)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				j.run.fired = spellFires(t, bash, parent, j.run.script, j.run.target, j.stub)
			}
		}()
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()

	for ki, k := range kinds {
		if !k.runs[0].fired {
			t.Errorf("bash did not fire on %q: the harness is broken", k.runs[0].script)
		}
		fired := 0
		for i := range k.runs {
			r := &k.runs[i]
			if !r.fired {
				continue
			}
			fired++
			for _, v := range low[r] {
				t.Errorf("bash %s (spelling %s, context %s): %q but Evaluate(host %q) = %s (%s); want %s", k.what, r.spell, r.inv, r.script, v.host, v.Tier, v.Reason, k.want)
			}
		}
		t.Logf("%s: asked bash about %d of %d probes (the rest are held on every host); %d fired", k.what, asked[ki], len(k.runs), fired)
	}
}

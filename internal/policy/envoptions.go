package policy

import (
	"fmt"
	"strings"
)

// optionVars are variables a program reads as options before those of
// its command line: tar's TAR_OPTIONS (--to-command=CMD,
// --checkpoint-action=exec=CMD, -I CMD run a program), man's MANOPT (-H
// BROWSER, -P PAGER), less's LESS (+!CMD), zip's ZIPOPT (-TT CMD), fzf's
// and skim's default options (--bind 'k:execute(CMD)', --preview CMD),
// enscript's (-I FILTER), GNU parallel's PARALLEL, make's MAKEFLAGS, the
// interpreters' (PERL5OPT's -M'x;system(…)', the JVM's
// -XX:OnError=CMD). A value is read as those options of the program and
// meets the deny rules as they do on its command line; the variables are
// tier 3 already (dangerousEnv), which open mode admits.
var optionVars = map[string]string{
	"TAR_OPTIONS": "tar", "MANOPT": "man", "LESS": "less", "SYSTEMD_LESS": "less", "ZIPOPT": "zip",
	"UNZIP": "unzip", "UNZIPOPT": "unzip", "ZIPINFO": "zipinfo", "ZIPINFOOPT": "zipinfo",
	"GZIP": "gzip", "XZ_OPT": "xz", "XZ_DEFAULTS": "xz", "BZIP": "bzip2", "BZIP2": "bzip2", "PIGZ": "pigz", "LZOP": "lzop",
	"GREP_OPTIONS": "grep", "FZF_DEFAULT_OPTS": "fzf", "SKIM_DEFAULT_OPTIONS": "sk", "ENSCRIPT": "enscript",
	"GENSCRIPT": "enscript", "PARALLEL": "parallel", "MAKEFLAGS": "make", "GNUMAKEFLAGS": "make",
	"PERL5OPT": "perl", "RUBYOPT": "ruby", "NODE_OPTIONS": "node", "JAVA_TOOL_OPTIONS": "java",
	"_JAVA_OPTIONS": "java", "JDK_JAVA_OPTIONS": "java", "MAVEN_OPTS": "java", "GRADLE_OPTS": "java",
	"ANT_OPTS": "java", "SBT_OPTS": "java", "CEPH_ARGS": "ceph",
}

// optionVar denies setting a variable whose value, read as the options a
// program takes from it (optionVars), or as git's configuration carried
// in the environment (GIT_CONFIG_PARAMETERS, GIT_CONFIG_VALUE_n), runs a
// command the deny rules refuse.
func (e *eval) optionVar(name, val string, ctx cctx, where string) {
	if val == "" {
		return
	}
	prog, ok := optionVars[name]
	var argv []arg
	switch {
	case ok:
		argv = []arg{{val: prog, known: true}}
		for _, w := range envSplitWords(val) {
			if prog == "perl" && !strings.HasPrefix(w.val, "-") {
				w.val = "-" + w.val // PERL5OPT="Mx" is -Mx
			}
			argv = append(argv, w)
		}
	case name == "GIT_CONFIG_PARAMETERS":
		// 'key'='value' pairs, shell-quoted, blank-separated.
		prog, argv = "git", []arg{{val: "git", known: true}}
		for _, w := range envSplitWords(val) {
			argv = append(argv, arg{val: "-c", known: true}, w)
		}
	case strings.HasPrefix(name, "GIT_CONFIG_VALUE_"):
		// Its GIT_CONFIG_KEY_n may be set anywhere, earlier or outside the
		// command line: the value is read as the key that runs it would.
		e.runsDenied([]string{val}, ctx, where+" sets "+name+", git configuration that may name a command:")
		return
	default:
		return
	}
	if why := e.deniedAside(ctx, strings.Join(argVals(argv), " "), func(sub *eval, sctx cctx) { sub.simple(argv, sctx, "") }); why != "" {
		e.deny(fmt.Sprintf("%s sets %s, which %s reads as its options: %s", where, name, prog, why))
	}
}

// lessShowFlags are less's one-letter options that change only how it
// shows its text; lessNumFlags take a number (-x4,8, -j.5, -z-2).
const (
	lessShowFlags = "aABcCdeEfFgGiIJKLmMnNqQrRsSuUwWX~"
	lessNumFlags  = "bhjxyz"
)

// lessShowLong are less's long options of the same kind, without "--".
var lessShowLong = set(`RAW-CONTROL-CHARS raw-control-chars quit-if-one-screen no-init chop-long-lines ignore-case
	IGNORE-CASE LONG-PROMPT long-prompt line-numbers LINE-NUMBERS quiet QUIET silent squeeze-blank-lines status-column
	mouse use-color incsearch quit-at-eof QUIT-AT-EOF wordwrap no-lessopen tabs jump-target window shift max-back-scroll
	hilite-search HILITE-SEARCH hilite-unread HILITE-UNREAD search-skip-screen clear-screen CLEAR-SCREEN dumb
	follow-name no-keypad tilde underline-special redraw-on-quit no-histdups quit-on-intr no-vbell`)

// plainLessOptions reports whether val, set as LESS or SYSTEMD_LESS, holds
// only options that change how less shows text (LESS=-R, LESS=FRX,
// LESS='-R --mouse -x4'): no command (+!CMD), key binding file (-k),
// log file (-o), tag file (-t) or prompt. Setting such a value is no
// more than the options on less's command line.
func plainLessOptions(name, val string) bool {
	if name != "LESS" && name != "SYSTEMD_LESS" {
		return false
	}
	for _, w := range strings.Fields(val) {
		if long, ok := strings.CutPrefix(w, "--"); ok {
			n, v, has := strings.Cut(long, "=")
			if !lessShowLong[n] || has && strings.Trim(v, "0123456789.,-") != "" {
				return false
			}
			continue
		}
		w = strings.TrimPrefix(w, "-")
		for i := 0; i < len(w); i++ {
			switch c := w[i]; {
			case strings.IndexByte(lessShowFlags, c) >= 0:
			case strings.IndexByte(lessNumFlags, c) >= 0:
				for i+1 < len(w) && strings.IndexByte("0123456789.,-", w[i+1]) >= 0 {
					i++
				}
			default:
				return false
			}
		}
	}
	return true
}

// plainLessValues reports whether every value the script assigns name is
// one plainLessOptions passes: LESS=-R; export LESS exports what the
// assignment, judged where it stands, set. Any other value, one known
// only at run time included, was judged at its own assignment.
func plainLessValues(name string, sc *scope) bool {
	if name != "LESS" && name != "SYSTEMD_LESS" || sc == nil {
		return false
	}
	plain := false
	for _, v := range sc.values(name) {
		// A bare declare -x LESS is recorded as "" (in a function it
		// makes a new, empty variable); what it exports is then one of
		// the script's own values, or the one the shell inherited when
		// the script assigns none, which stays unknown.
		if v == "" {
			continue
		}
		if !plainLessOptions(name, v) {
			return false
		}
		plain = true
	}
	return plain
}

package policy

import (
	"os"
	"path"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// A call that runs text the classifier cannot see may run what any file
// it names holds, however the text gets there: through a descriptor
// (exec 3<F; sh <&3, sh /dev/fd/3 3<F), a command substitution (eval
// "$(cat F)", sh -c "$(<F)", x=$(cat F); $x), a filter (head F | sh,
// dd if=F | sh, sed p F | sh) or a program's own reading (awk
// '{system($0)}' F). Following each of those is following the class one
// spelling at a time; instead, once a call is opaque, every local file
// its text names that changed since warden started meets the deny list,
// as the call's own raw text does. Only a denial follows: the call keeps
// the tier its opacity gave it.

// maxNamedFiles is how many names one call's text has looked up.
const maxNamedFiles = 4096

// namedFiles meets the deny list with the text of each local file that
// texts name, read as a script.
func (e *eval) namedFiles(ctx cctx, texts ...string) {
	if !e.local || e.p.files == nil || e.denied {
		return
	}
	var dirs []string
	if e.paths != nil {
		dirs, _ = e.cwds()
	}
	seen := map[string]bool{}
	check := func(p string) bool {
		if seen[p] || unreadDir(p) {
			return true
		}
		if len(seen) >= maxNamedFiles {
			return false
		}
		seen[p] = true
		_, text, ok := e.recentScript(p)
		if !ok {
			return true
		}
		if why := e.textDenial(text, interpreterOf(text), p, ctx, true); why != "" {
			e.deny("runs text the classifier cannot see, and names the file " + truncate(p, 64) + ": " + why)
			return false
		}
		return true
	}
	// A glob in the last part of a name (/tmp/j*) is each file it
	// matches, from one read of the directory.
	checkGlob := func(p string) bool {
		dir, pat := path.Split(p)
		if !strings.ContainsAny(pat, "*?[") || strings.ContainsAny(dir, "*?[") || unreadDir(dir) {
			return check(p)
		}
		d, err := os.Open(dir)
		if err != nil {
			return true
		}
		ents, _ := d.ReadDir(maxNamedFiles)
		d.Close()
		for _, ent := range ents {
			if ok, _ := path.Match(pat, ent.Name()); ok && !check(dir+ent.Name()) {
				return false
			}
		}
		return true
	}
	words := map[string]bool{}
	visit := func(w string) bool {
		if words[w] {
			return true
		}
		words[w] = true
		switch {
		case strings.HasPrefix(w, "/"):
			return checkGlob(path.Clean(w))
		case strings.HasPrefix(w, "~/"):
			if e.p.protect != nil && e.p.protect.home != "" {
				return checkGlob(path.Join(e.p.protect.home, w[2:]))
			}
		default:
			mod := pyModule(w)
			for _, d := range dirs {
				if !checkGlob(path.Join(d, w)) {
					return false
				}
				// python3 -c 'import j' and python3 -m j import j.py from
				// the working directory, ahead of the standard library.
				if mod != "" && (!check(path.Join(d, mod+".py")) || !check(path.Join(d, mod, "__init__.py"))) {
					return false
				}
			}
		}
		return true
	}
	// The names the walk resolved (exec 3<"$d/job", cat "$d/job"),
	// then every word of the texts.
	for w := range e.walkNames {
		if !visit(w) {
			return
		}
	}
	for _, s := range texts {
		nameTokens(workDirs.Replace(s), visit)
	}
}

// workDirs spells the working directory's expansions as ".", so that
// "$PWD/job" and $(pwd)/job name ./job.
var workDirs = strings.NewReplacer("${PWD}", ".", "$PWD", ".", "$(pwd)", ".", "`pwd`", ".")

// pyModule returns the path, without ".py", of the module a word names
// when it is a dotted Python name (http.server is http/server), else "".
func pyModule(w string) string {
	if strings.HasSuffix(w, ".py") {
		return "" // the file itself, looked up already
	}
	for _, part := range strings.Split(w, ".") {
		if part == "" || part[0] >= '0' && part[0] <= '9' {
			return ""
		}
		for _, c := range part {
			if c != '_' && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
				return ""
			}
		}
	}
	return strings.ReplaceAll(w, ".", "/")
}

// noteName keeps a name the walk resolved, which the call's text may
// not spell (d=/srv; cat "$d/job"), for namedFiles.
func (e *eval) noteName(v string) {
	if v == "" || v[0] == '-' || len(e.walkNames) >= maxNamedFiles {
		return
	}
	if e.walkNames == nil {
		e.walkNames = map[string]bool{}
	}
	e.walkNames[v] = true
}

// noteArgs keeps the known fields of a command some of whose words are
// computed.
func (e *eval) noteArgs(args []arg) {
	for _, a := range args {
		if a.known {
			e.noteName(a.val)
		}
	}
}

// computedWord reports whether w's value is not spelled out in the
// text: it expands a parameter, a substitution, braces or a tilde.
func computedWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "{~") {
				return true
			}
		case *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return true
				}
			}
		default:
			return true
		}
	}
	return false
}

// noteInputFile keeps the file an input redirection opens, w resolved as
// t, for namedFiles: its value, or each one the script's literal values
// for its variables give it (n=job; exec 3<"$d/$n").
func (e *eval) noteInputFile(w *syntax.Word, t arg, ctx cctx, sc *scope) {
	if t.known {
		e.noteName(t.val)
		return
	}
	for _, bind := range sc.bindings([]*syntax.Word{w}) {
		alt := resolver{e: e, ctx: ctx, sc: sc, bind: bind}
		if v := alt.lit(w); v.known {
			e.noteName(v.val)
		}
	}
}

// recentScript returns what the file p is and its text, when it is a
// script changed since warden started. A stat comes first: most names a
// text gives are programs, options or files older than warden, which are
// then not opened.
func (e *eval) recentScript(p string) (*localFile, string, bool) {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || changed(fi).Before(e.p.since.Add(-time.Second)) { // the kernel's clock is coarse
		return nil, "", false
	}
	lf := e.localFile(p)
	text, ok := e.scriptText(lf, p)
	return lf, text, ok
}

// unreadDir reports whether p is under a tree of the kernel's, whose
// names (/dev/fd/3, /proc/self/fd/0) are warden's own descriptors here.
func unreadDir(p string) bool {
	for _, d := range []string{"/proc/", "/sys/", "/dev/"} {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}

// nameSeps end a word that may name a file: blanks, the shell's
// operators and expansions, and the = of NAME=FILE and if=FILE.
const nameSeps = " \t\r\n;&|()<>`$={},"

// unquoted takes a word's quotes and backslashes out.
var unquoted = strings.NewReplacer(`"`, "", `'`, "", `\`, "")

// nameTokens calls f with each word of s that may name a file, until f
// returns false: s split at nameSeps; a word with quotes or backslashes
// both split at them and with them taken out, which joins /tmp/j""ob and
// /tmp/j\ob; and each quoted string whole, which keeps "/tmp/my job".
func nameTokens(s string, f func(string) bool) {
	visit := func(w string) bool { return w == "" || w[0] == '-' || len(w) > 4096 || f(w) }
	split := func(s, seps string, each func(string) bool) bool {
		for s != "" {
			w, rest := s, ""
			if i := strings.IndexAny(s, seps); i >= 0 {
				w, rest = s[:i], s[i+1:]
			}
			if !each(w) {
				return false
			}
			s = rest
		}
		return true
	}
	quotes := `"'\`
	if !split(s, nameSeps, func(w string) bool {
		if !strings.ContainsAny(w, quotes) {
			return visit(w)
		}
		return split(w, quotes, visit) && visit(unquoted.Replace(w))
	}) || !strings.ContainsAny(s, `"'`) {
		return
	}
	for _, q := range []string{`"`, `'`} {
		parts := strings.Split(s, q)
		for i := 1; i < len(parts); i += 2 {
			if strings.Contains(parts[i], "/") && !split(parts[i], "\n", visit) {
				return
			}
		}
	}
}

package policy

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// maxIncludeDepth is how deep the includes of a make or just file are
// read.
const maxIncludeDepth = 5

// projectIncludes is projectText of each file the make or just file p
// includes, and of theirs (maxIncludeDepth levels of includes, at most
// budget files), read whatever p's age: an old Makefile's -include
// local.mk reads a local.mk written this session.
func (c *call) projectIncludes(p string, depth int, budget *int) bool {
	text, ok := c.e.readLocal(p)
	if !ok {
		return true
	}
	given := makeArgVars(c)
	incs, computed := recipeIncludes(path.Dir(p), text, given, c.makeIncludeDirs(path.Dir(p)))
	if computed != "" && (c.e.recentPath(p) || computed != "\x00") {
		// make reads a file whose name a variable set outside the
		// Makefile gives (make X=evil.mk, X=evil.mk make), or one a
		// Makefile written this session computes in a way not followed
		// here: neither is read.
		c.e.note(TierDestructive, false, "make includes a file named at run time in %s", truncate(p, 64))
	}
	if len(incs) > 0 && depth >= maxIncludeDepth {
		c.e.pastLimit(maxIncludeDepth, "levels of includes from "+truncate(p, 64))
		return true
	}
	for _, inc := range incs {
		if *budget--; *budget < 0 {
			c.e.pastLimit(maxProgramGlobs, "files included from "+truncate(p, 64))
			return true
		}
		if !c.projectText(inc, false, true) || !c.projectIncludes(inc, depth+1, budget) {
			return false
		}
	}
	return true
}

// recentPath reports whether the file p changed since warden started.
func (e *eval) recentPath(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && e.changedSince(fi)
}

// makeSearchDirs are the directories make looks in for an include that is
// not in its working directory, after those its -I options name (GNU
// make's, and bmake's system directory).
var makeSearchDirs = []string{"/usr/local/include", "/usr/gnu/include", "/usr/include", "/usr/share/mk"}

// makeIncludeDirs returns the directories make c looks in for a relative
// include that dir does not hold: its -I options' (relative to dir) and
// make's own. just looks nowhere else.
func (c *call) makeIncludeDirs(dir string) []string {
	if c.name == "just" {
		return nil
	}
	var out []string
	for _, v := range c.optVals(c.args, "-I", "--include-dir") {
		if v.known {
			out = append(out, localPath(dir, v.val))
		}
	}
	return append(out, makeSearchDirs...)
}

// makeArgVars returns the variables make's command line sets (make
// X=evil.mk), which override the Makefile's own.
func makeArgVars(c *call) map[string]string {
	var m map[string]string
	for _, a := range c.args {
		n, v, ok := strings.Cut(a.val, "=")
		if !a.known || !ok || strings.HasPrefix(a.val, "-") || !validName(n) {
			continue
		}
		if m == nil {
			m = map[string]string{}
		}
		m[n] = v
	}
	return m
}

// makeWords splits a line of a Makefile into its words: at blanks, but
// not inside a reference or function call ($(patsubst %.c,%.d,$(SRCS))).
func makeWords(line string) []string {
	var out []string
	depth, start := 0, -1
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '$' && i+1 < len(line) && (line[i+1] == '(' || line[i+1] == '{'):
			if start < 0 {
				start = i
			}
			depth++
			i++
		case (c == ')' || c == '}') && depth > 0:
			depth--
		case (c == ' ' || c == '\t') && depth == 0:
			if start >= 0 {
				out = append(out, line[start:i])
				start = -1
			}
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		out = append(out, line[start:])
	}
	return out
}

// makeVarLine is an assignment of a Makefile's (X = v, X := v, X ?= v,
// X += v, override or export before it).
var makeVarLine = regexp.MustCompile(`^\s*(?:(?:override|export)\s+)*([A-Za-z_][A-Za-z0-9_.-]*)\s*(:::=|::=|:=|\?=|\+=|!=|=)\s*(.*)$`)

// makeRef is a reference to a variable, $(X) or ${X}; makeUse any use of
// one, in a substitution reference too ($(X:.c=.d)) or spelled $X, but not
// a function's name ($(patsubst …)).
var (
	makeRef = regexp.MustCompile(`\$[({]([A-Za-z_][A-Za-z0-9_.-]*)[)}]`)
	makeUse = regexp.MustCompile(`\$(?:[({]([A-Za-z_][A-Za-z0-9_.-]*)[:)}]|([A-Za-z_]))`)
)

// recipeIncludes returns the files a Makefile's include, -include and
// sinclude lines (bmake's .include), or a justfile's import and mod
// lines, name, relative to dir, a glob or make's $(wildcard …) expanded
// and the variables the Makefile or make's command line (given) sets
// literally put in; a relative name is looked for in each of search too.
// computed
// is not empty when a name is left computed: "\x00" when its variables
// are all the Makefile's own (-include $(DEPS), DEPS := $(SRCS:.c=.d)),
// else the name of a variable set outside it.
func recipeIncludes(dir, text string, given map[string]string, search []string) (out []string, computed string) {
	vars := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		m := makeVarLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		switch v := strings.TrimSpace(m[3]); m[2] {
		case "+=":
			vars[m[1]] = strings.TrimSpace(vars[m[1]] + " " + v)
		case "!=":
			vars[m[1]] = "$(shell)" // a command's output
		case "?=":
			if _, ok := vars[m[1]]; !ok {
				vars[m[1]] = v
			}
		default:
			vars[m[1]] = v
		}
	}
	for n, v := range given {
		vars[n] = v
	}
	// expand puts in the values of the variables s names, and returns
	// with what is left computed the name of a variable set outside the
	// Makefile it still uses, if any.
	expand := func(s string) (string, string) {
		for range 8 {
			if !strings.Contains(s, "$") {
				break
			}
			s = makeRef.ReplaceAllStringFunc(s, func(ref string) string {
				if v, ok := vars[ref[2:len(ref)-1]]; ok {
					return v
				}
				return ref
			})
		}
		for _, m := range makeUse.FindAllStringSubmatch(s, -1) {
			n := m[1] + m[2]
			if _, own := vars[n]; !own || given[n] != "" {
				return s, n
			}
		}
		return s, ""
	}
	for _, line := range strings.Split(text, "\n") {
		f := makeWords(line)
		if len(f) < 2 {
			continue
		}
		var names []string
		switch f[0] {
		case "include", "-include", "sinclude", ".include", ".-include", ".sinclude", ".dinclude":
			names = f[1:] // bmake's .include "x.mk" and <x.mk> too
		case "import", "import?":
			names = f[1:2]
		case "mod", "mod?":
			if names = f[2:min(3, len(f))]; len(names) == 0 {
				n := strings.Trim(f[1], "'\"")
				names = []string{n + ".just", n + "/mod.just", n + "/justfile", n + "/.justfile"}
			}
		}
		for _, n := range names {
			n = strings.Trim(n, "'\"<>")
			if inner, ok := strings.CutPrefix(n, "$(wildcard "); ok && strings.HasSuffix(inner, ")") {
				n = inner[:len(inner)-1] // the files its patterns match
			}
			if strings.Contains(n, "$") {
				var outside string
				if n, outside = expand(n); outside != "" {
					computed = outside
				} else if strings.Contains(n, "$") && computed == "" {
					computed = "\x00"
				}
				if strings.Contains(n, "$") {
					continue
				}
			}
			for _, w := range strings.Fields(n) {
				p := localPath(dir, w)
				if !strings.ContainsAny(w, "*?[") {
					out = append(out, p)
				} else if ms, err := filepath.Glob(p); err == nil {
					out = append(out, ms...)
				}
				if strings.HasPrefix(w, "/") {
					continue
				}
				for _, d := range search {
					if p := path.Join(d, w); strings.ContainsAny(w, "*?[") {
						ms, _ := filepath.Glob(p)
						out = append(out, ms...)
					} else if fileExists(p) {
						out = append(out, p)
					}
				}
			}
		}
	}
	return out, computed
}

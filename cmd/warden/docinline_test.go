package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	inlineCodeRE = regexp.MustCompile("`([^`\n]+)`")
	subcommandRE = regexp.MustCompile(`^[a-z][a-z-]*$`)
	flagRE       = regexp.MustCompile(`^--?[a-z][a-z-]*`)
)

// TestDocInlineCommands: the warden commands the README and the guide
// name in running text (`warden serve --http`, `warden doctor [--url
// URL]`) exist, each flag shown is in its --help, and the go build and
// go install commands name packages of this module.
func TestDocInlineCommands(t *testing.T) {
	env, _ := wardenEnv(t)
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	module := strings.TrimPrefix(strings.SplitN(string(mod), "\n", 2)[0], "module ")
	n := 0
	for _, doc := range checkedDocs {
		for _, span := range inlineSpans(t, doc) {
			words := strings.Fields(strings.NewReplacer(`\|`, "|", "[", " ", "]", " ").Replace(span))
			where := filepath.Base(doc) + ": `" + span + "`"
			if len(words) == 0 {
				continue
			}
			switch {
			case wardenWord.MatchString(words[0]):
				n++
				var sub, flags []string
				for i, w := range words[1:] {
					if subcommandRE.MatchString(w) && len(sub) == i {
						sub = append(sub, w)
					} else if f := flagRE.FindString(w); f != "" {
						flags = append(flags, f)
					}
				}
				out, errOut, code := runBin(t, env, append(sub, "--help")...)
				if code != 0 || !strings.HasPrefix(out, "Usage: warden") && !strings.HasPrefix(out, "warden —") {
					t.Errorf("%s: warden %s --help: exit %d\n%s%s", where, strings.Join(sub, " "), code, out, errOut)
					continue
				}
				for _, f := range flags {
					if !regexp.MustCompile(`(^|[\s,])` + regexp.QuoteMeta(f) + `\b`).MatchString(out) {
						t.Errorf("%s: warden %s --help does not list %s:\n%s", where, strings.Join(sub, " "), f, out)
					}
				}
			case len(words) > 2 && words[0] == "go" && (words[1] == "build" || words[1] == "install" || words[1] == "run"):
				for _, w := range words[2:] {
					if strings.Contains(w, "…") {
						continue
					}
					pkg, _, _ := strings.Cut(w, "@")
					if rel, ok := strings.CutPrefix(pkg, module+"/"); ok {
						pkg = "./" + rel
					} else if strings.Contains(pkg, ".") && strings.Contains(pkg, "/") && !strings.HasPrefix(pkg, "./") && !strings.HasPrefix(pkg, "~") {
						t.Errorf("%s: %s is not in module %s", where, pkg, module)
						continue
					}
					if strings.HasPrefix(pkg, "./") {
						n++
						if _, err := os.Stat(filepath.Join("../..", pkg, "main.go")); err != nil {
							t.Errorf("%s: %s is not a command of this module: %v", where, pkg, err)
						}
					}
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("found only %d inline commands in %v; is the parsing broken?", n, checkedDocs)
	}
}

// inlineSpans are a document's inline code spans outside fenced blocks.
func inlineSpans(t *testing.T, doc string) []string {
	t.Helper()
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	in := false
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "```") {
			in = !in
			continue
		}
		if !in {
			text.WriteString(l + "\n")
		}
	}
	var out []string
	for _, m := range inlineCodeRE.FindAllStringSubmatch(text.String(), -1) {
		if strings.TrimSpace(m[1]) != "" {
			out = append(out, m[1])
		}
	}
	return out
}

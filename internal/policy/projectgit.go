package policy

import (
	"os"
	"path"
	"strings"
)

// git runs what its repositories' and its user's configuration name: the
// hooks of a repository (and of the template a new one is made from), the
// settings that name programs, in the files those include. These find
// them and read them for projectCode.

// templateHooks meets the deny list with the hooks of git's template
// directories templates (relative ones under the working directory), and
// reports whether the call is still not denied.
func (c *call) templateHooks(templates []string) bool {
	for _, named := range templates {
		for _, t := range c.atCwds(named) {
			if rest, tilde := strings.CutPrefix(t, "~/"); tilde {
				home := c.homeDir()
				if home == "" {
					continue
				}
				t = path.Join(home, rest)
			}
			ents, _ := os.ReadDir(path.Join(t, "hooks"))
			n := 0
			for _, h := range ents {
				if strings.HasSuffix(h.Name(), ".sample") {
					continue // git copies the samples, and runs none
				}
				if n++; n > maxProjectGlob {
					c.e.pastLimit(maxProjectGlob, "hooks in "+truncate(t, 64)+"/hooks")
					break
				}
				if !c.projectFile(path.Join(t, "hooks", h.Name()), true) {
					return false
				}
			}
		}
	}
	return true
}

// gitGlobalConfigs are the configuration files git reads beside a
// repository's: the system's, and the user's in both places git looks.
func (c *call) gitGlobalConfigs() []string {
	out := []string{"/etc/gitconfig"}
	if home := c.homeDir(); home != "" {
		out = append(out, path.Join(home, ".gitconfig"), path.Join(home, ".config/git/config"))
	}
	return out
}

// gitConfigRuns returns the settings of the git configuration file cfg,
// read whatever its age (a repository's names its hooks directory), and
// meets the deny list with what those that run programs run when it
// changed since warden started, and with the files it includes
// (include.path, includeIf.….path). ok is false when that denied the
// call.
func (c *call) gitConfigRuns(cfg string) (settings [][2]string, ok bool) {
	return c.gitConfigDepth(cfg, 0)
}

// maxGitIncludes is how deep git's includes are followed, as git does.
const maxGitIncludes = 10

func (c *call) gitConfigDepth(cfg string, depth int) (settings [][2]string, ok bool) {
	e := c.e
	lf, text, recent := e.recentScript(cfg)
	if !recent {
		text, _ = e.readLocal(cfg)
	}
	settings = gitSettings(text)
	home := c.homeDir()
	for _, kv := range settings {
		k := strings.ToLower(kv[0])
		if depth >= maxGitIncludes || k != "include.path" && !(strings.HasPrefix(k, "includeif.") && strings.HasSuffix(k, ".path")) {
			continue
		}
		inc := kv[1]
		if rest, tilde := strings.CutPrefix(inc, "~/"); tilde && home != "" {
			inc = path.Join(home, rest)
		}
		if inc != "" && !strings.HasPrefix(inc, "~") {
			if _, ok := c.gitConfigDepth(localPath(path.Dir(cfg), inc), depth+1); !ok {
				return settings, false
			}
		}
	}
	if !recent || lf.classified {
		return settings, true
	}
	lf.classified = true
	sub := e.fork()
	git := call{e: sub, name: "git", ctx: projectCtx(c.ctx)}
	var run []string
	for _, kv := range settings {
		if gitConfigRisky(kv[0]) {
			git.gitConfigPayload(kv[0], kv[1], true)
			run = append(run, kv[1])
		}
	}
	why := sub.denyWhy
	if why == "" {
		e.keepUnseen(sub, strings.Join(run, "\n"), sub.opaque)
	}
	sub.release()
	return settings, c.projectDeny(cfg, why)
}

// maxRepoUp is how many parent directories repoDirs looks in.
const maxRepoUp = 64

// repoDirs returns the git directories of the repository git finds from
// dir, as git looks, and its work tree's top: dir itself when it is a
// bare repository (no work tree), else the first .git up from it, a
// directory or a file naming one ("gitdir: …", a worktree's or a
// submodule's), with the common directory a worktree shares its config
// and hooks from.
func (e *eval) repoDirs(dir string) ([]string, string) {
	if bareRepo(dir) {
		return []string{dir}, ""
	}
	for d, up := path.Clean(dir), 0; up < maxRepoUp; d, up = path.Dir(d), up+1 {
		g := path.Join(d, ".git")
		if fi, err := os.Stat(g); err == nil {
			if fi.IsDir() {
				return []string{g}, d
			}
			text, _ := e.readLocal(g)
			target, ok := strings.CutPrefix(strings.TrimSpace(text), "gitdir:")
			if !ok {
				return nil, "" // not a repository: git stops here too
			}
			g = localPath(d, strings.TrimSpace(target))
			out := []string{g}
			if common, _ := e.readLocal(path.Join(g, "commondir")); strings.TrimSpace(common) != "" {
				out = append(out, localPath(g, strings.TrimSpace(common)))
			}
			return out, d
		}
		if d == "/" || d == "." {
			return nil, ""
		}
	}
	e.pastLimit(maxRepoUp, "directories up from "+truncate(dir, 64)+" to a repository")
	return nil, ""
}

// bareRepo reports whether dir is a git directory itself, as git tells
// one: a HEAD file beside objects and refs directories.
func bareRepo(dir string) bool {
	for _, n := range []string{"objects", "refs"} {
		if fi, err := os.Stat(path.Join(dir, n)); err != nil || !fi.IsDir() {
			return false
		}
	}
	fi, err := os.Stat(path.Join(dir, "HEAD"))
	return err == nil && fi.Mode().IsRegular()
}

// hookDirs returns the directories whose hooks the repository g (its git
// directory) runs: g/hooks, and the core.hooksPath its settings name,
// which a relative value puts under the top of the work tree the hook
// runs in, any of tops (a worktree's, though the setting is in the
// common directory's config), or in a bare repository under g.
func hookDirs(e *eval, g string, tops []string, settings [][2]string) []string {
	dirs := []string{path.Join(g, "hooks")}
	for _, kv := range settings {
		if kv[0] != "core.hookspath" || kv[1] == "" {
			continue
		}
		d := kv[1]
		switch {
		case strings.HasPrefix(d, "~/") && e.p.protect != nil && e.p.protect.home != "":
			dirs = append(dirs, path.Join(e.p.protect.home, d[2:]))
		case strings.HasPrefix(d, "/"):
			dirs = append(dirs, path.Clean(d))
		default:
			dirs = append(dirs, localPath(g, d))
			for _, top := range tops {
				dirs = append(dirs, localPath(top, d))
			}
		}
	}
	return dirs
}

// gitSettings returns the settings of a git config file's text, each as
// its key (section, subsection and name: core.fsmonitor,
// alias.x, filter.lfs.clean) and value.
func gitSettings(text string) [][2]string {
	text = strings.ReplaceAll(text, "\\\n", "") // a value continued on the next line
	var out [][2]string
	section := ""
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "[") {
			end := strings.IndexByte(l, ']')
			if end < 0 {
				continue
			}
			name, sub, ok := strings.Cut(l[1:end], " ")
			section = strings.ToLower(name)
			if ok {
				section += "." + gitValue(strings.TrimSpace(sub))
			}
			l = strings.TrimSpace(l[end+1:]) // [core] pager = x
		}
		if l == "" || l[0] == '#' || l[0] == ';' {
			continue
		}
		key, val, _ := strings.Cut(l, "=")
		out = append(out, [2]string{section + "." + strings.ToLower(strings.TrimSpace(key)), gitValue(strings.TrimSpace(val))})
	}
	return out
}

// gitValue returns a git config value as git reads it: quotes taken off,
// escapes applied, a comment (# or ; outside quotes) cut.
func gitValue(v string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		switch ch := v[i]; {
		case ch == '"':
			quoted = !quoted
		case ch == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			default:
				b.WriteByte(v[i])
			}
		case (ch == '#' || ch == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(ch)
		}
	}
	return strings.TrimSpace(b.String())
}

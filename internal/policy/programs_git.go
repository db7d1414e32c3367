package policy

import (
	"strings"

	"github.com/warden-mcp/warden/internal/shellword"
)

// gitValueGlobals are git's options before its subcommand that take the
// next word as their value; each reader of git's globals skips it by this
// one list.
var gitValueGlobals = map[string]bool{
	"-C": true, "-c": true, "--git-dir": true, "--work-tree": true,
	"--namespace": true, "--super-prefix": true, "--config-env": true,
}

// gitConfigRisky reports whether setting a git config key can make git run
// a program, load code, write a file of its choosing (trace2.*Target) or
// change what a command does.
func gitConfigRisky(key string) bool {
	k := strings.ToLower(key)
	if strings.HasPrefix(k, "alias.") || strings.HasPrefix(k, "url.") || strings.HasPrefix(k, "include") ||
		strings.HasPrefix(k, "protocol.") || strings.HasPrefix(k, "safe.") || strings.HasPrefix(k, "filter.") ||
		strings.HasPrefix(k, "pager.") || strings.HasPrefix(k, "credential") || strings.HasPrefix(k, "trace2.") {
		return true
	}
	// submodule.NAME.update = !cmd runs cmd on git submodule update, and a
	// remote's url (ext::cmd, or a host the host rules never see) is
	// where fetch and push go.
	if strings.HasPrefix(k, "submodule.") && strings.HasSuffix(k, ".update") ||
		strings.HasPrefix(k, "remote.") && (strings.HasSuffix(k, ".url") || strings.HasSuffix(k, ".pushurl")) {
		return true
	}
	for _, s := range []string{"sshcommand", "pager", "editor", "fsmonitor", "hookspath", "hooks", "gitproxy",
		"askpass", "textconv", "command", "cmd", "program", "helper", "external", "driver", "uploadpack",
		"receivepack", "proxy", "exec", "alternaterefs", "browser", "tool", "worktree", "sshvariant",
		"difffilter", "smudge", "clean", "process", "gpg", "socket", "gitdir", "templatedir"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

// gitProxy denies a proxy setting (http.proxy, http.<url>.proxy,
// remote.<name>.proxy) whose value is a host the rules deny: every fetch
// and push then goes through it.
func (c *call) gitProxy(what, val string) {
	if strings.Contains(strings.ToLower(what), "proxy") {
		c.forwardSpec(what, val)
	}
}

var gitRead = set(`status log diff show blame shortlog grep cat-file ls-files ls-tree rev-parse
	rev-list describe for-each-ref show-ref name-rev merge-base cherry whatchanged var help
	version count-objects fsck verify-commit verify-tag check-ignore check-attr check-mailmap
	show-branch range-diff diff-tree diff-files diff-index annotate get-tar-commit-id
	verify-pack show-index ls-remote`)

// gitHelpPage reports whether git help, given the words after it, shows a
// page rather than printing a list: the page is shown by man (and its
// pager), info or a web browser, as help.format, man.viewer,
// man.<tool>.cmd and browser.<tool>.cmd say, the repository's
// configuration included.
func gitHelpPage(rest []string) bool {
	has := func(flags ...string) bool {
		for _, r := range rest {
			for _, f := range flags {
				if r == f || strings.HasPrefix(f, "--") && longFlag(r, f) {
					return true
				}
			}
		}
		return false
	}
	return has("-w", "--web", "-m", "--man", "-i", "--info") || len(operands(rest)) > 0 &&
		!has("-a", "--all", "-g", "--guides", "-c", "--config", "--user-interfaces", "--developer-interfaces")
}

// gitHelpPaged reports whether git help, given the words after it, prints
// a list through the pager: every command (-a, --all) and every setting
// (-c, --config), also in a cluster (-av) or abbreviated (--al). On a
// terminal that pager is the repository's core.pager.
func gitHelpPaged(rest []string) bool {
	for _, r := range rest {
		if r == "--" {
			break
		}
		if longFlag(r, "--all") || longFlag(r, "--config") || shortFlag(r, 'a') || shortFlag(r, 'c') {
			return true
		}
	}
	return false
}

// gitProgram classifies git: global -c settings and options that run
// programs, history-destroying subcommands, and everything else as mutation.
func gitProgram(c *call) (Tier, string) {
	args := c.args
	i := 0
	for i < len(args) {
		a := args[i]
		v := a.val
		if !a.known {
			return c.unreadableArgs()
		}
		if !strings.HasPrefix(v, "-") {
			break
		}
		switch {
		case v == "-c":
			if i+1 < len(args) {
				k, val, _ := strings.Cut(args[i+1].val, "=")
				c.gitProxy("-c "+k, val)
				if !args[i+1].known || gitConfigRisky(k) {
					if strings.EqualFold(k, "init.templatedir") {
						c.templateHooks([]string{val})
					}
					c.e.scanText(val)
					c.e.opaque = true
					return TierDestructive, "git -c " + k + ": configuration that runs programs or redefines commands"
				}
			}
			i += 2
			continue
		case strings.HasPrefix(v, "-c") && len(v) > 2:
			k, val, _ := strings.Cut(v[2:], "=")
			c.gitProxy("-c "+k, val)
			if gitConfigRisky(k) {
				if strings.EqualFold(k, "init.templatedir") {
					c.templateHooks([]string{val})
				}
				c.e.scanText(val)
				return TierDestructive, "git -c " + k + ": configuration that runs programs or redefines commands"
			}
		case strings.HasPrefix(v, "--config-env") || strings.HasPrefix(v, "--exec-path="):
			return TierDestructive, "git " + v + ": configuration that runs programs"
		case gitValueGlobals[v]:
			i++
		}
		i++
	}
	if i >= len(args) {
		return TierRead, "git"
	}
	sub := args[i].val
	rest := argVals(args[i+1:])
	if len(rest) > 0 && rest[0] == "--help" && sub != "help" {
		// git CMD --help is git help CMD: the page is shown by man.
		sub, rest = "help", []string{sub}
	}
	for _, a := range args[:i] {
		if a.val == "--help" || a.val == "-h" {
			// git --help CMD (or -h CMD) is git help CMD too.
			sub, rest = "help", argVals(args[i:])
		}
	}
	for _, r := range rest {
		lr := strings.ToLower(r)
		if strings.HasPrefix(lr, "--upload-pack") || strings.HasPrefix(lr, "--receive-pack") || strings.HasPrefix(lr, "--exec=") ||
			lr == "--exec" || strings.HasPrefix(lr, "ext::") || strings.HasPrefix(lr, "fd::") || strings.HasPrefix(lr, "--open-files-in-pager") ||
			strings.HasPrefix(lr, "--extcmd") || strings.HasPrefix(lr, "--to-cmd") || strings.HasPrefix(lr, "--cc-cmd") || strings.HasPrefix(lr, "--config") ||
			sub == "grep" && (shortFlag(r, 'O') || len(lr) > 3 && strings.HasPrefix("--open-files-in-pager", strings.SplitN(lr, "=", 2)[0])) {
			return TierDestructive, "git " + sub + " " + r + ": runs a program"
		}
	}
	// git's option parser takes unique abbreviations (--lost for
	// --lost-found), so long flags match as longFlag reads them.
	hasAny := func(flags ...string) bool {
		for _, r := range rest {
			for _, f := range flags {
				if r == f || strings.HasPrefix(f, "--") && longFlag(r, f) {
					return true
				}
			}
		}
		return false
	}
	// hasShort is hasAny for short flags in a cluster (-df, -SW), up to
	// the first letter that takes a value.
	hasShort := func(letters, values string) bool {
		for _, r := range rest {
			if r == "--" {
				return false
			}
			if len(r) < 2 || r[0] != '-' || r[1] == '-' {
				continue
			}
			for _, b := range []byte(r[1:]) {
				if strings.IndexByte(letters, b) >= 0 {
					return true
				}
				if strings.IndexByte(values, b) >= 0 {
					break
				}
			}
		}
		return false
	}
	ops := operands(rest)
	switch sub {
	case "log", "diff", "show", "format-patch":
		if hasAny("--output") {
			return TierMutate, "git " + sub + " --output: writes a file"
		}
		if sub == "format-patch" {
			return TierMutate, "git format-patch: writes patch files"
		}
		return TierRead, "git " + sub
	case "branch":
		if (hasShort("dD", "u") || hasAny("--delete")) && (hasShort("fD", "u") || hasAny("--force")) || hasShort("D", "u") {
			return TierDestructive, "git branch -D: deletes unmerged branches"
		}
		if len(ops) == 0 && !hasAny("-d", "-m", "-M", "-c", "-C", "--delete", "--move", "--copy", "-u", "--set-upstream-to", "--unset-upstream", "--edit-description") {
			return TierRead, "git branch: lists branches"
		}
		return TierMutate, "git branch: changes branches"
	case "tag":
		if len(ops) == 0 || hasAny("-l", "--list", "-v", "--verify", "--contains", "--points-at") && !hasAny("-d", "--delete") {
			return TierRead, "git tag: lists tags"
		}
		return TierMutate, "git tag: changes tags"
	case "remote":
		if len(ops) > 1 && ops[0] == "show" && !hasAny("-n") {
			// Without -n, show asks each named remote for its heads,
			// as ls-remote does: a connection, ssh for ssh remotes.
			return TierBenign, "git remote show: asks the remote for its branches"
		}
		if len(ops) == 0 || ops[0] == "show" || ops[0] == "get-url" {
			return TierRead, "git remote"
		}
		return TierMutate, "git remote: changes remotes"
	case "config":
		if !gitConfigSets(rest) {
			return TierRead, "git config: reads settings"
		}
		ops, _, _ := gitConfigArgs(rest)
		for i, o := range ops {
			if i+1 < len(ops) {
				c.gitProxy("config "+o, strings.Join(ops[i+1:], " "))
			}
			if gitConfigRisky(o) {
				// The program it names runs later: it meets the deny list.
				c.e.scanText(strings.Join(ops[i+1:], " "))
				return TierDestructive, "git config " + o + ": configuration that runs programs or redefines commands"
			}
		}
		return TierMutate, "git config: changes settings"
	case "stash":
		if len(ops) > 0 && (ops[0] == "list" || ops[0] == "show") {
			return TierRead, "git stash " + ops[0]
		}
		if len(ops) > 0 && (ops[0] == "clear" || ops[0] == "drop") {
			return TierDestructive, "git stash " + ops[0] + ": discards stashed work"
		}
		return TierMutate, "git stash"
	case "reflog":
		// Words that are not reflog's subcommands are show's: its log
		// options and their values (-n 10), a ref. Where a destroying
		// subcommand stands among them is read as that subcommand.
		for _, o := range ops {
			if o == "expire" || o == "delete" || o == "drop" {
				return TierDestructive, "git reflog " + o + ": destroys recovery history"
			}
		}
		return TierRead, "git reflog"
	case "worktree", "notes", "submodule", "sparse-checkout", "lfs", "bisect":
		if len(ops) == 0 || ops[0] == "list" || ops[0] == "show" || ops[0] == "status" || ops[0] == "summary" || ops[0] == "log" {
			return TierRead, "git " + sub
		}
		if sub == "submodule" && ops[0] == "foreach" || sub == "bisect" && ops[0] == "run" {
			// The command is every word after the subcommand's own, options
			// included (bisect run rm -rf /): git runs the first as shell
			// text, with the others as its arguments.
			cmd := rest
			for len(cmd) > 0 && cmd[0] != ops[0] {
				cmd = cmd[1:]
			}
			cmd = cmd[1:]
			// foreach's options (--recursive, -q) come before the command
			// in any spelling parse-options takes (--recu, -qq); it takes
			// no other, so no command begins with a dash there.
			for len(cmd) > 0 && sub == "submodule" && strings.HasPrefix(cmd[0], "-") {
				stop := cmd[0] == "--"
				cmd = cmd[1:]
				if stop {
					break
				}
			}
			if len(cmd) > 0 {
				c.shell(strings.TrimSpace(cmd[0]+" "+shellword.Join(cmd[1:])), "git "+sub+" command", nil, false)
			}
			return TierMutate, "git " + sub + " " + ops[0] + ": runs a command"
		}
		// A forced worktree remove, submodule deinit or update throws away
		// the uncommitted changes the plain forms refuse to lose.
		if (sub == "worktree" && ops[0] == "remove" || sub == "submodule" && (ops[0] == "deinit" || ops[0] == "update")) &&
			(hasShort("f", "") || hasAny("--force")) {
			return TierDestructive, "git " + sub + " " + ops[0] + " --force: discards uncommitted changes"
		}
		return TierMutate, "git " + sub
	case "fetch", "remote-update":
		return TierMutate, "git fetch: writes the repository's objects and refs"
	case "push":
		// git -c remote.NAME.push=+REFSPEC or remote.NAME.mirror=true
		// forces or mirrors every plain push.
		for k, a := range args[:i] {
			kv := strings.TrimPrefix(a.val, "-c")
			if a.val == "-c" && k+1 < i {
				kv = args[k+1].val
			} else if kv == a.val {
				continue
			}
			key, val, _ := strings.Cut(kv, "=")
			key = strings.ToLower(key)
			if strings.HasSuffix(key, ".push") && (strings.HasPrefix(val, "+") || strings.HasPrefix(val, ":")) || strings.HasSuffix(key, ".mirror") {
				return TierDestructive, "git -c " + truncate(key, 64) + ": makes the push forced or mirrored"
			}
		}
		for _, r := range rest {
			if r == "-f" || r == "--force" || strings.HasPrefix(r, "--force-with-lease") || r == "--force-if-includes" || r == "--mirror" ||
				r == "--delete" || r == "-d" || r == "--prune" || strings.HasPrefix(r, "+") || strings.HasPrefix(r, ":") ||
				strings.HasPrefix(r, "-") && !strings.HasPrefix(r, "--") && strings.ContainsAny(r[1:], "fd") {
				return TierDestructive, "git push " + r + ": rewrites or deletes remote history"
			}
		}
		// Long options are taken abbreviated (--force-w, --mir, --del).
		if hasAny("--force", "--force-with-lease", "--force-if-includes", "--mirror", "--delete", "--prune") {
			return TierDestructive, "git push --force, --mirror, --delete or --prune: rewrites or deletes remote history"
		}
		return TierMutate, "git push"
	case "reset":
		if hasAny("--hard", "--merge", "--keep") {
			return TierDestructive, "git reset --hard: discards work"
		}
		return TierMutate, "git reset"
	case "rm":
		if (hasShort("f", "") || hasAny("--force")) && !hasAny("--cached") {
			return TierDestructive, "git rm --force: removes files with uncommitted changes"
		}
		return TierMutate, "git rm"
	case "clean":
		for _, r := range rest {
			if r == "-n" || r == "--dry-run" {
				return TierRead, "git clean -n"
			}
		}
		return TierDestructive, "git clean: deletes untracked files"
	case "checkout", "switch", "restore":
		// restore writes the worktree unless only --staged is given;
		// checkout with two operands (no -b, -B or --orphan) is checkout
		// TREE PATHS, which overwrites the paths.
		if hasAny("-f", "--force", "--discard-changes", "--ours", "--theirs") || hasShort("f", "bBt") && sub != "restore" ||
			sub == "restore" && (!hasAny("--staged") && !hasShort("S", "s") || hasAny("--worktree") || hasShort("W", "s")) ||
			sub == "checkout" && (hasAny("--") || len(ops) > 0 && ops[0] == "." || len(ops) >= 2 && !hasShort("bB", "") && !hasAny("--orphan")) {
			return TierDestructive, "git " + sub + ": discards uncommitted changes"
		}
		return TierMutate, "git " + sub
	case "rebase":
		for k, r := range rest {
			if (r == "-x" || r == "--exec") && k+1 < len(rest) {
				c.shell(rest[k+1], "git rebase --exec command", nil, false)
			} else if strings.HasPrefix(r, "--exec=") {
				c.shell(strings.TrimPrefix(r, "--exec="), "git rebase --exec command", nil, false)
			}
		}
		return TierMutate, "git rebase"
	case "filter-branch", "filter-repo", "replace", "prune", "update-ref", "gc", "repack", "difftool", "mergetool", "send-email", "instaweb", "daemon", "credential", "archimport", "cvsimport", "svn", "p4", "quiltimport":
		if sub == "gc" && !hasAny("--prune", "--aggressive") {
			return TierMutate, "git gc"
		}
		if sub == "update-ref" && !hasAny("-d", "--stdin") {
			return TierMutate, "git update-ref"
		}
		return TierDestructive, "git " + sub + ": rewrites history, removes objects or runs tools"
	case "apply":
		// The patch names the files it writes; --unsafe-paths lets it
		// name them outside the work tree, anywhere (/etc/cron.d/x).
		if hasAny("--unsafe-paths") {
			return TierDestructive, "git apply --unsafe-paths: writes the files the patch names, anywhere"
		}
	case "archive":
		if hasAny("--remote", "--output", "-o") {
			return TierMutate, "git archive: writes a file or contacts a remote"
		}
		return TierRead, "git archive"
	case "help":
		if gitHelpPage(rest) {
			return TierMutate, "git help: shows the page with man, info or a web browser"
		}
		return TierRead, "git help"
	}
	if gitRead[sub] {
		if sub == "fsck" && hasAny("--lost-found") {
			return TierMutate, "git fsck --lost-found: writes dangling objects into .git/lost-found"
		}
		if sub == "ls-remote" {
			return TierBenign, "git ls-remote"
		}
		return TierRead, "git " + sub
	}
	return TierMutate, "git " + sub
}

// gitURLHost returns the host of a git remote URL, scheme://HOST/… or
// the scp-like [USER@]HOST:PATH (no '/' before the colon), or "".
func gitURLHost(a arg) string {
	v := a.val
	if !a.known || strings.HasPrefix(v, "-") {
		return ""
	}
	if scheme, _, ok := strings.Cut(v, "://"); ok {
		if scheme == "file" {
			return ""
		}
		return v
	}
	if i, j := strings.IndexByte(v, '['), strings.Index(v, "]:"); i >= 0 && j > i && !strings.Contains(v[:i], "/") {
		return v[:j+1] // [USER@][::ffff:a9fe:a9fe]:PATH
	}
	host, _, ok := strings.Cut(v, ":")
	if !ok || host == "" || strings.Contains(host, "/") {
		return ""
	}
	return host
}

// gitShellKeys are config keys whose value git runs through a shell.
var gitShellKeys = []string{"pager", "editor", "sshcommand", "command", "cmd", "program", "textconv",
	"external", "fsmonitor", "askpass", "gitproxy", "proxycommand", "uploadpack", "receivepack"}

// gitConfigPayload classifies the program a risky git config value runs.
func (c *call) gitConfigPayload(key, val string, known bool) {
	k := strings.ToLower(key)
	if !known {
		c.e.opaque = true
		return
	}
	switch {
	case strings.HasPrefix(k, "alias."):
		if strings.HasPrefix(val, "!") {
			c.shell(val[1:], "git alias", nil, false)
		}
		return
	case strings.HasPrefix(k, "pager."):
		switch strings.ToLower(val) {
		case "true", "false", "yes", "no", "on", "off", "1", "0", "":
			return
		}
		c.shell(val, "git "+key, nil, false)
		return
	case strings.HasSuffix(k, ".helper"), strings.HasPrefix(k, "submodule.") && strings.HasSuffix(k, ".update"):
		if strings.HasPrefix(val, "!") {
			c.shell(val[1:], "git "+key, nil, false)
			return
		}
	}
	for _, s := range gitShellKeys {
		if strings.HasSuffix(k, s) {
			c.shell(val, "git "+key, nil, false)
			return
		}
	}
}

// gitCommandOpts are the options of git subcommands whose value is a
// command git runs through a shell.
var gitCommandOpts = map[string][]string{
	"rebase":     {"-x", "--exec"},
	"difftool":   {"-x", "--extcmd"},
	"grep":       {"-O", "--open-files-in-pager"},
	"send-email": {"--to-cmd", "--cc-cmd", "--header-cmd", "--sendmail-cmd"},
	// filter-branch evaluates each filter in a shell, once per commit.
	"filter-branch": {"--env-filter", "--tree-filter", "--index-filter", "--parent-filter", "--msg-filter",
		"--commit-filter", "--tag-name-filter"},
	"instaweb": {"-d", "--httpd", "-b", "--browser"},
	"daemon":   {"--access-hook"},
}

// gitChecked adds to gitProgram the programs its options run: -c values,
// clone's -u and -c and --template, and --upload-pack, --receive-pack and
// --exec values, which are shell text.
func gitChecked(c *call) (Tier, string) {
	var r raiser
	args := c.args
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].val, "-") {
		v := args[i].val
		switch {
		case v == "-c" && i+1 < len(args):
			i++
			k, val, _ := strings.Cut(args[i].val, "=")
			if gitConfigRisky(k) {
				c.gitConfigPayload(k, val, args[i].known)
			}
		case strings.HasPrefix(v, "-c") && len(v) > 2:
			k, val, _ := strings.Cut(v[2:], "=")
			if gitConfigRisky(k) {
				c.gitConfigPayload(k, val, args[i].known)
			}
		case gitValueGlobals[v]:
			i++
		}
		i++
	}
	for k, a := range args {
		// Global options (-c remote.o.url=ext::…) and the words of the
		// subcommands that take a URL or write one into the configuration.
		if a.known && (k < i || k > i && i < len(args) && gitURLSubs[args[i].val]) {
			c.gitExtURL(a.val)
		}
	}
	if i < len(args) {
		sub := args[i].val
		rest := args[i+1:]
		// Every subcommand that reads revision or diff options (rev-list,
		// blame, shortlog, range-diff, diff-tree, stash show, ...) opens
		// --output's file as it parses it; archive and format-patch also
		// spell it -o.
		outs := []string{"--output", "--output-directory"}
		if sub == "archive" || sub == "format-patch" {
			outs = append(outs, "-o")
		}
		for _, f := range c.optVals(rest, outs...) {
			r.raise(c.writeArg(f, "git "+sub+" --output"))
		}
		r.raise(gitFileWrites(c, sub, rest))
		for _, v := range c.optVals(rest, "--upload-pack", "--receive-pack", "--exec") {
			r.raise(TierDestructive, "git "+sub+": runs "+truncate(v.val, 64))
			c.shellArg(v, "git "+sub+" remote program")
		}
		// Remote URLs, [USER@]HOST:PATH included, are held to the host rules.
		switch sub {
		case "clone", "ls-remote", "fetch", "pull", "push", "remote", "submodule", "archive":
			for _, a := range rest {
				if h := gitURLHost(a); h != "" {
					c.checkHost(h)
				}
			}
			for _, a := range c.optVals(rest, "--remote") {
				if h := gitURLHost(a); h != "" {
					c.checkHost(h)
				}
			}
		}
		for _, v := range c.optVals(rest, gitCommandOpts[sub]...) {
			r.raise(c.shellArg(v, "git "+sub+" command"))
		}
		if sub == "send-email" {
			// An absolute path as the SMTP server is a sendmail-like
			// program git runs instead of connecting.
			for _, v := range c.optVals(rest, "--smtp-server") {
				if !v.known || strings.HasPrefix(v.val, "/") {
					r.raise(c.shellArg(v, "git send-email --smtp-server program"))
				}
			}
		}
		switch sub {
		case "clone", "ls-remote", "archive", "fetch-pack":
			if sub != "archive" {
				for _, v := range c.optVals(rest, "-u") {
					r.raise(TierDestructive, "git "+sub+" -u: runs "+truncate(v.val, 64))
					c.shellArg(v, "git "+sub+" upload-pack")
				}
			}
			for _, v := range c.optVals(rest, "-c", "--config") {
				k, val, _ := strings.Cut(v.val, "=")
				if !v.known || gitConfigRisky(k) {
					r.raise(TierDestructive, "git "+sub+" -c "+k+": configuration that runs programs")
					c.gitConfigPayload(k, val, v.known)
				}
			}
		}
		if (sub == "clone" || sub == "init") && len(c.optVals(rest, "--template")) > 0 {
			r.raise(TierDestructive, "git "+sub+" --template: installs hooks that run programs")
		}
	}
	t, why := gitProgram(c)
	if r.t > t {
		c.e.opaque = true
		return r.t, r.why
	}
	return t, why
}

// gitFileWrites checks the files git bundle create writes and git config
// -f names when it writes.
func gitFileWrites(c *call, sub string, rest []arg) (Tier, string) {
	r := raiser{TierRead, ""}
	switch sub {
	case "bundle":
		if ops := optionOperands(rest, "", ""); len(ops) >= 2 && ops[0].val == "create" {
			r.raise(c.writeArg(ops[1], "git bundle create"))
		}
	case "config":
		if gitConfigSets(argVals(rest)) {
			for _, f := range c.optVals(rest, "-f", "--file") {
				r.raise(c.writeArg(f, "git config --file"))
			}
		}
	}
	return r.t, r.why
}

// gitURLSubs are git's subcommands whose words can be a remote's URL.
var gitURLSubs = set(`clone fetch pull push ls-remote remote submodule archive fetch-pack send-pack config`)

// gitExtURL classifies the command an ext:: URL in a git argument runs
// (git clone 'ext::sh -c reboot' x, --remote=ext::…, -c
// remote.o.url=ext::…, a url.ext::….insteadOf key), as git's ext remote
// helper runs it: the words after ext:: split at blanks, "% " a blank
// within one and %% a percent sign, no shell between.
func (c *call) gitExtURL(v string) {
	i := strings.Index(strings.ToLower(v), "ext::")
	if i < 0 || i > 0 && (isAlnum(v[i-1]) || v[i-1] == '-' || v[i-1] == '_') {
		return
	}
	u := v[i+len("ext::"):]
	if k := strings.Index(strings.ToLower(u), ".insteadof"); k >= 0 && strings.HasPrefix(strings.ToLower(v), "url.") {
		u = u[:k]
	}
	if argv := gitExtArgv(u); len(argv) > 0 {
		c.run(argv)
	}
}

// gitExtArgv splits an ext:: URL's command as git's ext remote helper
// does. The placeholders %s, %S and %G stand for values git supplies.
func gitExtArgv(u string) []arg {
	var out []arg
	var b strings.Builder
	in := false
	for i := 0; i < len(u); i++ {
		ch := u[i]
		switch {
		case ch == '%' && i+1 < len(u):
			i++
			switch u[i] {
			case ' ', '%':
				b.WriteByte(u[i])
			case 's':
				b.WriteString("upload-pack")
			case 'S':
				b.WriteString("git-upload-pack")
			}
			in = true
		case ch == ' ':
			if in {
				out = append(out, arg{val: b.String(), known: true})
			}
			b.Reset()
			in = false
		default:
			b.WriteByte(ch)
			in = true
		}
	}
	if in {
		out = append(out, arg{val: b.String(), known: true})
	}
	return out
}

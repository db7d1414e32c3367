package sessions

import "strings"

// git's subcommands read the terminal in more ways than their names show:
// plumbing reads its input by default (mktree, stripspace, patch-id,
// commit-tree without -m), reports take lines from it with an option
// (check-ignore --stdin, name-rev --annotate-stdin, show-ref
// --exclude-existing), and git's option parser takes long options
// abbreviated (check-ignore --std). After "git check-ignore --std", the
// line "echo \" went to git and the next one ran alone. So git is quiet
// only for the subcommands known to leave the terminal alone, and given
// none of the options that make them read it, however abbreviated; any
// other subcommand, an alias among them, may read it until Ctrl-C.

// gitNoInput are git's subcommands that read nothing typed, unless told
// to by an option (gitInputOpt) or, for shortlog, given no revision.
var gitNoInput = setOf(
	"status", "log", "diff", "show", "branch", "tag", "config", "rev-parse", "ls-files", "ls-tree", "blame",
	"annotate", "describe", "grep", "reflog", "stash", "worktree", "cat-file", "rev-list", "for-each-ref",
	"show-ref", "version", "help", "init", "add", "commit", "checkout", "switch", "restore", "reset", "rm",
	"mv", "merge", "rebase", "cherry-pick", "revert", "clean", "gc", "fsck", "prune", "count-objects",
	"diff-files", "diff-index", "diff-tree", "merge-base", "name-rev", "symbolic-ref", "update-ref",
	"verify-commit", "verify-tag", "bundle", "sparse-checkout", "maintenance", "range-diff", "whatchanged",
	"shortlog", "cherry", "check-ignore", "check-attr", "check-mailmap", "format-patch", "show-branch",
	"ls-remote", "clone", "fetch", "pull", "push", "remote", "submodule", "archive", "lfs", "notes",
	"update-index", "read-tree", "write-tree", "hash-object", "merge-file", "check-ref-format", "rerere",
	"repack", "pack-refs", "commit-graph", "multi-pack-index", "fsck-objects", "verify-pack", "var",
)

// gitInputOpt reports whether the word a is an option that makes a git
// subcommand read its input: "-", any long option naming stdin
// (--stdin, --stdin-paths, --annotate-stdin, --stdin-commits) or an
// abbreviation of --stdin, --batch and its kinds, --index-info, --parseopt.
func gitInputOpt(a string) bool {
	name, _, _ := strings.Cut(a, "=")
	switch {
	case a == "-":
		return true
	case !strings.HasPrefix(name, "--"):
		return false
	case strings.Contains(name, "stdin"), strings.HasPrefix(name, "--batch"):
		return true
	}
	for _, long := range []string{"--stdin", "--batch", "--index-info", "--parseopt"} {
		if len(name) >= 4 && strings.HasPrefix(long, name) {
			return true
		}
	}
	return false
}

// gitQuiet: the subcommands that read their input, ask, or open an editor
// or a prompt of their own are not quiet.
func gitQuiet(r []string) bool {
	if gitAsks(r) || editorOpens("git", r) || some(r, gitInputOpt) {
		return false
	}
	sub := firstWord(r)
	if !gitNoInput[sub] {
		return false
	}
	switch sub {
	case "add", "checkout", "reset", "restore", "stash", "commit", "clean", "rebase", "cherry-pick", "switch":
		// -p and -i choose hunks or files on the terminal; for log,
		// show and diff -p only prints a patch.
		if hasOpt(r, "-i", "--interactive", "-p", "--patch") {
			return false
		}
	case "show-ref":
		// --exclude-existing filters the refs it reads.
		return !some(r, func(a string) bool {
			name, _, _ := strings.Cut(a, "=")
			return len(name) >= 4 && strings.HasPrefix("--exclude-existing", name)
		})
	case "shortlog":
		// Outside a repository, with no revision, it reads a log from
		// its input.
		return len(operands(r)) > 1
	case "var":
		return false // git var GIT_EDITOR may start the editor's shell
	}
	return true
}

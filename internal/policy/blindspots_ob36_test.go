package policy

import "testing"

// exactReads is exactCase for plain reads named by their command.
func exactReads(cmds ...string) []exactCase {
	cases := make([]exactCase, len(cmds))
	for i, c := range cmds {
		cases[i] = exactCase{c, c, TierRead}
	}
	return cases
}

// TestOverBlockGitConfigValues: git config's option values (-f FILE,
// --file F, --blob B, -t TYPE, --default V, --comment C, abbreviated
// --fil F) are not its operands, so reading a key from a named file is a
// read; a name and value, a writing action in any spelling (-e inside a
// cluster: -ze, -le) and a risky key keep it a write.
func TestOverBlockGitConfigValues(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, exactReads(
		"git config -f .gitmodules --get-regexp path",
		"git config -f /etc/gitconfig core.editor",
		"git config --file ~/.gitconfig user.email",
		"git config --file /srv/repo/.git/config remote.origin.url",
		"git config --fil .gitmodules submodule.x.url",
		"git config -zf .gitmodules --get-regexp path",
		"git config -t bool core.bare",
		"git config --type bool core.bare",
		"git config --blob HEAD:.gitmodules --get-regexp url",
		"git config --default main init.defaultBranch",
		"git config --get-color color.diff.new blue",
		"git config --get-urlmatch http.proxy https://example.com",
		"git config -f .gitmodules -l",
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"git config -ze",
		"git config -le",
		"git config -lze",
		"git config --global -e",
		"git config -f /tmp/x -e",
		"git config -f .gitmodules --ed",
		"git config -f F a.b c",
		"git config -f F -- a.b c",
		"git config --file=F a.b c",
		"git config -fF a.b c",
		"git config -t bool a.b true",
		"git config --type=bool a.b true",
		"git config --default x a.b c",
		"git config --comment x a.b c",
		"git config --comment --get a.b c",
		"git config -f .gitmodules --unset submodule.x.url",
		"git config -f .gitmodules --uns submodule.x.url",
		"git config -f .gitmodules --add a.b c",
		"git config -f .gitmodules --replace-all a.b c",
		"git config -f .gitmodules --rename-section a b",
		"git config -f .gitmodules --remove-section a",
		"git config -f .gitmodules set a.b c",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"git config -f F core.editor vim",
		"git config --fil F core.pager 'sh -c id'",
		"git config -t string core.fsmonitor /tmp/x",
		"git config --comment x alias.st '!sh'",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"git config -f /etc/warden/config.yaml --list",
		"git config --file=/root/.local/state/warden/token --get a.b",
	))
}

// TestOverBlockGitReflog: git reflog's words other than its subcommands
// are show's log options and a ref (-n 10, --date=iso, main), a read;
// expire, delete and drop destroy recovery history wherever they stand.
func TestOverBlockGitReflog(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, exactReads(
		"git reflog -n 10",
		"git reflog show -n 5 main",
		"git reflog --date=iso -n 20",
		"git reflog main",
		"git reflog exists main",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"git reflog expire --all",
		"git reflog -n 5 expire",
		"git reflog delete HEAD@{1}",
		"git reflog drop main",
	))
	runBlindHosts(t, p, sameCases(TierMutate, false, "git reflog --output=/tmp/x", "git reflog -n 1 --output /srv/x"))
}

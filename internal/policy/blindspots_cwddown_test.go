package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotRelativeCdIntoTemp: a relative cd from a directory named
// above a temporary one (cd /; cd tmp/x) leads into it as surely as cd
// /tmp/x does, and the temporary directories have other names (/usr/tmp
// on Red Hat, /run/shm on older Debian, macOS's /private/tmp) a tier 1
// write to /tmp/x is read back through. git, python -m and the other
// readers of their project's code run there what the agent wrote: on an
// SSH host nothing else holds it. So do the relative paths their options
// name from such a directory (cd /; git -C tmp/x status; make -f
// tmp/x/Makefile; ./tmp/x/ls).
func TestBlindSpotRelativeCdIntoTemp(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	moves := []string{"cd / && cd tmp/x", "cd /; cd tmp", "cd / && cd ./tmp/x/", "cd /var && cd tmp", "cd /var; cd tmp/r",
		"cd /; cd var; cd tmp/q", "cd /; cd var/tmp", "cd /dev && cd shm", "cd /dev; cd shm/q", "cd / && cd dev/shm",
		"cd /usr && cd tmp", "pushd / && pushd tmp/x", "cd / && pushd tmp/x", "cd /; builtin cd tmp/x", "cd /; cd -P tmp/x",
		"cd / && env -C tmp/x", "cd /usr/tmp/x", "cd /private/tmp/x", "cd /private/var/tmp", "cd /run/shm", "cd /run/shm/x",
		"cd /usr/tmp", "cd /private && cd tmp/x", "cd /var/run/shm/x"}
	reads := []string{"git status", "git log -p", "python3 -m json.tool f", "ansible-inventory --list", "yarn --version", "pnpm ls"}
	for _, m := range moves {
		for _, r := range reads {
			sep := " && "
			if strings.HasPrefix(m, "cd / && env -C") {
				sep = " "
			}
			cmds = append(cmds, m+sep+r)
		}
	}
	for _, d := range []string{"/usr/tmp/x", "/private/tmp/x", "/private/var/tmp/x", "/run/shm/x"} {
		for _, f := range []string{"git -C %s status", "git --git-dir=%s/.git log", "env -C %s python3 -m json.tool f",
			"make -C %s", "make -f %s/Makefile", "pnpm -C %s ls"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	for _, base := range []string{"cd / && ", "cd /var; ", "cd /usr && ", "cd /; cd var && ", "pushd / && "} {
		for _, f := range []string{"git -C tmp/x status", "git -C ./tmp/x log -p", "git --git-dir=tmp/x/.git log", "make -C tmp/x",
			"make -f tmp/x/Makefile", "pnpm -C tmp/x ls", "./tmp/x/ls", "tmp/x/bin/ps", "nginx -t -c tmp/x/n.conf",
			"env -C tmp/x git status", "cmake -S tmp/x -B tmp/x/b"} {
			cmds = append(cmds, base+f)
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	for _, c := range []string{"cd tmp/x && git status", "cd var/tmp && git status", "cd dev/shm && git log"} {
		if v := p.Evaluate(Input{Command: c, Dir: "/", Host: "db1"}); v.Tier < TierDestructive {
			t.Errorf("Evaluate(%q in /) = %s (%s); want tier 3", c, v.Tier, v.Reason)
		}
	}
	runExactHosts(t, p, []exactCase{
		{"down into etc", "cd / && cd etc && git status", TierRead},
		{"down into an app", "cd /srv && cd app && git log -p", TierRead},
		{"below an app", "cd /srv/app; cd src; git status", TierRead},
		{"down into var/log", "cd /var && cd log && git status", TierRead},
		{"usr share", "cd /usr && cd share/doc && git status", TierRead},
		{"usr local", "cd /usr/local/src && git status", TierRead},
		{"root listing", "cd / && ls -la", TierRead},
		{"tmp listing", "cd / && cd tmp && ls -la", TierRead},
		{"private etc", "cd /private/etc && git status", TierRead},
		{"git -C below the root", "cd / && git -C srv/app status", TierRead},
		{"make -C below the root", "cd / && make -C srv/app", TierMutate},
		{"git -C below var", "cd /var && git -C lib/x log", TierRead},
	})
}

// TestBlindSpotClimbOutOfTemp: a path that passes through a temporary
// directory and then climbs (/tmp/x/../../srv) leads where a link a tier 1
// call made there points, as the kernel resolves it for git -C, env -C,
// sudo -D and cd -P: /tmp/x may be a link to /tmp/a/b, making that
// /tmp/srv. So it counts as a temporary directory, as it already did for
// make -C.
func TestBlindSpotClimbOutOfTemp(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x/../../srv", "/tmp/x/../..", "/var/tmp/l/../../../srv/app", "/dev/shm/q/../../../etc",
		"/tmp/a/b/../../../srv/x", "/srv/../tmp/x"} {
		for _, f := range []string{"git -C %s status", "git --git-dir=%s/.git log", "cd -P %s && git status", "cd %s && git log -p",
			"env -C %s git status", "sudo -D %s git log", "pnpm -C %s ls", "yarn --cwd %s list", "chroot %s ls",
			"cd -P %s && python3 -m json.tool f", "cd -P %s && cargo --version", "env -C %s ansible-inventory --list"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	for _, c := range []string{"git status", "cargo -V", "python3 -m json.tool f"} {
		if v := p.Evaluate(Input{Command: c, Dir: "/tmp/x/../../srv", Host: "db1"}); v.Tier < TierDestructive {
			t.Errorf("Evaluate(%q in /tmp/x/../../srv) = %s (%s); want tier 3", c, v.Tier, v.Reason)
		}
	}
	runExactHosts(t, p, []exactCase{
		{"climb within the operator's tree", "git -C /srv/app/../lib status", TierRead},
		{"cd climb within the operator's tree", "cd /srv/app/.. && git status", TierRead},
		{"env -C climb elsewhere", "env -C /opt/x/.. git status", TierRead},
	})
}

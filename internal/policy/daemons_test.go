package policy

import (
	"strings"
	"testing"
)

// TestDaemons checks which commands may ask a daemon over a Unix socket
// below tier 2 (Verdict.Daemons): those that run a daemon's client found
// where only root puts programs, however it is wrapped, and no other.
func TestDaemons(t *testing.T) {
	p := testPolicy(t)
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"docker ps", true},
		{"docker compose ps", true},
		{"systemctl status nginx", true},
		{"/usr/bin/systemctl status nginx", true},
		{"/bin/journalctl -u nginx -n 20", true},
		{"sudo docker ps", true},
		{"env LANG=C timedatectl", true},
		{"timeout 5 chronyc tracking", true},
		{"nice -n 5 virsh list", true},
		{"sh -c 'docker ps -a'", true},
		{"bash -c \"systemctl is-active nginx\"", true},
		{"git status && docker ps", true},
		{"ls /srv | grep x; zpool status; midclt call system.info", true},
		{"curl --unix-socket /run/docker.sock http://x/v1.43/containers/json", true},
		{"curl -s --unix-socket=/run/docker.sock http://x/info", true},
		{"curl -s --unix /run/docker.sock http://x/info", true},
		{"curl --abstract dockerd http://x/info", true},
		{"curl -s --uni /run/docker.sock http://x/info", true},
		{"for s in a b; do systemctl is-active $s; done", true},

		{"git status", false},
		{"git diff HEAD", false},
		{"ls -la /var/log", false},
		{"cat /etc/hosts | grep x", false},
		{"echo docker ps", false},
		{"grep docker /etc/group", false},
		{"find / -name systemctl", false},
		{"curl -s https://example.com/", false},
		{"/tmp/x/docker ps", false},
		{"./docker ps", false},
		{"/home/u/bin/systemctl status", false},
		{"/usr/bin/../../tmp/x/docker ps", false},
		{"docker() { git status; }; docker ps", false},
		{"systemctl() { cat /etc/hosts; }; systemctl status", false},
		{"sh -c 'docker() { git status; }; docker ps'", false},
		{"function docker { git status; }; docker ps", false},
		{"docker () { git status; }; sudo docker ps", false},
		{"f() { docker ps; }; f", true},
	} {
		if got := p.Evaluate(Input{Command: c.cmd}).Daemons; got != c.want {
			t.Errorf("%q: Daemons %v, want %v", c.cmd, got, c.want)
		}
	}
}

// TestDaemonsWithLoader checks that a read running a daemon's client and
// a program that runs its project's code, in any arrangement, needs
// approval: below tier 2 the kernel gives the socket to the whole command,
// so a repository's hook under git status could ask dockerd to write.
// Either alone, or a client among plain filters, stays a read.
func TestDaemonsWithLoader(t *testing.T) {
	p := testPolicy(t)
	for _, cmd := range []string{
		"git status && docker ps",
		"docker ps; git status",
		"docker ps | cat; git -p log -1",
		"git diff HEAD | grep x; systemctl status nginx",
		"sh -c 'git status; docker ps'",
		"bash -c \"docker ps\" && git log -1",
		"sudo docker ps; sudo git -C /srv/app status",
		"for r in a b; do git log -1; done; journalctl -n 5",
		"f() { git status; }; docker ps; f",
		"docker ps -q | xargs -n1 docker inspect; xargs git log < /dev/null",
		"env LANG=C git status; timeout 5 virsh list",
		"go version && docker info",
		"python3 -m json.tool x.json; docker ps",
		"python3.11 -V; systemctl is-active x",
		"cargo --version; podman ps",
		"yarn list; docker ps",
		"ansible-inventory --list; docker ps",
		"curl --unix-socket /run/docker.sock http://x/info; git status",
		"git status\ndocker ps",
		"( git status ) & docker ps; wait",
		"echo $(git rev-parse HEAD) $(docker ps -q)",
		// A shell left to take typed lines: they would share the socket.
		"docker ps; bash", "systemctl status x; exec sh -i", "docker ps; bash -l",
	} {
		v := p.Evaluate(Input{Command: cmd})
		if v.Tier < TierMutate {
			t.Errorf("%q: tier %d (%s), want approval: a project's code would share the daemon's socket", cmd, v.Tier, v.Reason)
		} else if !v.Denied && !strings.Contains(v.Reason, "separate calls") {
			t.Errorf("%q: reason %q does not say what to do", cmd, v.Reason)
		}
	}
	for _, cmd := range []string{
		"git status", "git log -1; git diff", "docker ps", "python3 -V",
		"docker ps | grep web | awk '{print $1}' | sort | head -3",
		"systemctl status nginx | tail -20; journalctl -u nginx -n 50 | grep -i error",
		"docker inspect x | jq '.[0].State'; df -h; uptime",
		"echo git status; docker ps",
		"ls /srv/git; docker ps",
		"sh -c 'docker ps'", "bash -c 'systemctl status x' && sh -c 'uptime'",
	} {
		if v := p.Evaluate(Input{Command: cmd}); v.Tier != TierRead {
			t.Errorf("%q: tier %d (%s), want a read", cmd, v.Tier, v.Reason)
		}
	}
}

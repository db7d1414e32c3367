package policy

import "testing"

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

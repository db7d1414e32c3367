package sessions

import "strings"

// globalValues are, per program, the options before its subcommand that
// take the next word as their value: in "docker -H unix:///run/d.sock ps",
// "kubectl -n kube-system get pods", "systemctl -n 50 status nginx" and
// "git -C /srv/app add -p" the value is not the subcommand that decides
// whether the program reads the terminal.
var globalValues = func() map[string]map[string]bool {
	container := setOf("-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "--tlscacert",
		"--tlscert", "--tlskey", "--url", "--connection", "--identity", "--root", "--runroot", "--storage-driver",
		"--storage-opt", "--cgroup-manager", "--events-backend", "--module", "--runtime", "--tmpdir", "--ssh",
		"-a", "--address", "-n", "--namespace", "--snapshotter", "--data-root", "--cni-path")
	systemd := setOf("-H", "--host", "-M", "--machine", "-t", "--type", "-p", "--property", "-n", "--lines",
		"-o", "--output", "--state", "-s", "--signal", "--kill-whom", "--job-mode", "--root", "--image",
		"--what", "--timestamp", "--when", "--check-inhibitors", "--boot-loader-entry", "--reboot-argument")
	m := map[string]map[string]bool{
		"docker": container, "podman": container, "nerdctl": container,
		"kubectl": setOf("-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server",
			"--token", "--as", "--as-group", "--as-uid", "--request-timeout", "-v", "--v", "--log-file", "--cache-dir",
			"--certificate-authority", "--client-certificate", "--client-key", "--tls-server-name", "--profile"),
		"virsh": setOf("-c", "--connect", "-l", "--log", "-d", "--debug", "-k", "--keepalive-interval",
			"-K", "--keepalive-count", "-e", "--escape"),
		"lxc":   setOf("--project", "--remote"),
		"incus": setOf("--project", "--remote"),
		"git": setOf("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env",
			"--exec-path", "--list-cmds", "--attr-source"),
		"npm": setOf("--prefix", "-C", "--userconfig", "--globalconfig", "--registry", "--cache", "-w", "--workspace"),
		"pip": setOf("--log", "--proxy", "--cache-dir", "--timeout", "--retries", "--cert", "--client-cert", "--python"),
	}
	m["pip3"] = m["pip"]
	for _, n := range []string{"systemctl", "hostnamectl", "timedatectl", "localectl", "loginctl", "networkctl",
		"resolvectl", "machinectl"} {
		m[n] = systemd
	}
	return m
}()

// withoutGlobalValues is rest without the values of b's options before
// its subcommand (globalValues), so that its first word that is no
// option is the subcommand; the options themselves stay.
func withoutGlobalValues(b string, rest []string) []string {
	vals := globalValues[b]
	if vals == nil {
		return rest
	}
	out := make([]string, 0, len(rest))
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" || !strings.HasPrefix(a, "-") {
			return append(out, rest[i:]...)
		}
		out = append(out, a)
		if vals[a] {
			i++
		}
	}
	return out
}

package policy

import "testing"

// TestBlindSpotClientGlobalValues: docker's, podman's, nerdctl's,
// kubectl's and helm's global options that take a value (pflag, names
// whole) anywhere before the subcommand: their value is not the
// subcommand, so "docker --tlscert ps rm -f X" removes and "kubectl
// --username get delete pod X" deletes.
func TestBlindSpotClientGlobalValues(t *testing.T) {
	p := testPolicy(t)
	var cases []blindCase
	for _, prog := range []string{"docker", "podman", "nerdctl"} {
		for _, o := range []string{"--tlscert ps", "--tlscacert ps", "--tlskey ps", "--root ps", "--runroot ps", "--storage-driver ps",
			"--tmpdir ps", "--namespace ps", "--address ps", "--data-root ps", "--cgroup-manager ps", "--events-backend ps"} {
			for _, tail := range []string{"system prune -af", "volume prune -f"} {
				cmd := prog + " " + o + " " + tail
				cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
			}
		}
	}
	for _, o := range []string{"--username get", "--password get", "--cache-dir get", "--certificate-authority get", "--client-key get",
		"--tls-server-name get", "--log-file get", "--as-uid get", "--profile-output get", "-v 6"} {
		cmd := "kubectl " + o + " delete pod x"
		cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
	}
	for _, o := range []string{"--kube-token list", "--registry-config list", "--repository-cache list", "--kube-as-user list",
		"--kube-ca-file list", "--burst-limit 5", "--qps 5"} {
		cmd := "helm " + o + " uninstall x"
		cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"docker ps", "docker --tlscert /tmp/c.pem ps", TierRead},
		{"podman ps", "podman --log-level debug ps", TierRead},
		{"kubectl get", "kubectl --request-timeout 5s get pods", TierRead},
		{"kubectl -v get", "kubectl -v 6 get pods", TierRead},
		{"helm list", "helm --kube-token x list", TierRead},
	})
}

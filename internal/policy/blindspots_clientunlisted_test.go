package policy

import "testing"

// TestBlindSpotClientUnlistedValues: a client whose parser refuses an
// option it does not know (cobra and pflag, Go's flag package) takes the
// word after any value option as its value, so a global option the
// tables did not list (podman --out, --db-backend, helm --content-cache,
// crictl --profile-cpu, nerdctl -a, a pflag cluster ending in one) passed
// its value off as the reading verb while the next word ran; cobra takes
// the persistent ones between the words of a two-word subcommand too
// (kubectl rollout -n status restart X).
func TestBlindSpotClientUnlistedValues(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"podman --out ps rm x",
		"podman --cdi-spec-dir ps rm x",
		"podman --db-backend ps rm x",
		"podman --registries-conf ps rm x",
		"podman --default-mounts-file ps rm x",
		"sudo podman --db-backend ps stop x",
		"podman --cdi-spec-dir images rmi x",
		"podman --cdi-spec-dir version kill x",
		"/usr/bin/podman --cdi-spec-dir info pod rm x",
		"podman pod --log-level ps rm x",
		"podman pod --db-backend ps kill x",
		"podman image --registries-conf ls rm x",
		"podman container --cdi-spec-dir ls rm x",
		"docker -Dl ps rm x",
		"docker -DH ps rm x",
		"docker -Dc ps stop x",
		"docker --foo ps rm x",
		"nerdctl -a ps rm x",
		"nerdctl -Dn ps rm x",
		"nerdctl --global-dns ps rm x",
		"nerdctl --userns-remap ps rm x",
		"helm --content-cache list uninstall x",
		"helm --color list upgrade x c",
		"helm --colour status install x c",
		"helm repo -n list remove x",
		"helm repo --namespace list add x https://example.org",
		"helm dependency -n list update",
		"helm plugin --kube-context list install x",
		"kubectl rollout -n status restart deploy x",
		"kubectl rollout --namespace status undo deploy x",
		"kubectl rollout --as history pause deploy x",
		"kubectl auth --as can-i reconcile -f x",
		"kubectl config --user view set-context x",
		"kubectl config --cluster get-contexts delete-context x",
		"kubectl --foo get delete pod x",
		"kubectl --some-new-flag get apply -f x.yaml",
		"crictl --profile-cpu ps rm x",
		"crictl -profile-cpu ps rm x",
		"crictl --tracing-endpoint ps stop x",
		"crictl -tracing-sampling-rate-per-million ps rmp x",
		"ctr -foo c ls rm x",
		"ctr c -n ls rm x",
		"lxc config --project show unset x",
		"incus config --project show device add x d disk",
		"lxc --foo list stop x",
		"incus --foo list exec x id",
		"env podman --db-backend ps rm x",
		"sh -c 'podman --db-backend ps rm x'",
		"echo x | xargs podman --db-backend ps rm",
		"timeout 5 helm --content-cache list uninstall x",
	))
	runExactHosts(t, p, []exactCase{
		{"docker -D ps", "docker -D ps", TierRead},
		{"docker --debug ps", "docker --debug ps -a", TierRead},
		{"docker --tls", "docker --tls --tlsverify ps", TierRead},
		{"docker -l debug", "docker -l debug ps", TierRead},
		{"docker -Dl debug", "docker -Dl debug ps", TierRead},
		{"docker --log-level=", "docker --log-level=debug ps", TierRead},
		{"podman -r ps", "podman -r ps", TierRead},
		{"podman --remote", "podman --remote ps -a", TierRead},
		{"podman --syslog", "podman --syslog images", TierRead},
		{"podman --log-level", "podman --log-level debug ps", TierRead},
		{"podman pod ps", "podman pod ps", TierRead},
		{"podman --db-backend=", "podman --db-backend=sqlite ps", TierRead},
		{"nerdctl -n ps", "nerdctl -n k8s.io ps -a", TierRead},
		{"nerdctl --namespace", "nerdctl --namespace k8s.io images", TierRead},
		{"nerdctl --debug", "nerdctl --debug ps", TierRead},
		{"kubectl --insecure-skip-tls-verify", "kubectl --insecure-skip-tls-verify get pods", TierRead},
		{"kubectl -n get", "kubectl -n kube-system get pods", TierRead},
		{"kubectl rollout status", "kubectl rollout status deploy/x -n prod", TierRead},
		{"kubectl rollout -n status", "kubectl rollout -n prod status deploy/x", TierRead},
		{"kubectl config view", "kubectl config view --minify", TierRead},
		{"kubectl auth can-i", "kubectl auth can-i --list", TierRead},
		{"kubectl -v=6", "kubectl -v=6 get nodes", TierRead},
		{"helm --debug", "helm --debug list -A", TierRead},
		{"helm -n status", "helm -n prod status web", TierRead},
		{"helm repo list", "helm repo list", TierRead},
		{"helm repo -n list", "helm repo -n prod list", TierRead},
		{"crictl -D ps", "crictl -D ps", TierRead},
		{"crictl --debug", "crictl --debug pods", TierRead},
		{"crictl -r ps", "crictl -r unix:///run/containerd/containerd.sock ps", TierRead},
		{"crictl -timeout=", "crictl -timeout=5s images", TierRead},
		{"ctr -n c ls", "ctr -n k8s.io c ls", TierRead},
		{"ctr --debug", "ctr --debug i ls", TierRead},
		{"lxc --project list", "lxc --project web list", TierRead},
		{"incus -q list", "incus -q list", TierRead},
	})
}

// TestBlindSpotLXDThreeWordDeletes: lxc's and incus's three-word deletes
// count with a global option's value between their words, as cobra reads
// them.
func TestBlindSpotLXDThreeWordDeletes(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"lxc storage --project p volume delete pool vol",
		"incus storage --project p volume delete pool vol",
		"lxc config --project p device remove c eth0",
		"incus network --project p acl delete a",
		"lxc storage volume --project p delete pool vol",
		"incus --project p storage volume rm pool vol",
	))
	runExactHosts(t, p, []exactCase{
		{"storage list", "lxc storage --project p list", TierRead},
		{"config show", "incus config --project p show c", TierRead},
	})
}

// TestBlindSpotSystemdCapsule: systemctl's and busctl's -C/--capsule
// (systemd 256) takes the capsule's name, in every getopt spelling, so a
// reading verb there is the capsule's name and the next word acts.
func TestBlindSpotSystemdCapsule(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"systemctl -C status stop nginx",
		"systemctl --capsule status restart nginx",
		"systemctl --caps status mask nginx",
		"systemctl -qC status stop nginx",
		"sudo systemctl -C show kill nginx",
		"busctl -C status call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager Reload",
		"busctl --capsule list call x / x.y Z",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"systemctl -C status reboot",
		"systemctl --capsule list-units poweroff",
	))
	runExactHosts(t, p, []exactCase{
		{"capsule status", "systemctl -C work status", TierRead},
		{"capsule=", "systemctl --capsule=work list-units", TierRead},
		{"busctl capsule", "busctl -C work list", TierRead},
	})
}

// TestBlindSpotAnalyzeInstance: systemd-analyze's --instance takes a
// name it does not check, so a reading verb after it is the name and the
// next word sets the service manager's log level or target, in every
// getopt spelling.
func TestBlindSpotAnalyzeInstance(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"systemd-analyze --instance blame log-level debug",
		"systemd-analyze --instance security log-target console",
		"systemd-analyze --inst blame service-watchdogs no",
		"sudo systemd-analyze --instance time log-level debug",
	))
	runExactHosts(t, p, []exactCase{
		{"instance=", "systemd-analyze --instance=x verify /etc/systemd/system/a@.service --man=no", TierRead},
		{"instance blame", "systemd-analyze --instance x blame", TierRead},
		{"log-level", "systemd-analyze log-level", TierRead},
	})
}

// TestBlindSpotNetworkctlDropIn: networkctl's --drop-in (systemd 254,
// for edit) takes a name, so a reading verb after it is the name and the
// next word acts.
func TestBlindSpotNetworkctlDropIn(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"networkctl --drop-in status edit eth0",
		"networkctl --drop-in list reload",
		"networkctl --drop status edit eth0",
		"sudo networkctl --drop-in lldp reconfigure eth0",
	))
	runExactHosts(t, p, []exactCase{
		{"status", "networkctl --no-pager status eth0", TierRead},
		{"drop-in=", "networkctl --drop-in=x cat eth0", TierRead},
	})
}

// TestBlindSpotSystemdPropertyValue: loginctl's and timedatectl's -P NAME
// (--value --property=NAME) takes a property name it does not check, so a
// reading verb after it is the name and the next word acts, alone or
// ending a cluster.
func TestBlindSpotSystemdPropertyValue(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"loginctl -P list-sessions kill-session 3",
		"loginctl -aP show-user kill-user bob",
		"timedatectl -P status set-ntp false",
		"timedatectl -aP show set-timezone UTC",
		"sudo loginctl -P user-status enable-linger bob",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"loginctl -P list-sessions terminate-user bob",
	))
	runExactHosts(t, p, []exactCase{
		{"loginctl -P", "loginctl -P Name show-user bob", TierRead},
		{"timedatectl -P", "timedatectl -P NTP show", TierRead},
	})
}

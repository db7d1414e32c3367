package policy

import "testing"

// TestBlindSpotClientOutputFiles: podman --out sends what any command
// prints to a file, and podman's and crictl's profiling options write a
// profile, in every spelling their parsers take.
func TestBlindSpotClientOutputFiles(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"podman --out /tmp/x ps",
		"podman --out=/tmp/x ps",
		"podman --out=/srv/report images",
		"podman pod --out /tmp/x ps",
		"podman ps --out /tmp/x",
		"podman --cpu-profile /tmp/x ps",
		"podman --cpu-profile=/tmp/x info",
		"podman --memory-profile=/tmp/x version",
		"sudo podman --out /root/x ps",
		"crictl --profile-cpu /tmp/x ps",
		"crictl --profile-cpu=/tmp/x ps",
		"crictl -profile-cpu /tmp/x images",
		"crictl -profile-mem=/tmp/x pods",
		"crictl --profile-mem /tmp/x info",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"podman --out /etc/passwd ps",
		"crictl --profile-cpu=/etc/shadow ps",
	))
	runExactHosts(t, p, []exactCase{
		{"podman ps --format", "podman ps --format json", TierRead},
		{"podman -r ps", "podman -r ps -a", TierRead},
		{"crictl ps -o", "crictl ps -o json", TierRead},
		{"crictl -D stats", "crictl -D stats", TierRead},
	})
}

// TestBlindSpotHelmRepositoryCache: HELM_REPOSITORY_CACHE is where helm
// template and show download a chart named by repository, as
// --repository-cache is: set outside the temporary directories it makes
// the read a write there, in every way a variable is set.
func TestBlindSpotHelmRepositoryCache(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"HELM_REPOSITORY_CACHE=/etc/x helm template web repo/chart",
		"HELM_REPOSITORY_CACHE=/srv/cache helm show values repo/chart",
		"env HELM_REPOSITORY_CACHE=/var/lib/x helm template web repo/chart",
		"export HELM_REPOSITORY_CACHE=/root/x; helm show chart repo/chart",
		"declare -x HELM_REPOSITORY_CACHE=/opt/x; helm template web repo/chart",
		"read HELM_REPOSITORY_CACHE <<< /etc; helm template web repo/chart",
		"sudo HELM_REPOSITORY_CACHE=/etc/x helm show readme repo/chart",
	))
	runExactHosts(t, p, []exactCase{
		{"tmp cache", "HELM_REPOSITORY_CACHE=/tmp/helm helm template web repo/chart", TierRead},
		{"helm template", "helm template web ./chart", TierRead},
	})
}

// TestBlindSpotSambaVisualizeOutput: samba-tool visualize reads the
// directory's replication graph and draws it into the file -o names, in
// every spelling optparse takes.
func TestBlindSpotSambaVisualizeOutput(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"samba-tool visualize ntdsconn -o /tmp/x",
		"samba-tool visualize reps -o/srv/graph.dot",
		"samba-tool visualize uptodateness --output /var/www/x",
		"samba-tool visualize ntdsconn --output=/tmp/x --dot",
		"samba-tool visualize reps --outp=/tmp/x",
		"samba-tool visualize ntdsconn -H ldap://dc1 -So /tmp/x",
		"sudo samba-tool visualize ntdsconn --out /root/x",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"samba-tool visualize ntdsconn -o /etc/passwd",
	))
	runExactHosts(t, p, []exactCase{
		{"visualize", "samba-tool visualize ntdsconn --color", TierRead},
		{"visualize -H", "samba-tool visualize reps -H ldap://dc1 --dot", TierRead},
	})
}

// TestBlindSpotHelmSQLDriver: with HELM_DRIVER=sql helm keeps releases in
// a database and runs its schema migrations there before any read, so
// helm list creates tables in the database it is pointed at, however the
// variable is set; the other drivers read.
func TestBlindSpotHelmSQLDriver(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"HELM_DRIVER=sql HELM_DRIVER_SQL_CONNECTION_STRING=postgres://db.example.com/x helm list",
		"HELM_DRIVER=sql helm status web",
		"env HELM_DRIVER=sql helm history web",
		"export HELM_DRIVER=sql; helm list -A",
		"declare -x HELM_DRIVER=sql; helm get values web",
		"read HELM_DRIVER <<< sql; export HELM_DRIVER; helm list",
		"HELM_DRIVER=$(cat /tmp/d) helm list",
		"sudo HELM_DRIVER=sql helm list",
	))
	runExactHosts(t, p, []exactCase{
		{"configmap", "HELM_DRIVER=configmap helm list", TierRead},
		{"secret", "HELM_DRIVER=secret helm status web", TierRead},
		{"memory", "HELM_DRIVER=memory helm template web ./chart", TierRead},
	})
}

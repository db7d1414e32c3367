package policy

import "testing"

// TestBlindSpotClientHostOptions: a client's server given as a bare
// HOST[:PORT] in an option (no scheme, so no URL the word check sees)
// meets the host rules as its environment variable does.
func TestBlindSpotClientHostOptions(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"consul members -http-addr=169.254.169.254:8500",
		"consul members -http-addr 169.254.169.254:8500",
		"consul members --http-addr=169.254.169.254:8500",
		"consul catalog services -grpc-addr=10.0.0.1:8502",
		"nomad status -address=169.254.169.254:4646",
		"nomad job status --address 169.254.169.254:4646 x",
		"vault status -address=169.254.169.254:8200",
		"vault status -address 2852039166:8200",
		"bao status -address=169.254.169.254:8200",
		"kubectl --server=169.254.169.254:6443 get pods",
		"kubectl -s 169.254.169.254:6443 get pods",
		"kubectl -s169.254.169.254:6443 get pods",
		"oc --server=10.0.0.1:6443 get pods",
		"helm --kube-apiserver=169.254.169.254 list",
		"helm list --kube-apiserver 169.254.169.254:6443",
		"docker -H 169.254.169.254:2375 ps",
		"docker --host=169.254.169.254:2375 ps",
		"docker -H169.254.169.254:2375 ps",
		"podman --url=169.254.169.254:8080 ps",
		"nerdctl -H 0xa9fea9fe:2375 ps",
		"redis-cli -h 169.254.169.254 ping",
		"redis-cli -h169.254.169.254 ping",
		"redis-cli -h 169.254.169.254. INFO",
		"valkey-cli -h foo.internal ping",
		"psql -h 169.254.169.254 -c 'select 1'",
		"psql --host=169.254.169.254 -c 'select 1'",
		"psql -h169.254.169.254 -l",
		"psql --ho=169.254.169.254 -l",
		"psql 'host=169.254.169.254 dbname=x' -c 'select 1'",
		"pg_dump 'hostaddr=10.0.0.1 dbname=x'",
		"pg_isready -h 10.0.0.5",
		"mysql -h 169.254.169.254 -e 'select 1'",
		"mysql --host=169.254.169.254 -e 'select 1'",
		"mysql --ho=169.254.169.254 -e 'select 1'",
		"mysqladmin -h169.254.169.254 status",
		"mariadb-dump --host 169.254.169.254 x",
		"mongosh --host 169.254.169.254",
		"mongosh --host rs0/a:27017,169.254.169.254:27017",
		"mongosh 169.254.169.254/db",
		"mongodump -h 169.254.169.254",
		"influx -host 169.254.169.254 -execute 'show databases'",
		"clickhouse-client --host=169.254.169.254 -q 'select 1'",
		"ldapsearch -h 169.254.169.254 -b x",
		"mosquitto_sub -h 169.254.169.254 -t x",
		"curl --proxy=169.254.169.254:3128 http://a",
		"curl -x169.254.169.254:3128 http://a",
		"curl --resolve a:80:[fd00::1] http://a",
		"wget --proxy=169.254.169.254:3128 http://a",
	))
	// A server known only at run time is one the rules cannot check.
	runBlind(t, p, sameCases(TierDestructive, false,
		`psql -h "$H" -c 'select 1'`,
		"consul members -http-addr=$A",
		"redis-cli -h $(cat /tmp/h) ping",
	))
	runExact(t, p, []exactCase{
		{"consul allowed host", "consul members -http-addr=consul.example.com:8500", TierRead},
		{"vault allowed host", "vault status -address=https://vault.example.com", TierRead},
		{"docker unix socket", "docker -H unix:///var/run/docker.sock ps", TierRead},
		{"kubectl allowed server", "kubectl -s https://k8s.example.com get pods", TierRead},
		{"helm allowed", "helm --kube-apiserver=https://k8s.example.com list", TierRead},
		{"psql socket dir", "psql -h /var/run/postgresql -c 'select 1'", TierMutate},
		{"psql allowed host", "psql -h db.example.com -c 'select 1'", TierMutate},
	})
}

// TestBlindSpotSavedContexts: a saved docker context, podman connection
// or kube context holds an address the command line does not show (an
// ssh:// host runs ssh), so it is at least tier 1 like docker -H
// ssh://host; rclone --config names a file whose sftp remotes can name
// the command rclone runs, tier 3 like RCLONE_CONFIG.
func TestBlindSpotSavedContexts(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierBenign, false,
		"docker --context x ps",
		"docker --context=x ps",
		"docker -c x ps",
		"docker -cx ps",
		"docker --log-level debug -c x ps",
		"nerdctl --context x ps",
		"podman -c x ps",
		"podman --connection x ps",
		"podman --connection=x images",
		"DOCKER_CONTEXT=x docker ps",
		"export DOCKER_CONTEXT=x; docker ps",
		"CONTAINER_CONNECTION=x podman ps",
		"kubectl --context x get pods",
		"kubectl get pods --context=x",
		"kubectl --cluster x get pods",
		"helm --kube-context x list",
		"helm list --kube-context=x",
		"HELM_KUBECONTEXT=x helm list",
	))
	runBlind(t, p, sameCases(TierDestructive, false,
		"rclone --config /tmp/x lsd x:",
		"rclone --config=/tmp/x lsd x:",
		"rclone lsd x: --config /tmp/x",
		"rclone --config /tmp/x ls x:",
	))
	runExact(t, p, []exactCase{
		{"docker ps", "docker ps", TierRead},
		{"docker -H ssh", "docker -H ssh://a ps", TierBenign},
		{"docker context ls", "docker context ls", TierRead},
		{"kubectl get pods", "kubectl get pods", TierRead},
		{"helm list", "helm list", TierRead},
	})
}

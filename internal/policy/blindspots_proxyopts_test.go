package policy

import "testing"

// TestBlindSpotProxyOptionsAnywhere: any program's proxy option or
// setting (pip --proxy, npm --https-proxy, aria2c --all-proxy=, apt's
// Acquire::http::Proxy, dnf --setopt=proxy=, docker -e/--build-arg
// HTTPS_PROXY=, svn's http-proxy-host=) and the host lists of fleet and
// remote-desktop clients (pdsh -w, pssh -H, clush, ansible's inline
// inventory, --limit and host pattern, xfreerdp /v:) meet the host rules,
// on the local host and an SSH host; proxies elsewhere, no-proxy lists
// and ordinary fleet commands keep their tier.
func TestBlindSpotProxyOptionsAnywhere(t *testing.T) {
	p := protectedPolicy(t)
	var cases []blindCase
	for _, c := range []string{
		`pip install --proxy 169.254.169.254:3128 x`,
		`pip install --proxy=http://169.254.169.254 x`,
		`pip3.12 download --proxy user:pw@169.254.169.254:80 x`,
		`npm install --https-proxy 169.254.169.254:80`,
		`npm install --proxy=http://a9fea9fe.nip.io`,
		`yarn config set httpsProxy 169.254.169.254`,
		`npm config set proxy http://169.254.169.254:3128`,
		`pip config set global.proxy 169.254.169.254:3128`,
		`aria2c --all-proxy=169.254.169.254:3128 http://x`,
		`aria2c --http-proxy=http://169.254.169.254 http://x`,
		`apt-get -o Acquire::http::Proxy=169.254.169.254:80 update`,
		`apt-get -o 'Acquire::https::Proxy "http://169.254.169.254";' update`,
		`apt -o acquire::http::proxy=http://[::ffff:a9fe:a9fe]:80 update`,
		`dnf --setopt=proxy=169.254.169.254 install x`,
		`yum --setopt=proxy=http://169.254.169.254 install x`,
		`docker run -e HTTPS_PROXY=169.254.169.254 alpine`,
		`docker run --env=https_proxy=169.254.169.254:80 alpine`,
		`docker build --build-arg HTTP_PROXY=169.254.169.254:80 .`,
		`podman run -e ALL_PROXY=socks5://169.254.169.254 alpine`,
		`conda install --proxy 169.254.169.254 x`,
		`svn co --config-option servers:global:http-proxy-host=169.254.169.254 http://x`,
		`systemctl set-environment HTTPS_PROXY=169.254.169.254`,
		`gem install x --http-proxy http://169.254.169.254`,
		`pdsh -w 169.254.169.254 uptime`,
		`pdsh -w host,a9fea9fe.nip.io uptime`,
		`pssh -H 169.254.169.254 uptime`,
		`parallel-ssh -H 'root@169.254.169.254:22' uptime`,
		`clush -w 169.254.169.254 uptime`,
		`ansible all -i '169.254.169.254,' -m ping`,
		`ansible all -i 'web1,169.254.169.254' -m ping`,
		`ansible 169.254.169.254 -m ping`,
		`ansible all -l 169.254.169.254 -m ping`,
		`xfreerdp /v:169.254.169.254`,
		`vncviewer 169.254.169.254:1`,
		`rdesktop 169.254.169.254`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"pip proxy", `pip download --proxy http://proxy.corp:3128 x`, TierMutate},
		{"apt proxy", `apt-get -o Acquire::http::Proxy=http://10.1.1.1:3142 update`, TierMutate},
		{"docker no_proxy", `docker run -e NO_PROXY=169.254.169.254 alpine`, TierMutate},
		{"wget no-proxy", `wget --no-proxy -O- http://example.com`, TierBenign},
		{"pdsh", `pdsh -w web[1-3] uptime`, TierMutate},
		{"ansible ping", `ansible all -i 'web1,web2,' -m ping`, TierBenign},
		{"ansible args", `ansible web -m ping -a 'data=169.254.169.254'`, TierBenign},
		{"grep proxy", `grep -r 169.254.169.254 /etc/proxy.conf`, TierRead},
	})
}

// TestBlindSpotServerOptions: clients the server-option table does not
// list still name their server with the usual long options (--host,
// --server, --addr, --bootstrap-server, --target…); a known value
// naming a denied host is denied on the local host and an SSH host,
// while text tools and other servers keep their tier.
func TestBlindSpotServerOptions(t *testing.T) {
	p := protectedPolicy(t)
	var cases []blindCase
	for _, c := range []string{
		`kafka-console-consumer --bootstrap-server 169.254.169.254:9092 --topic x`,
		`kafka-topics --bootstrap-server=a9fea9fe.nip.io:9092 --list`,
		`evans --host 169.254.169.254 repl`,
		`someclient --server=[::ffff:a9fe:a9fe]:443`,
		`tool --endpoint 169.254.169.254:2379`,
		`tool --target=169.254.169.254:50051`,
		`tool --brokers 10.1.1.1:9092,169.254.169.254:9092`,
		`tool --addr 169.254.169.254:8200`,
		`docker run --add-host meta:169.254.169.254 alpine`,
		`docker run --add-host=meta=a9fea9fe.nip.io alpine`,
		`podman run --add-host 'meta:[::ffff:a9fe:a9fe]' alpine`,
		`docker run --dns 169.254.169.254 alpine`,
		`docker run --dns=169.254.169.254 alpine`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"other server", `kafka-topics --bootstrap-server kafka:9092 --list`, TierMutate},
		{"grep", `grep --host 169.254.169.254 /var/log/x`, TierRead},
		{"add-host protective", `docker run --add-host metadata.google.internal:127.0.0.1 alpine`, TierMutate},
		{"dns other", `docker run --dns 1.1.1.1 alpine`, TierMutate},
		{"firewall drop", `iptables -A OUTPUT --destination 169.254.169.254 -j REJECT`, TierMutate},
		{"firewall short", `iptables -A OUTPUT -d 169.254.169.254 -j DROP`, TierMutate},
		{"capture", `tcpdump -i any host 169.254.169.254`, TierRead},
		{"sockets", `ss -tnp dst 169.254.169.254`, TierRead},
	})
}

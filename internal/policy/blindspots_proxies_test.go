package policy

import "testing"

// TestBlindSpotProxyDestinations: a request through a proxy at a denied
// address reaches it, and so does one whose URL, proxy or jump host is
// read from a file whose text is known. The proxy variables in any case
// and their kin (npm_config_proxy, PIP_PROXY, SOCKS5_SERVER), variables
// holding a URL, git's proxy settings on the command line, in git config
// and in the environment, wget -e's wgetrc commands, and the known text
// of curl -K, wget -i/--config and ssh -F (standard input, a file the
// script wrote) are denied when they name a denied host, on the local
// host and an SSH host. Proxies elsewhere keep their tier.
func TestBlindSpotProxyDestinations(t *testing.T) {
	p := protectedPolicy(t)
	var cases []blindCase
	for _, c := range []string{
		`Http_Proxy=169.254.169.254 python3 -c 'import urllib.request'`,
		`HTTPS_Proxy=169.254.169.254:80 pip download x`,
		`export Https_Proxy=169.254.169.254`,
		`env Ftp_Proxy=169.254.169.254 lftp x`,
		`socks_proxy=169.254.169.254 curl http://x`,
		`SOCKS5_SERVER=169.254.169.254:1080 curl http://x`,
		`npm_config_proxy=http://169.254.169.254 npm install`,
		`NPM_CONFIG_HTTPS_PROXY=169.254.169.254:3128 npm install`,
		`PIP_PROXY=169.254.169.254:80 pip install x`,
		`YARN_HTTPS_PROXY=http://[::ffff:169.254.169.254]:80 yarn`,
		`all_proxy=socks5h://user:pw@169.254.169.254:1080 curl http://x`,
		`npm_config_registry=http://169.254.169.254/ npm install`,
		`PIP_INDEX_URL=http://169.254.169.254/ pip install x`,
		`GOPROXY=https://proxy.golang.org,http://169.254.169.254 go mod download`,
		`JAVA_TOOL_OPTIONS='-Dhttps.proxyHost=169.254.169.254 -Dhttps.proxyPort=80' java -jar x.jar`,
		`MAVEN_OPTS=-Dhttp.proxyHost=a9fea9fe.nip.io mvn package`,
		`export _JAVA_OPTIONS='-DsocksProxyHost=169.254.169.254'`,
		`GIT_CONFIG_PARAMETERS="'http.proxy'='169.254.169.254:80'" git fetch`,
		`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=http.proxy GIT_CONFIG_VALUE_0=169.254.169.254 git fetch`,
		`git -c http.proxy=169.254.169.254:80 ls-remote https://github.com/x/y`,
		`git -chttp.proxy=169.254.169.254 fetch`,
		`git -c https.proxy=socks5://169.254.169.254 fetch`,
		`git -c http.https://github.com.proxy=169.254.169.254 fetch`,
		`git -c remote.origin.proxy=169.254.169.254 fetch`,
		`git config http.proxy 169.254.169.254`,
		`git config --global http.proxy http://169.254.169.254:3128`,
		`git config set http.proxy 169.254.169.254`,
		`wget -e https_proxy=169.254.169.254:80 -O- https://example.com`,
		`wget -ehttps_proxy=169.254.169.254:80 -O- https://example.com`,
		`wget --execute=http_proxy=169.254.169.254 -O- http://example.com`,
		`wget -qe 'httpsproxy = 169.254.169.254' -O- https://x`,
		`printf 'url=http://169.254.169.254/\n' | curl -K -`,
		`echo 'proxy = 169.254.169.254:80' | curl -K - http://example.com`,
		`curl -K - http://x <<< 'url="http://169.254.169.254/"'`,
		`curl --config /dev/stdin <<< 'x 169.254.169.254:3128'`,
		"curl -K - <<'EOF'\npreproxy = \"socks5://169.254.169.254\"\nEOF",
		`echo url=http://169.254.169.254/ > /tmp/c; curl -K /tmp/c`,
		`echo http://169.254.169.254/ | wget -i - -O-`,
		`wget -O- --input-file=/dev/stdin <<< 'http://a9fea9fe.nip.io/'`,
		`printf 'https_proxy = 169.254.169.254:80\n' > /tmp/w; wget --config=/tmp/w -O- https://x`,
		"ssh -F /dev/stdin host <<'EOF'\nHost *\n  ProxyJump 169.254.169.254\nEOF",
		`printf 'Host x\n HostName 169.254.169.254\n' > /tmp/sc; ssh -F /tmp/sc x`,
		`printf 'Host x\n LocalForward 8080 169.254.169.254:80\n' > /tmp/sc; ssh -F /tmp/sc x`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	for _, c := range []string{
		`curl -K /tmp/c http://example.com`,
		`wget -i /tmp/urls -O-`,
		`ssh -F /tmp/sc host`,
		`curl -K - http://example.com`,
	} {
		cases = append(cases, blindCase{c, c, TierMutate, false})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"apt proxy", `http_proxy=http://10.0.0.1:3128 apt-get update`, TierMutate},
		{"no_proxy", `no_proxy=169.254.169.254 curl http://example.com`, TierBenign},
		{"NO_PROXY", `NO_PROXY=169.254.169.254,localhost curl http://example.com`, TierBenign},
		{"curl proxy", `curl -x http://proxy.corp:3128 https://example.com`, TierBenign},
		{"Https_Proxy elsewhere", `Https_Proxy=http://proxy.corp:3128 curl https://example.com`, TierBenign},
		{"url variable", `URL=https://example.com/x curl https://example.com/`, TierBenign},
		{"config known", `printf 'url=https://example.com/\n' | curl -K -`, TierDestructive},
		{"ssh no config", `ssh -F /dev/null host uptime`, TierBenign},
		{"ssh config none", `ssh -F none -J jump host uptime`, TierBenign},
		{"scp no config", `scp -F /dev/null a host:b`, TierMutate},
	})
}

// TestBlindSpotComputedProxies: with host rules set, a proxy or server
// variable whose value is known only at run time (an expansion, a
// command substitution, read, printf -v, a loop) and a relay's word
// computed at run time (nc "$h" 80, socat - "TCP:$h:80") are
// destinations no rule can check: tier 3, on the local host and an SSH
// host. Without host rules they keep their tier.
func TestBlindSpotComputedProxies(t *testing.T) {
	p := protectedPolicy(t)
	cmds := []string{
		`http_proxy=$p curl http://x`,
		"http_proxy=`cat /tmp/p` curl http://x",
		`HTTPS_PROXY="$(cat /tmp/p)" curl https://x`,
		`export ALL_PROXY=$(cat /tmp/p)`,
		`declare -x https_proxy="$1"`,
		`printf -v http_proxy %s "$1"; export http_proxy; curl http://x`,
		`read -r HTTPS_PROXY < /tmp/p; export HTTPS_PROXY; curl https://x`,
		`env Https_Proxy="$p" python3 -m pip download x`,
		`VAULT_ADDR=$v vault status`,
		`nc "$h" 80`,
		`nc -v $h 22`,
		`ncat "$h" 443`,
		`socat - "TCP:$h:80"`,
		`socat - TCP:$(cat /tmp/h):80`,
		`telnet $h 25`,
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"literal proxy", `http_proxy=http://proxy.corp:3128 curl http://x`, TierBenign},
		{"nc literal", `nc -zv db.example.com 5432`, TierBenign},
		{"no_proxy computed", `no_proxy=$hosts curl http://x`, TierBenign},
	})
	free, err := New(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	runExactHosts(t, free, []exactCase{
		{"no rules proxy", `http_proxy=$p curl http://x`, TierBenign},
		{"no rules nc", `nc -v "$h" 22`, TierMutate},
	})
}

// TestBlindSpotResolverVars: the resolver's own variables move a name to
// another host — LOCALDOMAIN's search domains are appended to short
// names (x becomes x.169.254.169.254.nip.io), and HOSTALIASES maps a
// name to another — so a search domain, or a known alias file, naming a
// denied host is denied, and one set at run time is tier 3, on the local
// host and an SSH host.
func TestBlindSpotResolverVars(t *testing.T) {
	p := protectedPolicy(t)
	var cases []blindCase
	for _, c := range []string{
		`LOCALDOMAIN=169.254.169.254.nip.io curl http://x/`,
		`LOCALDOMAIN='corp 169-254-169-254.sslip.io' curl http://x/`,
		`export LOCALDOMAIN=a9fea9fe.nip.io`,
		`env LOCALDOMAIN=169.254.169.254.nip.io wget -qO- http://x/`,
		`echo 'meta 169.254.169.254.nip.io' > /tmp/h; HOSTALIASES=/tmp/h curl http://meta/`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	for _, c := range []string{
		`LOCALDOMAIN=$d curl http://x/`,
		`HOSTALIASES=/tmp/h curl http://meta/`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, false})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"search domain", `LOCALDOMAIN=corp.example.com curl http://x/`, TierBenign},
	})
}

// TestBlindSpotCurlVariables: curl's --expand-* options take their
// value with --variable's values substituted, so a host spelled through
// variables with literal values is denied when it is a denied one, on
// the local host and an SSH host; one from the environment or a file
// stays tier 3.
func TestBlindSpotCurlVariables(t *testing.T) {
	p := protectedPolicy(t)
	var cases []blindCase
	for _, c := range []string{
		`curl --variable h=169.254.169.254 --expand-url 'http://{{h}}/'`,
		`curl --variable h=169.254.169.254 --expand-url='http://{{h:trim}}/latest'`,
		`curl --variable 'h=a9fe' --expand-url 'http://{{h}}a9fe.nip.io/'`,
		`curl --variable a=169.254 --variable b=169.254 --expand-url 'http://{{a}}.{{b}}/'`,
		`curl --variable p=169.254.169.254:80 --expand-proxy '{{p}}' http://x`,
		`curl --expand-x '{{p}}' --variable p=169.254.169.254 http://x`,
		`curl --expand-connect-to '::{{h}}:' --variable h=169.254.169.254 http://x`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	for _, c := range []string{
		`curl --variable %H --expand-url 'http://{{H}}/'`,
		`curl --variable h@/tmp/h --expand-url 'http://{{h}}/'`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, false})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"path variable", `curl --variable h=x --expand-url 'http://example.com/{{h}}'`, TierBenign},
	})
}

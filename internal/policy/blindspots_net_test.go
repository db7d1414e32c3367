package policy

import "testing"

// TestBlindSpotNetworkSpellings: ip takes its verbs and options as any
// prefix it recognises (ip a a adds an address, ip r f flushes routes,
// ip -ba runs a batch file), and the network tools' file options write in
// every spelling (iptables-save -f/x, ipset -file, tshark's exports);
// the showing forms stay tier 0.
func TestBlindSpotNetworkSpellings(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"ip a a", "ip a a 192.0.2.1/24 dev eth0", TierMutate, false},
		{"ip r f", "ip r f all", TierMutate, false},
		{"ip n f", "ip n f all", TierMutate, false},
		{"ip r sa", "ip r sa", TierMutate, false},
		{"ip l se", "ip l se eth0 mtu 1400", TierMutate, false},
		{"ip r ap", "ip r ap 192.0.2.0/24 dev eth0", TierMutate, false},
		{"ip -4 r d", "ip -4 r d 192.0.2.0/24", TierMutate, false},
		{"ip -ba", "ip -ba /tmp/cmds", TierDestructive, false},
		{"ip --bat", "ip --bat /tmp/cmds", TierDestructive, false},
		{"iptables-save -f attached", "iptables-save -f/tmp/x", TierMutate, false},
		{"iptables-save --fi=", "iptables-save --fi=/tmp/x", TierMutate, false},
		{"ipset save -f", "ipset save -f /tmp/x", TierMutate, false},
		{"ipset -file list", "ipset -file /tmp/x list", TierMutate, false},
		{"ipset -f device", "ipset list -f /dev/sda", TierDestructive, true},
		{"tshark --export-objects", "tshark -r in.pcap --export-objects http,/tmp/x", TierMutate, false},
		{"tshark --export-tls-session-keys", "tshark -r in.pcap --export-tls-session-keys /tmp/k", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"ip a", "ip a", TierRead},
		{"ip r s", "ip -4 r s table all", TierRead},
		{"ip link show up", "ip link show up", TierRead},
		{"ip r g", "ip r g 192.0.2.1", TierRead},
		{"ip l sh", "ip l sh dev eth0", TierRead},
		{"ip -br", "ip -br a", TierRead},
		{"ipset list", "ipset list -o save", TierRead},
		{"iptables-save", "iptables-save", TierRead},
		{"tshark -r", "tshark -r in.pcap -z io,stat,1", TierRead},
	})
}

// TestBlindSpotTarRemoteArchive: GNU tar opens an archive named
// [USER@]HOST:FILE by running rsh to HOST, in every spelling of -f, and
// host rules apply; --force-local, a '/' before the colon and bsdtar keep
// it local.
func TestBlindSpotTarRemoteArchive(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierBenign, false,
		"tar -tf host:a.tar", "tar tf host:a.tar", "tar tvf bob@host:a.tar", "tar --list --file=host:/x.tar",
		"tar -t --file host:x", "tar tCf /tmp host:a",
		"cpio -it -F host:x", "cpio -itF host:x", "cpio -t -I host:x", "cpio -t --file=host:x",
	))
	runBlind(t, p, sameCases(TierDestructive, true, "tar -tvf 169.254.169.254:x", "tar -xf root@169.254.169.254:x",
		"cpio -it -F 169.254.169.254:x"))
	runExact(t, p, []exactCase{
		{"force-local", "tar -tf host:a.tar --force-local", TierRead},
		{"slash first", "tar -tf ./host:a.tar", TierRead},
		{"bsdtar", "bsdtar -tf host:a.tar", TierRead},
		{"cpio force-local", "cpio -it -F host:x --force-local", TierRead},
		{"cpio local", "cpio -t -F x.cpio", TierRead},
		{"local", "tar tf a.tar", TierRead},
	})
}

// TestBlindSpotSSHLocalEffects: ssh -I loads a PKCS#11 library into ssh,
// and a master connection (-M, ControlMaster) creates its control socket
// at -S or ControlPath.
func TestBlindSpotSSHLocalEffects(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"ssh -I /tmp/x.so host", "ssh -I/tmp/x.so host", "ssh -vI /tmp/x.so host",
	))
	runBlind(t, p, sameCases(TierMutate, false,
		"ssh -M -S /etc/x host", "ssh -MS /etc/x host", "ssh -S /etc/x -M host",
		"ssh -o ControlMaster=yes -S /etc/x host", "ssh -o ControlMaster=auto -o ControlPath=/etc/x host",
		"ssh -o 'ControlMaster auto' -o 'ControlPath /etc/x' host",
	))
	runExact(t, p, []exactCase{
		{"client of a master", "ssh -S /etc/x host", TierBenign},
		{"master off", "ssh -o ControlMaster=no -S /etc/x host", TierBenign},
		{"identity", "ssh -i key host uptime", TierBenign},
	})
}

// TestBlindSpotDaemonHosts: a client pointed at another daemon or API
// server (docker -H, podman --url, kubectl -s, virsh -c) is held to the
// host rules, and reaching it over ssh runs ssh (tier 1).
func TestBlindSpotDaemonHosts(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"docker -H ssh://169.254.169.254 ps", "docker -H tcp://169.254.169.254:2375 ps",
		"docker --host=tcp://10.1.2.3:2375 ps", "kubectl --server=https://169.254.169.254 get pods",
		"kubectl -s https://10.0.0.1 get pods", "virsh -c qemu+ssh://169.254.169.254/system list",
	))
	runBlind(t, p, sameCases(TierBenign, false,
		"docker -H ssh://host ps", "podman --url ssh://host/run/podman.sock ps", "virsh -c qemu+ssh://host/system list",
	))
	runExact(t, p, []exactCase{
		{"docker unix", "docker -H unix:///var/run/docker.sock ps", TierRead},
		{"virsh local", "virsh -c qemu:///system list", TierRead},
		{"kubectl server", "kubectl -s https://k8s.example:6443 get pods", TierRead},
	})
}

// TestBlindSpotDownloaderStateFiles: curl --ssl-sessions and wget
// --hsts-file save their state to the file named, in every spelling.
func TestBlindSpotDownloaderStateFiles(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"curl --ssl-sessions /etc/x https://x", "curl --ssl-sessions=/etc/x https://x", "curl --ssl-sess /etc/x https://x",
		"wget -O- --hsts-file=/etc/x https://x", "wget -O- --hsts-file /etc/x https://x",
	))
	runExact(t, p, []exactCase{
		{"curl", "curl https://x", TierBenign},
		{"wget to stdout", "wget -qO- https://x", TierBenign},
	})
}

// TestBlindSpotGitRemoteHosts: git's remote URLs, scheme://HOST and the
// scp-like HOST:PATH, and archive --remote, are held to the host rules;
// refspecs and local paths are not hosts.
func TestBlindSpotGitRemoteHosts(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"git ls-remote http://169.254.169.254/x", "git ls-remote ssh://169.254.169.254/x",
		"git ls-remote 169.254.169.254:x", "git clone git@169.254.169.254:x/y.git",
		"git fetch http://169.254.169.254/x", "git archive --remote=ssh://169.254.169.254/x HEAD",
		"git remote add o http://169.254.169.254/x",
	))
	runExact(t, p, []exactCase{
		{"ls-remote origin", "git ls-remote origin", TierBenign},
		{"push refspec", "git push origin HEAD:main", TierMutate},
		{"clone github", "git clone git@github.com:x/y.git", TierMutate},
	})
}

// TestBlindSpotSystemdRemoteHost: the systemd clients' -H/--host runs ssh
// to the host (tier 1), with or without a verb, and host rules apply.
func TestBlindSpotSystemdRemoteHost(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierBenign, false,
		"systemctl -H host status", "systemctl --host=host status", "systemctl -Hhost list-units",
		"loginctl -H host list-sessions", "hostnamectl -H host", "timedatectl -H host status",
		"localectl -H host", "systemd-analyze -H host time",
	))
	runBlind(t, p, sameCases(TierDestructive, true, "systemctl -H 169.254.169.254 status", "hostnamectl -H root@169.254.169.254"))
	runExact(t, p, []exactCase{
		{"status", "systemctl status", TierRead},
		{"machine", "systemctl -M container status", TierRead},
	})
}

// TestBlindSpotOpensslPeers: openssl s_client and s_time's peer (-connect,
// -host, openssl 3's HOST:PORT operand) and -proxy are held to the host
// rules, in the -opt=value spelling too.
func TestBlindSpotOpensslPeers(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"openssl s_client -connect 169.254.169.254:443", "openssl s_client -connect metadata.google.internal:443",
		"openssl s_client -host 10.1.2.3 -port 443", "openssl s_client 169.254.169.254:443",
		"openssl s_client -proxy 10.1.2.3:3128 -connect example.com:443", "openssl s_time -connect 169.254.169.254:443",
		"openssl s_client --connect=169.254.169.254:443",
	))
	runExact(t, p, []exactCase{
		{"s_client", "openssl s_client -connect example.com:443 -servername example.com", TierRead},
	})
}

// TestBlindSpotValgrindSockets: valgrind --log-socket and --xml-socket send
// the log to a host, --debuginfo-server reads from one (tier 1, host rules).
func TestBlindSpotValgrindSockets(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierBenign, false,
		"valgrind --log-socket=192.0.2.4:1500 ls", "valgrind --debuginfo-server=192.0.2.4:1500 ls",
	))
	runBlind(t, p, sameCases(TierDestructive, true,
		"valgrind --log-socket=169.254.169.254 ls", "valgrind --xml=yes --xml-socket=10.1.2.3 ls",
	))
	runExact(t, p, []exactCase{{"log-fd", "valgrind --log-fd=9 ls", TierRead}})
}

// TestBlindSpotDeniedHostsElsewhere: a denied host reached other than as
// a network program's destination is denied too: through a proxy
// variable, ssh's -o ProxyJump or HostName, sftp's bare host, a URL in
// any program's words (browsers, package indexes and registries, image
// sources, apt's proxy option), or an image's registry; and a URL whose
// host is computed at run time is tier 3, since no rule can check it.
func TestBlindSpotDeniedHostsElsewhere(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"http_proxy=http://169.254.169.254 curl http://example.com/",
		"HTTPS_PROXY=169.254.169.254:80 curl https://example.com/",
		"ALL_PROXY=socks5://169.254.169.254 curl https://example.com/",
		"export https_proxy=http://169.254.169.254; curl https://example.com/",
		"env http_proxy=http://10.1.2.3:3128 wget http://x/",
		"ssh -o ProxyJump=10.0.0.5 example.com",
		"ssh -o 'ProxyJump 10.0.0.5' example.com",
		"ssh -oHostName=169.254.169.254 x",
		"sftp root@10.0.0.5",
		"w3m -dump http://169.254.169.254/",
		"lynx -dump http://169.254.169.254/latest/meta-data",
		"xdg-open http://169.254.169.254/",
		"helm repo add x http://169.254.169.254/",
		"pip install --index-url http://169.254.169.254/simple x",
		"npm install --registry=http://10.0.0.1/ x",
		"apt-get -o Acquire::http::Proxy=http://169.254.169.254 update",
		"skopeo inspect docker://10.0.0.1/x",
		"docker run 10.0.0.1:5000/x",
		"podman pull 10.0.0.1/x",
		"crictl pull metadata.google.internal/x",
	))
	runBlind(t, p, sameCases(TierDestructive, false,
		"curl \"http://$H/\"",
		"wget -q \"https://$(cat /tmp/h)/x\"",
	))
	runExact(t, p, []exactCase{
		{"text mentioning a host", "grep -r http://10.0.0.1 /var/log/nginx", TierRead},
		{"echo a URL", "echo http://169.254.169.254/", TierRead},
		{"run-time path", "curl -s \"https://api.example.com/$path\"", TierBenign},
		{"run-time output", "curl -o \"$out\" http://example.com/", TierMutate},
		{"image from a public registry", "docker pull docker.io/library/nginx", TierBenign},
		{"volume and port", "docker run -v vol:/data -p 8080:80 nginx", TierMutate},
	})
	if v := p.Evaluate(Input{Command: "curl https://example.com/", Env: map[string]string{"https_proxy": "http://169.254.169.254:80"}}); !v.Denied {
		t.Errorf("a proxy in the call's environment: %+v", v)
	}
	// Without host rules a host computed at run time is an ordinary
	// request.
	open, err := New(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"curl -s \"https://$host/health\"", "wget -qO- \"https://$h/\"", "http GET \"https://$h/\""} {
		if v := open.Evaluate(Input{Command: c}); v.Tier != TierBenign {
			t.Errorf("%q without host rules: %s (%s); want tier 1", c, v.Tier, v.Reason)
		}
	}
}

package policy

import "testing"

// TestBlindSpotOp37ComposeOutput: the standalone docker-compose writes
// config's rendered file as the plugin does, in every spelling of -o.
func TestBlindSpotOp37ComposeOutput(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"-o", "docker-compose config -o /tmp/y", TierMutate, false},
		{"--output=", "docker-compose config --output=/etc/passwd", TierDestructive, false},
		{"--output", "docker-compose --file x.yml config --output /tmp/y", TierMutate, false},
		{"cluster", "docker-compose -f x.yml config -qo /tmp/y", TierMutate, false},
		{"sudo", "sudo docker-compose config -o /tmp/y", TierMutate, false},
		{"path", "/usr/local/bin/docker-compose config -o /tmp/y", TierMutate, false},
		{"state", "docker-compose config -o /root/.local/state/warden/token", TierDestructive, true},
	})
	runExactHosts(t, p, []exactCase{
		{"config", "docker-compose config", TierRead},
		{"config --services", "docker-compose config --services", TierRead},
		{"-p o", "docker-compose -p o config", TierRead},
	})
}

// TestBlindSpotOp37Extcap: tshark captures from an extcap interface by
// running its program (sshdump logs in to another host and runs a capture
// command there, udpdump listens on a port), so such an -i is not a read;
// an interface by number or computed at run time may be one.
func TestBlindSpotOp37Extcap(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"tshark -i sshdump",
		"tshark -isshdump",
		"tshark --interface=ciscodump -c 1",
		"tshark --interface wifidump",
		"tshark -qi udpdump",
		"tshark -i eth0 -i randpkt",
		"tshark -i android-logcat-main-x",
		"tshark -i 7",
		`tshark -i "$I"`,
		"sudo tshark -i sshdump",
		"nice -n5 /usr/bin/tshark -i sdjournal",
	))
	runExactHosts(t, p, []exactCase{
		{"eth0", "tshark -i eth0 -c 5", TierRead},
		{"any", "tshark -i any", TierRead},
		{"lo filter", "tshark -i lo -f 'port 53'", TierRead},
		{"read file", "tshark -r /tmp/x.pcap", TierRead},
		{"list", "tshark -D", TierRead},
		{"link types", "tshark -L -i eth0", TierRead},
	})
}

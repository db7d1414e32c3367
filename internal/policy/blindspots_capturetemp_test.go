package policy

import "testing"

// TestBlindSpotCaptureTempDir: tshark's live capture not given -w, and
// dumpcap's always, goes to a temporary file created in --temp-dir's
// directory (any prefix getopt_long takes, the value attached or next) and
// grows there until the capture stops, as TMPDIR=DIR would put it. A
// directory under /tmp stays a read, as that TMPDIR does.
func TestBlindSpotCaptureTempDir(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"tshark -i eth0 --temp-dir=/etc",
		"tshark --temp-dir /srv/data -i eth0 -a duration:10",
		"tshark --temp /var/lib -i eth0",
		"tshark --temp-d=/srv -i any -q",
		"tshark -ni eth0 -f 'port 53' --temp-dir /var/www/html",
		"dumpcap -i eth0 --temp-dir /var/lib",
		"dumpcap --temp-dir=/home/x -i eth0 -c 10",
		"/usr/bin/tshark -i eth0 --temp-dir /opt",
		"sudo tshark -i eth0 --temp-dir /etc/cron.d",
		"timeout 60 tshark -i eth0 --temp-dir /boot",
		`tshark -i eth0 --temp-dir "$D"`,
		"tshark --temp-dir=/root/.ssh -i eth0",
		"dumpcap --temp-dir /root/.ssh -i eth0",
	))
	runExactHosts(t, p, []exactCase{
		{"tshark capture", "tshark -i eth0 -c 10", TierRead},
		{"tshark under tmp", "tshark -i eth0 --temp-dir /tmp", TierRead},
		{"tshark under a tmp dir", "tshark -i eth0 --temp-dir /tmp/caps", TierRead},
		{"tshark fields", "tshark -i any -T fields -e ip.src -c 5", TierRead},
		{"dumpcap list", "dumpcap -D", TierRead},
		{"dumpcap var tmp", "dumpcap -i eth0 --temp-dir=/var/tmp", TierRead},
	})
}

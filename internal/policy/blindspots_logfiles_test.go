package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotLogFileOptions: --log-file, --logfile, --log-basename,
// --debug-file, --trace-file and --keylogfile name a file the program
// writes whatever it otherwise does, so tshark --log-file=/etc/x -r
// a.pcap was a tier 0 read that writes /etc/x. Each is a write in every
// program and spelling; warden's own files are denied.
func TestBlindSpotLogFileOptions(t *testing.T) {
	p := protectedPolicy(t)
	var cmds, denied []string
	for _, prog := range []string{"tshark -r a.pcap", "dumpcap -D", "lsblk", "ss -tan", "journalctl -n1", "sudo tshark -r a.pcap",
		"timeout 5 dumpcap -D", "sh -c 'tshark -r a.pcap", "kubectl get pods"} {
		end := ""
		if strings.Contains(prog, "'") {
			end = "'"
		}
		for _, o := range []string{"--log-file=%s", "--log-file %s", "--logfile=%s", "--logfile %s", "--log-basename=%s",
			"--debug-file=%s", "--trace-file %s", "--keylogfile=%s", "--keylog-file %s"} {
			cmds = append(cmds, prog+" "+strings.ReplaceAll(o, "%s", "/etc/cron.d/x")+end)
			denied = append(denied, prog+" "+strings.ReplaceAll(o, "%s", "/root/.local/state/warden/audit.jsonl")+end)
		}
	}
	cmds = append(cmds, "TF_LOG_PATH=/etc/x terraform output", "export TF_LOG_PATH=/etc/x", "read TF_LOG_PATH; terraform output",
		"env APP_LOG_PATH=/etc/x app")
	runBlind(t, p, sameCases(TierMutate, false, cmds...))
	runBlind(t, p, sameCases(TierDestructive, true, denied...))
	runExact(t, p, []exactCase{
		{"stderr log", "tshark --log-file=/dev/stderr -r a.pcap", TierRead},
		{"tshark", "tshark -r a.pcap", TierRead},
	})
}

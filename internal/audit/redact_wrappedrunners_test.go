package audit

import "testing"

// TestRedactWrappedRemoteScript: ssh, tmux and the other programs that
// run a string as a shell's command line run it so behind sudo or doas
// too, so a secret piped to a reader inside that string is input there,
// as without the wrapper.
func TestRedactWrappedRemoteScript(t *testing.T) {
	const pw = "Zq9Secret77"
	checkSubtests(t, pw, []detourCase{
		{"sudo", "sudo ssh h 'echo " + pw + " | sudo -S id'", []string{"sudo ssh h", "sudo -S id"}},
		{"sudo", "sudo -u deploy ssh -p 2222 db1 'echo " + pw + " | kinit admin'", []string{"-p 2222 db1", "kinit admin"}},
		{"doas", `doas ssh h "echo ` + pw + ` | sudo -S systemctl restart app"`, []string{"systemctl restart app"}},
		{"sudo", "sudo tmux send-keys -t w 'echo " + pw + " | sudo -S id' Enter", []string{"Enter"}},
		{"sudo", "sudo pdsh -w h1,h2 'echo " + pw + " | passwd --stdin app'", []string{"passwd --stdin app"}},
		{"kept", "sudo ssh h 'uptime; df -h'", []string{"sudo ssh h 'uptime; df -h'"}},
		{"kept", "sudo ssh h 'echo hello | wc -c'", []string{"sudo ssh h 'echo hello | wc -c'"}},
	})
}

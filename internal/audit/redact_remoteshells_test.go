package audit

import "testing"

// TestRedactParallelShellScripts: the string a parallel shell runs on its
// hosts (pssh, pdsh, clush) or that tmux send-keys and screen's stuff type
// into a shell is a script, read like ssh's: a secret fed to sudo -S there
// goes; other strings stay.
func TestRedactParallelShellScripts(t *testing.T) {
	checkCases(t, []spelling{
		{`pssh -h hosts -i "echo S3cr3tZ | sudo -S ls"`, []string{"S3cr3tZ"}, []string{"| sudo -S ls"}},
		{"parallel-ssh -h hosts -i 'echo S3cr3tZ | sudo -S apt update'", []string{"S3cr3tZ"}, []string{"| sudo -S apt update'"}},
		{"pdsh -w h[1-3] 'echo S3cr3tZ | sudo -S ls'", []string{"S3cr3tZ"}, []string{"pdsh -w h[1-3] 'echo "}},
		{`clush -w @web "echo 'S3cr3tZ' | sudo -S systemctl restart nginx"`, []string{"S3cr3tZ"}, []string{"systemctl restart nginx"}},
		{"tmux send-keys -t 0 'echo S3cr3tZ | sudo -S ls' Enter", []string{"S3cr3tZ"}, []string{"' Enter"}},
		{`screen -S s -X stuff 'echo S3cr3tZ | sudo -S ls\n'`, []string{"S3cr3tZ"}, []string{"screen -S s -X stuff 'echo "}},
		{`tmux send-keys -t 0 "ls -la" Enter`, nil, []string{`"ls -la" Enter`}},
	})
}

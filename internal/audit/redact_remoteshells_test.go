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

// TestRedactCloudRunCommands: the scripts a cloud's run-command runs on a
// machine (az vm run-command invoke --scripts "…", aws ssm send-command
// --parameters 'commands=["…"]') are read as scripts.
func TestRedactCloudRunCommands(t *testing.T) {
	checkCases(t, []spelling{
		{`az vm run-command invoke -g g -n vm --command-id RunShellScript --scripts "echo S3cr3tZ | sudo -S ls"`, []string{"S3cr3tZ"}, []string{"| sudo -S ls"}},
		{`aws ssm send-command --document-name AWS-RunShellScript --parameters 'commands=["echo S3cr3tZ | sudo -S ls"]'`, []string{"S3cr3tZ"}, []string{`commands=["echo `}},
		{`aws ssm send-command --parameters 'commands=["echo root:S3cr3tZ | chpasswd"]'`, []string{"S3cr3tZ"}, []string{"| chpasswd"}},
		{`az vm run-command invoke --scripts "uptime"`, nil, []string{`--scripts "uptime"`}},
	})
}

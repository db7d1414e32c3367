package policy

import "testing"

// TestBlindSpotFp38InfoWords: a program asked only for its version, its
// help or what it has installed prints and exits, whatever it can do once
// it runs; its other words, a program under /tmp, a shim's directory and
// a start-up file from the environment keep their tier.
func TestBlindSpotFp38InfoWords(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"htop --version", "htop --version", TierRead},
		{"htop -V", "htop -V", TierRead},
		{"sudo htop -h", "sudo htop -h", TierRead},
		{"path htop", "/usr/bin/htop --version", TierRead},
		{"nice htop", "nice -n5 htop -V", TierRead},
		{"quoted", `htop "--version"`, TierRead},
		{"btop", "btop --version", TierRead},
		{"atop", "atop -V", TierRead},
		{"glances", "glances --version", TierRead},
		{"nano", "nano --version", TierRead},
		{"vim", "vim --version", TierRead},
		{"vim -h", "vim -h", TierRead},
		{"view", "view --version", TierRead},
		{"nvim -v", "nvim -v", TierRead},
		{"emacs", "emacs --version", TierRead},
		{"top -v", "top -v", TierRead},
		{"tmux -V", "tmux -V", TierRead},
		{"tmux ls", "tmux ls", TierRead},
		{"screen -ls", "screen -ls", TierRead},
		{"screen -v", "screen -v", TierRead},
		{"dotnet --info", "dotnet --info", TierRead},
		{"dotnet --list-sdks", "dotnet --list-sdks", TierRead},
		{"dotnet --list-runtimes", "sudo dotnet --list-runtimes", TierRead},
		{"dotnet path", "/usr/share/dotnet/dotnet --list-sdks", TierRead},
		{"k3s", "k3s --version", TierRead},
		{"ansible", "ansible --version", TierRead},
		{"ansible-playbook", "ansible-playbook --version", TierRead},
		{"mail -H", "mail -H", TierRead},
		{"mailx -H", "mailx -H", TierRead},
	})
	runBlindHosts(t, p, []blindCase{
		{"vim -v is Ex-less vi mode", "vim -v", TierMutate, false},
		{"vim -R", "vim -R /etc/hosts", TierMutate, false},
		{"view file", "view /etc/hosts", TierMutate, false},
		{"vim --version -c", "vim --version -c '!id'", TierDestructive, false},
		{"htop with more", "htop --version -d 10", TierMutate, false},
		{"htop bare", "htop", TierMutate, false},
		{"less --help", "less --help", TierMutate, false},
		{"tmux ls format", "tmux ls -F '#(id)'", TierDestructive, false},
		{"tmux new", "tmux new -d 'id'", TierDestructive, false},
		{"screen -dm", "screen -dm id", TierDestructive, false},
		{"dotnet run", "dotnet run", TierDestructive, false},
		{"dotnet --info extra", "dotnet --info x.dll", TierDestructive, false},
		{"dotnet shim dir", "cd /tmp/x && dotnet --info", TierDestructive, false},
		{"dotnet shim dir sdks", "cd /var/tmp/x; dotnet --list-sdks", TierDestructive, false},
		{"dotnet hooks", "DOTNET_STARTUP_HOOKS=/tmp/x.dll dotnet --info", TierDestructive, false},
		{"htop under tmp", "/tmp/x/htop --version", TierDestructive, false},
		{"vim under tmp", "/dev/shm/vim --version", TierDestructive, false},
		{"mailrc", "MAILRC=/tmp/x mail -H", TierDestructive, false},
		{"nailrc", "env NAILRC=/tmp/x s-nail -H", TierDestructive, false},
		{"mail send", "mail -s hi root", TierMutate, false},
		{"expect --version", "expect --version", TierDestructive, false},
		{"computed", `htop "$X"`, TierMutate, false},
	})
}

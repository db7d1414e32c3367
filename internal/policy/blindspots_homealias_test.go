package policy

import "testing"

// TestBlindSpotAliasesThroughHome: a link, copy or mount of a directory
// above warden's state gives it a second name whatever spelling names the
// source: $HOME and ${HOME} (as cd reads them) like ~, and sshfs's
// localhost:/root, which mounts this machine's directory. A later word
// inside the new name is denied as the state itself.
func TestBlindSpotAliasesThroughHome(t *testing.T) {
	p := protectedPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"ln -s $HOME /tmp/h; cat /tmp/h/.local/state/warden/token",
		`ln -s "$HOME/.local" /tmp/h; cat /tmp/h/state/warden/token`,
		"ln -s ${HOME} /tmp/h; cat /tmp/h/.local/state/warden/token",
		`ln -sfn "${HOME}/.local/state" /tmp/s && tar -C /tmp/s -cf - warden`,
		"mount --bind $HOME /mnt/r; cat /mnt/r/.local/state/warden/token",
		"mount -o bind $HOME/.local /mnt/r; cat /mnt/r/state/warden/audit.jsonl",
		"bindfs $HOME /mnt/r; cat /mnt/r/.local/state/warden/token",
		"cp -rs $HOME /tmp/h; cat /tmp/h/.local/state/warden/token",
		"cp -r $HOME/.local /tmp/h; cat /tmp/h/state/warden/token",
		"rsync -a $HOME/.local/ /tmp/h/; cat /tmp/h/state/warden/token",
		"sshfs localhost:/root /mnt/r; cat /mnt/r/.local/state/warden/token",
		"sshfs root@localhost:/root/.local /mnt/r; cat /mnt/r/state/warden/token",
		"sshfs 127.0.0.1:/root/.local /mnt/r; cat /mnt/r/state/warden/token",
		"sshfs [::1]:/root /mnt/r && cat /mnt/r/.local/state/warden/token",
		"sshfs -o allow_other localhost: /mnt/r; cat /mnt/r/.local/state/warden/token",
	))
	runExact(t, p, []exactCase{
		{"link then other file", "ln -s /root /tmp/h; cat /tmp/h/notes.txt", TierMutate},
		{"bind then other file", "mount --bind $HOME/data /mnt/d; ls /mnt/d", TierMutate},
		{"sshfs remote", "sshfs nas:/volume1 /mnt/nas; ls /mnt/nas", TierMutate},
	})
}

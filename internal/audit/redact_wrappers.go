package audit

import "strings"

// Commands that run another command with their own input, and so pass a
// pipeline's secret on to it: echo pw | sudo -S …, docker exec -i c
// chpasswd <<< …, kubectl exec -i p -- passwd --stdin u, or hand it a
// script: bash <<< '…'.

// stdinWrapper reports whether the program w runs the program named in
// its arguments with its own input: sudo passwd, ssh host chpasswd, env
// kinit, chroot /srv chpasswd, nsenter -t 1 -m passwd.
func stdinWrapper(w string) bool {
	switch w {
	case "sudo", "doas", "env", "nice", "nohup", "timeout", "command", "builtin", "exec", "time", "stdbuf", "ionice", "ssh", "su",
		"chroot", "runuser", "setsid", "nsenter", "unshare", "pkexec", "taskset", "chrt", "flock", "firejail",
		"systemd-run", "busybox", "unbuffer", "watch", "xargs", "parallel", "setpriv", "capsh", "sg", "newgrp",
		"npx", "bunx", "pnpx": // npx vercel env add X <<< …: the package's command reads the pipe
		return true
	}
	return false
}

// subWrapper reports whether the argument w of the command cmd makes it
// run a command in a container, pod, namespace or machine with its input:
// docker exec -i c …, kubectl exec -i p -- …, ip netns exec n ….
func subWrapper(cmd, w string) bool {
	switch cmd {
	case "docker", "podman", "nerdctl", "finch", "kubectl", "oc", "lxc", "incus", "crictl", "ctr", "toolbox",
		"distrobox", "machinectl", "ip", "vagrant", "multipass", "limactl", "wsl", "lxc-attach", "flatpak":
		switch w {
		case "exec", "run", "enter", "shell", "debug", "attach", "-c", "--":
			return true
		}
	}
	return false
}

// wrappedCommand reports whether w, an argument of a wrapper, names a
// program that the stdin rules recognise by its name (docker secret
// create, curl -K -, vault login -, …): under sudo, env or a container's
// exec it is the command whose input the pipeline feeds.
func wrappedCommand(w string) bool {
	switch w {
	case "docker", "podman", "gh", "glab", "kubectl", "oc", "curl", "vault", "bao", "openssl", "redis-cli", "nmcli",
		"keyctl", "secret-tool", "pass", "htpasswd", "sshfs", "gcloud", "fly", "flyctl", "cargo", "wrangler",
		"passwd", "veracrypt", "ecryptfs-add-passphrase", "systemd-creds", "ssh-add", "sshpass", "openvpn", "pdbedit", "wg",
		"zfs", "zpool", "mkpasswd", "saslpasswd2", "bcachefs", "fscrypt", "bw", "clevis", "op", "ipa", "gopass", "rclone",
		"ansible-vault", "ansible", "ansible-playbook", "ansible-pull", "ansible-console", "ansible-inventory", "keyring", "slappasswd", "lpass", "ecryptfs-unwrap-passphrase", "pro", "ua", "vercel", "firebase",
		"realm", "smbclient", "rpcclient", "smbcacls", "smbcquotas", "smbget", "smbtree", "ssh-keygen", "kinit", "cryptsetup",
		"psql", "openconnect", "sqlplus", "rman", "dgmgrl", "telnet", "nomad", "consul",
		// sudo ip xfrm state add … enc ALGO KEY (deviceLine).
		"ip",
		"sed", "gsed", "perl": // sudo sed -i 's/x/…/' /run/secrets/token (editsCredentialFile)
		return true
	}
	return false
}

// shellProgram reports whether w is a shell, whose here-string is a
// script.
func shellProgram(w string) bool {
	switch w {
	case "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "fish", "busybox":
		return true
	}
	return false
}

// hereString reports whether the word at i starts a here-string's text
// (<<< AUTH …, <<< 'AUTH …').
func hereString(s string, i int) bool {
	k := i
	if k > 0 && (s[k-1] == '\'' || s[k-1] == '"') {
		k--
	}
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	return k >= 3 && s[k-3:k] == "<<<"
}

// sshpassReadsStdin reports whether sshpass, whose words before the word
// after them are before, reads the password on its input: it does when
// no -p, -f, -d or -e option says where else to find it. value: the word
// after them is the value of -P (the prompt), not sshpass's command.
func sshpassReadsStdin(before string) (reads, value bool) {
	w := before
	last := ""
	for w != "" {
		w = strings.TrimLeft(w, " \t")
		e := strings.IndexAny(w, " \t")
		if e < 0 {
			e = len(w)
		}
		word := w[:e]
		w = w[e:]
		if len(word) > 1 && word[0] == '-' {
			switch word[1] {
			case 'p', 'f', 'd', 'e':
				return false, false
			}
		}
		last = word
	}
	if last == "-P" {
		return false, true
	}
	return true, false
}

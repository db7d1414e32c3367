package audit

// Commands that run another command with their own input, and so pass a
// pipeline's secret on to it: echo pw | sudo -S …, docker exec -i c
// chpasswd <<< …, kubectl exec -i p -- passwd --stdin u, or hand it a
// script: bash <<< '…'.

// stdinWrapper reports whether the program w runs the program named in
// its arguments with its own input: sudo passwd, ssh host chpasswd, env
// kinit, chroot /srv chpasswd, nsenter -t 1 -m passwd.
func stdinWrapper(w string) bool {
	switch w {
	case "sudo", "doas", "env", "nice", "nohup", "timeout", "command", "exec", "time", "stdbuf", "ionice", "ssh", "su",
		"chroot", "runuser", "setsid", "nsenter", "unshare", "pkexec", "taskset", "chrt", "flock", "firejail",
		"systemd-run", "busybox", "unbuffer", "watch", "xargs", "parallel", "setpriv", "capsh", "sg", "newgrp":
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
		"passwd", "veracrypt", "ecryptfs-add-passphrase", "systemd-creds", "ssh-add", "sshpass", "openvpn":
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

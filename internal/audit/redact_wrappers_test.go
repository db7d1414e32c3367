package audit

import "testing"

// TestRedactFedTextBeingRead: a word inside a here-string that makes a
// command read a secret on its input (cat <<< 'mysql -p …') replaces the
// here-string whole, and the rules that then reach into it (--password's
// value) find it replaced: no overlap of two rules may panic. A shell's
// here-string is its script, read command by command.
func TestRedactFedTextBeingRead(t *testing.T) {
	checkSpellings(t, []spelling{
		{"cat <<< 'mysql --password S3cr3tZ shop'", []string{"S3cr3tZ"}, []string{"cat <<< '"}},
		{"bash <<< 'mysql --password S3cr3tZ shop'", []string{"S3cr3tZ"}, []string{"mysql --password", "shop"}},
		{"bash <<< 'mysql -p\"S3cr3tZ\" shop'", []string{"S3cr3tZ"}, []string{"mysql -p"}},
		{"sh <<< \"psql -W -h db\" && mysql -pS3cr3tZ x", []string{"S3cr3tZ"}, []string{"psql -W -h db"}},
		{"printf S3cr3tZ | bash <<< 'kubectl create secret generic s --from-file=pw=/dev/stdin'", []string{"S3cr3tZ"}, []string{"kubectl create secret generic s"}},
	})
}

// TestRedactShellHereStrings: a shell's here-string is its script, whose
// commands read secrets on their input as they would on the command line.
func TestRedactShellHereStrings(t *testing.T) {
	checkSpellings(t, []spelling{
		{"bash <<< 'echo bob:S3cr3tZ | chpasswd'", []string{"S3cr3tZ"}, []string{"bash <<< 'echo", "| chpasswd'"}},
		{"sh <<< \"echo S3cr3tZ | docker login -u bob --password-stdin r\"", []string{"S3cr3tZ"}, []string{"docker login -u bob"}},
		{"sudo bash <<< 'sudo -S apt update <<< S3cr3tZ'", []string{"S3cr3tZ"}, []string{"apt update"}},
		{"zsh <<< 'printf %s S3cr3tZ | gh auth login --with-token'", []string{"S3cr3tZ"}, []string{"gh auth login"}},
		{"ssh db1 <<< 'echo S3cr3tZ | passwd --stdin bob'", []string{"S3cr3tZ"}, []string{"passwd --stdin bob"}},
		{"bash <<< 'echo hello | grep h'", nil, []string{"bash <<< 'echo hello | grep h'"}},
	})
}

// TestRedactWrappedStdinReaders: commands run by another one (in a
// container, a pod, a namespace, a chroot, under sudo or env) read the
// pipeline's input as they would alone, and are recognised by their own
// name under the wrapper.
func TestRedactWrappedStdinReaders(t *testing.T) {
	checkSpellings(t, []spelling{
		{"docker exec -i c echo S3cr3tZ | docker login -u bob --password-stdin r", []string{"S3cr3tZ"}, []string{"docker login -u bob"}},
		{"echo S3cr3tZ | kubectl exec -i p -- passwd --stdin bob", []string{"S3cr3tZ"}, []string{"passwd --stdin bob"}},
		{"echo bob:S3cr3tZ | podman exec -i c chpasswd", []string{"S3cr3tZ"}, []string{"podman exec -i c chpasswd"}},
		{"kubectl exec -it p -- echo 'bob:S3cr3tZ' | sudo chpasswd", []string{"S3cr3tZ"}, []string{"sudo chpasswd"}},
		{"lxc exec c -- kinit bob <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"kinit bob"}},
		{"chroot /srv/root chpasswd <<< bob:S3cr3tZ", []string{"S3cr3tZ"}, []string{"chroot /srv/root chpasswd"}},
		{"nsenter -t 1 -m -- passwd --stdin bob <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"passwd --stdin bob"}},
		{"ip netns exec ns1 cryptsetup open /dev/sdb d <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"cryptsetup open"}},
		{"sudo docker secret create s - <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"docker secret create s -"}},
		{"env -u X curl -K- <<< 'user = bob:S3cr3tZ'", []string{"S3cr3tZ"}, []string{"curl -K-"}},
		{"timeout 5 vault login - <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"vault login -"}},
		{"sudo -u bob gh auth login --with-token <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"gh auth login"}},
		// A quoted echo argument under watch or ssh is no inner command.
		{"watch -n 5 echo 'bob:S3cr3tZ' | sudo chpasswd", []string{"S3cr3tZ"}, []string{"| sudo chpasswd"}},
		{"ssh h echo \"S3cr3tZ\" | docker login -u bob --password-stdin r", []string{"S3cr3tZ"}, []string{"docker login -u bob"}},
		// A container's ordinary input stays.
		{"docker exec -i c psql -U app < dump.sql", nil, []string{"docker exec -i c psql -U app < dump.sql"}},
		{"echo hello | docker exec -i c cat", nil, []string{"echo hello | docker exec -i c cat"}},
	})
}

// TestRedactWrappedHereStrings: here-strings in a shell's here-document
// body (where bash's quotes are not tracked) and to commands under sudo.
func TestRedactWrappedHereStrings(t *testing.T) {
	checkSpellings(t, []spelling{
		{"bash <<'EOF'\nsmbpasswd -a bob <<< $'S3cr3tZ\\nS3cr3tZ'\nEOF", []string{"S3cr3tZ"}, []string{"smbpasswd -a bob <<< $'", "'\nEOF"}},
		{"sh <<EOF\nchpasswd <<< $'bob:S3cr3tZ'\nEOF", []string{"S3cr3tZ"}, []string{"chpasswd <<< $'"}},
		{"sudo pdbedit -a bob -t <<< $'S3cr3tZ\\nS3cr3tZ'", []string{"S3cr3tZ"}, []string{"sudo pdbedit -a bob -t"}},
		{"sudo sshpass ssh h uptime <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"sudo sshpass ssh h uptime"}},
	})
}

package audit

import "testing"

// TestRedactStdinKeyReaders: NAS, disk and vault tools that read a
// passphrase, key or password on their input when it is no terminal, as
// under warden; what a command feeds them (echo, printf, here-strings,
// here-documents) is the secret. Fed to anything else, or when the
// command reads no key, the text stays.
func TestRedactStdinKeyReaders(t *testing.T) {
	checkSpellings(t, []spelling{
		{"zfs load-key -L prompt tank <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"zfs load-key -L prompt tank <<< "}},
		{"echo S3cr3tZ | zfs load-key tank", []string{"S3cr3tZ"}, []string{"| zfs load-key tank"}},
		{"echo -n 'S3cr3tZ' | sudo zfs load-key -r tank/enc", []string{"S3cr3tZ"}, []string{"sudo zfs load-key -r tank/enc"}},
		{"printf '%s' S3cr3tZ | zfs create -o encryption=on -o keyformat=passphrase tank/x", []string{"S3cr3tZ"}, []string{"keyformat=passphrase tank/x"}},
		{"printf '%s' S3cr3tZ | zpool create -O encryption=aes-256-gcm -O keyformat=passphrase tank sdb", []string{"S3cr3tZ"}, []string{"zpool create"}},
		{"zfs create -o encryption=on -o keyformat=hex -o keylocation=prompt tank/y <<< 0123S3cr3tZ", []string{"S3cr3tZ"}, []string{"keylocation=prompt tank/y"}},
		{"echo S3cr3tZ | zfs change-key -o keyformat=passphrase tank/x", []string{"S3cr3tZ"}, []string{"zfs change-key"}},
		{"echo S3cr3tZ | zpool import -l tank", []string{"S3cr3tZ"}, []string{"zpool import -l tank"}},
		{"printf '%s' \"S3cr3tZ\" | sudo zpool import -l -d /dev/disk/by-id tank", []string{"S3cr3tZ"}, []string{"-d /dev/disk/by-id tank"}},
		{"echo S3cr3tZ | zfs mount -l tank/x", []string{"S3cr3tZ"}, []string{"zfs mount -l tank/x"}},
		{"zfs load-key tank/x <<EOF\nS3cr3tZ\nEOF", []string{"S3cr3tZ"}, []string{"<<EOF\n", "\nEOF"}},
		{"cat <<EOF | zfs load-key tank/x\nS3cr3tZ\nEOF", []string{"S3cr3tZ"}, []string{"| zfs load-key tank/x"}},
		{"echo S3cr3tZ | mkpasswd -s -m sha-512", []string{"S3cr3tZ"}, []string{"-m sha-512"}},
		{"mkpasswd --stdin --method=yescrypt <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"--method=yescrypt"}},
		{"echo S3cr3tZ | saslpasswd2 -p -c bob", []string{"S3cr3tZ"}, []string{"saslpasswd2 -p -c bob"}},
		{"echo S3cr3tZ | wg pubkey > pub", []string{"S3cr3tZ"}, []string{"wg pubkey > pub"}},
		{"echo S3cr3tZ | gocryptfs /srv/cipher /mnt/plain", []string{"S3cr3tZ"}, []string{"gocryptfs /srv/cipher"}},
		{"gocryptfs -init /srv/cipher <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"gocryptfs -init"}},
		{"echo S3cr3tZ | keepassxc-cli show -s db.kdbx web", []string{"S3cr3tZ"}, []string{"keepassxc-cli show"}},
		{"echo S3cr3tZ | 7z a -p secret.7z f", []string{"S3cr3tZ"}, []string{"7z a -p secret.7z f"}},
		{"echo S3cr3tZ | bcachefs unlock /dev/sdb", []string{"S3cr3tZ"}, []string{"bcachefs unlock"}},
		{"echo S3cr3tZ | fscrypt unlock /mnt/x", []string{"S3cr3tZ"}, []string{"fscrypt unlock"}},
		{"echo S3cr3tZ | gopass insert -f web/x", []string{"S3cr3tZ"}, []string{"gopass insert"}},
		{"echo S3cr3tZ | clevis encrypt tpm2 '{}' > k.jwe", []string{"S3cr3tZ"}, []string{"clevis encrypt tpm2"}},
		{"echo S3cr3tZ | bw unlock --raw", []string{"S3cr3tZ"}, []string{"bw unlock --raw"}},
		{"echo S3cr3tZ | kpasswd bob", []string{"S3cr3tZ"}, []string{"kpasswd bob"}},
		{"printf 'bob:S3cr3tZ:1001:1001::/home/bob:/bin/sh\\n' | newusers", []string{"S3cr3tZ"}, []string{"| newusers"}},
		{"echo S3cr3tZ | rclone obscure -", []string{"S3cr3tZ"}, []string{"rclone obscure -"}},
		{"echo S3cr3tZ | ipa user-add bob --first=B --last=C --password", []string{"S3cr3tZ"}, []string{"--password"}},
		{"echo S3cr3tZ | ansible-vault encrypt_string --stdin-name db_password", []string{"S3cr3tZ"}, []string{"--stdin-name db_password"}},
		{"echo S3cr3tZ | keyring set smtp bob", []string{"S3cr3tZ"}, []string{"keyring set smtp bob"}},
		{"echo S3cr3tZ | slappasswd -T /dev/stdin", []string{"S3cr3tZ"}, []string{"slappasswd -T /dev/stdin"}},
		{"printf '%s' S3cr3tZ | ecryptfs-unwrap-passphrase ~/.ecryptfs/wrapped-passphrase -", []string{"S3cr3tZ"}, []string{"wrapped-passphrase -"}},
		{"echo S3cr3tZ | lpass login --trust bob@x", []string{"S3cr3tZ"}, []string{"lpass login --trust"}},
		// Reading no key, or fed to a program that reads none.
		{"echo hello | keyring get smtp bob", nil, []string{"echo hello"}},
		{"zfs load-key -a", nil, []string{"zfs load-key -a"}},
		{"zfs list -o name,keyformat,keylocation", nil, []string{"name,keyformat,keylocation"}},
		{"echo tank | zfs mount -a", nil, []string{"echo tank"}},
		{"echo tank | zfs set keylocation=file:///k/tank.key tank", nil, []string{"echo tank"}},
		{"echo hello | wg show", nil, []string{"echo hello"}},
		{"echo hello | 7z a -pS3cr3tZ x.7z", []string{"S3cr3tZ"}, []string{"echo hello"}},
		{"echo hello | gopass show web/x", nil, []string{"echo hello"}},
	})
}

// TestRedactQuotedLineEnds: a quoted word holding a real line end is one
// word (printf 'pw⏎pw⏎' | pdbedit -t); its line end breaks no command,
// so the word is still what the pipeline feeds. A script's quoted line
// ends (sh -c '…⏎…') still do.
func TestRedactQuotedLineEnds(t *testing.T) {
	checkSpellings(t, []spelling{
		{"printf 'S3cr3tZ\nS3cr3tZ\n' | pdbedit -a -u bob -t", []string{"S3cr3tZ"}, []string{"| pdbedit -a -u bob -t"}},
		{"printf \"S3cr3tZ\nS3cr3tZ\n\" | smbpasswd -s -a bob", []string{"S3cr3tZ"}, []string{"| smbpasswd -s -a bob"}},
		{"echo 'S3cr3tZ\n' | zfs load-key tank", []string{"S3cr3tZ"}, []string{"| zfs load-key tank"}},
		{"printf 'bob:S3cr3tZ\nann:S3cr3tZ\n' | chpasswd", []string{"S3cr3tZ"}, []string{"| chpasswd"}},
		{"printf '%s\n' 'S3cr3tZ\n' | passwd --stdin bob", []string{"S3cr3tZ"}, []string{"passwd --stdin bob"}},
		{"echo $'x\\n'\"S3cr3tZ\n\" | sudo -S true", []string{"S3cr3tZ"}, []string{"sudo -S true"}},
		{"bash -c 'echo x\necho S3cr3tZ | chpasswd'", []string{"S3cr3tZ"}, []string{"echo x\n"}},
		{"ssh h 'ls\necho S3cr3tZ | sudo -S ls'", []string{"S3cr3tZ"}, []string{"ssh h 'ls\n"}},
		{"sh -c 'echo hi\nls'\necho S3cr3tZ | chpasswd", []string{"S3cr3tZ"}, []string{"sh -c 'echo hi\nls'"}},
		{"cat <<< 'bob:S3cr3tZ\nann:S3cr3tZ' | chpasswd", []string{"S3cr3tZ"}, []string{"| chpasswd"}},
		{"Bob's notes\ncurl -u bob:S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"Bob's notes\ncurl -u bob:"}},
		{"set x y\nit's\ncurl -u bob:S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"curl -u bob:"}},
		{"printf 'one\ntwo\n' | sort", nil, []string{"printf 'one\ntwo\n' | sort"}},
		{"echo 'a\nb' > f; echo hi | cat", nil, []string{"echo 'a\nb' > f; echo hi | cat"}},
	})
}

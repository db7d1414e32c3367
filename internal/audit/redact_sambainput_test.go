package audit

import "testing"

// TestRedactSambaPromptInput: a Samba client given a user without its
// password (-U bob, -Ubob, --user=bob) asks for it and reads it on its
// input, so what a here-string, here-document or pipe feeds it is the
// password; a -c whose value is no shell command (smbclient -c 'ls',
// kinit -c CCACHE, cryptsetup -c CIPHER) no longer hides the command's
// own input.
func TestRedactSambaPromptInput(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"samba", "smbclient //nas/share -U bob <<< " + pw, []string{"smbclient //nas/share -U bob <<<"}},
		{"samba", "smbclient //nas/share -U bob <<< '" + pw + "'", nil},
		{"samba", "smbclient //nas/share -Ubob <<< " + pw, nil},
		{"samba", "smbclient //nas/share --user=bob <<< " + pw, nil},
		{"samba", "smbclient //nas/share --user bob -c ls <<< " + pw, []string{"-c ls"}},
		{"samba", "smbclient -L nas -U 'DOM\\bob' <<< \"" + pw + "\"", nil},
		{"samba", "echo " + pw + " | smbclient //nas/share -U bob -c 'get f'", []string{"-c 'get f'"}},
		{"samba", "printf '%s\\n' " + pw + " | rpcclient -U bob nas -c enumdomusers", []string{"enumdomusers"}},
		{"samba", "smbcacls //nas/share f -U bob <<< " + pw, nil},
		{"samba", "smbclient //nas/share -U bob <<EOF\n" + pw + "\nls\nEOF", nil},
		{"samba", "ssh nas 'smbclient //nas/share -U bob <<< " + pw + "'", []string{"ssh nas"}},
		// pdbedit -a and net -U NAME ask for the password and read it there.
		{"samba", "pdbedit -a bob <<< $'" + pw + "\\n" + pw + "'", []string{"pdbedit -a bob"}},
		{"samba", "printf '%s\\n' " + pw + " " + pw + " | pdbedit -a -u bob", []string{"pdbedit -a -u bob"}},
		{"samba", "echo " + pw + " | net ads join -U admin", []string{"net ads join -U admin"}},
		{"samba", "net rpc user add bob -U admin <<< " + pw, nil},
		{"plain-c", "smbclient //nas/share -U bob -c 'ls' <<< " + pw, []string{"-c 'ls'"}},
		{"plain-c", "kinit bob -c '/tmp/cc' <<< " + pw, []string{"'/tmp/cc'"}},
		{"plain-c", "echo " + pw + ` | kinit -c "FILE:/tmp/cc" bob`, []string{"FILE:/tmp/cc"}},
		{"plain-c", "cryptsetup -c 'aes-xts-plain64' luksFormat /dev/sdb <<< " + pw, []string{"luksFormat /dev/sdb"}},
		{"plain-c", "htpasswd -i -c '/etc/nginx/.htpasswd' bob <<< " + pw, []string{"bob <<<"}},
		{"plain-c", "ssh db1 \"kinit -c '/tmp/cc' bob <<< " + pw + "\"", nil},
		// Kept: the input is commands, or there is none.
		{"kept", "smbclient //nas/share -N <<< 'ls'", []string{"<<< 'ls'"}},
		{"kept", "smbclient //nas/share -A /root/.smbcred -c 'ls'", []string{"-c 'ls'"}},
		{"kept", "smbclient //nas/share -U bob -c 'ls'", []string{"-c 'ls'"}},
		{"kept", "smbclient -k //nas/share <<< 'ls'", []string{"<<< 'ls'"}},
		{"kept", "kinit -k -t /etc/krb5.keytab host/h", []string{"host/h"}},
		{"kept", "su - bob -c 'ls -la'", []string{"ls -la"}},
	})
}

package audit

import "testing"

// TestRedactQemuSecretSpellings: QEMU's secrets beyond the -object
// secret,data=… list: the data member of a JSON secret object (-object
// '{"qom-type":"secret",…}', QMP's object-add, the member before or after
// the type), the monitor's set_password, change vnc password and
// block_passwd, and an iSCSI URL's user%password; several on one line,
// locally and over ssh.
func TestRedactQemuSecretSpellings(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, c := range []detourCase{
		{"json", `qemu-system-x86_64 -object '{"qom-type":"secret","id":"s0","data":"` + pw + `"}' -m 1G`, []string{`"qom-type":"secret"`, "-m 1G"}},
		{"json", `qemu-system-x86_64 -object '{"qom-type": "secret", "id": "s0", "data": "` + pw + `", "format": "raw"}'`, []string{`"format": "raw"`}},
		{"json", `qemu-system-x86_64 -object '{"id":"s0","data":"` + pw + `","qom-type":"secret"}' -vnc :1,password-secret=s0`, []string{"password-secret=s0"}},
		{"json", `qemu-img info --object '{"qom-type":"secret","id":"k","data":"` + pw + `"}' --image-opts driver=luks,key-secret=k,file.filename=x`, []string{"driver=luks"}},
		{"qmp", `echo '{"execute":"object-add","arguments":{"qom-type":"secret","id":"s1","data":"` + pw + `"}}' | socat - UNIX-CONNECT:/run/qmp.sock`, []string{"object-add", "socat"}},
		{"qmp", `virsh qemu-monitor-command vm '{"execute":"object-add","arguments":{"data":"` + pw + `","qom-type":"secret","id":"s1"}}'`, []string{"object-add"}},
		{"hmp", `virsh qemu-monitor-command vm --hmp 'set_password vnc ` + pw + `'`, []string{"set_password vnc"}},
		{"hmp", `virsh qemu-monitor-command vm --hmp 'set_password spice ` + pw + ` keep'`, []string{"set_password spice", "keep"}},
		{"hmp", `virsh qemu-monitor-command vm --hmp 'change vnc password ` + pw + `'`, []string{"change vnc password"}},
		{"hmp", `echo 'change vnc password ` + pw + `' | socat - UNIX-CONNECT:/run/qemu.mon`, []string{"socat"}},
		{"hmp", `printf 'set_password vnc ` + pw + `\n' | nc -U /run/qemu.mon`, []string{"nc -U"}},
		{"hmp", `echo 'block_passwd ide0-hd0 ` + pw + `' | socat - unix:/run/m`, []string{"block_passwd ide0-hd0"}},
		{"iscsi", `qemu-system-x86_64 -drive file=iscsi://bob%` + pw + `@10.0.0.5/iqn.2001-04.com.example:storage/1`, []string{"iscsi://bob%", "@10.0.0.5/iqn"}},
		{"iscsi", `qemu-img convert iscsi://admin%` + pw + `@san:3260/iqn.x/0 out.qcow2`, []string{"out.qcow2"}},
		{"virsh", `virsh set-user-password vm1 root ` + pw, []string{"virsh set-user-password vm1 root"}},
		{"virsh", `virsh -c qemu:///system set-user-password vm1 root '` + pw + `' --encrypted`, []string{"--encrypted"}},
		{"combined", `qemu-system-x86_64 -object secret,id=a,data=` + pw + ` -object '{"qom-type":"secret","id":"b","data":"` + pw + `"}' -drive file=iscsi://u%` + pw + `@h/iqn/0 -spice port=5,password=` + pw + ` -vnc :1,password=on`, []string{"-vnc :1,password=on"}},
	} {
		cases = append(cases, c, detourCase{c.class + "/ssh", `ssh kvm1 "` + escapeDouble(c.in) + `"`, []string{"ssh kvm1"}})
	}
	cases = append(cases,
		// Kept: other objects' members, other monitor commands, and
		// iSCSI URLs with no password.
		detourCase{"kept", `qemu-system-x86_64 -object '{"qom-type":"memory-backend-ram","id":"m","size":1073741824}' -object '{"qom-type":"rng-random","id":"r","filename":"/dev/urandom"}'`, []string{`"filename":"/dev/urandom"`, `"size":1073741824`}},
		detourCase{"kept", `echo '{"execute":"query-status","arguments":{"data":"plain"}}' | socat - UNIX-CONNECT:/run/qmp.sock`, []string{`"data":"plain"`}},
		detourCase{"kept", `virsh qemu-monitor-command vm --hmp 'info vnc'`, []string{"info vnc"}},
		detourCase{"kept", `virsh list --all; virsh dominfo vm1`, []string{"virsh dominfo vm1"}},
		detourCase{"kept", `echo 'change ide1-cd0 /srv/iso/debian.iso' | socat - unix:/run/m`, []string{"change ide1-cd0 /srv/iso/debian.iso"}},
		detourCase{"kept", `qemu-system-x86_64 -drive file=iscsi://10.0.0.5/iqn.2001-04.com.example:storage/1`, []string{"iscsi://10.0.0.5/iqn.2001-04.com.example:storage/1"}},
		detourCase{"kept", `curl 'https://h/a%20b@c' -o x`, []string{"https://h/a%20b@c"}},
	)
	checkSubtests(t, pw, cases)
}

// escapeDouble escapes s for bash's double quotes.
func escapeDouble(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\\', '$', '`':
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return string(b)
}

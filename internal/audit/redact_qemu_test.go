package audit

import "testing"

// TestRedactQemuSecret: QEMU's secret object carries its password in the
// data property, wherever it sits in the list and however the object is
// given; the properties that name a secret object by its id, and its id
// itself, stay readable.
func TestRedactQemuSecret(t *testing.T) {
	checkSpellings(t, []spelling{
		{"qemu-system-x86_64 -object secret,id=sec0,data=S3cr3tZ -drive file=x", []string{"S3cr3tZ"}, []string{"secret,id=sec0,data=", " -drive file=x"}},
		{"qemu-system-x86_64 -object secret,data=S3cr3tZ,id=sec0", []string{"S3cr3tZ"}, []string{",id=sec0"}},
		{"qemu-system-x86_64 -object secret,id=sec0,data=S3cr3tZ,format=raw", []string{"S3cr3tZ"}, []string{",format=raw"}},
		{"qemu-system-x86_64 -object secret,id=sec0,format=base64,data=UzNjcjN0Wg==", []string{"UzNjcjN0Wg"}, []string{"format=base64,data="}},
		{"qemu-img convert --object secret,id=sec0,data=S3cr3tZ a b", []string{"S3cr3tZ"}, []string{"id=sec0", " a b"}},
		{"qemu-img info --object secret,id=sec0,data=S3,,cr3tZ --image-opts x", []string{"S3", "cr3tZ"}, []string{" --image-opts x"}},
		{"qemu-system-x86_64 --object=secret,id=s,data=S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"qemu-system-x86_64 -object 'secret,id=sec0,data=S3cr3tZ'", []string{"S3cr3tZ"}, []string{"'secret,id=sec0,data="}},
		{"echo 'object_add secret,id=sec1,data=S3cr3tZ' | socat - unix:/run/qemu.mon", []string{"S3cr3tZ"}, []string{"object_add secret,id=sec1"}},
		{"virsh qemu-monitor-command vm --hmp 'object_add secret,id=s2,data=S3cr3tZ'", []string{"S3cr3tZ"}, []string{"id=s2"}},
		// Ids and switches are no secrets.
		{"qemu-system-x86_64 -drive file=rbd:pool/img,password-secret=sec0 -m 1G", nil, []string{"password-secret=sec0 -m 1G"}},
		{"qemu-system-x86_64 -vnc :0,password=on -monitor stdio", nil, []string{":0,password=on -monitor"}},
		{"qemu-system-x86_64 -vnc 0.0.0.0:1,password=on", nil, []string{":1,password=on"}},
		{"qemu-img create -f luks --object secret,id=k,file=/etc/k -o key-secret=k x.img 1G", nil, []string{"file=/etc/k", "key-secret=k"}},
		{"qemu-system-x86_64 -spice port=5900,password-secret=sec0", nil, []string{"password-secret=sec0"}},
		{"qemu-system-x86_64 -vnc :1,password=off,lossy=on", nil, []string{"password=off,lossy=on"}},
		// A real password in a list is still one.
		{"qemu-system-x86_64 -spice port=5900,password=S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"qemu-system-x86_64 -vnc :0,password=onion42", []string{"onion42"}, nil},
		// An unpacking assignment is still read as one.
		{"python3 -c 'user, password = \"bob\", \"S3cr3tZ\"'", []string{"S3cr3tZ"}, []string{"bob"}},
		{"user,password=bob,S3cr3tZ", []string{"S3cr3tZ"}, nil},
	})
}

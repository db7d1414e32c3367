package host

import (
	"reflect"
	"testing"
)

// TestParseMounts: the mounts disk_usage measures one by one when df of
// all of them does not finish are those df shows: no pseudo file systems,
// of two mounts at one place the one on top, each device once at its
// shortest mount point, escaped names read back.
func TestParseMounts(t *testing.T) {
	// The first lines as /proc/self/mountinfo shows them on Debian 13; the
	// rest made for the cases.
	info := `21 26 0:20 / /proc rw,relatime - proc proc rw
22 26 0:21 / /sys rw,relatime - sysfs sysfs rw
23 26 0:6 / /dev rw,relatime - devtmpfs devtmpfs rw,size=12334808k,nr_inodes=3083702,mode=755
24 23 0:22 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=24683748k
25 23 0:23 / /dev/pts rw,relatime - devpts devpts rw,mode=600,ptmxmode=000
26 1 253:0 / / rw,relatime - ext4 /dev/vda rw
30 26 0:40 / /mnt/nas\040share rw,relatime shared:5 - nfs4 nas:/export/share rw,vers=4.2
31 26 0:41 / /mnt/fuse rw,nosuid,nodev - fuse /srv/src rw,user_id=0
32 26 0:41 / /mnt/fuse rw,nosuid,nodev - fuse /srv/src rw,user_id=0
33 26 253:0 /srv /srv/bound rw,relatime - ext4 /dev/vda rw
34 23 0:6 /null /etc/warden.yaml rw - devtmpfs devtmpfs rw
35 26 0:42 / /net rw - autofs systemd-1 rw
36 22 0:43 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw
37 23 0:44 / /dev/shm rw - tmpfs tmpfs rw
not a mountinfo line
`
	want := []Mount{
		{Source: "devtmpfs", Type: "devtmpfs", Mount: "/dev"},
		{Source: "/dev/vda", Type: "ext4", Mount: "/"},
		{Source: "nas:/export/share", Type: "nfs4", Mount: "/mnt/nas share"},
		{Source: "/srv/src", Type: "fuse", Mount: "/mnt/fuse"},
		{Source: "tmpfs", Type: "tmpfs", Mount: "/dev/shm"},
	}
	if got := parseMounts(info); !reflect.DeepEqual(got, want) {
		t.Errorf("parseMounts:\n got %+v\nwant %+v", got, want)
	}
	for in, want := range map[string]string{`/a\040b`: "/a b", `/a\011b\012c\134d`: "/a\tb\nc\\d", `/a\04`: `/a\04`, `/a\999`: `/a\999`} {
		if got := unescapeMount(in); got != want {
			t.Errorf("unescapeMount(%q) = %q, want %q", in, got, want)
		}
	}
}

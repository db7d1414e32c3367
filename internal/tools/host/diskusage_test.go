package host

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner"
)

// TestParseMounts: the mounts disk_usage measures one by one when df of
// all of them does not finish are those df shows: no pseudo file systems,
// of two mounts at one place the one on top, each device once at its
// shortest mount point, escaped names read back.
func TestParseMounts(t *testing.T) {
	want := []Mount{
		{Source: "devtmpfs", Type: "devtmpfs", Mount: "/dev"},
		{Source: "/dev/vda", Type: "ext4", Mount: "/"},
		{Source: "nas:/export/share", Type: "nfs4", Mount: "/mnt/nas share"},
		{Source: "/srv/src", Type: "fuse", Mount: "/mnt/fuse"},
		{Source: "tmpfs", Type: "tmpfs", Mount: "/dev/shm"},
	}
	if got := parseMounts(mountinfoSample); !reflect.DeepEqual(got, want) {
		t.Errorf("parseMounts:\n got %+v\nwant %+v", got, want)
	}
	for in, want := range map[string]string{`/a\040b`: "/a b", `/a\011b\012c\134d`: "/a\tb\nc\\d", `/a\04`: `/a\04`, `/a\999`: `/a\999`} {
		if got := unescapeMount(in); got != want {
			t.Errorf("unescapeMount(%q) = %q, want %q", in, got, want)
		}
	}
}

// mountinfoSample is /proc/self/mountinfo with the cases of parseMounts:
// the first lines as it shows them on Debian 13, the rest made for the
// cases.
const mountinfoSample = `21 26 0:20 / /proc rw,relatime - proc proc rw
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

// TestDiskUsageEachMount: when df of all mounts does not finish, disk_usage
// lists the mounts and measures each with a df of its own: what answered is
// measured, what did not is named; every df waits exec.default_timeout, 10 s
// at most; and a host whose mounts cannot be listed, or where none
// answers, is an error saying so. The runner answers as a host with two
// mounts that do not answer would.
func TestDiskUsageEachMount(t *testing.T) {
	stuck := func(m string) bool { return strings.Contains(m, "nas") || strings.Contains(m, "fuse") }
	host := func(mounts runner.Result, stuck func(string) bool) *recorder {
		return &recorder{reply: func(argv []string) runner.Result {
			switch {
			case slices.Equal(argv, dfArgv):
				return runner.Result{TimedOut: true}
			case slices.Equal(argv, mountsArgv):
				return mounts
			case argv[1] == "-PkT" && stuck(argv[3]):
				return runner.Result{TimedOut: true}
			case argv[1] == "-PkT":
				return runner.Result{Stdout: []byte("Filesystem Type 1024-blocks Used Available Capacity Mounted on\nsrc ext4 100 40 60 40% " + argv[3] + "\n")}
			}
			var out strings.Builder
			out.WriteString("Filesystem Inodes IUsed IFree IUse% Mounted on\n")
			for _, m := range argv[min(3, len(argv)):] {
				out.WriteString("src 10 1 9 10% " + m + "\n")
			}
			return runner.Result{Stdout: []byte(out.String())}
		}}
	}
	run := func(rec *recorder, wait time.Duration) *relay.Outcome {
		t.Helper()
		d := depsWith(rec)
		d.Timeout, d.Wait = 30*time.Second, wait
		p, err := d.planDiskUsage(context.Background(), nil, &HostArg{})
		if err != nil {
			t.Fatal(err)
		}
		return p.Run(context.Background())
	}
	listed := runner.Result{Stdout: []byte(mountinfoSample)}

	for _, wait := range []time.Duration{time.Minute, 3 * time.Second} {
		rec := host(listed, stuck)
		out := run(rec, wait)
		res, _ := out.Result.(DiskUsage)
		var measured, named []string
		for _, f := range res.Filesystems {
			measured = append(measured, f.Mount)
			if f.Inodes != 10 {
				t.Errorf("%s: inodes %d, want 10 from the df -Pi of the mounts that answered", f.Mount, f.Inodes)
			}
		}
		for _, m := range res.NotAnswering {
			named = append(named, m.Mount)
		}
		if out.Status != "" && out.Status != relay.StatusOK || !slices.Equal(measured, []string{"/dev", "/", "/dev/shm"}) ||
			!slices.Equal(named, []string{"/mnt/nas share", "/mnt/fuse"}) {
			t.Errorf("wait %s: %s %q, measured %q, not answering %q", wait, out.Status, out.Reason, measured, named)
		}
		want := min(wait, 10*time.Second)
		for i, got := range rec.timeouts {
			if got != want {
				t.Errorf("wait %s: %q waited %s, want %s", wait, rec.calls[i], got, want)
			}
		}
	}
	for _, c := range []struct {
		name   string
		rec    *recorder
		reason string
	}{
		{"mounts not listed", host(runner.Result{ExitCode: 1, Stderr: []byte("cat: /proc/self/mountinfo: No such file or directory")}, stuck), "the mounts could not be listed"},
		{"none answers", host(listed, func(string) bool { return true }), "no mount answered"},
	} {
		if out := run(c.rec, 3*time.Second); out.Status != relay.StatusError || !strings.Contains(out.Reason, c.reason) {
			t.Errorf("%s: %s %q, want an error saying %q", c.name, out.Status, out.Reason, c.reason)
		}
	}
}

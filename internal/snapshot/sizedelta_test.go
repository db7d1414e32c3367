package snapshot

import (
	"os"
	"strings"
	"testing"
)

// TestParseZFSGet reads real `zfs get -H -p` output (testdata/README.md
// says where each was recorded and how it is reduced): the plain written
// line, and the written@<snapshot> line warden's size_delta asks for —
// transcribed from a published run on OpenZFS, reduced to the three
// columns warden's -o name,property,value prints. The refusals below are
// hand-written mutations of that form, labelled as such.
func TestParseZFSGet(t *testing.T) {
	captured, err := os.ReadFile("testdata/zfs-get-written.captured.txt")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := parseZFSGet(captured, "rpool/ROOT/debian", "written"); err != nil || n != 0 {
		t.Errorf("captured written = %d, %v; want 0", n, err)
	}
	transcribed := readTestdata(t, "zfs-get-written-at.transcribed.txt")
	line := ""
	for _, l := range strings.Split(transcribed, "\n") {
		if f := strings.Fields(l); len(f) == 4 && strings.HasPrefix(f[1], "written@") {
			line = strings.Join(f[:3], "\t") + "\n"
		}
	}
	const snap, of = "pre-26.05-2026-08-17T085547Z", "rpool/safe/persist"
	if n, err := parseZFSGet([]byte(line), of, "written@"+snap); err != nil || n != 9704439808 {
		t.Errorf("transcribed written@ line %q = %d, %v; want 9704439808", line, n, err)
	}
	// The line answers exactly what size_delta asks, of the live dataset.
	if argv := zfsWrittenArgv(of, snap, Snapshot{Name: LiveSnapshot, Live: true}); argv[6] != "written@"+snap || argv[7] != of {
		t.Errorf("size_delta asks %q, which the transcribed line does not answer", argv)
	}
	// Hand-written mutations of the form, each refused (the first, accepted,
	// is the same form on another dataset).
	for _, c := range []struct {
		name, out string
		want      int64
		ok        bool
	}{
		{"written@ (hand-written)", "tank/home@s3\twritten@s1\t1048576\n", 1 << 20, true},
		{"other dataset", "tank/other@s3\twritten@s1\t1\n", 0, false},
		{"other property", "tank/home@s3\tused\t1\n", 0, false},
		{"not -p", "tank/home@s3\twritten@s1\t1.5M\n", 0, false},
		{"not available", "tank/home@s3\twritten@s1\t-\n", 0, false},
		{"two lines", "tank/home@s3\twritten@s1\t1\ntank/home@s3\twritten@s1\t1\n", 0, false},
		{"spaces", "tank/home@s3 written@s1 1\n", 0, false},
		{"negative", "tank/home@s3\twritten@s1\t-5\n", 0, false},
		{"empty", "", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseZFSGet([]byte(c.out), "tank/home@s3", "written@s1")
			if (err == nil) != c.ok || got != c.want {
				t.Errorf("parseZFSGet(%q) = %d, %v; want %d ok=%v", c.out, got, err, c.want, c.ok)
			}
		})
	}
}

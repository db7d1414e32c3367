package snapshot

import (
	"os"
	"testing"
)

// TestParseZFSGet reads a real `zfs get -H -p -o name,property,value`
// line (testdata/README.md says where it was recorded) and the written@
// form warden asks for, and refuses anything else.
func TestParseZFSGet(t *testing.T) {
	captured, err := os.ReadFile("testdata/zfs-get-written.captured.txt")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := parseZFSGet(captured, "rpool/ROOT/debian", "written"); err != nil || n != 0 {
		t.Errorf("captured written = %d, %v; want 0", n, err)
	}
	for _, c := range []struct {
		name, out string
		want      int64
		ok        bool
	}{
		{"written@", "tank/home@s3\twritten@s1\t1048576\n", 1 << 20, true},
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

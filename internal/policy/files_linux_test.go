package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOpenRegularRefusesKernelFiles: the kernel's "regular" files are
// never opened to be read as programs: reading /proc/kmsg waits for the
// next message and takes the ones it returns from every other reader.
func TestOpenRegularRefusesKernelFiles(t *testing.T) {
	for _, p := range []string{"/proc/self/status", "/proc/kmsg", "/proc/sys/kernel/hostname", "/sys/kernel/uevent_seqnum"} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		if f, _, err := openRegular(p); err == nil {
			f.Close()
			t.Errorf("openRegular(%s) opened a kernel file", p)
		}
	}
	p := filepath.Join(t.TempDir(), "job")
	if err := os.WriteFile(p, []byte("uptime\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	f, fi, err := openRegular(p)
	if err != nil || fi.Size() != 7 {
		t.Fatalf("openRegular of a regular file: %v %v", fi, err)
	}
	f.Close()
}

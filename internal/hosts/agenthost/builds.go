package agenthost

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
)

// Platforms are the targets of the release artifact set (scripts/release):
// the agent builds warden can upload, named GOOS/arch as `uname -sm`
// selects them ("linux/armv7" is GOARCH=arm with GOARM=7; the mips builds
// are GOMIPS=softfloat).
var Platforms = []string{"linux/amd64", "linux/arm64", "linux/armv7", "linux/mips", "linux/mipsle", "freebsd/amd64"}

// Manifest is the name of the build set's digest list, in sha256sum's
// format.
const Manifest = "SHA256SUMS"

// platform maps `uname -sm` (and, for 32-bit MIPS, whose kernels say
// "mips" in either byte order, the ELF byte order of the host's /bin/sh:
// "01" little-endian, "02" big-endian) to the build set's platform name.
func platform(uname, byteOrder string) (string, error) {
	f := strings.Fields(uname)
	if len(f) != 2 {
		return "", fmt.Errorf("uname -sm said %q", uname)
	}
	goos := map[string]string{"Linux": "linux", "FreeBSD": "freebsd"}[f[0]]
	arch := map[string]string{"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64",
		"armv7l": "armv7", "armv7": "armv7", "armv8l": "armv7", "mipsel": "mipsle", "i686": "386", "i386": "386"}[f[1]]
	if f[1] == "mips" {
		switch byteOrder {
		case "01":
			arch = "mipsle"
		case "02":
			arch = "mips"
		default:
			return "", fmt.Errorf("no agent for %s %s: the byte order of its /bin/sh could not be read (od or hexdump), so mips and mipsle cannot be told apart", f[0], f[1])
		}
	}
	if goos == "" || arch == "" {
		return "", fmt.Errorf("no agent for %s %s (warden builds for %s)", f[0], f[1], strings.Join(Platforms, ", "))
	}
	return goos + "/" + arch, nil
}

// selfPlatform names this executable's platform as the build set does.
func selfPlatform() string {
	arch := runtime.GOARCH
	if arch == "arm" {
		arch = "armv7"
	}
	return runtime.GOOS + "/" + arch
}

// buildName is the file name of a platform's build in the set.
func buildName(plat string) string { return "warden-" + strings.ReplaceAll(plat, "/", "-") }

// build is one warden binary warden can upload, and its digest.
type build struct {
	path string
	sum  string
	size int64
}

// stamp is what identifies a file's contents cheaply between digests.
type stamp struct {
	size, mtime, ino int64
}

func stampOf(fi os.FileInfo) stamp {
	s := stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.ino = int64(st.Ino)
	}
	return s
}

// builds is where warden finds the agent for a platform: the build set
// (agent.builds, a directory with a SHA256SUMS manifest), explicit
// binaries, or this executable for its own platform.
type builds struct {
	dir string // the build set's directory; "" without one
	// want are the manifest's digests by platform; nil without a set.
	want map[string]string
	bins map[string]string // platform → local path
	err  error             // why the build set is unusable

	mu     sync.Mutex
	sums   map[string]build
	stamps map[string]stamp
}

// newBuilds reads the build set in dir, or takes bins (nil: this
// executable for its own platform).
func newBuilds(dir string, bins map[string]string) *builds {
	b := &builds{dir: dir, bins: bins, sums: map[string]build{}, stamps: map[string]stamp{}}
	if dir != "" {
		b.want, b.bins, b.err = readManifest(dir)
		return b
	}
	if b.bins == nil {
		b.bins = map[string]string{}
		if exe, err := os.Executable(); err == nil {
			b.bins[selfPlatform()] = exe
		}
	}
	return b
}

// readManifest reads dir's SHA256SUMS: the digest and path of every
// warden-<os>-<arch> it lists.
func readManifest(dir string) (map[string]string, map[string]string, error) {
	f, err := os.Open(filepath.Join(dir, Manifest))
	if err != nil {
		return nil, nil, fmt.Errorf("the agent build set (agent.builds): %w", err)
	}
	defer f.Close()
	want, bins := map[string]string{}, map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		sum, name, ok := strings.Cut(line, " ")
		name = strings.TrimPrefix(strings.TrimLeft(name, " "), "*")
		if _, err := hex.DecodeString(sum); !ok || err != nil || len(sum) != 64 || name == "" || strings.Contains(name, "/") {
			return nil, nil, fmt.Errorf("%s line %d: %q is not \"<sha256>  <file>\"", filepath.Join(dir, Manifest), n, line)
		}
		rest, ok := strings.CutPrefix(name, "warden-")
		goos, arch, ok2 := strings.Cut(rest, "-")
		if !ok || !ok2 {
			continue // another artifact; not an agent build
		}
		plat := goos + "/" + arch
		want[plat] = strings.ToLower(sum)
		bins[plat] = filepath.Join(dir, name)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", filepath.Join(dir, Manifest), err)
	}
	return want, bins, nil
}

// manifestSum is the build set's digest for a platform, if it lists one.
func (b *builds) manifestSum(plat string) (string, bool) {
	s, ok := b.want[plat]
	return s, ok
}

// source says where a platform's build comes from.
func (b *builds) source() string {
	if b.dir != "" {
		return "the build set " + b.dir
	}
	return "warden's own executable"
}

// get returns the build for a platform, its digest checked against the
// manifest whenever the file changed since it was last read; fresh makes
// it read the file again regardless, as before an upload.
func (b *builds) get(plat string, fresh bool) (build, error) {
	if b.err != nil {
		return build{}, b.err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.bins[plat]
	if !ok {
		have := make([]string, 0, len(b.bins))
		for k := range b.bins {
			have = append(have, k)
		}
		sort.Strings(have)
		return build{}, fmt.Errorf("no warden build for %s in %s (it has %s)", plat, b.source(), strings.Join(have, ", "))
	}
	fi, err := os.Stat(p)
	if err != nil {
		return build{}, fmt.Errorf("the warden build for %s: %w", plat, err)
	}
	if bd, ok := b.sums[plat]; ok && !fresh && b.stamps[plat] == stampOf(fi) {
		return bd, nil
	}
	f, err := os.Open(p)
	if err != nil {
		return build{}, fmt.Errorf("the warden build for %s: %w", plat, err)
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil {
		return build{}, fmt.Errorf("the warden build for %s: %w", plat, err)
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return build{}, fmt.Errorf("the warden build for %s: %w", plat, err)
	}
	bd := build{path: p, sum: hex.EncodeToString(h.Sum(nil)), size: n}
	if want, ok := b.want[plat]; ok && want != bd.sum {
		delete(b.sums, plat)
		return build{}, fmt.Errorf("%w: %s is sha256 %s, %s says %s; refusing to upload it", errMismatch, p, bd.sum, Manifest, want)
	}
	b.sums[plat], b.stamps[plat] = bd, stampOf(fi)
	return bd, nil
}

// errMismatch marks a build whose digest is not the manifest's.
var errMismatch = errors.New("the agent build does not match its manifest")

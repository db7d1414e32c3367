package agenthost

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/warden-mcp/warden/internal/agent"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// checksumExit is the exit status of the start script when the binary in
// the cache is missing or is not the build warden holds.
const checksumExit = 97

// build is one warden binary warden can upload, and its digest.
type build struct {
	path string
	sum  string
	size int64
}

// builds digests each binary once per provider.
type builds struct {
	mu   sync.Mutex
	bins map[string]string // "linux/amd64" → local path
	sums map[string]build
}

// get returns the build for a remote OS and architecture.
func (b *builds) get(platform string) (build, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if bd, ok := b.sums[platform]; ok {
		return bd, nil
	}
	p, ok := b.bins[platform]
	if !ok {
		have := make([]string, 0, len(b.bins))
		for k := range b.bins {
			have = append(have, k)
		}
		return build{}, fmt.Errorf("no warden build for %s (warden has %s)", platform, strings.Join(have, ", "))
	}
	f, err := os.Open(p)
	if err != nil {
		return build{}, fmt.Errorf("the warden build for %s: %w", platform, err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return build{}, fmt.Errorf("the warden build for %s: %w", platform, err)
	}
	bd := build{path: p, sum: hex.EncodeToString(h.Sum(nil)), size: n}
	b.sums[platform] = bd
	return bd, nil
}

// platform maps `uname -sm` to GOOS/GOARCH.
func platform(uname string) (string, error) {
	f := strings.Fields(uname)
	if len(f) != 2 {
		return "", fmt.Errorf("uname -sm said %q", uname)
	}
	goos := map[string]string{"Linux": "linux", "FreeBSD": "freebsd"}[f[0]]
	goarch := map[string]string{"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64",
		"armv7l": "arm", "armv6l": "arm", "mips": "mips", "mipsel": "mipsle", "i686": "386", "i386": "386"}[f[1]]
	if goos == "" || goarch == "" {
		return "", fmt.Errorf("no agent for %s %s", f[0], f[1])
	}
	return goos + "/" + goarch, nil
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// exec runs a short command on a session of lease, feeding it stdin, and
// returns its output, stderr and exit status.
func execOn(ctx context.Context, lease *sshpool.Lease, cmd string, stdin io.Reader) (string, string, int, error) {
	s, release, err := lease.Session(ctx)
	if err != nil {
		return "", "", 0, err
	}
	defer release()
	defer s.Close()
	var out, errb bytes.Buffer
	s.Stdout, s.Stderr, s.Stdin = &out, &errb, stdin
	done := make(chan error, 1)
	go func() { done <- s.Run(cmd) }()
	select {
	case err = <-done:
	case <-ctx.Done():
		s.Close()
		return "", "", 0, ctx.Err()
	}
	code := 0
	if err != nil {
		var ee interface{ ExitStatus() int }
		if !errors.As(err, &ee) {
			return out.String(), errb.String(), 0, err
		}
		code = ee.ExitStatus()
	}
	return out.String(), errb.String(), code, nil
}

// probe is what warden learns of a host before starting an agent there.
type probe struct {
	platform string
	cache    string // the remote user's cache directory for agents
}

// probeHost asks the host its OS, architecture and cache directory.
func probeHost(ctx context.Context, lease *sshpool.Lease, cacheDir string) (probe, error) {
	dir := `"${XDG_CACHE_HOME:-$HOME/.cache}/warden/agent"`
	if cacheDir != "" {
		dir = shellQuote(cacheDir)
	}
	out, stderr, code, err := execOn(ctx, lease, "uname -sm; printf '%s\\n' "+dir, nil)
	if err != nil {
		return probe{}, fmt.Errorf("probing the host: %w", err)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if code != 0 || len(lines) != 2 {
		return probe{}, fmt.Errorf("probing the host: exit %d: %s", code, strings.TrimSpace(stderr))
	}
	plat, err := platform(lines[0])
	if err != nil {
		return probe{}, err
	}
	if !strings.HasPrefix(lines[1], "/") || strings.ContainsAny(lines[1], "\n\x00") {
		return probe{}, fmt.Errorf("the remote cache directory %q is not an absolute path (is HOME set?)", lines[1])
	}
	return probe{platform: plat, cache: lines[1]}, nil
}

// remotePath is where a build lives on the host: one directory per build,
// named by its digest, so builds never overwrite each other.
func remotePath(cache string, bd build, plat string) string {
	return cache + "/" + bd.sum[:16] + "-" + strings.ReplaceAll(plat, "/", "-") + "/warden"
}

// upload copies a build to path through a temporary file renamed into
// place, so a start never sees half a binary.
func upload(ctx context.Context, lease *sshpool.Lease, bd build, path string) error {
	f, err := os.Open(bd.path)
	if err != nil {
		return err
	}
	defer f.Close()
	dir := path[:strings.LastIndexByte(path, '/')]
	script := fmt.Sprintf(`set -e; umask 077; d=%s; mkdir -p "$d"; t="$d/.upload.$$"; trap 'rm -f "$t"' EXIT; cat > "$t"; chmod 700 "$t"; mv -f "$t" "$d/warden"; trap - EXIT`, shellQuote(dir))
	_, stderr, code, err := execOn(ctx, lease, script, f)
	if err != nil {
		return fmt.Errorf("uploading the agent: %w", err)
	}
	if code != 0 {
		return fmt.Errorf("uploading the agent to %s: exit %d: %s", dir, code, strings.TrimSpace(stderr))
	}
	return nil
}

// startScript verifies the binary's SHA-256 and runs it as the agent; a
// missing or different binary exits checksumExit without running it.
func startScript(path, sum string) string {
	return fmt.Sprintf(`p=%s; h=$( (sha256sum "$p" || busybox sha256sum "$p" || shasum -a 256 "$p") 2>/dev/null | cut -d' ' -f1); `+
		`[ "$h" = %s ] || { echo "warden agent: $p is ${h:-missing}, not the build warden holds" >&2; exit %d; }; exec "$p" %s`,
		shellQuote(path), shellQuote(sum), checksumExit, agent.Arg)
}

// channel is one agent's SSH session as the agent client's stream.
type channel struct {
	io.Reader
	io.WriteCloser
	close func()
}

func (c channel) Close() error { c.close(); return nil }

// lockedBuffer keeps a bounded head of the agent's stderr.
type lockedBuffer struct {
	mu  *sync.Mutex
	buf *bytes.Buffer
}

func (l lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := 4096 - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// started is an agent running on one session of a lease.
type started struct {
	client *agent.Client
	wait   func() (int, string) // the session's exit status and stderr
}

// startAgent starts the agent at path on one session of lease and says
// hello; on failure it returns the start script's exit status and stderr.
func startAgent(ctx context.Context, lease *sshpool.Lease, path, sum string) (*started, int, string, error) {
	s, release, err := lease.Session(ctx)
	if err != nil {
		return nil, 0, "", err
	}
	stdin, err := s.StdinPipe()
	if err != nil {
		s.Close()
		release()
		return nil, 0, "", err
	}
	stdout, err := s.StdoutPipe()
	if err != nil {
		s.Close()
		release()
		return nil, 0, "", err
	}
	var mu sync.Mutex
	var errb bytes.Buffer
	s.Stderr = lockedBuffer{&mu, &errb}
	if err := s.Start(startScript(path, sum)); err != nil {
		s.Close()
		release()
		return nil, 0, "", err
	}
	exited := make(chan int, 1)
	go func() {
		code := -1
		if err := s.Wait(); err == nil {
			code = 0
		} else {
			var ee interface{ ExitStatus() int }
			if errors.As(err, &ee) {
				code = ee.ExitStatus()
			}
		}
		exited <- code
	}()
	var once sync.Once
	closeAll := func() { once.Do(func() { s.Close(); release() }) }
	wait := func() (int, string) {
		code := <-exited
		exited <- code
		mu.Lock()
		defer mu.Unlock()
		return code, strings.TrimSpace(errb.String())
	}
	c, err := agent.NewClient(ctx, channel{Reader: stdout, WriteCloser: stdin, close: closeAll})
	if err != nil {
		// The stream ended: give the exit status time to arrive before
		// the session is closed under it.
		select {
		case code := <-exited:
			exited <- code
		case <-time.After(10 * time.Second):
		}
		closeAll()
		code, stderr := wait()
		return nil, code, stderr, err
	}
	go func() { <-c.Done(); closeAll() }()
	return &started{client: c, wait: wait}, 0, "", nil
}

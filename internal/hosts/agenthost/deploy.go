package agenthost

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/warden-mcp/warden/internal/agent"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// checksumExit is the exit status of the start script when the binary in
// the cache is missing or is not the build warden holds.
const checksumExit = 97

// choice is the agent a start runs on a host, and why that one.
type choice struct {
	platform string
	remote   string // the path started on the host
	sum      string // the digest the start script checks; "" checks none
	upload   bool   // warden uploads its build where the host lacks it
	why      string
}

// choose picks the host's agent: the operator-installed agentPath as is
// (checked against the build set's manifest when it lists the host's
// platform), else the build for the host's platform, uploaded to a
// per-build path in its cache.
func choose(b *builds, pr probe, agentPath string) (choice, error) {
	if agentPath != "" {
		if !strings.HasPrefix(agentPath, "/") {
			return choice{}, fmt.Errorf("agent_path %q is not an absolute path", agentPath)
		}
		c := choice{platform: pr.platform, remote: agentPath}
		switch sum, ok := b.manifestSum(pr.platform); {
		case b.err != nil:
			return choice{}, fmt.Errorf("agent_path %s cannot be checked: %w", agentPath, b.err)
		case pr.platformErr == nil && ok:
			c.sum = sum
			c.why = "agent_path, checked against " + filepath.Join(b.dir, Manifest)
		case pr.platformErr != nil:
			c.platform = "unknown"
			c.why = "agent_path, run as installed (" + pr.platformErr.Error() + ")"
		default:
			c.why = "agent_path, run as installed (no manifest entry for " + pr.platform + ")"
		}
		return c, nil
	}
	if pr.platformErr != nil {
		return choice{}, pr.platformErr
	}
	bd, err := b.get(pr.platform, false)
	if err != nil {
		return choice{}, err
	}
	return choice{platform: pr.platform, remote: remotePath(pr.cache, bd.sum, pr.platform), sum: bd.sum, upload: true,
		why: "uploaded from " + b.source()}, nil
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
	// platformErr is why the host's platform has no build of the set;
	// an operator-installed agent runs regardless.
	platformErr error
	cache       string // the remote user's cache directory for agents
}

// probeHost asks the host its OS, architecture and cache directory.
func probeHost(ctx context.Context, lease *sshpool.Lease, cacheDir string) (probe, error) {
	dir := `"${XDG_CACHE_HOME:-$HOME/.cache}/warden/agent"`
	if cacheDir != "" {
		dir = shellQuote(cacheDir)
	}
	// The third line is the ELF byte order of /bin/sh (01 little, 02
	// big endian), which alone tells mipsle from mips.
	out, stderr, code, err := execOn(ctx, lease, "uname -sm; printf '%s\\n' "+dir+
		`; { od -An -tx1 -j5 -N1 /bin/sh || hexdump -s5 -n1 -e '1/1 "%02x"' /bin/sh; } 2>/dev/null | tr -d ' \n'; echo`, nil)
	if err != nil {
		return probe{}, fmt.Errorf("probing the host: %w", err)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if code != 0 || len(lines) < 2 || len(lines) > 3 {
		return probe{}, fmt.Errorf("probing the host: exit %d: %s", code, strings.TrimSpace(stderr))
	}
	order := ""
	if len(lines) == 3 {
		order = lines[2]
	}
	plat, perr := platform(lines[0], order)
	if !strings.HasPrefix(lines[1], "/") || strings.ContainsAny(lines[1], "\n\x00") {
		return probe{}, fmt.Errorf("the remote cache directory %q is not an absolute path (is HOME set?)", lines[1])
	}
	return probe{platform: plat, platformErr: perr, cache: lines[1]}, nil
}

// remotePath is where a build lives on the host: one directory per build,
// named by its digest, so builds never overwrite each other.
func remotePath(cache, sum, plat string) string {
	return cache + "/" + sum[:16] + "-" + strings.ReplaceAll(plat, "/", "-") + "/warden"
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
// missing or different binary exits checksumExit without running it. An
// empty sum (an operator-installed agent the manifest does not list)
// only checks that the file is there and executable.
func startScript(path, sum string) string {
	if sum == "" {
		return fmt.Sprintf(`p=%s; [ -f "$p" ] && [ -x "$p" ] || { echo "warden agent: $p is missing or not executable" >&2; exit %d; }; exec "$p" %s`,
			shellQuote(path), checksumExit, agent.Arg)
	}
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

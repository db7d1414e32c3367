package files

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"strings"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/hostfs"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner"
)

// DefaultMaxCopyBytes bounds copy_file when Limits.MaxCopyBytes is zero.
const DefaultMaxCopyBytes = 64 << 20

// CopyArgs are copy_file's arguments.
type CopyArgs struct {
	From      string `json:"from" jsonschema:"Source: an absolute local path, or host:/absolute/path on an inventory host."`
	To        string `json:"to" jsonschema:"Destination: an absolute local path, or host:/absolute/path on an inventory host."`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"Replace an existing destination file; without it an existing file is refused."`
}

// CopyResult is copy_file's result.
type CopyResult struct {
	From         string `json:"from"`
	To           string `json:"to"`
	ResolvedFrom string `json:"resolved_from"`
	ResolvedTo   string `json:"resolved_to"`
	Bytes        int64  `json:"bytes"`
	Created      bool   `json:"created"`
	Mode         string `json:"mode"`
	SHA256       string `json:"sha256"`
	Transport    string `json:"transport,omitempty" jsonschema:"How the remote host's files were reached: sftp, or exec (fixed POSIX commands over the SSH exec channel, for servers without SFTP such as dropbear routers)."`
}

// endpoint splits "host:/path" into host and path; a bare absolute path is
// local.
func endpoint(s string) (host, p string, err error) {
	if strings.HasPrefix(s, "/") {
		return "local", s, nil
	}
	host, p, ok := strings.Cut(s, ":")
	if !ok || host == "" || !strings.HasPrefix(p, "/") {
		return "", "", fmt.Errorf("%q is neither an absolute path nor host:/absolute/path", s)
	}
	return host, p, nil
}

func (d *Deps) registerCopy(r *relay.Relay) {
	relay.Add[CopyArgs, CopyResult](r, relay.Spec{
		Name:  "copy_file",
		Title: "Copy a file between hosts",
		Description: "Copy a regular file between this machine and an inventory host (over SFTP, or over the SSH exec channel " +
			"on servers without SFTP): from and to are absolute " +
			"paths, a remote one written host:/path. Both paths must be allowed by the path policy (each host's own); " +
			"an existing destination is refused unless overwrite=true; the size is bounded; the destination is written " +
			"to a temporary file and renamed into place. This changes the destination, so it may need approval.",
		Tier:        policy.TierMutate,
		Annotations: &mcp.ToolAnnotations{Title: "Copy a file between hosts", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(true)},
	}, d.planCopy)
}

func (d *Deps) planCopy(ctx context.Context, _ *relay.Call, a *CopyArgs) (*relay.Plan, error) {
	fromHost, fromPath, err := endpoint(a.From)
	if err != nil {
		return nil, fmt.Errorf("from: %w", err)
	}
	toHost, toPath, err := endpoint(a.To)
	if err != nil {
		return nil, fmt.Errorf("to: %w", err)
	}
	if fromHost != "local" && toHost != "local" && fromHost != toHost {
		return nil, errors.New("copy between two remote hosts is not supported: copy through a local path")
	}
	from, err := d.Hosts(ctx, fromHost)
	if err != nil {
		return nil, fmt.Errorf("from: %w", err)
	}
	to, err := d.Hosts(ctx, toHost)
	if err != nil {
		return nil, fmt.Errorf("to: %w", err)
	}
	remote := from
	if from.Local() {
		remote = to
	}
	// Both paths are checked as spelled now; they are resolved (which
	// contacts a remote host) and checked again only once the call is
	// admitted.
	fromClean, err := d.precheck(from, fromPath)
	if err != nil {
		return nil, fmt.Errorf("from: %w", err)
	}
	toClean, err := d.precheck(to, toPath)
	if err != nil {
		return nil, fmt.Errorf("to: %w", err)
	}
	max := d.Limits.MaxCopyBytes
	return &relay.Plan{
		Host: remote.Name,
		// cp over the paths, so deny rules over paths apply.
		Input: policy.Input{Argv: []string{"cp", "--", fromClean, toClean}, HostAddrs: remote.Addrs},
		Run: func(ctx context.Context) *relay.Outcome {
			// The two looks at the paths wait on their file systems for
			// at most Limits.Wait; the transfer itself may take longer.
			type ends struct {
				src, dst *target
				out      *relay.Outcome
			}
			e, err := runner.Await(ctx, d.Looks, d.Limits.Wait, func() ends {
				src, err := d.locate(ctx, from, fromPath, true)
				if out := locateFailure(err); out != nil {
					out.Reason = "from: " + out.Reason
					return ends{out: out}
				}
				dst, err := d.locate(ctx, to, toPath, true)
				if out := locateFailure(err); out != nil {
					out.Reason = "to: " + out.Reason
					return ends{out: out}
				}
				return ends{src: src, dst: dst}
			})
			if err != nil {
				if !runner.Busy(err) {
					remote.AbandonFiles(ctx)
				}
				return noAnswer(remote.Name, fromClean+" or "+toClean, d.Limits.Wait, false, err)
			}
			if e.out != nil {
				return e.out
			}
			src, dst := e.src, e.dst
			if !src.resolved.Exists {
				return relay.Fail(relay.StatusError, "%s does not exist", a.From)
			}
			if src.resolved.Info.Type != hostfs.TypeFile {
				return relay.Fail(relay.StatusError, "%s is a %s, not a regular file", a.From, src.resolved.Info.Type)
			}
			if dst.resolved.Exists && dst.resolved.Info.Type != hostfs.TypeFile {
				return relay.Fail(relay.StatusError, "%s is a %s, not a regular file", a.To, dst.resolved.Info.Type)
			}
			if dst.resolved.Exists && !a.Overwrite {
				return relay.Fail(relay.StatusError, "%s exists; pass overwrite=true to replace it", a.To)
			}
			in, ok1 := src.fsys.(hostfs.Streamer)
			out, ok2 := dst.fsys.(hostfs.Streamer)
			if !ok1 || !ok2 {
				return relay.Fail(relay.StatusError, "copy_file is not available for these hosts")
			}
			// The transfer may take as long as the file's size needs, but
			// not stop moving for longer than Limits.Wait: a mount or a
			// host that stopped answering ends the call, and the copy then
			// fails at its next read, so it is not committed later.
			mr := &movingReader{}
			res, err := runner.AwaitMoving(ctx, d.Looks, d.Limits.Wait, mr.moved.Load, func() copied {
				return transfer(ctx, in, out, src, dst, *a, max, mr)
			})
			if err != nil && !runner.Busy(err) {
				// The host's SFTP session is kept: the copy's failing read
				// lets it remove its temporary file there once it answers.
				mr.stop.Store(true)
			}
			switch {
			case runner.Busy(err):
				return relay.Fail(relay.StatusError, "copy %s to %s: %v", a.From, a.To, err)
			case err != nil && ctx.Err() != nil:
				return relay.Fail(relay.StatusError, "copy %s to %s: ended while the copy waited on a file system or host: %v; "+
					"the copy stops at its next read, so nothing is written unless it had read the whole file", a.From, a.To, context.Cause(ctx))
			case err != nil:
				return relay.Fail(relay.StatusError, "copy %s to %s: no byte moved for %s (exec.default_timeout), after %d bytes: a mount or host that does not answer?; "+
					"the copy stops at its next read, so nothing is written unless it had read the whole file", a.From, a.To, d.Limits.Wait, mr.moved.Load())
			case res.out != nil:
				return res.out
			}
			w, n, h := res.w, res.n, res.h
			sum := hex.EncodeToString(h.Sum(nil))
			via := transportOf(src.fsys)
			if via == "" {
				via = transportOf(dst.fsys)
			}
			return &relay.Outcome{Result: CopyResult{
				From: a.From, To: a.To, ResolvedFrom: src.resolved.Path, ResolvedTo: dst.resolved.Path,
				Bytes: n, Created: w.Created, Mode: octal(w.Mode), SHA256: sum, Transport: via,
			}, Extra: map[string]any{"bytes": n, "sha256": sum}}
		},
	}, nil
}

// copied is what a transfer did: a failure, or what it wrote and the
// digest of what it read.
type copied struct {
	out *relay.Outcome
	w   hostfs.WriteInfo
	n   int64
	h   hash.Hash
}

// transfer streams src into dst through mr.
func transfer(ctx context.Context, in, out hostfs.Streamer, src, dst *target, a CopyArgs, max int64, mr *movingReader) copied {
	r, info, err := in.OpenRead(ctx, src.resolved.Path)
	if err != nil {
		return copied{out: relay.Fail(relay.StatusError, "read %s: %v", a.From, err)}
	}
	defer r.Close()
	if info.Size > max {
		return copied{out: relay.Fail(relay.StatusError, "%s is %d bytes; copy_file copies at most %d", a.From, info.Size, max)}
	}
	wo := hostfs.WriteOptions{Overwrite: a.Overwrite}
	if !dst.resolved.Exists {
		// A new file gets the source's permission bits (never
		// setuid, setgid or sticky).
		perm := info.Mode.Perm()
		wo.Mode = &perm
	}
	h := sha256.New()
	mr.r = io.TeeReader(r, h)
	w, n, err := out.WriteFrom(ctx, dst.resolved.Path, mr, max, wo)
	switch {
	case errors.Is(err, fs.ErrExist):
		return copied{out: relay.Fail(relay.StatusError, "%s exists; pass overwrite=true to replace it", a.To)}
	case errors.Is(err, hostfs.ErrTooBig):
		return copied{out: relay.Fail(relay.StatusError, "%s grew past the copy limit of %d bytes; nothing was written", a.From, max)}
	case err != nil:
		return copied{out: relay.Fail(relay.StatusError, "copy %s to %s: %v", a.From, a.To, err)}
	}
	return copied{w: w, n: n, h: h}
}

// errCopyStopped fails the reads of a copy its call gave up on.
var errCopyStopped = errors.New("the copy was given up on")

// movingReader counts the bytes read through it, and fails every read
// once stop is set.
type movingReader struct {
	r     io.Reader
	moved atomic.Int64
	stop  atomic.Bool
}

func (m *movingReader) Read(p []byte) (int, error) {
	if m.stop.Load() {
		return 0, errCopyStopped
	}
	n, err := m.r.Read(p)
	m.moved.Add(int64(n))
	return n, err
}

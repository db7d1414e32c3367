// Package files owns the file tools — read_file, list_dir, stat_file,
// write_file and copy_file — and the FS seam they reach a host's files through. Every
// path is cleaned and checked against the path policy as the agent spelled
// it, resolved through every symlink and checked again, and then opened
// with no symlink followed anywhere, so a link swapped in after the check
// cannot lead the call out of bounds. All four run through the relay.
package files

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/hostfs"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner"
)

// Limits bound every call; per-call values may only narrow them.
type Limits struct {
	DefaultReadBytes int
	MaxReadBytes     int
	MaxWriteBytes    int
	DefaultEntries   int
	MaxEntries       int
	// MaxCopyBytes bounds one copy_file (DefaultMaxCopyBytes when zero).
	MaxCopyBytes int64
	// Wait bounds how long a call of read_file, list_dir, stat_file or
	// write_file waits on the host's file system, and how long a
	// copy_file transfer may move no byte.
	Wait time.Duration
}

// DefaultLimits are used for zero fields of Deps.Limits.
var DefaultLimits = Limits{
	DefaultReadBytes: 64 << 10,
	MaxReadBytes:     1 << 20,
	MaxWriteBytes:    1 << 20,
	DefaultEntries:   500,
	MaxEntries:       5000,
	Wait:             time.Minute,
}

// Deps is what the file tools need from the rest of warden.
type Deps struct {
	// Paths is the path policy; required.
	Paths  *policy.PathPolicy
	Limits Limits
	// Hosts resolves a host argument ("" or "local" or an inventory name)
	// to the host whose files are read; required.
	Hosts hosts.Resolver
	// HostPaths returns the path policy of a remote host; nil, or a nil
	// result, means Paths.
	HostPaths func(host string) *policy.PathPolicy
	// Looks bounds the looks at files that wait at once (see
	// runner.Looks); nil bounds nothing.
	Looks *runner.Looks
}

// paths is the path policy of h.
func (d *Deps) paths(h *hosts.Host) *policy.PathPolicy {
	if !h.Local() && d.HostPaths != nil {
		if pp := d.HostPaths(h.Name); pp != nil {
			return pp
		}
	}
	return d.Paths
}

// ReadArgs are read_file's arguments.
type ReadArgs struct {
	Path     string `json:"path" jsonschema:"Absolute path of a regular file."`
	Host     string `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
	Offset   int64  `json:"offset,omitempty" jsonschema:"Byte offset to start reading at."`
	MaxBytes int    `json:"max_bytes,omitempty" jsonschema:"Bytes to read at most; capped by the server limit."`
}

// ReadResult is read_file's result.
type ReadResult struct {
	Path         string `json:"path"`
	ResolvedPath string `json:"resolved_path" jsonschema:"The path after following every symlink; this is what was read."`
	Size         int64  `json:"size" jsonschema:"File size as stat reports it (0 for many /proc files)."`
	Offset       int64  `json:"offset"`
	Length       int    `json:"length" jsonschema:"Bytes returned."`
	Encoding     string `json:"encoding" jsonschema:"utf-8, or base64 for binary content."`
	Content      string `json:"content"`
	Truncated    bool   `json:"truncated" jsonschema:"More content follows; continue at next_offset."`
	NextOffset   int64  `json:"next_offset"`
	ModTime      string `json:"mod_time"`
	Transport    string `json:"transport,omitempty" jsonschema:"How a remote host's files were reached: sftp, or exec (fixed POSIX commands over the SSH exec channel, for servers without SFTP such as dropbear routers). Empty for local."`
}

// ListArgs are list_dir's arguments.
type ListArgs struct {
	Path       string `json:"path" jsonschema:"Absolute path of a directory."`
	Host       string `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
	MaxEntries int    `json:"max_entries,omitempty" jsonschema:"Entries to return at most; capped by the server limit."`
}

// Entry is one directory entry, described without following it.
type Entry struct {
	Name       string      `json:"name"`
	Type       hostfs.Type `json:"type" jsonschema:"file, dir, symlink, fifo, socket, device or other."`
	Size       int64       `json:"size"`
	Mode       string      `json:"mode" jsonschema:"Permission bits in octal."`
	ModTime    string      `json:"mod_time"`
	LinkTarget string      `json:"link_target,omitempty"`
	// NotAnswering is an entry whose look did not answer.
	NotAnswering bool `json:"not_answering,omitempty" jsonschema:"The entry did not answer within 2s (a mount point whose NFS server is gone, a stopped FUSE daemon): only its name and type are known."`
}

// ListResult is list_dir's result.
type ListResult struct {
	Path         string  `json:"path"`
	ResolvedPath string  `json:"resolved_path"`
	Entries      []Entry `json:"entries" jsonschema:"Entries sorted by name."`
	Truncated    bool    `json:"truncated" jsonschema:"The directory has more entries than were returned."`
	Transport    string  `json:"transport,omitempty" jsonschema:"How a remote host's files were reached: sftp, or exec (fixed POSIX commands over the SSH exec channel, for servers without SFTP such as dropbear routers). Empty for local."`
}

// StatArgs are stat_file's arguments.
type StatArgs struct {
	Path string `json:"path" jsonschema:"Absolute path."`
	Host string `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
}

// StatResult is stat_file's result.
type StatResult struct {
	Path         string      `json:"path"`
	ResolvedPath string      `json:"resolved_path"`
	Exists       bool        `json:"exists"`
	Type         hostfs.Type `json:"type,omitempty"`
	Size         int64       `json:"size,omitempty"`
	Mode         string      `json:"mode,omitempty"`
	UID          int         `json:"uid,omitempty"`
	GID          int         `json:"gid,omitempty"`
	ModTime      string      `json:"mod_time,omitempty"`
	// Symlink reports whether path itself is a symlink (then the other
	// fields describe its target at resolved_path).
	Symlink    bool   `json:"symlink,omitempty"`
	LinkTarget string `json:"link_target,omitempty"`
	Transport  string `json:"transport,omitempty" jsonschema:"How a remote host's files were reached: sftp, or exec (fixed POSIX commands over the SSH exec channel, for servers without SFTP such as dropbear routers). Empty for local."`
}

// WriteArgs are write_file's arguments.
type WriteArgs struct {
	Path      string `json:"path" jsonschema:"Absolute path of the file to create or replace."`
	Host      string `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
	Content   string `json:"content" jsonschema:"The whole new content."`
	Encoding  string `json:"encoding,omitempty" jsonschema:"utf-8 (default) or base64."`
	Mode      string `json:"mode,omitempty" jsonschema:"Permission bits in octal, e.g. 0644; default: keep an existing file's, 0644 for a new one."`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"Replace an existing file; without it an existing file is refused."`
}

// WriteResult is write_file's result.
type WriteResult struct {
	Path         string `json:"path"`
	ResolvedPath string `json:"resolved_path"`
	BytesWritten int    `json:"bytes_written"`
	Created      bool   `json:"created"`
	Mode         string `json:"mode"`
	SHA256       string `json:"sha256"`
	Transport    string `json:"transport,omitempty" jsonschema:"How a remote host's files were reached: sftp, or exec (fixed POSIX commands over the SSH exec channel, for servers without SFTP such as dropbear routers). Empty for local."`
}

// Register adds the file tools to the relay.
func Register(r *relay.Relay, d Deps) {
	if d.Paths == nil {
		panic("files: Deps.Paths is required")
	}
	d.Limits = d.Limits.withDefaults()
	if d.Hosts == nil {
		panic("files: Deps.Hosts is required")
	}
	ro := func(title string) *mcp.ToolAnnotations {
		return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}
	}
	relay.Add[ReadArgs, ReadResult](r, relay.Spec{
		Name:  "read_file",
		Title: "Read a file",
		Description: "Read part of a regular file: from offset, at most max_bytes. Text comes back as utf-8, binary as base64; " +
			"truncated=true means more follows at next_offset. Paths must be absolute and allowed by the path policy " +
			"(secrets, devices and warden's own state are refused); symlinks are followed and the target is checked too.",
		Annotations: ro("Read a file"),
	}, d.planRead)
	relay.Add[ListArgs, ListResult](r, relay.Spec{
		Name:        "list_dir",
		Title:       "List a directory",
		Description: "List a directory's entries (name, type, size, mode, mtime, symlink target), sorted by name and capped at max_entries; truncated=true when there are more.",
		Annotations: ro("List a directory"),
	}, d.planList)
	relay.Add[StatArgs, StatResult](r, relay.Spec{
		Name:        "stat_file",
		Title:       "Describe a file",
		Description: "Describe a path: whether it exists, its type, size, mode, owner and mtime, and where it leads if it is a symlink.",
		Annotations: ro("Describe a file"),
	}, d.planStat)
	relay.Add[WriteArgs, WriteResult](r, relay.Spec{
		Name:  "write_file",
		Title: "Write a file",
		Description: "Create or replace a regular file with the given content (utf-8 or base64), atomically: a temporary file in the same " +
			"directory is renamed over the target. An existing file is refused unless overwrite=true. This changes the host, so it " +
			"may need approval.",
		Tier:        policy.TierMutate,
		Annotations: &mcp.ToolAnnotations{Title: "Write a file", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, d.planWrite)
	d.registerCopy(r)
}

func ptr[T any](v T) *T { return &v }

func (l Limits) withDefaults() Limits {
	pick := func(v, def int) int {
		if v <= 0 {
			return def
		}
		return v
	}
	l.MaxReadBytes = pick(l.MaxReadBytes, DefaultLimits.MaxReadBytes)
	l.DefaultReadBytes = min(pick(l.DefaultReadBytes, DefaultLimits.DefaultReadBytes), l.MaxReadBytes)
	l.MaxWriteBytes = pick(l.MaxWriteBytes, DefaultLimits.MaxWriteBytes)
	l.MaxEntries = pick(l.MaxEntries, DefaultLimits.MaxEntries)
	l.DefaultEntries = min(pick(l.DefaultEntries, DefaultLimits.DefaultEntries), l.MaxEntries)
	if l.MaxCopyBytes <= 0 {
		l.MaxCopyBytes = DefaultMaxCopyBytes
	}
	if l.Wait <= 0 {
		l.Wait = DefaultLimits.Wait
	}
	return l
}

// target is a path checked as spelled and, once resolved, checked again.
type target struct {
	host     string
	fsys     hostfs.FS
	asked    string
	resolved hostfs.Resolved
	// link is the final component's own symlink target, when it is one.
	link string
}

// errNoFS carries why a host has no file access; the call is still
// admitted and audited, then fails with this reason.
type errNoFS struct{ err error }

func (e errNoFS) Error() string { return e.err.Error() }

// locate validates and checks p, then resolves it on the host and checks
// the result. followFinal says whether a symlink in the last component is
// followed (read, list, stat) or is the object itself.
func (d *Deps) locate(ctx context.Context, h *hosts.Host, p string, followFinal bool) (*target, error) {
	clean, err := policy.CleanPath(p)
	if err != nil {
		return nil, err
	}
	paths := d.paths(h)
	if err := paths.Check(clean); err != nil {
		return nil, err
	}
	t := &target{host: h.Name, asked: clean}
	fsys, err := h.FS(ctx)
	if err != nil {
		return t, errNoFS{err}
	}
	t.fsys = fsys
	if info, err := fsys.Lstat(ctx, clean); err == nil && info.Type == hostfs.TypeSymlink {
		t.link, _ = fsys.Readlink(ctx, clean)
	}
	res, err := hostfs.Resolve(ctx, fsys, clean, followFinal)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", clean, err)
	}
	if res.Path != clean {
		if err := paths.Check(res.Path); err != nil {
			return nil, fmt.Errorf("%s leads to a refused path: %w", clean, err)
		}
	}
	t.resolved = res
	return t, nil
}

// plan builds the call's plan; argv describes the operation to the policy
// as the equivalent command, so deny rules over paths apply here too. The
// host's file system is waited on for at most Limits.Wait, in planning and
// in running alike (see runner.Await); writes says whether run writes.
func (d *Deps) plan(ctx context.Context, host, p string, followFinal, writes bool, argv func(resolved string) []string, run func(ctx context.Context, t *target) *relay.Outcome) (*relay.Plan, error) {
	h, err := d.Hosts(ctx, host)
	if err != nil {
		return nil, err
	}
	wait := d.Limits.Wait
	if !h.Local() {
		// A remote host is not contacted before the call is admitted (its
		// address may be denied): the path is checked as spelled now and
		// resolved and checked again when the call runs.
		clean, err := d.precheck(h, p)
		if err != nil {
			return nil, err
		}
		return &relay.Plan{
			Host:  h.Name,
			Input: policy.Input{Argv: argv(clean), HostAddrs: h.Addrs},
			Run: func(ctx context.Context) *relay.Outcome {
				out, err := runner.Await(ctx, d.Looks, wait, func() *relay.Outcome {
					t, err := d.locate(ctx, h, p, followFinal)
					if out := locateFailure(err); out != nil {
						return out
					}
					return run(ctx, t)
				})
				if err != nil {
					if !runner.Busy(err) {
						h.AbandonFiles(ctx)
					}
					return noAnswer(h.Name, clean, wait, writes, err)
				}
				return out
			},
		}, nil
	}
	type located struct {
		t   *target
		err error
	}
	l, waitErr := runner.Await(ctx, d.Looks, wait, func() located {
		t, err := d.locate(ctx, h, p, followFinal)
		return located{t, err}
	})
	if waitErr != nil {
		clean, err := d.precheck(h, p)
		if err != nil {
			return nil, err
		}
		return &relay.Plan{
			Host:  h.Name,
			Input: policy.Input{Argv: argv(clean), HostAddrs: h.Addrs},
			Run:   func(context.Context) *relay.Outcome { return noAnswer(h.Name, clean, wait, false, waitErr) },
		}, nil
	}
	t, err := l.t, l.err
	var nofs errNoFS
	if errors.As(err, &nofs) {
		return &relay.Plan{
			Host:  t.host,
			Input: policy.Input{Argv: argv(t.asked), HostAddrs: h.Addrs},
			Run:   func(context.Context) *relay.Outcome { return relay.Fail(relay.StatusError, "%v", nofs.err) },
		}, nil
	}
	if err != nil {
		return nil, err
	}
	return &relay.Plan{
		Host:  t.host,
		Input: policy.Input{Argv: argv(t.resolved.Path), HostAddrs: h.Addrs},
		Run: func(ctx context.Context) *relay.Outcome {
			out, err := runner.Await(ctx, d.Looks, wait, func() *relay.Outcome { return run(ctx, t) })
			if err != nil {
				return noAnswer(t.host, t.asked, wait, writes, err)
			}
			return out
		},
	}, nil
}

// transportOf names how fsys reaches its host's files ("" for this
// machine's).
func transportOf(fsys hostfs.FS) string {
	if t, ok := fsys.(interface{ Transport() string }); ok {
		return t.Transport()
	}
	return ""
}

// precheck cleans p and checks it against host's path policy as spelled.
func (d *Deps) precheck(h *hosts.Host, p string) (string, error) {
	clean, err := policy.CleanPath(p)
	if err != nil {
		return "", err
	}
	if err := d.paths(h).Check(clean); err != nil {
		return "", err
	}
	return clean, nil
}

// locateFailure turns a run-time locate error into the call's outcome: a
// path the policy refuses once resolved is denied, anything else an error.
func locateFailure(err error) *relay.Outcome {
	var nofs errNoFS
	switch {
	case err == nil:
		return nil
	case errors.As(err, &nofs):
		return relay.Fail(relay.StatusError, "%v", nofs.err)
	case errors.Is(err, policy.ErrPathDenied):
		return relay.Fail(relay.StatusDenied, "%v", err)
	default:
		return relay.Fail(relay.StatusError, "%v", err)
	}
}

func (d *Deps) planRead(ctx context.Context, _ *relay.Call, a *ReadArgs) (*relay.Plan, error) {
	if a.Offset < 0 || a.MaxBytes < 0 {
		return nil, errors.New("offset and max_bytes must not be negative")
	}
	n := d.Limits.DefaultReadBytes
	if a.MaxBytes > 0 {
		n = min(a.MaxBytes, d.Limits.MaxReadBytes)
	}
	return d.plan(ctx, a.Host, a.Path, true, false, func(p string) []string { return []string{"cat", "--", p} },
		func(ctx context.Context, t *target) *relay.Outcome {
			if !t.resolved.Exists {
				return relay.Fail(relay.StatusError, "%s does not exist", t.asked)
			}
			// Read one byte more than asked to tell "truncated" from "EOF".
			data, info, err := t.fsys.ReadAt(ctx, t.resolved.Path, a.Offset, n+1)
			if err != nil {
				return relay.Fail(relay.StatusError, "read %s: %v", t.asked, err)
			}
			more := len(data) > n
			if more {
				data = data[:n]
			}
			res := ReadResult{Path: t.asked, ResolvedPath: t.resolved.Path, Size: info.Size, Offset: a.Offset, ModTime: stamp(info.ModTime), Transport: transportOf(t.fsys)}
			if isText(data) || more && isText(cutRune(data)) {
				if more {
					data = cutRune(data)
				}
				res.Encoding, res.Content = "utf-8", string(data)
			} else {
				res.Encoding, res.Content = "base64", base64.StdEncoding.EncodeToString(data)
			}
			res.Length = len(data)
			res.Truncated = more
			res.NextOffset = a.Offset + int64(len(data))
			return &relay.Outcome{Result: res, Output: data}
		})
}

func (d *Deps) planList(ctx context.Context, _ *relay.Call, a *ListArgs) (*relay.Plan, error) {
	if a.MaxEntries < 0 {
		return nil, errors.New("max_entries must not be negative")
	}
	n := d.Limits.DefaultEntries
	if a.MaxEntries > 0 {
		n = min(a.MaxEntries, d.Limits.MaxEntries)
	}
	return d.plan(ctx, a.Host, a.Path, true, false, func(p string) []string { return []string{"ls", "-la", "--", p} },
		func(ctx context.Context, t *target) *relay.Outcome {
			if !t.resolved.Exists {
				return relay.Fail(relay.StatusError, "%s does not exist", t.asked)
			}
			infos, more, err := t.fsys.ReadDir(ctx, t.resolved.Path, n)
			if err != nil {
				return relay.Fail(relay.StatusError, "list %s: %v", t.asked, err)
			}
			res := ListResult{Path: t.asked, ResolvedPath: t.resolved.Path, Entries: make([]Entry, 0, len(infos)), Truncated: more, Transport: transportOf(t.fsys)}
			for _, in := range infos {
				if in.Unanswered {
					res.Entries = append(res.Entries, Entry{Name: in.Name, Type: in.Type, NotAnswering: true})
					continue
				}
				e := Entry{Name: in.Name, Type: in.Type, Size: in.Size, Mode: octal(in.Mode), ModTime: stamp(in.ModTime)}
				if in.Type == hostfs.TypeSymlink {
					e.LinkTarget, _ = t.fsys.Readlink(ctx, path.Join(t.resolved.Path, in.Name))
				}
				res.Entries = append(res.Entries, e)
			}
			return &relay.Outcome{Result: res}
		})
}

func (d *Deps) planStat(ctx context.Context, _ *relay.Call, a *StatArgs) (*relay.Plan, error) {
	return d.plan(ctx, a.Host, a.Path, true, false, func(p string) []string { return []string{"stat", "--", p} },
		func(_ context.Context, t *target) *relay.Outcome {
			res := StatResult{Path: t.asked, ResolvedPath: t.resolved.Path, Exists: t.resolved.Exists, Symlink: t.link != "", LinkTarget: t.link, Transport: transportOf(t.fsys)}
			if in := t.resolved.Info; t.resolved.Exists {
				res.Type, res.Size, res.Mode, res.UID, res.GID, res.ModTime = in.Type, in.Size, octal(in.Mode), in.UID, in.GID, stamp(in.ModTime)
			}
			return &relay.Outcome{Result: res}
		})
}

var modeRE = regexp.MustCompile(`^0?[0-7]{3}$`)

func (d *Deps) planWrite(ctx context.Context, _ *relay.Call, a *WriteArgs) (*relay.Plan, error) {
	var data []byte
	switch a.Encoding {
	case "", "utf-8", "utf8":
		if !utf8.ValidString(a.Content) {
			return nil, errors.New("content is not valid UTF-8; send binary content with encoding base64")
		}
		data = []byte(a.Content)
	case "base64":
		b, err := base64.StdEncoding.DecodeString(a.Content)
		if err != nil {
			return nil, fmt.Errorf("content is not valid base64: %v", err)
		}
		data = b
	default:
		return nil, fmt.Errorf("encoding %q is not utf-8 or base64", a.Encoding)
	}
	if len(data) > d.Limits.MaxWriteBytes {
		return nil, fmt.Errorf("content is %d bytes; the limit is %d", len(data), d.Limits.MaxWriteBytes)
	}
	var mode *fs.FileMode
	if a.Mode != "" {
		if !modeRE.MatchString(a.Mode) {
			return nil, fmt.Errorf("mode %q is not permission bits in octal like 0644 (setuid, setgid and sticky bits are not accepted)", a.Mode)
		}
		v, _ := strconv.ParseUint(a.Mode, 8, 32)
		m := fs.FileMode(v)
		mode = &m
	}
	return d.plan(ctx, a.Host, a.Path, true, true, func(p string) []string { return []string{"tee", "--", p} },
		func(ctx context.Context, t *target) *relay.Outcome {
			if t.resolved.Exists && t.resolved.Info.Type != hostfs.TypeFile {
				return relay.Fail(relay.StatusError, "%s is a %s, not a regular file", t.asked, t.resolved.Info.Type)
			}
			if t.resolved.Exists && !a.Overwrite {
				return relay.Fail(relay.StatusError, "%s exists; pass overwrite=true to replace it", t.asked)
			}
			w, err := t.fsys.WriteFile(ctx, t.resolved.Path, data, hostfs.WriteOptions{Overwrite: a.Overwrite, Mode: mode})
			if errors.Is(err, fs.ErrExist) {
				return relay.Fail(relay.StatusError, "%s exists; pass overwrite=true to replace it", t.asked)
			}
			if err != nil {
				return relay.Fail(relay.StatusError, "write %s: %v", t.asked, err)
			}
			sum := sha256.Sum256(data)
			return &relay.Outcome{Result: WriteResult{
				Path: t.asked, ResolvedPath: t.resolved.Path, BytesWritten: len(data),
				Created: w.Created, Mode: octal(w.Mode), SHA256: hex.EncodeToString(sum[:]), Transport: transportOf(t.fsys),
			}}
		})
}

// isText reports whether b is UTF-8 without NUL bytes.
func isText(b []byte) bool {
	return utf8.Valid(b) && !strings.ContainsRune(string(b), 0)
}

// cutRune drops a rune split by the read bound from the end of b.
func cutRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

func octal(m fs.FileMode) string { return fmt.Sprintf("%04o", m.Perm()) }

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// ProtectPaths returns warden's own paths for policy.PathRules.Protect,
// each absolute and also in its symlink-resolved spelling, so a state dir
// reached through a link is protected under both names.
func ProtectPaths(paths ...string) []string {
	var out []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		out = append(out, p)
		if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
			out = append(out, real)
		}
	}
	return out
}

package remotefs

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/warden-mcp/warden/internal/shellword"
)

// Exec is the file system of a host reached over its exec channel: each
// operation is one fixed POSIX-sh script run through an ExecFunc, with every
// path quoted by shellword. Paths are clean and absolute; see the package
// doc for what it relies on and where it is weaker than SFTP. It is safe
// for concurrent use.
type Exec struct {
	run ExecFunc
	// opTimeout bounds each command but the one that streams a Write,
	// which its context bounds.
	opTimeout time.Duration
}

// DefaultOpTimeout bounds one metadata command or bounded read (a chunk of
// a stream included).
const DefaultOpTimeout = time.Minute

// NewExec returns the Exec that runs its commands through run.
func NewExec(run ExecFunc) *Exec { return &Exec{run: run, opTimeout: DefaultOpTimeout} }

// statFormat is what every stat prints: raw mode in hex, size, mtime in
// seconds, uid, gid, device and inode. GNU and BusyBox stat agree on these
// directives, and none of them prints a name, so no name can break a line
// apart.
const statFormat = "%f %s %Y %u %g %d %i"

// marker starts the standard output of every script, so that whatever a
// login shell's startup files print before the script runs is skipped.
const marker = "warden-remotefs:1"

// prelude starts every script: messages in English (they are classified by
// their text), then the marker.
const prelude = "LC_ALL=C; export LC_ALL\necho " + marker + "\n"

// Exit codes the scripts use for their own refusals, apart from any a
// command would return.
const (
	codeStat      = 97 // stat of the object failed; stderr says why
	codeType      = 98 // the object is not of the type the operation needs
	codeSeek      = 99 // dd could not skip to the offset
	codeExists    = 95 // the target exists and overwrite was not asked for
	codeCD        = 96 // cd into the directory failed
	codeVanished  = 94 // a listed entry could not be stat'ed
	codeCreate    = 93 // the temporary file could not be created or filled
	codeCommit    = 92 // chmod, ln or mv of the temporary file failed
	codeNoListing = 91 // the directory cannot be read
)

// maxListing bounds the names a directory listing may return.
const maxListing = 4 << 20

// maxArgBytes bounds the arguments of one stat in a listing, well under
// any ARG_MAX.
const maxArgBytes = 32 << 10

func q(s string) string { return shellword.Quote(s) }

// call runs script with the op timeout and returns its standard output
// after the marker, at most max bytes of it.
func (e *Exec) call(ctx context.Context, script string, stdin io.Reader, max int) ([]byte, Exit, error) {
	ctx, cancel := context.WithTimeout(ctx, e.opTimeout)
	defer cancel()
	var buf capBuffer
	buf.max = max
	mw := &markWriter{w: &buf}
	x, err := e.run(ctx, prelude+script, stdin, mw)
	if err != nil {
		return nil, x, err
	}
	if !mw.seen {
		return nil, x, notRun(x)
	}
	if buf.over {
		return nil, x, fmt.Errorf("the remote command printed more than the %d bytes expected", max)
	}
	return buf.b, x, nil
}

// notRun explains a command whose script never started.
func notRun(x Exit) error {
	msg := strings.TrimSpace(string(x.Stderr))
	if msg == "" {
		msg = "exit code " + itoa(x.Code)
	}
	return fmt.Errorf("the remote login shell did not run the command (is it a POSIX-family shell?): %s", msg)
}

// Lstat describes p without following it.
func (e *Exec) Lstat(ctx context.Context, p string) (Info, error) {
	out, x, err := e.call(ctx, "exec stat -c "+q(statFormat)+" -- "+q(p), nil, 256)
	if err == nil && x.Code != 0 {
		err = failure("stat", x)
	}
	if err != nil {
		return Info{}, &fs.PathError{Op: "lstat", Path: p, Err: err}
	}
	info, err := parseStat(path.Base(p), string(bytes.TrimSuffix(out, []byte("\n"))))
	if err != nil {
		return Info{}, &fs.PathError{Op: "lstat", Path: p, Err: err}
	}
	return info, nil
}

// Readlink returns the target of the symlink p.
func (e *Exec) Readlink(ctx context.Context, p string) (string, error) {
	out, x, err := e.call(ctx, "exec readlink -- "+q(p), nil, 8<<10)
	if err == nil && x.Code != 0 {
		if len(bytes.TrimSpace(x.Stderr)) == 0 {
			// readlink says nothing about a path that is not a link.
			err = errors.New("not a symlink")
		} else {
			err = failure("readlink", x)
		}
	}
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: p, Err: err}
	}
	t, ok := bytes.CutSuffix(out, []byte("\n"))
	if !ok || len(t) == 0 {
		return "", &fs.PathError{Op: "readlink", Path: p, Err: fmt.Errorf("unexpected readlink output %q", out)}
	}
	return string(t), nil
}

// readScript checks that p is a regular file, not a symlink, prints its
// stat line and then at most n bytes of it from off.
// The file is opened once, on the shell's standard input: dd with bs=1
// and count=0 moves that shared offset with one lseek, and head -c reads
// from there.
func readScript(p string, off, n int64) string {
	var s strings.Builder
	s.WriteString("p=" + q(p) + "\n")
	s.WriteString("stat -c " + q(statFormat) + " -- \"$p\" || exit " + itoa(codeStat) + "\n")
	s.WriteString("if [ -h \"$p\" ] || [ ! -f \"$p\" ]; then exit " + itoa(codeType) + "; fi\n")
	s.WriteString("{ ")
	if off > 0 {
		s.WriteString("e=$(dd bs=1 skip=" + strconv.FormatInt(off, 10) + " count=0 2>&1) || { printf '%s\\n' \"$e\" >&2; exit " + itoa(codeSeek) + "; }; ")
	}
	s.WriteString("head -c " + strconv.FormatInt(n, 10))
	s.WriteString("; } < \"$p\"")
	return s.String()
}

// readFailure explains a read script that failed: stat's own message, the
// type when p is not a regular file, or what the command said.
func readFailure(p string, statLine []byte, x Exit) error {
	switch x.Code {
	case codeStat:
		return &fs.PathError{Op: "lstat", Path: p, Err: failure("stat", x)}
	case codeType:
		if info, err := parseStat(path.Base(p), string(statLine)); err == nil {
			return notRegular(p, info)
		}
		return &fs.PathError{Op: "read", Path: p, Err: errors.New("not a regular file")}
	case codeSeek:
		return &fs.PathError{Op: "seek", Path: p, Err: failure("dd", x)}
	}
	return &fs.PathError{Op: "read", Path: p, Err: failure("read", x)}
}

func notRegular(p string, info Info) error {
	return &fs.PathError{Op: "read", Path: p, Err: fmt.Errorf("is a %s, not a regular file", typeName(info.mode))}
}

// ReadAt reads at most max bytes of the regular file p from off, and
// describes the file it read. A symlink is refused, not followed.
func (e *Exec) ReadAt(ctx context.Context, p string, off int64, max int) ([]byte, Info, error) {
	if off < 0 || max < 0 {
		return nil, Info{}, &fs.PathError{Op: "read", Path: p, Err: fs.ErrInvalid}
	}
	out, x, err := e.call(ctx, readScript(p, off, int64(max)), nil, max+256)
	if err != nil {
		return nil, Info{}, &fs.PathError{Op: "read", Path: p, Err: err}
	}
	line, data, ok := bytes.Cut(out, []byte("\n"))
	if x.Code != 0 {
		return nil, Info{}, readFailure(p, line, x)
	}
	if !ok {
		return nil, Info{}, &fs.PathError{Op: "read", Path: p, Err: errors.New("no stat line from the remote host")}
	}
	info, err := parseStat(path.Base(p), string(line))
	if err != nil {
		return nil, Info{}, &fs.PathError{Op: "read", Path: p, Err: err}
	}
	if !info.mode.IsRegular() {
		return nil, info, notRegular(p, info)
	}
	return data, info, nil
}

// streamChunk is how much of a file one command of Open reads.
const streamChunk = 1 << 20

// Open streams the regular file p, which it describes; a symlink is
// refused. The stream reads the file in chunks, one bounded read per
// chunk, so that no command stays open while the caller holds the stream
// (a dropbear server takes one command at a time; see SSH); every chunk's
// read checks that p is still the same file — device, inode, size and
// mtime — and the stream fails if it is not, rather than mix two files.
func (e *Exec) Open(ctx context.Context, p string) (io.ReadCloser, Info, error) {
	data, info, err := e.ReadAt(ctx, p, 0, streamChunk)
	if err != nil {
		return nil, Info{}, err
	}
	return &stream{e: e, ctx: ctx, p: p, info: info, buf: data, off: int64(len(data)), eof: len(data) < streamChunk}, info, nil
}

// stream is an open remote file, read a chunk at a time.
type stream struct {
	e    *Exec
	ctx  context.Context
	p    string
	info Info
	buf  []byte
	off  int64
	eof  bool
	err  error
}

func (s *stream) Read(b []byte) (int, error) {
	for len(s.buf) == 0 {
		switch {
		case s.err != nil:
			return 0, s.err
		case s.eof:
			return 0, io.EOF
		}
		data, info, err := s.e.ReadAt(s.ctx, s.p, s.off, streamChunk)
		switch {
		case err != nil:
			s.err = err
		case !info.same(s.info):
			s.err = &fs.PathError{Op: "read", Path: s.p, Err: errors.New("the file changed while it was read")}
		default:
			s.buf, s.off, s.eof = data, s.off+int64(len(data)), len(data) < streamChunk
		}
	}
	n := copy(b, s.buf)
	s.buf = s.buf[n:]
	return n, nil
}

func (s *stream) Close() error {
	s.buf, s.err = nil, fs.ErrClosed
	return nil
}

// ReadDir returns the entries of the directory p, described without
// following them and sorted by name: at most limit of them (all when
// limit <= 0), and whether there were more. A symlink is refused.
//
// One command lists every name, NUL-terminated, from the shell's own globs
// (so no name can be mistaken for two), and for a directory of at most
// inlineStats entries stats them all in the same command. A larger one
// takes a second command that stats the entries returned, in batches;
// and if an entry vanished in between, a third stats them one by one.
func (e *Exec) ReadDir(ctx context.Context, p string, limit int) ([]Info, bool, error) {
	list := "p=" + q(p) + "\n" +
		"stat -c " + q(statFormat) + " -- \"$p\" || exit " + itoa(codeStat) + "\n" +
		"if [ -h \"$p\" ] || [ ! -d \"$p\" ]; then exit " + itoa(codeType) + "; fi\n" +
		"if [ ! -r \"$p\" ] || [ ! -x \"$p\" ]; then echo \"$p: Permission denied\" >&2; exit " + itoa(codeNoListing) + "; fi\n" +
		"cd -- \"$p\" || exit " + itoa(codeCD) + "\n" +
		"n=0\nset --\n" +
		"for f in * .[!.]* ..?*; do\n" +
		"if [ -e \"$f\" ] || [ -h \"$f\" ]; then printf '%s\\0' \"$f\"; n=$((n+1)); if [ \"$n\" -le " + itoa(inlineStats) + " ]; then set -- \"$@\" \"./$f\"; fi; fi\n" +
		"done\n" +
		"if [ \"$n\" -gt 0 ] && [ \"$n\" -le " + itoa(inlineStats) + " ]; then printf '\\0'; stat -c " + q(statFormat) + " -- \"$@\" || exit " + itoa(codeVanished) + "; fi"
	out, x, err := e.call(ctx, list, nil, maxListing)
	if err != nil {
		return nil, false, &fs.PathError{Op: "readdir", Path: p, Err: err}
	}
	line, rest, _ := bytes.Cut(out, []byte("\n"))
	switch x.Code {
	case 0, codeVanished:
	case codeStat:
		return nil, false, &fs.PathError{Op: "lstat", Path: p, Err: failure("stat", x)}
	case codeType:
		msg := "not a directory"
		if info, err := parseStat(path.Base(p), string(line)); err == nil && info.mode&fs.ModeSymlink != 0 {
			msg = "not a directory (symlinks are not followed)"
		}
		return nil, false, &fs.PathError{Op: "readdir", Path: p, Err: errors.New(msg)}
	default:
		return nil, false, &fs.PathError{Op: "readdir", Path: p, Err: failure("list", x)}
	}
	names, stats := parseListing(rest)
	var inline map[string]Info
	if x.Code == 0 && len(stats) == len(names) && len(names) > 0 {
		inline = make(map[string]Info, len(names))
		for i, n := range names {
			info, err := parseStat(n, stats[i])
			if err != nil {
				return nil, false, &fs.PathError{Op: "readdir", Path: p, Err: err}
			}
			inline[n] = info
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	more := limit > 0 && len(names) > limit
	if more {
		names = names[:limit]
	}
	if len(names) == 0 {
		return []Info{}, more, nil
	}
	if inline != nil {
		infos := make([]Info, len(names))
		for i, n := range names {
			infos[i] = inline[n]
		}
		return infos, more, nil
	}
	infos, err := e.statNames(ctx, p, names, false)
	if errors.Is(err, errVanished) {
		infos, err = e.statNames(ctx, p, names, true)
	}
	if err != nil {
		return nil, false, &fs.PathError{Op: "readdir", Path: p, Err: err}
	}
	return infos, more, nil
}

// inlineStats is the most entries a listing stats in its own command.
const inlineStats = 256

// errVanished says a batched stat failed on some entry.
var errVanished = errors.New("an entry vanished while listing")

// statNames stats names in dir: in batches, or one by one when oneByOne,
// printing "-" for an entry that is gone (which is then left out). The
// script goes on stdin, since names can be far longer than a command line
// the server accepts.
func (e *Exec) statNames(ctx context.Context, dir string, names []string, oneByOne bool) ([]Info, error) {
	var s strings.Builder
	s.WriteString("cd -- " + q(dir) + " || exit " + itoa(codeCD) + "\n")
	if oneByOne {
		s.WriteString("for f in")
		for _, n := range names {
			s.WriteString(" " + q("./"+n))
		}
		s.WriteString("; do stat -c " + q(statFormat) + " -- \"$f\" 2>/dev/null || echo -; done\n")
	} else {
		start := "stat -c " + q(statFormat) + " --"
		s.WriteString(start)
		n := 0
		for _, name := range names {
			w := q("./" + name)
			if n > 0 && n+len(w) > maxArgBytes {
				s.WriteString(" || exit " + itoa(codeVanished) + "\n" + start)
				n = 0
			}
			s.WriteString(" " + w)
			n += len(w) + 1
		}
		s.WriteString(" || exit " + itoa(codeVanished) + "\n")
	}
	out, x, err := e.call(ctx, `eval "$(cat)"`, strings.NewReader(s.String()), len(names)*128+1024)
	if err != nil {
		return nil, err
	}
	switch {
	case x.Code == codeVanished && !oneByOne:
		return nil, errVanished
	case x.Code != 0:
		return nil, failure("stat", x)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(names) {
		if !oneByOne {
			return nil, errVanished
		}
		return nil, fmt.Errorf("stat printed %d lines for %d entries", len(lines), len(names))
	}
	infos := make([]Info, 0, len(names))
	for i, l := range lines {
		if l == "-" && oneByOne {
			continue
		}
		info, err := parseStat(names[i], l)
		if err != nil {
			return nil, err
		}
		infos = append(infos, info)
	}
	return infos, nil
}

// parseListing splits a listing: NUL-terminated names, then, when an
// empty name follows them, one stat line per name.
func parseListing(b []byte) (names, stats []string) {
	for len(b) > 0 {
		n, rest, _ := bytes.Cut(b, []byte{0})
		b = rest
		if len(n) == 0 {
			if s := strings.TrimSuffix(string(b), "\n"); s != "" {
				stats = strings.Split(s, "\n")
			}
			break
		}
		names = append(names, string(n))
	}
	return names, stats
}

// WriteOptions say how Write may treat an existing file.
type WriteOptions struct {
	// Overwrite allows replacing an existing regular file; without it an
	// existing file is fs.ErrExist and is left untouched.
	Overwrite bool
	// Mode is the new file's permission bits; nil keeps an existing
	// file's bits, or 0644 for a new file.
	Mode *fs.FileMode
}

// Written describes a completed write.
type Written struct {
	Created bool
	Mode    fs.FileMode
	// Bytes is how many bytes were read from the source and written.
	Bytes int64
}

// Write replaces or creates the regular file p from r, atomically: r
// goes into a temporary file in p's directory, created exclusively with
// mode 0600 and filled a chunk per command (the first creates it, the
// others append after checking it is still a regular file), and a last
// command chmods and commits it once its size shows that every byte
// arrived. No command stays open while r is read, so r may be a stream of
// the same host. An error reading r ends the write, which then wraps that
// error and leaves p untouched.
func (e *Exec) Write(ctx context.Context, p string, r io.Reader, o WriteOptions) (Written, error) {
	dir, name := path.Split(p)
	if name == "" || !path.IsAbs(p) {
		return Written{}, &fs.PathError{Op: "write", Path: p, Err: errors.New("is a directory")}
	}
	tmp := tempName(name)
	vars := "cd -- " + q(dir) + " || exit " + itoa(codeCD) + "\np=" + q("./"+name) + " t=" + q("./"+tmp) + "\n"
	cleanup := func() {
		// The temporary file may exist whenever a fill started; remove it
		// even when the call's context has ended.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_, _ = e.run(cctx, vars+"rm -f -- \"$t\"", nil, io.Discard)
	}
	// Every command that writes first checks that no directory on the way
	// is a symlink: cd would follow one swapped in after the path was
	// resolved.
	vars = dirsOnly(dir) + vars
	buf := make([]byte, streamChunk)
	next := func() ([]byte, bool, error) {
		n, err := io.ReadFull(r, buf)
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return buf[:n], true, nil
		}
		return buf[:n], false, err
	}
	chunk, last, err := next()
	if err != nil {
		return Written{}, &fs.PathError{Op: "write", Path: p, Err: err}
	}

	var fill strings.Builder
	fill.WriteString(vars)
	fill.WriteString("if [ -e \"$p\" ] || [ -h \"$p\" ]; then\n")
	fill.WriteString("stat -c " + q(statFormat) + " -- \"$p\" || exit " + itoa(codeStat) + "\n")
	fill.WriteString("if [ -h \"$p\" ] || [ ! -f \"$p\" ]; then exit " + itoa(codeType) + "; fi\n")
	if !o.Overwrite {
		fill.WriteString("exit " + itoa(codeExists) + "\n")
	}
	fill.WriteString("else\necho none\nfi\n")
	fill.WriteString("umask 077\nset -C\ncat > \"$t\" || exit " + itoa(codeCreate) + "\n")
	fill.WriteString("exec stat -c %s -- \"$t\"")
	out, x, err := e.call(ctx, fill.String(), bytes.NewReader(chunk), 512)
	if err != nil {
		cleanup()
		return Written{}, &fs.PathError{Op: "write", Path: p, Err: err}
	}
	line, rest, _ := bytes.Cut(out, []byte("\n"))
	switch x.Code {
	case 0:
	case codeExists:
		return Written{}, &fs.PathError{Op: "write", Path: p, Err: fs.ErrExist}
	case codeType:
		if info, err := parseStat(name, string(line)); err == nil {
			return Written{}, &fs.PathError{Op: "write", Path: p, Err: fmt.Errorf("is a %s, not a regular file", typeName(info.mode))}
		}
		return Written{}, &fs.PathError{Op: "write", Path: p, Err: errors.New("not a regular file")}
	case codeStat:
		return Written{}, &fs.PathError{Op: "lstat", Path: p, Err: failure("stat", x)}
	case codeCD:
		return Written{}, &fs.PathError{Op: "write", Path: p, Err: failure("cd", x)}
	default:
		cleanup()
		return Written{}, &fs.PathError{Op: "create", Path: path.Join(dir, tmp), Err: failure("write", x)}
	}
	exists := string(line) != "none"
	mode := fs.FileMode(0o644)
	if exists {
		info, err := parseStat(name, string(line))
		if err != nil {
			cleanup()
			return Written{}, &fs.PathError{Op: "write", Path: p, Err: err}
		}
		mode = info.mode.Perm()
	}
	if o.Mode != nil {
		mode = o.Mode.Perm()
	}
	total := int64(len(chunk))
	holds := func(out []byte) error {
		size, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
		if err != nil || size != total {
			return fmt.Errorf("sent %d bytes but the temporary file holds %q; nothing was replaced", total, bytes.TrimSpace(out))
		}
		return nil
	}
	if err := holds(rest); err != nil {
		cleanup()
		return Written{Bytes: total}, &fs.PathError{Op: "write", Path: p, Err: err}
	}
	appendScript := vars + "if [ -h \"$t\" ] || [ ! -f \"$t\" ]; then exit " + itoa(codeType) + "; fi\n" +
		"cat >> \"$t\" || exit " + itoa(codeCreate) + "\nexec stat -c %s -- \"$t\""
	for !last {
		chunk, last, err = next()
		if err != nil {
			cleanup()
			return Written{Bytes: total}, &fs.PathError{Op: "write", Path: p, Err: err}
		}
		if len(chunk) == 0 {
			break
		}
		out, x, err := e.call(ctx, appendScript, bytes.NewReader(chunk), 64)
		if err == nil && x.Code != 0 {
			err = failure("append", x)
		}
		total += int64(len(chunk))
		if err == nil {
			err = holds(out)
		}
		if err != nil {
			cleanup()
			return Written{Bytes: total}, &fs.PathError{Op: "write", Path: p, Err: err}
		}
	}

	var commit strings.Builder
	commit.WriteString(vars)
	commit.WriteString(fmt.Sprintf("chmod %04o \"$t\" || { rm -f -- \"$t\"; exit %d; }\n", mode, codeCommit))
	// A directory (or a link to one) at p would take the file in.
	commit.WriteString("if [ -h \"$p\" ] || { [ -e \"$p\" ] && [ ! -f \"$p\" ]; }; then rm -f -- \"$t\"; exit " + itoa(codeType) + "; fi\n")
	if o.Overwrite {
		commit.WriteString("mv -f -- \"$t\" \"$p\" || { rm -f -- \"$t\"; exit " + itoa(codeCommit) + "; }")
	} else {
		// link(2) never replaces a file. A file system without hard
		// links gets OpenSSH sftp-server's fallback: check, then rename.
		commit.WriteString("if ln -- \"$t\" \"$p\" 2>/dev/null; then exec rm -f -- \"$t\"; fi\n")
		commit.WriteString("if [ -e \"$p\" ] || [ -h \"$p\" ]; then rm -f -- \"$t\"; exit " + itoa(codeExists) + "; fi\n")
		commit.WriteString("mv -f -- \"$t\" \"$p\" || { rm -f -- \"$t\"; exit " + itoa(codeCommit) + "; }")
	}
	_, x, err = e.call(ctx, commit.String(), nil, 256)
	if err != nil {
		cleanup()
		return Written{}, &fs.PathError{Op: "rename", Path: p, Err: err}
	}
	switch x.Code {
	case 0:
	case codeExists:
		return Written{}, &fs.PathError{Op: "rename", Path: p, Err: fs.ErrExist}
	case codeType:
		return Written{}, &fs.PathError{Op: "rename", Path: p, Err: errors.New("is no longer a regular file")}
	default:
		return Written{}, &fs.PathError{Op: "rename", Path: p, Err: failure("commit", x)}
	}
	return Written{Created: !exists, Mode: mode, Bytes: total}, nil
}

// dirsOnly is a script line that fails with codeCD unless every component
// of the absolute directory dir is a directory and not a symlink.
func dirsOnly(dir string) string {
	parts := strings.Split(strings.Trim(dir, "/"), "/")
	if parts[0] == "" {
		return ""
	}
	var s strings.Builder
	s.WriteString("d=; for c in")
	for _, c := range parts {
		s.WriteString(" " + q(c))
	}
	s.WriteString("; do d=\"$d/$c\"; if [ -h \"$d\" ] || [ ! -d \"$d\" ]; then printf '%s\\n' \"$d: Not a directory or a symlink (changed since it was checked?)\" >&2; exit " + itoa(codeCD) + "; fi; done\n")
	return s.String()
}

// parseStat parses one line of statFormat output.
func parseStat(name, line string) (Info, error) {
	f := strings.Split(line, " ")
	bad := func() (Info, error) { return Info{}, fmt.Errorf("unexpected stat output %q", line) }
	if len(f) != 7 {
		return bad()
	}
	raw, err1 := strconv.ParseUint(f[0], 16, 32)
	size, err2 := strconv.ParseInt(f[1], 10, 64)
	mtime, err3 := strconv.ParseInt(f[2], 10, 64)
	uid, err4 := strconv.ParseUint(f[3], 10, 32)
	gid, err5 := strconv.ParseUint(f[4], 10, 32)
	dev, err6 := strconv.ParseUint(f[5], 10, 64)
	ino, err7 := strconv.ParseUint(f[6], 10, 64)
	if err := errors.Join(err1, err2, err3, err4, err5, err6, err7); err != nil || size < 0 {
		return bad()
	}
	return Info{name: name, size: size, mode: modeOf(uint32(raw)), mtime: time.Unix(mtime, 0), uid: int(uid), gid: int(gid), dev: dev, ino: ino}, nil
}

// modeOf maps a raw st_mode to an fs.FileMode.
func modeOf(raw uint32) fs.FileMode {
	m := fs.FileMode(raw & 0o777)
	switch raw & 0o170000 {
	case 0o040000:
		m |= fs.ModeDir
	case 0o120000:
		m |= fs.ModeSymlink
	case 0o010000:
		m |= fs.ModeNamedPipe
	case 0o140000:
		m |= fs.ModeSocket
	case 0o020000:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case 0o060000:
		m |= fs.ModeDevice
	case 0o100000:
	default:
		m |= fs.ModeIrregular
	}
	if raw&0o4000 != 0 {
		m |= fs.ModeSetuid
	}
	if raw&0o2000 != 0 {
		m |= fs.ModeSetgid
	}
	if raw&0o1000 != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// typeName names a file's type as the file tools do.
func typeName(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "file"
	case m.IsDir():
		return "dir"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "other"
}

// tempName is the name of the temporary file a write to name goes through:
// hidden, unique, and within NAME_MAX.
func tempName(name string) string {
	if len(name) > 200 {
		name = name[:200]
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "." + name + ".warden-" + hex.EncodeToString(b[:]) + ".tmp"
}

func itoa(n int) string { return strconv.Itoa(n) }

// capBuffer keeps at most max bytes and notes whether more came; writes
// never fail, so a command is always drained.
type capBuffer struct {
	b    []byte
	max  int
	over bool
}

func (c *capBuffer) Write(p []byte) (int, error) {
	room := c.max - len(c.b)
	if len(p) > room {
		c.over = true
		c.b = append(c.b, p[:max(room, 0)]...)
		return len(p), nil
	}
	c.b = append(c.b, p...)
	return len(p), nil
}

// markWriter drops everything before the first marker line, then passes
// the rest on.
type markWriter struct {
	w    io.Writer
	seen bool
	held []byte
}

func (m *markWriter) Write(p []byte) (int, error) {
	if m.seen {
		return m.w.Write(p)
	}
	m.held = append(m.held, p...)
	line := []byte(marker + "\n")
	i := bytes.Index(m.held, line)
	if i < 0 {
		// Keep only what may be the start of the marker line; a noisy
		// startup file must not grow this without bound.
		if keep := len(line) - 1; len(m.held) > keep {
			m.held = m.held[len(m.held)-keep:]
		}
		return len(p), nil
	}
	m.seen = true
	rest := m.held[i+len(line):]
	m.held = nil
	if len(rest) > 0 {
		if _, err := m.w.Write(rest); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

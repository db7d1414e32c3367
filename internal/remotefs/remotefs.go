// Package remotefs owns how warden reaches the files of a remote host: over
// the SSH server's SFTP subsystem when it has one, and otherwise over the
// exec channel (Exec), running one small, fixed POSIX-sh command per
// operation — what a router with dropbear and BusyBox and no SFTP server
// offers. A Picker chooses between the two per host (or obeys the host's
// files_transport) and remembers the choice.
//
// Exec is weaker than SFTP, and the file tools document where:
//
//   - It relies on the remote userland: a POSIX-family login shell and
//     stat -c (GNU coreutils or BusyBox), dd, head -c, cat, readlink, mv,
//     ln, chmod and rm. A host without them (BSD stat, a csh login) is not
//     served; the error names what failed.
//   - Every check and the use that follows it are separate path lookups on
//     the remote side, often in separate commands: a final component that
//     is a symlink is refused, but one swapped in between the check and the
//     open (or a directory swapped for a symlink) is followed, as with
//     SFTP. Reads test [ -h ] and [ -f ] in the same command right before
//     opening; a FIFO swapped in there blocks that command until its
//     timeout.
//   - A stream (Open, for copy_file and snapshot reads) is a read command
//     per 1 MiB chunk, not one open descriptor: each chunk checks that the
//     file is still the same one (device, inode, size, mtime) and the
//     stream fails if not, so a file that changes while it is copied fails
//     the copy rather than mixing versions.
//   - Every command of a write first checks that no directory on the way
//     to the target is a symlink, which narrows the gap for writes to the
//     moment between that check and its cd.
//   - Writes larger than 1 MiB append to the temporary file a chunk per
//     command, reopening it by name each time (after checking it is still
//     a regular file, not a symlink).
//   - On dropbear a host's commands run one at a time (see SSH).
//   - Without overwrite a write commits with ln (link(2), which never
//     replaces a file), falling back to a check then mv on file systems
//     without hard links (FAT on a USB stick), as OpenSSH's sftp-server
//     does; with overwrite it commits with mv -f (rename(2)). A directory
//     swapped in at the target between the check and mv receives the
//     temporary file instead.
//   - Times are whole seconds (stat %Y), as over SFTP.
//
// What it keeps: paths travel as single-quoted words written by
// internal/shellword (never interpolated), reads are bounded on the remote
// side (head -c), listings are NUL-separated so any name survives, a write
// goes to an exclusively created (noclobber), mode 0600 temporary file in
// the target's directory and is committed only by a last command after
// every byte is known to have arrived, so a cancelled or cut-off write
// never replaces anything.
package remotefs

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"time"
)

// Transport names how a host's files are reached.
type Transport string

// Transports, as hosts[].files_transport spells them.
const (
	// Auto uses SFTP when the server offers it, otherwise Exec.
	Auto Transport = "auto"
	// SFTP uses the SSH server's SFTP subsystem.
	SFTP Transport = "sftp"
	// ExecTransport runs fixed POSIX-sh commands over the exec channel.
	ExecTransport Transport = "exec"
)

// ParseTransport parses a files_transport value; "" means Auto.
func ParseTransport(s string) (Transport, error) {
	switch Transport(s) {
	case "", Auto:
		return Auto, nil
	case SFTP, ExecTransport:
		return Transport(s), nil
	}
	return "", errors.New("files_transport " + s + " is not auto, sftp or exec")
}

// ExecFunc runs script under the remote host's login shell (a POSIX-family
// shell) with stdin as its standard input — nil means none — and its
// standard output copied to stdout. It returns once the command has exited
// or been abandoned (ctx ended, stdin failed to read, stdout failed to
// write); after it returns it neither reads stdin nor writes stdout. A
// command that ran and exited returns a nil error whatever its exit code.
type ExecFunc func(ctx context.Context, script string, stdin io.Reader, stdout io.Writer) (Exit, error)

// Exit is how a command ended.
type Exit struct {
	Code int
	// Stderr is the start of what it wrote to standard error.
	Stderr []byte
}

// maxStderr bounds the standard error kept of a command.
const maxStderr = 4 << 10

// Info describes one file as the remote stat saw it, without following a
// final symlink. It is an fs.FileInfo.
type Info struct {
	name  string
	size  int64
	mode  fs.FileMode
	mtime time.Time
	uid   int
	gid   int
	dev   uint64
	ino   uint64
}

var _ fs.FileInfo = Info{}

// same reports whether i and o describe the same, unchanged file.
func (i Info) same(o Info) bool {
	return i.dev == o.dev && i.ino == o.ino && i.size == o.size && i.mtime.Equal(o.mtime) && i.mode == o.mode
}

// Name is the final component of the path described.
func (i Info) Name() string { return i.name }

// Size is the size in bytes (a symlink's: the length of its target).
func (i Info) Size() int64 { return i.size }

// Mode is the type and permission bits, setuid, setgid and sticky included.
func (i Info) Mode() fs.FileMode { return i.mode }

// ModTime is the modification time, in whole seconds.
func (i Info) ModTime() time.Time { return i.mtime }

// IsDir reports whether the file is a directory.
func (i Info) IsDir() bool { return i.mode.IsDir() }

// Sys returns nil; UID and GID give the owner.
func (i Info) Sys() any { return nil }

// UID is the owner's user id.
func (i Info) UID() int { return i.uid }

// GID is the owner's group id.
func (i Info) GID() int { return i.gid }

// remoteError is a failure the remote command explained on stderr; it
// unwraps to fs.ErrNotExist or fs.ErrPermission when that is what it says.
type remoteError struct {
	msg  string
	kind error
}

func (e *remoteError) Error() string { return e.msg }
func (e *remoteError) Unwrap() error { return e.kind }

// failure explains a command that exited with x: what it wrote on stderr,
// classified, or a description of the exit code. what says what was being
// done, for a command that said nothing.
func failure(what string, x Exit) error {
	msg := strings.TrimSpace(string(x.Stderr))
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		// The last line is the one that explains; earlier ones are
		// usually a login banner or a warning.
		msg = msg[i+1:]
	}
	e := &remoteError{msg: msg}
	switch {
	case strings.Contains(msg, "No such file or directory"), strings.Contains(msg, "Not a directory"):
		// SFTP reports ENOTDIR as "no such file" too: a path through a
		// file does not exist.
		e.kind = fs.ErrNotExist
	case strings.Contains(msg, "Permission denied"), strings.Contains(msg, "Operation not permitted"):
		e.kind = fs.ErrPermission
	case x.Code == 127:
		e.msg = what + ": a command is missing on the remote host (it needs stat, dd, head, cat, readlink, mv, ln, chmod, rm): " + msg
	case msg == "":
		e.msg = what + " failed on the remote host with exit code " + itoa(x.Code)
	}
	return e
}

package hostfs

import (
	"context"
	"io/fs"
)

// Maker is an FS that can also make a directory and remove a file, which
// copying whole trees onto a host needs (snapshot fetches and restores).
// Like every FS method, neither follows a symlink in any component the
// implementation walks itself; where it cannot (SFTP, the exec channel)
// the same gap as for writes applies.
type Maker interface {
	// Mkdir creates the directory p with the permission bits of mode; an
	// existing p, of any type, is fs.ErrExist and is left alone.
	Mkdir(ctx context.Context, p string, mode fs.FileMode) error
	// Remove unlinks p, which must not be a directory; a symlink is
	// removed itself, never its target.
	Remove(ctx context.Context, p string) error
}

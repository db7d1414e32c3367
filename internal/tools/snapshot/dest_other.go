//go:build !linux

package snapshot

import (
	"context"
	"errors"
	"io"
	"io/fs"
)

// errNoDest is every fetch and restore away from Linux: writing without
// following a symlink needs openat2.
var errNoDest = errors.New("fetch and restore need Linux (openat2); this build cannot write copies")

type destDir struct{ path string }

func openDestDir(string) (*destDir, error)  { return nil, errNoDest }
func localOpen(string) (destination, error) { return nil, errNoDest }
func (d *destDir) Close()                   {}
func (d *destDir) child(name string) string { return d.path + "/" + name }
func (d *destDir) sub(string, bool, fs.FileMode) (destination, bool, error) {
	return nil, false, errNoDest
}
func (d *destDir) lstat(string) (destStat, bool, error) { return destStat{}, false, errNoDest }
func (d *destDir) writeFile(string, io.Reader, int64, fs.FileMode, bool) (written, error) {
	return written{}, errNoDest
}
func (d *destDir) keepAside(context.Context, string, string) (string, int64, error) {
	return "", 0, errNoDest
}
func (d *destDir) remove(string) error { return errNoDest }
func (d *destDir) hashFile(context.Context, string) (string, int64, bool, error) {
	return "", 0, false, errNoDest
}

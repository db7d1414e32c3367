package confinetest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// Snapshot describes dir for comparing before and after a write: every
// name with its size, mode and mtime, its inode flags (chattr) and
// extended attributes, and the content of "existing".
func Snapshot(dir string) (string, error) {
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %v %d flags=%s xattrs=%s\n", p, fi.Size(), fi.Mode(), fi.ModTime().UnixNano(), flags(p, fi), xattrs(p))
		return nil
	})
	if err != nil {
		return "", err
	}
	data, _ := os.ReadFile(filepath.Join(dir, "existing"))
	b.Write(data)
	return b.String(), nil
}

// flags reads the inode flags chattr sets, or says why it cannot.
func flags(p string, fi os.FileInfo) string {
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return "-"
	}
	f, err := os.Open(p)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	v, err := unix.IoctlGetUint32(int(f.Fd()), unix.FS_IOC_GETFLAGS)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%#x", v)
}

// xattrs lists the names and values of p's extended attributes.
func xattrs(p string) string {
	buf := make([]byte, 4096)
	n, err := unix.Llistxattr(p, buf)
	if err != nil {
		return err.Error()
	}
	names := strings.Split(strings.TrimRight(string(buf[:n]), "\x00"), "\x00")
	slices.Sort(names)
	var out []string
	for _, name := range names {
		if name == "" {
			continue
		}
		v := make([]byte, 4096)
		m, err := unix.Lgetxattr(p, name, v)
		if err != nil {
			out = append(out, name+"="+err.Error())
			continue
		}
		out = append(out, name+"="+string(v[:m]))
	}
	return strings.Join(out, ",")
}

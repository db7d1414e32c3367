package policy

import (
	"io/fs"
	"syscall"
	"time"
)

// changed returns when the file's inode last changed: its content, mode
// or name. Unlike its modification time (touch -d, cp -p), no program
// can set it back.
func changed(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	}
	return fi.ModTime()
}

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
		return time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec)) // int32 on 32-bit systems
	}
	return fi.ModTime()
}

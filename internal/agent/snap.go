package agent

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// snapHandle reads inside a snapshot root under os.Root, as the snapshot
// engine does on warden's own machine: no name reaches outside the root
// and no final symlink is followed.
func snapHandle(c call) reply {
	root, err := engine.OpenLocalFS(c.Root)
	if err != nil {
		return errReply(err)
	}
	defer root.Close()
	switch c.Op {
	case opSnapLstat:
		fi, err := root.Lstat(c.Path)
		if err != nil {
			return errReply(err)
		}
		return reply{Snap: []snapInfo{toSnapInfo(fi)}}
	case opSnapReadlink:
		l, err := root.ReadLink(c.Path)
		if err != nil {
			return errReply(err)
		}
		return reply{Link: l}
	case opSnapReadDir:
		fis, err := root.ReadDir(c.Path)
		if err != nil {
			return errReply(err)
		}
		out := make([]snapInfo, 0, len(fis))
		for _, fi := range fis {
			out = append(out, toSnapInfo(fi))
		}
		return reply{Snap: out, SnapOK: true}
	case opSnapRead:
		if c.Max <= 0 || c.Max > MaxPayload/2 || c.Off < 0 {
			return reply{Err: fmt.Sprintf("agent: a snapshot read of %d bytes at %d is out of bounds", c.Max, c.Off)}
		}
		rc, err := root.Open(c.Path)
		if err != nil {
			return errReply(err)
		}
		defer rc.Close()
		ra, ok := rc.(io.ReaderAt)
		if !ok {
			return reply{Err: "agent: snapshot file cannot be read at an offset"}
		}
		buf := make([]byte, c.Max)
		n, err := ra.ReadAt(buf, c.Off)
		if err != nil && !errors.Is(err, io.EOF) {
			return errReply(err)
		}
		return reply{Data: buf[:n], EOF: n < c.Max}
	}
	return reply{Err: "agent: unknown snapshot operation"}
}

var _ fs.FileInfo = fileInfo{}

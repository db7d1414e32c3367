package agent

import (
	"errors"
	"io/fs"
	"time"

	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/hostfs"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/session"
)

// Protocol is the version of the protocol; warden refuses an agent that
// speaks another.
const Protocol = 2

// Operations.
const (
	opHello         = "hello"
	opRun           = "run"
	opLstat         = "lstat"
	opReadlink      = "readlink"
	opReadAt        = "read_at"
	opReadDir       = "read_dir"
	opWriteFile     = "write_file"
	opSnapLstat     = "snap_lstat"
	opSnapReadlink  = "snap_readlink"
	opSnapReadDir   = "snap_read_dir"
	opSnapRead      = "snap_read"
	opSessionStart  = "session_start"
	opSessionResize = "session_resize"
	opSessionSignal = "session_signal"
	opSessionClose  = "session_close"
	opReap          = "reap"
	opReadStream    = "read_stream"
	opWriteStream   = "write_stream"
	opMkdir         = "mkdir"
	opRemove        = "remove"
)

// Window is the initial credit of each direction of a session: the most
// bytes either side buffers for it.
const Window = 256 << 10

// call is one request. Level, Tool and Daemons are the admission warden
// decided; the agent confines the call's programs to them.
type call struct {
	Op      string        `json:"op"`
	Level   confine.Level `json:"level,omitempty"`
	Tool    string        `json:"tool,omitempty"`
	Daemons bool          `json:"daemons,omitempty"`

	Run     *runCall     `json:"run,omitempty"`
	Session *sessionCall `json:"session,omitempty"`

	// File and snapshot operations.
	Path      string  `json:"path,omitempty"`
	Root      string  `json:"root,omitempty"`
	Off       int64   `json:"off,omitempty"`
	Max       int     `json:"max,omitempty"`
	Limit     int     `json:"limit,omitempty"`
	Data      []byte  `json:"data,omitempty"`
	Overwrite bool    `json:"overwrite,omitempty"`
	Mode      *uint32 `json:"mode,omitempty"`

	// Session control: the session is the ID of the call that started it.
	SID    uint32 `json:"sid,omitempty"`
	Cols   uint16 `json:"cols,omitempty"`
	Rows   uint16 `json:"rows,omitempty"`
	Signal string `json:"signal,omitempty"`

	// MaxBytes bounds a write stream.
	MaxBytes int64 `json:"max_bytes,omitempty"`

	// PID is a dead agent's, whose leftovers reap kills.
	PID int `json:"pid,omitempty"`
}

type runCall struct {
	Argv     []string      `json:"argv"`
	Env      []string      `json:"env"`
	Dir      string        `json:"dir,omitempty"`
	Stdin    []byte        `json:"stdin,omitempty"`
	Timeout  time.Duration `json:"timeout,omitempty"`
	MaxBytes int           `json:"max_bytes,omitempty"`
}

type sessionCall struct {
	Argv []string `json:"argv"`
	Env  []string `json:"env"`
	Dir  string   `json:"dir,omitempty"`
	Cols uint16   `json:"cols,omitempty"`
	Rows uint16   `json:"rows,omitempty"`
	PTY  bool     `json:"pty,omitempty"`
}

// reply ends a call: an error, or what the operation returns.
type reply struct {
	Err string `json:"err,omitempty"`
	// Kind is the error's class, so errors.Is holds across the wire.
	Kind string `json:"kind,omitempty"`

	Hello  *Hello            `json:"hello,omitempty"`
	Run    *runner.Result    `json:"run,omitempty"`
	Info   *hostfs.Info      `json:"info,omitempty"`
	Infos  []hostfs.Info     `json:"infos,omitempty"`
	More   bool              `json:"more,omitempty"`
	Data   []byte            `json:"data,omitempty"`
	Link   string            `json:"link,omitempty"`
	Write  *hostfs.WriteInfo `json:"write,omitempty"`
	EOF    bool              `json:"eof,omitempty"`
	Snap   []snapInfo        `json:"snap,omitempty"`
	SnapOK bool              `json:"snap_ok,omitempty"`
	Reaped int               `json:"reaped,omitempty"`
	N      int64             `json:"n,omitempty"`
}

// Hello is what an agent says of itself.
type Hello struct {
	Protocol    int            `json:"protocol"`
	Version     string         `json:"version"`
	OS          string         `json:"os"`
	Arch        string         `json:"arch"`
	PID         int            `json:"pid"`
	Confinement confine.Status `json:"confinement"`
}

// exit is how a session's program ended.
type exit struct {
	Code   int    `json:"code"`
	Signal string `json:"signal,omitempty"`
	Err    string `json:"err,omitempty"`
}

// snapInfo is an fs.FileInfo on the wire.
type snapInfo struct {
	Name    string      `json:"name"`
	Size    int64       `json:"size"`
	Mode    fs.FileMode `json:"mode"`
	ModTime time.Time   `json:"mod_time"`
}

// fileInfo makes a snapInfo an fs.FileInfo.
type fileInfo struct{ s snapInfo }

func (f fileInfo) Name() string       { return f.s.Name }
func (f fileInfo) Size() int64        { return f.s.Size }
func (f fileInfo) Mode() fs.FileMode  { return f.s.Mode }
func (f fileInfo) ModTime() time.Time { return f.s.ModTime }
func (f fileInfo) IsDir() bool        { return f.s.Mode.IsDir() }
func (f fileInfo) Sys() any           { return nil }

func toSnapInfo(fi fs.FileInfo) snapInfo {
	return snapInfo{Name: fi.Name(), Size: fi.Size(), Mode: fi.Mode(), ModTime: fi.ModTime()}
}

// Error kinds.
var kinds = map[string]error{
	"not_exist":      fs.ErrNotExist,
	"exist":          fs.ErrExist,
	"permission":     fs.ErrPermission,
	"too_big":        hostfs.ErrTooBig,
	"no_terminal":    session.ErrNoTerminal,
	"unknown_signal": session.ErrUnknownSignal,
}

// kindOf classes err for the wire.
func kindOf(err error) string {
	for k, e := range kinds {
		if errors.Is(err, e) {
			return k
		}
	}
	return ""
}

// RemoteError is an error the agent returned: its text, and the class
// errors.Is matches (fs.ErrNotExist and the like).
type RemoteError struct {
	Msg  string
	kind error
}

func (e *RemoteError) Error() string { return e.Msg }
func (e *RemoteError) Unwrap() error { return e.kind }

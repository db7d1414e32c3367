// Package console owns the operator's side of a running warden: the local
// socket through which `warden approvals` answers the calls waiting for a
// human and `warden watch` follows a live session, and the client those
// commands use.
//
// The choices a reader must know:
//   - Each serving warden listens on its own socket, $STATE_DIR/console/
//     PID.sock: the directory is 0700 and the socket 0600, so only warden's
//     own user (and root) can connect, and every process sharing a state
//     dir is reachable. The client asks every socket there.
//   - The kernel names the operator: the approver recorded in the audit log
//     is the peer's user from SO_PEERCRED, never something the client says,
//     and a peer of another user is refused even if the mode let it in.
//   - Nothing is shown that the audit log would not write: a pending call
//     carries its redacted, bounded arguments and its digest.
//   - Watching is read-only: it follows the session's recording file, so
//     it neither takes output from the agent's reads nor types anything.
//     Typing into a session (takeover.go) is a separate, opt-in act
//     (console.takeover), audited input by input.
package console

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/warden-mcp/warden/internal/approvals"
	"github.com/warden-mcp/warden/internal/gate"
	"github.com/warden-mcp/warden/internal/session"
)

// Dir is the directory of the console sockets in a state dir.
func Dir(stateDir string) string { return filepath.Join(stateDir, "console") }

// SocketPath is the socket of the warden process pid in a state dir.
func SocketPath(stateDir string, pid int) string {
	return filepath.Join(Dir(stateDir), strconv.Itoa(pid)+".sock")
}

// Sessions is what the console needs of the session registry.
type Sessions interface {
	List() []session.Info
}

// Action is one operator action, for the audit log.
type Action struct {
	Operator   string // who, as the console knows them
	Action     string // approve, deny, login, logout, takeover_start, takeover_input, takeover_stop
	Via        string // cli (the socket) or web
	ApprovalID string
	Decision   string // approved, denied, allow
	Status     string // ok, or why the action failed
	Reason     string
	SessionID  string // the session taken over
	Input      string // what the operator typed into it, redacted as the log redacts
}

// Server answers the operator over the socket.
type Server struct {
	Queue    *approvals.Queue
	Sessions Sessions
	// Record audits each operator action; nil records nothing.
	Record func(Action)
	// Poll is how often a watch looks for new output; <= 0 means 100ms.
	Poll time.Duration
	// Takeover lets the operator type into a live session through Input
	// (warden watch --takeover); off, the input endpoints refuse with 403.
	Takeover bool
	Input    func(ctx context.Context, id string, data []byte) error
	// Silent reports whether a session's terminal is at a password prompt
	// (reads a line without echo); nil means never.
	Silent func(id string) bool
	Logger *slog.Logger
}

// Listen creates the socket at path (its directory 0700, the socket 0600)
// and returns its listener. Sockets in the directory left by wardens that
// died (nothing accepts on them) are removed first, path among them; a
// socket at path that a running server still answers on is not taken
// over: Listen fails and says so.
func Listen(path string) (net.Listener, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("console socket: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("console socket: %w", err)
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode().Type() != os.ModeSocket {
			return nil, fmt.Errorf("console socket: %s exists and is not a socket", path)
		}
		if !stale(path) {
			return nil, fmt.Errorf("console socket: %s is in use by a running warden (a process of the same pid sharing this state dir, e.g. in another container); refusing to take it over", path)
		}
	}
	RemoveStale(dir)
	// The directory is 0700, so no one else can reach the socket in the
	// moment before the chmod below.
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("console socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("console socket: %w", err)
	}
	return ln, nil
}

// stale reports whether the socket at path is left over: the kernel
// refuses connections to it because no process listens on it any more.
func stale(path string) bool {
	c, err := net.DialTimeout("unix", path, 2*time.Second)
	if err == nil {
		c.Close()
		return false
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

// RemoveStale removes the sockets in dir that no process listens on any
// more and returns their paths.
func RemoveStale(dir string) []string {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.sock"))
	var gone []string
	for _, p := range paths {
		if fi, err := os.Lstat(p); err != nil || fi.Mode().Type() != os.ModeSocket || !stale(p) {
			continue
		}
		if os.Remove(p) == nil {
			gone = append(gone, p)
		}
	}
	return gone
}

// Serve answers on ln until ctx ends, then removes the socket.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if s.Logger == nil {
		s.Logger = slog.New(slog.DiscardHandler)
	}
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, peerKey{}, peerOf(c))
		},
	}
	stop := context.AfterFunc(ctx, func() { srv.Close() })
	defer stop()
	err := srv.Serve(ln)
	if a, ok := ln.Addr().(*net.UnixAddr); ok {
		os.Remove(a.Name)
	}
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Peer is the process at the other end of the socket, as the kernel names
// it.
type Peer struct {
	UID  int
	PID  int
	Name string // "alice (uid 1000)"
	OK   bool   // the credentials could be read
}

type peerKey struct{}

func peerOf(c net.Conn) Peer {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return Peer{}
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return Peer{}
	}
	var uid, pid int
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		uid, pid, cerr = peerCred(fd)
	}); err != nil || cerr != nil {
		return Peer{}
	}
	name := "uid " + strconv.Itoa(uid)
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil {
		name = u.Username + " (uid " + strconv.Itoa(uid) + ")"
	}
	return Peer{UID: uid, PID: pid, Name: "local:" + name, OK: true}
}

// Handler is the socket's HTTP API:
//
//	GET  /approvals            the pending approvals, oldest first
//	GET  /approvals/{id}       one pending approval
//	POST /approvals/{id}       {"approve": bool, "reason": "…", "digest": "…"}
//	GET  /sessions             the live sessions
//	GET  /sessions/{id}/watch  the session's output as it happens
//	POST /sessions/{id}/takeover  {"on": bool}: start or stop typing into it
//	POST /sessions/{id}/input  {"data": "…"}: type into it (console.takeover)
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /approvals", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.Queue.List(""))
	})
	mux.HandleFunc("GET /approvals/{id}", func(w http.ResponseWriter, r *http.Request) {
		p, ok := s.Queue.Get(r.PathValue("id"))
		if !ok {
			writeError(w, http.StatusNotFound, "no pending approval %q (answered, expired, withdrawn, or never here)", r.PathValue("id"))
			return
		}
		writeJSON(w, http.StatusOK, p)
	})
	mux.HandleFunc("POST /approvals/{id}", s.answer)
	mux.HandleFunc("GET /sessions", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.Sessions.List())
	})
	mux.HandleFunc("GET /sessions/{id}/watch", s.watch)
	mux.HandleFunc("POST /sessions/{id}/takeover", s.takeover)
	mux.HandleFunc("POST /sessions/{id}/input", s.input)
	return s.operatorOnly(mux)
}

// operatorOnly refuses a peer that is not warden's own user or root.
func (s *Server) operatorOnly(next http.Handler) http.Handler {
	me := os.Getuid()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := r.Context().Value(peerKey{}).(Peer)
		if !p.OK || (p.UID != me && p.UID != 0) {
			writeError(w, http.StatusForbidden, "only warden's own user or root may use the console socket")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// AnswerBody is what POST /approvals/{id} takes.
type AnswerBody struct {
	Approve bool   `json:"approve"`
	Reason  string `json:"reason,omitempty"`
	// Digest, when set, must be the digest of the call shown to the
	// operator.
	Digest string `json:"digest,omitempty"`
}

// maxReason bounds an operator's reason, which the agent and the audit log
// see.
const maxReason = 1024

// decodeAnswer reads an AnswerBody strictly: one JSON object of at most 16
// KiB whose keys are exactly approve, reason and digest, each at most once.
// encoding/json alone would take the last of two "approve" keys, and match
// "Approve" or "APPROVE" too, so a body could say one answer to whatever
// reads it first (a proxy, a log) and another to warden.
func decodeAnswer(body io.Reader) (AnswerBody, error) {
	var b AnswerBody
	raw, err := io.ReadAll(io.LimitReader(body, 16<<10+1))
	if err != nil {
		return b, err
	}
	if len(raw) > 16<<10 {
		return b, errors.New("body larger than 16 KiB")
	}
	if err := gate.Unambiguous(raw); err != nil {
		return b, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return b, err
	}
	for k := range m {
		if k != "approve" && k != "reason" && k != "digest" {
			return b, fmt.Errorf("unknown field %q", k)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err = dec.Decode(&b)
	return b, err
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request) {
	b, err := decodeAnswer(r.Body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "answer: %v", err)
		return
	}
	if len(b.Reason) > maxReason {
		writeError(w, http.StatusBadRequest, "answer: reason longer than %d bytes", maxReason)
		return
	}
	p, _ := r.Context().Value(peerKey{}).(Peer)
	id := r.PathValue("id")
	err = s.Queue.Answer(id, approvals.Decision{
		Approve: b.Approve, Approver: p.Name, Mechanism: "console", Reason: b.Reason, Digest: b.Digest,
	})
	if s.Record != nil {
		s.Record(answerAction(p.Name, "cli", id, b, err))
	}
	switch {
	case err == nil:
		verdict := "denied"
		if b.Approve {
			verdict = "approved"
		}
		s.Logger.Info("approval answered", "id", id, "verdict", verdict, "approver", p.Name)
		writeJSON(w, http.StatusOK, map[string]string{"id": id, "verdict": verdict, "approver": p.Name})
	case errors.Is(err, approvals.ErrUnknown):
		writeError(w, http.StatusNotFound, "no pending approval %q (answered, expired, withdrawn, or never here)", id)
	case errors.Is(err, approvals.ErrMismatch):
		writeError(w, http.StatusConflict, "approval %s is for a different call than the digest given; nothing was answered", id)
	case errors.Is(err, approvals.ErrExpired):
		writeError(w, http.StatusGone, "approval %s had expired; the call was refused", id)
	default:
		writeError(w, http.StatusInternalServerError, "answer: %v", err)
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, format string, args ...any) {
	writeJSON(w, code, map[string]string{"error": fmt.Sprintf(format, args...)})
}

// answerAction is the audit of an operator's answer and its outcome.
func answerAction(operator, via, id string, b AnswerBody, err error) Action {
	a := Action{Operator: operator, Action: "deny", Via: via, ApprovalID: id, Decision: "denied", Status: "ok", Reason: b.Reason}
	if b.Approve {
		a.Action, a.Decision = "approve", "approved"
	}
	if err != nil {
		a.Status = "error"
		a.Reason = err.Error()
	}
	return a
}

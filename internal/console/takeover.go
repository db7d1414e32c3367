package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/session"
)

// Taking over a live session: with console.takeover on, an operator starts
// a take-over of a session, types into it, and stops. Every start, every
// input (what was typed, redacted as the audit log redacts) and every stop
// is audited naming the operator. With the flag off the endpoints refuse
// with 403 and nothing reaches the session.

// maxTakeoverInput bounds one input of an operator.
const maxTakeoverInput = 4 << 10

// takeoverOff is the refusal when console.takeover is off.
const takeoverOff = "taking over sessions is off in this warden (console.takeover: false); the console only watches"

// TakeoverBody is what POST /api/sessions/{id}/takeover takes.
type TakeoverBody struct {
	On bool `json:"on"`
}

// InputBody is what POST /api/sessions/{id}/input takes.
type InputBody struct {
	Data string `json:"data"`
}

// takeover starts or stops a take-over of a live session.
func (w *Web) takeover(rw http.ResponseWriter, r *http.Request, a authn) {
	if !w.o.Takeover {
		writeError(rw, http.StatusForbidden, takeoverOff)
		return
	}
	if !stateChange(rw, r, a) {
		return
	}
	var b TakeoverBody
	if !decodeBody(rw, r, &b) {
		return
	}
	id := r.PathValue("id")
	act := Action{Operator: a.operator, Action: "takeover_stop", Via: "web", SessionID: id, Decision: "allow", Status: "ok"}
	if b.On {
		act.Action = "takeover_start"
	}
	if info, ok := w.liveSession(id); !ok || info.Exited {
		act.Decision, act.Status, act.Reason = "denied", "error", "no live session"
		w.o.Record(act)
		writeError(rw, http.StatusNotFound, "no live session %q in this warden", id)
		return
	}
	w.mu.Lock()
	holder, held := w.taken[id]
	switch {
	case b.On && held && holder != a.id:
		w.mu.Unlock()
		act.Decision, act.Status, act.Reason = "denied", "error", "taken over by another operator"
		w.o.Record(act)
		writeError(rw, http.StatusConflict, "session %s is already taken over by another operator login; they must release it first", id)
		return
	case b.On:
		w.pruneTaken()
		w.taken[id] = a.id
	case held && holder == a.id:
		delete(w.taken, id)
	}
	w.mu.Unlock()
	w.o.Record(act)
	w.o.Logger.Info("console "+act.Action, "session", id, "operator", a.operator)
	writeJSON(rw, http.StatusOK, map[string]any{"session": id, "taken_over": b.On})
}

// input types into a session this login has taken over.
func (w *Web) input(rw http.ResponseWriter, r *http.Request, a authn) {
	if !w.o.Takeover || w.o.Input == nil {
		writeError(rw, http.StatusForbidden, takeoverOff)
		return
	}
	if !stateChange(rw, r, a) {
		return
	}
	var b InputBody
	if !decodeBody(rw, r, &b) {
		return
	}
	if b.Data == "" || len(b.Data) > maxTakeoverInput {
		writeError(rw, http.StatusBadRequest, "input: data must be 1 to %d bytes", maxTakeoverInput)
		return
	}
	id := r.PathValue("id")
	w.mu.Lock()
	mine := w.taken[id] == a.id
	w.mu.Unlock()
	if !mine {
		writeError(rw, http.StatusConflict, "take session %s over first (POST /api/sessions/%s/takeover {\"on\": true})", id, id)
		return
	}
	act := Action{Operator: a.operator, Action: "takeover_input", Via: "web", SessionID: id, Decision: "allow", Status: "ok", Input: typedInput(b.Data, w.o.Silent, id)}
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	err := w.o.Input(ctx, id, []byte(b.Data))
	if err != nil {
		act.Status, act.Reason = "error", err.Error()
	}
	w.o.Record(act)
	switch {
	case errors.Is(err, session.ErrNotFound):
		w.mu.Lock()
		delete(w.taken, id)
		w.mu.Unlock()
		writeError(rw, http.StatusNotFound, "no live session %q in this warden", id)
	case err != nil:
		writeError(rw, http.StatusConflict, "input: %v", err)
	default:
		writeJSON(rw, http.StatusOK, map[string]any{"session": id, "bytes": len(b.Data)})
	}
}

// liveSession returns the live session id.
func (w *Web) liveSession(id string) (session.Info, bool) {
	if w.o.Sessions == nil {
		return session.Info{}, false
	}
	return find(w.o.Sessions, id)
}

// decodeBody reads a small JSON body into v, or answers 400.
func decodeBody(rw http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(io.LimitReader(r.Body, 2*maxTakeoverInput+1024))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(rw, http.StatusBadRequest, "%s", strings.TrimSpace(fmt.Sprintf("body: %v", err)))
		return false
	}
	return true
}

// releaseAll ends the take-overs of login id (it logged out), audited.
func (w *Web) releaseAll(id, operator string) {
	w.mu.Lock()
	var ended []string
	for sid, holder := range w.taken {
		if holder == id {
			ended = append(ended, sid)
			delete(w.taken, sid)
		}
	}
	w.mu.Unlock()
	for _, sid := range ended {
		w.o.Record(Action{Operator: operator, Action: "takeover_stop", Via: "web", SessionID: sid, Decision: "allow", Status: "ok", Reason: "logged out"})
	}
}

// takeover records the start or stop of a take-over from the socket.
func (s *Server) takeover(w http.ResponseWriter, r *http.Request) {
	if !s.Takeover {
		writeError(w, http.StatusForbidden, takeoverOff)
		return
	}
	var b TakeoverBody
	if !decodeBody(w, r, &b) {
		return
	}
	p, _ := r.Context().Value(peerKey{}).(Peer)
	id := r.PathValue("id")
	act := Action{Operator: p.Name, Action: "takeover_stop", Via: "cli", SessionID: id, Decision: "allow", Status: "ok"}
	if b.On {
		act.Action = "takeover_start"
		if info, ok := find(s.Sessions, id); !ok || info.Exited {
			act.Decision, act.Status, act.Reason = "denied", "error", "no live session"
			s.record(act)
			writeError(w, http.StatusNotFound, "no live session %q in this warden", id)
			return
		}
	}
	s.record(act)
	s.Logger.Info("console "+act.Action, "session", id, "operator", p.Name)
	writeJSON(w, http.StatusOK, map[string]any{"session": id, "taken_over": b.On})
}

// input types into a session from the socket, audited.
func (s *Server) input(w http.ResponseWriter, r *http.Request) {
	if !s.Takeover || s.Input == nil {
		writeError(w, http.StatusForbidden, takeoverOff)
		return
	}
	var b InputBody
	if !decodeBody(w, r, &b) {
		return
	}
	if b.Data == "" || len(b.Data) > maxTakeoverInput {
		writeError(w, http.StatusBadRequest, "input: data must be 1 to %d bytes", maxTakeoverInput)
		return
	}
	p, _ := r.Context().Value(peerKey{}).(Peer)
	id := r.PathValue("id")
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	in := typedInput(b.Data, s.Silent, id)
	err := s.Input(ctx, id, []byte(b.Data))
	act := Action{Operator: p.Name, Action: "takeover_input", Via: "cli", SessionID: id, Decision: "allow", Status: "ok", Input: in}
	if err != nil {
		act.Status, act.Reason = "error", err.Error()
	}
	s.record(act)
	switch {
	case errors.Is(err, session.ErrNotFound):
		writeError(w, http.StatusNotFound, "no live session %q in this warden", id)
	case err != nil:
		writeError(w, http.StatusConflict, "input: %v", err)
	default:
		writeJSON(w, http.StatusOK, map[string]any{"session": id, "bytes": len(b.Data)})
	}
}

func (s *Server) record(a Action) {
	if s.Record != nil {
		s.Record(a)
	}
}

// pruneTaken forgets take-overs of sessions that are gone; w.mu is held.
func (w *Web) pruneTaken() {
	for sid := range w.taken {
		if info, ok := w.liveSession(sid); !ok || info.Exited {
			delete(w.taken, sid)
		}
	}
}

// typedInput is what an input record keeps of what an operator typed:
// redacted, and when the session's terminal was at a password prompt
// (silent), without the line that answers it — an operator takes a
// session over to type a password the agent must not know.
func typedInput(data string, silent func(string) bool, id string) string {
	if silent == nil || !silent(id) {
		return audit.Redact(data)
	}
	i := strings.IndexAny(data, "\r\n")
	if i < 0 {
		return audit.Redacted
	}
	return audit.Redacted + audit.Redact(data[i:])
}

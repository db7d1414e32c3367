package console

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/warden-mcp/warden/internal/approvals"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/session"
)

//go:embed web
var webFiles embed.FS

// Web is the browser console: the calls waiting for an operator, live over
// server-sent events, with Approve and Deny.
//
// Secure by construction: its own operator credential (never an agent's
// token: one presented is refused with 403), a session cookie that is
// HttpOnly and SameSite=Strict, the Host header checked against the
// listener (no DNS rebinding), every state change refused without a
// same-origin Origin and the session's CSRF token, a CSP that allows only
// the embedded script and style (no inline script), and nothing shown that
// the audit log would not write.
type Web struct {
	o WebOptions

	mu       sync.Mutex
	sessions map[string]webSession
	clients  int
	taken    map[string]string // session id → the login that took it over
}

// WebOptions configures the web console.
type WebOptions struct {
	Queue *approvals.Queue
	// Sessions are the live sessions an operator may watch; nil: none.
	Sessions Sessions
	// Feed is the live feed of finished calls; nil: none.
	Feed *Feed
	// RecordDir holds the session recordings replayed in the browser;
	// empty: none.
	RecordDir string
	// Audit is the audit log searched and verified in the browser.
	Audit AuditLog
	// Record audits each operator action; nil records nothing.
	Record func(Action)
	// Token is the operator credential.
	Token string
	// Identify names the holder of a bearer token that is not Token: an
	// agent's (refused with 403), an operator's (an OAuth token with
	// OperatorScope), or nobody's; nil knows no one.
	Identify func(ctx context.Context, token string) Holder
	// OperatorScope is the OAuth scope Identify looks for, for messages;
	// "" when OAuth is off.
	OperatorScope string
	// Takeover lets an operator type into a live session through Input;
	// off, the input endpoints refuse with 403.
	Takeover bool
	// Input writes to a live session's input.
	Input func(ctx context.Context, id string, data []byte) error
	// Silent reports whether a session's terminal is at a password prompt
	// (reads a line without echo); nil means never.
	Silent func(id string) bool
	// Hosts are the Host header values the console answers to (its
	// listener's host:port, and localhost:port).
	Hosts []string
	// MaxClients bounds the live event streams; <= 0 means 64.
	MaxClients int
	// SessionTTL is how long a login lasts; <= 0 means 12h.
	SessionTTL time.Duration
	Now        func() time.Time
	Logger     *slog.Logger
}

type webSession struct {
	csrf     string
	operator string // who logged in, as audited
	expires  time.Time
}

// Holder is who a bearer token belongs to, as Identify says.
type Holder struct {
	// Name is the identity the token carries ("token:ci", "oauth:alice");
	// "" for a token warden does not know.
	Name string
	// Operator is true for a token that grants the operator scope.
	Operator bool
	// Expires, when set, is when the token does; a login from it ends
	// then.
	Expires time.Time
}

// webOperator is the operator credential's holder.
const webOperator = "web:operator"

// maxWebSessions bounds the logins kept at once.
const maxWebSessions = 64

const cookieName = "warden_console"

// NewWeb returns the web console.
func NewWeb(o WebOptions) *Web {
	if o.MaxClients <= 0 {
		o.MaxClients = 64
	}
	if o.SessionTTL <= 0 {
		o.SessionTTL = 12 * time.Hour
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Identify == nil {
		o.Identify = func(context.Context, string) Holder { return Holder{} }
	}
	if o.Record == nil {
		o.Record = func(Action) {}
	}
	return &Web{o: o, sessions: map[string]webSession{}, taken: map[string]string{}}
}

// csp allows the embedded script and style only.
// 'wasm-unsafe-eval' lets asciinema-player compile its terminal emulator
// (WebAssembly); it does not allow eval.
const csp = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Handler serves the console.
func (w *Web) Handler() http.Handler {
	static, _ := fs.Sub(webFiles, "web")
	files := http.FileServerFS(static)
	mux := http.NewServeMux()
	mux.Handle("GET /{$}", files)
	mux.Handle("GET /app.js", files)
	mux.Handle("GET /app.css", files)
	mux.Handle("GET /vendor/", files)
	mux.HandleFunc("POST /login", w.login)
	mux.HandleFunc("POST /logout", w.logout)
	mux.HandleFunc("GET /api/session", w.authed(func(rw http.ResponseWriter, r *http.Request, s authn) {
		writeJSON(rw, http.StatusOK, map[string]any{"csrf": s.csrf, "operator": s.operator, "takeover": w.o.Takeover})
	}))
	mux.HandleFunc("GET /api/approvals", w.authed(func(rw http.ResponseWriter, r *http.Request, _ authn) {
		writeJSON(rw, http.StatusOK, w.o.Queue.List(""))
	}))
	mux.HandleFunc("POST /api/approvals/{id}", w.authed(w.answer))
	mux.HandleFunc("GET /api/events", w.authed(w.events))
	mux.HandleFunc("GET /api/sessions", w.authed(func(rw http.ResponseWriter, r *http.Request, _ authn) {
		list := []session.Info{}
		if w.o.Sessions != nil {
			for _, s := range w.o.Sessions.List() {
				s.Recording = ""
				list = append(list, s)
			}
		}
		writeJSON(rw, http.StatusOK, list)
	}))
	mux.HandleFunc("GET /api/sessions/{id}/watch", w.authed(w.watch))
	mux.HandleFunc("POST /api/sessions/{id}/takeover", w.authed(w.takeover))
	mux.HandleFunc("POST /api/sessions/{id}/input", w.authed(w.input))
	mux.HandleFunc("GET /api/calls", w.authed(w.calls))
	mux.HandleFunc("GET /api/audit", w.authed(w.auditSearch))
	mux.HandleFunc("GET /api/audit/verify", w.authed(w.auditVerify))
	mux.HandleFunc("GET /api/recordings", w.authed(func(rw http.ResponseWriter, r *http.Request, _ authn) {
		recs := []session.RecordingInfo{}
		if w.o.RecordDir != "" {
			all, err := answered(r.Context(), func() ([]session.RecordingInfo, error) { return session.ListRecordings(w.o.RecordDir) }, nil)
			if errors.Is(err, runner.ErrWaited) {
				writeError(rw, http.StatusServiceUnavailable, "recordings: %v", runner.NotAnswering(w.o.RecordDir, filesWait))
				return
			}
			if err != nil {
				writeError(rw, http.StatusInternalServerError, "recordings: %v", err)
				return
			}
			for _, rec := range all {
				rec.Path = ""
				recs = append(recs, rec)
			}
		}
		writeJSON(rw, http.StatusOK, recs)
	}))
	mux.HandleFunc("GET /api/recordings/{id}", w.authed(func(rw http.ResponseWriter, r *http.Request, _ authn) {
		if w.o.RecordDir == "" {
			writeError(rw, http.StatusNotFound, "no recordings")
			return
		}
		p, err := session.RecordingPath(w.o.RecordDir, r.PathValue("id"))
		if err != nil {
			writeError(rw, http.StatusBadRequest, "%v", err)
			return
		}
		f, err := answered(r.Context(), func() (*os.File, error) { return os.Open(p) }, func(f *os.File) { f.Close() })
		if errors.Is(err, runner.ErrWaited) {
			writeError(rw, http.StatusServiceUnavailable, "recording: %v", runner.NotAnswering(w.o.RecordDir, filesWait))
			return
		}
		if err != nil {
			writeError(rw, http.StatusNotFound, "no recording %q", r.PathValue("id"))
			return
		}
		rw.Header().Set("Content-Type", "application/x-asciicast")
		_, err = io.Copy(rw, stallReader{ctx: r.Context(), r: f})
		if err == nil {
			f.Close()
			return
		}
		// A read may be left waiting in the kernel, and a close waits
		// for it.
		go f.Close()
		if errors.Is(err, runner.ErrWaited) {
			// Part of the recording is sent: end the reply as broken,
			// not as a whole recording.
			w.o.Logger.Warn("console: a recording stopped answering while replayed; reply abandoned", "err", runner.NotAnswering(p, filesWait))
			panic(http.ErrAbortHandler)
		}
	}))
	return w.guard(mux)
}

// filesWait bounds how long the console waits on warden's files — the
// recordings in its state dir, the audit log — which an operator may put
// on a share that stops answering.
const filesWait = 10 * time.Second

// answered is f's result, waiting at most filesWait (then
// runner.ErrWaited); what f returns after that is given to drop (when not
// nil).
func answered[T any](ctx context.Context, f func() (T, error), drop func(T)) (T, error) {
	type result struct {
		v   T
		err error
	}
	r, err := runner.AwaitLate(ctx, nil, filesWait, func() result {
		v, err := f()
		return result{v, err}
	}, func(r result) {
		if r.err == nil && drop != nil {
			drop(r.v)
		}
	})
	if err != nil {
		return r.v, err
	}
	return r.v, r.err
}

// stallReader reads r, each read waiting at most filesWait: a
// recording on a share that stops answering while it is replayed ends the
// reply, where the read left waiting in the kernel would hold it for
// good. A read left waiting reads into its own buffer, never the
// caller's.
type stallReader struct {
	ctx context.Context
	r   io.Reader
}

func (s stallReader) Read(p []byte) (int, error) {
	type result struct {
		b   []byte
		err error
	}
	res, err := runner.Await(s.ctx, nil, filesWait, func() result {
		b := make([]byte, len(p))
		n, err := s.r.Read(b)
		return result{b[:n], err}
	})
	if err != nil {
		return 0, err
	}
	return copy(p, res.b), res.err
}

// guard sets the security headers and refuses a foreign Host.
func (w *Web) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		h := rw.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Frame-Options", "DENY")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin") // no-referrer would make browsers send Origin: null on the login form
		h.Set("Cache-Control", "no-store")
		if !w.knownHost(r.Host) {
			writeError(rw, http.StatusForbidden, "unknown Host %q", r.Host)
			return
		}
		next.ServeHTTP(rw, r)
	})
}

func (w *Web) knownHost(host string) bool {
	for _, h := range w.o.Hosts {
		if strings.EqualFold(h, host) {
			return true
		}
	}
	return false
}

// sameOrigin reports whether r's Origin is the console's own.
func sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	return o != "" && (o == "http://"+r.Host || o == "https://"+r.Host)
}

// authn is how a request was authenticated.
type authn struct {
	bearer   bool
	csrf     string
	id       string // the login's id, or "bearer:" and who
	operator string // who, as audited: "web:operator (login 1a2b3c4d)"
}

// bearerOperator is who presents bearer b, or the status and message
// refusing it: 403 for an agent's token (one without the operator scope),
// 401 for a token warden does not know.
func (w *Web) bearerOperator(r *http.Request, b string) (string, time.Time, int, string) {
	if b != "" && subtle.ConstantTimeCompare([]byte(b), []byte(w.o.Token)) == 1 {
		return webOperator, time.Time{}, 0, ""
	}
	if b == "" {
		return "", time.Time{}, http.StatusUnauthorized, "operator credential required"
	}
	h := w.o.Identify(r.Context(), b)
	switch {
	case h.Operator && h.Name != "":
		return h.Name, h.Expires, 0, ""
	case h.Name != "" && w.o.OperatorScope != "":
		return "", time.Time{}, http.StatusForbidden, fmt.Sprintf("%s holds an agent's token, which cannot operate the console; use the operator credential or a token with the %s scope", h.Name, w.o.OperatorScope)
	case h.Name != "":
		return "", time.Time{}, http.StatusForbidden, h.Name + " holds an agent's token, which cannot operate the console; use the operator credential"
	}
	return "", time.Time{}, http.StatusUnauthorized, "operator credential required"
}

// authed refuses requests without the operator credential: 401 without
// one, 403 for an agent's token.
func (w *Web) authed(h func(http.ResponseWriter, *http.Request, authn)) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		if b, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
			who, _, code, msg := w.bearerOperator(r, b)
			if code != 0 {
				writeError(rw, code, "%s", msg)
				return
			}
			h(rw, r, authn{bearer: true, id: "bearer:" + who, operator: who + " (bearer)"})
			return
		}
		c, err := r.Cookie(cookieName)
		if err != nil {
			writeError(rw, http.StatusUnauthorized, "operator credential required")
			return
		}
		w.mu.Lock()
		s, ok := w.sessions[c.Value]
		if ok && !w.o.Now().Before(s.expires) {
			delete(w.sessions, c.Value)
			ok = false
		}
		w.mu.Unlock()
		if !ok {
			writeError(rw, http.StatusUnauthorized, "operator credential required (the login expired)")
			return
		}
		h(rw, r, authn{csrf: s.csrf, id: c.Value[:8], operator: s.operator + " (login " + c.Value[:8] + ")"})
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// login exchanges the operator credential, typed into the console's own
// form, for a session cookie.
func (w *Web) login(rw http.ResponseWriter, r *http.Request) {
	if !sameOrigin(r) {
		writeError(rw, http.StatusForbidden, "cross-origin login refused")
		return
	}
	r.Body = http.MaxBytesReader(rw, r.Body, 4<<10)
	who, until, code, msg := w.bearerOperator(r, strings.TrimSpace(r.PostFormValue("token")))
	if code == http.StatusUnauthorized {
		msg = "wrong operator credential"
	}
	if code != 0 {
		writeError(rw, code, "%s", msg)
		return
	}
	id := randomHex(32)
	now := w.o.Now()
	expires := now.Add(w.o.SessionTTL)
	if !until.IsZero() && until.Before(expires) {
		expires = until
	}
	w.mu.Lock()
	for k, s := range w.sessions {
		if !now.Before(s.expires) {
			delete(w.sessions, k)
		}
	}
	if len(w.sessions) >= maxWebSessions {
		w.mu.Unlock()
		writeError(rw, http.StatusServiceUnavailable, "too many console logins; log out elsewhere or wait for them to expire")
		return
	}
	w.sessions[id] = webSession{csrf: randomHex(32), operator: who, expires: expires}
	w.mu.Unlock()
	http.SetCookie(rw, &http.Cookie{Name: cookieName, Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, MaxAge: int(expires.Sub(now) / time.Second)})
	w.o.Logger.Info("console login", "session", id[:8], "operator", who)
	w.o.Record(Action{Operator: who + " (login " + id[:8] + ")", Action: "login", Via: "web", Decision: "allow", Status: "ok"})
	http.Redirect(rw, r, "/", http.StatusSeeOther)
}

func (w *Web) logout(rw http.ResponseWriter, r *http.Request) {
	if !sameOrigin(r) {
		writeError(rw, http.StatusForbidden, "cross-origin logout refused")
		return
	}
	if c, err := r.Cookie(cookieName); err == nil {
		w.mu.Lock()
		s, ok := w.sessions[c.Value]
		delete(w.sessions, c.Value)
		w.mu.Unlock()
		if ok && len(c.Value) >= 8 {
			who := s.operator + " (login " + c.Value[:8] + ")"
			w.releaseAll(c.Value[:8], who)
			w.o.Record(Action{Operator: who, Action: "logout", Via: "web", Decision: "allow", Status: "ok"})
		}
	}
	http.SetCookie(rw, &http.Cookie{Name: cookieName, Value: "", Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, MaxAge: -1})
	http.Redirect(rw, r, "/", http.StatusSeeOther)
}

// answer approves or denies a waiting call. A browser's request must be
// same-origin and carry its session's CSRF token.
func (w *Web) answer(rw http.ResponseWriter, r *http.Request, a authn) {
	if !stateChange(rw, r, a) {
		return
	}
	b, err := decodeAnswer(r.Body)
	if err != nil {
		writeError(rw, http.StatusBadRequest, "answer: %v", err)
		return
	}
	if len(b.Reason) > maxReason {
		writeError(rw, http.StatusBadRequest, "answer: reason longer than %d bytes", maxReason)
		return
	}
	approver := a.operator
	id := r.PathValue("id")
	err = w.o.Queue.Answer(id, approvals.Decision{Approve: b.Approve, Approver: approver, Mechanism: "console", Reason: b.Reason, Digest: b.Digest})
	w.o.Record(answerAction(approver, "web", id, b, err))
	switch {
	case err == nil:
		verdict := "denied"
		if b.Approve {
			verdict = "approved"
		}
		w.o.Logger.Info("approval answered", "id", id, "verdict", verdict, "approver", approver)
		writeJSON(rw, http.StatusOK, map[string]string{"id": id, "verdict": verdict, "approver": approver})
	case errors.Is(err, approvals.ErrUnknown):
		writeError(rw, http.StatusNotFound, "no pending approval %q", id)
	case errors.Is(err, approvals.ErrMismatch):
		writeError(rw, http.StatusConflict, "approval %s is for a different call than the one shown; nothing was answered", id)
	case errors.Is(err, approvals.ErrExpired):
		writeError(rw, http.StatusGone, "approval %s had expired; the call was refused", id)
	default:
		writeError(rw, http.StatusInternalServerError, "answer: %v", err)
	}
}

// stateChange refuses a state-changing request from another origin, or a
// browser's without its session's CSRF token, and says whether it may go
// on.
func stateChange(rw http.ResponseWriter, r *http.Request, a authn) bool {
	if (!a.bearer || r.Header.Get("Origin") != "") && !sameOrigin(r) {
		writeError(rw, http.StatusForbidden, "cross-origin request refused")
		return false
	}
	if !a.bearer && subtle.ConstantTimeCompare([]byte(r.Header.Get("X-Warden-CSRF")), []byte(a.csrf)) != 1 {
		writeError(rw, http.StatusForbidden, "missing or wrong CSRF token")
		return false
	}
	return true
}

// events streams the pending approvals: the list at once, then again on
// every change, with a comment every 15 s to keep proxies from closing it.
func (w *Web) events(rw http.ResponseWriter, r *http.Request, _ authn) {
	fl, release, ok := w.stream(rw)
	if !ok {
		return
	}
	defer release()
	changed, stop := w.o.Queue.Subscribe()
	defer stop()
	rw.Header().Set("Content-Type", "text/event-stream")
	rw.WriteHeader(http.StatusOK)
	tick := time.NewTicker(15 * time.Second)
	defer tick.Stop()
	send := func() error {
		b, err := json.Marshal(w.o.Queue.List(""))
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(rw, "event: approvals\ndata: %s\n\n", b); err != nil {
			return err
		}
		fl.Flush()
		return nil
	}
	if send() != nil {
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-changed:
			if send() != nil {
				return
			}
		case <-tick.C:
			if _, err := io.WriteString(rw, ": keepalive\n\n"); err != nil {
				return
			}
			fl.Flush()
		}
	}
}

// stream takes one of the MaxClients live-stream slots for an event
// stream on rw, or answers why it cannot (500 without flushing, 503 when
// the slots are taken). release gives the slot back.
func (w *Web) stream(rw http.ResponseWriter) (fl http.Flusher, release func(), ok bool) {
	fl, ok = rw.(http.Flusher)
	if !ok {
		writeError(rw, http.StatusInternalServerError, "streaming unsupported")
		return nil, nil, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.clients >= w.o.MaxClients {
		writeError(rw, http.StatusServiceUnavailable, "too many live console clients")
		return nil, nil, false
	}
	w.clients++
	return fl, func() {
		w.mu.Lock()
		w.clients--
		w.mu.Unlock()
	}, true
}

// watch streams a live session's output to the browser as server-sent
// events ("output", each a JSON string of plain text: terminal control
// sequences are stripped, so nothing a session prints can act in the
// page), then "end". Read-only, like warden watch.
func (w *Web) watch(rw http.ResponseWriter, r *http.Request, _ authn) {
	if w.o.Sessions == nil {
		writeError(rw, http.StatusNotFound, "no sessions")
		return
	}
	fl, release, ok := w.stream(rw)
	if !ok {
		return
	}
	defer release()
	f, id, ok := openRecording(rw, w.o.Sessions, r.PathValue("id"))
	if !ok {
		return
	}
	defer f.Close()
	rw.Header().Set("Content-Type", "text/event-stream")
	rw.WriteHeader(http.StatusOK)
	var strip session.Stripper
	var buf []byte
	send := func(p []byte) error {
		if len(p) == 0 {
			return nil
		}
		b, _ := json.Marshal(string(p))
		_, err := fmt.Fprintf(rw, "event: output\ndata: %s\n\n", b)
		return err
	}
	err := follow(r.Context(), f, ended(w.o.Sessions, id), 0, func(data []byte) error {
		buf = strip.Append(buf[:0], data)
		return send(buf)
	}, fl.Flush)
	if err == nil {
		_ = send(strip.Flush(buf[:0]))
		_, _ = io.WriteString(rw, "event: end\ndata: {}\n\n")
		fl.Flush()
	}
}

// calls streams the live feed of finished calls: the recent ones, then
// each as it finishes, as "call" events.
func (w *Web) calls(rw http.ResponseWriter, r *http.Request, _ authn) {
	if w.o.Feed == nil {
		writeError(rw, http.StatusNotFound, "no call feed")
		return
	}
	fl, release, ok := w.stream(rw)
	if !ok {
		return
	}
	defer release()
	recent, next, stop := w.o.Feed.Subscribe()
	defer stop()
	rw.Header().Set("Content-Type", "text/event-stream")
	rw.WriteHeader(http.StatusOK)
	send := func(c Call) error {
		b, _ := json.Marshal(c)
		_, err := fmt.Fprintf(rw, "event: call\ndata: %s\n\n", b)
		return err
	}
	for _, c := range recent {
		if send(c) != nil {
			return
		}
	}
	fl.Flush()
	tick := time.NewTicker(15 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case c := <-next:
			if send(c) != nil {
				return
			}
			fl.Flush()
		case <-tick.C:
			if _, err := io.WriteString(rw, ": keepalive\n\n"); err != nil {
				return
			}
			fl.Flush()
		}
	}
}

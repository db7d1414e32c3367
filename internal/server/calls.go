package server

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	segjson "github.com/segmentio/encoding/json"
)

// callTools is what the call lane needs of the relay.
type callTools interface {
	Handler(name string) mcp.ToolHandler
	ReturnsInputRequests() bool
}

// callLane answers tools/call requests read on stdio itself, instead of
// handing them to the SDK's dispatch, which passes each request through
// two more goroutines and decodes its parameters twice more: about
// 0.1 ms of a run_command here. It takes a call only when the SDK would
// answer it by the same steps, and leaves every other message to the SDK:
//
//   - the initialize answer has gone out, for a protocol version before
//     2026-07-28 (whose per-request metadata and input-required results
//     the SDK handles), and the request does not itself name a protocol;
//   - the parameters decode as the SDK decodes them, into name, arguments
//     and _meta only;
//   - the tool is registered, and no approval of this configuration asks
//     the client for input mid-call by a result (see ReturnsInputRequests);
//   - the server is not shutting down.
//
// The handler is the one the SDK calls, given the same request; the answer
// is encoded as the SDK encodes it. Cancellation by notifications/cancelled,
// and the end of the input (which cancels calls in flight and drops their
// answers) work as the SDK's do. Calls still running when the server stops
// are waited for by the relay's drain, as the SDK's are.
// TestCallLaneMatchesSDK holds the two to the same answers.
type callLane struct {
	server *mcp.Server
	tools  callTools
	stop   context.Context // ends when warden shuts down

	idle chan func() // workers waiting for a call; see spawn

	mu       sync.Mutex
	session  *mcp.ServerSession
	inflight map[jsonrpc.ID]context.CancelCauseFunc
	ended    error // why reading or writing stopped; no answer goes out after it
}

func newCallLane(stop context.Context, server *mcp.Server, tools callTools) *callLane {
	return &callLane{server: server, tools: tools, stop: stop, idle: make(chan func()), inflight: map[jsonrpc.ID]context.CancelCauseFunc{}}
}

// workerIdle is how long a worker that answered a call waits for another.
const workerIdle = 30 * time.Second

// spawn runs f on a worker that has answered a call before, when one is
// waiting, or on a new one. A new goroutine starts with a small stack and
// grows it by copying, several times over a call (decoding arguments,
// walking the command's syntax tree): about 60 µs of a run_command here.
// A worker keeps the stack it grew. Workers end after workerIdle without
// a call, or when warden shuts down.
func (l *callLane) spawn(f func()) {
	select {
	case l.idle <- f:
	default:
		go l.work(f)
	}
}

func (l *callLane) work(f func()) {
	t := time.NewTimer(workerIdle)
	defer t.Stop()
	for {
		f()
		t.Reset(workerIdle)
		select {
		case f = <-l.idle:
		case <-t.C:
			return
		case <-l.stop.Done():
			return
		}
	}
}

// firstProtocolWithMeta is the protocol version from which requests carry
// their own protocol and client in _meta.
const firstProtocolWithMeta = "2026-07-28"

// take starts req and reports true, or reports false for the SDK to handle
// it. ctx is the connection's, as the SDK's handlers get it.
func (l *callLane) take(ctx context.Context, c *stdioConn, req *jsonrpc.Request) bool {
	if req.Method != "tools/call" || !req.ID.IsValid() || l.stop.Err() != nil {
		return false
	}
	if v := c.protocol(); v == "" || v >= firstProtocolWithMeta {
		return false
	}
	if l.tools.ReturnsInputRequests() {
		return false
	}
	p, ok := decodeCallParams(req.Params)
	if !ok {
		return false
	}
	h := l.tools.Handler(p.Name)
	if h == nil {
		return false
	}
	ss := l.sessionOf()
	if ss == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended != nil {
		return false
	}
	if l.inflight[req.ID] != nil {
		// The SDK answers nothing to a second call with the id of one in
		// flight, so as not to answer for the first.
		return true
	}
	cctx, cancel := context.WithCancelCause(ctx)
	l.inflight[req.ID] = cancel
	id, creq := req.ID, &mcp.CallToolRequest{Session: ss, Params: p}
	l.spawn(func() { l.run(cctx, cancel, c, id, h, creq) })
	return true
}

// run calls h and writes its answer.
func (l *callLane) run(ctx context.Context, cancel context.CancelCauseFunc, c *stdioConn, id jsonrpc.ID, h mcp.ToolHandler, req *mcp.CallToolRequest) {
	defer cancel(nil)
	resp := answer(ctx, id, h, req)
	l.mu.Lock()
	// The client may reuse the id once it has the answer.
	delete(l.inflight, id)
	ended := l.ended
	l.mu.Unlock()
	if ended != nil {
		return
	}
	if err := c.Write(context.WithoutCancel(ctx), resp); err != nil {
		l.end(err)
	}
}

// answer calls h and encodes its result as the SDK does.
func answer(ctx context.Context, id jsonrpc.ID, h mcp.ToolHandler, req *mcp.CallToolRequest) *jsonrpc.Response {
	res, err := h(ctx, req)
	if err == nil && res == nil {
		err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "tool handler returned no result"}
	}
	if err == nil && res.InputRequests != nil {
		// Not reached: take refuses calls when the relay may return these.
		err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "server bug: input requests on a call answered without the SDK"}
	}
	if err != nil {
		werr := &jsonrpc.Error{Message: err.Error()}
		var coded *jsonrpc.Error
		if errors.As(err, &coded) {
			werr.Code = coded.Code
		}
		return &jsonrpc.Response{ID: id, Error: werr}
	}
	if res.Content == nil {
		r := *res
		r.Content = []mcp.Content{} // the SDK's: no "content": null
		res = &r
	}
	// The message encoding escapes HTML characters in the result, as it
	// does the SDK's, so plain Marshal gives the same bytes on the wire.
	raw, err := json.Marshal(res)
	if err != nil {
		return &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "encoding the result: " + err.Error()}}
	}
	return &jsonrpc.Response{ID: id, Result: raw}
}

// cancel ends the call a notifications/cancelled names, if it is the
// lane's. The notification goes on to the SDK either way.
func (l *callLane) cancel(params json.RawMessage) {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if segjson.Unmarshal(params, &p) != nil {
		return
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if err != nil {
		return
	}
	l.mu.Lock()
	cancel := l.inflight[id]
	l.mu.Unlock()
	if cancel != nil {
		cancel(nil)
	}
}

// end stops answering: calls in flight are cancelled with err as the
// cause, and their answers are not written.
func (l *callLane) end(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended != nil {
		return
	}
	l.ended = err
	for _, cancel := range l.inflight {
		cancel(err)
	}
}

// sessionOf returns the server's one session, once it exists.
func (l *callLane) sessionOf() *mcp.ServerSession {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.session == nil {
		n := 0
		var only *mcp.ServerSession
		for ss := range l.server.Sessions() {
			only = ss
			n++
		}
		if n == 1 {
			l.session = only
		}
	}
	return l.session
}

// decodeCallParams decodes tools/call parameters as the SDK does (field
// names matched exactly, at most maxDepth levels deep), and reports false
// when they are missing or carry anything but name, arguments and _meta,
// or _meta names a protocol version.
func decodeCallParams(raw json.RawMessage) (*mcp.CallToolParamsRaw, bool) {
	if len(raw) == 0 || len(raw) > maxDepth && deeperThan(raw, maxDepth) {
		return nil, false
	}
	var p *mcp.CallToolParamsRaw
	if _, err := segjson.Parse(raw, &p, segjson.DontMatchCaseInsensitiveStructFields|segjson.DisallowUnknownFields); err != nil ||
		p == nil || p.InputResponses != nil || p.RequestState != "" {
		return nil, false
	}
	if _, ok := p.Meta[mcp.MetaKeyProtocolVersion]; ok {
		return nil, false
	}
	return p, true
}

// maxDepth is how deeply the SDK lets JSON nest.
const maxDepth = 1000

// deeperThan reports whether data nests objects and arrays more than max
// levels deep.
func deeperThan(data []byte, max int) bool {
	depth := 0
	inString, escaped := false, false
	for _, b := range data {
		switch {
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case inString:
			inString = b != '"'
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > max {
				return true
			}
		case b == '}' || b == ']':
			depth--
		}
	}
	return false
}

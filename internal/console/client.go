package console

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/warden-mcp/warden/internal/approvals"
	"github.com/warden-mcp/warden/internal/session"
)

// Client talks to every warden serving a state dir, through their console
// sockets.
type Client struct {
	dir string
}

// NewClient returns a client for the wardens of stateDir.
func NewClient(stateDir string) *Client { return &Client{dir: Dir(stateDir)} }

// ErrNoServer means no warden with a console serves the state dir.
var ErrNoServer = errors.New("no running warden serves a console in this state dir (is warden serving with console.enabled?)")

// sockets lists the sockets a live warden answers on.
func (c *Client) sockets() ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(c.dir, "*.sock"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var live []string
	for _, p := range paths {
		if fi, err := os.Lstat(p); err != nil || fi.Mode().Type() != os.ModeSocket {
			continue
		}
		live = append(live, p)
	}
	if len(live) == 0 {
		return nil, ErrNoServer
	}
	return live, nil
}

func httpClient(path string) *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", path)
	}}}
}

// apiError is an answer other than 200.
type apiError struct {
	code int
	msg  string
}

func (e *apiError) Error() string { return e.msg }

// do sends one request to the socket at path and decodes the answer.
func do(ctx context.Context, path, method, target string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://warden"+target, rd)
	if err != nil {
		return err
	}
	resp, err := httpClient(path).Do(req)
	if err != nil {
		return fmt.Errorf("console socket %s: %w", filepath.Base(path), err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(b, &e) != nil || e.Error == "" {
			e.Error = strings.TrimSpace(string(b))
		}
		return &apiError{resp.StatusCode, e.Error}
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// each calls f with every live socket; unreachable sockets (a warden that
// died without removing its own) are skipped. It fails only when none
// answered.
func (c *Client) each(ctx context.Context, f func(path string) error) error {
	paths, err := c.sockets()
	if err != nil {
		return err
	}
	var errs []error
	answered := false
	for _, p := range paths {
		err := f(p)
		var ae *apiError
		switch {
		case err == nil:
			answered = true
		case errors.As(err, &ae):
			answered = true
			errs = append(errs, err)
		default:
			errs = append(errs, err)
		}
	}
	if !answered {
		return fmt.Errorf("%w: %v", ErrNoServer, errors.Join(errs...))
	}
	return nil
}

// List returns the pending approvals of every warden, oldest first.
func (c *Client) List(ctx context.Context) ([]approvals.Pending, error) {
	var all []approvals.Pending
	err := c.each(ctx, func(p string) error {
		var ps []approvals.Pending
		if err := do(ctx, p, "GET", "/approvals", nil, &ps); err != nil {
			return err
		}
		all = append(all, ps...)
		return nil
	})
	sort.SliceStable(all, func(i, j int) bool { return all[i].Created.Before(all[j].Created) })
	return all, err
}

// owner finds the socket whose warden holds the thing at url.
func (c *Client) owner(ctx context.Context, target string, out any) (string, error) {
	paths, err := c.sockets()
	if err != nil {
		return "", err
	}
	var last error = ErrNoServer
	for _, p := range paths {
		err := do(ctx, p, "GET", target, nil, out)
		if err == nil {
			return p, nil
		}
		var ae *apiError
		if errors.As(err, &ae) && ae.code == http.StatusNotFound {
			last = err
			continue
		}
		if !errors.As(err, &ae) {
			continue // a dead socket
		}
		return "", err
	}
	return "", last
}

// Show returns the pending approval id.
func (c *Client) Show(ctx context.Context, id string) (approvals.Pending, error) {
	var p approvals.Pending
	_, err := c.owner(ctx, "/approvals/"+pathID(id), &p)
	return p, err
}

// Result is what a warden says of an answer.
type Result struct {
	ID       string `json:"id"`
	Verdict  string `json:"verdict"`
	Approver string `json:"approver"`
}

// Answer approves or denies the pending approval id. It binds the answer
// to the call the operator is shown: the digest read with the approval is
// sent with the answer, so it cannot reach any other call.
func (c *Client) Answer(ctx context.Context, id string, approve bool, reason string) (approvals.Pending, Result, error) {
	var p approvals.Pending
	sock, err := c.owner(ctx, "/approvals/"+pathID(id), &p)
	if err != nil {
		return p, Result{}, err
	}
	var res Result
	err = do(ctx, sock, "POST", "/approvals/"+pathID(id), AnswerBody{Approve: approve, Reason: reason, Digest: p.Digest}, &res)
	return p, res, err
}

// Sessions lists the live sessions of every warden.
func (c *Client) Sessions(ctx context.Context) ([]session.Info, error) {
	var all []session.Info
	err := c.each(ctx, func(p string) error {
		var ss []session.Info
		if err := do(ctx, p, "GET", "/sessions", nil, &ss); err != nil {
			return err
		}
		all = append(all, ss...)
		return nil
	})
	return all, err
}

// Watch copies session id's output to w, from its start and then as it
// happens, until the session ends or ctx does.
func (c *Client) Watch(ctx context.Context, id string, w io.Writer) error {
	paths, err := c.sockets()
	if err != nil {
		return err
	}
	for _, p := range paths {
		found, err := watchOn(ctx, p, id, w)
		if found || err != nil {
			return err
		}
	}
	return fmt.Errorf("no live session %q", id)
}

// watchOn follows session id on the socket at path; found is false when
// that warden has no such session (or the socket is dead).
func watchOn(ctx context.Context, path, id string, w io.Writer) (found bool, err error) {
	req, err := http.NewRequestWithContext(ctx, "GET", "http://warden/sessions/"+pathID(id)+"/watch", nil)
	if err != nil {
		return false, err
	}
	resp, err := httpClient(path).Do(req)
	if err != nil {
		return false, nil // a dead socket
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return false, nil
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(b, &e) != nil || e.Error == "" {
			e.Error = strings.TrimSpace(string(b))
		}
		return true, errors.New(e.Error)
	}
	_, err = io.Copy(w, resp.Body)
	if ctx.Err() != nil {
		return true, nil
	}
	return true, err
}

// Takeover follows session id like Watch and types what it reads from in
// into the session, each read as one audited input, until in ends; then
// it releases the session and keeps watching until the session or ctx
// ends. The warden must have console.takeover on.
func (c *Client) Takeover(ctx context.Context, id string, in io.Reader, w io.Writer) error {
	paths, err := c.sockets()
	if err != nil {
		return err
	}
	sock := ""
	for _, p := range paths {
		err := do(ctx, p, "POST", "/sessions/"+pathID(id)+"/takeover", TakeoverBody{On: true}, nil)
		var ae *apiError
		if err == nil {
			sock = p
			break
		}
		if errors.As(err, &ae) && ae.code != http.StatusNotFound {
			return err
		}
	}
	if sock == "" {
		return fmt.Errorf("no live session %q", id)
	}
	typed := make(chan error, 1)
	go func() {
		defer func() {
			stop, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = do(stop, sock, "POST", "/sessions/"+pathID(id)+"/takeover", TakeoverBody{On: false}, nil)
		}()
		buf := make([]byte, maxTakeoverInput)
		for {
			n, rerr := in.Read(buf)
			if n > 0 {
				if err := do(ctx, sock, "POST", "/sessions/"+pathID(id)+"/input", InputBody{Data: string(buf[:n])}, nil); err != nil {
					typed <- err
					return
				}
			}
			if rerr != nil {
				typed <- nil
				return
			}
		}
	}()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		if err := <-typed; err != nil {
			cancel(err)
		}
	}()
	_, err = watchOn(ctx, sock, id, w)
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return cause
	}
	return err
}

// pathID keeps an id one path segment.
func pathID(id string) string { return url.PathEscape(id) }

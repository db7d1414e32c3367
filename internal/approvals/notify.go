package approvals

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Webhook is one endpoint told of every pending approval.
type Webhook struct {
	URL string
	// Format is "ntfy" (ntfy's JSON publish body, POSTed to the server's
	// root URL) or "json" (Event).
	Format string
	// Topic is the ntfy topic.
	Topic string
	// Retries bounds the attempts after a failed first one.
	Retries int
	// Timeout bounds each attempt; <= 0 means 10s.
	Timeout time.Duration
}

// NotifyOptions configures a Notifier.
type NotifyOptions struct {
	Hooks []Webhook
	// ConsoleURL is where an operator answers; the link in every
	// notification is ConsoleURL/approvals/ID. Empty: no link.
	ConsoleURL string
	// Backoff is the wait before the first retry, doubled for each next
	// one up to 30s; <= 0 means 1s.
	Backoff time.Duration
	// Queue bounds the notifications waiting to be sent; more are dropped
	// and counted. <= 0 means 256.
	Queue  int
	Client *http.Client
	Logger *slog.Logger
}

// Notifier tells webhooks of pending approvals, off the call's path: a
// call never waits for a webhook. Nothing it sends is secret: the approval
// id only names the call (answering needs the operator's socket or
// console), and the arguments are redacted as the audit log keeps them.
type Notifier struct {
	o       NotifyOptions
	queue   chan Pending
	dropped atomic.Int64
	failed  atomic.Int64
	sent    atomic.Int64

	mu     sync.Mutex
	closed bool
	done   chan struct{}
}

// NewNotifier starts a notifier; Close stops it.
func NewNotifier(o NotifyOptions) *Notifier {
	if o.Backoff <= 0 {
		o.Backoff = time.Second
	}
	if o.Queue <= 0 {
		o.Queue = 256
	}
	if o.Client == nil {
		o.Client = &http.Client{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	n := &Notifier{o: o, queue: make(chan Pending, o.Queue), done: make(chan struct{})}
	go n.run()
	return n
}

// Pending queues a notification of p; it never blocks.
func (n *Notifier) Pending(p Pending) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		n.dropped.Add(1)
		return
	}
	select {
	case n.queue <- p:
	default:
		n.dropped.Add(1)
		n.o.Logger.Warn("approval notification dropped: the queue is full", "id", p.ID)
	}
}

// Stats reports notifications sent, given up on after every retry, and
// dropped because the queue was full.
func (n *Notifier) Stats() (sent, failed, dropped int64) {
	return n.sent.Load(), n.failed.Load(), n.dropped.Load()
}

// Close sends what is queued and stops.
func (n *Notifier) Close() {
	n.mu.Lock()
	if !n.closed {
		n.closed = true
		close(n.queue)
	}
	n.mu.Unlock()
	<-n.done
}

func (n *Notifier) run() {
	defer close(n.done)
	for p := range n.queue {
		for _, h := range n.o.Hooks {
			if n.deliver(h, p) {
				n.sent.Add(1)
			} else {
				n.failed.Add(1)
			}
		}
	}
}

// deliver posts p to h, retrying at most h.Retries times after a network
// error, a 429 or a 5xx, and reports whether h took it.
func (n *Notifier) deliver(h Webhook, p Pending) bool {
	body, err := n.body(h, p)
	if err != nil {
		n.o.Logger.Error("approval notification", "url", redactURL(h.URL), "err", err)
		return false
	}
	wait := n.o.Backoff
	for attempt := 0; ; attempt++ {
		retry, err := n.post(h, body)
		if err == nil {
			return true
		}
		if !retry || attempt >= h.Retries {
			n.o.Logger.Warn("approval notification failed", "url", redactURL(h.URL), "id", p.ID, "attempts", attempt+1, "err", err)
			return false
		}
		time.Sleep(wait)
		wait = min(2*wait, 30*time.Second)
	}
}

// post sends one attempt and reports whether a failure is worth retrying.
func (n *Notifier) post(h Webhook, body []byte) (retry bool, err error) {
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := n.o.Client.Do(req)
	if err != nil {
		return true, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return false, nil
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return true, fmt.Errorf("status %d", resp.StatusCode)
	default:
		return false, fmt.Errorf("status %d", resp.StatusCode)
	}
}

// Event is the body of a json webhook.
type Event struct {
	Event    string          `json:"event"` // "approval_pending"
	ID       string          `json:"id"`
	Tool     string          `json:"tool"`
	Host     string          `json:"host"`
	Tier     int             `json:"tier"`
	Identity string          `json:"identity"`
	Client   string          `json:"client,omitempty"`
	Reason   string          `json:"reason"`
	Args     json.RawMessage `json:"args"`
	Digest   string          `json:"digest"`
	Created  time.Time       `json:"created"`
	Expires  time.Time       `json:"expires"`
	Link     string          `json:"link,omitempty"`
	// Answer is the command that answers the call on the server's host.
	Answer string `json:"answer"`
}

// ntfyMessage is ntfy's JSON publish body.
type ntfyMessage struct {
	Topic    string       `json:"topic"`
	Title    string       `json:"title"`
	Message  string       `json:"message"`
	Tags     []string     `json:"tags,omitempty"`
	Priority int          `json:"priority,omitempty"`
	Click    string       `json:"click,omitempty"`
	Actions  []ntfyAction `json:"actions,omitempty"`
}

type ntfyAction struct {
	Action string `json:"action"`
	Label  string `json:"label"`
	URL    string `json:"url"`
}

// ntfyArgBytes bounds the arguments shown in a phone notification.
const ntfyArgBytes = 300

func (n *Notifier) body(h Webhook, p Pending) ([]byte, error) {
	link := ""
	if n.o.ConsoleURL != "" {
		link = strings.TrimRight(n.o.ConsoleURL, "/") + "/approvals/" + url.PathEscape(p.ID)
	}
	answer := "warden approvals show " + p.ID
	switch h.Format {
	case "ntfy":
		args := string(p.Args)
		if len(args) > ntfyArgBytes {
			args = strings.ToValidUTF8(args[:ntfyArgBytes], "") + "…"
		}
		m := ntfyMessage{
			Topic: h.Topic,
			Title: fmt.Sprintf("warden: approve %s on %s? (tier %d)", p.Tool, p.Host, p.Tier),
			Message: fmt.Sprintf("%s asks to run %s on %s.\nWhy: %s\nArguments: %s\nAnswer: %s (expires %s)",
				p.Identity, p.Tool, p.Host, p.Reason, args, answer, p.Expires.UTC().Format(time.RFC3339)),
			Tags:     []string{"warning", "warden"},
			Priority: 4,
			Click:    link,
		}
		if link != "" {
			m.Actions = []ntfyAction{{Action: "view", Label: "Open the console", URL: link}}
		}
		return json.Marshal(m)
	case "json":
		return json.Marshal(Event{
			Event: "approval_pending", ID: p.ID, Tool: p.Tool, Host: p.Host, Tier: p.Tier,
			Identity: p.Identity, Client: p.Client, Reason: p.Reason, Args: p.Args, Digest: p.Digest,
			Created: p.Created, Expires: p.Expires, Link: link, Answer: answer,
		})
	}
	return nil, fmt.Errorf("unknown webhook format %q", h.Format)
}

// redactURL keeps a URL's query (where tokens tend to live) out of logs.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable url)"
	}
	u.RawQuery, u.User, u.Fragment = "", nil, ""
	return u.String()
}

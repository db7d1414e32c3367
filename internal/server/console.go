package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/warden-mcp/warden/internal/approvals"
	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/console"
	"github.com/warden-mcp/warden/internal/edge"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/session"
	"github.com/warden-mcp/warden/internal/tools/operator"
)

// approvalMechanisms maps tiers 2 and 3 to their mechanisms, defaults
// applied.
func approvalMechanisms(cfg *config.Config) map[policy.Tier][]relay.Mechanism {
	m := map[policy.Tier][]relay.Mechanism{}
	for tier, t := range map[int]policy.Tier{2: policy.TierMutate, 3: policy.TierDestructive} {
		for _, name := range cfg.TierMechanisms(tier) {
			m[t] = append(m[t], relay.Mechanism(name))
		}
	}
	return m
}

// operatorConsole is the queue of calls waiting for an operator and the
// socket operators answer on.
type operatorConsole struct {
	queue    *approvals.Queue
	notifier *notifier
	stop     context.CancelFunc
	done     chan struct{}
}

// notifier is the webhooks told of pending approvals; nil has none.
type notifier struct{ n *approvals.Notifier }

func newNotifier(cfg *config.Config, o Options) *notifier {
	if len(cfg.Approval.Notify) == 0 {
		return nil
	}
	hooks := make([]approvals.Webhook, len(cfg.Approval.Notify))
	for i, w := range cfg.Approval.Notify {
		hooks[i] = approvals.Webhook{URL: w.URL, Format: w.Format, Topic: w.Topic, Retries: w.Retries, Timeout: w.Timeout.D()}
	}
	return &notifier{approvals.NewNotifier(approvals.NotifyOptions{Hooks: hooks, ConsoleURL: cfg.Console.URL, Logger: o.Logger})}
}

func (n *notifier) pending(p approvals.Pending) {
	if n != nil {
		n.n.Pending(p)
	}
}

// close sends what is queued, for at most a few seconds: a dead endpoint
// must not hold up a shutdown.
func (n *notifier) close() {
	if n == nil {
		return
	}
	done := make(chan struct{})
	go func() {
		n.n.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
}

// startConsole registers the operating guide and its resources and, when
// the config uses the console, gives the relay its queue of calls waiting
// for an operator and serves the console socket; it returns nil without a
// console.
func startConsole(r *relay.Relay, cfg *config.Config, o Options, reg *session.Registry, log *audit.Log) (*operatorConsole, error) {
	guide := operator.GuideDeps{Policy: func() operator.Policy { return effectivePolicy(cfg) }, Sessions: reg.List}
	if !cfg.UsesConsole() {
		operator.RegisterGuide(r, guide)
		return nil, nil
	}
	path := console.SocketPath(cfg.StateDir, os.Getpid())
	ln, err := console.Listen(path)
	if err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	n := newNotifier(cfg, o)
	q := approvals.New(approvals.Options{
		Wait:       cfg.Approval.Wait.D(),
		MaxPending: cfg.Approval.MaxPending,
		Now:        o.Now,
		OnPending:  n.pending,
	})
	r.SetConsole(q)
	guide.Pending = q.List
	operator.RegisterGuide(r, guide)
	ctx, stop := context.WithCancel(context.Background())
	c := &operatorConsole{queue: q, notifier: n, stop: stop, done: make(chan struct{})}
	record := operatorRecorder(r, o)
	srv := &console.Server{Queue: q, Sessions: reg, Record: record, Takeover: cfg.Console.Takeover, Input: reg.Send, Silent: reg.Silent, Logger: o.Logger}
	go func() {
		defer close(c.done)
		if err := srv.Serve(ctx, ln); err != nil {
			o.Logger.Error("console socket failed", "path", path, "err", err)
		}
	}()
	o.Logger.Info("console socket serving", "path", path)
	if cfg.Console.Listen != "" {
		if err := c.serveWeb(ctx, cfg, o, reg, r, record); err != nil {
			c.close()
			return nil, err
		}
	}
	return c, nil
}

// ConsoleTokenFile is the operator credential of the web console, in the
// state dir.
const ConsoleTokenFile = "console-token"

// serveWeb serves the web console on console.listen.
func (c *operatorConsole) serveWeb(ctx context.Context, cfg *config.Config, o Options, reg *session.Registry, r *relay.Relay, record func(console.Action)) error {
	var key []byte
	if cfg.Audit.KeyFile != "" {
		var err error
		if key, err = os.ReadFile(cfg.Audit.KeyFile); err != nil {
			return fmt.Errorf("console: audit key: %w", err)
		}
	}
	feed := console.NewFeed()
	r.SetFeed(func(ob relay.Observation) {
		feed.Add(console.Call{
			ID: ob.ID, Time: o.Now(), Tool: ob.Tool, Host: ob.Host, Tier: ob.Tier, Identity: ob.Identity,
			Decision: ob.Decision, Status: ob.Status, DurationMS: ob.Duration.Milliseconds(),
		})
	})
	tok, err := operatorToken(filepath.Join(cfg.StateDir, ConsoleTokenFile))
	if err != nil {
		return fmt.Errorf("console: %w", err)
	}
	ln, err := net.Listen("tcp", cfg.Console.Listen)
	if err != nil {
		return fmt.Errorf("console.listen: %w", err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	scope := ""
	if cfg.HTTP.OAuth.Issuer != "" {
		scope = cfg.Console.OperatorScope
	}
	web := console.NewWeb(console.WebOptions{
		Queue:         c.queue,
		Sessions:      reg,
		Feed:          feed,
		Record:        record,
		RecordDir:     filepath.Join(cfg.StateDir, "recordings"),
		Audit:         console.AuditLog{Files: func() ([]string, error) { return audit.Files(cfg.Audit.Path) }, Key: key},
		Token:         tok,
		Identify:      identifier(cfg, o),
		OperatorScope: scope,
		Takeover:      cfg.Console.Takeover,
		Input:         reg.Send,
		Silent:        reg.Silent,
		Hosts:         []string{ln.Addr().String(), "localhost:" + port},
		Now:           o.Now,
		Logger:        o.Logger,
	})
	srv := &http.Server{Handler: web.Handler(), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			o.Logger.Error("web console failed", "err", err)
		}
	}()
	context.AfterFunc(ctx, func() { srv.Close() })
	o.Logger.Info("web console serving", "url", "http://"+ln.Addr().String()+"/", "credential", filepath.Join(cfg.StateDir, ConsoleTokenFile))
	return nil
}

// identifier names the holders of the bearer tokens warden knows besides
// the operator credential: the agents' default token (WARDEN_TOKEN or the
// state dir's token file), their named tokens (read afresh, so a token
// added or revoked since start counts), and, with http.oauth on, JWT
// access tokens from its issuer, which operate the console when they
// carry console.operator_scope.
func identifier(cfg *config.Config, o Options) func(context.Context, string) console.Holder {
	var oauth *edge.OAuth
	if oc := cfg.HTTP.OAuth; oc.Issuer != "" {
		oauth = edge.NewOAuth(edge.OAuthOptions{Issuer: oc.Issuer, Resource: oc.Resource, JWKSURL: oc.JWKSURL, Skew: oc.ClockSkew.D(), Now: o.Now, Logger: o.Logger})
	}
	same := func(a, b string) bool { return b != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }
	return func(ctx context.Context, tok string) console.Holder {
		if same(tok, cfg.HTTP.Token) {
			return console.Holder{Name: "token:default"}
		}
		if b, err := os.ReadFile(filepath.Join(cfg.StateDir, edge.TokenFile)); err == nil && same(tok, strings.TrimSpace(string(b))) {
			return console.Holder{Name: "token:default"}
		}
		if named, err := edge.LoadTokens(cfg.StateDir); err == nil {
			sum := sha256.Sum256([]byte(tok))
			want := hex.EncodeToString(sum[:])
			for _, t := range named {
				if same(want, t.SHA256) {
					return console.Holder{Name: t.Identity()}
				}
			}
		}
		if oauth != nil {
			if info, err := oauth.Verify(ctx, tok); err == nil {
				return console.Holder{Name: info.UserID, Operator: slices.Contains(info.Scopes, cfg.Console.OperatorScope), Expires: info.Expiration}
			}
		}
		return console.Holder{}
	}
}

// operatorToken reads the operator credential at path, creating it (0600,
// 256 random bits) when missing.
func operatorToken(path string) (string, error) {
	if b, err := os.ReadFile(path); err == nil {
		if t := strings.TrimSpace(string(b)); len(t) >= config.MinTokenLen {
			return t, nil
		}
		return "", fmt.Errorf("%s holds no usable credential (at least %d characters)", path, config.MinTokenLen)
	} else if !os.IsNotExist(err) {
		return "", err
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	t := hex.EncodeToString(b[:])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	if _, err := f.WriteString(t + "\n"); err != nil {
		f.Close()
		return "", err
	}
	return t, f.Close()
}

// close stops the socket and removes it.
func (c *operatorConsole) close() {
	if c == nil {
		return
	}
	c.stop()
	<-c.done
	c.notifier.close()
}

// effectivePolicy is the policy as the agent may read it.
func effectivePolicy(cfg *config.Config) operator.Policy {
	mode, _ := policy.ParseMode(cfg.Mode)
	return operator.Policy{
		Mode: cfg.Mode,
		Tiers: operator.TierRules(
			func(t int) string { return string(policy.Admit(mode, policy.Verdict{Tier: policy.Tier(t)})) },
			cfg.TierMechanisms),
		ToolModes: cfg.Policy.ToolModes,
		Allow:     cfg.Policy.Allow,
		Deny:      cfg.Policy.Deny,
		DenyHosts: cfg.Policy.DenyHosts,
		TokenTTL:  cfg.Approval.TokenTTL.D().String(),
		Wait:      cfg.Approval.Wait.D().String(),
	}
}

// operatorRecorder writes each operator action to the audit log as a record
// of tool "console", its identity the operator.
func operatorRecorder(r *relay.Relay, o Options) func(console.Action) {
	return func(a console.Action) {
		extra := map[string]any{"action": a.Action, "via": a.Via}
		if a.ApprovalID != "" {
			extra["approval_id"] = a.ApprovalID
		}
		if a.SessionID != "" {
			extra["session_id"] = a.SessionID
		}
		if a.Input != "" {
			extra["input"] = a.Input
		}
		if err := r.Record(context.Background(), audit.Record{
			Tool: "console", Identity: a.Operator, Host: "local", Decision: a.Decision,
			Status: a.Status, Reason: a.Reason, Extra: extra,
		}); err != nil {
			o.Logger.Error("audit write failed", "tool", "console", "err", err)
		}
	}
}

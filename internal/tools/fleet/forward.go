package fleet

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// Spec is a parsed forward_open spec. The syntax, like ssh's -L, -R and -D
// with the kind in front:
//
//	L:[bind_addr:]bind_port:dest_host:dest_port   listen here, connect from the host
//	R:[bind_addr:]bind_port:dest_host:dest_port   listen on the host, connect from here
//	D:[bind_addr:]bind_port                       SOCKS5 here, connect from the host
//
// bind_addr defaults to 127.0.0.1 and must be a loopback address unless the
// operator allows others; bind_port 0 picks a free port. IPv6 addresses are
// written in brackets: L:[::1]:0:[fd00::5]:80.
type Spec struct {
	Kind     sshpool.ForwardKind
	BindAddr string
	BindPort int
	DestHost string
	DestPort int
}

// Bind is the listen address, host:port.
func (s Spec) Bind() string { return net.JoinHostPort(s.BindAddr, strconv.Itoa(s.BindPort)) }

// Dest is the destination address, host:port; empty for a dynamic forward.
func (s Spec) Dest() string {
	if s.Kind == sshpool.ForwardDynamic {
		return ""
	}
	return net.JoinHostPort(s.DestHost, strconv.Itoa(s.DestPort))
}

// ParseSpec parses a forward spec; allowNonLoopback admits bind addresses
// other than loopback.
func ParseSpec(s string, allowNonLoopback bool) (Spec, error) {
	fail := func(format string, args ...any) (Spec, error) {
		return Spec{}, fmt.Errorf("spec %q: %s (want L:[bind_addr:]port:dest_host:dest_port, R:… or D:[bind_addr:]port)", s, fmt.Sprintf(format, args...))
	}
	if len(s) > 300 {
		return fail("too long")
	}
	kind, rest, ok := strings.Cut(s, ":")
	var sp Spec
	switch strings.ToUpper(kind) {
	case "L":
		sp.Kind = sshpool.ForwardLocal
	case "R":
		sp.Kind = sshpool.ForwardRemote
	case "D":
		sp.Kind = sshpool.ForwardDynamic
	default:
		ok = false
	}
	if !ok {
		return fail("kind must be L, R or D")
	}
	parts, err := splitSpec(rest)
	if err != nil {
		return fail("%v", err)
	}
	want := 3
	if sp.Kind == sshpool.ForwardDynamic {
		want = 1
	}
	switch len(parts) {
	case want:
		sp.BindAddr = "127.0.0.1"
	case want + 1:
		sp.BindAddr, parts = parts[0], parts[1:]
	default:
		return fail("wrong number of fields")
	}
	if sp.BindPort, err = port(parts[0], true); err != nil {
		return fail("bind port: %v", err)
	}
	if sp.BindAddr == "localhost" {
		sp.BindAddr = "127.0.0.1"
	}
	a, err := netip.ParseAddr(sp.BindAddr)
	if err != nil {
		return fail("bind address %q is not an IP address", sp.BindAddr)
	}
	if !a.IsLoopback() && !allowNonLoopback {
		return fail("bind address %s is not loopback; the operator must set ssh.forwards.allow_non_loopback to listen elsewhere", sp.BindAddr)
	}
	if sp.Kind != sshpool.ForwardDynamic {
		sp.DestHost = parts[1]
		if err := sshpool.ValidateHost(sp.DestHost); err != nil {
			return fail("destination: %v", err)
		}
		if sp.DestPort, err = port(parts[2], false); err != nil {
			return fail("destination port: %v", err)
		}
	}
	return sp, nil
}

// splitSpec splits on ":" outside brackets and removes the brackets.
func splitSpec(s string) ([]string, error) {
	var parts []string
	for s != "" {
		if s[0] == '[' {
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return nil, errors.New("unclosed '['")
			}
			parts = append(parts, s[1:end])
			s = s[end+1:]
			if s != "" && s[0] != ':' {
				return nil, errors.New("':' expected after ']'")
			}
			s = strings.TrimPrefix(s, ":")
			continue
		}
		field, rest, found := strings.Cut(s, ":")
		parts = append(parts, field)
		s = rest
		if found && rest == "" {
			parts = append(parts, "")
		}
	}
	return parts, nil
}

func port(s string, zeroOK bool) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 65535 || (n == 0 && !zeroOK) || strings.HasPrefix(s, "+") {
		return 0, fmt.Errorf("%q is not a port", s)
	}
	return n, nil
}

// ForwardInfo describes an open forward.
type ForwardInfo struct {
	ID     string `json:"forward_id"`
	Host   string `json:"host"`
	Spec   string `json:"spec"`
	Kind   string `json:"kind" jsonschema:"local, remote or dynamic."`
	Listen string `json:"listen" jsonschema:"Where the forward accepts connections: here for local and dynamic, on the host for remote."`
	To     string `json:"to,omitempty" jsonschema:"Where connections are carried; empty for dynamic (each SOCKS request names its own)."`
	Opened string `json:"opened"`
	Owner  string `json:"-"`
}

// ForwardList is forward_list's result.
type ForwardList struct {
	Forwards []ForwardInfo `json:"forwards"`
}

// OpenArgs are forward_open's arguments.
type OpenArgs struct {
	Host string `json:"host" jsonschema:"Inventory host name the forward goes through."`
	Spec string `json:"spec" jsonschema:"L:[bind_addr:]port:dest_host:dest_port (listen here, connect from the host), R:[bind_addr:]port:dest_host:dest_port (listen on the host, connect from here), or D:[bind_addr:]port (SOCKS5 here). bind_addr defaults to 127.0.0.1; port 0 picks a free one."`
}

// CloseArgs are forward_close's arguments.
type CloseArgs struct {
	ID string `json:"forward_id"`
}

// forwards is the registry of open forwards, bounded in number.
type forwards struct {
	max int

	mu       sync.Mutex
	reserved int
	open     map[string]*openForward
}

type openForward struct {
	info ForwardInfo
	fw   *sshpool.Forward
}

func newForwards(max int) *forwards {
	return &forwards{max: max, open: map[string]*openForward{}}
}

// reserve takes a slot; release it if the open fails.
func (fs *forwards) reserve() error {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if len(fs.open)+fs.reserved >= fs.max {
		return fmt.Errorf("%d forwards are open, the limit; close one first (forward_list shows yours)", fs.max)
	}
	fs.reserved++
	return nil
}

func (fs *forwards) unreserve() {
	fs.mu.Lock()
	fs.reserved--
	fs.mu.Unlock()
}

// add turns a reservation into an open forward, dropped when it stops.
func (fs *forwards) add(o *openForward) {
	fs.mu.Lock()
	fs.reserved--
	fs.open[o.info.ID] = o
	fs.mu.Unlock()
	go func() {
		<-o.fw.Done()
		fs.mu.Lock()
		delete(fs.open, o.info.ID)
		fs.mu.Unlock()
	}()
}

func (fs *forwards) list(owner string) []ForwardInfo {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := []ForwardInfo{}
	for _, o := range fs.open {
		if o.info.Owner == owner {
			out = append(out, o.info)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Opened < out[j].Opened || out[i].Opened == out[j].Opened && out[i].ID < out[j].ID
	})
	return out
}

func (fs *forwards) get(owner, id string) (*openForward, bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	o, ok := fs.open[id]
	if !ok || o.info.Owner != owner {
		return nil, false
	}
	return o, true
}

func (fs *forwards) remove(id string) {
	fs.mu.Lock()
	delete(fs.open, id)
	fs.mu.Unlock()
}

func (fs *forwards) closeAll() error {
	fs.mu.Lock()
	all := make([]*openForward, 0, len(fs.open))
	for _, o := range fs.open {
		all = append(all, o)
	}
	fs.open = map[string]*openForward{}
	fs.mu.Unlock()
	var errs []error
	for _, o := range all {
		errs = append(errs, o.fw.Close())
	}
	return errors.Join(errs...)
}

func (f *Fleet) registerForwards(r *relay.Relay) {
	d := &f.d
	relay.Add[OpenArgs, ForwardInfo](r, relay.Spec{
		Name: "forward_open", Title: "Open a port forward", Tier: policy.TierMutate,
		Description: "Open an SSH port forward through an inventory host, like ssh -L, -R or -D. Spec: " +
			"L:[bind_addr:]port:dest_host:dest_port listens here and connects from the host; R:… listens on the host and " +
			"connects from here; D:[bind_addr:]port is a SOCKS5 proxy here that connects from the host. Binds are " +
			"loopback only unless the operator allows more; port 0 picks a free port (see listen). The number of open " +
			"forwards is bounded.",
		Annotations: &mcp.ToolAnnotations{Title: "Open a port forward", DestructiveHint: ptr(false), OpenWorldHint: ptr(true)},
	}, func(ctx context.Context, c *relay.Call, a *OpenArgs) (*relay.Plan, error) {
		sp, err := ParseSpec(a.Spec, d.AllowNonLoopbackForwards)
		if err != nil {
			return nil, err
		}
		if a.Host == "" || a.Host == "local" {
			return nil, errors.New("host must be an inventory host (see hosts_list)")
		}
		t, err := d.Inventory.Resolve(a.Host)
		if err != nil {
			return nil, fmt.Errorf("host %q: %w (see hosts_list)", a.Host, err)
		}
		// The destination is a host the call reaches too, so host deny
		// rules apply to it as to the host itself.
		addrs := addrsOf(t)
		if sp.DestHost != "" {
			addrs = append(addrs, sp.DestHost)
		}
		return &relay.Plan{
			Host:  a.Host,
			Input: policy.Input{Host: a.Host, HostAddrs: addrs},
			Run: func(ctx context.Context) *relay.Outcome {
				if err := f.forwards.reserve(); err != nil {
					return relay.Fail(relay.StatusDenied, "%v", err)
				}
				var fw *sshpool.Forward
				switch sp.Kind {
				case sshpool.ForwardLocal:
					fw, err = d.Pool.LocalForward(ctx, t, sp.Bind(), sp.Dest())
				case sshpool.ForwardRemote:
					fw, err = d.Pool.RemoteForward(ctx, t, sp.Bind(), sp.Dest())
				default:
					fw, err = d.Pool.DynamicForward(ctx, t, sp.Bind(), func(to string) error {
						return destAllowed(r, a.Host, to)
					})
				}
				if err != nil {
					f.forwards.unreserve()
					return relay.Fail(relay.StatusError, "forward %s through %s: %s", a.Spec, a.Host, oneLine(err.Error()))
				}
				info := ForwardInfo{
					ID: "fwd-" + randID(), Host: a.Host, Spec: a.Spec, Kind: string(sp.Kind),
					Listen: fw.Addr().String(), To: fw.To, Opened: d.Now().UTC().Format(time.RFC3339Nano), Owner: c.Identity,
				}
				f.forwards.add(&openForward{info: info, fw: fw})
				return &relay.Outcome{Result: info, Extra: map[string]any{"forward_id": info.ID, "listen": info.Listen}}
			},
		}, nil
	})
	relay.Add[struct{}, ForwardList](r, relay.Spec{
		Name: "forward_list", Title: "List port forwards",
		Description: "List the port forwards you opened that are still open.",
		Annotations: &mcp.ToolAnnotations{Title: "List port forwards", ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, func(ctx context.Context, c *relay.Call, _ *struct{}) (*relay.Plan, error) {
		return &relay.Plan{Run: func(context.Context) *relay.Outcome {
			return &relay.Outcome{Result: ForwardList{Forwards: f.forwards.list(c.Identity)}}
		}}, nil
	})
	relay.Add[CloseArgs, ForwardInfo](r, relay.Spec{
		Name: "forward_close", Title: "Close a port forward", Tier: policy.TierBenign,
		Description: "Close a port forward you opened, cutting the connections it carries.",
		Annotations: &mcp.ToolAnnotations{Title: "Close a port forward", DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
	}, func(ctx context.Context, c *relay.Call, a *CloseArgs) (*relay.Plan, error) {
		o, ok := f.forwards.get(c.Identity, a.ID)
		if !ok {
			return nil, fmt.Errorf("no forward %q (closed, or never opened by you)", a.ID)
		}
		// Closing is always allowed, whatever the host's mode: it only
		// takes away what forward_open gave.
		return &relay.Plan{Run: func(context.Context) *relay.Outcome {
			err := o.fw.Close()
			f.forwards.remove(a.ID)
			if err != nil {
				return relay.Fail(relay.StatusError, "close %s: %v", a.ID, err)
			}
			return &relay.Outcome{Result: o.info, Extra: map[string]any{"forward_id": a.ID}}
		}}, nil
	})
}

func randID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// destAllowed applies the policy in force to a destination a dynamic
// forward is asked for: the host rules that refuse an L: spec's
// destination at admission refuse a SOCKS client's, in any spelling.
func destAllowed(r *relay.Relay, host, to string) error {
	h, _, err := net.SplitHostPort(to)
	if err != nil {
		return err
	}
	if v := r.Evaluate(policy.Input{Host: host, HostAddrs: []string{h}}); v.Denied {
		return errors.New(v.Reason)
	}
	return nil
}

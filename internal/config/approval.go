package config

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Approval chooses the approval mechanisms per tier and bounds the
// approvals that wait for a human.
type Approval struct {
	// Tier2 and Tier3 name one mechanism (token, elicit, console) or a
	// list of human ones (elicit, console), where the first human answer
	// wins. An empty Tier3 is a human mechanism when one is configured
	// (console when console.enabled, else tier2's human mechanisms) and
	// token otherwise; an empty Tier2 is token.
	Tier2    Mechanisms `yaml:"tier2" json:"tier2"`
	Tier3    Mechanisms `yaml:"tier3" json:"tier3"`
	TokenTTL Duration   `yaml:"token_ttl" json:"token_ttl"`
	// Wait is how long a call held for an operator waits before its
	// approval expires, closed.
	Wait Duration `yaml:"wait" json:"wait"`
	// MaxPending bounds the calls waiting for an operator at once.
	MaxPending int `yaml:"max_pending" json:"max_pending"`
	// Notify are the webhooks told when a call starts waiting.
	Notify []Webhook `yaml:"notify" json:"notify"`
}

// Mechanisms is one approval mechanism or a list of them. In YAML it is a
// single name (tier3: console) or a list (tier3: [console, elicit]).
type Mechanisms []string

// UnmarshalYAML accepts a single name or a list of names.
func (m *Mechanisms) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Value == "" {
			*m = nil
			return nil
		}
		*m = Mechanisms{n.Value}
		return nil
	case yaml.SequenceNode:
		var s []string
		if err := n.Decode(&s); err != nil {
			return err
		}
		*m = s
		return nil
	}
	return fmt.Errorf("line %d: must be a mechanism name or a list of them", n.Line)
}

// Approval mechanisms a tier may name.
const (
	MechToken   = "token"
	MechElicit  = "elicit"
	MechConsole = "console"
)

// Webhook is one notification endpoint for pending approvals.
type Webhook struct {
	// URL receives a POST per pending approval (http or https).
	URL string `yaml:"url" json:"url"`
	// Format is ntfy (ntfy's JSON publish body) or json (warden's own).
	Format string `yaml:"format" json:"format"`
	// Topic is the ntfy topic; required for format ntfy.
	Topic string `yaml:"topic" json:"topic"`
	// Retries bounds the attempts after the first failed one.
	Retries int `yaml:"retries" json:"retries"`
	// Timeout bounds each attempt.
	Timeout Duration `yaml:"timeout" json:"timeout"`
}

// Console configures the operator side: the admin socket in the state dir
// that warden approvals and warden watch talk to.
type Console struct {
	// Enabled serves the admin socket and makes console the default
	// mechanism of tier 3; Listen implies it.
	Enabled bool `yaml:"enabled" json:"enabled"`
	// URL is where an operator answers, linked from notifications.
	URL string `yaml:"url" json:"url"`
	// Listen, when set, serves the web console on this loopback
	// host:port, behind the operator credential in
	// $WARDEN_STATE_DIR/console-token.
	Listen string `yaml:"listen" json:"listen"`
	// Takeover lets an operator type into a live session from the web
	// console (and warden watch --takeover); every take-over is audited.
	Takeover bool `yaml:"takeover" json:"takeover"`
	// OperatorScope is the OAuth scope that makes a bearer token from
	// http.oauth.issuer an operator's on the web console.
	OperatorScope string `yaml:"operator_scope" json:"operator_scope"`
}

// Approval limits.
const (
	MaxApprovalWait    = 24 * time.Hour
	MaxApprovalPending = 4096
	MaxWebhookRetries  = 10
)

// TierMechanisms returns the mechanisms of tier 2 or 3 after defaults: an
// empty tier 3 takes a human mechanism when one is configured.
func (c *Config) TierMechanisms(tier int) []string {
	switch tier {
	case 2:
		if len(c.Approval.Tier2) == 0 {
			return []string{MechToken}
		}
		return c.Approval.Tier2
	case 3:
		if len(c.Approval.Tier3) > 0 {
			return c.Approval.Tier3
		}
		if c.Console.Enabled || c.Console.Listen != "" {
			return []string{MechConsole}
		}
		var human []string
		for _, m := range c.Approval.Tier2 {
			if m != MechToken {
				human = append(human, m)
			}
		}
		if len(human) > 0 {
			return human
		}
		return []string{MechToken}
	}
	return nil
}

// UsesConsole reports whether the console runs: enabled, or named by a
// tier.
func (c *Config) UsesConsole() bool {
	return c.Console.Enabled || c.Console.Listen != "" || slices.Contains(c.TierMechanisms(2), MechConsole) || slices.Contains(c.TierMechanisms(3), MechConsole)
}

// validateApproval checks the approval and console keys.
func (c *Config) validateApproval(bad func(key, format string, args ...any)) {
	for key, mechs := range map[string]Mechanisms{"approval.tier2": c.Approval.Tier2, "approval.tier3": c.Approval.Tier3} {
		seen := map[string]bool{}
		for _, m := range mechs {
			switch m {
			case MechToken, MechElicit, MechConsole:
			default:
				bad(key, "%q is not one of token, elicit, console", m)
				continue
			}
			if seen[m] {
				bad(key, "%q is listed twice", m)
			}
			seen[m] = true
		}
		if seen[MechToken] && len(mechs) > 1 {
			bad(key, "token cannot be listed with elicit or console: the agent holds the token, so it is not a human answer; list only human mechanisms, or token alone")
		}
	}
	if c.Approval.TokenTTL <= 0 || c.Approval.TokenTTL.D() > time.Hour {
		bad("approval.token_ttl", "must be between 1s and 1h")
	}
	if c.Approval.Wait < Duration(time.Second) || c.Approval.Wait.D() > MaxApprovalWait {
		bad("approval.wait", "must be between 1s and %s", MaxApprovalWait)
	}
	if c.Approval.MaxPending < 1 || c.Approval.MaxPending > MaxApprovalPending {
		bad("approval.max_pending", "must be between 1 and %d", MaxApprovalPending)
	}
	for i, w := range c.Approval.Notify {
		key := fmt.Sprintf("approval.notify[%d]", i)
		if u, err := url.Parse(w.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad(key+".url", "%q is not an http or https URL", w.URL)
		} else if u.User != nil {
			bad(key+".url", "must not carry a user or password: it would be logged")
		}
		switch w.Format {
		case "ntfy":
			if w.Topic == "" {
				bad(key+".topic", "format ntfy needs a topic")
			}
		case "json":
		default:
			bad(key+".format", "%q is not one of ntfy, json", w.Format)
		}
		if w.Retries < 0 || w.Retries > MaxWebhookRetries {
			bad(key+".retries", "must be between 0 and %d", MaxWebhookRetries)
		}
		if w.Timeout < 0 || w.Timeout.D() > time.Minute {
			bad(key+".timeout", "must be between 0 (10s) and 1m")
		}
	}
	if c.Console.Listen != "" {
		host, port, err := net.SplitHostPort(c.Console.Listen)
		if p, perr := strconv.Atoi(port); err != nil || perr != nil || p < 0 || p > 65535 {
			bad("console.listen", "%q is not host:port", c.Console.Listen)
		} else if !IsLoopbackHost(host) {
			bad("console.listen", "%q is not a loopback address: the web console is for this machine (reach it over SSH or a proxy that authenticates)", c.Console.Listen)
		}
	}
	switch c.Console.OperatorScope {
	case "":
		bad("console.operator_scope", "must name an OAuth scope (default warden:operator)")
	case "warden:read", "warden:operate", "warden:admin":
		bad("console.operator_scope", "%q is an agent's scope: every agent token holding it would operate the console; use a scope of its own such as warden:operator", c.Console.OperatorScope)
	default:
		if strings.ContainsAny(c.Console.OperatorScope, " \t\"\\") {
			bad("console.operator_scope", "%q is not one OAuth scope (no spaces, quotes or backslashes)", c.Console.OperatorScope)
		}
	}
	if c.Console.URL != "" {
		if u, err := url.Parse(c.Console.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("console.url", "%q is not an http or https URL", c.Console.URL)
		}
	}
}

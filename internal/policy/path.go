package policy

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
)

// Path policy: which absolute paths the file tools may touch. It is pure
// (no filesystem access): the caller checks the lexically cleaned path the
// agent named, resolves every symlink, and checks the resolved path again,
// then opens that exact path without following links. Containment is
// component-wise, so an allow root /srv/data never admits /srv/data_evil.

// MaxPathBytes bounds a path argument.
const MaxPathBytes = 4096

// DefaultDenyPaths are denied unless PathRules.ReplaceDefaults is set:
// credentials, raw memory and devices. A "*" matches within one component.
var DefaultDenyPaths = []string{
	"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
	"/etc/security/opasswd", "/etc/sudoers", "/etc/sudoers.d",
	"/etc/ssh/ssh_host_*_key",
	"/root/.ssh", "/home/*/.ssh/id_*", "/home/*/.gnupg",
	"/proc/*/environ", "/proc/*/task/*/environ", "/proc/*/mem", "/proc/*/task/*/mem",
	"/proc/kcore", "/proc/kmem", "/proc/kallsyms",
	"/dev", "/sys",
}

// PathRules configure a PathPolicy.
type PathRules struct {
	// Allow are absolute roots; a path must lie at or under one. Empty
	// means "/".
	Allow []string
	// Deny are absolute path patterns added to DefaultDenyPaths; a path at
	// or under a match is denied. "*" matches within one component.
	Deny []string
	// ReplaceDefaults makes Deny replace DefaultDenyPaths instead of adding
	// to them. Protect still applies.
	ReplaceDefaults bool
	// Home is the user's home directory; its .ssh private keys and .gnupg
	// are denied with the defaults.
	Home string
	// Protect are warden's own paths (state dir, config file, audit log,
	// token file). They are always denied, whatever the other rules say,
	// as the hardware watchdog's device is.
	Protect []string
	// ProtectPatterns are warden's own files named by pattern ("*"
	// within one component), such as an audit log's rotated files; they
	// are denied as Protect is.
	ProtectPatterns []string
}

// PathPolicy is a compiled set of path rules. It is immutable and safe for
// concurrent use.
type PathPolicy struct {
	allow []string
	deny  []pathPattern
}

type pathPattern struct {
	src   string
	parts []string
}

// PathError is a path refused by policy. Reason is shown to the agent.
type PathError struct {
	Path   string
	Reason string
}

func (e *PathError) Error() string { return fmt.Sprintf("path %q: %s", e.Path, e.Reason) }

// ErrPathDenied is wrapped by every refusal from Check, for callers that
// branch on it.
var ErrPathDenied = errors.New("path denied by policy")

// Unwrap lets errors.Is(err, ErrPathDenied) match.
func (e *PathError) Unwrap() error { return ErrPathDenied }

// NewPathPolicy compiles rules. A relative or malformed rule is an error
// naming it.
func NewPathPolicy(r PathRules) (*PathPolicy, error) {
	p := &PathPolicy{}
	allow := r.Allow
	if len(allow) == 0 {
		allow = []string{"/"}
	}
	for _, a := range allow {
		c, err := CleanPath(a)
		if err != nil {
			return nil, fmt.Errorf("path policy: allow root %q: %w", a, err)
		}
		if strings.Contains(c, "*") {
			return nil, fmt.Errorf("path policy: allow root %q: patterns are not allowed in roots", a)
		}
		p.allow = append(p.allow, c)
	}
	var deny []string
	if !r.ReplaceDefaults {
		deny = append(deny, DefaultDenyPaths...)
		if r.Home != "" && r.Home != "/" {
			deny = append(deny, path.Join(r.Home, ".ssh/id_*"), path.Join(r.Home, ".gnupg"))
		}
	}
	deny = append(deny, r.Deny...)
	for _, pr := range r.Protect {
		if pr != "" {
			// Warden's own paths are literal names, not patterns.
			deny = append(deny, escapeGlob(pr))
		}
	}
	deny = append(deny, r.ProtectPatterns...)
	for _, d := range deny {
		if d == "" {
			continue
		}
		c, err := CleanPath(d)
		if err != nil {
			return nil, fmt.Errorf("path policy: deny rule %q: %w", d, err)
		}
		parts := splitPath(c)
		for _, part := range parts {
			if _, err := path.Match(part, ""); err != nil {
				return nil, fmt.Errorf("path policy: deny rule %q: %w", d, err)
			}
		}
		p.deny = append(p.deny, pathPattern{src: c, parts: parts})
	}
	return p, nil
}

// CleanPath validates a path argument and returns it lexically cleaned:
// it must be absolute, at most MaxPathBytes, free of NUL, CR and LF.
// ".." is resolved lexically and can never climb above "/".
func CleanPath(p string) (string, error) {
	switch {
	case p == "":
		return "", errors.New("path is empty")
	case len(p) > MaxPathBytes:
		return "", fmt.Errorf("path is %d bytes; the limit is %d", len(p), MaxPathBytes)
	case strings.ContainsAny(p, "\x00\r\n"):
		return "", errors.New("path contains a NUL, CR or LF character")
	case !strings.HasPrefix(p, "/"):
		return "", fmt.Errorf("path %q is not absolute", p)
	}
	return path.Clean(p), nil
}

// Check reports why p may not be touched, or nil if it may. p must be
// clean and absolute (see CleanPath); anything else is refused.
func (pp *PathPolicy) Check(p string) error {
	if c, err := CleanPath(p); err != nil || c != p {
		return &PathError{Path: p, Reason: "not a clean absolute path"}
	}
	if !slices.ContainsFunc(pp.allow, func(root string) bool { return Within(p, root) }) {
		return &PathError{Path: p, Reason: "outside the allowed roots " + strings.Join(pp.allow, ", ")}
	}
	if watchdogPath(p) {
		// Whatever the rules: opening it, even to read, arms it.
		return &PathError{Path: p, Reason: "opens the hardware watchdog: " + watchdogReboots}
	}
	parts := splitPath(p)
	for _, d := range pp.deny {
		if matchPrefix(d.parts, parts) {
			return &PathError{Path: p, Reason: "denied by rule " + d.src}
		}
	}
	return nil
}

// Roots returns the allowed roots.
func (pp *PathPolicy) Roots() []string { return slices.Clone(pp.allow) }

// Within reports whether the clean absolute path p is root or lies under
// it, comparing whole components.
func Within(p, root string) bool {
	if root == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == root || strings.HasPrefix(p, root+"/")
}

// splitPath returns the components of a clean absolute path; "/" has none.
func splitPath(p string) []string {
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// matchPrefix reports whether the first len(pat) components of parts
// match pat, component by component.
func matchPrefix(pat, parts []string) bool {
	if len(parts) < len(pat) {
		return false
	}
	for i, pc := range pat {
		if ok, _ := path.Match(pc, parts[i]); !ok {
			return false
		}
	}
	return true
}

// escapeGlob quotes the pattern characters of a literal path.
func escapeGlob(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[\\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

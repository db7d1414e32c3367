package confine

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"sort"
	"strings"
)

// Requirement is what the operator asks of confinement.
type Requirement string

// Requirements.
const (
	// Auto confines where the kernel allows and warns where it does not.
	Auto Requirement = "auto"
	// Required refuses to serve without confinement.
	Required Requirement = "required"
)

// Profile narrows what approved (Full) programs may do. The zero value is
// unconfined but for warden's own state.
type Profile struct {
	// Writable, when non-empty, is the only paths approved programs may
	// write (besides the temporary directories).
	Writable []string
	// NoNetwork denies TCP bind and connect.
	NoNetwork bool
}

// narrowed reports whether p restricts anything beyond warden's state.
func (p Profile) narrowed() bool { return len(p.Writable) > 0 || p.NoNetwork }

// Options configure a Confiner.
type Options struct {
	// Protect are warden's own paths (state dir, audit log, token, key,
	// config file): no child may read, write or list inside them.
	Protect []string
	// Protected, if set, lists more of warden's paths, read each time the
	// rules are built: files that appear over time beside one of Protect
	// (an audit log's rotated files outside the state dir). A new file in
	// a directory the rules enumerated makes them be built again.
	Protected func() []string
	// Growing are the directories outside Protect that warden adds its
	// own files to over time (an audit log's directory): the directories
	// above them stay closed to new entries even where a mount namespace
	// covers warden's files, since a file added later is not covered.
	Growing []string
	// Private, if set, lists the paths only Full programs may reach, read
	// each time the rules are built (Rebuild builds them again): the SSH
	// private keys warden authenticates with. Below Full they are held
	// like Protect, so code a read runs unseen cannot take warden's way
	// into other hosts; an approved program may still use them (git over
	// SSH).
	Private func() []string
	// TempDirs are where Temp programs may write; nil means /tmp,
	// /var/tmp and /dev/shm.
	TempDirs []string
	// Approved narrows Full programs for every tool; Tools overrides it
	// per tool name.
	Approved Profile
	Tools    map[string]Profile
	// Enter, when set, is the process whose mount, UTS, IPC and network
	// namespaces programs run in (host_namespace: pid1: warden in a
	// container, the programs on the host). Each confined thread joins
	// them before building its rules, so the rules name the host's files;
	// Protect paths are found there by file system (hostPaths), and
	// TempDirs and Writable are the host's.
	Enter int
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// Status is what a Confiner can enforce here, for server_info and
// hosts_list.
type Status struct {
	// Mechanism names what holds, e.g. "landlock-v7+mountns+seccomp", or
	// "none: <reason>".
	Mechanism string `json:"mechanism"`
	// Active reports whether programs are confined.
	Active bool `json:"active"`
	// Gaps lists what this kernel or this user cannot hold.
	Gaps []string `json:"gaps,omitempty"`
}

// DefaultTempDirs are the temporary directories Temp programs may write.
var DefaultTempDirs = []string{"/tmp", "/var/tmp", "/dev/shm"}

// clean returns the absolute, cleaned, de-duplicated forms of paths, with
// symlinks in them resolved where they exist (Landlock and mounts act on
// the real hierarchy).
func clean(paths []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		if !filepath.IsAbs(p) {
			abs, err := filepath.Abs(p)
			if err != nil {
				return nil, fmt.Errorf("path %q: %w", p, err)
			}
			p = abs
		}
		p = resolve(filepath.Clean(p))
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// resolve follows symlinks in the longest existing prefix of p.
func resolve(p string) string {
	rest := ""
	for cur := p; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	if dir == "/" {
		return true
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// profile is the Full profile for tool.
func (o *Options) profile(tool string) Profile {
	if p, ok := o.Tools[tool]; ok {
		return p
	}
	return o.Approved
}

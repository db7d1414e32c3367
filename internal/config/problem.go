package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
)

// Problem is one invalid value of the configuration: where it was written
// (file and line, or the environment variable or flag that set it), its
// dotted key path (hosts[2].port) and what is wrong with it, in the terms
// of warden.yaml, never of the Go types behind it.
type Problem struct {
	// File is the config file, empty when the value did not come from one.
	File string
	// Line is the value's line in File; 0 when unknown.
	Line int
	// Key is the dotted key path, e.g. "policy.deny[1]".
	Key string
	// Msg says what is wrong.
	Msg string
	// SetBy names the environment variable or flag that set the value.
	SetBy string
}

func (p Problem) Error() string {
	var b strings.Builder
	switch {
	case p.File != "" && p.Line > 0:
		fmt.Fprintf(&b, "%s:%d: ", p.File, p.Line)
	case p.File != "":
		fmt.Fprintf(&b, "%s: ", p.File)
	}
	if p.Key != "" {
		b.WriteString(p.Key + ": ")
	}
	b.WriteString(p.Msg)
	if p.SetBy != "" {
		fmt.Fprintf(&b, " (set by %s)", p.SetBy)
	}
	return b.String()
}

// Problems are every problem found at once, one per line.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// Sorted orders problems by line, those without a line last.
func (ps Problems) Sorted() Problems {
	out := append(Problems(nil), ps...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Line, out[j].Line
		return a > 0 && (b == 0 || a < b)
	})
	return out
}

// origin records where the values of a Config came from, so that a
// problem found after decoding can still name its file and line.
type origin struct {
	file string
	// lines maps a dotted key path to its line in file.
	lines map[string]int
	// setBy maps a key to the environment variable or flag that set it.
	setBy map[string]string
	// digest is the SHA-256 of the bytes the config was read from.
	digest string
}

// Digest is "sha256:" and the hex SHA-256 of the file the configuration
// was read from, or of the embedded default when there was none: what a
// running server reports in server_info, so that `warden doctor` can tell
// whether it runs the file on disk.
func (c *Config) Digest() string {
	if c.origin == nil || c.origin.digest == "" {
		return Digest(Default)
	}
	return c.origin.digest
}

// Digest is the digest of config file bytes, as Config.Digest reports it.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// SetBy records that an environment variable or flag set key, so that a
// problem with its value names the variable or flag instead of a line of
// the file.
func (c *Config) SetBy(key, source string) {
	if c.origin == nil {
		c.origin = &origin{}
	}
	if c.origin.setBy == nil {
		c.origin.setBy = map[string]string{}
	}
	c.origin.setBy[key] = source
}

// Problem builds a problem for key, locating it in the file (the key's
// own line, else the nearest enclosing key's) or naming what set it.
func (c *Config) Problem(key, format string, args ...any) Problem {
	p := Problem{Key: key, Msg: fmt.Sprintf(format, args...)}
	o := c.origin
	if o == nil {
		return p
	}
	if by, ok := o.setBy[key]; ok {
		p.SetBy = by
		return p
	}
	p.File = o.file
	for k := key; k != ""; k = parentKey(k) {
		if line, ok := o.lines[k]; ok {
			p.Line = line
			return p
		}
	}
	return p
}

// File is the config file the configuration was read from, "" for the
// embedded default.
func (c *Config) File() string {
	if c.origin == nil {
		return ""
	}
	return c.origin.file
}

// parentKey strips the last element of a dotted key path:
// hosts[2].port → hosts[2] → hosts → "".
func parentKey(k string) string {
	i := strings.LastIndexAny(k, ".[")
	if i < 0 {
		return ""
	}
	return k[:i]
}

package snapshot

import (
	"context"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// listDir lists directory-copy snapshots (rsnapshot's daily.0, dated backup
// trees): the subdirectories of Path matching Pattern, timed by TimeFormat
// parsed from the name, or by the directory's mtime.
func (e *Engine) listDir(ctx context.Context, src SourceConfig) ([]Snapshot, error) {
	dirs, err := e.subdirs(ctx, src.Path)
	if err != nil {
		return nil, err
	}
	prefix := literalPrefix(src.Pattern)
	var out []Snapshot
	for _, fi := range dirs {
		name := fi.Name()
		if src.Pattern != "" {
			if ok, _ := path.Match(src.Pattern, name); !ok {
				continue
			}
		}
		t := fi.ModTime()
		if src.TimeFormat != "" {
			pt, ok := parseNameTime(name, prefix, src.TimeFormat)
			if !ok {
				e.log.Debug("snapshot: name does not carry the configured time format; using mtime", "dataset", src.Name, "name", name)
			} else {
				t = pt
			}
		}
		out = append(out, Snapshot{Name: name, Time: t, Root: filepath.Join(src.Path, name)})
	}
	return out, nil
}

// literalPrefix returns the part of a glob before its first metacharacter.
func literalPrefix(pattern string) string {
	if i := strings.IndexAny(pattern, `*?[\`); i >= 0 {
		return pattern[:i]
	}
	return pattern
}

// parseNameTime parses layout from name after prefix, or from the whole
// name. Names without a zone are read as UTC.
func parseNameTime(name, prefix, layout string) (time.Time, bool) {
	for _, s := range []string{strings.TrimPrefix(name, prefix), name} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

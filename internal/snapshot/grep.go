package snapshot

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

const (
	// maxRegexLen bounds a grep pattern; RE2 keeps matching linear, this
	// keeps compiling cheap.
	maxRegexLen = 1024
	// maxGlobLen bounds a find_files pattern.
	maxGlobLen = 256
	// grepChunk is the line buffer: longer lines are matched in chunks of
	// this size and never held whole.
	grepChunk = 64 << 10
	// excerptMax bounds the text returned per match.
	excerptMax = 256
	// binarySniff is how much of a file is checked for NUL bytes.
	binarySniff = 8 << 10
)

// FindFilesArgs are the arguments of snapshot_find_files.
type FindFilesArgs struct {
	Dataset    string `json:"dataset" jsonschema:"dataset name"`
	Snapshot   string `json:"snapshot,omitempty" jsonschema:"snapshot to search; empty searches every snapshot, newest first"`
	Pattern    string `json:"pattern" jsonschema:"glob matched against base names, e.g. *.conf or id_rsa*"`
	Path       string `json:"path,omitempty" jsonschema:"subtree to search; empty for the root"`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"most results (clamped to the server cap)"`
	TimeoutS   int    `json:"timeout_s,omitempty" jsonschema:"wall-time bound in seconds (clamped to the server cap)"`
}

// FoundFile is one find_files hit.
type FoundFile struct {
	Snapshot string    `json:"snapshot"`
	Path     string    `json:"path"`
	Type     EntryType `json:"type"`
	Size     int64     `json:"size"`
	ModTime  time.Time `json:"mtime"`
}

// FindFilesResult is the result of snapshot_find_files.
type FindFilesResult struct {
	Dataset         string      `json:"dataset"`
	Files           []FoundFile `json:"files" jsonschema:"hits sorted by snapshot (newest first) then path"`
	Searched        []string    `json:"searched" jsonschema:"snapshots searched"`
	EntriesScanned  int64       `json:"entries_scanned"`
	Truncated       bool        `json:"truncated"`
	TruncatedReason string      `json:"truncated_reason,omitempty"`
}

// FindFiles finds files by base-name glob in one or every snapshot
// (snapshot_find_files). Symlinks are matched by name and never followed.
func (e *Engine) FindFiles(ctx context.Context, args FindFilesArgs) (FindFilesResult, error) {
	ctx, cancel := e.withTimeout(ctx, "snapshot_find_files", args.TimeoutS)
	defer cancel()
	if args.Pattern == "" || len(args.Pattern) > maxGlobLen || strings.Contains(args.Pattern, "/") {
		return FindFilesResult{}, invalidf("pattern must be a glob of 1 to %d bytes matched against base names (no /)", maxGlobLen)
	}
	if _, err := path.Match(args.Pattern, ""); err != nil {
		return FindFilesResult{}, invalidf("pattern %q: %v", args.Pattern, err)
	}
	src, err := e.source(args.Dataset)
	if err != nil {
		return FindFilesResult{}, err
	}
	var snaps []Snapshot
	if args.Snapshot != "" {
		s, err := e.snapshot(ctx, src, args.Snapshot)
		if err != nil {
			return FindFilesResult{}, err
		}
		snaps = []Snapshot{s}
	} else {
		all, err := e.snapshots(ctx, src)
		if err != nil {
			return FindFilesResult{}, err
		}
		for i := len(all) - 1; i >= 0; i-- {
			snaps = append(snaps, all[i])
		}
	}
	max := e.limits.Results.clamp(args.MaxResults)
	res := FindFilesResult{Dataset: src.Name, Files: []FoundFile{}, Searched: []string{}}
	var st walkStats
	for _, s := range snaps {
		if ctx.Err() != nil || st.overLimit.Load() || len(res.Files) >= max {
			break
		}
		res.Searched = append(res.Searched, s.Name)
		hits, full, err := e.findIn(ctx, src, s, args.Path, args.Pattern, max-len(res.Files), &st)
		if err != nil {
			return FindFilesResult{}, err
		}
		res.Files = append(res.Files, hits...)
		if full {
			res.TruncatedReason = reasonResults
		}
	}
	res.EntriesScanned = st.entries.Load()
	if r := truncation(ctx, &st); r != "" {
		res.TruncatedReason = r
	}
	res.Truncated = res.TruncatedReason != ""
	return res, nil
}

// findIn searches one snapshot; full reports that the result cap was hit.
func (e *Engine) findIn(ctx context.Context, src SourceConfig, s Snapshot, p, pattern string, max int, st *walkStats) ([]FoundFile, bool, error) {
	v, err := e.openSnap(ctx, src, s)
	if err != nil {
		return nil, false, err
	}
	defer v.close()
	rel, info, err := v.lookup(p)
	if err != nil {
		if errors.Is(err, ErrNotFound) && p != "" {
			return nil, false, nil
		}
		return nil, false, err
	}
	if !info.IsDir() {
		return nil, false, invalidf("%s is not a directory", rel)
	}
	var (
		mu   sync.Mutex
		hits []FoundFile
		full bool
	)
	err = e.walk(ctx, v.fsys, rel, st, func(dir string, entries []fs.FileInfo) error {
		for _, fi := range entries {
			if ok, _ := path.Match(pattern, fi.Name()); !ok {
				continue
			}
			mu.Lock()
			if len(hits) >= max {
				full = true
				mu.Unlock()
				return errStop
			}
			hits = append(hits, FoundFile{Snapshot: s.Name, Path: joinRel(dir, fi.Name()), Type: entryType(fi.Mode()), Size: fi.Size(), ModTime: fi.ModTime()})
			mu.Unlock()
		}
		return nil
	})
	sort.Slice(hits, func(i, j int) bool { return hits[i].Path < hits[j].Path })
	return hits, full, err
}

// GrepArgs are the arguments of snapshot_grep.
type GrepArgs struct {
	Dataset         string `json:"dataset" jsonschema:"dataset name"`
	Snapshot        string `json:"snapshot" jsonschema:"snapshot name, or @live"`
	Path            string `json:"path,omitempty" jsonschema:"file or directory to search (recursively); empty for the root"`
	Regex           string `json:"regex" jsonschema:"RE2 regular expression, matched per line"`
	CaseInsensitive bool   `json:"case_insensitive,omitempty"`
	MaxMatches      int    `json:"max_matches,omitempty" jsonschema:"most matches (clamped to the server cap)"`
	TimeoutS        int    `json:"timeout_s,omitempty" jsonschema:"wall-time bound in seconds (clamped to the server cap)"`
}

// GrepMatch is one matching line (or, for a line longer than 64 KiB, one
// matching 64 KiB chunk of it).
type GrepMatch struct {
	Path string `json:"path"`
	Line int64  `json:"line" jsonschema:"1-based line number"`
	// Column is the 1-based byte offset of the match within the line.
	Column int64  `json:"column"`
	Text   string `json:"text" jsonschema:"the line, or an excerpt of at most 256 bytes around the match"`
	Cut    bool   `json:"cut,omitempty" jsonschema:"true when text is an excerpt of a longer line"`
}

// GrepResult is the result of snapshot_grep.
type GrepResult struct {
	Dataset         string      `json:"dataset"`
	Snapshot        string      `json:"snapshot"`
	Matches         []GrepMatch `json:"matches" jsonschema:"sorted by path and line"`
	FilesSearched   int64       `json:"files_searched"`
	BinarySkipped   int64       `json:"binary_files_skipped" jsonschema:"files with NUL bytes in their first 8 KiB, not searched"`
	BytesScanned    int64       `json:"bytes_scanned"`
	Truncated       bool        `json:"truncated"`
	TruncatedReason string      `json:"truncated_reason,omitempty"`
}

// grepper searches files for one call, sharing its caps across workers.
type grepper struct {
	re       *regexp.Regexp
	max      int
	budget   int64
	mu       sync.Mutex
	matches  []GrepMatch
	full     bool
	files    atomic.Int64
	binary   atomic.Int64
	scanned  atomic.Int64
	overScan atomic.Bool
}

func (g *grepper) add(m GrepMatch) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.matches) >= g.max {
		g.full = true
		return false
	}
	g.matches = append(g.matches, m)
	return true
}

// file searches one regular file line by line with a bounded buffer.
func (g *grepper) file(ctx context.Context, fsys FS, rel string) error {
	f, err := fsys.Open(rel)
	if err != nil {
		return nil
	}
	defer f.Close()
	g.files.Add(1)
	br := bufio.NewReaderSize(ctxReader{ctx, f}, grepChunk)
	if head, _ := br.Peek(binarySniff); bytes.IndexByte(head, 0) >= 0 {
		g.binary.Add(1)
		return nil
	}
	line, col := int64(1), int64(1)
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			if g.scanned.Add(int64(len(chunk))) > g.budget {
				g.overScan.Store(true)
				return errStop
			}
			whole := col == 1 && !errors.Is(err, bufio.ErrBufferFull)
			body := bytes.TrimSuffix(chunk, []byte("\n"))
			if loc := g.re.FindIndex(body); loc != nil {
				text, cut := excerpt(body, loc, whole)
				if !g.add(GrepMatch{Path: rel, Line: line, Column: col + int64(loc[0]), Text: text, Cut: cut}) {
					return errStop
				}
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				col += int64(len(chunk))
			} else {
				line, col = line+1, 1
			}
		}
		switch {
		case err == nil, errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF):
			return nil
		case ctx.Err() != nil:
			return errStop
		default:
			return nil
		}
	}
}

// excerpt returns the line, or at most excerptMax bytes around the match,
// as valid UTF-8.
func excerpt(body []byte, loc []int, whole bool) (string, bool) {
	if whole && len(body) <= excerptMax {
		return strings.ToValidUTF8(string(body), "\uFFFD"), false
	}
	start := max(loc[0]-excerptMax/4, 0)
	end := min(start+excerptMax, len(body))
	return strings.ToValidUTF8(string(body[start:end]), "\uFFFD"), true
}

// Grep searches a file or a directory tree of a snapshot (snapshot_grep).
// Lines are read through a 64 KiB buffer: a longer line is matched chunk by
// chunk (a match straddling a chunk boundary can be missed) and never held
// whole, so a huge single-line file costs time, bounded by the call's
// timeout and scan budget, but not memory.
func (e *Engine) Grep(ctx context.Context, args GrepArgs) (GrepResult, error) {
	ctx, cancel := e.withTimeout(ctx, "snapshot_grep", args.TimeoutS)
	defer cancel()
	if args.Regex == "" || len(args.Regex) > maxRegexLen {
		return GrepResult{}, invalidf("regex must be 1 to %d bytes", maxRegexLen)
	}
	expr := args.Regex
	if args.CaseInsensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return GrepResult{}, invalidf("regex: %v", err)
	}
	v, err := e.open(ctx, args.Dataset, args.Snapshot)
	if err != nil {
		return GrepResult{}, err
	}
	defer v.close()
	rel, info, err := v.lookup(args.Path)
	if err != nil {
		return GrepResult{}, err
	}
	g := &grepper{re: re, max: e.limits.Matches.clamp(args.MaxMatches), budget: e.limits.ScanBytes}
	var st walkStats
	switch entryType(info.Mode()) {
	case TypeFile:
		if err := g.file(ctx, v.fsys, rel); err != nil && !errors.Is(err, errStop) {
			return GrepResult{}, fmt.Errorf("snapshot_grep %s: %w", rel, err)
		}
	case TypeDir:
		err := e.walk(ctx, v.fsys, rel, &st, func(dir string, entries []fs.FileInfo) error {
			for _, fi := range entries {
				if !fi.Mode().IsRegular() {
					continue
				}
				if err := g.file(ctx, v.fsys, joinRel(dir, fi.Name())); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return GrepResult{}, fmt.Errorf("snapshot_grep: %w", err)
		}
	default:
		return GrepResult{}, invalidf("%s is a %s; grep reads regular files and directories (symlinks are not followed)", rel, entryType(info.Mode()))
	}
	sort.Slice(g.matches, func(i, j int) bool {
		if g.matches[i].Path != g.matches[j].Path {
			return g.matches[i].Path < g.matches[j].Path
		}
		if g.matches[i].Line != g.matches[j].Line {
			return g.matches[i].Line < g.matches[j].Line
		}
		return g.matches[i].Column < g.matches[j].Column
	})
	res := GrepResult{Dataset: args.Dataset, Snapshot: v.snap.Name, Matches: g.matches,
		FilesSearched: g.files.Load(), BinarySkipped: g.binary.Load(), BytesScanned: g.scanned.Load()}
	if res.Matches == nil {
		res.Matches = []GrepMatch{}
	}
	switch {
	case truncation(ctx, &st) != "":
		res.TruncatedReason = truncation(ctx, &st)
	case g.overScan.Load():
		res.TruncatedReason = reasonScan
	case g.full:
		res.TruncatedReason = reasonResults
	}
	res.Truncated = res.TruncatedReason != ""
	return res, nil
}

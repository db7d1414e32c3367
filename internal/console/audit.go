package console

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/runner"
)

// Audit search bounds: the matches returned in one page, and the longest
// line read as a record (the log writes none longer).
const (
	auditMatches = 200
	auditMaxLine = 4 << 20
)

// AuditLog is what the console reads of the audit log.
type AuditLog struct {
	// Files lists the log's files in chain order.
	Files func() ([]string, error)
	// Key is the HMAC key of a keyed chain; nil for an unkeyed one.
	Key []byte
}

// auditSearch answers GET /api/audit?tool=&decision=&tier=&identity=&host=
// &since=&until=&before=&limit= with a page of the newest matching
// records, oldest first. It searches the whole log, rotated files too,
// newest first and each file backwards, holding only the page: a search
// reads as far back as it must to fill the page. When older matches
// remain, the X-Warden-Before header carries the before= value of the
// next page (a seq: records are numbered in chain order across files).
// The records are the log's own lines: their arguments are redacted as
// the log keeps them, and outputs are only digests.
func (w *Web) auditSearch(rw http.ResponseWriter, r *http.Request, _ authn) {
	if w.o.Audit.Files == nil {
		writeError(rw, http.StatusNotFound, "no audit log")
		return
	}
	q := r.URL.Query()
	var since, until time.Time
	for key, t := range map[string]*time.Time{"since": &since, "until": &until} {
		if v := q.Get(key); v != "" {
			p, err := time.Parse(time.RFC3339, v)
			if err != nil {
				writeError(rw, http.StatusBadRequest, "%s: %q is not an RFC 3339 time", key, v)
				return
			}
			*t = p
		}
	}
	tier := -1
	if v := q.Get("tier"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 3 {
			writeError(rw, http.StatusBadRequest, "tier: %q is not 0 to 3", v)
			return
		}
		tier = n
	}
	var before uint64
	if v := q.Get("before"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n == 0 {
			writeError(rw, http.StatusBadRequest, "before: %q is not a record seq (a positive number)", v)
			return
		}
		before = n
	}
	limit := auditMatches
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > auditMatches {
			writeError(rw, http.StatusBadRequest, "limit: %q is not 1 to %d", v, auditMatches)
			return
		}
		limit = n
	}
	tool, decision, identity, host := q.Get("tool"), q.Get("decision"), q.Get("identity"), q.Get("host")
	match := func(rec *audit.Record) bool {
		return (before == 0 || rec.Seq < before) &&
			(tool == "" || rec.Tool == tool) && (decision == "" || rec.Decision == decision) &&
			(tier < 0 || rec.Tier == tier) &&
			(identity == "" || rec.Identity == identity) && (host == "" || rec.Host == host) &&
			(since.IsZero() || !rec.TS.Before(since)) && (until.IsZero() || !rec.TS.After(until))
	}
	files, ok := w.auditFiles(rw, r)
	if !ok {
		return
	}
	type result struct {
		page []audit.Record
		more bool
		err  error
	}
	var read atomic.Int64
	res, err := runner.AwaitMoving(r.Context(), nil, filesWait, read.Load, func() result {
		page, more, err := searchLog(files, limit, match, &read)
		return result{page, more, err}
	})
	if err == nil {
		err = res.err
	}
	if !w.auditAnswered(rw, err) {
		return
	}
	page, more := res.page, res.more
	slices.Reverse(page)
	if more && len(page) > 0 {
		rw.Header().Set("X-Warden-Before", strconv.FormatUint(page[0].Seq, 10))
	}
	writeJSON(rw, http.StatusOK, page)
}

// searchLog returns the newest limit records of files (in chain order)
// that match, newest first, and whether older ones match too. It reads
// the files from the last backwards and stops as soon as it knows.
func searchLog(files []string, limit int, match func(*audit.Record) bool, read *atomic.Int64) ([]audit.Record, bool, error) {
	out := []audit.Record{}
	more := false
	for i := len(files) - 1; i >= 0 && !more; i-- {
		err := linesBackward(files[i], auditMaxLine, read, func(line []byte) bool {
			var rec audit.Record
			if json.Unmarshal(line, &rec) != nil || rec.Hash == "" || !match(&rec) {
				return true
			}
			if len(out) == limit {
				more = true
				return false
			}
			out = append(out, rec)
			return true
		})
		if err != nil {
			return nil, false, err
		}
	}
	return out, more, nil
}

// linesBackward calls fn with each complete line of the file at path,
// the last first, until fn returns false. A torn last line (no newline
// yet) and lines longer than max are skipped. It holds one block and one
// line at a time, and adds the bytes of each block it reads to read.
func linesBackward(path string, max int, read *atomic.Int64, fn func([]byte) bool) error {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // rotated away (retention) since it was listed
		}
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	const block = 64 << 10
	buf := make([]byte, block)
	var carry []byte // the start of the file's line being assembled, read so far
	first := true    // the bytes after the last newline: torn, or nothing
	tooLong := false // carry was dropped for length: skip to the next newline
	for off := fi.Size(); off > 0; {
		n := min(int64(block), off)
		off -= n
		if _, err := f.ReadAt(buf[:n], off); err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("read %s: %w", path, err)
		}
		read.Add(n)
		data := buf[:n]
		for {
			i := bytes.LastIndexByte(data, '\n')
			if i < 0 {
				break
			}
			line := append(data[i+1:len(data):len(data)], carry...)
			skip := first || tooLong
			first, tooLong, carry = false, false, carry[:0]
			if !skip && len(line) > 0 && !fn(line) {
				return nil
			}
			data = data[:i]
		}
		if len(carry)+len(data) > max {
			carry, tooLong = carry[:0], true
			continue
		}
		carry = append(append(make([]byte, 0, len(data)+len(carry)), data...), carry...)
	}
	if !first && !tooLong && len(carry) > 0 {
		fn(carry)
	}
	return nil
}

// ChainState is what GET /api/audit/verify says of the hash chain.
type ChainState struct {
	Intact  bool   `json:"intact"`
	Records int    `json:"records"`
	LastSeq uint64 `json:"last_seq"`
	Problem string `json:"problem,omitempty"`
}

// auditVerify verifies the whole chain, as warden audit verify does.
func (w *Web) auditVerify(rw http.ResponseWriter, r *http.Request, _ authn) {
	if w.o.Audit.Files == nil {
		writeError(rw, http.StatusNotFound, "no audit log")
		return
	}
	files, ok := w.auditFiles(rw, r)
	if !ok {
		return
	}
	type result struct {
		rep audit.Report
		err error
	}
	var lines atomic.Int64
	res, err := runner.AwaitMoving(r.Context(), nil, filesWait, lines.Load, func() result {
		rep, err := audit.VerifyCounting(files, w.o.Audit.Key, &lines)
		return result{rep, err}
	})
	if err == nil {
		err = res.err
	}
	if !w.auditAnswered(rw, err) {
		return
	}
	rep := res.rep
	st := ChainState{Intact: rep.Problem == nil, Records: rep.Records, LastSeq: rep.LastSeq}
	if rep.Problem != nil {
		st.Problem = rep.Problem.String()
	}
	writeJSON(rw, http.StatusOK, st)
}

// auditFiles lists the audit log's files, waiting at most filesWait; it
// answers the request itself when it cannot.
func (w *Web) auditFiles(rw http.ResponseWriter, r *http.Request) ([]string, bool) {
	files, err := answered(r.Context(), w.o.Audit.Files, nil)
	return files, w.auditAnswered(rw, err)
}

// auditAnswered answers the request with err, a look at the audit log
// that failed, and reports whether there was none: a log on a share that
// stopped answering is 503, saying so.
func (w *Web) auditAnswered(rw http.ResponseWriter, err error) bool {
	switch {
	case err == nil:
		return true
	case errors.Is(err, runner.ErrWaited):
		writeError(rw, http.StatusServiceUnavailable, "audit: %v", runner.NotAnswering("the audit log", filesWait))
	default:
		writeError(rw, http.StatusInternalServerError, "audit: %v", err)
	}
	return false
}

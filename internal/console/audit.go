package console

import (
	"net/http"
	"strconv"
	"time"

	"github.com/warden-mcp/warden/internal/audit"
)

// Audit search bounds: the records read back from the end of the log, and
// the matches returned.
const (
	auditScan    = 5000
	auditMatches = 200
)

// AuditLog is what the console reads of the audit log.
type AuditLog struct {
	// Files lists the log's files in chain order.
	Files func() ([]string, error)
	// Key is the HMAC key of a keyed chain; nil for an unkeyed one.
	Key []byte
}

// auditSearch answers GET /api/audit?tool=&decision=&identity=&host=&since=&until=
// with the newest matching records among the last auditScan, oldest first.
// The records are the log's own lines: their arguments are redacted as the
// log keeps them, and outputs are only digests.
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
	f := audit.Filter{Tool: q.Get("tool"), Decision: q.Get("decision")}
	if v := q.Get("tier"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 3 {
			writeError(rw, http.StatusBadRequest, "tier: %q is not 0 to 3", v)
			return
		}
		f.Tier = &n
	}
	files, err := w.o.Audit.Files()
	if err != nil {
		writeError(rw, http.StatusInternalServerError, "audit: %v", err)
		return
	}
	recs, err := audit.Tail(files, auditScan, f)
	if err != nil {
		writeError(rw, http.StatusInternalServerError, "audit: %v", err)
		return
	}
	identity, host := q.Get("identity"), q.Get("host")
	out := []audit.Record{}
	for i := len(recs) - 1; i >= 0 && len(out) < auditMatches; i-- {
		rec := recs[i]
		if (identity != "" && rec.Identity != identity) || (host != "" && rec.Host != host) ||
			(!since.IsZero() && rec.TS.Before(since)) || (!until.IsZero() && rec.TS.After(until)) {
			continue
		}
		out = append(out, rec)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	writeJSON(rw, http.StatusOK, out)
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
	files, err := w.o.Audit.Files()
	if err != nil {
		writeError(rw, http.StatusInternalServerError, "audit: %v", err)
		return
	}
	rep, err := audit.Verify(files, w.o.Audit.Key)
	if err != nil {
		writeError(rw, http.StatusInternalServerError, "audit verify: %v", err)
		return
	}
	st := ChainState{Intact: rep.Problem == nil, Records: rep.Records, LastSeq: rep.LastSeq}
	if rep.Problem != nil {
		st.Problem = rep.Problem.String()
	}
	writeJSON(rw, http.StatusOK, st)
}

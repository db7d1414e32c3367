package console

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/warden-mcp/warden/internal/audit"
)

const testOperatorToken = "operator-token-0123456789abcdef0123456789"

// auditWeb is a web console over a real audit log of n records that
// rotates every 256 KiB; record 1 is the only one of identity "needle".
func auditWeb(t testing.TB, n int) (*Web, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := audit.Open(audit.Options{Path: path, RotateBytes: 256 << 10})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		who := "agent"
		if i == 1 {
			who = "needle"
		}
		if _, err := log.Append(context.Background(), audit.Record{Tool: "run_command", Identity: who, Host: "local", Decision: "allow", Status: "ok"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	files, err := audit.Files(path)
	if err != nil || (n > 1000 && len(files) < 2) {
		t.Fatalf("the log did not rotate: %v %v", files, err)
	}
	web := NewWeb(WebOptions{
		Token: testOperatorToken,
		Hosts: []string{"console.test"},
		Audit: AuditLog{Files: func() ([]string, error) { return audit.Files(path) }},
	})
	return web, path
}

func search(t testing.TB, h http.Handler, query string) ([]audit.Record, string) {
	t.Helper()
	req := httptest.NewRequest("GET", "http://console.test/api/audit?"+query, nil)
	req.Header.Set("Authorization", "Bearer "+testOperatorToken)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("search %q: %d %s", query, rec.Code, rec.Body)
	}
	var out []audit.Record
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out, rec.Header().Get("X-Warden-Before")
}

// Over a rotated log of 6000 records: a record older than the newest
// 5000, in a rotated file, is found, and paging walks the whole log newest
// to oldest, each record exactly once, in pages of the size asked for.
func TestAuditSearchWholeRotatedLog(t *testing.T) {
	web, _ := auditWeb(t, 6000)
	h := web.Handler()
	t.Run("old record found", func(t *testing.T) { oldRecordFound(t, h) })
	t.Run("pages", func(t *testing.T) { pagesWholeLog(t, h) })
}

func oldRecordFound(t *testing.T, h http.Handler) {
	got, next := search(t, h, "identity=needle")
	if len(got) != 1 || got[0].Seq != 1 {
		t.Fatalf("search for the oldest record found %d records: %+v", len(got), got)
	}
	if next != "" {
		t.Errorf("a page holding every match says older ones remain (before=%s)", next)
	}
}

func pagesWholeLog(t *testing.T, h http.Handler) {
	seen := map[uint64]bool{}
	query, pages := "limit=200", 0
	for {
		got, next := search(t, h, query)
		pages++
		if len(got) == 0 || len(got) > 200 {
			t.Fatalf("page %d has %d records", pages, len(got))
		}
		for i, r := range got {
			if seen[r.Seq] {
				t.Fatalf("seq %d shown twice", r.Seq)
			}
			seen[r.Seq] = true
			if i > 0 && r.Seq <= got[i-1].Seq {
				t.Fatalf("page %d is not oldest first", pages)
			}
		}
		if next == "" {
			break
		}
		if want := fmt.Sprint(got[0].Seq); next != want {
			t.Fatalf("next page before=%s, want %s", next, want)
		}
		query = "limit=200&before=" + next
	}
	if len(seen) != 6000 || pages != 30 {
		t.Fatalf("paging showed %d records in %d pages, want 6000 in 30", len(seen), pages)
	}
}

// Torn and overlong lines are not records; bad paging input is refused.
func TestAuditSearchSkipsTornLinesAndRefusesBadInput(t *testing.T) {
	web, path := auditWeb(t, 10)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":11,"tool":"run_command","identity":"torn","hash":"x"`)
	f.Close()
	h := web.Handler()
	if got, _ := search(t, h, "identity=torn"); len(got) != 0 {
		t.Errorf("a torn line was read as a record: %+v", got)
	}
	if got, _ := search(t, h, ""); len(got) != 10 {
		t.Errorf("found %d records, want 10", len(got))
	}
	for _, q := range []string{"before=0", "before=x", "limit=0", "limit=201", "tier=9"} {
		req := httptest.NewRequest("GET", "http://console.test/api/audit?"+q, nil)
		req.Header.Set("Authorization", "Bearer "+testOperatorToken)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", q, rec.Code)
		}
	}
}

// BenchmarkAuditSearchWholeLog is the worst search: the only match is the
// first of 20000 records, so every file is read back to the start.
func BenchmarkAuditSearchWholeLog(b *testing.B) {
	web, path := auditWeb(b, 20000)
	h := web.Handler()
	files, _ := audit.Files(path)
	var size int64
	for _, f := range files {
		fi, _ := os.Stat(f)
		size += fi.Size()
	}
	b.SetBytes(size)
	b.ResetTimer()
	for range b.N {
		if got, _ := search(b, h, "identity=needle"); len(got) != 1 {
			b.Fatalf("found %d", len(got))
		}
	}
	b.ReportMetric(float64(20000*b.N)/b.Elapsed().Seconds(), "records/s")
}

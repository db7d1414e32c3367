package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// Filter selects records for Tail; zero fields match everything.
type Filter struct {
	Tool     string
	Tier     *int
	Decision string
}

func (f Filter) match(r *Record) bool {
	return (f.Tool == "" || r.Tool == f.Tool) &&
		(f.Tier == nil || r.Tier == *f.Tier) &&
		(f.Decision == "" || r.Decision == f.Decision)
}

// Tail returns the last n records across paths (in chain order, see Files)
// that match f, oldest first. It reads the files backwards and stops once it
// has n, so memory is bounded by n records however large the log is. Lines
// that are not records (torn, malformed) are skipped; Tail does not verify.
func Tail(paths []string, n int, f Filter) ([]Record, error) {
	if n <= 0 {
		return nil, nil
	}
	var out []Record
	for i := len(paths) - 1; i >= 0 && len(out) < n; i-- {
		var err error
		if out, err = tailFile(paths[i], n, f, out); err != nil {
			return nil, err
		}
	}
	slices.Reverse(out)
	return out, nil
}

func tailFile(path string, n int, f Filter, out []Record) ([]Record, error) {
	file, err := os.Open(path)
	if err != nil {
		return out, fmt.Errorf("audit: tail: %w", err)
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return out, fmt.Errorf("audit: tail: %w", err)
	}
	br := newBackReader(file, fi.Size())
	for len(out) < n {
		ln, err := br.prev()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return out, fmt.Errorf("audit: tail %s: %w", path, err)
		}
		if !ln.terminated || ln.tooLong {
			continue
		}
		var r Record
		if json.Unmarshal(ln.b, &r) != nil || r.Hash == "" || !f.match(&r) {
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

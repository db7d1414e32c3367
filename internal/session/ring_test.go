package session

import (
	"bytes"
	"testing"
)

func TestRing(t *testing.T) {
	tests := []struct {
		name        string
		limit       int
		writes      []string
		take        int
		want        string
		wantDropped int64
		wantLeft    int
	}{
		{"fits", 8, []string{"abc", "de"}, 0, "abcde", 0, 0},
		{"overwrites oldest", 8, []string{"abcdef", "ghij"}, 0, "cdefghij", 2, 0},
		{"one write larger than the ring", 4, []string{"ab", "0123456789"}, 0, "6789", 8, 0},
		{"partial take", 8, []string{"abcdef"}, 4, "abcd", 0, 2},
		{"wraps", 4, []string{"abc", "de", "f"}, 0, "cdef", 2, 0},
		{"zero limit drops all", 0, []string{"abc"}, 0, "", 3, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRing(tt.limit)
			for _, w := range tt.writes {
				r.Write([]byte(w))
			}
			if got := string(r.Take(tt.take)); got != tt.want {
				t.Errorf("Take = %q, want %q", got, tt.want)
			}
			if r.Dropped() != tt.wantDropped {
				t.Errorf("Dropped = %d, want %d", r.Dropped(), tt.wantDropped)
			}
			if r.Len() != tt.wantLeft {
				t.Errorf("Len = %d, want %d", r.Len(), tt.wantLeft)
			}
		})
	}
}

// TestRingGrowsOnDemand checks the storage starts small, grows only to the
// limit, and keeps order across growth and wrap-around.
func TestRingGrowsOnDemand(t *testing.T) {
	const limit = 64 << 10
	r := newRing(limit)
	if cap(r.buf) != 0 {
		t.Fatalf("fresh ring holds %d bytes of storage", cap(r.buf))
	}
	var all []byte
	for i := range 5000 {
		chunk := bytes.Repeat([]byte{byte('a' + i%26)}, 1+i%97)
		all = append(all, chunk...)
		r.Write(chunk)
		if i%7 == 0 {
			got := r.Take(13)
			// What comes out is the oldest retained stretch of all.
			start := len(all) - r.Len() - len(got)
			if !bytes.Equal(got, all[start:start+len(got)]) {
				t.Fatalf("write %d: took %q, want %q", i, got, all[start:start+len(got)])
			}
		}
		if len(r.buf) > limit {
			t.Fatalf("storage grew to %d, past the limit %d", len(r.buf), limit)
		}
	}
	rest := r.Take(0)
	if !bytes.Equal(rest, all[len(all)-len(rest):]) {
		t.Error("final contents are not the newest bytes")
	}
}

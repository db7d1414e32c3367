package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l := openTest(t, Options{Path: path, RotateBytes: 3000})
	appendN(t, l, 100) // tools cycle run_command, read_file, session_send; tiers 0..3
	l.Close()
	files, _ := Files(path)
	if len(files) < 3 {
		t.Fatalf("want rotated files, got %v", files)
	}
	two := 2
	tests := []struct {
		name string
		n    int
		f    Filter
		want []uint64
	}{
		{"last 3", 3, Filter{}, []uint64{98, 99, 100}},
		{"tool", 3, Filter{Tool: "read_file"}, []uint64{92, 95, 98}},
		{"tier", 2, Filter{Tier: &two}, []uint64{95, 99}},
		{"decision", 2, Filter{Decision: "denied"}, []uint64{94, 98}},
		{"tool and tier", 2, Filter{Tool: "run_command", Tier: &two}, []uint64{79, 91}},
		{"spans every file", 1000, Filter{}, nil},
		{"none match", 5, Filter{Tool: "nope"}, []uint64{}},
		{"zero", 0, Filter{}, []uint64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Tail(files, tt.n, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			var seqs []uint64
			for _, r := range got {
				seqs = append(seqs, r.Seq)
			}
			if tt.want == nil {
				if len(seqs) != 100 || seqs[0] != 1 || seqs[99] != 100 {
					t.Fatalf("got %d records %v…", len(seqs), seqs[:min(3, len(seqs))])
				}
				return
			}
			if fmt.Sprint(seqs) != fmt.Sprint(tt.want) && !(len(seqs) == 0 && len(tt.want) == 0) {
				t.Fatalf("got seqs %v, want %v", seqs, tt.want)
			}
		})
	}
}

func TestTailSkipsJunkAndLongLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l := openTest(t, Options{Path: path})
	appendN(t, l, 3)
	l.Close()
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("not json\n" + strings.Repeat("x", maxLine+10) + "\n{\"seq\":")
	f.Close()
	got, err := Tail([]string{path}, 2, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Seq != 2 || got[1].Seq != 3 {
		t.Fatalf("got %+v", got)
	}
}

func TestTailRecordRoundTrip(t *testing.T) {
	l := openTest(t, Options{})
	r := sample(5)
	r.Extra = map[string]any{"lockout": "tcp/22"}
	w, err := l.Append(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Tail([]string{l.path}, 1, Filter{})
	if err != nil || len(got) != 1 {
		t.Fatalf("Tail: %v %v", got, err)
	}
	g := got[0]
	if g.Hash != w.Hash || g.ID != w.ID || !g.TS.Equal(w.TS) || g.Extra["lockout"] != "tcp/22" || *g.ExitCode != *w.ExitCode {
		t.Fatalf("round trip: got %+v, want %+v", g, w)
	}
}

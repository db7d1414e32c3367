package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func benchAppend(b *testing.B, mode SyncMode, workers int) {
	l := openTest(b, Options{Path: filepath.Join(b.TempDir(), "audit.jsonl"), Sync: mode, RotateBytes: 64 << 20})
	r := sample(1)
	b.ReportAllocs()
	b.ResetTimer()
	var wg sync.WaitGroup
	per := (b.N + workers - 1) / workers
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				if _, err := l.Append(context.Background(), r); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(per*workers)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkAppend measures records/s: go test -run '^$' -bench Append ./internal/audit/
func BenchmarkAppend(b *testing.B) {
	b.Run("none", func(b *testing.B) { benchAppend(b, SyncNone, 1) })
	b.Run("none-32", func(b *testing.B) { benchAppend(b, SyncNone, 32) })
	b.Run("always", func(b *testing.B) { benchAppend(b, SyncAlways, 1) })
	b.Run("always-32", func(b *testing.B) { benchAppend(b, SyncAlways, 32) })
	b.Run("group-32", func(b *testing.B) { benchAppend(b, SyncGroup, 32) })
}

// mixedText is 2 MiB of shell, JSON and log text with a secret every few KiB.
func mixedText(n int) string {
	var sb strings.Builder
	for i := 0; sb.Len() < n; i++ {
		fmt.Fprintf(&sb, "Nov 22 10:15:%02d nas1 smbd[%d]: connect to service share initiated by host 10.0.0.%d\n", i%60, 1000+i, i%255)
		fmt.Fprintf(&sb, `{"user":"bob","path":"/srv/data/%d","size":%d,"mode":"0644"}`+"\n", i, i*7)
		if i%20 == 0 {
			fmt.Fprintf(&sb, "curl -H 'Authorization: Bearer tok%d' https://bob:pw%d@api.example.com/v1?token=t%d\n", i, i, i)
		}
	}
	return sb.String()[:n]
}

// commandText is n bytes of shell commands, a credential option every few.
func commandText(n int) string {
	var sb strings.Builder
	for i := 0; sb.Len() < n; i++ {
		fmt.Fprintf(&sb, "cd /srv/app%d && docker compose ps | grep -v exited; ls -la /var/log/nginx\n", i)
		if i%10 == 0 {
			fmt.Fprintf(&sb, "sshpass -p pw%d ssh -p 22 bob@nas uptime; curl -sSu bob:pw%d https://nas/api; htpasswd -b f bob pw%d\n", i, i, i)
		}
	}
	return sb.String()[:n]
}

func BenchmarkRedact(b *testing.B) {
	cases := map[string]string{
		"mixed-2MiB":     mixedText(2 << 20),
		"plain-2MiB":     strings.Repeat("lorem ipsum dolor sit amet 12345 ", (2<<20)/33),
		"keys-2MiB":      strings.Repeat("password token secret=", (2<<20)/22),
		"urls-2MiB":      strings.Repeat("a://b:c", (2<<20)/7),
		"jwtish-2MiB":    strings.Repeat("eyJ", (2<<20)/3),
		"quotes-2MiB":    `password="` + strings.Repeat(`\"`, 1<<20),
		"one-word-2MiB":  strings.Repeat("a", 2<<20),
		"pem-begin-2MiB": strings.Repeat("-----BEGIN PRIVATE KEY----- ", (2<<20)/28),
		"commands-2MiB":  commandText(2 << 20),
	}
	for name, s := range cases {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			cpu := cpuTime()
			for b.Loop() {
				Redact(s)
			}
			// CPU time per op, which a loaded machine does not inflate.
			b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

func BenchmarkRedactArgs(b *testing.B) {
	big, _ := json.Marshal(map[string]any{"command": mixedText(2 << 20), "env": map[string]string{"API_TOKEN": "x"}})
	b.SetBytes(int64(len(big)))
	cpu := cpuTime()
	for b.Loop() {
		RedactArgs(big, DefaultMaxValue)
	}
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkVerify(b *testing.B) {
	l := openTest(b, Options{Path: filepath.Join(b.TempDir(), "audit.jsonl")})
	appendN(b, l, 10000)
	l.Close()
	b.ResetTimer()
	for b.Loop() {
		rep, err := Verify([]string{l.path}, nil)
		if err != nil || rep.Problem != nil {
			b.Fatal(err, rep.Problem)
		}
	}
	b.ReportMetric(10000*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

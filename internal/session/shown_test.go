//go:build linux

package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/warden-mcp/warden/internal/audit"
)

// lockedBuffer is a log destination the session goroutines may share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestStartCommandSecretsStayOutOfRecords: a session's command line is
// typed by the agent (session_start's command), and its audit record
// redacts it; the session list (console, admin socket), the recording's
// header (warden sessions, replay) and the log line of the start showed
// it whole. Each spelling is a credential Redact knows in a command line,
// directly or as an argument of the program before it; nothing runs, each
// sits behind false &&, or is env's assignment for true.
func TestStartCommandSecretsStayOutOfRecords(t *testing.T) {
	shells := []string{
		"sshpass -p S3cr3tA1 ssh h",
		"mysql -uroot -pS3cr3tA2 shop",
		"PGPASSWORD=S3cr3tA3 psql -h db",
		"curl -u bob:S3cr3tA4 https://example.invalid/",
		"export GITHUB_TOKEN=S3cr3tA5; gh pr list",
		"psql postgresql://app:S3cr3tA6@db/x",
		"redis-cli -a 'S3cr3tA7' ping",
		"docker login -u bob --password=S3cr3tA8 r",
		"echo S3cr3tA9 | sudo -S id",
		"curl -H 'Authorization: Bearer S3cr3tB1' https://example.invalid/",
		"openssl rsa -passin pass:S3cr3tB2 -in k",
		"htpasswd -nbB bob S3cr3tB3",
		`mysql --password="S3cr3tB4" shop`,
		"chpasswd <<< bob:S3cr3tB5",
		"smbclient //h/s -U bob%S3cr3tB6",
	}
	type start struct {
		argv []string
		leak string
	}
	var starts []start
	for _, s := range shells {
		leak := s[strings.Index(s, "S3cr3t") : strings.Index(s, "S3cr3t")+8]
		starts = append(starts, start{[]string{"/bin/sh", "-c", "false && " + s}, leak})
	}
	// Argument vectors no shell joins: the program before reads them.
	starts = append(starts,
		start{[]string{"env", "PGPASSWORD=S3cr3tC1", "true"}, "S3cr3tC1"},
		start{[]string{"/usr/bin/env", "MYSQL_PWD=S3cr3tC2", "true"}, "S3cr3tC2"},
		start{[]string{"/bin/sh", "-c", "true", "sh", "--password", "S3cr3tC3"}, "S3cr3tC3"},
		start{[]string{"/bin/sh", "-c", "true", "mysql", "-pS3cr3tC4"}, "S3cr3tC4"},
	)
	for k, st := range starts {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			var log lockedBuffer
			r := newTestRegistry(t, Options{RecordDir: t.TempDir(), Logger: slog.New(slog.NewTextHandler(&log, nil))})
			info, err := r.Start(context.Background(), Spec{Argv: st.argv, Env: testEnv(), Owner: "tester"})
			if err != nil {
				t.Fatal(err)
			}
			listed, _ := json.Marshal(r.List())
			recs, err := ListRecordings(r.opts.RecordDir)
			if err != nil || len(recs) != 1 {
				t.Fatalf("recordings %v: %v", recs, err)
			}
			for what, text := range map[string]string{"Start's Info": fmt.Sprint(info.Argv), "List": string(listed),
				"recording header": recs[0].Command, "log": log.String()} {
				if strings.Contains(text, st.leak) {
					t.Errorf("%s keeps %q: %s", what, st.leak, text)
				}
			}
			if !strings.Contains(recs[0].Command, audit.Redacted) {
				t.Errorf("recording header %q lost the redacted command", recs[0].Command)
			}
		})
	}
}

// TestStartCommandShownAsIs: a command with no credential is shown as it
// runs, look-alikes of secret options included.
func TestStartCommandShownAsIs(t *testing.T) {
	for _, argv := range [][]string{
		{"/bin/sh", "-c", "ps -p 1; mkdir -p /tmp/x; echo PWD=/srv"},
		{"/bin/sh", "-c", "ssh -p 2222 bob@h uptime"},
		{"/bin/sh", "-c", "mysql --password-file /x; pg_dump --no-password db"},
		{"/bin/sh", "-c", "true", "sh", "mode=value", "--port", "8080"},
	} {
		r := newTestRegistry(t, Options{})
		info, err := r.Start(context.Background(), Spec{Argv: argv, Env: testEnv()})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(info.Argv) != fmt.Sprint(argv) {
			t.Errorf("argv %q shown as %q", argv, info.Argv)
		}
	}
}

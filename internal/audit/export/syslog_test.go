package export

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/audit"
)

// freePort returns a loopback port that was free a moment ago.
func freePort(t *testing.T, network string) int {
	t.Helper()
	if network == "udp" {
		c, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		return c.LocalAddr().(*net.UDPAddr).Port
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// writeCert writes a self-signed certificate for 127.0.0.1 and localhost.
func writeCert(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, IsCA: true, BasicConstraintsValid: true,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	return certFile, keyFile
}

type rsyslog struct {
	tcp, tls, udp int
	out           string
	cert          string
}

// startRsyslog runs Debian's rsyslogd in the foreground with a temporary
// config: plain TCP, TLS (gtls, anonymous clients) and UDP inputs on
// loopback, every message written to one file with the RFC 5424 fields
// rsyslog parsed out of it.
func startRsyslog(t *testing.T) *rsyslog {
	t.Helper()
	bin, err := exec.LookPath("rsyslogd")
	if err != nil {
		for _, p := range []string{"/usr/sbin/rsyslogd", "/sbin/rsyslogd"} {
			if _, err := os.Stat(p); err == nil {
				bin = p
			}
		}
	}
	if bin == "" {
		if os.Getenv("WARDEN_REQUIRE_RSYSLOG") == "1" {
			t.Fatal("rsyslogd not installed (apt-get install rsyslog rsyslog-gnutls)")
		}
		t.Skip("rsyslogd not installed")
	}
	dir := t.TempDir()
	cert, key := writeCert(t, dir)
	r := &rsyslog{tcp: freePort(t, "tcp"), tls: freePort(t, "tcp"), udp: freePort(t, "udp"), out: filepath.Join(dir, "out.log"), cert: cert}
	conf := fmt.Sprintf(`
global(workDirectory=%[1]q
       DefaultNetstreamDriverCAFile=%[2]q
       DefaultNetstreamDriverCertFile=%[2]q
       DefaultNetstreamDriverKeyFile=%[3]q
       maxMessageSize="64k")
module(load="imtcp")
module(load="imudp")
template(name="fields" type="string"
         string="%%hostname%%|%%app-name%%|%%procid%%|%%msgid%%|%%pri%%|%%structured-data%%|%%msg%%\n")
ruleset(name="audit") { action(type="omfile" file=%[4]q template="fields") }
input(type="imtcp" address="127.0.0.1" port="%[5]d" ruleset="audit")
input(type="imtcp" address="127.0.0.1" port="%[6]d" ruleset="audit"
      streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="anon")
input(type="imudp" address="127.0.0.1" port="%[7]d" ruleset="audit")
`, dir, cert, key, r.out, r.tcp, r.tls, r.udp)
	confFile := filepath.Join(dir, "rsyslog.conf")
	os.WriteFile(confFile, []byte(conf), 0o600)
	if out, err := exec.Command(bin, "-N1", "-f", confFile).CombinedOutput(); err != nil {
		t.Fatalf("rsyslogd -N1: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-n", "-f", confFile, "-i", filepath.Join(dir, "pid"))
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("rsyslogd output:\n%s", stderr.String())
		}
	})
	for _, port := range []int{r.tcp, r.tls} {
		deadline := time.Now().Add(20 * time.Second)
		for {
			c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
			if err == nil {
				c.Close()
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("rsyslogd is not listening on %d: %v\n%s", port, err, stderr.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return r
}

// waitLines waits until the output file holds n lines containing marker.
func (r *rsyslog) waitLines(t *testing.T, marker string, n int) []string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(r.out)
		var got []string
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, marker) {
				got = append(got, l)
			}
		}
		if len(got) >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// testLog writes records through a real audit.Log with the exporter as
// its sink and returns what was written.
func testLog(t *testing.T, e audit.Sink, node string, n int) []audit.Record {
	t.Helper()
	l, err := audit.Open(audit.Options{Path: filepath.Join(t.TempDir(), "audit.jsonl"), Node: node, Sinks: []audit.Sink{e}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var out []audit.Record
	for i := 0; i < n; i++ {
		code := 0
		r, err := l.Append(context.Background(), audit.Record{
			Identity: "alice", Tool: "run_command", Host: "local", Decision: "allow", Status: "ok",
			Args: json.RawMessage(fmt.Sprintf(`{"command":"echo \"%d\" ] | = \\ end"}`, i)), ExitCode: &code,
		})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func TestSyslogToRsyslog(t *testing.T) {
	rs := startRsyslog(t)
	for _, tc := range []struct {
		network, format string
		port            int
	}{
		{"tcp", "json", rs.tcp},
		{"tls", "json", rs.tls},
		{"udp", "json", rs.udp},
		{"tcp", "cef", rs.tcp},
		{"tls", "leef", rs.tls},
	} {
		t.Run(tc.network+"-"+tc.format, func(t *testing.T) {
			node := "node-" + tc.network + "-" + tc.format
			s := Syslog{Network: tc.network, Address: fmt.Sprintf("127.0.0.1:%d", tc.port), Format: tc.format, Facility: 10, AppName: "warden", Version: "test"}
			if tc.network == "tls" {
				var err error
				if s.TLS, err = TLSConfig(s.Address, rs.cert, "", "", ""); err != nil {
					t.Fatal(err)
				}
			}
			enc, err := s.Encoder()
			if err != nil {
				t.Fatal(err)
			}
			e, err := New(Options{Name: node, Queue: 100, Dial: s.Dial(), Encode: enc})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { e.Run(ctx, 10*time.Second); close(done) }()
			recs := testLog(t, e, node, 20)
			got := rs.waitLines(t, node+"|", 20)
			cancel()
			<-done
			if len(got) != 20 {
				t.Fatalf("rsyslog received %d of 20 messages:\n%s", len(got), strings.Join(got, "\n"))
			}
			if st := e.Stats(); st.Sent != 20 || st.Dropped != 0 {
				t.Fatalf("stats: %+v", st)
			}
			for i, line := range got {
				f := strings.SplitN(line, "|", 7)
				r := recs[i]
				if f[0] != node || f[1] != "warden" || f[3] != "audit" || f[4] != "86" {
					t.Fatalf("header fields as rsyslog parsed them: %q", f[:5])
				}
				wantSD := fmt.Sprintf(`[warden@32473 seq="%d" hash="%s" prev="%s" id="%s" tool="run_command" decision="allow" status="ok"]`, r.Seq, r.Hash, r.Prev, r.ID)
				if f[5] != wantSD {
					t.Fatalf("structured data:\ngot  %s\nwant %s", f[5], wantSD)
				}
				msg := strings.TrimPrefix(f[6], " ")
				switch tc.format {
				case "json":
					var back audit.Record
					if err := json.Unmarshal([]byte(msg), &back); err != nil || back.Hash != r.Hash || back.Seq != r.Seq {
						t.Fatalf("message is not the record: %v %q", err, msg)
					}
				case "cef":
					if !strings.HasPrefix(msg, "CEF:0|warden-mcp|warden|test|run_command|run_command allow|3|") || !strings.Contains(msg, "cs5="+r.Hash) {
						t.Fatalf("CEF message: %q", msg)
					}
				case "leef":
					if !strings.HasPrefix(msg, "LEEF:1.0|warden-mcp|warden|test|run_command|") || !strings.Contains(msg, "hash="+r.Hash) {
						t.Fatalf("LEEF message: %q", msg)
					}
				}
			}
		})
	}
}

// TestSyslogTLSRefusesUnknownServer: a collector whose certificate is not
// trusted gets nothing; the exporter keeps retrying and says why.
func TestSyslogTLSRefusesUnknownServer(t *testing.T) {
	rs := startRsyslog(t)
	other, _ := writeCert(t, t.TempDir())
	s := Syslog{Network: "tls", Address: fmt.Sprintf("127.0.0.1:%d", rs.tls), Format: "json", Facility: 10}
	var err error
	if s.TLS, err = TLSConfig(s.Address, other, "", "", ""); err != nil {
		t.Fatal(err)
	}
	enc, _ := s.Encoder()
	e, _ := New(Options{Name: "untrusted", Queue: 10, Dial: s.Dial(), Encode: enc, Backoff: 10 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.Run(ctx, 0); close(done) }()
	testLog(t, e, "untrusted-node", 1)
	deadline := time.Now().Add(20 * time.Second)
	for e.Stats().LastError == "" && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	// The first error is the handshake's; once cancelled, a retry in
	// flight may end with the context's instead.
	first := e.Stats()
	cancel()
	<-done
	if st := e.Stats(); st.Sent != 0 || !strings.Contains(first.LastError, "certificate") {
		t.Fatalf("stats: %+v (first error %q), want nothing sent and a certificate error", st, first.LastError)
	}
	if got := rs.waitLines(t, "untrusted-node", 0); len(got) != 0 {
		t.Fatalf("rsyslog received %q from an untrusted connection", got)
	}
}

package config

import (
	"strings"
	"testing"
	"time"
)

func TestAuditExportDefaults(t *testing.T) {
	c, err := finish(t, "audit:\n  node: nas1\n  keep: {files: 3, max_age: 720h}\n  export:\n    - network: tcp\n      address: 127.0.0.1:601\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Audit.Node != "nas1" || c.Audit.Keep.Files != 3 || c.Audit.Keep.MaxAge.D() != 720*time.Hour {
		t.Fatalf("audit: %+v", c.Audit)
	}
	e := c.Audit.Export[0]
	if e.Type != "syslog" || e.Format != "json" || e.Facility != "authpriv" || e.AppName != "warden" || e.Queue != 4096 || e.Name != "syslog+tcp://127.0.0.1:601" {
		t.Fatalf("export defaults: %+v", e)
	}
}

func TestAuditErrors(t *testing.T) {
	tests := []struct{ name, yml, want string }{
		{"negative keep", "audit:\n  keep: {files: -1}\n", "audit.keep.files"},
		{"negative age", "audit:\n  keep: {max_age: -1h}\n", "audit.keep.max_age"},
		{"node with space", "audit:\n  node: my nas\n", "audit.node"},
		{"bad network", "audit:\n  export: [{network: http, address: 'a:1'}]\n", "audit.export[0].network"},
		{"bad format", "audit:\n  export: [{network: tcp, address: 'a:1', format: xml}]\n", "audit.export[0].format"},
		{"bad type", "audit:\n  export: [{type: kafka, network: tcp, address: 'a:1'}]\n", "audit.export[0].type"},
		{"otlp without protocol", "audit:\n  export: [{type: otlp, address: 'a:4317'}]\n", "audit.export[0].protocol"},
		{"otlp with network", "audit:\n  export: [{type: otlp, protocol: grpc, network: tcp, address: 'a:4317'}]\n", "for type syslog"},
		{"otlp with format", "audit:\n  export: [{type: otlp, protocol: grpc, format: cef, address: 'a:4317'}]\n", "for type syslog"},
		{"syslog with protocol", "audit:\n  export: [{network: tcp, protocol: grpc, address: 'a:1'}]\n", "for type otlp"},
		{"otlp insecure with ca", "audit:\n  export: [{type: otlp, protocol: http, insecure: true, ca_file: /ca.pem, address: 'a:4318'}]\n", "audit.export[0].insecure"},
		{"otlp bad header", "audit:\n  export: [{type: otlp, protocol: http, address: 'a:4318', headers: {'a b': x}}]\n", "audit.export[0].headers"},
		{"bad facility", "audit:\n  export: [{network: tcp, address: 'a:1', facility: local9}]\n", "audit.export[0].facility"},
		{"no address", "audit:\n  export: [{network: tcp}]\n", "audit.export[0].address"},
		{"bad port", "audit:\n  export: [{network: tcp, address: 'a:0'}]\n", "audit.export[0].address"},
		{"tls options without tls", "audit:\n  export: [{network: tcp, address: 'a:1', ca_file: /ca.pem}]\n", "need network tls"},
		{"cert without key", "audit:\n  export: [{network: tls, address: 'a:1', cert_file: /c.pem}]\n", "audit.export[0].cert_file"},
		{"queue", "audit:\n  export: [{network: udp, address: 'a:1', queue: -5}]\n", "audit.export[0].queue"},
		{"duplicate name", "audit:\n  export: [{name: s, network: udp, address: 'a:1'}, {name: s, network: tcp, address: 'a:1'}]\n", "audit.export[1].name"},
		{"unknown key", "audit:\n  export: [{network: udp, address: 'a:1', port: 5}]\n", "unknown key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := read(t, tc.yml, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error mentioning %q", err, tc.want)
			}
		})
	}
}

func TestAuditExportOTLP(t *testing.T) {
	c, err := finish(t, "audit:\n  export:\n    - type: otlp\n      protocol: grpc\n      address: collector:4317\n      headers: {x-api-key: k}\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	e := c.Audit.Export[0]
	if e.Name != "otlp+grpc://collector:4317" || e.Format != "" || e.Headers["x-api-key"] != "k" {
		t.Fatalf("otlp export: %+v", e)
	}
}

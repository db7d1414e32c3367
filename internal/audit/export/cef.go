package export

import (
	"strconv"
	"strings"

	"github.com/warden-mcp/warden/internal/audit"
)

// KV is one extension field of a CEF or LEEF event.
type KV struct{ K, V string }

// Vendor and product in CEF and LEEF headers.
const (
	Vendor  = "warden-mcp"
	Product = "warden"
)

// AppendCEFEvent appends a CEF:0 event (ArcSight Common Event Format):
//
//	CEF:0|Vendor|Product|Version|Signature ID|Name|Severity|k=v k=v …
//
// In the header '\' and '|' are escaped with a backslash and line breaks
// become spaces; in extension values '\' and '=' are escaped and line
// breaks are written as \n and \r. Empty values are left out.
func AppendCEFEvent(dst []byte, vendor, product, version, sigID, name string, severity int, ext []KV) []byte {
	dst = append(dst, "CEF:0|"...)
	for _, h := range []string{vendor, product, version, sigID, name} {
		dst = appendCEFHeader(dst, h)
		dst = append(dst, '|')
	}
	dst = strconv.AppendInt(dst, int64(severity), 10)
	dst = append(dst, '|')
	first := true
	for _, kv := range ext {
		if kv.V == "" {
			continue
		}
		if !first {
			dst = append(dst, ' ')
		}
		first = false
		dst = append(dst, kv.K...)
		dst = append(dst, '=')
		dst = appendCEFValue(dst, kv.V)
	}
	return dst
}

func appendCEFHeader(dst []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\', '|':
			dst = append(dst, '\\', c)
		case '\r', '\n':
			dst = append(dst, ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func appendCEFValue(dst []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\', '=':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// cefSeverity maps a record to CEF's 0-10 scale: 3 (low) for allowed
// calls, 5 (medium) for approvals and warden's own attestations, 7 (high)
// for refusals and failures.
func cefSeverity(r audit.Record) int {
	switch Severity(r) {
	case 4:
		return 7
	case 5:
		return 5
	}
	return 3
}

// AppendCEF appends a record as a CEF event; see docs/audit-shipping.md for
// the field mapping.
func AppendCEF(dst []byte, r audit.Record, version string) []byte {
	return AppendCEFEvent(dst, Vendor, Product, version, r.Tool, r.Tool+" "+r.Decision, cefSeverity(r), recordFields(r, cefKeys))
}

// fieldKeys names the keys a format gives each record field; a field with
// an empty key is left out.
type fieldKeys struct {
	time, node, identity, client, tool, host, tier, decision, reason, status,
	exitCode, duration, outputSHA, outputLen, args, id, seq, prev, hash, keyID string
	labels bool // CEF: custom fields carry a cs/cn label
}

var cefKeys = fieldKeys{
	time: "rt", node: "dvchost", identity: "suser", client: "requestClientApplication",
	tool: "cs1", host: "dhost", tier: "cn1", decision: "act", reason: "reason", status: "outcome",
	exitCode: "cn2", duration: "cn3", outputSHA: "fileHash", outputLen: "fsize", args: "cs2",
	id: "externalId", seq: "cs3", prev: "cs4", hash: "cs5", keyID: "cs6", labels: true,
}

var cefLabels = map[string]string{
	"cs1": "tool", "cn1": "tier", "cn2": "exitCode", "cn3": "durationMs", "cs2": "args",
	"cs3": "seq", "cs4": "prev", "cs5": "hash", "cs6": "keyId",
}

// recordFields lists a record's fields under a format's keys, in a fixed
// order.
func recordFields(r audit.Record, k fieldKeys) []KV {
	exit := ""
	if r.ExitCode != nil {
		exit = strconv.Itoa(*r.ExitCode)
	}
	outLen := ""
	if r.OutputLen > 0 || r.OutputSHA256 != "" {
		outLen = strconv.FormatInt(r.OutputLen, 10)
	}
	var ts string
	if k.labels {
		ts = strconv.FormatInt(r.TS.UnixMilli(), 10)
	} else {
		ts = r.TS.UTC().Format(leefTimeLayout)
	}
	fields := []KV{
		{k.time, ts}, {k.node, r.Node}, {k.identity, r.Identity}, {k.client, r.Client},
		{k.tool, r.Tool}, {k.host, r.Host}, {k.tier, strconv.Itoa(r.Tier)}, {k.decision, r.Decision},
		{k.reason, r.Reason}, {k.status, r.Status}, {k.exitCode, exit},
		{k.duration, strconv.FormatInt(r.DurationMS, 10)}, {k.outputSHA, r.OutputSHA256},
		{k.outputLen, outLen}, {k.args, string(r.Args)}, {k.id, r.ID},
		{k.seq, strconv.FormatUint(r.Seq, 10)}, {k.prev, r.Prev}, {k.hash, r.Hash}, {k.keyID, r.KeyID},
	}
	out := make([]KV, 0, 2*len(fields))
	for _, f := range fields {
		if f.K == "" || f.V == "" {
			continue
		}
		out = append(out, f)
		if label, ok := cefLabels[f.K]; ok && k.labels {
			out = append(out, KV{f.K + "Label", label})
		}
	}
	return out
}

// oneLine replaces line breaks and tabs, which LEEF values cannot carry.
func oneLine(v string) string {
	if !strings.ContainsAny(v, "\t\r\n") {
		return v
	}
	return strings.NewReplacer("\t", " ", "\r", " ", "\n", " ").Replace(v)
}

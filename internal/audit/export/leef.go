package export

import (
	"strconv"

	"github.com/warden-mcp/warden/internal/audit"
)

// leefTimeLayout is LEEF's default devTime format, MMM dd yyyy HH:mm:ss.SSS
// zzz, which warden also names in devTimeFormat.
const (
	leefTimeLayout = "Jan 02 2006 15:04:05.000 MST"
	leefTimeFormat = "MMM dd yyyy HH:mm:ss.SSS zzz"
)

// AppendLEEFEvent appends a LEEF event (IBM QRadar Log Event Extended
// Format). Version "1.0" separates attributes with a tab; "2.0" writes the
// delimiter in the header and separates with it:
//
//	LEEF:1.0|Vendor|Product|Version|EventID|k=v<TAB>k=v …
//	LEEF:2.0|Vendor|Product|Version|EventID|^|k=v^k=v …
//
// '|' in the header is escaped with a backslash; tabs, line breaks and the
// delimiter in values become spaces. Empty values are left out.
func AppendLEEFEvent(dst []byte, version, vendor, product, productVersion, eventID string, delim byte, attrs []KV) []byte {
	dst = append(dst, "LEEF:"...)
	dst = append(dst, version...)
	dst = append(dst, '|')
	for _, h := range []string{vendor, product, productVersion, eventID} {
		for i := 0; i < len(h); i++ {
			switch c := h[i]; c {
			case '|':
				dst = append(dst, '\\', c)
			case '\r', '\n', '\t':
				dst = append(dst, ' ')
			default:
				dst = append(dst, c)
			}
		}
		dst = append(dst, '|')
	}
	if version != "1.0" {
		dst = append(dst, delim, '|')
	} else {
		delim = '\t'
	}
	first := true
	for _, kv := range attrs {
		if kv.V == "" {
			continue
		}
		if !first {
			dst = append(dst, delim)
		}
		first = false
		dst = append(dst, kv.K...)
		dst = append(dst, '=')
		v := oneLine(kv.V)
		for i := 0; i < len(v); i++ {
			if v[i] == delim {
				dst = append(dst, ' ')
			} else {
				dst = append(dst, v[i])
			}
		}
	}
	return dst
}

var leefKeys = fieldKeys{
	time: "devTime", node: "identHostName", identity: "usrName", client: "client",
	tool: "tool", host: "resource", tier: "tier", decision: "cat", reason: "reason", status: "status",
	exitCode: "exitCode", duration: "durationMs", outputSHA: "outputSha256", outputLen: "outputLen",
	args: "args", id: "externalId", seq: "seq", prev: "prev", hash: "hash", keyID: "keyId",
}

// AppendLEEF appends a record as a LEEF 1.0 event; see
// docs/audit-shipping.md for the field mapping.
func AppendLEEF(dst []byte, r audit.Record, version string) []byte {
	attrs := append([]KV{{"devTimeFormat", leefTimeFormat}, {"sev", strconv.Itoa(cefSeverity(r))}}, recordFields(r, leefKeys)...)
	return AppendLEEFEvent(dst, "1.0", Vendor, Product, version, r.Tool, '\t', attrs)
}

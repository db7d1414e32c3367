// Package audit owns warden's tamper-evident audit log: one JSON line per
// call, hash-chained so that any edit, insertion, deletion or reordering is
// found by Verify, written with one write(2) per line so that a crash leaves
// at most one torn final line, rotated without breaking the chain, and read
// back by Tail. It also owns redaction of call arguments (Redact, RedactArgs)
// so that secrets never reach the log.
//
// # Line format and chain
//
// Every line is a JSON object whose last two fields are "prev" and "hash":
//
//	{"ts":"…","seq":7,…,"prev":"<64 hex>","hash":"<64 hex>"}\n
//
// The canonical bytes of a line are the line without its trailing
// `,"hash":"<64 hex>"` (and without the newline), so the canonical bytes end
// with `"prev":"<64 hex>"}`. The hash is
//
//	hash = hex(SHA-256(prev || canonical))          without a key
//	hash = hex(HMAC-SHA256(key, prev || canonical)) with a key
//
// where prev is the previous record's hash as 64 lowercase hex characters
// and, for the first record of a brand-new log, 64 zeros (Genesis). Because
// verification works on the raw line bytes, fields added by later versions
// verify unchanged. Seq starts at 1 and grows by one per record across
// rotated files. A keyed log carries "key_id", a fingerprint of the key, so
// that a wrong key is reported as such rather than as an edit.
//
// A third party can check an unkeyed line with nothing but a shell:
//
//	line=$(sed -n 7p audit.jsonl); prev=…  # hash of line 6
//	printf '%s%s' "$prev" "${line%,\"hash\":*}}" | sha256sum
package audit

import (
	"encoding/json"
	"time"
)

// Genesis is the prev hash of the first record of a brand-new log.
const Genesis = "0000000000000000000000000000000000000000000000000000000000000000"

// Record is one audited call: who asked, what, the decision and the outcome.
// Args must already be redacted and bounded (RedactArgs); output bodies are
// never recorded, only their SHA-256 and length.
type Record struct {
	TS           time.Time       `json:"ts"`
	Seq          uint64          `json:"seq"`
	ID           string          `json:"id"`               // call id; generated when empty
	Node         string          `json:"node"`             // host name of the warden instance
	Identity     string          `json:"identity"`         // who made the call
	Client       string          `json:"client,omitempty"` // MCP client name/version
	Tool         string          `json:"tool"`
	Host         string          `json:"host,omitempty"`
	Tier         int             `json:"tier"`
	Decision     string          `json:"decision"` // allow, denied, approval_required, approved, …
	Reason       string          `json:"reason,omitempty"`
	Args         json.RawMessage `json:"args,omitempty"`
	ExitCode     *int            `json:"exit_code,omitempty"`
	Status       string          `json:"status"` // ok, denied, approval_required, timeout, invalid_argument, error
	DurationMS   int64           `json:"duration_ms"`
	OutputSHA256 string          `json:"output_sha256,omitempty"`
	OutputLen    int64           `json:"output_len,omitempty"`
	Extra        map[string]any  `json:"extra,omitempty"`  // e.g. session recording path/size/sha256, lockouts
	KeyID        string          `json:"key_id,omitempty"` // fingerprint of the HMAC key of a keyed log
	Prev         string          `json:"prev"`
	Hash         string          `json:"hash"`
}

// body is the part of a Record that is known before the chain lock is
// taken: every field between seq and prev, in Record's order, so that a line
// reads exactly like a marshalled Record.
type body struct {
	ID           string          `json:"id"`
	Node         string          `json:"node"`
	Identity     string          `json:"identity"`
	Client       string          `json:"client,omitempty"`
	Tool         string          `json:"tool"`
	Host         string          `json:"host,omitempty"`
	Tier         int             `json:"tier"`
	Decision     string          `json:"decision"`
	Reason       string          `json:"reason,omitempty"`
	Args         json.RawMessage `json:"args,omitempty"`
	ExitCode     *int            `json:"exit_code,omitempty"`
	Status       string          `json:"status"`
	DurationMS   int64           `json:"duration_ms"`
	OutputSHA256 string          `json:"output_sha256,omitempty"`
	OutputLen    int64           `json:"output_len,omitempty"`
	Extra        map[string]any  `json:"extra,omitempty"`
	KeyID        string          `json:"key_id,omitempty"`
}

func bodyOf(r *Record) body {
	return body{
		ID: r.ID, Node: r.Node, Identity: r.Identity, Client: r.Client,
		Tool: r.Tool, Host: r.Host, Tier: r.Tier, Decision: r.Decision,
		Reason: r.Reason, Args: r.Args, ExitCode: r.ExitCode, Status: r.Status,
		DurationMS: r.DurationMS, OutputSHA256: r.OutputSHA256,
		OutputLen: r.OutputLen, Extra: r.Extra, KeyID: r.KeyID,
	}
}

// Recovery records: when the log finds a torn tail (a crash or a failed
// write left part of a line), it terminates it and appends a chained record
// that attests the torn bytes, so Verify can tell a crash from tampering.
const (
	recoveryTool     = "warden.audit"
	recoveryDecision = "recovered"
	// lostDecision: records that could not be written (disk full, I/O
	// error) are counted, and the first append that succeeds again is
	// preceded by a chained record saying how many, since when and why.
	lostDecision = "lost"
)

// recoveryExtra is the attestation carried in a recovery record's Extra.
type recoveryExtra struct {
	TornBytes  int64  `json:"torn_bytes"`
	TornSHA256 string `json:"torn_sha256"`
}

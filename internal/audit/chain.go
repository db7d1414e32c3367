package audit

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash"
)

const (
	hashHexLen = 64
	// hashTail is the fixed-size end of every line: `,"hash":"<64 hex>"}`.
	hashTailLen = len(`,"hash":"`) + hashHexLen + len(`"}`)
	// prevTail is the fixed-size end of the canonical bytes before "}":
	// `,"prev":"<64 hex>"`.
	prevTailLen = len(`,"prev":"`) + hashHexLen + len(`"`)
)

// chain computes record hashes, keyed or not. It is not safe for concurrent
// use; the Log guards it with its mutex and Verify owns its own.
type chain struct {
	h     hash.Hash
	keyed bool
	kid   string
	sum   [sha256.Size]byte
	hexed [hashHexLen]byte
}

func newChain(key []byte) *chain {
	if len(key) == 0 {
		return &chain{h: sha256.New()}
	}
	return &chain{h: hmac.New(sha256.New, key), keyed: true, kid: keyID(key)}
}

// keyID returns a short fingerprint of key. It is derived through HMAC so it
// reveals nothing useful about the key itself.
func keyID(key []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("warden audit key id"))
	return hex.EncodeToString(m.Sum(nil)[:8])
}

// hashLine returns hex(H(prev || canon || "}")) where canon is a line's
// canonical bytes without their closing brace.
func (c *chain) hashLine(prev string, canonNoBrace []byte) string {
	c.h.Reset()
	c.h.Write([]byte(prev))
	c.h.Write(canonNoBrace)
	c.h.Write([]byte{'}'})
	hex.Encode(c.hexed[:], c.h.Sum(c.sum[:0]))
	return string(c.hexed[:])
}

// parsedLine is what Verify, Open and Tail need from a raw line.
type parsedLine struct {
	canon []byte // canonical bytes without the closing brace
	prev  string
	hash  string
	meta  lineMeta
}

// lineMeta holds the few fields read from the JSON itself.
type lineMeta struct {
	Seq      uint64          `json:"seq"`
	Tool     string          `json:"tool"`
	Decision string          `json:"decision"`
	KeyID    string          `json:"key_id"`
	Extra    json.RawMessage `json:"extra"`
}

var (
	errNoHash = errors.New("line does not end with a hash field")
	errNoPrev = errors.New("line has no prev field before its hash")
)

// parseLine splits a line (without its newline) into canonical bytes, prev
// and hash by position, and checks that the whole line is one JSON object.
// Positions, not a JSON decode, pick prev and hash, so duplicate keys cannot
// make the verifier and the writer disagree.
func parseLine(line []byte) (parsedLine, error) {
	var p parsedLine
	n := len(line)
	if n < 1+prevTailLen+hashTailLen || !bytes.HasPrefix(line[n-hashTailLen:], []byte(`,"hash":"`)) ||
		!bytes.HasSuffix(line, []byte(`"}`)) {
		return p, errNoHash
	}
	h := line[n-hashTailLen+len(`,"hash":"`) : n-2]
	if !isLowerHex(h) {
		return p, errNoHash
	}
	canon := line[:n-hashTailLen]
	m := len(canon)
	if !bytes.HasPrefix(canon[m-prevTailLen:], []byte(`,"prev":"`)) || canon[m-1] != '"' {
		return p, errNoPrev
	}
	pv := canon[m-prevTailLen+len(`,"prev":"`) : m-1]
	if !isLowerHex(pv) {
		return p, errNoPrev
	}
	if err := json.Unmarshal(line, &p.meta); err != nil {
		return p, err
	}
	p.canon, p.prev, p.hash = canon, string(pv), string(h)
	return p, nil
}

func isLowerHex(b []byte) bool {
	if len(b) != hashHexLen {
		return false
	}
	for _, c := range b {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// recovery returns the attestation of a recovery record, or false when the
// line is not one.
func (p *parsedLine) recovery() (recoveryExtra, bool) {
	var x struct {
		TornBytes  *int64 `json:"torn_bytes"`
		TornSHA256 string `json:"torn_sha256"`
	}
	if p.meta.Tool != recoveryTool || p.meta.Decision != recoveryDecision ||
		json.Unmarshal(p.meta.Extra, &x) != nil || x.TornBytes == nil || len(x.TornSHA256) != hashHexLen {
		return recoveryExtra{}, false
	}
	return recoveryExtra{TornBytes: *x.TornBytes, TornSHA256: x.TornSHA256}, true
}

// pruned returns the attestation of a pruning record, or false when the
// line is not one.
func (p *parsedLine) pruned() (prunedExtra, bool) {
	var x prunedExtra
	if p.meta.Tool != recoveryTool || p.meta.Decision != prunedDecision ||
		json.Unmarshal(p.meta.Extra, &x) != nil || x.KeptFromSeq == 0 || len(x.KeptFromPrev) != hashHexLen {
		return prunedExtra{}, false
	}
	return x, true
}

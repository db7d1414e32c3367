package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// The head file (the log's path + ".head") holds the chain head: the seq
// and hash of the newest record, rewritten in place with one pwrite(2) of a
// fixed-size line after every append, under the same lock and with the
// same sync mode as the log. Deleting records from the end of the log
// leaves the head ahead of it, which Verify's caller reports as records
// missing. Someone who can rewrite the log can rewrite the head as well;
// only a copy kept elsewhere (an exported record carries seq and hash)
// catches that.

// headSize is the fixed length of the head file, newline included.
const headSize = 192

// HeadPath returns the head file of the log at path.
func HeadPath(path string) string { return path + ".head" }

// LockPath returns the lock file of the log at path.
func LockPath(path string) string { return path + ".lock" }

// Anchor is a chain position: a record's seq and hash.
type Anchor struct {
	Seq  uint64 `json:"seq"`
	Hash string `json:"hash"`
}

// headLine is the head file's content. Ino and End say which file and size
// the head was written for, so a writer can adopt it without reading the
// log's tail.
type headLine struct {
	Seq  uint64 `json:"seq"`
	Hash string `json:"hash"`
	Ino  uint64 `json:"ino"`
	End  int64  `json:"end"`
}

func encodeHead(buf []byte, h headLine) []byte {
	b := append(buf[:0], `{"seq":`...)
	b = strconv.AppendUint(b, h.Seq, 10)
	b = append(b, `,"hash":"`...)
	b = append(b, h.Hash...)
	b = append(b, `","ino":`...)
	b = strconv.AppendUint(b, h.Ino, 10)
	b = append(b, `,"end":`...)
	b = strconv.AppendInt(b, h.End, 10)
	b = append(b, '}')
	for len(b) < headSize-1 {
		b = append(b, ' ')
	}
	return append(b, '\n')
}

func decodeHead(b []byte) (headLine, error) {
	var h headLine
	b = bytes.TrimRight(b, " \n\x00")
	if err := json.Unmarshal(b, &h); err != nil {
		return h, fmt.Errorf("head file is not a head: %w", err)
	}
	if !isLowerHex([]byte(h.Hash)) {
		return h, errors.New("head file has no valid hash")
	}
	return h, nil
}

// readHeadAt reads the head from an open head file.
func readHeadAt(f *os.File) (headLine, error) {
	var buf [headSize]byte
	n, err := f.ReadAt(buf[:], 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return headLine{}, err
	}
	return decodeHead(buf[:n])
}

// ReadHead reads the head file at path (see HeadPath). It fails with an
// error wrapping fs.ErrNotExist when there is none.
func ReadHead(path string) (Anchor, error) {
	f, err := os.Open(path)
	if err != nil {
		return Anchor{}, fmt.Errorf("audit: head: %w", err)
	}
	defer f.Close()
	h, err := readHeadAt(f)
	if err != nil {
		return Anchor{}, fmt.Errorf("audit: head %s: %w", path, err)
	}
	return Anchor{Seq: h.Seq, Hash: h.Hash}, nil
}

// ParseAnchor parses "SEQ:HASH", the form exported records and
// `warden audit verify --anchor` use.
func ParseAnchor(s string) (Anchor, error) {
	seq, hash, ok := bytes.Cut([]byte(s), []byte(":"))
	if !ok {
		return Anchor{}, fmt.Errorf("anchor %q: want SEQ:HASH", s)
	}
	n, err := strconv.ParseUint(string(seq), 10, 64)
	if err != nil || n == 0 {
		return Anchor{}, fmt.Errorf("anchor %q: seq must be a positive integer", s)
	}
	if !isLowerHex(hash) {
		return Anchor{}, fmt.Errorf("anchor %q: hash must be 64 lowercase hex characters", s)
	}
	return Anchor{Seq: n, Hash: string(hash)}, nil
}

// Tail-truncation findings, reported by CheckHead and CheckAnchor.
const (
	KindMissing   = "missing"    // the anchor is ahead of the log: its newest records were removed
	KindForked    = "forked"     // the record at the anchor's seq has another hash
	KindHeadLags  = "head-lags"  // (note only) the head is behind the log: a writer died between its append and the head update
	KindNoHead    = "no-head"    // (note only) there is no head file to check the tail against
	KindHeadWrong = "head-wrong" // the head file cannot be read as a head
)

// CheckHead compares a verified log's end with an anchor (the head file,
// or one kept elsewhere). It returns a problem when records the anchor
// names are missing or differ, and a note (nil problem) when the anchor is
// merely behind.
func CheckHead(rep Report, a Anchor) (problem *Problem, note string) {
	switch {
	case a.Seq > rep.LastSeq:
		return &Problem{Kind: KindMissing, Detail: fmt.Sprintf("%d records missing after seq %d: the anchor names seq %d", a.Seq-rep.LastSeq, rep.LastSeq, a.Seq)}, ""
	case a.Seq == rep.LastSeq && a.Hash != rep.LastHash:
		return &Problem{Kind: KindForked, Detail: fmt.Sprintf("record seq %d has hash %s, the anchor says %s: the newest record was replaced", a.Seq, short(rep.LastHash), short(a.Hash))}, ""
	case a.Seq < rep.LastSeq:
		return nil, fmt.Sprintf("anchor seq %d is behind the log's last record (seq %d)", a.Seq, rep.LastSeq)
	}
	return nil, ""
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12] + "…"
	}
	return h
}

// CheckAnchor compares a verified log with an anchor kept elsewhere (an
// exported record's seq and hash, a head copied off the host): the record
// at the anchor's seq must be there with the anchor's hash, and none after
// it may be missing.
func CheckAnchor(rep Report, a Anchor) (*Problem, string, error) {
	if a.Seq >= rep.LastSeq {
		p, note := CheckHead(rep, a)
		return p, note, nil
	}
	if a.Seq < rep.PrunedBefore {
		return nil, fmt.Sprintf("anchor seq %d was pruned (the log starts at seq %d)", a.Seq, rep.PrunedBefore), nil
	}
	mr := newMultiReader(rep.Files, 0, 0, 0)
	defer mr.close()
	for {
		ln, fi, err := mr.next()
		if errors.Is(err, io.EOF) {
			return &Problem{Kind: KindMissing, Detail: fmt.Sprintf("no record seq %d in the log", a.Seq)}, "", nil
		}
		if err != nil {
			return nil, "", err
		}
		if !ln.terminated || ln.tooLong {
			continue
		}
		p, perr := parseLine(ln.b)
		if perr != nil || p.meta.Seq != a.Seq {
			continue
		}
		if p.hash != a.Hash {
			return &Problem{File: rep.Files[fi], Line: ln.no, Kind: KindForked,
				Detail: fmt.Sprintf("record seq %d has hash %s, the anchor says %s: the chain was rewritten from here", a.Seq, short(p.hash), short(a.Hash))}, "", nil
		}
		return nil, "", nil
	}
}

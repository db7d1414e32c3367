package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
)

// Problem kinds reported by Verify.
const (
	KindEdited    = "edited"    // a record's bytes no longer match its hash, or it was re-hashed after a change
	KindInserted  = "inserted"  // a line that is not part of the chain sits between two records that chain
	KindDeleted   = "deleted"   // seq jumps: records, or a whole rotated file, are missing
	KindReordered = "reordered" // the expected next record appears later in the log
	KindTruncated = "truncated" // the final line ends without a newline (torn write, never recovered)
	KindMalformed = "malformed" // a line that is not a record: bad JSON, or no prev/hash fields
	KindBadKey    = "bad-key"   // the record was keyed with another key, or keyed vs unkeyed mismatch
	KindRecovered = "recovered" // (Report.Recovered only) torn bytes attested by a recovery record
)

// Problem locates the first bad record: File and 1-based Line.
type Problem struct {
	File   string
	Line   int
	Kind   string
	Detail string
}

func (p *Problem) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", p.File, p.Line, p.Kind, p.Detail)
}

// Report is the outcome of Verify. Records counts the records verified
// before the first problem (all of them when Problem is nil). Recovered
// lists torn lines that a chained recovery record attests; they are not
// records, and they do not break the chain.
//
// A log whose oldest rotated files retention pruned starts at a seq above
// 1; it verifies when a pruning record later in the chain attests exactly
// that start (PrunedBefore). LastSeq and LastHash are the newest verified
// record, to compare with the head file or an external anchor (CheckHead).
type Report struct {
	Files        []string
	Records      int
	Problem      *Problem // nil = chain intact
	Recovered    []Problem
	PrunedBefore uint64 // the chain starts at this seq after attested pruning; 0 = starts at 1
	LastSeq      uint64
	LastHash     string
}

// lookahead bounds how far Verify scans ahead to tell reordering from
// deletion, and how many junk lines a recovery record may attest.
const (
	lookahead     = 10000
	maxTornLines  = 64
	maxTornRegion = 16 << 20
)

type loc struct {
	file int
	line int
	end  int64 // offset just after the record's newline
}

// verifier walks the chain across files.
type verifier struct {
	paths     []string
	lines     *atomic.Int64 // lines read, for VerifyCounting's caller
	ch        *chain
	key       bool
	count     int
	lastSeq   uint64
	lastHash  string
	priorHash string // hash of the record before the last one
	last      loc
	rep       Report
	// start is set when the chain starts above seq 1, until a pruning
	// record attests that start.
	start    *startAt
	attested bool
}

type startAt struct {
	seq  uint64
	prev string
	file int
	line int
}

// Verify checks the chain across paths, given in chain order (see Files).
// It returns an error only when a file cannot be read; a broken chain is
// reported in Report.Problem with the file and line of the first bad record.
// With a key, every record must be keyed with it.
//
// Deleting whole records from the end of the newest file cannot be told
// apart from a log that simply ended there; compare Report with an anchor
// taken from Log.Head to catch that.
func Verify(paths []string, key []byte) (Report, error) {
	return VerifyCounting(paths, key, nil)
}

// VerifyCounting is Verify, adding each line it reads to lines (when not
// nil), so that a caller can tell a long verification from one waiting
// on a file that does not answer.
func VerifyCounting(paths []string, key []byte, lines *atomic.Int64) (Report, error) {
	v := &verifier{paths: paths, ch: newChain(key), key: len(key) > 0, lastHash: Genesis, last: loc{file: -1}, lines: lines}
	v.rep.Files = paths
	rep, err := v.walk()
	if err != nil || v.start == nil {
		return rep, err
	}
	if v.attested {
		v.rep.PrunedBefore = v.start.seq
		return v.rep, nil
	}
	// An unattested start is the first problem, whatever came after it.
	v.rep.Records = 0
	v.rep.Recovered = nil
	v.report(v.start.file, v.start.line, KindDeleted, fmt.Sprintf("log starts at seq %d, not 1, and no pruning record attests it: earlier records or rotated files are missing", v.start.seq))
	return v.rep, nil
}

func (v *verifier) walk() (Report, error) {
	mr := newMultiReader(v.paths, 0, 0, 0)
	defer mr.close()
	for {
		ln, fi, err := mr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if v.lines != nil {
			v.lines.Add(1)
		}
		if err != nil {
			return v.rep, err
		}
		if !ln.terminated {
			v.report(fi, ln.no, KindTruncated, fmt.Sprintf("final line is %d bytes without a newline: a write was torn and never recovered", ln.size))
			return v.rep, nil
		}
		p, perr := parseLine(ln.b)
		if perr == nil && v.keyProblem(&p) == "" && v.chains(&p) {
			v.accept(&p, fi, ln)
			continue
		}
		if perr == nil && v.count == 0 && v.start == nil && p.meta.Seq > 1 && v.keyProblem(&p) == "" && v.selfOK(&p) {
			// Either pruned (a pruning record must attest it) or
			// deleted; decided at the end.
			v.start = &startAt{seq: p.meta.Seq, prev: p.prev, file: fi, line: ln.no}
			v.lastSeq, v.lastHash = p.meta.Seq-1, p.prev
			v.accept(&p, fi, ln)
			continue
		}
		// recover reads on, which reuses the line buffer.
		ln.b = bytes.Clone(ln.b)
		if perr == nil {
			p, _ = parseLine(ln.b)
		}
		ok, err := v.recover(mr, fi, ln)
		if err != nil {
			return v.rep, err
		}
		if ok {
			continue
		}
		if perr != nil && ln.tooLong {
			perr = fmt.Errorf("line is longer than %d bytes", maxLine)
		}
		return v.rep, v.classify(fi, ln, &p, perr)
	}
	return v.rep, nil
}

func (v *verifier) keyProblem(p *parsedLine) string {
	switch {
	case v.key && p.meta.KeyID == "":
		return "record is not keyed, but a key was given"
	case v.key && p.meta.KeyID != v.ch.kid:
		return fmt.Sprintf("record was keyed with key %s, not the given key %s", p.meta.KeyID, v.ch.kid)
	case !v.key && p.meta.KeyID != "":
		return fmt.Sprintf("record is keyed (key %s); verify with its key", p.meta.KeyID)
	}
	return ""
}

// selfOK reports whether the line's hash matches its own bytes and prev.
func (v *verifier) selfOK(p *parsedLine) bool {
	return v.ch.hashLine(p.prev, p.canon) == p.hash
}

// chains reports whether p is the record that should come next.
func (v *verifier) chains(p *parsedLine) bool {
	return p.meta.Seq == v.lastSeq+1 && p.prev == v.lastHash && v.selfOK(p)
}

func (v *verifier) accept(p *parsedLine, fi int, ln rawLine) {
	v.count++
	v.priorHash = v.lastHash
	v.lastSeq, v.lastHash = p.meta.Seq, p.hash
	v.last = loc{file: fi, line: ln.no, end: ln.start + ln.size + 1}
	v.rep.Records = v.count
	v.rep.LastSeq, v.rep.LastHash = p.meta.Seq, p.hash
	if v.start != nil && !v.attested {
		if x, ok := p.pruned(); ok && x.KeptFromSeq == v.start.seq && x.KeptFromPrev == v.start.prev {
			v.attested = true
		}
	}
}

func (v *verifier) report(fi, line int, kind, detail string) error {
	v.rep.Problem = &Problem{File: v.paths[fi], Line: line, Kind: kind, Detail: detail}
	return nil
}

// recover checks whether ln starts a torn region attested by the recovery
// record that follows it in the same file. It consumes lines from mr; when
// it fails, Verify stops anyway.
func (v *verifier) recover(mr *multiReader, fi int, ln rawLine) (bool, error) {
	start := int64(0)
	if v.last.file == fi {
		start = v.last.end
	}
	if ln.start != start || ln.tooLong {
		return false, nil
	}
	h := sha256.New()
	first := ln.no
	for i := 0; i < maxTornLines; i++ {
		h.Write(ln.b)
		h.Write([]byte{'\n'})
		next, nfi, err := mr.next()
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if nfi != fi || !next.terminated || next.tooLong || next.start-start > maxTornRegion {
			return false, nil
		}
		p, perr := parseLine(next.b)
		if perr != nil {
			ln = next
			continue
		}
		x, ok := p.recovery()
		if !ok || v.keyProblem(&p) != "" || !v.chains(&p) ||
			x.TornBytes != next.start-start || x.TornSHA256 != hex.EncodeToString(h.Sum(nil)) {
			return false, nil
		}
		v.rep.Recovered = append(v.rep.Recovered, Problem{
			File: v.paths[fi], Line: first, Kind: KindRecovered,
			Detail: fmt.Sprintf("%d torn bytes attested by the recovery record at line %d", x.TornBytes, next.no),
		})
		v.accept(&p, fi, next)
		return true, nil
	}
	return false, nil
}

// classify names the first problem at ln, looking ahead where the kind
// depends on what follows.
func (v *verifier) classify(fi int, ln rawLine, p *parsedLine, perr error) error {
	if perr != nil {
		return v.report(fi, ln.no, KindMalformed, perr.Error())
	}
	if msg := v.keyProblem(p); msg != "" {
		return v.report(fi, ln.no, KindBadKey, msg)
	}
	next, ok, err := v.peek(fi, ln)
	if err != nil {
		return err
	}
	self := v.selfOK(p)
	seq, want := p.meta.Seq, v.lastSeq+1
	if ok && v.keyProblem(&next) == "" && v.chains(&next) {
		if self && seq == want+1 && p.prev == next.hash {
			return v.report(fi, ln.no, KindReordered, fmt.Sprintf("seq %d comes before seq %d", seq, want))
		}
		return v.report(fi, ln.no, KindInserted, fmt.Sprintf("line is not part of the chain: the next record (seq %d) follows seq %d", next.meta.Seq, v.lastSeq))
	}
	if !self {
		return v.report(fi, ln.no, KindEdited, fmt.Sprintf("record seq %d does not match its hash", p.meta.Seq))
	}
	switch {
	case seq == want && v.count > 0:
		// The previous record verified on its own, so it (or this
		// record's prev) was changed and then re-hashed.
		v.rep.Records--
		return v.report(v.last.file, v.last.line, KindEdited,
			fmt.Sprintf("record seq %d was changed and re-hashed: the next record (%s:%d) chains from a different hash", v.lastSeq, v.paths[fi], ln.no))
	case seq == want:
		return v.report(fi, ln.no, KindEdited, "first record's prev is not the genesis hash")
	case seq == v.lastSeq && p.prev == v.priorHash && v.count > 0:
		v.rep.Records--
		return v.report(v.last.file, v.last.line, KindInserted,
			fmt.Sprintf("record seq %d is not part of the chain: the next record (%s:%d) chains from the record before it", v.lastSeq, v.paths[fi], ln.no))
	case seq < want:
		return v.report(fi, ln.no, KindInserted, fmt.Sprintf("seq %d repeats or goes back after seq %d", seq, v.lastSeq))
	}
	found, err := v.seek(fi, ln, want)
	if err != nil {
		return err
	}
	switch {
	case found:
		return v.report(fi, ln.no, KindReordered, fmt.Sprintf("seq %d comes before seq %d", seq, want))
	case v.count == 0:
		return v.report(fi, ln.no, KindDeleted, fmt.Sprintf("log starts at seq %d, not 1: earlier records or rotated files are missing", seq))
	case ln.no == 1 && fi > v.last.file:
		return v.report(fi, ln.no, KindDeleted, fmt.Sprintf("seq jumps from %d to %d at the start of this file: a rotated file or records are missing", v.lastSeq, seq))
	}
	return v.report(fi, ln.no, KindDeleted, fmt.Sprintf("seq jumps from %d to %d: records are missing", v.lastSeq, seq))
}

// peek parses the line after ln, if any.
func (v *verifier) peek(fi int, ln rawLine) (parsedLine, bool, error) {
	mr := newMultiReader(v.paths, fi, ln.start+ln.size+1, ln.no)
	defer mr.close()
	next, _, err := mr.next()
	if errors.Is(err, io.EOF) {
		return parsedLine{}, false, nil
	}
	if err != nil || !next.terminated || next.tooLong {
		return parsedLine{}, false, err
	}
	p, perr := parseLine(next.b)
	if perr != nil {
		return parsedLine{}, false, nil
	}
	// p.canon aliases the reader's buffer, which mr.close leaves intact.
	return p, true, nil
}

// seek reports whether the record that should follow the last good one
// appears within lookahead lines after ln.
func (v *verifier) seek(fi int, ln rawLine, want uint64) (bool, error) {
	mr := newMultiReader(v.paths, fi, ln.start+ln.size+1, ln.no)
	defer mr.close()
	for i := 0; i < lookahead; i++ {
		next, _, err := mr.next()
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if !next.terminated || next.tooLong {
			continue
		}
		p, perr := parseLine(next.b)
		if perr == nil && p.meta.Seq == want && p.prev == v.lastHash && v.selfOK(&p) {
			return true, nil
		}
	}
	return false, nil
}

// multiReader reads the lines of several files in order, starting at an
// offset (and line number) in one of them.
type multiReader struct {
	paths []string
	fi    int
	off   int64
	no    int
	f     *os.File
	lr    *lineReader
}

func newMultiReader(paths []string, fi int, off int64, no int) *multiReader {
	return &multiReader{paths: paths, fi: fi, off: off, no: no}
}

func (m *multiReader) next() (rawLine, int, error) {
	for m.fi < len(m.paths) {
		if m.f == nil {
			f, err := os.Open(m.paths[m.fi])
			if err != nil {
				return rawLine{}, m.fi, fmt.Errorf("audit: verify: %w", err)
			}
			if _, err := f.Seek(m.off, io.SeekStart); err != nil {
				f.Close()
				return rawLine{}, m.fi, fmt.Errorf("audit: verify: %w", err)
			}
			m.f, m.lr = f, newLineReader(f, m.off, m.no)
		}
		ln, err := m.lr.next()
		if err == nil {
			return ln, m.fi, nil
		}
		if !errors.Is(err, io.EOF) {
			return ln, m.fi, fmt.Errorf("audit: verify %s: %w", m.paths[m.fi], err)
		}
		m.f.Close()
		m.f, m.off, m.no = nil, 0, 0
		m.fi++
	}
	return rawLine{}, m.fi, io.EOF
}

func (m *multiReader) close() {
	if m.f != nil {
		m.f.Close()
	}
}

package audit

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxLine bounds how much of one line readers keep in memory. Lines the Log
// writes are far smaller (see maxRecord); anything longer is not a record.
const maxLine = 4 << 20

// rawLine is one line of a file as read, without its newline.
type rawLine struct {
	b          []byte // valid until the next read; nil when tooLong
	start      int64  // offset of the line's first byte
	size       int64  // bytes of the line without the newline
	no         int    // 1-based line number
	terminated bool   // ended with '\n'
	tooLong    bool   // longer than maxLine; b is nil
}

// lineReader reads lines forwards with bounded memory.
type lineReader struct {
	r   *bufio.Reader
	off int64
	no  int
	buf []byte
}

func newLineReader(r io.Reader, off int64, no int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), off: off, no: no}
}

// next returns the next line, or io.EOF when none is left.
func (lr *lineReader) next() (rawLine, error) {
	l := rawLine{start: lr.off}
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		l.size += int64(len(chunk))
		if !l.tooLong {
			if len(lr.buf)+len(chunk) > maxLine+1 {
				l.tooLong = true
				lr.buf = lr.buf[:0]
			} else {
				lr.buf = append(lr.buf, chunk...)
			}
		}
		switch {
		case err == nil:
			l.terminated = true
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if l.size == 0 {
				return l, io.EOF
			}
		default:
			return l, err
		}
		break
	}
	lr.off += l.size
	lr.no++
	l.no = lr.no
	if l.terminated {
		l.size--
		if !l.tooLong {
			lr.buf = lr.buf[:len(lr.buf)-1]
		}
	}
	if !l.tooLong {
		l.b = lr.buf
	}
	return l, nil
}

// backReader reads lines from the end of a file towards its start, so the
// newest records are found without reading the whole file.
type backReader struct {
	ra     io.ReaderAt
	end    int64 // lines at or after end were returned
	blk    []byte
	blkOff int64
	line   []byte
}

const backBlock = 64 << 10

func newBackReader(ra io.ReaderAt, size int64) *backReader {
	return &backReader{ra: ra, end: size, blkOff: -1}
}

// prev returns the line before the last one returned; the first call returns
// the final line, which is unterminated when the file does not end in '\n'.
// Line numbers are not known and left zero.
func (b *backReader) prev() (rawLine, error) {
	if b.end <= 0 {
		return rawLine{}, io.EOF
	}
	var l rawLine
	cEnd := b.end
	last, err := b.byteAt(cEnd - 1)
	if err != nil {
		return l, err
	}
	if last == '\n' {
		cEnd--
		l.terminated = true
	}
	nl, err := b.lastNL(cEnd)
	if err != nil {
		return l, err
	}
	l.start, l.size = nl+1, cEnd-(nl+1)
	b.end = l.start
	switch {
	case l.size > maxLine:
		l.tooLong = true
	case l.start >= b.blkOff && cEnd <= b.blkOff+int64(len(b.blk)):
		l.b = b.blk[l.start-b.blkOff : cEnd-b.blkOff]
	default:
		b.line = append(b.line[:0], make([]byte, l.size)...)
		if _, err := b.ra.ReadAt(b.line, l.start); err != nil {
			return l, err
		}
		l.b = b.line
	}
	return l, nil
}

func (b *backReader) load(before int64) error {
	start := max(before-backBlock, 0)
	if cap(b.blk) < backBlock {
		b.blk = make([]byte, backBlock)
	}
	b.blk = b.blk[:before-start]
	if _, err := b.ra.ReadAt(b.blk, start); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	b.blkOff = start
	return nil
}

func (b *backReader) byteAt(off int64) (byte, error) {
	if off < b.blkOff || off >= b.blkOff+int64(len(b.blk)) || b.blkOff < 0 {
		if err := b.load(off + 1); err != nil {
			return 0, err
		}
	}
	return b.blk[off-b.blkOff], nil
}

// lastNL returns the offset of the last '\n' before before, or -1.
func (b *backReader) lastNL(before int64) (int64, error) {
	for before > 0 {
		if b.blkOff < 0 || before-1 < b.blkOff || before-1 >= b.blkOff+int64(len(b.blk)) {
			if err := b.load(before); err != nil {
				return 0, err
			}
		}
		if i := bytes.LastIndexByte(b.blk[:before-b.blkOff], '\n'); i >= 0 {
			return b.blkOff + int64(i), nil
		}
		before = b.blkOff
	}
	return -1, nil
}

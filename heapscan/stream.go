package heapscan

import (
	"errors"
	"fmt"
	"io"
)

var errVarint = errors.New("bad varint")

// stream is a buffered reader that hands out slices of its own buffer, so
// the decoder reads each top-level message without copying it. Its buffer
// grows only as data actually arrives, so a message that claims a huge
// length costs no more memory than the bytes that follow it.
type stream struct {
	src  io.Reader
	buf  []byte
	r, w int
	err  error
	off  int64 // bytes consumed so far
	// maxBuf caps the buffer's growth (0: no cap); a message longer than
	// it cannot be held, and the data behind it is over the size limit
	// anyway.
	maxBuf int
}

// fill makes at least n bytes available in buf[r:w], or returns the
// reader's error (io.ErrUnexpectedEOF when the data ends early).
func (s *stream) fill(n int) error {
	for s.w-s.r < n {
		if s.err != nil {
			if s.err == io.EOF {
				if s.w == s.r {
					return io.EOF
				}
				return io.ErrUnexpectedEOF
			}
			return s.err
		}
		if s.r > 0 {
			copy(s.buf, s.buf[s.r:s.w])
			s.w -= s.r
			s.r = 0
		}
		if s.w == len(s.buf) {
			// Grow by doubling, but never past what is asked.
			size := min(2*len(s.buf), max(n, len(s.buf)))
			if s.maxBuf > 0 && size > s.maxBuf {
				if len(s.buf) >= s.maxBuf {
					return fmt.Errorf("a message of %d bytes exceeds the limit of %d bytes: %w", n, s.maxBuf, errTooLarge)
				}
				size = s.maxBuf
			}
			nb := make([]byte, size)
			copy(nb, s.buf[:s.w])
			s.buf = nb
		}
		m, err := s.src.Read(s.buf[s.w:])
		s.w += m
		if err != nil {
			s.err = err
		}
	}
	return nil
}

// next returns the next n bytes; they are valid until the next call.
func (s *stream) next(n int) ([]byte, error) {
	if err := s.fill(n); err != nil {
		if err == io.EOF && n > 0 {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	b := s.buf[s.r : s.r+n]
	s.r += n
	s.off += int64(n)
	return b, nil
}

// skip discards the next n bytes without holding them: the buffer does
// not grow.
func (s *stream) skip(n int64) error {
	for n > 0 {
		if s.w == s.r {
			if err := s.fill(1); err != nil {
				if err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				return err
			}
		}
		k := min(int64(s.w-s.r), n)
		s.r += int(k)
		s.off += k
		n -= k
	}
	return nil
}

// uvarint reads a varint. It returns io.EOF only at a clean end of data.
func (s *stream) uvarint() (uint64, error) {
	if s.w-s.r < 10 {
		if err := s.fill(10); err != nil && err != io.ErrUnexpectedEOF {
			return 0, err
		}
		if s.w == s.r {
			if s.err == nil || s.err == io.EOF {
				return 0, io.EOF
			}
			return 0, s.err
		}
	}
	var v uint64
	for i := 0; i < 10; i++ {
		if s.r+i >= s.w {
			return 0, io.ErrUnexpectedEOF
		}
		c := s.buf[s.r+i]
		if i == 9 && c > 1 {
			return 0, errVarint
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			s.r += i + 1
			s.off += int64(i + 1)
			return v, nil
		}
	}
	return 0, errVarint
}

// limitReader reads at most limit bytes from r; reading more is an error
// wrapping errTooLarge, so a stream is stopped when it passes the limit,
// not after it has been read.
type limitReader struct {
	r     io.Reader
	limit int64
	n     int64
	what  string // "decompressed size", "download size"
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.n > l.limit {
		return 0, l.tooLarge()
	}
	if rest := l.limit - l.n + 1; int64(len(p)) > rest {
		p = p[:rest]
	}
	m, err := l.r.Read(p)
	l.n += int64(m)
	if l.n > l.limit {
		return m, l.tooLarge()
	}
	return m, err
}

func (l *limitReader) tooLarge() error {
	return fmt.Errorf("%s exceeds the limit of %d bytes: %w", l.what, l.limit, errTooLarge)
}

// prefetch reads src in a goroutine, a chunk ahead of the consumer, so
// that decompression and decoding run on two cores. At most
// prefetchChunks chunks are in flight. Close stops the goroutine.
type prefetch struct {
	chunks chan []byte
	free   chan []byte
	done   chan struct{}
	errc   chan error
	cur    []byte
	buf    []byte // the chunk cur points into, returned to free when used
	err    error
}

const (
	prefetchChunks = 4
	prefetchSize   = 128 << 10
)

func newPrefetch(src io.Reader) *prefetch {
	p := &prefetch{
		chunks: make(chan []byte, prefetchChunks),
		free:   make(chan []byte, prefetchChunks),
		done:   make(chan struct{}),
		errc:   make(chan error, 1),
	}
	go p.run(src)
	return p
}

func (p *prefetch) run(src io.Reader) {
	defer close(p.chunks)
	allocated := 0
	for {
		select {
		case <-p.done:
			return
		default:
		}
		var buf []byte
		if allocated < prefetchChunks {
			// Chunks are made as needed: a small input needs one.
			buf = make([]byte, prefetchSize)
			allocated++
		} else {
			select {
			case buf = <-p.free:
			case <-p.done:
				return
			}
		}
		n := 0
		var err error
		for n < len(buf) && err == nil {
			var m int
			m, err = src.Read(buf[n:])
			n += m
		}
		if n > 0 {
			select {
			case p.chunks <- buf[:n]:
			case <-p.done:
				return
			}
		}
		if err != nil {
			p.errc <- err
			return
		}
	}
}

func (p *prefetch) Read(b []byte) (int, error) {
	for len(p.cur) == 0 {
		if p.err != nil {
			return 0, p.err
		}
		if p.buf != nil {
			select {
			case p.free <- p.buf[:cap(p.buf)]:
			default: // the producer has made fewer than all chunks
			}
			p.buf = nil
		}
		chunk, ok := <-p.chunks
		if !ok {
			p.err = <-p.errc
			continue
		}
		p.cur, p.buf = chunk, chunk
	}
	n := copy(b, p.cur)
	p.cur = p.cur[n:]
	return n, nil
}

// Close stops the reading goroutine and waits until it has stopped, so
// nothing reads the source after Close returns. The wait is at most one
// read of the source.
func (p *prefetch) Close() {
	select {
	case <-p.done:
		return
	default:
		close(p.done)
	}
	for range p.chunks {
	}
}

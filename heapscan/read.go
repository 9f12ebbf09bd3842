package heapscan

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// DefaultMaxBytes is the default limit on a profile's decompressed size.
const DefaultMaxBytes = 512 << 20

// DefaultMaxModelBytes is the default limit with ReadOptions.Model: pprof's
// model costs up to some 30 times the decompressed profile in memory
// (a protobuf profile of distinct stacks), so it reads a profile of at
// most 8 MiB unless told otherwise, to stay under 300 MB.
const DefaultMaxModelBytes = 8 << 20

// DefaultTimeout is the default time limit for fetching a profile by URL.
const DefaultTimeout = 60 * time.Second

// ReadOptions bound what reading an untrusted profile may cost.
type ReadOptions struct {
	// MaxBytes limits the profile's decompressed size, enforced while
	// reading, and the memory its decoded data retains (a fifth of it).
	// Zero means DefaultMaxBytes, or DefaultMaxModelBytes with Model.
	MaxBytes int64
	// Timeout limits fetching a profile by URL. Zero means
	// DefaultTimeout.
	Timeout time.Duration
	// Model reads the profile with github.com/google/pprof/profile's full
	// model instead of the streaming readers, after the streaming
	// decoder's checks of the input (for a file, in a first pass that
	// keeps nothing). It costs about 20 times the input in memory: it is
	// for cross-checking.
	Model bool
	// Client fetches URLs; nil means a client with Timeout.
	Client *http.Client
}

func (o ReadOptions) maxBytes() int64 {
	switch {
	case o.MaxBytes > 0:
		return o.MaxBytes
	case o.Model:
		return DefaultMaxModelBytes
	}
	return DefaultMaxBytes
}

// Read reads a heap profile from r: gzip-compressed or plain protobuf
// (decoded as a stream unless opts.Model is set) or the legacy text
// format (read as a stream, lines with the same stack added together as
// they are read, unless opts.Model is set). It checks that the profile is
// a heap profile and stops, with an error wrapping ErrTooLarge, as soon as
// the decompressed data passes opts.MaxBytes.
func Read(r io.Reader, opts ReadOptions) (*Heap, error) {
	return read(context.Background(), r, opts)
}

// ReadContext is Read, stopped when ctx is done: the error then wraps
// ctx.Err().
func ReadContext(ctx context.Context, r io.Reader, opts ReadOptions) (*Heap, error) {
	return read(ctx, r, opts)
}

func read(ctx context.Context, r io.Reader, opts ReadOptions) (*Heap, error) {
	h, err := readProfile(ctx, r, opts)
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("reading stopped: %w", ctx.Err())
	}
	return h, err
}

func readProfile(ctx context.Context, r io.Reader, opts ReadOptions) (*Heap, error) {
	if opts.Model {
		// pprof's model needs the whole input in memory. When r can be
		// read twice (a file), read it once as a stream first, keeping
		// nothing, so that an input over the limit or with a field that
		// claims more than remains is refused before it is held.
		if sk, ok := r.(io.ReadSeeker); ok {
			if start, err := sk.Seek(0, io.SeekCurrent); err == nil {
				if _, err := readPass(ctx, sk, opts, passCheck); err != nil {
					return nil, err
				}
				if _, err := sk.Seek(start, io.SeekStart); err != nil {
					return nil, err
				}
			}
		}
		return readPass(ctx, r, opts, passModel)
	}
	return readPass(ctx, r, opts, passStream)
}

// How readPass reads the (decompressed) profile.
type passKind int

const (
	passStream passKind = iota // the streaming readers
	passModel                  // pprof's model, the input held in memory
	passCheck                  // the streaming readers, for their checks only
)

func readPass(ctx context.Context, r io.Reader, opts ReadOptions, kind passKind) (*Heap, error) {
	limit := opts.maxBytes()
	hint, inputSize := sizeHint(r)
	if ctx.Done() != nil {
		r = ctxReader{ctx, r}
	}
	br := bufio.NewReaderSize(r, bufSize(inputSize))
	head, err := br.Peek(2)
	if len(head) == 0 {
		if err != nil && err != io.EOF {
			return nil, err
		}
		return nil, errors.New("not a profile: the file is empty")
	}
	var src io.Reader = br
	var gzipped *gzip.Reader
	if len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, errors.New("truncated profile: the gzip header ends early")
		}
		if err != nil {
			return nil, fmt.Errorf("corrupt gzip data: %w", err)
		}
		gzipped = zr
		zr.Multistream(true)
		src = zr
		inputSize = -1 // the trailer's size is unchecked until the end
	}
	lr := &limitReader{r: src, limit: limit, what: "decompressed size"}
	var dr *bufio.Reader
	if gzipped != nil && (hint <= 0 || hint > prefetchSize) {
		// Inflate in a second goroutine, ahead of the decoder. A
		// profile that fits in one of its chunks (as the gzip trailer
		// tells) is inflated inline: the goroutine would only add its
		// start and its chunk's allocation.
		pf := newPrefetch(lr)
		defer pf.Close()
		dr = bufio.NewReaderSize(pf, bufSize(hint))
	} else {
		dr = bufio.NewReaderSize(lr, bufSize(hint))
	}
	head, err = dr.Peek(512)
	if len(head) == 0 {
		if err == io.ErrUnexpectedEOF {
			return nil, errors.New("truncated profile: compressed data ends early")
		}
		if err != nil && err != io.EOF {
			return nil, wrapGzip(err)
		}
		return nil, errors.New("not a profile: no data after decompression")
	}
	var h *Heap
	text := looksLikeText(head)
	switch {
	case kind == passModel:
		h, err = readModel(dr, limit, min(hint, limit), inputSize, text)
	case text:
		h, err = decodeText(dr, retainedBudget(limit))
	case kind == passCheck:
		err = scanStream(dr, limit, inputSize)
	default:
		h, err = decodeStream(dr, limit, min(hint, limit), inputSize)
	}
	if err != nil {
		if gzipped != nil && !errors.Is(err, errTooLarge) && ctx.Err() == nil {
			// Data that decompresses to a bad profile is often a damaged
			// gzip stream whose damage flate cannot see before the
			// checksum: read to the end (within the limit) to tell.
			if _, gzErr := io.Copy(io.Discard, dr); gzErr != nil && !errors.Is(gzErr, errTooLarge) {
				if gzErr == io.ErrUnexpectedEOF {
					return nil, fmt.Errorf("truncated profile: compressed data ends early (%w)", err)
				}
				return nil, wrapGzip(gzErr)
			}
		}
		return nil, wrapGzip(err)
	}
	if kind == passCheck {
		return nil, nil
	}
	if _, _, err := h.sampleIndexes("inuse"); err != nil {
		if _, _, err2 := h.sampleIndexes("alloc"); err2 != nil {
			return nil, err
		}
	}
	return h, nil
}

// bufSize is the size of a read buffer for size bytes (0 or less:
// unknown): 16 KiB, or less for a smaller input, but at least 1 KiB,
// which holds the 512 bytes the format is told by.
func bufSize(size int64) int {
	const most, least = 16 << 10, 1 << 10
	if size <= 0 || size >= most {
		return most
	}
	return int(max(size, least))
}

// ctxReader stops reading once its context is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// sizeHint guesses the decompressed size of the profile r holds, when r
// can tell without being consumed (a file, a bytes.Reader): the size of a
// plain profile, or the gzip trailer's ISIZE field. It returns 0 when it
// cannot tell. The decoder only uses it to size its buffers. exact is
// the size of what remains of r when r can tell it (else -1): a plain
// profile's declared lengths are checked against it.
func sizeHint(r io.Reader) (hint, exact int64) {
	ra, ok1 := r.(io.ReaderAt)
	sk, ok2 := r.(io.Seeker)
	if !ok1 || !ok2 {
		return 0, -1
	}
	cur, err := sk.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, -1
	}
	end, err := sk.Seek(0, io.SeekEnd)
	if _, err2 := sk.Seek(cur, io.SeekStart); err != nil || err2 != nil {
		return 0, -1
	}
	if end < cur {
		return 0, -1
	}
	var head [2]byte
	if n, _ := ra.ReadAt(head[:], cur); n < 2 || head[0] != 0x1f || head[1] != 0x8b {
		if fi, ok := r.(interface{ Stat() (os.FileInfo, error) }); ok {
			if st, err := fi.Stat(); err != nil || !st.Mode().IsRegular() {
				return 0, -1 // a device or pipe: its size says nothing
			}
		}
		return end - cur, end - cur
	}
	var trailer [4]byte
	if end-cur < 18 {
		return 0, end - cur
	}
	if n, _ := ra.ReadAt(trailer[:], end-4); n < 4 {
		return 0, end - cur
	}
	isize := int64(uint32(trailer[0]) | uint32(trailer[1])<<8 | uint32(trailer[2])<<16 | uint32(trailer[3])<<24)
	// The trailer is unchecked until the end: believe it only as far as
	// profiles compress (a tenth of their size; allow a twentieth).
	return min(isize, 20*(end-cur)), end - cur
}

// wrapGzip names gzip's errors as such.
func wrapGzip(err error) error {
	if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) {
		return fmt.Errorf("corrupt gzip data: %w", err)
	}
	var ce flate.CorruptInputError
	if errors.As(err, &ce) {
		return fmt.Errorf("corrupt gzip data: %w", err)
	}
	return err
}

// readModel reads all of r (at most limit bytes) and parses it with the
// pprof model. A protobuf profile's top-level fields are checked as the
// bytes arrive (scanStream), so that a declared length the input cannot
// hold stops reading before the input is in memory; a text profile's
// symbol comments name its frames as they do for the streaming reader.
func readModel(r io.Reader, limit, hint, inputSize int64, text bool) (*Heap, error) {
	var buf bytes.Buffer
	buf.Grow(int(max(hint, 0)))
	if text {
		if _, err := buf.ReadFrom(r); err != nil {
			if err == io.ErrUnexpectedEOF {
				return nil, errors.New("truncated profile: compressed data ends early")
			}
			return nil, err
		}
	} else if err := scanStream(io.TeeReader(r, &buf), limit, inputSize); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	p, err := profile.ParseData(data)
	if err != nil {
		if text {
			if _, herr := parseTextHeader(firstLine(data)); herr != nil {
				return nil, herr
			}
			return nil, fmt.Errorf("malformed profile: %w", err)
		}
		return nil, fmt.Errorf("malformed profile: %w", err)
	}
	h, addrs, err := fromProfile(p)
	if err != nil {
		return nil, err
	}
	if text {
		syms, err := scanSymbols(data)
		if err != nil {
			return nil, fmt.Errorf("malformed profile: %w", err)
		}
		h.symbolize(addrs, syms, -1)
	}
	return h, nil
}

func firstLine(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// looksLikeText reports whether b is printable text, as the legacy
// formats are; a protobuf profile starts with control bytes.
func looksLikeText(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			return false
		}
		if c == 0x7f {
			return false
		}
	}
	return true
}

// ReadFile reads the heap profile in the named file. Errors begin with
// "reading heap profile <name>".
func ReadFile(name string, opts ReadOptions) (*Heap, error) {
	return readFile(context.Background(), name, opts)
}

func readFile(ctx context.Context, name string, opts ReadOptions) (*Heap, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("reading heap profile: %w", err)
	}
	defer f.Close()
	h, err := read(ctx, f, opts)
	if err != nil {
		return nil, fmt.Errorf("reading heap profile %s: %w", name, err)
	}
	return h, nil
}

// IsURL reports whether name is an http:// or https:// URL.
func IsURL(name string) bool {
	return strings.HasPrefix(name, "http://") || strings.HasPrefix(name, "https://")
}

// Fetch reads the heap profile served at rawURL, a live process's
// /debug/pprof/heap endpoint. It adds gc=1 to the query, so the runtime
// collects garbage first and the profile is current, and it bounds the
// request by opts.Timeout and the body by opts.MaxBytes (before and after
// decompression). When ctx is done, fetching stops and the error wraps
// ctx.Err().
func Fetch(ctx context.Context, rawURL string, opts ReadOptions) (*Heap, error) {
	h, err := fetch(ctx, rawURL, opts)
	if err != nil {
		return nil, fmt.Errorf("reading heap profile %s: %w", rawURL, err)
	}
	return h, nil
}

// ErrFetch is matched (errors.Is) by the error of a profile that could not
// be fetched: the server could not be reached, timed out (before its
// answer or while sending its body), cut the connection or answered with
// another status than 200. A profile that arrived but is bad does not
// match it.
var ErrFetch = errors.New("fetching the profile failed")

// fetchError marks a failure to get a profile from its server; its message
// is the cause's.
type fetchError struct{ err error }

func (e fetchError) Error() string        { return e.err.Error() }
func (e fetchError) Unwrap() error        { return e.err }
func (e fetchError) Is(target error) bool { return target == ErrFetch }

func fetch(parent context.Context, rawURL string, opts ReadOptions) (*Heap, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("unsupported URL scheme %q: want http or https", u.Scheme)
	}
	q := u.Query()
	q.Set("gc", "1")
	u.RawQuery = q.Encode()
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	// transport counts what the server sent of the body.
	transport := &transportReader{}
	// stopped says why a failed fetch failed when a context is done: the
	// caller's context (an interrupt) or the timeout, which is said as
	// such, whatever the reader was doing when it struck (a gzip header
	// cut short by the deadline is no corrupt gzip data).
	stopped := func(err error) error {
		if perr := parent.Err(); perr != nil {
			return fmt.Errorf("fetching stopped: %w", perr)
		}
		var ne net.Error
		if ctx.Err() != nil || errors.As(err, &ne) && ne.Timeout() {
			return timeoutError{after: timeout, received: transport.n, answered: transport.r != nil}
		}
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	client := opts.Client
	if client == nil {
		client = &http.Client{Timeout: timeout}
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fetchError{stopped(err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
		return nil, fetchError{fmt.Errorf("server answered %s: %s", resp.Status, strings.TrimSpace(string(msg)))}
	}
	limit := opts.maxBytes()
	if resp.ContentLength > limit {
		return nil, fmt.Errorf("download size %d exceeds the limit of %d bytes: %w", resp.ContentLength, limit, errTooLarge)
	}
	// A body that stops arriving (too slow for the timeout, the
	// connection cut) is a failure to fetch, not a bad profile.
	transport.r = resp.Body
	body := &limitReader{r: transport, limit: limit, what: "download size"}
	h, err := readProfile(ctx, body, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fetchError{stopped(err)}
		}
		if transport.err != nil {
			return nil, fetchError{fmt.Errorf("the body did not arrive whole (%v): %w", transport.err, err)}
		}
		return nil, stopped(err)
	}
	return h, nil
}

// timeoutError is a fetch that the timeout ended: before the server
// answered, or after it had sent received bytes of the body. It matches
// context.DeadlineExceeded.
type timeoutError struct {
	after    time.Duration
	received int64
	answered bool
}

func (e timeoutError) Error() string {
	if !e.answered {
		return fmt.Sprintf("timed out after %s waiting for the server's answer", e.after)
	}
	return fmt.Sprintf("timed out after %s, %d bytes of the profile received", e.after, e.received)
}

func (e timeoutError) Unwrap() error { return context.DeadlineExceeded }

// transportReader passes a response body through, counts its bytes and
// keeps the first error of the transport (anything but the body's end).
type transportReader struct {
	r   io.Reader
	n   int64
	err error
}

func (t *transportReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.n += int64(n)
	if err != nil && err != io.EOF && t.err == nil {
		t.err = err
	}
	return n, err
}

// Open reads the heap profile named by name: a URL (see Fetch) or a file
// (see ReadFile). Reading stops when ctx is done.
func Open(ctx context.Context, name string, opts ReadOptions) (*Heap, error) {
	if IsURL(name) {
		return Fetch(ctx, name, opts)
	}
	return readFile(ctx, name, opts)
}

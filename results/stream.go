package results

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/memprof/memprof/internal/readlimit"
)

// DefaultMaxRows is the most rows a ResultsReader reads unless its
// MaxRows says otherwise: instance, throughput and unavailable rows and
// the rows of trade-off tables, together. At this limit every command
// that reads results files stays under 300 MB of resident memory (the
// test is TestResultsRSS in cmd/memprof).
const DefaultMaxRows = 50_000

// MaxRowBytes is the most JSON one row, or one other member of the file
// (env, method, agreement), may take: 1 MiB. A decoder holds one row's
// text at a time.
const MaxRowBytes = 1 << 20

// RetainedPerRow is what the decoded rows of a file may keep, on average
// per row of the reader's row limit: 2 KiB (so 100 MiB at the default
// limit). It bounds what a few rows with long lists or strings (a million
// samples in one row) cost, which the row count alone does not. The rows
// of a real run keep about 1.1 KiB (instances, with their sites) to 1.9
// KiB (operations, with their sites and per-sample lists) each.
const RetainedPerRow = 2 << 10

// ErrTooManyRows is wrapped by the error of a results file with more rows
// than the reader's limit, or whose rows keep more than the limit allows
// (RetainedPerRow); raising the row limit raises both.
var ErrTooManyRows = errors.New("results file exceeds its row limit")

// rowLimitError is a file past the row limit: msg says how.
type rowLimitError struct{ msg string }

func (e *rowLimitError) Error() string        { return e.msg }
func (e *rowLimitError) Is(target error) bool { return target == ErrTooManyRows }

// ReadFileContext is ReadFile that stops, with ctx's cause, when ctx is
// done: it looks at ctx for every block read and every row decoded. A
// file larger than the byte limit is refused before it is read.
func (rd Reader) ReadFileContext(ctx context.Context, path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading results: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > rd.maxBytes() {
		return nil, fmt.Errorf("%s: %w", readingResults(path), &readlimit.TooLargeError{Limit: rd.maxBytes()})
	}
	return rd.decode(ctx, f, path, func() (io.ReadCloser, error) { return os.Open(path) })
}

// ReadContext is Read that stops, with ctx's cause, when ctx is done.
func (rd Reader) ReadContext(ctx context.Context, r io.Reader, name string) (*File, error) {
	var again func() (io.ReadCloser, error)
	if s, ok := r.(io.ReadSeeker); ok {
		if start, err := s.Seek(0, io.SeekCurrent); err == nil {
			again = func() (io.ReadCloser, error) {
				_, err := s.Seek(start, io.SeekStart)
				return io.NopCloser(s), err
			}
		}
	}
	return rd.decode(ctx, r, name, again)
}

func (rd Reader) maxBytes() int64 {
	if rd.MaxBytes <= 0 {
		return DefaultMaxResultsBytes
	}
	return rd.MaxBytes
}

func (rd Reader) maxRows() int {
	if rd.MaxRows <= 0 {
		return DefaultMaxRows
	}
	return rd.MaxRows
}

// DecodeResults decodes and validates a results file held in data; name
// names it in errors. It is ResultsReader.Read without the byte limit
// (data is read already); the row limit is the default one. See
// decodedResults for what is checked. The returned Results does not
// retain data.
func Decode(data []byte, name string) (*File, error) {
	rd := Reader{MaxBytes: max(int64(len(data)), 1)}
	return rd.decode(context.Background(), bytes.NewReader(data), name, func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	})
}

// decode streams a results file from r, one row at a time, and validates
// it. again, if not nil, reads the file again from its start: a decoding
// error is then located as LINE:COL (else as a byte offset).
func (rd Reader) decode(ctx context.Context, r io.Reader, name string, again func() (io.ReadCloser, error)) (*File, error) {
	s := &stream{ctx: ctx, maxRows: rd.maxRows()}
	s.in = &boundedReader{ctx: ctx, r: r, limit: rd.maxBytes()}
	s.dec = json.NewDecoder(s.in)
	var plain plainResults
	err := s.results(&plain)
	if err == nil {
		return decodedResults((*File)(&plain), name)
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%s: %w", readingResults(name), context.Cause(ctx))
	}
	// An input past the byte limit is refused as that, whatever else is
	// wrong with it (endless zeros are not read as a syntax error): the
	// rest is read, without being kept, up to the limit.
	var tl *readlimit.TooLargeError
	if !errors.As(err, &tl) {
		s.in.rowStart = -1
		if _, derr := io.Copy(io.Discard, s.in); errors.As(derr, &tl) {
			err = derr
		}
	}
	var pe *posError
	switch {
	case errors.As(err, &pe):
		plain = plainResults{} // what was decoded is not needed to say where
		pos, msg := locate(again, pe)
		return nil, fmt.Errorf("%s: %w: %s: %s", readingResults(name), ErrNotResults, pos, msg)
	case errors.Is(err, errTruncated):
		return nil, fmt.Errorf("%s: %w: truncated JSON", readingResults(name), ErrNotResults)
	}
	return nil, fmt.Errorf("%s: %w", readingResults(name), err)
}

// errTruncated: the input ends inside the file's object.
var errTruncated = errors.New("truncated JSON")

// posError is a decoding problem at byte off of the input. With
// inValue, off is where a value (a row) starts, and the problem is a
// syntax error inside it, which locate finds by scanning the value again:
// the decoder's own offsets do not count from the input's start.
type posError struct {
	off     int64
	msg     string
	inValue bool
}

func (e *posError) Error() string { return "byte " + strconv.FormatInt(e.off, 10) + ": " + e.msg }

// locate renders the position of e as LINE:COL, reading the input again
// (a row's worth of it at most held at once), or as "byte N" when the
// input cannot be read again.
func locate(again func() (io.ReadCloser, error), e *posError) (pos, msg string) {
	if again == nil {
		return "byte " + strconv.FormatInt(e.off, 10), e.msg
	}
	rc, err := again()
	if err != nil {
		return "byte " + strconv.FormatInt(e.off, 10), e.msg
	}
	defer rc.Close()
	br := bufio.NewReaderSize(rc, 64<<10)
	line, col := 1, int64(1)
	skip := func(n int64) {
		for ; n > 0; n-- {
			c, err := br.ReadByte()
			if err != nil {
				return
			}
			if c == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
	}
	skip(e.off)
	// A value's syntax error, or a token's: past the white space (and the
	// separator before a value) to where it starts.
	for sep := false; ; {
		b, err := br.Peek(1)
		if err != nil {
			break
		}
		c := b[0]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || ((c == ',' || c == ':') && !sep && e.inValue) {
			sep = sep || c == ',' || c == ':'
			skip(1)
			continue
		}
		break
	}
	msg = e.msg
	if e.inValue {
		// Scan the value alone: json.Unmarshal checks it before
		// decoding anything, with offsets that count from its start. A
		// value that scans well is fine itself: what precedes it is not
		// (a missing comma), and the error is at its start.
		window, _ := br.Peek(4*MaxRowBytes + 1)
		var v json.RawMessage
		var se *json.SyntaxError
		if err := json.Unmarshal(window, &v); errors.As(err, &se) && se.Offset > 0 && !strings.Contains(se.Error(), "after top-level value") {
			skip(se.Offset - 1)
			msg = strings.TrimPrefix(se.Error(), "json: ")
		}
	}
	return fmt.Sprintf("%d:%d", line, col), msg
}

// boundedReader passes r through, counting the bytes: it fails with a
// *readlimit.TooLargeError past limit, with ctx's cause once ctx is done,
// and with errRowTooLarge when the decoder reads more than a row's worth
// beyond the start of the row it decodes (the precise check is on the
// row's length; this one bounds the decoder's buffer first).
type boundedReader struct {
	ctx      context.Context
	r        io.Reader
	n, limit int64
	rowStart int64 // -1: not in a row
}

var errRowTooLarge = errors.New("row too large")

func (b *boundedReader) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, context.Cause(b.ctx)
	}
	if b.rowStart >= 0 && b.n-b.rowStart > 4*MaxRowBytes {
		return 0, errRowTooLarge
	}
	if room := b.limit + 1 - b.n; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.n > b.limit {
		return n, &readlimit.TooLargeError{Limit: b.limit}
	}
	return n, err
}

// stream decodes a results file member by member, and the row lists row
// by row, so that only one row's text is held at a time.
type stream struct {
	ctx      context.Context
	in       *boundedReader
	dec      *json.Decoder
	maxRows  int
	rows     int   // rows decoded so far, every list together
	retained int64 // what they keep, by retainedSize
}

// results decodes the file into w.
func (s *stream) results(w *plainResults) error {
	s.in.rowStart = -1
	tok, err := s.token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return &posError{off: s.dec.InputOffset(), msg: "the file is " + tokenKind(tok) + ", want an object"}
	}
	for s.dec.More() {
		tok, err := s.token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		switch {
		case strings.EqualFold(key, "instances"):
			err = streamRows(s, "instances", &w.Instances, decodeInstance, nil)
		case strings.EqualFold(key, "throughput"):
			err = streamRows(s, "throughput", &w.Throughput, decodeOp, nil)
		case strings.EqualFold(key, "unavailable"):
			err = streamRows(s, "unavailable", &w.Unavailable, unmarshal, nil)
		case strings.EqualFold(key, "tradeoff"):
			err = streamRows(s, "tradeoff", &w.Tradeoff, unmarshal, func(t *Tradeoff) int { return len(t.Rows) })
		default:
			err = s.member(key, w)
		}
		if err != nil {
			return err
		}
	}
	if _, err := s.token(); err != nil { // the closing brace
		return err
	}
	return s.end()
}

// end checks that nothing but white space follows the file's object.
func (s *stream) end() error {
	rest := io.MultiReader(s.dec.Buffered(), s.in)
	off := s.dec.InputOffset()
	br := bufio.NewReader(rest)
	for {
		c, err := br.ReadByte()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			off++
			continue
		}
		return &posError{off: off, msg: "invalid character " + quoteChar(c) + " after top-level value"}
	}
}

// quoteChar quotes c as encoding/json's messages do.
func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(c))
	return "'" + s[1:len(s)-1] + "'"
}

// token reads the next token; a syntax error becomes a posError.
func (s *stream) token() (json.Token, error) {
	tok, err := s.dec.Token()
	return tok, s.decodeError(err, 0, "")
}

// decodeError words an error of the decoder (or of unmarshalling a value
// that starts at byte start, named field) with its position.
func (s *stream) decodeError(err error, start int64, field string) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errTruncated
	case errors.As(err, &se):
		// A token's: the decoder stopped at it.
		return &posError{off: s.dec.InputOffset(), msg: strings.TrimPrefix(se.Error(), "json: ")}
	case errors.As(err, &te):
		f := te.Field
		for _, embedded := range []string{"Plain.", "Extra0.", "Results.", "Result.", "ThroughputRow.", "Measurement.", "Timing.", "Key.", "Why."} {
			f = strings.ReplaceAll(f, embedded, "")
		}
		if field != "" {
			f = strings.TrimSuffix(field+"."+f, ".")
		}
		return &posError{off: start + te.Offset, msg: typeMessage(f, te)}
	}
	return err
}

// typeMessage says what is wrong with field f's value that te reports: a
// number with a fraction, or out of range, for an integer field is said
// to be so ("n is 1.5, want a whole number"), not to be the wrong type.
func typeMessage(f string, te *json.UnmarshalTypeError) string {
	if num, ok := strings.CutPrefix(te.Value, "number "); ok && te.Type != nil {
		if lo, hi, isInt := intRange(te.Type.Kind()); isInt {
			x, err := strconv.ParseFloat(num, 64)
			switch {
			case err != nil && !errors.Is(err, strconv.ErrRange), err == nil && x != math.Trunc(x):
				return fmt.Sprintf("%s is %s, want a whole number", f, num)
			case err == nil && fits(x, lo, hi):
				return fmt.Sprintf("%s is %s, want a whole number written in digits: %s", f, num, strconv.FormatFloat(x, 'f', 0, 64))
			}
			return fmt.Sprintf("%s is %s, out of range: want a whole number from %s to %s", f, num, lo, hi)
		}
	}
	return fmt.Sprintf("%s is a %s, want %s", f, te.Value, jsonKind(te.Type))
}

// fits reports whether x is within [lo, hi] as floats.
func fits(x float64, lo, hi string) bool {
	l, _ := strconv.ParseFloat(lo, 64)
	h, _ := strconv.ParseFloat(hi, 64)
	return x >= l && x < h
}

// intRange returns the smallest and the largest value of integer kind k.
func intRange(k reflect.Kind) (lo, hi string, ok bool) {
	switch k {
	case reflect.Int, reflect.Int64:
		return strconv.FormatInt(math.MinInt64, 10), strconv.FormatInt(math.MaxInt64, 10), true
	case reflect.Int32:
		return strconv.FormatInt(math.MinInt32, 10), strconv.FormatInt(math.MaxInt32, 10), true
	case reflect.Uint64, reflect.Uint:
		return "0", strconv.FormatUint(math.MaxUint64, 10), true
	}
	return "", "", false
}

// raw reads the next value whole, at most MaxRowBytes of it, and returns
// it with the offset it starts at.
func (s *stream) raw(what string) (json.RawMessage, int64, error) {
	s.in.rowStart = s.dec.InputOffset()
	defer func() { s.in.rowStart = -1 }()
	var raw json.RawMessage
	if err := s.dec.Decode(&raw); err != nil {
		if errors.Is(err, errRowTooLarge) {
			return nil, 0, fmt.Errorf("%s is more than %s of JSON, more than the limit of %s for one row", what, readlimit.FormatSize(4*MaxRowBytes), readlimit.FormatSize(MaxRowBytes))
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, 0, s.syntaxError(se)
		}
		return nil, 0, s.decodeError(err, 0, "")
	}
	if len(raw) > MaxRowBytes {
		return nil, 0, fmt.Errorf("%s is %d bytes of JSON, more than the limit of %s for one row", what, len(raw), readlimit.FormatSize(MaxRowBytes))
	}
	return raw, s.dec.InputOffset() - int64(len(raw)), nil
}

// syntaxError places a syntax error of the decoder in the value that
// starts at the reader's rowStart (see posError).
func (s *stream) syntaxError(se *json.SyntaxError) error {
	return &posError{off: s.in.rowStartOr(s.dec.InputOffset()), msg: strings.TrimPrefix(se.Error(), "json: "), inValue: s.in.rowStart >= 0}
}

func (b *boundedReader) rowStartOr(off int64) int64 {
	if b.rowStart >= 0 {
		return b.rowStart
	}
	return off
}

// member decodes one member of the file other than the row lists into w
// (as json.Unmarshal would: a key matched without regard to case, an
// unknown key ignored, a repeated one replacing the first).
func (s *stream) member(key string, w *plainResults) error {
	raw, start, err := s.raw(strconv.Quote(key))
	if err != nil {
		return err
	}
	obj := append(append(append([]byte("{"), strconv.Quote(key)...), ':'), raw...)
	obj = append(obj, '}')
	prefix := int64(len(obj) - len(raw) - 1)
	if err := json.Unmarshal(obj, w); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			te.Offset -= prefix
			return s.decodeError(te, start, "")
		}
		return s.decodeError(err, start, "")
	}
	return nil
}

// streamRows decodes the list of rows under key into *into, a row at a
// time with decode, checking ctx and the limits at each. inner, if not
// nil, counts the rows a row holds (a trade-off table's).
func streamRows[T any](s *stream, key string, into *[]T, decode func([]byte, *T) error, inner func(*T) int) error {
	tok, err := s.token()
	if err != nil {
		return err
	}
	if tok == nil {
		*into = nil
		return nil
	}
	if tok != json.Delim('[') {
		return &posError{off: s.dec.InputOffset(), msg: key + " is " + tokenKind(tok) + ", want a list"}
	}
	*into = nil
	for i := 0; s.dec.More(); i++ {
		if err := s.ctx.Err(); err != nil {
			return context.Cause(s.ctx)
		}
		what := fmt.Sprintf("%s[%d]", key, i)
		s.rows++
		if s.rows > s.maxRows {
			return &rowLimitError{fmt.Sprintf("more than the limit of %d rows (instances, throughput, unavailable and trade-off rows together; %s is one too many)", s.maxRows, what)}
		}
		raw, start, err := s.raw(what)
		if err != nil {
			return err
		}
		var row T
		if err := decode(raw, &row); err != nil {
			return s.decodeError(err, start, key)
		}
		if inner != nil {
			s.rows += inner(&row)
		}
		s.retained += retainedSize(reflect.ValueOf(&row).Elem())
		if limit := int64(s.maxRows) * RetainedPerRow; s.retained > limit {
			return &rowLimitError{fmt.Sprintf("the rows up to %s keep more than %s once decoded (the limit: %s a row on average, at the limit of %d rows)",
				what, readlimit.FormatSize(limit), readlimit.FormatSize(RetainedPerRow), s.maxRows)}
		}
		*into = append(*into, row)
	}
	_, err = s.token() // the closing bracket
	return err
}

// unmarshal decodes a row of a plain type.
func unmarshal[T any](raw []byte, row *T) error { return json.Unmarshal(raw, row) }

// decodeInstance decodes an instance row through its wire struct, which
// records the figures the row lacks (see figurejson.go).
func decodeInstance(raw []byte, r *Row) error {
	return decodeWire(raw, func(d *wireDoc) *wireRow { return d.instances }, func(d *wireDoc, wv reflect.Value) bool { return d.instanceRow(wv, r) })
}

// decodeOp decodes a throughput row through its wire struct.
func decodeOp(raw []byte, t *ThroughputRow) error {
	return decodeWire(raw, func(d *wireDoc) *wireRow { return d.ops }, func(d *wireDoc, wv reflect.Value) bool { return d.opRow(wv, t) })
}

// decodeWire decodes raw into a new wire row of kind and converts it with
// set; a row with a figure that is not a number is decoded again through
// the wire doc that keeps the figures' texts, for the message.
func decodeWire(raw []byte, kind func(*wireDoc) *wireRow, set func(*wireDoc, reflect.Value) bool) error {
	docs := wireDocs()
	for _, d := range docs {
		wv := reflect.New(kind(d).t)
		if err := json.Unmarshal(raw, wv.Interface()); err != nil {
			return err
		}
		if !set(d, wv.Elem()) {
			return nil
		}
	}
	return nil
}

// tokenKind names a JSON token's kind for a message.
func tokenKind(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		if tok == json.Delim('[') {
			return "a list"
		}
		return "an object"
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "true or false"
	}
	return "null"
}

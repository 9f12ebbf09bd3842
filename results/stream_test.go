package results

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// manyRows is validResults with n instance rows, the measured row told
// apart by a parameter row=I.
func manyRows(t *testing.T, n int) *File {
	t.Helper()
	rs := validResults(t)
	row := rs.Instances[0]
	rs.Instances = rs.Instances[:0]
	for i := range n {
		r := row
		r.Param = NewParam("row", i)
		rs.Instances = append(rs.Instances, r)
	}
	return rs
}

// writeManyRows writes what jsonOf writes for manyRows(t, n) edited by
// edit, without marshalling each row: the JSON of one row, written n
// times with its parameter counted (row by row, the default limit's
// 50,001 rows took a quarter of TestResultsRowLimits' CPU, and their
// File and JSON held in memory most of its system time).
// TestWriteManyRows holds it to jsonOf.
func writeManyRows(t *testing.T, w io.Writer, n int, edit func(*File)) {
	t.Helper()
	rs := manyRows(t, 1)
	if edit != nil {
		edit(rs)
	}
	data := jsonOf(t, rs)
	// writeIndented marshals each element of a list on its own, so.
	row, err := json.MarshalIndent(rs.Instances[0], "    ", "  ")
	if err != nil {
		t.Fatal(err)
	}
	param := []byte(`"param": "row=0"`)
	before, after, ok := bytes.Cut(row, param)
	if bytes.Count(data, row) != 1 || !ok || bytes.Contains(after, param) {
		t.Fatalf("the row %s is not once in the file, or its parameter not once in it", row)
	}
	head, tail, _ := bytes.Cut(data, row)
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(head)
	var b []byte
	for i := range n {
		if i > 0 {
			bw.WriteString(",\n    ")
		}
		b = append(append(b[:0], before...), `"param": "row=`...)
		b = append(append(strconv.AppendInt(b, int64(i), 10), '"'), after...)
		bw.Write(b)
	}
	bw.Write(tail)
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
}

// writeBareRows writes a results file of n instance rows that hold their
// key only, row i with param row=i: the default limit's case counts
// 50,001 rows, as many of any size, and decoding them as WriteJSON writes
// them (some 900 bytes each) took most of TestResultsRowLimits' CPU.
func writeBareRows(t *testing.T, w io.Writer, n int) {
	t.Helper()
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(`{"schema": "` + Schema + `", "instances": [`)
	var b []byte
	for i := range n {
		if i > 0 {
			bw.WriteString(",\n")
		}
		b = append(b[:0], `{"type": "Signature", "lib": "blst", "repr": "affine", "layout": "pointer", "scheme": "min-pk", "param": "row=`...)
		b = append(strconv.AppendInt(b, int64(i), 10), `"}`...)
		bw.Write(b)
	}
	bw.WriteString("]}\n")
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
}

// TestWriteManyRows: writeManyRows writes the bytes jsonOf writes for
// the same rows, edited or not.
func TestWriteManyRows(t *testing.T) {
	edit := func(rs *File) { rs.Throughput[0].Samples, rs.Throughput[0].SamplesNs = 2, []float64{1000, 1000} }
	for _, n := range []int{1, 2, 11} {
		for _, e := range []func(*File){nil, edit} {
			rs := manyRows(t, n)
			if e != nil {
				e(rs)
			}
			var got bytes.Buffer
			writeManyRows(t, &got, n, e)
			if want := jsonOf(t, rs); !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%d rows, edited %v: writeManyRows wrote\n%s\nwant jsonOf's\n%s", n, e != nil, got.Bytes(), want)
			}
		}
	}
}

// TestResultsRowLimits: a results file is bounded in rows (the rows of
// every list together) and in what its rows keep once decoded (long
// lists in few rows), and one row in its length; each refusal names the
// file and the limit, wraps its sentinel, and comes before the rows past
// the limit are decoded.
func TestResultsRowLimits(t *testing.T) {
	long := func(n int) func(*File) {
		return func(rs *File) {
			// A row holding n samples: few rows, much memory.
			s := make([]float64, n)
			for i := range s {
				s[i] = 1000
			}
			rs.Throughput[0].SamplesNs, rs.Throughput[0].Samples = s, n
			rs.Throughput[0].NsPerOpMedian, rs.Throughput[0].NsPerOpQ1, rs.Throughput[0].NsPerOpQ3 = 1000, 1000, 1000
		}
	}
	tests := []struct {
		name    string
		rows    int // instance rows of the file
		edit    func(*File)
		maxRows int
		want    string // in the error; "" accepted
		is      error
		bare    bool // rows of their key only (writeBareRows)
	}{
		{"at the limit", 98, nil, 100, "", nil, false}, // and an unavailable and a throughput row
		{"one over", 99, nil, 100, "more than the limit of 100 rows (instances, throughput, unavailable and trade-off rows together; throughput[0] is one too many)", ErrTooManyRows, false},
		{"far over", 1000, nil, 100, "instances[100] is one too many", ErrTooManyRows, false},
		{"default limit", DefaultMaxRows + 1, nil, 0, fmt.Sprintf("more than the limit of %d rows (instances, throughput, unavailable and trade-off rows together; instances[%d] is one too many)", DefaultMaxRows, DefaultMaxRows), ErrTooManyRows, true},
		{"long lists in few rows", 3, long(RetainedPerRow * 100 / 8), 100, fmt.Sprintf("the rows up to throughput[0] keep more than %d KiB once decoded", RetainedPerRow*100>>10), ErrTooManyRows, false},
		{"long lists within the limit", 3, long(RetainedPerRow * 50 / 8), 100, "", nil, false},
		{"a row of more than 1 MiB", 3, long(MaxRowBytes / 4), 0, "bytes of JSON, more than the limit of 1 MiB for one row", nil, false},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			if tt.bare {
				writeBareRows(t, f, tt.rows)
			} else {
				writeManyRows(t, f, tt.rows, tt.edit)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			got, err := Reader{MaxRows: tt.maxRows}.ReadFile(path)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("got %v, want the file accepted", err)
				}
				if len(got.Instances) != tt.rows {
					t.Errorf("got %d instance rows, want %d", len(got.Instances), tt.rows)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "reading results "+path+": ") {
				t.Fatalf("got error %v, want one naming %s and saying %q", err, path, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("errors.Is(err, %v) is false", tt.is)
			}
		})
	}
}

// TestResultsRowLimitStopsEarly: a file of endless rows is refused at the
// row limit, having read little more than the rows up to it (the rest is
// read without being kept, so that a file past the byte limit is still
// refused as that).
func TestResultsRowLimitStopsEarly(t *testing.T) {
	rs := manyRows(t, 1)
	row, err := json.Marshal(rs.Instances[0])
	if err != nil {
		t.Fatal(err)
	}
	const maxRows = 1000
	r := &rowsReader{head: []byte(`{"schema":"memprof.results/v1","instances":[`), row: row}
	var got *File
	allocs := testing.AllocsPerRun(1, func() {
		r.n = 0
		got, err = Reader{MaxRows: maxRows, MaxBytes: 64 << 20}.Read(io.LimitReader(r, 32<<20), "endless.json")
	})
	if got != nil || !errors.Is(err, ErrTooManyRows) {
		t.Fatalf("got %v, want an error wrapping ErrTooManyRows", err)
	}
	// Decoding a row allocates a few dozen objects; the drain of the rest
	// (32 MiB, some thousands of rows' worth) allocates none per row.
	if limit := float64(maxRows * 100); allocs > limit {
		t.Errorf("refusing it allocated %.0f objects, want at most %.0f (the rows up to the limit)", allocs, limit)
	}
}

// rowsReader is a results file's start followed by row, repeated forever.
type rowsReader struct {
	head, row []byte
	n         int64
}

func (r *rowsReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		var src []byte
		if r.n < int64(len(r.head)) {
			src = r.head[r.n:]
		} else {
			i := (r.n - int64(len(r.head))) % int64(len(r.row)+1)
			src = append(r.row[i:len(r.row):len(r.row)], ',')
			if i == int64(len(r.row)) {
				src = []byte{','}
			}
		}
		c := copy(p[n:], src)
		n += c
		r.n += int64(c)
	}
	return n, nil
}

// TestResultsReadStopsOnCancel: a reader given a context stops when it is
// done, with its cause, between rows.
func TestResultsReadStopsOnCancel(t *testing.T) {
	rs := manyRows(t, 200)
	data := jsonOf(t, rs)
	stop := errors.New("interrupted by test")
	tests := []struct {
		name  string
		after int64 // cancel once this many bytes were read
	}{
		{"before reading", 0},
		{"in the rows", int64(len(data) / 2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			if tt.after == 0 {
				cancel(stop)
			}
			r := &cancelAfter{r: bytes.NewReader(data), after: tt.after, cancel: func() { cancel(stop) }}
			got, err := Reader{}.ReadContext(ctx, r, "r.json")
			if got != nil || !errors.Is(err, stop) {
				t.Fatalf("got %v, want the context's cause", err)
			}
			if r.n >= int64(len(data)) {
				t.Errorf("read all %d bytes, want it to stop at the cancel", r.n)
			}
		})
	}
}

// cancelAfter calls cancel once it has passed after bytes, and passes
// reads to r in small blocks.
type cancelAfter struct {
	r      io.Reader
	n      int64
	after  int64
	cancel func()
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p[:min(len(p), 512)])
	c.n += int64(n)
	if c.after > 0 && c.n >= c.after {
		c.cancel()
	}
	return n, err
}

// TestResultsDecodeErrors: a file that is not JSON, or whose values have
// the wrong types, is refused with the position of the problem, read
// again from the file (the reader does not keep what it read).
func TestResultsDecodeErrors(t *testing.T) {
	const head = "{\"schema\": \"memprof.results/v1\",\n\"instances\": [\n"
	tests := []struct {
		name, data, want string
	}{
		{"empty", "", "truncated JSON"},
		{"truncated in a row", head + `{"type": "G1"`, "truncated JSON"},
		{"not an object", "[1]", "1:2: the file is a list, want an object"},
		{"a field of the wrong type", head + "{\"type\": \"G1\"},\n  {\"n\": \"x\"}]}", `4:12: instances.n is a string, want a number`},
		{"a syntax error in a row", head + "{\"type\": \"G1\"},\n  {\"n\": 1 x}]}", "4:11: invalid character 'x' after object key:value pair"},
		{"a missing comma between rows", head + "{\"type\": \"G1\"}\n  {\"n\": 1}]}", "4:3: expected comma after array element"},
		{"a syntax error in a member", "{\"schema\": \"memprof.results/v1\",\n\"env\": {\"gomaxprocs\": 1 2}}", "2:25: invalid character '2' after object key:value pair"},
		{"a member of the wrong type", "{\"schema\": \"memprof.results/v1\",\n\"env\": {\"gomaxprocs\": \"x\"}}", "2:26: env.gomaxprocs is a string, want a number"},
		{"a list that is not one", "{\"schema\": \"memprof.results/v1\", \"instances\": \"x\"}", "1:50: instances is a string, want a list"},
		{"data after the object", "{\"schema\": \"memprof.results/v1\"}\n x", "2:2: invalid character 'x' after top-level value"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadFile(path)
			want := "reading results " + path + ": not a memprof.results/v1 file: " + tt.want
			if err == nil || err.Error() != want || !errors.Is(err, ErrNotResults) {
				t.Errorf("got  %v\nwant %s", err, want)
			}
		})
	}
}

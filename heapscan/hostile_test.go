package heapscan_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/memprof/memprof/heapscan"
)

// allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc):
// what reading costs, garbage included, whatever the collector does.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestTextStreams checks that a legacy text profile of repeated lines
// is read as a stream: its lines add up exactly to the truth of the
// records repeated, and reading allocates far less than the text (pprof's
// parser allocates about 27 bytes per byte of text).
func TestTextStreams(t *testing.T) {
	// Reading symbols allocates a fixed amount, whatever the text's
	// length: a fourth of these repetitions (what -short had) made the
	// text too short for that to be within an eighth of it.
	reps := 20000
	for _, symbols := range []bool{false, true} {
		name := map[bool]string{false: "addresses", true: "symbols"}[symbols]
		t.Run(name, func(t *testing.T) {
			gz, size := legacyTextGzip(t, testRecords(), reps, symbols)
			var h *heapscan.Heap
			var err error
			got := allocated(func() {
				h, err = heapscan.Read(bytes.NewReader(gz), heapscan.ReadOptions{})
			})
			if err != nil {
				t.Fatal(err)
			}
			if limit := uint64(size) / 8; got > limit {
				t.Errorf("reading %d bytes of text (%d gzip) allocated %d bytes, want at most an eighth of the text (%d)", size, len(gz), got, limit)
			}
			s, err := h.Summarize(heapscan.Options{GroupBy: "stack"})
			if err != nil {
				t.Fatal(err)
			}
			// Without symbols, every record is a stack of addresses;
			// with them, the first two records are one stack of
			// function names (they differ in a program counter of
			// main.main only).
			wantStacks := len(testRecords())
			if symbols {
				wantStacks--
			}
			if len(s.Rows) != wantStacks {
				t.Errorf("got %d stacks, want %d (repeated lines are one stack)", len(s.Rows), wantStacks)
			}
			var want int64
			for _, r := range testRecords() {
				want += r.inuseBytes * int64(reps)
			}
			if s.TotalBytes != want {
				t.Errorf("got total %d bytes, want %d", s.TotalBytes, want)
			}
			if symbols {
				fs, err := h.Summarize(heapscan.Options{})
				if err != nil {
					t.Fatal(err)
				}
				for key, w := range wantByFunction(reps) {
					checkRow(t, fs, key, w)
				}
			}
		})
	}
}

// TestDeclaredLengths checks that a field declaring more bytes than the
// input or the limit can hold is refused at once, by either reader,
// without reading (let alone keeping) what follows it.
func TestDeclaredLengths(t *testing.T) {
	const limit = 64 << 20
	claim := func(n uint64) []byte {
		// A valid start (a period), then a string-table entry of n bytes.
		b := protowire.AppendTag(nil, 12, protowire.VarintType)
		b = protowire.AppendVarint(b, 1)
		b = protowire.AppendTag(b, 6, protowire.BytesType)
		return protowire.AppendVarint(b, n)
	}
	const huge = 2_000_000_000 // "2 GB"
	withZeros := func(prefix []byte, n int) []byte {
		return append(bytes.Clone(prefix), make([]byte, n)...)
	}
	tests := []struct {
		name     string
		data     []byte
		want     string // in the error
		tooLarge bool
	}{
		{"plain, 2 GB string", claim(huge), "field 6 at byte 2 claims 2000000000 bytes, but only 0 remain", false},
		{"plain, string longer than the file", withZeros(claim(1<<20), 1000), "field 6 at byte 2 claims 1048576 bytes, but only 1000 remain", false},
		{"gzip, 2 GB string, then zeros", gzipBytes(t, withZeros(claim(huge), limit/2)), "field 6 at byte 2 claims 2000000000 bytes, which exceeds the limit of 67108864 bytes", true},
		{"gzip, zeros", gzipBytes(t, make([]byte, limit/2)), "malformed profile: invalid field number 0 at byte 0", false},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		path := filepath.Join(dir, strings.NewReplacer(" ", "_", ",", "").Replace(tt.name))
		if err := os.WriteFile(path, tt.data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, rd := range readers {
			t.Run(tt.name+"/"+rd.name, func(t *testing.T) {
				ro := rd.opts
				ro.MaxBytes = limit
				var err error
				got := allocated(func() { _, err = heapscan.ReadFile(path, ro) })
				if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
					t.Errorf("got error %v, want one naming the file and %q", err, tt.want)
				}
				if errors.Is(err, heapscan.ErrTooLarge) != tt.tooLarge {
					t.Errorf("errors.Is(err, ErrTooLarge) = %v, want %v", !tt.tooLarge, tt.tooLarge)
				}
				// Refused at once: a few buffers, not the data behind
				// the claim.
				if bound := uint64(limit / 16); got > bound {
					t.Errorf("refusing it allocated %d bytes, want at most %d (a sixteenth of the limit)", got, bound)
				}
			})
		}
	}
}

// textZeroReader is an io.Reader of n bytes, for inputs too large to hold.
func textZeroReader(n int64) io.Reader { return io.LimitReader(zeros{}, n) }

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// gzipStream compresses what write writes, in memory, at the level
// given (a gzip level: gzip.BestCompression makes the smallest input of
// the most output, the point of a hostile one).
func gzipStream(t testing.TB, level int, write func(io.Writer) error) []byte {
	t.Helper()
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, level)
	if err != nil {
		t.Fatal(err)
	}
	if err := write(zw); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

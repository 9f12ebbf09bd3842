package heapscan_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"testing"
)

// A legacy text heap profile written by the tests, in the form
// runtime/pprof writes with debug=1, so that every figure is known by
// construction.
type textRecord struct {
	inuse, inuseBytes int64
	alloc, allocBytes int64
	frames            []textFrame // leaf first
}

// textFrame is one program counter of a record's stack: the return
// address written after "@" is pc+1. Hidden frames get no symbol line
// (the runtime leaves out the allocator's own frames); a frame with
// several functions is inlined (innermost first, as the runtime writes
// them).
type textFrame struct {
	pc     uint64
	funcs  []string
	file   string
	line   int
	hidden bool
}

// writeLegacyText writes a "heap profile:" header with the records'
// totals times reps (sampling rate 1: "@ heap/2"), then the records reps
// times over, with symbol comments when symbols is set.
func writeLegacyText(w io.Writer, records []textRecord, reps int, symbols bool) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var in, inB, al, alB int64
	for _, r := range records {
		in += r.inuse
		inB += r.inuseBytes
		al += r.alloc
		alB += r.allocBytes
	}
	n := int64(reps)
	fmt.Fprintf(bw, "heap profile: %d: %d [%d: %d] @ heap/2\n", in*n, inB*n, al*n, alB*n)
	var block bytes.Buffer
	for _, r := range records {
		fmt.Fprintf(&block, "%d: %d [%d: %d] @", r.inuse, r.inuseBytes, r.alloc, r.allocBytes)
		for _, f := range r.frames {
			fmt.Fprintf(&block, " %#x", f.pc+1)
		}
		block.WriteByte('\n')
		if symbols {
			for _, f := range r.frames {
				if f.hidden {
					continue
				}
				for _, fn := range f.funcs {
					fmt.Fprintf(&block, "#\t%#x\t%s+0x%x\t\t%s:%d\n", f.pc, fn, f.pc&0xff, f.file, f.line)
				}
			}
			block.WriteByte('\n')
		}
	}
	for range reps {
		if _, err := bw.Write(block.Bytes()); err != nil {
			return err
		}
	}
	if symbols {
		fmt.Fprintf(bw, "\n# runtime.MemStats\n# Alloc = %d\n# TotalAlloc = %d\n", inB*n, alB*n)
	}
	return bw.Flush()
}

// legacyTextGzip returns writeLegacyText's output gzip-compressed, and
// its uncompressed size.
func legacyTextGzip(t testing.TB, records []textRecord, reps int, symbols bool) (gz []byte, size int64) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	cw := &countingWriter{w: zw}
	if err := writeLegacyText(cw, records, reps, symbols); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), cw.n
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Functions of the test records.
const (
	fnMain    = "main.main"
	fnAlloc   = "main.alloc"
	fnInlined = "main.inlined"
	fnRtMain  = "runtime.main"
	testFile  = "/src/main.go"
)

// testRecords are the records of the text tests: two allocation sites in
// main.main (two program counters, one function), one in main.alloc
// (called from main.main), and an inlined callee, each below two hidden
// runtime frames. The per-function truth is wantByFunction.
func testRecords() []textRecord {
	hidden := []textFrame{{pc: 0x47c304, hidden: true}, {pc: 0x47f7e6, hidden: true}}
	rtMain := textFrame{pc: 0x44cd14, funcs: []string{fnRtMain}, file: "/go/src/runtime/proc.go", line: 290}
	goexit := textFrame{pc: 0x484080, hidden: true}
	stack := func(fs ...textFrame) []textFrame {
		out := append([]textFrame{}, hidden...)
		out = append(out, fs...)
		return append(out, rtMain, goexit)
	}
	return []textRecord{
		{inuse: 3, inuseBytes: 3 * 96, alloc: 5, allocBytes: 5 * 96, frames: stack(
			textFrame{pc: 0x4d97c6, funcs: []string{fnMain}, file: testFile, line: 18})},
		{inuse: 2, inuseBytes: 2 * 48, alloc: 2, allocBytes: 2 * 48, frames: stack(
			textFrame{pc: 0x4d9895, funcs: []string{fnMain}, file: testFile, line: 21})},
		{inuse: 7, inuseBytes: 7 * 144, alloc: 9, allocBytes: 9 * 144, frames: stack(
			textFrame{pc: 0x4d9704, funcs: []string{fnAlloc}, file: testFile, line: 12},
			textFrame{pc: 0x4d97c6, funcs: []string{fnMain}, file: testFile, line: 18})},
		{inuse: 1, inuseBytes: 4096, alloc: 1, allocBytes: 4096, frames: stack(
			textFrame{pc: 0x4d9a10, funcs: []string{fnInlined, fnMain}, file: testFile, line: 30})},
	}
}

// wantByFunction is the in-use truth of testRecords times reps, grouped
// by allocating function.
func wantByFunction(reps int) map[string]*truthRow {
	n := int64(reps)
	return map[string]*truthRow{
		fnMain:    {objects: (3 + 2) * n, bytes: (3*96 + 2*48) * n, sizes: []int64{48, 96}},
		fnAlloc:   {objects: 7 * n, bytes: 7 * 144 * n, sizes: []int64{144}},
		fnInlined: {objects: n, bytes: 4096 * n, sizes: []int64{4096}},
	}
}

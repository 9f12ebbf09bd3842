package heapscan_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/memprof/memprof/fixtures/heapgen/scenario"
	"github.com/memprof/memprof/heapscan"
	"github.com/memprof/memprof/internal/childtest"
	"github.com/memprof/memprof/internal/peakrss"
)

// Some tests run part of themselves in a child process (this test binary,
// re-executed with childEnv set): a heap scenario whose profiles must be
// written at a fixed MemProfileRate before anything allocates, and the
// hostile inputs whose cost is the child's maximum resident set.
const childEnv = "HEAPSCAN_TEST_CHILD"

func TestMain(m *testing.M) {
	childtest.Main(m, "child", func() bool { return os.Getenv(childEnv) != "" }, func() error { return runChild(os.Getenv(childEnv)) })
}

// runChild runs "scenario NAME DIR" or "read CASE SCALE INPUT".
func runChild(spec string) error {
	f := strings.Fields(spec)
	switch {
	case len(f) == 3 && f[0] == "scenario":
		return childScenario(f[1], f[2])
	case len(f) == 4 && f[0] == "read":
		var scale float64
		if _, err := fmt.Sscan(f[2], &scale); err != nil {
			return err
		}
		return childRead(f[1], scale, f[3])
	}
	return fmt.Errorf("unknown child %q", spec)
}

// startChild runs the child spec and returns its stdout.
func startChild(t *testing.T, spec string) string {
	t.Helper()
	out, _ := childtest.Run(t, []string{childEnv + "=" + spec})
	return out
}

// childScenario runs a heap scenario at its rate and writes, at the same
// moment, its profile as protobuf (NAME.pb.gz) and as legacy text with
// symbol comments (NAME.heap.txt), as /debug/pprof/heap?debug=1 serves it.
func childScenario(name, dir string) error {
	gz, text, err := scenario.HeapProfiles(name)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, name+".pb.gz"), gz, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name+".heap.txt"), text, 0o644)
}

// A hostile input of the memory test: its reader, its limit and how it
// is made (at scale 1, the sizes of the issue: a 512 MiB limit, about
// 500 MB of text from a gzip of about 1 MB, a string-table entry that
// claims 2 GB).
type hostileCase struct {
	name  string
	model bool
	// capped says that the memory is bounded by the readers' caps
	// (MaxLocations, MaxSamples), which do not scale with the input: the
	// bound is the full one at every scale.
	capped bool
	// make returns the input (gzip, small), made unless gz is given,
	// and checks the result.
	make func(t testing.TB, limit int64, gz []byte) (input []byte, check func(*heapscan.Heap, error) error)
}

// inputName names a case's input: the stream and the model reader of one
// read the same ("text-over-limit/stream" and "text-over-limit/model").
func (c hostileCase) inputName() string {
	name, _, _ := strings.Cut(c.name, "/")
	return name
}

// hostileCases are the inputs of TestHostileRSS.
var hostileCases = []hostileCase{
	{"text-repeated", false, false, func(t testing.TB, limit int64, gz []byte) ([]byte, func(*heapscan.Heap, error) error) {
		reps := repsFor(t, limit*15/16)
		if gz == nil {
			gz, _ = legacyTextGzip(t, testRecords(), reps, true)
		}
		return gz, func(h *heapscan.Heap, err error) error {
			if err != nil {
				return err
			}
			s, err := h.Summarize(heapscan.Options{})
			if err != nil {
				return err
			}
			if r := rowKey(s, fnAlloc); r == nil || r.Objects != wantByFunction(reps)[fnAlloc].objects {
				return fmt.Errorf("row %s: got %+v, want %d objects", fnAlloc, r, wantByFunction(reps)[fnAlloc].objects)
			}
			return nil
		}
	}},
	{"text-over-limit/stream", false, false, textOverLimit},
	{"text-over-limit/model", true, false, textOverLimit},
	{"proto-claims-2GB/stream", false, false, protoClaim},
	{"proto-claims-2GB/model", true, false, protoClaim},
	{"proto-over-limit/stream", false, false, protoOverLimit},
	{"proto-over-limit/model", true, false, protoOverLimit},
	// Distinct stacks (800,000 of 8 frames at scale 1, the 14 MB
	// of gzip): the readers keep MaxLocations and MaxSamples of them, the
	// rest added up, the totals exact.
	{"text-distinct-stacks/stream", false, true, func(t testing.TB, limit int64, gz []byte) ([]byte, func(*heapscan.Heap, error) error) {
		return given(gz, distinctStacks(limit), func(n int) ([]byte, func(*heapscan.Heap, error) error) {
			return distinctText(t, gzip.DefaultCompression, n, false)
		})
	}},
	{"text-distinct-stacks-symbols/stream", false, true, func(t testing.TB, limit int64, gz []byte) ([]byte, func(*heapscan.Heap, error) error) {
		return given(gz, distinctStacks(limit)/2, func(n int) ([]byte, func(*heapscan.Heap, error) error) {
			return distinctText(t, gzip.DefaultCompression, n, true)
		})
	}},
	{"proto-distinct-stacks/stream", false, true, func(t testing.TB, limit int64, gz []byte) ([]byte, func(*heapscan.Heap, error) error) {
		return given(gz, distinctStacks(limit), func(n int) ([]byte, func(*heapscan.Heap, error) error) {
			return distinctProto(t, gzip.DefaultCompression, n)
		})
	}},
	// A string table of nearly the limit: refused (at scale 1, once what
	// it keeps passes the reader's budget of retained data; below, as a
	// profile without samples).
	{"proto-strings/stream", false, true, protoStrings},
}

// given returns gz, if given, and the check of a distinct-stack input of
// n stacks; else what make makes of n.
func given(gz []byte, n int, make func(n int) ([]byte, func(*heapscan.Heap, error) error)) ([]byte, func(*heapscan.Heap, error) error) {
	if gz != nil {
		return gz, wantExactTotals(n)
	}
	return make(n)
}

// distinctStacks is how many distinct stacks the distinct-stack inputs
// hold at the limit: 800,000 at the default (the issue's), and below it
// fewer, but always more locations than the readers keep.
func distinctStacks(limit int64) int {
	scale := float64(limit) / float64(heapscan.DefaultMaxBytes)
	if scale >= 1 {
		return 800_000
	}
	return max(int(800_000*scale/4), heapscan.MaxLocations/4)
}

// distinctText is a legacy text profile of n samples of one 64-byte
// object, each at a stack of 8 frames no other sample has, with symbol
// comments if symbols is set, gzipped at level (TestHostileRSS's at the
// default: at the best they were 0.2% smaller, distinct addresses
// repeating little, and took two to five times the CPU).
func distinctText(t testing.TB, level, n int, symbols bool) ([]byte, func(*heapscan.Heap, error) error) {
	gz := gzipStream(t, level, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 64<<10)
		fmt.Fprintf(bw, "heap profile: %d: %d [%d: %d] @ heap/2\n", n, 64*n, n, 64*n)
		var b []byte
		for i := range n {
			b = append(b[:0], "1: 64 [1: 64] @"...)
			for j := range 8 {
				b = strconv.AppendUint(append(b, " 0x"...), 0x400000+uint64(i*8+j)*16+1, 16)
			}
			b = append(b, '\n')
			if symbols {
				for j := range 8 {
					pc := 0x400000 + uint64(i*8+j)*16
					b = strconv.AppendUint(append(b, "#\t0x"...), pc, 16)
					b = strconv.AppendUint(append(b, "\tmain.f"...), pc, 16)
					b = strconv.AppendInt(append(b, "+0x4\t\t/src/main.go:"...), int64(j), 10)
					b = append(b, '\n')
				}
				b = append(b, '\n')
			}
			bw.Write(b)
		}
		return bw.Flush()
	})
	return gz, wantExactTotals(n)
}

// distinctProto is distinctText as a protobuf profile, without functions.
func distinctProto(t testing.TB, level, n int) ([]byte, func(*heapscan.Heap, error) error) {
	gz := gzipStream(t, level, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 64<<10)
		msg := func(num protowire.Number, b []byte) {
			out := protowire.AppendTag(nil, num, protowire.BytesType)
			bw.Write(protowire.AppendBytes(out, b))
		}
		vt := func(typ, unit uint64) []byte {
			b := protowire.AppendTag(nil, 1, protowire.VarintType)
			b = protowire.AppendVarint(b, typ)
			b = protowire.AppendTag(b, 2, protowire.VarintType)
			return protowire.AppendVarint(b, unit)
		}
		msg(1, vt(1, 2)) // inuse_objects/count
		msg(1, vt(3, 4)) // inuse_space/bytes
		var ids, sample []byte
		for i := range n {
			ids = ids[:0]
			for j := range 8 {
				ids = protowire.AppendVarint(ids, uint64(i*8+j+1))
			}
			sample = protowire.AppendTag(sample[:0], 1, protowire.BytesType)
			sample = protowire.AppendBytes(sample, ids)
			sample = protowire.AppendTag(sample, 2, protowire.BytesType)
			sample = protowire.AppendBytes(sample, protowire.AppendVarint(protowire.AppendVarint(nil, 1), 64))
			msg(2, sample)
		}
		var loc []byte
		for id := 1; id <= 8*n; id++ {
			loc = protowire.AppendTag(loc[:0], 1, protowire.VarintType)
			loc = protowire.AppendVarint(loc, uint64(id))
			loc = protowire.AppendTag(loc, 3, protowire.VarintType)
			loc = protowire.AppendVarint(loc, 0x400000+uint64(id)*16)
			msg(4, loc)
		}
		for _, s := range []string{"", "inuse_objects", "count", "inuse_space", "bytes"} {
			msg(6, []byte(s))
		}
		return bw.Flush()
	})
	return gz, wantExactTotals(n)
}

// wantExactTotals checks a distinct-stack input's summary: every object
// counted, what lies beyond the limits in OverLimitFrame's row, and a
// note saying so.
func wantExactTotals(n int) func(*heapscan.Heap, error) error {
	return func(h *heapscan.Heap, err error) error {
		if err != nil {
			return err
		}
		s, err := h.Summarize(heapscan.Options{})
		if err != nil {
			return err
		}
		if s.TotalObjects != int64(n) || s.TotalBytes != int64(64*n) {
			return fmt.Errorf("got %d objects, %d bytes; want %d, %d", s.TotalObjects, s.TotalBytes, n, 64*n)
		}
		if 8*n < heapscan.MaxLocations {
			return nil
		}
		if r := rowKey(s, heapscan.OverLimitFrame); r == nil || r.Objects == 0 {
			return fmt.Errorf("no row %s", heapscan.OverLimitFrame)
		}
		if !strings.Contains(strings.Join(h.Notes, "\n"), "more distinct locations or stacks than heapscan keeps") {
			return fmt.Errorf("notes %q do not say what lies beyond the limits", h.Notes)
		}
		return nil
	}
}

// protoStrings is a valid profile start and a string table of 1 KiB
// strings up to fifteen sixteenths of the limit.
func protoStrings(t testing.TB, limit int64, gz []byte) ([]byte, func(*heapscan.Heap, error) error) {
	if gz == nil {
		str := bytes.Repeat([]byte("s"), 1<<10)
		entry := protowire.AppendBytes(protowire.AppendTag(nil, 6, protowire.BytesType), str)
		gz = gzipStream(t, gzip.BestCompression, func(w io.Writer) error {
			bw := bufio.NewWriterSize(w, 64<<10)
			bw.Write(protowire.AppendBytes(protowire.AppendTag(nil, 6, protowire.BytesType), nil))
			for n := int64(0); n < limit*15/16; n += int64(len(entry)) {
				bw.Write(entry)
			}
			return bw.Flush()
		})
	}
	return gz, func(h *heapscan.Heap, err error) error {
		if err == nil {
			return errors.New("got a profile of strings only, want it refused")
		}
		return nil
	}
}

// repsFor returns how many repetitions of testRecords (with symbols) make
// about size bytes of text.
func repsFor(t testing.TB, size int64) int {
	var b bytes.Buffer
	if err := writeLegacyText(&b, testRecords(), 100, true); err != nil {
		t.Fatal(err)
	}
	return int(size / (int64(b.Len()) / 100))
}

func wantTooLarge(h *heapscan.Heap, err error) error {
	if !errors.Is(err, heapscan.ErrTooLarge) {
		return fmt.Errorf("got %v, want an error wrapping ErrTooLarge", err)
	}
	return nil
}

func textOverLimit(t testing.TB, limit int64, gz []byte) ([]byte, func(*heapscan.Heap, error) error) {
	if gz == nil {
		gz, _ = legacyTextGzip(t, testRecords(), repsFor(t, limit*9/8), true)
	}
	return gz, wantTooLarge
}

func protoClaim(t testing.TB, limit int64, gz []byte) ([]byte, func(*heapscan.Heap, error) error) {
	if gz != nil {
		return gz, wantTooLarge
	}
	b := protowire.AppendTag(nil, 12, protowire.VarintType)
	b = protowire.AppendVarint(b, 1)
	b = protowire.AppendTag(b, 6, protowire.BytesType)
	b = protowire.AppendVarint(b, 2_000_000_000)
	gz = gzipStream(t, gzip.BestCompression, func(w io.Writer) error {
		if _, err := w.Write(b); err != nil {
			return err
		}
		_, err := io.Copy(w, textZeroReader(limit*15/16))
		return err
	})
	return gz, wantTooLarge
}

// protoOverLimit is a stream of valid top-level fields (the period,
// again and again) that goes on past the limit.
func protoOverLimit(t testing.TB, limit int64, gz []byte) ([]byte, func(*heapscan.Heap, error) error) {
	if gz != nil {
		return gz, wantTooLarge
	}
	field := protowire.AppendVarint(protowire.AppendTag(nil, 12, protowire.VarintType), 1)
	chunk := bytes.Repeat(field, 64<<10/len(field))
	gz = gzipStream(t, gzip.BestCompression, func(w io.Writer) error {
		for n := int64(0); n < limit*9/8; n += int64(len(chunk)) {
			if _, err := w.Write(chunk); err != nil {
				return err
			}
		}
		return nil
	})
	return gz, wantTooLarge
}

func ftoa(f float64) string { return fmt.Sprint(f) }

func rowKey(s *heapscan.Summary, key string) *heapscan.Row {
	for i := range s.Rows {
		if s.Rows[i].Key == key {
			return &s.Rows[i]
		}
	}
	return nil
}

// childRead reads a hostile input, made by the parent and written to
// path, from memory (as from a file: it can be read twice).
func childRead(name string, scale float64, path string) error {
	for _, c := range hostileCases {
		if c.name != name {
			continue
		}
		limit := int64(float64(heapscan.DefaultMaxBytes) * scale)
		gz, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		input, check := c.make(childTB{}, limit, gz)
		runtime.GC()
		h, err := heapscan.Read(bytes.NewReader(input), heapscan.ReadOptions{MaxBytes: limit, Model: c.model})
		if err := check(h, err); err != nil {
			return err
		}
		rss, rerr := peakrss.Self()
		if rerr != nil {
			return rerr
		}
		fmt.Printf("peak RSS %d bytes; input %d bytes (gzip); %v\n", rss, len(input), err)
		return nil
	}
	return fmt.Errorf("unknown case %q", name)
}

// childTB lets the cases' makers, written for tests, run in the child;
// a failure there ends the child, which the parent reports.
type childTB struct {
	testing.TB
}

func (childTB) Helper()           {}
func (childTB) Fatal(args ...any) { panic(fmt.Sprint(args...)) }

package heapscan_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/memprof/memprof/fixtures/heapgen/scenario"
	"github.com/memprof/memprof/heapscan"
)

// pprofBytes writes p as pprof writes it (gzip protobuf).
func pprofBytes(t *testing.T, p *profile.Profile) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// builtProfile makes a profile of one-frame samples; values are one per
// sample type.
func builtProfile(types []string, periodType string, period, duration int64, samples ...[]int64) *profile.Profile {
	p := &profile.Profile{Period: period, DurationNanos: duration}
	if periodType != "" {
		pt := strings.Split(periodType, "/")
		p.PeriodType = &profile.ValueType{Type: pt[0], Unit: pt[1]}
	}
	for _, ty := range types {
		unit := "bytes"
		if strings.HasSuffix(ty, "objects") {
			unit = "count"
		}
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: ty, Unit: unit})
	}
	for i, v := range samples {
		f := &profile.Function{ID: uint64(i%3 + 1), Name: fmt.Sprintf("main.f%d", i%3), Filename: fmt.Sprintf("/src/f%d.go", i%3)}
		if i < 3 {
			p.Function = append(p.Function, f)
			p.Location = append(p.Location, &profile.Location{ID: f.ID, Address: 0x1000 + f.ID, Line: []profile.Line{{Function: f, Line: int64(10 + i)}}})
		}
		loc := p.Location[i%3]
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{loc}, Value: v, NumLabel: map[string][]int64{"bytes": {int64(16 << (i % 4))}}})
	}
	return p
}

// sampledText is a legacy text profile at a sampling rate above 1
// (scaled as pprof scales it) with what real profiles have: one stack at
// several sizes, lines of zeros, repeated lines, and what delta text has:
// negative in-use values.
const sampledText = `heap profile: 10: 5120 [40: 81920] @ heap/1048576
1: 512 [4: 2048] @ 0x401001 0x402001
0: 0 [3: 96] @ 0x401001 0x402001
2: 8192 [2: 8192] @ 0x401001 0x402001
1: 512 [4: 2048] @ 0x401001 0x402001
0: 0 [0: 0] @ 0x403001
-1: -64 [1: 64] @ 0x403001 0x402001
5: 80 [20: 320] @ 0x404001 0x404001 0x402001
`

// TestGeneratedReadersAgree checks the readers against each other (and
// against pprof's own parse) on the inputs the fixtures lack: profiles of
// one sample type, delta profiles, period 0, another runtime's period
// type, and legacy text (sampled, with symbols, with equal counts).
func TestGeneratedReadersAgree(t *testing.T) {
	all4 := []string{"alloc_objects", "alloc_space", "inuse_objects", "inuse_space"}
	var symbolized bytes.Buffer
	if err := writeLegacyText(&symbolized, testRecords(), 3, true); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		data      []byte
		withPprof bool
	}{
		{"inuse_space only", pprofBytes(t, builtProfile([]string{"inuse_space"}, "space/bytes", 524288, 0, []int64{4096}, []int64{64}, []int64{128})), true},
		{"delta, duration", pprofBytes(t, builtProfile(all4, "space/bytes", 1, 30e9, []int64{1, 16, 1, 16}, []int64{0, 0, -1, -32}, []int64{2, 128, 2, 128})), true},
		{"delta, negative", pprofBytes(t, builtProfile(all4, "space/bytes", 524288, 0, []int64{-1, -16, -1, -16}, []int64{3, 96, 3, 96}, []int64{2, 128, 0, 0}, []int64{-2, -256, -2, -256})), true},
		{"period 0", pprofBytes(t, builtProfile(all4, "space/bytes", 0, 0, []int64{1, 16, 1, 16})), true},
		{"not Go", pprofBytes(t, builtProfile(all4, "", 100, 0, []int64{1, 16, 1, 16})), true},
		{"text, sampled", []byte(sampledText), true},
		{"text, equal counts", []byte("heap profile: 3: 288 [3: 288] @ heap/2\n2: 192 [2: 192] @ 0x401001\n1: 96 [1: 96] @ 0x401001 0x402001\n"), true},
		{"text, forms only pprof's expression parses", []byte("heap profile: 4: 64 [9: 144] @ heap_v2/512\nx 1: 16 [2: 32] @ 0x1 0x2 trailing\n2:   32 [ 3: 48 ] @ 0x1x0x3\n1: 16 [4: 64] @\n--- Memory map: ---\n00400000-00401000 r-xp 00000000 00:00 0 /bin/x\n"), true},
		{"text, growthz", []byte("heap profile: 1: 16 [1: 16] @ growthz\n1: 16 [1: 16] @ 0x10 0x20\n"), true},
		{"text, symbols", symbolized.Bytes(), false},
		{"text, symbols, gzip", gzipBytes(t, symbolized.Bytes()), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if checkReadersAgree(t, tt.name, tt.data, tt.withPprof) == 0 {
				t.Error("no summary with rows")
			}
		})
	}
}

// TestTextSymbols checks that the symbol comments of a debug=1 text
// profile name its frames: rows are functions and sites, the runtime
// frames the comments leave out are skipped as runtime frames, and
// inlined frames keep their order.
func TestTextSymbols(t *testing.T) {
	const reps = 3
	var text bytes.Buffer
	if err := writeLegacyText(&text, testRecords(), reps, true); err != nil {
		t.Fatal(err)
	}
	n := int64(reps)
	tests := []struct {
		name string
		opts heapscan.Options
		want map[string]*truthRow // rows, exactly
	}{
		{"function", heapscan.Options{}, wantByFunction(reps)},
		{"site", heapscan.Options{GroupBy: "site"}, map[string]*truthRow{
			fnMain + " " + testFile + ":18":    {objects: 3 * n, bytes: 3 * 96 * n, sizes: []int64{96}},
			fnMain + " " + testFile + ":21":    {objects: 2 * n, bytes: 2 * 48 * n, sizes: []int64{48}},
			fnAlloc + " " + testFile + ":12":   {objects: 7 * n, bytes: 7 * 144 * n, sizes: []int64{144}},
			fnInlined + " " + testFile + ":30": {objects: n, bytes: 4096 * n, sizes: []int64{4096}},
		}},
		{"stack", heapscan.Options{GroupBy: "stack"}, map[string]*truthRow{
			"0x47c304 <- 0x47f7e6 <- main.main <- runtime.main <- 0x484080":                 {objects: 5 * n, bytes: (3*96 + 2*48) * n, sizes: []int64{48, 96}},
			"0x47c304 <- 0x47f7e6 <- main.alloc <- main.main <- runtime.main <- 0x484080":   {objects: 7 * n, bytes: 7 * 144 * n, sizes: []int64{144}},
			"0x47c304 <- 0x47f7e6 <- main.inlined <- main.main <- runtime.main <- 0x484080": {objects: n, bytes: 4096 * n, sizes: []int64{4096}},
		}},
		{"focus on a file", heapscan.Options{Focus: mustRegexp(`^/src/main\.go$`)}, wantByFunction(reps)},
	}
	for _, tt := range tests {
		for _, rd := range readers {
			t.Run(tt.name+"/"+rd.name, func(t *testing.T) {
				h, err := heapscan.Read(bytes.NewReader(text.Bytes()), rd.opts)
				if err != nil {
					t.Fatal(err)
				}
				s, err := h.Summarize(tt.opts)
				if err != nil {
					t.Fatal(err)
				}
				for key, w := range tt.want {
					checkRow(t, s, key, w)
				}
				if len(s.Rows) != len(tt.want) {
					var keys []string
					for _, r := range s.Rows {
						keys = append(keys, r.Key)
					}
					t.Errorf("got rows %q, want %d", keys, len(tt.want))
				}
				if len(s.Notes) != 0 {
					t.Errorf("got notes %q, want none", s.Notes)
				}
			})
		}
	}
	t.Run("without symbols", func(t *testing.T) {
		for _, rd := range readers {
			s := mustSummarize(t, fixture("before.heap.txt"), rd.opts, heapscan.Options{})
			if len(s.Notes) != 1 || !strings.Contains(s.Notes[0], "without symbol comments") {
				t.Errorf("%s: got notes %q, want one saying frames are addresses", rd.name, s.Notes)
			}
		}
	})
}

// TestRuntimeDebug1 checks symbolized text against the runtime itself: a
// scenario runs in a child process at rate 1 and writes its profile both
// as protobuf and with debug=1; each allocating function's row from the
// text is the scenario's truth, and the protobuf's row.
func TestRuntimeDebug1(t *testing.T) {
	dir := t.TempDir()
	startChild(t, "scenario before "+dir)
	sc, _ := scenario.Lookup("before")
	for _, g := range []string{"function", "site"} {
		proto := mustSummarize(t, filepath.Join(dir, "before.pb.gz"), heapscan.ReadOptions{}, heapscan.Options{GroupBy: g})
		for _, rd := range readers {
			t.Run(g+"/"+rd.name, func(t *testing.T) {
				text := mustSummarize(t, filepath.Join(dir, "before.heap.txt"), rd.opts, heapscan.Options{GroupBy: g})
				if len(text.Notes) != 0 {
					t.Errorf("got notes %q, want none", text.Notes)
				}
				if g == "function" {
					for key, w := range truth(sc, scenario.Keep.Allocator) {
						checkRow(t, text, key, w)
					}
				}
				for _, k := range sc.Keeps {
					for _, pr := range proto.Rows {
						if pr.Function != k.Allocator() {
							continue
						}
						tr := rowByKey(text, pr.Key)
						if tr == nil || tr.Objects != pr.Objects || tr.Bytes != pr.Bytes || !reflect.DeepEqual(tr.Sizes, pr.Sizes) {
							t.Errorf("row %s: text %+v, protobuf %+v", pr.Key, tr, pr)
						}
					}
				}
			})
		}
	}
	// The file is what a live process serves: keep a copy on failure.
	if t.Failed() {
		data, _ := os.ReadFile(filepath.Join(dir, "before.heap.txt"))
		t.Logf("debug=1 profile:\n%s", data)
	}
}

func mustRegexp(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// TestFocusAsPprof checks --focus and --ignore against pprof's own
// filter (Profile.FilterSamplesByName, what pprof's -focus and -ignore
// run), which matches function names and file names.
func TestFocusAsPprof(t *testing.T) {
	tests := []struct {
		name          string
		focus, ignore string
	}{
		{"focus on a file", `heapgen/scenario/scenario\.go$`, ""},
		{"ignore a file", "", `heapgen/scenario/scenario\.go$`},
		{"focus on runtime files", `/src/runtime/`, ""},
		{"focus on a function, ignore a file", `scenario\.Keep`, `/src/runtime/mgc`},
	}
	for _, file := range []string{"before.pb.gz", "after.pb.gz", "sampled.pb.gz"} {
		data, err := os.ReadFile(fixture(file))
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range tests {
			t.Run(file+"/"+tt.name, func(t *testing.T) {
				var focus, ignore *regexp.Regexp
				if tt.focus != "" {
					focus = regexp.MustCompile(tt.focus)
				}
				if tt.ignore != "" {
					ignore = regexp.MustCompile(tt.ignore)
				}
				p, err := profile.ParseData(data)
				if err != nil {
					t.Fatal(err)
				}
				p.FilterSamplesByName(focus, ignore, nil, nil)
				want, err := heapscan.Summarize(p, heapscan.Options{GroupBy: "site"})
				if err != nil {
					t.Fatal(err)
				}
				for _, rd := range readers {
					got := mustSummarize(t, fixture(file), rd.opts, heapscan.Options{GroupBy: "site", Focus: focus, Ignore: ignore})
					if !reflect.DeepEqual(got.Rows, want.Rows) {
						t.Errorf("%s: got rows\n%+v\nwant pprof's\n%+v", rd.name, got.Rows, want.Rows)
					}
				}
				if len(want.Rows) == 0 && tt.focus != "" {
					t.Error("pprof's filter kept nothing: the case tests nothing")
				}
			})
		}
	}
}

// TestWriteJSONStreams checks that the JSON output is written row by
// row: writing a document of many stack rows allocates a small part of
// its size (building it whole allocates more than its size), and the
// stream is the document JSON returns.
func TestWriteJSONStreams(t *testing.T) {
	plain := syntheticProfile(5000, 1000, 7)
	h, err := heapscan.Read(bytes.NewReader(plain), heapscan.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := h.Summarize(heapscan.Options{GroupBy: "stack"})
	if err != nil {
		t.Fatal(err)
	}
	cw := &countingWriter{w: io.Discard}
	got := allocated(func() { err = s.WriteJSON(cw, 1000) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes of JSON, %d rows: %d bytes allocated", cw.n, len(s.Rows), got)
	if bound := uint64(cw.n / 4); got > bound {
		t.Errorf("writing %d bytes of JSON (%d rows) allocated %d bytes, want at most a quarter of the output (%d)", cw.n, len(s.Rows), got, bound)
	}
	var streamed bytes.Buffer
	if err := s.WriteJSON(&streamed, 1000); err != nil {
		t.Fatal(err)
	}
	whole, err := json.MarshalIndent(s.JSON(1000), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(streamed.Bytes(), append(whole, '\n')) {
		t.Errorf("the streamed document differs from JSON's (%d and %d bytes)", streamed.Len(), len(whole)+1)
	}
}

// TestCanceled checks that reading stops when its context is done —
// fetching a URL whose server stalls mid-body, and reading an input that
// never ends — with an error that wraps ctx.Err() and does not blame a
// timeout.
func TestCanceled(t *testing.T) {
	data, err := os.ReadFile(fixture("before.pb.gz"))
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	defer close(release)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(data[:len(data)/2])
		w.(http.Flusher).Flush()
		select { // stall until the client gives up, or the test ends
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	var endless bytes.Buffer
	if err := writeLegacyText(&endless, testRecords(), 1, true); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		read func(ctx context.Context) error
	}{
		{"fetch, stalled body", func(ctx context.Context) error {
			_, err := heapscan.Open(ctx, srv.URL+"/debug/pprof/heap", heapscan.ReadOptions{Timeout: time.Hour})
			return err
		}},
		{"fetch, canceled before", func(ctx context.Context) error {
			<-ctx.Done()
			_, err := heapscan.Fetch(ctx, srv.URL+"/debug/pprof/heap", heapscan.ReadOptions{Timeout: time.Hour})
			return err
		}},
		{"endless text", func(ctx context.Context) error {
			_, err := heapscan.ReadContext(ctx, io.MultiReader(bytes.NewReader(endless.Bytes()), &repeatReader{b: endless.Bytes()[bytes.IndexByte(endless.Bytes(), '\n')+1:]}), heapscan.ReadOptions{MaxBytes: 1 << 40})
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			done := make(chan error, 1)
			go func() { done <- tt.read(ctx) }()
			select {
			case err := <-done:
				t.Logf("%v", err)
				if !errors.Is(err, context.Canceled) {
					t.Errorf("got %v, want an error wrapping context.Canceled", err)
				}
				if err != nil && strings.Contains(err.Error(), "timeout") {
					t.Errorf("got %v, want no timeout blamed", err)
				}
			case <-time.After(time.Minute):
				t.Fatal("reading did not stop a minute after its context was canceled")
			}
		})
	}
}

// repeatReader repeats b forever.
type repeatReader struct {
	b   []byte
	off int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.b[r.off:])
		n += c
		r.off = (r.off + c) % len(r.b)
	}
	return n, nil
}

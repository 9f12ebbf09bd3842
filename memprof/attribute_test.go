package memprof

import (
	"bytes"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"unsafe"

	"github.com/google/pprof/profile"

	"github.com/memprof/memprof/heapscan"
	"github.com/memprof/memprof/model"
)

// threeSites makes an instance of three objects, each from its own line:
// a profile with a few sites below the constructor's frame.
type threeSites struct {
	a *[24]byte
	b *[200]byte
}

func newThreeSites(i int) any {
	a := new([24]byte)
	b := new([200]byte)
	a[0], b[0] = byte(i), byte(i)
	return &threeSites{a: a, b: b}
}

// engineProfile measures c at n instances and returns the heap profile
// the engine attributed.
func engineProfile(tb testing.TB, c Case, n int) []byte {
	tb.Helper()
	var prof bytes.Buffer
	if _, err := Measure(c, N(n), KeepProfile(&prof)); err != nil {
		tb.Fatal(err)
	}
	return prof.Bytes()
}

// attributeWithModel is the engine's attribution as it was before it read
// profiles once with the streaming reader: the profile parsed with pprof's
// model, then summarized once per view (each converting the model anew).
// It is the oracle the streaming attribution must equal.
func attributeWithModel(r *Result, layout model.Layout, prof []byte) ([]*heapscan.Summary, error) {
	p, err := profile.Parse(bytes.NewReader(prof))
	if err != nil {
		return nil, err
	}
	if p.Period != 1 {
		return nil, fmt.Errorf("heap profile has sampling period %d, want 1 (exact)", p.Period)
	}
	var views []*heapscan.Summary
	for _, o := range attributionViews(layout, false) {
		s, err := heapscan.Summarize(p, o)
		if err != nil {
			return nil, err
		}
		views = append(views, s)
	}
	fillFigures(r, layout, views[0], views[1])
	return views, nil
}

// TestAttributeMatchesModel measures cases of every layout, keeps the
// engine's own profiles, and checks that attributing each with the
// streaming reader in one pass gives exactly the figures, and the
// summaries, that pprof's model gives; and, so that the comparison
// cannot pass on empty views, that the figures are the ones the cases'
// construction makes known.
func TestAttributeMatchesModel(t *testing.T) {
	const n = 2_000
	word := float64(unsafe.Sizeof(uintptr(0)))
	tests := []struct {
		name string
		c    Case
		// bytes and allocs per instance the construction makes known;
		// for the slice and collection layouts, the least they can be.
		bytes, allocs float64
		exact         bool
	}{
		{"pointer three sites", Case{Name: "three", New: newThreeSites},
			sizeClass(t, unsafe.Sizeof(threeSites{})) + sizeClass(t, 24) + sizeClass(t, 200), 3, true},
		{"pointer boxed value", Case{Name: "boxed", New: func(i int) any { var v [48]byte; v[0], v[1] = byte(i), 1; return v }},
			sizeClass(t, 48), 1, true},
		{"slice", Case{Name: "slice", NewSlice: func(n int) any { return make([]forty, n) }},
			float64(unsafe.Sizeof(forty{})), 0, false},
		{"collection", Case{Name: "map", NewAll: func(n int) any {
			m := make(map[int]*forty, n)
			for i := range n {
				m[i] = &forty{a: uint64(i)}
			}
			return m
		}, SizeOf: unsafe.Sizeof(forty{})}, sizeClass(t, unsafe.Sizeof(forty{})) + 2*word, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prof := engineProfile(t, tt.c, n)
			got := &Result{N: n}
			if err := attribute(got, tt.c.Layout(), prof); err != nil {
				t.Fatal(err)
			}
			want := &Result{N: n}
			wantViews, err := attributeWithModel(want, tt.c.Layout(), prof)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("streaming attribution differs from the model's:\ngot  %+v\nwant %+v", got, want)
			}
			h, err := heapscan.Read(bytes.NewReader(prof), heapscan.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			gotViews, err := h.SummarizeEach(attributionViews(tt.c.Layout(), false)...)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(gotViews, wantViews) {
				t.Errorf("one-pass views differ from the model's:\ngot  %+v\nwant %+v", gotViews, wantViews)
			}
			if tt.exact && (got.BytesPerInstance != tt.bytes || got.AllocsPerInstance != tt.allocs) {
				t.Errorf("got %v B in %v allocs per instance, want %v B in %v", got.BytesPerInstance, got.AllocsPerInstance, tt.bytes, tt.allocs)
			}
			if !tt.exact && (got.BytesPerInstance < tt.bytes || got.AllocsPerInstance < tt.allocs) {
				t.Errorf("got %v B in %v allocs per instance, want at least %v B in %v", got.BytesPerInstance, got.AllocsPerInstance, tt.bytes, tt.allocs)
			}
			if len(got.Sites) == 0 {
				t.Error("no site attributed")
			}
			if tt.c.Layout() == model.Pointer && got.HolderBytesPerInstance < word*2 {
				t.Errorf("holder: got %v B per instance, want at least an interface value (%v B)", got.HolderBytesPerInstance, 2*word)
			}
		})
	}
}

// benchProfile is the profile BenchmarkAttribute attributes, made once
// per process so that every run of the benchmark reads the same bytes
// (each measurement adds its own stacks to the process's profile).
var benchProfile struct {
	once sync.Once
	prof []byte
}

// BenchmarkAttribute times the attribution of one engine profile (a case
// of three sites at N = 10,000), from the profile's bytes to the figures.
func BenchmarkAttribute(b *testing.B) {
	c := Case{Name: "three", New: newThreeSites}
	benchProfile.once.Do(func() { benchProfile.prof = engineProfile(b, c, 10_000) })
	prof := benchProfile.prof
	b.Logf("profile: %d bytes", len(prof))
	b.ReportAllocs()
	b.SetBytes(int64(len(prof)))
	for b.Loop() {
		r := &Result{N: 10_000}
		if err := attribute(r, c.Layout(), prof); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAttributeLeavesOutRuntimeWaits: a sudog the runtime allocates when
// the constructor parks on a semaphore (it waits for its own worker
// goroutines) shows in the heap profile below the constructor's frame, with
// sync.runtime_SemacquireWaitGroup as its innermost visible frame. It is
// the runtime's, not the instances': attribution leaves it out, and keeps
// every other object below the constructor.
func TestAttributeLeavesOutRuntimeWaits(t *testing.T) {
	const n = 4
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "inuse_objects", Unit: "count"}, {Type: "inuse_space", Unit: "bytes"}},
		PeriodType: &profile.ValueType{Type: "space", Unit: "bytes"},
		Period:     1,
	}
	addSample := func(objects, bytes int64, frames ...string) {
		s := &profile.Sample{Value: []int64{objects, bytes}, NumLabel: map[string][]int64{"bytes": {bytes / objects}}}
		for _, name := range frames {
			f := &profile.Function{ID: uint64(len(p.Function) + 1), Name: name}
			l := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: f, Line: 7}}}
			p.Function = append(p.Function, f)
			p.Location = append(p.Location, l)
			s.Location = append(s.Location, l)
		}
		p.Sample = append(p.Sample, s)
	}
	frame := funcName(constructSlice)
	addSample(1, n*96, "lib.BatchToAffine", frame)
	addSample(1, 112, "sync.runtime_SemacquireWaitGroup", "sync.(*WaitGroup).Wait", "lib.BatchToAffine", frame)
	addSample(1, 48, "internal/sync.runtime_SemacquireMutex", "internal/sync.(*Mutex).lockSlow", "lib.BatchToAffine", frame)
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	r := &Result{N: n}
	if err := attribute(r, model.Slice, buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if r.BytesPerInstance != 96 || r.AllocsPerInstance != 1.0/n || len(r.Sites) != 1 {
		t.Errorf("got %v B and %v objects per instance in %d sites, want 96 B and %v objects (the array alone) in 1 site", r.BytesPerInstance, r.AllocsPerInstance, len(r.Sites), 1.0/n)
	}
}

package heapscan_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/memprof/memprof/heapscan"
)

var sinkSummary *heapscan.Summary

// peakHeap samples the heap's object bytes every millisecond while f
// runs and returns the largest value seen above the heap before f (live
// data plus garbage not yet collected: what the process must hold).
func peakHeap(f func()) uint64 {
	runtime.GC()
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(samples)
	base := samples[0].Value.Uint64()
	var peak atomic.Uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	f()
	close(done)
	<-stopped
	if peak.Load() < base {
		return 0
	}
	return peak.Load() - base
}

// peakAndLoop runs run once, returning the peak heap above the heap
// before it (peakHeap), then in b's timed loop.
func peakAndLoop(b *testing.B, run func() error) uint64 {
	b.Helper()
	var err error
	peak := peakHeap(func() { err = run() })
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := run(); err != nil {
			b.Fatal(err)
		}
	}
	return peak
}

// BenchmarkSummarize reads the synthetic profile (gzip, as the runtime
// writes it) and makes the default summary (inuse, by function), with
// the streaming reader and with the pprof model, and compares
// profile.Parse with a flat sum, the cheapest pprof-based answer.
func BenchmarkSummarize(b *testing.B) {
	gz, plain := synthOnce()
	b.Logf("synthetic profile: %d stacks, %d functions, %d bytes gzip, %d bytes uncompressed", synthStacks, synthFunctions, len(gz), len(plain))
	cases := []struct {
		name string
		run  func() error
	}{
		{"reader=stream", func() error {
			h, err := heapscan.Read(bytes.NewReader(gz), heapscan.ReadOptions{})
			if err != nil {
				return err
			}
			sinkSummary, err = h.Summarize(heapscan.Options{})
			return err
		}},
		{"reader=model", func() error {
			h, err := heapscan.Read(bytes.NewReader(gz), heapscan.ReadOptions{Model: true})
			if err != nil {
				return err
			}
			sinkSummary, err = h.Summarize(heapscan.Options{})
			return err
		}},
		{"reader=pprof-parse-flat", func() error {
			p, err := profile.Parse(bytes.NewReader(gz))
			if err != nil {
				return err
			}
			flat := map[string]int64{}
			for _, s := range p.Sample {
				if len(s.Location) > 0 && len(s.Location[0].Line) > 0 {
					flat[s.Location[0].Line[0].Function.Name] += s.Value[3]
				}
			}
			sinkSummary = &heapscan.Summary{TotalBytes: int64(len(flat))}
			return nil
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var err error
			peak := peakHeap(func() { err = c.run() }) // once, outside the timing
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(len(plain))/(1<<20), "profile-MB")
		})
	}
}

// BenchmarkGroupBy measures the summary alone, per grouping, on the
// decoded synthetic profile.
func BenchmarkGroupBy(b *testing.B) {
	gz, _ := synthOnce()
	h, err := heapscan.Read(bytes.NewReader(gz), heapscan.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	for _, g := range []string{"function", "site", "stack"} {
		b.Run("group="+g, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if sinkSummary, err = h.Summarize(heapscan.Options{GroupBy: g}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// Two views of one profile, as the engine takes them: in one pass
	// (SummarizeEach), and one Summarize each.
	views := []heapscan.Options{{GroupBy: "site"}, {GroupBy: "function"}}
	b.Run("group=site,function/pass=one", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := h.SummarizeEach(views...); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("group=site,function/pass=each", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, o := range views {
				if _, err := h.Summarize(o); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// syntheticText returns the legacy text form (debug=1, with symbol
// comments when symbols is set) of a profile shaped like the synthetic
// protobuf: nstacks distinct stacks of 8 to 24 frames over nfuncs
// functions, counts as the runtime records them at synthRate.
func syntheticText(nstacks, nfuncs int, seed uint64, symbols bool) []byte {
	rng := rand.New(rand.NewPCG(seed, 0x7e47))
	sizes := []int64{16, 32, 48, 64, 96, 144, 256, 512, 1024, 4096, 16384}
	var body bytes.Buffer
	var in, inB, al, alB int64
	ids := make([]int, 0, synthMaxDepth)
	for range nstacks {
		depth := synthMinDepth + rng.IntN(synthMaxDepth-synthMinDepth+1)
		ids = ids[:0]
		for range depth {
			ids = append(ids, 1+rng.IntN(nfuncs))
		}
		size := sizes[rng.IntN(len(sizes))]
		allocN := int64(1 + rng.IntN(64))
		inuseN := int64(rng.IntN(int(allocN) + 1))
		in, inB, al, alB = in+inuseN, inB+inuseN*size, al+allocN, alB+allocN*size
		fmt.Fprintf(&body, "%d: %d [%d: %d] @", inuseN, inuseN*size, allocN, allocN*size)
		for _, id := range ids {
			fmt.Fprintf(&body, " %#x", 0x400000+id*64+1)
		}
		body.WriteByte('\n')
		if symbols {
			for _, id := range ids {
				pkg := id % 700
				fmt.Fprintf(&body, "#\t%#x\tgithub.com/example/service/pkg%03d.(*Type%d).Method%d+0x%x\t/home/build/go/src/github.com/example/service/pkg%03d/file%d.go:%d\n",
					0x400000+id*64, pkg, id%37, id, id%64, pkg, id%11, 20+id%500)
			}
			body.WriteByte('\n')
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "heap profile: %d: %d [%d: %d] @ heap/%d\n", in, inB, al, alB, 2*synthRate)
	b.Write(body.Bytes())
	return b.Bytes()
}

// BenchmarkReadMemory measures what reading a valid profile costs in
// memory per MB of (uncompressed) input, for each reader and format: the
// peak heap above the heap before reading (live data and garbage not yet
// collected), while reading and making the default summary.
func BenchmarkReadMemory(b *testing.B) {
	_, proto := synthOnce()
	inputs := []struct {
		name string
		data []byte
	}{
		{"format=proto", proto},
		{"format=text", syntheticText(60_000, synthFunctions, 2, false)},
		{"format=text-symbols", syntheticText(8_000, synthFunctions, 3, true)},
	}
	for _, in := range inputs {
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
		zw.Write(in.data)
		zw.Close()
		for _, rd := range []struct {
			name  string
			model bool
		}{{"reader=stream", false}, {"reader=model", true}} {
			b.Run(in.name+"/"+rd.name, func(b *testing.B) {
				run := func() error {
					h, err := heapscan.Read(bytes.NewReader(gz.Bytes()), heapscan.ReadOptions{Model: rd.model})
					if err != nil {
						return err
					}
					sinkSummary, err = h.Summarize(heapscan.Options{})
					return err
				}
				peak := peakAndLoop(b, run)
				mb := float64(len(in.data)) / (1 << 20)
				b.ReportMetric(mb, "input-MB")
				b.ReportMetric(float64(peak)/(1<<20)/mb, "peak-MB/input-MB")
			})
		}
	}
}

// BenchmarkStackJSON measures --group-by stack with JSON output on the
// synthetic profile: the summary (whose rows hold every distinct stack's
// key) and the streamed document, written to nothing.
func BenchmarkStackJSON(b *testing.B) {
	gz, plain := synthOnce()
	h, err := heapscan.Read(bytes.NewReader(gz), heapscan.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var out int64
	run := func() error {
		s, err := h.Summarize(heapscan.Options{GroupBy: "stack"})
		if err != nil {
			return err
		}
		cw := &countingWriter{w: io.Discard}
		err = s.WriteJSON(cw, 0)
		out = cw.n
		return err
	}
	peak := peakAndLoop(b, run)
	b.ReportMetric(float64(len(plain))/(1<<20), "input-MB")
	b.ReportMetric(float64(out)/(1<<20), "output-MB")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}

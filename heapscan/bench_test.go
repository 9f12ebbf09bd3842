package heapscan_test

import (
	"bytes"
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
}

package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/stats"
	"github.com/memprof/memprof/vocab"
	"gonum.org/v1/plot/vg"
)

// TestOccupancy: the grid says a box is free exactly when no box added
// overlaps it, as looking at every box would: boxes of every size, some
// reaching beyond the area, some added twice, some sharing only an edge.
func TestOccupancy(t *testing.T) {
	area := vg.Rectangle{Min: vg.Point{X: 10, Y: 20}, Max: vg.Point{X: 550, Y: 380}}
	rng := rand.New(rand.NewPCG(1, 2))
	box := func() vg.Rectangle {
		x, y := vg.Length(rng.Float64()*600-20), vg.Length(rng.Float64()*420-20)
		w, h := vg.Length(rng.Float64()*rng.Float64()*300), vg.Length(rng.Float64()*12)
		return vg.Rectangle{Min: vg.Point{X: x, Y: y}, Max: vg.Point{X: x + w, Y: y + h}}
	}
	for _, n := range []int{0, 1, 10, 300, 3000} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			o := newOccupancy(area)
			var all []vg.Rectangle
			for i := range n {
				b := box()
				if i%7 == 3 && len(all) > 0 {
					b = all[len(all)-1] // drawn twice
				}
				o.add(b)
				all = append(all, b)
			}
			var queries []vg.Rectangle
			for range 2000 {
				queries = append(queries, box())
			}
			for _, b := range all[:min(len(all), 50)] {
				// Beside a box, sharing its edge only: free of it.
				w := b.Max.X - b.Min.X
				queries = append(queries, b, vg.Rectangle{Min: vg.Point{X: b.Max.X, Y: b.Min.Y}, Max: vg.Point{X: b.Max.X + w, Y: b.Max.Y}})
			}
			for _, q := range queries {
				want := true
				for _, b := range all {
					want = want && !overlaps(q, b)
				}
				if got := o.free(q); got != want {
					t.Fatalf("free(%v) = %v, want %v (looking at all %d boxes)", q, got, want, len(all))
				}
			}
		})
	}
}

// TestChooseExtremes: beyond the limit, the points named are the extreme
// ones, taken in turn from the right, the top, the left and the bottom,
// one per place where copies of a case coincide.
func TestChooseExtremes(t *testing.T) {
	at := func(xy ...float64) []labelItem {
		var items []labelItem
		for i := 0; i < len(xy); i += 2 {
			items = append(items, labelItem{x: xy[i], y: xy[i+1]})
		}
		return items
	}
	for _, tt := range []struct {
		name  string
		items []labelItem
		limit int
		want  []int // the indices named
	}{
		{"right, top, left, bottom", at(5, 5, 9, 4, 1, 6, 4, 9, 6, 1, 5, 4), 4, []int{1, 2, 3, 4}},
		{"then inwards", at(5, 5, 9, 4, 1, 6, 4, 9, 6, 1, 5, 4), 5, []int{0, 1, 2, 3, 4}},
		{"copies named once", at(9, 9, 9, 9, 9, 9, 1, 1, 1, 1), 3, []int{0, 3}},
		{"fewer places than the limit", at(2, 2, 2, 2), 5, []int{0}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			for i, named := range chooseExtremes(tt.items, tt.limit) {
				if named {
					got = append(got, i)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// manyGCPoints returns results of n cases with the GC figures, each at a
// place of its own: bytes growing with i, the time with i's remainders.
func manyGCPoints(t *testing.T, n int) *results.File {
	t.Helper()
	rs := &results.File{Schema: results.Schema, Env: measure.Env{GC: measure.GreenTeaGC}}
	for i := range n {
		cpu := []float64{float64(10 + i%37), float64(11 + i%37), float64(12 + i%37)}
		q, err := stats.SummarizeSamples(cpu)
		if err != nil {
			t.Fatal(err)
		}
		r := results.Row{Key: results.Key{Type: vocab.G1, Lib: vocab.Libs[i%3], Repr: vocab.Affine, Layout: measure.Pointer, Param: results.NewParam("row", i)},
			Measurement: measure.Measurement{N: 1000, BytesPerInstance: float64(96 + i), AllocsPerInstance: 1}}
		r.GCMarkNsPerInstance, r.GCMarkNsPerInstanceQ1, r.GCMarkNsPerInstanceQ3 = q.Median, q.Q1, q.Q3
		r.GCMarkSamplesNs, r.GCMarkResolution = cpu, 0.1
		r.GCCPUNsPerInstance, r.GCCPUNsPerInstanceQ1, r.GCCPUNsPerInstanceQ3 = q.Median, q.Q1, q.Q3
		r.GCCPUSamplesNs, r.GCCPUResolution = cpu, 0.1
		rs.Instances = append(rs.Instances, r)
	}
	return rs
}

// TestGCChartManyPoints: a GC chart of more points than it names names
// maxNamedPoints of them (by a label or a number the legend explains),
// the biggest and the slowest among them, its labels overlapping
// nothing and inside the plot, and its legend counts the others.
func TestGCChartManyPoints(t *testing.T) {
	for _, n := range []int{maxNamedPoints, maxNamedPoints + 1, 5 * maxNamedPoints} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			rs := manyGCPoints(t, n)
			var svg bytes.Buffer
			layers, areas := labelLayers(t, func(io.Writer) error { return GCChart(context.Background(), &svg, rs) })
			l := layers[0]
			named, labelled := map[string]bool{}, 0
			for i, pl := range l.placed {
				if pl.text != "" || pl.number > 0 {
					named[l.items[i].text] = true
				}
				if pl.text == "" {
					continue
				}
				labelled++
				if !inside(pl.box, areas[0]) {
					t.Errorf("label %q at %v is outside the plot %v", pl.text, pl.box, areas[0])
				}
				for _, o := range l.placed[i+1:] {
					if o.text != "" && overlaps(pl.box, o.box) {
						t.Errorf("labels %q and %q overlap", pl.text, o.text)
					}
				}
			}
			if want := min(n, maxNamedPoints); len(named) != want {
				t.Errorf("%d of %d points named, want %d", len(named), n, want)
			}
			if labelled == 0 {
				t.Errorf("no point labelled")
			}
			biggest := SeriesOf(rs.Instances[n-1]).Label()
			slowest := SeriesOf(rs.Instances[36]).Label() // the first at the largest remainder
			for _, want := range []string{biggest, slowest} {
				if !named[want] {
					t.Errorf("extreme point %q is not named", want)
				}
			}
			texts := svgTexts(t, svg.Bytes())
			line := fmt.Sprintf("%d more points, not named", n-maxNamedPoints)
			if has := slices.Contains(texts, line); has != (n > maxNamedPoints) {
				t.Errorf("legend line %q present: %v, want %v", line, has, n > maxNamedPoints)
			}
		})
	}
}

// countingContext is done from its limit-th look (a call of Err) on, or
// never when limit is 0, and counts the looks: a chart is interrupted at
// any point of its work without depending on the machine's speed.
type countingContext struct {
	context.Context
	mu           sync.Mutex
	looks, limit int
}

func (c *countingContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.looks++
	if c.limit > 0 && c.looks >= c.limit {
		return context.Canceled
	}
	return nil
}

// TestChartsStopAtContext: the GC and bytes charts look at their context
// at least once per point, and interrupted at any look, return the
// context's error and write nothing.
func TestChartsStopAtContext(t *testing.T) {
	const points = 3 * maxNamedPoints
	rs := manyGCPoints(t, points)
	for name, chart := range map[string]func(context.Context, io.Writer, *results.File) error{
		"gc":    GCChart,
		"bytes": BytesPerInstanceChart,
	} {
		t.Run(name, func(t *testing.T) {
			all := &countingContext{Context: context.Background()}
			if err := chart(all, io.Discard, rs); err != nil {
				t.Fatal(err)
			}
			if all.looks < points {
				t.Errorf("looked at its context %d times for %d points, want at least one look per point", all.looks, points)
			}
			for _, at := range []int{1, points / 2, all.looks / 2, all.looks - 1, all.looks} {
				var out bytes.Buffer
				err := chart(&countingContext{Context: context.Background(), limit: at}, &out, rs)
				if !errors.Is(err, context.Canceled) {
					t.Errorf("interrupted at look %d of %d: got %v, want context.Canceled", at, all.looks, err)
				}
				if out.Len() > 0 {
					t.Errorf("interrupted at look %d of %d: wrote %d bytes, want nothing", at, all.looks, out.Len())
				}
			}
		})
	}
}

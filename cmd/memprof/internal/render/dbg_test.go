package render

import (
	"context"
	"io"
	"testing"

	"github.com/memprof/memprof/results"
)

func TestDbgChart(t *testing.T) {
	rs, err := results.ReadFile("/tmp/i31d/results.json")
	if err != nil {
		t.Fatal(err)
	}
	layers, _ := labelLayers(t, func(w io.Writer) error { return GCChart(context.Background(), io.Discard, rs) })
	l := layers[0]
	pos := map[[2]float64]int{}
	for _, it := range l.items {
		pos[[2]float64{it.x, it.y}]++
	}
	t.Log(len(l.items), len(pos), l.unnamed())
	c := chooseExtremes(l.items, 60)
	n := 0
	for _, b := range c {
		if b {
			n++
		}
	}
	t.Log(n)
}

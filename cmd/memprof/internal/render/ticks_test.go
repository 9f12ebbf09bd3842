package render

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestRoundTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		labels []string
	}{
		{0, 288, []string{"0", "50", "100", "150", "200", "250"}},
		{0, 1.3, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0", "1.2"}}, // one style: the step's decimals
		{0, 35000, []string{"0", "5000", "10000", "15000", "20000", "25000", "30000", "35000"}},
		{100, 460, []string{"100", "150", "200", "250", "300", "350", "400", "450"}},
	}
	for _, tt := range tests {
		t.Run(strconv.FormatFloat(tt.hi, 'g', -1, 64), func(t *testing.T) {
			var labels []string
			ticks := roundTicks{}.Ticks(tt.lo, tt.hi)
			for _, tk := range ticks {
				if tk.Value < tt.lo || tk.Value > tt.hi {
					t.Errorf("tick %v outside [%v, %v]", tk.Value, tt.lo, tt.hi)
				}
				if tk.Label != "" {
					labels = append(labels, tk.Label)
				}
			}
			if !slices.Equal(labels, tt.labels) {
				t.Errorf("labels: got %q, want %q", labels, tt.labels)
			}
			if len(ticks) <= len(labels) {
				t.Errorf("got %d ticks for %d labels, want minor ticks between them", len(ticks), len(labels))
			}
		})
	}
}

// TestBytesChartAxis: the bytes axis of the chart has readable ticks:
// at least four, on round numbers, without decimals for whole bytes.
func TestBytesChartAxis(t *testing.T) {
	var buf bytes.Buffer
	if err := BytesPerInstanceChart(context.Background(), &buf, loadFixture(t)); err != nil {
		t.Fatal(err)
	}
	var numbers []string
	for _, s := range svgTexts(t, buf.Bytes()) {
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			numbers = append(numbers, s)
		}
	}
	if len(numbers) < 4 {
		t.Errorf("axis labels %q: want at least 4", numbers)
	}
	for _, n := range numbers {
		if strings.Contains(n, ".") {
			t.Errorf("axis label %q has decimals: bytes are whole", n)
		}
	}
}

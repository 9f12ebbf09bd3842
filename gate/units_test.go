package gate

import (
	"math"
	"testing"

	"github.com/memprof/memprof/units"
)

// TestFormatRoundTrip checks that what Update writes parses back to the
// value it meant: sizes exactly, durations never below the input.
func TestFormatRoundTrip(t *testing.T) {
	for _, b := range []float64{0, 1, 96, 192, 96.01024, 1 << 20, 123456789} {
		got, err := units.ParseSize(FormatSize(b))
		if err != nil || got != b {
			t.Errorf("ParseSize(FormatSize(%v) = %q): got %v, %v; want %v", b, FormatSize(b), got, err, b)
		}
	}
	tests := []struct {
		ns   float64
		want string
	}{
		{2080800, "2.09ms"},
		{2080000, "2.08ms"},
		{999, "999ns"},
		{812.3, "813ns"},
		{1000, "1us"},
		{1234567, "1.24ms"},
		{3e9, "3s"},
		{12345.6, "12.4us"},
		// Found by FuzzParseBudgets: a value just above three digits
		// rounded down, and the smallest float became NaN.
		{1.0000000000000002, "1.01ns"},
		{math.SmallestNonzeroFloat64, "5e-324ns"},
		{MaxDuration, "3600s"}, // the largest a budget takes
		{MaxDuration - 0.5, "3600s"},
	}
	for _, tt := range tests {
		s := FormatDuration(tt.ns)
		if s != tt.want {
			t.Errorf("FormatDuration(%v): got %q, want %q", tt.ns, s, tt.want)
		}
		back, err := units.ParseDuration(s)
		if err != nil || back < tt.ns {
			t.Errorf("ParseDuration(%q): got %v, %v; want >= %v", s, back, err, tt.ns)
		}
	}
}

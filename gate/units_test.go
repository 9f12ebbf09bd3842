package gate

import (
	"math"
	"testing"
)

func TestParse(t *testing.T) {
	parsers := map[string]func(string) (float64, error){"ParseSize": ParseSize, "ParseDuration": ParseDuration}
	const size, duration = "ParseSize", "ParseDuration"
	tests := []struct {
		parse   string
		in      string
		want    float64
		wantErr bool
	}{
		{size, "192", 192, false},
		{size, "192B", 192, false},
		{size, "192 B", 192, false},
		{size, "1.5KiB", 1.5 * 1024, false},
		{size, "2MiB", 2 << 20, false},
		{size, "1GiB", 1 << 30, false},
		{size, "1kB", 1000, false},
		{size, "3MB", 3e6, false},
		{size, "96.5", 96.5, false},
		{size, "0", 0, false},
		{size, "", 0, true},
		{size, "B", 0, true},
		{size, "-1B", 0, true},
		{size, "12XB", 0, true},
		{size, "1.5KiBs", 0, true},
		{size, "NaN", 0, true},
		{duration, "2ms", 2e6, false},
		{duration, "800us", 800e3, false},
		{duration, "800µs", 800e3, false},
		{duration, "1.5s", 1.5e9, false},
		{duration, "250ns", 250, false},
		{duration, "1500", 1500, false},
		{duration, "0.5ns", 0.5, false},
		{duration, "2 ms", 2e6, false},
		{duration, "ms", 0, true},
		{duration, "2m", 0, true},
		{duration, "2h", 0, true},
		{duration, "-2ms", 0, true},
		{duration, "1ms500us", 0, true},
		// Finite and within range: an overflow to +Inf is no budget.
		{size, "1e308GiB", 0, true},
		{size, "1e400", 0, true},
		{size, "Inf", 0, true},
		{size, "+Inf B", 0, true},
		{size, "1TiB", 0, true}, // no such unit
		{size, "1024GiB", 1 << 40, false},
		{size, "1025GiB", 0, true},
		{size, "-0", 0, false},
		{duration, "1e308s", 0, true},
		{duration, "NaN ms", 0, true},
		{duration, "3600s", 3600e9, false},
		{duration, "3601s", 0, true},
		{duration, "-0ns", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.parse+"/"+tt.in, func(t *testing.T) {
			got, err := parsers[tt.parse](tt.in)
			if (err != nil) != tt.wantErr || got != tt.want || math.Signbit(got) {
				t.Errorf("%s(%q): got %v, %v; want %v, error %v", tt.parse, tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestFormatRoundTrip checks that what Update writes parses back to the
// value it meant: sizes exactly, durations never below the input.
func TestFormatRoundTrip(t *testing.T) {
	for _, b := range []float64{0, 1, 96, 192, 96.01024, 1 << 20, 123456789} {
		got, err := ParseSize(FormatSize(b))
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
		back, err := ParseDuration(s)
		if err != nil || back < tt.ns {
			t.Errorf("ParseDuration(%q): got %v, %v; want >= %v", s, back, err, tt.ns)
		}
	}
}

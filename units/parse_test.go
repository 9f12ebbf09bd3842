package units

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

func TestParseBytes(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"512MiB", 512 << 20, true},
		{" 3 KiB ", 3 << 10, true},
		{"1GiB", 1 << 30, true},
		{"7B", 7, true},
		{"42", 42, true},
		{"0", 0, false},
		{"-1KiB", 0, false},
		{"1.5KiB", 0, false}, // whole numbers only
		{"1kB", 0, false},    // binary units only
		{"", 0, false},
		{"4611686018427387905", 0, false}, // past 2^62
	}
	for _, tt := range tests {
		got, err := ParseBytes(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseBytes(%q): got %d, %v; want %d, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

package vocab

import "testing"

// TestNearest: the suggestion is the nearest name by edit distance
// (a transposition counts one), only when near enough and not tied.
func TestNearest(t *testing.T) {
	valid := []string{"instances", "throughput", "list", "heapscan", "blst", "gnark", "circl"}
	for _, tt := range []struct {
		v, want string
		ok      bool
	}{
		{"instanses", "instances", true},
		{"thorughput", "throughput", true}, // a transposition
		{"LIST", "", false},                // the name itself, in capitals: nothing to suggest
		{"lsit", "list", true},
		{"blts", "blst", true},
		{"zzz", "", false},
		{"gnarkk", "gnark", true},
		{"heap", "", false}, // four letters from heapscan: too far
	} {
		got, ok := Nearest(tt.v, valid)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Nearest(%q): got %q, %v; want %q, %v", tt.v, got, ok, tt.want, tt.ok)
		}
	}
	if d := editDistance("ca", "ac"); d != 1 {
		t.Errorf("editDistance(ca, ac) = %d, want 1", d)
	}
}

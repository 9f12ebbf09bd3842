package results

import (
	"strings"
	"testing"
)

// TestPrintable: control characters are escaped as Go quotes them, the
// rest (non-ASCII letters, a pipe) is kept.
func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ci-runner", "ci-runner"},
		{"ci\n# heading", `ci\n# heading`},
		{"a\r\nb\tc", `a\r\nb\tc`},
		{"\x1b[2J", `\x1b[2J`},
		{"x\u0085y\x7f", `x\u0085y\x7f`},
		{"µs | Grüße", "µs | Grüße"},
	}
	for _, tt := range tests {
		if got := Printable(tt.in); got != tt.want {
			t.Errorf("Printable(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestReadEscapesControls: every string a results file holds is read
// Printable: the environment's, a module's name and version, a case's.
func TestReadEscapesControls(t *testing.T) {
	src := `{"schema": "memprof.results/v1", "env": {"machine": "a\nb", "cpu": "c\u001b", "modules": {"m\n": "v\r"}},
		"instances": [{"name": "my\tkey", "layout": "pointer", "n": 1, "bytes_per_instance": 1, "allocs_per_instance": 1, "constructor": "x\ny"}]}`
	rs, err := Read(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	got := []string{rs.Env.Machine, rs.Env.CPU, rs.Env.Modules[`m\n`], rs.Instances[0].Name, rs.Instances[0].Constructor}
	want := []string{`a\nb`, `c\x1b`, `v\r`, `my\tkey`, `x\ny`}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("field %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

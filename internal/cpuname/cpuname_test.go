package cpuname

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNameMatchesGoTest runs go test -bench on a package of one empty
// benchmark and wants its "cpu:" line to hold Name, or no "cpu:" line
// where Name is "".
func TestNameMatchesGoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on a package of its own")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":    "module nothing\n\ngo 1.21\n",
		"n_test.go": "package nothing\n\nimport \"testing\"\n\nfunc BenchmarkNothing(b *testing.B) {}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(gobin, "test", "-run", "^$", "-bench", "BenchmarkNothing", "-benchtime", "1x", "-count", "1", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test -bench: %v\n%s", err, out)
	}
	var got []string
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "cpu: "); ok {
			got = append(got, v)
		}
	}
	want := []string{Name()}
	if want[0] == "" {
		want = nil
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != len(want) {
		t.Errorf("go test's cpu lines: got %q, want %q (Name)\n%s", got, want, out)
	}
}

func TestCPUInfoName(t *testing.T) {
	long := "processor\t: 0\nmodel name\t: " + strings.Repeat("x", 40) + "\n"
	tests := []struct {
		name, cpuinfo, want string
	}{
		{"model name", "processor\t: 0\nmodel name\t: Example CPU @ 2.00GHz\ncpu MHz\t\t: 1999.999\n", "Example CPU @ 2.00GHz"},
		{"MHz appended", "model name\t: Example CPU\ncpu MHz\t\t: 1999.999\n", "Example CPU @ 1999.999MHz"},
		{"MHz in the name", "model name\t: Example CPU 800MHz\ncpu MHz\t\t: 800.000\n", "Example CPU 800MHz"},
		{"no MHz", "model name\t: Example CPU\n", "Example CPU"},
		{"capitalised keys", "Model Name\t: Example CPU\nCPU MHz\t: 100\n", "Example CPU @ 100MHz"},
		{"trailing spaces kept", "model name\t: Example CPU  \n", "Example CPU  "},
		{"last model name", long + "model name\t: Second CPU\n", "Second CPU"},
		{"no model name", "processor\t: 0\nBogoMIPS\t: 50.00\n", ""},
		{"no colon and space", "model name\t:Example\n", ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cpuInfoName([]byte(tt.cpuinfo)); got != tt.want {
				t.Errorf("cpuInfoName(%q): got %q, want %q", tt.cpuinfo, got, tt.want)
			}
		})
	}
}

// regsOf lays brand (at most 48 bytes, NUL-padded) out in the twelve
// registers of CPUID leaves 0x80000002-0x80000004, as the processor does.
func regsOf(t *testing.T, brand string) [12]uint32 {
	t.Helper()
	var b [48]byte
	if copy(b[:], brand) < len(brand) {
		t.Fatalf("brand %q longer than %d bytes", brand, len(b))
	}
	var regs [12]uint32
	for i := range regs {
		regs[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return regs
}

func TestBrandString(t *testing.T) {
	full := strings.Repeat("y", 48)
	tests := []struct {
		name, brand, want string
	}{
		{"plain", "Example CPU @ 2.00GHz", "Example CPU @ 2.00GHz"},
		{"leading spaces removed", "      Example CPU", "Example CPU"},
		{"trailing spaces kept", "Example CPU        ", "Example CPU        "},
		{"cut at the first NUL", "Example\x00CPU", "Example"},
		{"all 48 bytes", full, full},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := brandString(regsOf(t, tt.brand)); got != tt.want {
				t.Errorf("brandString(%q): got %q, want %q", tt.brand, got, tt.want)
			}
		})
	}
}

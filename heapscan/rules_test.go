package heapscan_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memprof/memprof/heapscan"
)

// TestReadRulesLimit checks that a rules file is read within its limit:
// a larger file, or a device that never ends, is refused while reading,
// naming the file and the limit.
func TestReadRulesLimit(t *testing.T) {
	dir := t.TempDir()
	const limit = 1 << 20
	write := func(name string, size int64) string {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString("A: 'x'\n"); err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return path
	}
	tests := []struct {
		name  string
		path  string
		limit int64
		want  string // "" for success
	}{
		{"at the limit", write("at.yaml", 7), 7, ""},
		{"one byte over", write("over.yaml", limit+1), limit, "larger than the limit of 1048576 bytes (1 MiB)"},
		{"device without end", "/dev/zero", limit, "reading rules /dev/zero: larger than the limit of 1048576 bytes (1 MiB)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := os.Stat(tt.path); err != nil {
				t.Skip(err)
			}
			var err error
			got := allocated(func() { _, err = heapscan.ReadRulesLimit(tt.path, tt.limit) })
			if tt.want == "" {
				if err != nil {
					t.Fatalf("got %v, want the rules", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.path) {
				t.Fatalf("got %v, want an error naming %s and %q", err, tt.path, tt.want)
			}
			if !errors.Is(err, heapscan.ErrTooLarge) {
				t.Errorf("got %v, want it to wrap ErrTooLarge", err)
			}
			if bound := uint64(4 * tt.limit); got > bound {
				t.Errorf("refusing it allocated %d bytes, want at most %d (4× the limit)", got, bound)
			}
		})
	}
}

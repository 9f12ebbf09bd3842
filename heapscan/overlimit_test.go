package heapscan_test

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"

	"github.com/memprof/memprof/heapscan"
)

// TestOverLimit: a profile with more distinct locations than the readers
// keep (text, with and without symbols, and protobuf) is read whole: the
// samples past MaxLocations are added up in OverLimitFrame's row, which
// holds exactly the objects of the stacks past the limit; the totals are
// the profile's; a note says so. One within the limits has no such row.
func TestOverLimit(t *testing.T) {
	perStack := 8 // frames, all distinct
	kept := (heapscan.MaxLocations - 1) / perStack
	// The inputs are read whole: how small their gzip is does not matter
	// here, and the fastest level takes a fifth of the CPU of the default.
	proto := func(t testing.TB, n int) ([]byte, func(*heapscan.Heap, error) error) {
		return distinctProto(t, gzip.BestSpeed, n)
	}
	tests := []struct {
		name string
		make func(t testing.TB, n int) ([]byte, func(*heapscan.Heap, error) error)
		n    int
		over bool
	}{
		{"text, within", func(t testing.TB, n int) ([]byte, func(*heapscan.Heap, error) error) {
			return distinctText(t, gzip.BestSpeed, n, false)
		}, kept - 10, false},
		{"text, past", func(t testing.TB, n int) ([]byte, func(*heapscan.Heap, error) error) {
			return distinctText(t, gzip.BestSpeed, n, false)
		}, kept + 1000, true},
		{"text with symbols, past", func(t testing.TB, n int) ([]byte, func(*heapscan.Heap, error) error) {
			return distinctText(t, gzip.BestSpeed, n, true)
		}, kept + 1000, true},
		{"protobuf, within", proto, 1000, false},
		{"protobuf, past", proto, kept + 1000, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && strings.Contains(tt.name, "symbols") {
				t.Skip("the text reader's limits are tested without symbols too")
			}
			gz, check := tt.make(t, tt.n)
			h, err := heapscan.Read(bytes.NewReader(gz), heapscan.ReadOptions{})
			if err := check(h, err); err != nil {
				t.Fatal(err)
			}
			for _, group := range []string{"function", "stack"} {
				s, err := h.Summarize(heapscan.Options{GroupBy: group})
				if err != nil {
					t.Fatal(err)
				}
				var over *heapscan.Row
				for i := range s.Rows {
					if strings.Contains(s.Rows[i].Key, heapscan.OverLimitFrame) {
						over = &s.Rows[i]
					}
				}
				switch {
				case !tt.over && over != nil:
					t.Errorf("group by %s: a row %s within the limits", group, over.Key)
				case tt.over && (over == nil || over.Objects < int64(tt.n-kept)):
					t.Errorf("group by %s: row %s: %+v, want at least the %d objects past the limits", group, heapscan.OverLimitFrame, over, tt.n-kept)
				}
				if tt.over && len(s.Rows) > heapscan.MaxLocations+1 {
					t.Errorf("group by %s: %d rows, more than the locations kept", group, len(s.Rows))
				}
			}
			noted := strings.Contains(strings.Join(h.Notes, "\n"), "more distinct locations or stacks than heapscan keeps")
			if noted != tt.over {
				t.Errorf("notes %q: say the limits %v, want %v", h.Notes, noted, tt.over)
			}
		})
	}
}

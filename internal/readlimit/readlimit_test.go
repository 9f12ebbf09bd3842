package readlimit

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestReadAll(t *testing.T) {
	tests := []struct {
		name  string
		input string
		limit int64
		want  string // error text; "" for success
	}{
		{"under", "abc", 4, ""},
		{"exactly", "abcd", 4, ""},
		{"one over", "abcde", 4, "larger than the limit of 4 B"},
		{"empty", "", 1, ""},
		{"no limit", "a", 0, "size limit must be positive, got 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadAll(strings.NewReader(tt.input), tt.limit)
			switch {
			case tt.want == "" && (err != nil || string(got) != tt.input):
				t.Errorf("got %q, %v; want %q", got, err, tt.input)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
	_, err := ReadAll(bytes.NewReader(make([]byte, 2<<10)), 1<<10)
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("got %v, want it to wrap ErrTooLarge", err)
	}
}

func TestFormatSize(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{{256 << 20, "256 MiB"}, {64 << 20, "64 MiB"}, {1 << 30, "1 GiB"}, {1536, "1536 B"}, {100, "100 B"}, {3 << 10, "3 KiB"}} {
		if got := FormatSize(tt.n); got != tt.want {
			t.Errorf("FormatSize(%d): got %q, want %q", tt.n, got, tt.want)
		}
	}
}

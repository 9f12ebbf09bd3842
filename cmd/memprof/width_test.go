package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// TestListFitsColumns: list fits the width $COLUMNS gives when standard
// output is not a terminal, and 120 without it.
func TestListFitsColumns(t *testing.T) {
	for _, tt := range []struct {
		columns string
		width   int
	}{{"80", 80}, {"100", 100}, {"", 120}, {"junk", 120}} {
		t.Run(tt.columns, func(t *testing.T) {
			t.Setenv("COLUMNS", tt.columns)
			code, stdout, stderr := runCLI(t, "list")
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			widest := 0
			for _, line := range strings.Split(stdout, "\n") {
				widest = max(widest, twwidth.Width(line))
			}
			if widest > tt.width {
				t.Errorf("widest line is %d columns, want at most %d", widest, tt.width)
			}
			if widest < tt.width-20 {
				t.Errorf("widest line is %d columns: the table does not use the width %d", widest, tt.width)
			}
		})
	}
}

// TestTableFlags: --wide and --columns choose the table's columns, are
// refused together, with another format than the table, and with a
// column the table does not have.
func TestTableFlags(t *testing.T) {
	sig := []string{"instances", "--type", "Signature", "--lib", "gnark", "--repr", "affine", "-n", "1000"}
	tests := []cliCase{
		{"wide and columns", []string{"--wide", "--columns", "type"}, exitUsage, nil, []string{"--wide and --columns both choose the columns: give one"}},
		{"columns with csv", []string{"--columns", "type", "--format", "csv"}, exitUsage, nil, []string{"--columns does nothing with --format csv: only the table chooses columns"}},
		{"wide with json", []string{"--wide", "--format", "json"}, exitUsage, nil, []string{"--wide does nothing with --format json"}},
		{"unknown column", []string{"--columns", "type,bogus"}, exitUsage, nil, []string{`--columns: unknown column "bogus"`}},
		{"column of operations", []string{"--columns", "time/op"}, exitUsage, nil, []string{`--columns: column "time/op" is not one of the instance table's: choose from`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, sig...) })
	}
	if testing.Short() {
		return
	}
	t.Setenv("COLUMNS", "100")
	for _, tt := range []struct {
		name   string
		args   []string
		header []string
	}{
		{"default", nil, []string{"type", "lib", "repr", "layout", "B/instance", "allocs/instance", "GC scan B", "GC CPU/cycle", "slot", "note"}},
		{"columns", []string{"--columns", "lib,sizeof_bytes,B/instance"}, []string{"lib", "sizeof", "B/instance", "note"}},
		{"wide", []string{"--wide"}, []string{"type", "lib", "repr", "layout", "B/instance", "allocs/instance", "GC scan B", "GC CPU/cycle", "GC mark/cycle", "sizeof", "slot", "off-heap B",
			"HeapAlloc B", "holder B", "C heap B", "RSS B", "unaccounted B", "sites from", "note"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append(sig, tt.args...)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			tables, _ := parseTables(stdout)
			if len(tables) == 0 || !slices.Equal(tables[0].header, tt.header) {
				t.Errorf("header: got %v, want %q\n%s", tables, tt.header, stdout)
			}
		})
	}
}

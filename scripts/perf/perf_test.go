package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWriteDocSection(t *testing.T) {
	section := func(body string) string { return sectionBegin + "\n\n" + body + "\n" + sectionEnd }
	tests := []struct {
		name, old, want string
	}{
		{"replaced", "# P\n\nintro\n\n" + section("old\n") + "\n\nafter\n", "# P\n\nintro\n\n" + section("new\n") + "\n\nafter\n"},
		{"appended", "# P\n\nintro\n\n\n", "# P\n\nintro\n\n" + section("new\n") + "\n"},
		{"created", "", "# Performance\n\n" + section("new\n") + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "performance.md")
			if tt.old != "" {
				if err := os.WriteFile(file, []byte(tt.old), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := writeDocSection(file, "new\n"); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestWriteDocSectionOneMarker(t *testing.T) {
	file := filepath.Join(t.TempDir(), "performance.md")
	if err := os.WriteFile(file, []byte(sectionEnd+"\n"+sectionBegin+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeDocSection(file, "new\n"); err == nil || !strings.Contains(err.Error(), "wrong order") {
		t.Errorf("got %v, want the markers' error", err)
	}
}

func TestReadBench(t *testing.T) {
	text := `goos: linux
goarch: amd64
pkg: github.com/memprof/memprof/memprof
BenchmarkFloor/case=Signature:blst:affine:pointer/n=100000-2         	       1	 212000000 ns/op	       212.5 ms/case	       288.0 B/instance	         1.000 allocs/instance
BenchmarkMeasure/case=Signature:blst:affine:pointer/n=100000-2         	       3	 912000000 ns/op	       912.0 ms/case	       200.0 floor-ms/case	         4.560 x-floor
PASS
`
	floors := readBench(text, "BenchmarkFloor")
	if len(floors) != 1 {
		t.Fatalf("got %d floors, want 1", len(floors))
	}
	if f := floors[0]; f.n != 100000 || f.metrics["ms/case"] != 212.5 || f.metrics["B/instance"] != 288 {
		t.Errorf("got n=%d %v, want n=100000 212.5 ms/case 288 B/instance", f.n, f.metrics)
	}
	measures := readBench(text, "BenchmarkMeasure")
	if len(measures) != 1 || measures[0].metrics["x-floor"] != 4.56 {
		t.Errorf("got %v, want one result with 4.56 x-floor", measures)
	}
}

func TestMedianCountRatio(t *testing.T) {
	ms := func(n ...int) []time.Duration {
		var ds []time.Duration
		for _, v := range n {
			ds = append(ds, time.Duration(v)*time.Millisecond)
		}
		return ds
	}
	for _, tt := range []struct {
		got, want string
	}{
		{median(ms(3, 1, 2)).String(), "2ms"},
		{median(ms(4, 1, 2, 3)).String(), "2.5ms"},
		{median(nil).String(), "0s"},
		{count(1000000), "1,000,000"},
		{count(100), "100"},
		{ratio(3*time.Second, 2*time.Second), "1.5"},
		{ratio(time.Second, 0), "n/a"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %s, want %s", tt.got, tt.want)
		}
	}
}

func TestParseFlagsQuick(t *testing.T) {
	var stderr strings.Builder
	cfg, err := parseFlags([]string{"-quick", "-runs", "2", "-rev", "HEAD~1", "-rev", "."}, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.runs != 2 || cfg.typeAll || cfg.goTest || cfg.docs != "" || cfg.note != "" || len(cfg.ns) != 3 || len(cfg.revs) != 2 {
		t.Errorf("got runs %d, all %v, go test %v, docs %q, note %q, ns %v, revs %v; want 2 runs (given), quick's others, 2 revs",
			cfg.runs, cfg.typeAll, cfg.goTest, cfg.docs, cfg.note, cfg.ns, cfg.revs)
	}
	if got, want := cfg.caseKey.benchPattern("BenchmarkFloor"), "^BenchmarkFloor$/^case=Signature:blst:affine:pointer$"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestGoTestAndTypeAll runs the go test steps on a module of two tests
// made here, and the --type all step on a stand-in for memprof that
// writes a results file of three cases, one failed.
func TestGoTestAndTypeAll(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	ctx := t.Context()
	for _, tt := range []struct {
		name     string
		body     string
		wantExit int
	}{
		{"passes", "", 0},
		{"fails", `t.Error("no")`, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.22\n")
			write(t, filepath.Join(dir, "m_test.go"), "package m\n\nimport \"testing\"\n\nfunc TestM(t *testing.T) { "+tt.body+" }\n")
			tg := &target{rev: ".", dir: dir}
			if err := warmGoTest(ctx, tg); err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			if err := measureGoTest(ctx, tg, t.TempDir(), &stderr); err != nil {
				t.Fatal(err)
			}
			if g := tg.res.goTest; g == nil || g.exit != tt.wantExit || g.cpu <= 0 || g.wall <= 0 {
				t.Fatalf("got %+v, want exit %d and positive times", g, tt.wantExit)
			}
			if got := goTestTable([]*target{tg}, false); !strings.Contains(got, map[int]string{0: "| ok ", 1: "| FAIL (exit 1) "}[tt.wantExit]) {
				t.Errorf("got table\n%s\nwant its result", got)
			}
		})
	}
	t.Run("type all", func(t *testing.T) {
		dir := t.TempDir()
		fake := filepath.Join(dir, "memprof")
		write(t, fake, "#!/bin/sh\nwhile [ \"$1\" != -o ]; do shift; done\nprintf '%s' '{\"instances\":[{},{\"error\":\"x\"},{}]}' > \"$2\"\nexit 1\n")
		if err := os.Chmod(fake, 0o755); err != nil {
			t.Fatal(err)
		}
		tg := &target{rev: ".", dir: dir, memprof: fake}
		if err := measureTypeAll(ctx, tg, dir); err != nil {
			t.Fatal(err)
		}
		if a := tg.res.all; a == nil || a.cases != 3 || a.failed != 1 || a.exit != 1 {
			t.Errorf("got %+v, want 3 cases, 1 failed, exit 1", a)
		}
	})
}

func write(t *testing.T, file, text string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

package report

import (
	"bytes"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/export"
	"github.com/memprof/memprof/results"
)

// negativeFigure is a number with a minus sign where a figure starts: at
// the start of a line or a cell, after a space, a bracket, a comma, a
// colon, an equals sign or a tag (not "ML-DSA-65", a date or a module
// path, whose hyphen follows a letter or a digit).
var negativeFigure = regexp.MustCompile(`(^|[\s|,(:=;>])[-−][0-9.]*[0-9]`)

// committedResults are the results files the repository commits, which
// its documents render.
var committedResults = []string{"../../../../fixtures/results/results.json", "../../../../fixtures/docs/signature.json", "../../../../fixtures/docs/kzg-objects.json"}

// TestNoNegativeFigure: nothing rendered of the committed results files
// (show's table, Markdown and CSV, the trade-off tables, the review's
// README, CSV, bench text and charts, the benchmark export) prints a
// negative figure: a reading of a quantity that cannot be negative is
// printed ~0 (0 in a file), whatever its sign under its noise.
func TestNoNegativeFigure(t *testing.T) {
	for _, p := range committedResults {
		rs, err := results.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(p), func(t *testing.T) {
			outputs := map[string]func(io.Writer) error{
				"show table": func(w io.Writer) error {
					all := render.TableOptions{Wide: true}
					return render.ShowTables(w, rs, all, all)
				},
				"show markdown":   func(w io.Writer) error { return render.Markdown(w, rs) },
				"show csv":        func(w io.Writer) error { return render.CSV(w, rs) },
				"trade-offs":      func(w io.Writer) error { return render.TradeoffTablesFit(w, rs, render.TableOptions{}) },
				"export benchfmt": func(w io.Writer) error { return export.Bench(w, rs) },
			}
			for name, out := range outputs {
				var buf bytes.Buffer
				if err := out(&buf); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				checkNoNegative(t, name, buf.String())
			}
			files, err := Render(rs, Options{Source: p})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				if f.Name == "results.json" {
					continue // the data, as measured; its resolutions say how far
				}
				text := string(f.Data)
				if strings.HasSuffix(f.Name, ".svg") {
					text = strings.Join(svgTexts(f.Data), "\n")
				}
				checkNoNegative(t, f.Name, text)
			}
		})
	}
}

// svgTexts returns the text elements' strings of an SVG chart.
func svgTexts(svg []byte) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<text [^>]*>([^<]*)</text>`).FindAllSubmatch(svg, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

func checkNoNegative(t *testing.T, name, text string) {
	t.Helper()
	n := 0
	for i, line := range strings.Split(text, "\n") {
		if m := negativeFigure.FindString(line); m != "" {
			if n++; n <= 5 {
				t.Errorf("%s:%d: negative figure %q in %q", name, i+1, strings.TrimSpace(m), line)
			}
		}
	}
	if n > 5 {
		t.Errorf("%s: %d lines with a negative figure in all", name, n)
	}
}

// TestNegativeFigurePattern: the pattern finds a negative figure where a
// figure starts, and not a hyphen inside a name, a date or a path.
func TestNegativeFigurePattern(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"| gnark | -8.19 |", true},
		{"instances,Blob,ckzg,,-1.144,14", true},
		{"scan (-0.00048 B)", true},
		{"runtime metadata: -16.384", true},
		{"ML-DSA-65 at 2026-12-05", false},
		{"github.com/ethereum/c-kzg-4844/v2", false},
		{"| ~0 | 0 |", false},
	} {
		if got := negativeFigure.MatchString(tt.s); got != tt.want {
			t.Errorf("%q: got %v, want %v", tt.s, got, tt.want)
		}
	}
}

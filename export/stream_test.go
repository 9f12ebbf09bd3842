package export

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/memprof/memprof/results"
)

// TestGitHubActionBenchmarkStreamed: the entries, written one at a time,
// are byte for byte what json.Encoder (indented, HTML left alone) writes
// of the whole list: for a real run's rows, for no entry at all, and for
// a machine name with characters the encoder would escape for HTML.
func TestGitHubActionBenchmarkStreamed(t *testing.T) {
	html := loadFixture(t)
	html.Env.Machine = "<a&b>"
	for _, tt := range []struct {
		name string
		rs   *results.File
		part Part
	}{
		{"fixture", loadFixture(t), All},
		{"fixture time", loadFixture(t), Time},
		{"html", html, All},
		{"none", &results.File{Schema: results.Schema}, All},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got, want bytes.Buffer
			if err := gitHubActionBenchmarkJSON(&got, tt.rs, tt.part); err != nil {
				t.Fatal(err)
			}
			enc := json.NewEncoder(&want)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			if err := enc.Encode(entriesOf(tt.rs, tt.part)); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("got\n%s\nwant\n%s", clipped(got.String()), clipped(want.String()))
			}
		})
	}
}

// entriesOf collects actionBenchmarkEntries of rs and part into a list,
// empty rather than nil when there is none (as the export writes "[]").
func entriesOf(rs *results.File, part Part) []ActionBenchmarkEntry {
	out := []ActionBenchmarkEntry{}
	for e := range actionBenchmarkEntries(rs, part) {
		out = append(out, e)
	}
	return out
}

func clipped(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}

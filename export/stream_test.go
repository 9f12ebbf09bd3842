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
			checkStreamed(t, func(w *bytes.Buffer) error { return gitHubActionBenchmarkJSON(w, tt.rs, tt.part) }, entriesOf(tt.rs, tt.part))
		})
	}
}

// checkStreamed checks that write writes byte for byte what json.Encoder
// (indented, HTML left alone) writes of whole.
func checkStreamed(t *testing.T, write func(*bytes.Buffer) error, whole any) {
	t.Helper()
	var got, want bytes.Buffer
	if err := write(&got); err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(whole); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("got\n%s\nwant\n%s", clipped(got.String()), clipped(want.String()))
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

// TestBencherStreamed: Bencher's JSON, written benchmark by benchmark, is
// byte for byte what json.Encoder (indented, HTML left alone) writes of
// the whole map, for every part, a name the encoder would escape for HTML
// and no benchmark at all; and an output many times the writer's buffer
// reaches w in writes no larger than the buffer, never held at once.
func TestBencherStreamed(t *testing.T) {
	html := loadFixture(t)
	html.Instances[0].Key = results.Key{Name: "<a&b> case"}
	for _, tt := range []struct {
		name string
		rs   *results.File
		part Part
	}{
		{"fixture", loadFixture(t), All},
		{"fixture memory", loadFixture(t), Memory},
		{"fixture time", loadFixture(t), Time},
		{"html", html, All},
		{"none", &results.File{Schema: results.Schema}, All},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkStreamed(t, func(w *bytes.Buffer) error { return bencher(w, tt.rs, tt.part) }, BencherMetricsOf(tt.rs, tt.part))
		})
	}

	// The fixture's rows, each under many names of its own.
	const buffer, copies = streamBuffer, 20
	big := loadFixture(t)
	var rows []results.Row
	for i := range copies {
		for _, r := range big.Instances {
			r.Key.Param = results.NewParam("copy", i)
			rows = append(rows, r)
		}
	}
	big.Instances, big.Throughput = rows, nil
	var w largestWrite
	if err := bencher(&w, big, All); err != nil {
		t.Fatal(err)
	}
	if w.total < 4*buffer || w.largest > buffer {
		t.Errorf("%d B written, the largest write %d B: want more than %d B, in writes of at most %d B", w.total, w.largest, 4*buffer, buffer)
	}
}

// largestWrite counts what is written to it and keeps the largest write.
type largestWrite struct{ total, largest int }

func (w *largestWrite) Write(p []byte) (int, error) {
	w.total += len(p)
	w.largest = max(w.largest, len(p))
	return len(p), nil
}

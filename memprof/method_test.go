package memprof

import (
	"strings"
	"testing"

	"github.com/memprof/memprof/model"
)

// TestMethodFromConstants: the method states the engine's constants as
// they are (a changed constant changes the text), and each section has a
// title and paragraphs.
func TestMethodFromConstants(t *testing.T) {
	text := MethodText()
	for name, want := range map[string]string{
		"attributionFull":  "allocates " + model.Count.Format(attributionFull) + " instances",
		"attributionFewer": "and " + model.Count.Format(attributionFewer) + " beside them",
		"footprintSamples": "sampling about " + model.Count.Format(footprintSamples) + " allocations",
		"MarkCycles":       "forces " + model.Count.Format(MarkCycles) + " garbage collections",
		"persistentChunk":  "2 x (" + model.Count.Format(persistentChunk>>10) + " KiB + one page)",
		"DefaultMinSample": "(default " + DefaultMinSample.String() + ")",
		"OpSiteRepeats":    model.Count.Format(OpSiteRepeats) + " times (n such that a loop takes about " + OpSiteTarget.String(),
		"BytesPerInstance": model.BytesPerInstanceDefinition,
		"module@version":   "module@version/path",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the method does not say %s: %q", name, want)
		}
	}
	titles := map[string]bool{}
	for _, s := range Method() {
		if s.Title == "" || len(s.Paragraphs) == 0 || titles[s.Title] {
			t.Errorf("section %q: want a title of its own and paragraphs, got %d", s.Title, len(s.Paragraphs))
		}
		titles[s.Title] = true
	}
	for _, title := range []string{MethodBytes, MethodGC, MethodResolution, MethodThroughput, MethodOpSites} {
		if !titles[title] {
			t.Errorf("no section %q", title)
		}
	}
}

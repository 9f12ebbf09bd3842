package memprof

import (
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/units"
)

// TestMethodFromConstants: the method states the engine's constants as
// they are (a changed constant changes the text), and each section has a
// title and paragraphs.
func TestMethodFromConstants(t *testing.T) {
	text := MethodText()
	for name, want := range map[string]string{
		"attributionFull":  "allocates " + units.Count.Format(attributionFull) + " instances",
		"attributionFewer": "and " + units.Count.Format(attributionFewer) + " beside them",
		"footprintSamples": "sampling about " + units.Count.Format(footprintSamples) + " allocations",
		"MarkCycles":       "forces " + units.Count.Format(MarkCycles) + " garbage collections",
		"persistentChunk":  "2 x (" + units.Count.Format(persistentChunk>>10) + " KiB + one page)",
		"DefaultMinSample": "(default " + DefaultMinSample.String() + ")",
		"OpSiteRepeats":    units.Count.Format(OpSiteRepeats) + " times (n such that a loop takes about " + OpSiteTarget.String(),
		"BytesPerInstance": measure.BytesPerInstanceDefinition,
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

// TestMethodSaysItOnce: no sentence of the method says a run of four
// words twice (it once read "a site that costs the same per instance in
// both sets is exact from them, one that costs the same in both is a cost
// paid once").
func TestMethodSaysItOnce(t *testing.T) {
	const run = 4
	for _, s := range Method() {
		for _, p := range s.Paragraphs {
			for _, sentence := range strings.Split(p, ". ") {
				words := strings.Fields(strings.ToLower(sentence))
				seen := map[string]bool{}
				for i := 0; i+run <= len(words); i++ {
					w := strings.Join(words[i:i+run], " ")
					if seen[w] {
						t.Errorf("%s: the sentence says %q twice: %q", s.Title, w, sentence)
					}
					seen[w] = true
				}
			}
		}
	}
}

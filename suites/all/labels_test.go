package all

import (
	"strings"
	"testing"

	"github.com/memprof/memprof/vocab"
)

// TestUnavailableReasons: every combination the registry cannot measure
// says why, and one that does not apply names the form asked for (a
// reason about another form would not explain this one).
func TestUnavailableReasons(t *testing.T) {
	for _, e := range Registry().Entries() {
		why := e.Unavailable
		if why.IsZero() {
			continue
		}
		switch {
		case strings.TrimSpace(why.Reason) == "":
			t.Errorf("%s: unavailable without a reason", e.Key)
		case why.Kind == vocab.DoesNotApply && !strings.Contains(why.Reason, string(e.Repr)):
			t.Errorf("%s: reason %q does not name the form %s", e.Key, why.Reason, e.Repr)
		}
	}
}

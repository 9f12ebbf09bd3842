package report

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeStopsAtContext: once its context is done, the README ends at
// the next section, with the context's error, before a type's section;
// and WriteContext, interrupted so, leaves nothing beside --out.
func TestReadmeStopsAtContext(t *testing.T) {
	rs := loadFixture(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("interrupted")
	cancel(cause)
	var b strings.Builder
	err := writeReadme(ctx, &b, rs, Options{}, charts{}, nil)
	if !errors.Is(err, cause) {
		t.Errorf("README with its context done: got %v, want the context's cause", err)
	}
	for _, typ := range []string{"## Signature", "## PublicKey", "## Environment"} {
		if strings.Contains(b.String(), typ) {
			t.Errorf("README with its context done has section %q:\n%s", typ, b.String())
		}
	}
	dir := t.TempDir()
	if _, err := WriteContext(ctx, filepath.Join(dir, "review"), rs, Options{}); !errors.Is(err, cause) {
		t.Errorf("WriteContext with its context done: got %v, want the context's cause", err)
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("WriteContext with its context done left %v", left)
	}
}

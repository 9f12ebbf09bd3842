package onexit

import (
	"slices"
	"testing"
)

// Run runs the cleanups added and not removed, newest first, and a
// cleanup added after Run runs at once.
func TestRun(t *testing.T) {
	var ran []string
	add := func(name string) func() { return Add(func() { ran = append(ran, name) }) }
	add("first")
	remove := add("removed")
	add("last")
	remove()
	Run()
	if want := []string{"last", "first"}; !slices.Equal(ran, want) {
		t.Errorf("Run ran %q, want %q", ran, want)
	}
	Run()
	if len(ran) != 2 {
		t.Errorf("a second Run ran %q again", ran[2:])
	}
	add("after")()
	if want := []string{"last", "first", "after"}; !slices.Equal(ran, want) {
		t.Errorf("after Run, Add ran %q, want %q", ran, want)
	}
}

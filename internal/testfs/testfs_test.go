package testfs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSnapshot: a tree made by WriteFile, Mkdir and Symlink (a file and
// a directory of known modes, a link) is listed as such, and a change to any of them shows in Diff.
func TestSnapshot(t *testing.T) {
	dir := t.TempDir()
	if p := WriteFile(t, filepath.Join(dir, "f"), "content", 0o640); p != filepath.Join(dir, "f") {
		t.Errorf("WriteFile: got path %q, want %q", p, filepath.Join(dir, "f"))
	}
	d := Mkdir(t, filepath.Join(dir, "d"), 0o710)
	if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o710 {
		t.Errorf("Mkdir: got %v (%v), want a directory of mode 0o710", fi, err)
	}
	if l := Symlink(t, "f", filepath.Join(d, "l")); l != filepath.Join(d, "l") {
		t.Errorf("Symlink: got path %q, want %q", l, filepath.Join(d, "l"))
	}
	if got, want := Names(t, dir), []string{"d", "f"}; !slices.Equal(got, want) {
		t.Errorf("Names: got %v, want %v", got, want)
	}
	want := map[string]string{"f": "file:content -rw-r-----", "d": "dir", filepath.Join("d", "l"): "link:f"}
	got := Snapshot(t, dir)
	if d := Diff(got, want); d != "" {
		t.Errorf("Snapshot differs from what was made:\n%s", d)
	}

	tests := []struct {
		name string
		edit func(map[string]string)
		want string
	}{
		{"missing", func(m map[string]string) { delete(m, "d") }, "d: missing, want dir"},
		{"different", func(m map[string]string) { m["f"] = "file:other -rw-r-----" }, "f: got file:other -rw-r-----, want file:content -rw-r-----"},
		{"unexpected", func(m map[string]string) { m["new"] = "dir" }, "new: unexpected dir"},
		{"long values cut", func(m map[string]string) { m["f"] = "file:" + strings.Repeat("x", 300) },
			"f: got file:" + strings.Repeat("x", 195) + ", want file:content -rw-r-----"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changed := Snapshot(t, dir)
			tt.edit(changed)
			if d := Diff(changed, want); d != tt.want {
				t.Errorf("got %q, want %q", d, tt.want)
			}
		})
	}
}

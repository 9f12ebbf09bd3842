package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteStream checks that streamed content replaces the file only
// when complete: a failing writer leaves the old file as it was and no
// temporary file behind.
func TestWriteStream(t *testing.T) {
	errWrite := errors.New("renderer failed")
	tests := []struct {
		name    string
		write   func(io.Writer) error
		wantErr bool
		want    string
	}{
		{"complete", func(w io.Writer) error { _, err := io.WriteString(w, "new content"); return err }, false, "new content"},
		{"fails halfway", func(w io.Writer) error { io.WriteString(w, "half"); return errWrite }, true, "old content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.json")
			if err := os.WriteFile(path, []byte("old content"), 0o600); err != nil {
				t.Fatal(err)
			}
			err := WriteStream(path, 0o644, tt.write)
			if (err != nil) != tt.wantErr || (tt.wantErr && !errors.Is(err, errWrite)) {
				t.Fatalf("got error %v, want error %v", err, tt.wantErr)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("got %d entries in %s, want 1 (no temporary file left)", len(entries), dir)
			}
		})
	}
	t.Run("device in place", func(t *testing.T) {
		if _, err := os.Stat(os.DevNull); err != nil {
			t.Skip(err)
		}
		if err := WriteStream(os.DevNull, 0o644, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode().IsRegular() {
			t.Errorf("%s: mode %v after writing, want still a device", os.DevNull, fi.Mode())
		}
	})
}

// TestWriteStreamThroughLink: streamed output resolves a symbolic link as
// WriteFile does: the target is replaced, keeping its permission bits,
// and the link stays a link.
func TestWriteStreamThroughLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	link := filepath.Join(dir, "link.json")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	if err := WriteStream(link, 0o644, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s: got mode %v (%v), want still a symbolic link", link, fi.Mode(), err)
	}
	if got, _ := os.ReadFile(target); string(got) != "new" {
		t.Errorf("target holds %q, want %q", got, "new")
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v, want the replaced file's 0600", fi.Mode().Perm())
	}
}

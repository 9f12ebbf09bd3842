package report

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/memprof/memprof/internal/testfs"
)

// TestOutThroughLink: an --out that is a symbolic link gets the review in
// the directory it points to; the link stays a link, the directory keeps
// its permission bits, nothing temporary is left beside either. A link
// that leads nowhere is refused, and nothing is created.
func TestOutThroughLink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on windows")
	}
	rs := loadFixture(t)
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) (out, target string) // target "" when refused
		force bool
		mode  fs.FileMode // the target's mode afterwards
		err   string      // DIR stands for the test directory
	}{
		{name: "link to an empty directory", mode: 0o750, setup: func(t *testing.T, dir string) (string, string) {
			testfs.Mkdir(t, filepath.Join(dir, "real"), 0o750)
			testfs.Symlink(t, "real", filepath.Join(dir, "out"))
			return filepath.Join(dir, "out"), filepath.Join(dir, "real")
		}},
		{name: "chain of links to an earlier review, --force", force: true, mode: 0o700, setup: func(t *testing.T, dir string) (string, string) {
			testfs.Mkdir(t, filepath.Join(dir, "reviews"), 0o755)
			testfs.Mkdir(t, filepath.Join(dir, "reviews", "v1"), 0o700)
			if err := os.WriteFile(filepath.Join(dir, "reviews", "v1", ReadmeFile), []byte("earlier"), 0o644); err != nil {
				t.Fatal(err)
			}
			testfs.Symlink(t, "reviews/v1", filepath.Join(dir, "latest"))
			testfs.Symlink(t, filepath.Join(dir, "latest"), filepath.Join(dir, "out"))
			return filepath.Join(dir, "out"), filepath.Join(dir, "reviews", "v1")
		}},
		{name: "plain empty directory keeps its mode", mode: 0o711, setup: func(t *testing.T, dir string) (string, string) {
			testfs.Mkdir(t, filepath.Join(dir, "out"), 0o711)
			return filepath.Join(dir, "out"), filepath.Join(dir, "out")
		}},
		{name: "dangling link", err: "output directory DIR/out is a symbolic link to DIR/gone, which does not exist",
			setup: func(t *testing.T, dir string) (string, string) {
				testfs.Symlink(t, "gone", filepath.Join(dir, "out"))
				return filepath.Join(dir, "out"), ""
			}},
		{name: "link loop", err: "output directory DIR/out: symbolic link loop",
			setup: func(t *testing.T, dir string) (string, string) {
				testfs.Symlink(t, "out2", filepath.Join(dir, "out"))
				testfs.Symlink(t, "out", filepath.Join(dir, "out2"))
				return filepath.Join(dir, "out"), ""
			}},
		{name: "link to a file", force: true, err: "output directory DIR/out exists and is not a directory",
			setup: func(t *testing.T, dir string) (string, string) {
				if err := os.WriteFile(filepath.Join(dir, "f"), []byte("keep"), 0o644); err != nil {
					t.Fatal(err)
				}
				testfs.Symlink(t, "f", filepath.Join(dir, "out"))
				return filepath.Join(dir, "out"), ""
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out, target := tt.setup(t, dir)
			before := names(t, dir)
			wasLink := isLink(t, out)
			_, err := Write(out, rs, Options{Force: tt.force})
			if tt.err != "" {
				want := strings.ReplaceAll(tt.err, "DIR", dir)
				if err == nil || err.Error() != want {
					t.Errorf("got %v, want %s", err, want)
				}
				if got := names(t, dir); strings.Join(got, " ") != strings.Join(before, " ") {
					t.Errorf("refused review changed %s: got %v, want %v", dir, got, before)
				}
				return
			}
			if err != nil {
				t.Fatalf("got %v, want the review written", err)
			}
			if isLink(t, out) != wasLink {
				t.Errorf("%s: a link before the write, not after (or the reverse)", out)
			}
			readme, err := os.ReadFile(filepath.Join(target, ReadmeFile))
			if err != nil || string(readme) == "earlier" {
				t.Errorf("%s in %s: got %.40q (%v), want the new review", ReadmeFile, target, readme, err)
			}
			fi, err := os.Stat(target)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != tt.mode {
				t.Errorf("%s: mode %v, want %v as before", target, fi.Mode().Perm(), tt.mode)
			}
			if got := names(t, dir); strings.Join(got, " ") != strings.Join(before, " ") {
				t.Errorf("beside the review: got %v, want %v (no temporary left)", got, before)
			}
			assertNoTemp(t, filepath.Dir(target))
		})
	}
}

// names lists every path under dir, relative, in order (a review's own
// files excluded).
func names(t *testing.T, dir string) []string {
	t.Helper()
	var got []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		if isReviewFile(d.Name()) {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		got = append(got, rel)
		return nil
	})
	return got
}

func isLink(t *testing.T, p string) bool {
	t.Helper()
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/memprof/memprof/internal/testfs"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// TestProfileDir: instances --profile-dir creates its files without
// following links (a link planted under a profile's name is replaced, and
// the file it leads to outside the directory is untouched), and checks
// the directory before measuring: one that cannot be made or written is
// refused (exit 1) before any child starts.
func TestProfileDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on windows")
	}
	key := results.Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Pointer}
	name := strings.NewReplacer("/", "_", "=", "-").Replace(key.BenchName()) + ".pb.gz"
	const outside = "a file outside the profile directory, which no write may reach\n"
	ro, roWhy := unwritableDir(t)
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) (profiles, victim string)
		want  string // stderr, DIR the test directory; "" for success
	}{
		{"new directory", func(t *testing.T, dir string) (string, string) {
			return filepath.Join(dir, "new", "profiles"), ""
		}, ""},
		{"a link planted under a profile's name", func(t *testing.T, dir string) (string, string) {
			victim := testfs.WriteFile(t, filepath.Join(dir, "victim"), outside, 0o644)
			p := testfs.Mkdir(t, filepath.Join(dir, "profiles"), 0o755)
			testfs.Symlink(t, victim, filepath.Join(p, name))
			return p, victim
		}, ""},
		{"a dangling link under a profile's name", func(t *testing.T, dir string) (string, string) {
			p := testfs.Mkdir(t, filepath.Join(dir, "profiles"), 0o755)
			testfs.Symlink(t, filepath.Join(dir, "created-through-the-link"), filepath.Join(p, name))
			return p, filepath.Join(dir, "created-through-the-link")
		}, ""},
		{"a file where the directory would be", func(t *testing.T, dir string) (string, string) {
			testfs.WriteFile(t, filepath.Join(dir, "f"), "x", 0o644)
			return filepath.Join(dir, "f", "profiles"), ""
		}, "memprof instances: writing profiles to DIR/f/profiles: directory DIR/f/profiles does not exist (DIR/f is not a directory)\n"},
		{"an unwritable directory", func(t *testing.T, dir string) (string, string) {
			if ro == "" {
				t.Skip("no directory refuses writes here")
			}
			return ro, ""
		}, "memprof instances: writing profiles to RO: directory RO is not writable: " + roWhy + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			profiles, victim := tt.setup(t, dir)
			marker := filepath.Join(t.TempDir(), "child-started")
			t.Setenv(childStartedEnv, marker)
			code, _, stderr := runCLI(t, "instances", "--type", "G1", "--lib", "gnark", "--repr", "affine", "--layout", "pointer", "-n", "200", "--profile-dir", profiles)
			if tt.want != "" {
				want := strings.NewReplacer("DIR", dir, "RO", ro).Replace(tt.want)
				if code != exitFailure || stderr != want {
					t.Errorf("got exit %d, stderr %q; want exit 1, %q", code, stderr, want)
				}
				if _, err := os.Stat(marker); err == nil {
					t.Errorf("a measuring child started before the profile directory was refused")
				}
				return
			}
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			fi, err := os.Lstat(filepath.Join(profiles, name))
			if err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("%s: %v, %v; want the profile, a regular file", name, fi, err)
			}
			if b, _ := os.ReadFile(filepath.Join(profiles, name)); len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
				t.Errorf("%s is not a gzip profile", name)
			}
			if victim != "" {
				if b, err := os.ReadFile(victim); (err == nil && string(b) != outside) || (err != nil && !os.IsNotExist(err)) {
					t.Errorf("the file behind the planted link was written: %q, %v", b, err)
				} else if err == nil && strings.Contains(tt.name, "dangling") {
					t.Errorf("a file was created through the dangling link: %s", victim)
				}
			}
		})
	}
}

// Package testfs lets tests see what a write did to a directory: Snapshot
// lists a tree (contents, modes, links), Diff says how two listings
// differ, WriteFile makes a file with an exact mode. It is for tests only.
package testfs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
)

// Snapshot maps each name under dir (relative to it, dir itself left out)
// to "file:CONTENT MODE", "link:TARGET" or "dir": what a write may have
// changed besides its target. Links are listed, not followed. It reads
// every file whole, so it is for the small trees of a test.
func Snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			got[rel] = "link:" + l
		case fi.IsDir():
			got[rel] = "dir"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			got[rel] = fmt.Sprintf("file:%s %v", b, fi.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// Diff describes how the listing got differs from want, one sorted line
// per name that is missing, different or unexpected (each value cut to
// 200 bytes); "" when they are the same.
func Diff(got, want map[string]string) string {
	var lines []string
	for k, w := range want {
		if g, ok := got[k]; !ok {
			lines = append(lines, fmt.Sprintf("%s: missing, want %.200s", k, w))
		} else if g != w {
			lines = append(lines, fmt.Sprintf("%s: got %.200s, want %.200s", k, g, w))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			lines = append(lines, fmt.Sprintf("%s: unexpected %.200s", k, g))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// WriteFile writes content to path with exactly the mode perm (chmod'ed
// past the umask) and returns path.
func WriteFile(t testing.TB, path, content string, perm fs.FileMode) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil {
		t.Fatal(err)
	}
	return path
}

// Names returns the names of dir's entries, sorted (os.ReadDir).
func Names(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names
}

// Mkdir makes the directory dir with exactly the mode perm (chmod'ed past
// the umask) and returns dir.
func Mkdir(t testing.TB, dir string, perm fs.FileMode) string {
	t.Helper()
	if err := os.Mkdir(dir, perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, perm); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Symlink makes link a symbolic link to target and returns link.
func Symlink(t testing.TB, target, link string) string {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	return link
}

// Copy returns a copy of every file of fsys in memory, for a test that
// cuts or edits one file without touching the original.
func Copy(t testing.TB, fsys fs.FS) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		m[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

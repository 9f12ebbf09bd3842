package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/memprof/memprof/internal/testfs"
)

// umaskedMode is the mode os.WriteFile gives a new file with perm in dir:
// the truth for a new file, umask included.
func umaskedMode(t *testing.T, dir string, perm fs.FileMode) fs.FileMode {
	t.Helper()
	ref := filepath.Join(dir, "umask-reference")
	if err := os.WriteFile(ref, nil, perm); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(ref)
	fi, err := os.Stat(ref)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// TestWriteFileTargets: each kind of path a user can give -o, what ends up
// where, and that nothing else in the directory changed (no temporary file
// left, a link still a link).
func TestWriteFileTargets(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on windows")
	}
	const data = "new content"
	newMode := umaskedMode(t, t.TempDir(), 0o644)
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) // builds the tree
		path  string                         // relative to dir
		want  map[string]string              // the tree afterwards
	}{
		{
			name: "new file",
			path: "out.json",
			want: map[string]string{"out.json": fmt.Sprintf("file:%s %v", data, newMode)},
		},
		{
			name:  "existing file keeps its permission bits",
			setup: func(t *testing.T, dir string) { testfs.WriteFile(t, filepath.Join(dir, "out.json"), "old", 0o600) },
			path:  "out.json",
			want:  map[string]string{"out.json": "file:" + data + " -rw-------"},
		},
		{
			name: "relative link to a file is written through",
			setup: func(t *testing.T, dir string) {
				testfs.WriteFile(t, filepath.Join(dir, "target.json"), "old", 0o640)
				testfs.Symlink(t, "target.json", filepath.Join(dir, "link.json"))
			},
			path: "link.json",
			want: map[string]string{"target.json": "file:" + data + " -rw-r-----", "link.json": "link:target.json"},
		},
		{
			name: "chain of links into another directory",
			setup: func(t *testing.T, dir string) {
				testfs.Mkdir(t, filepath.Join(dir, "real"), 0o755)
				testfs.WriteFile(t, filepath.Join(dir, "real", "r.json"), "old", 0o644)
				testfs.Symlink(t, "real/r.json", filepath.Join(dir, "hop.json"))
				testfs.Symlink(t, filepath.Join(dir, "hop.json"), filepath.Join(dir, "link.json"))
			},
			path: "link.json",
			want: map[string]string{
				"real": "dir", "real/r.json": "file:" + data + " -rw-r--r--",
				"hop.json": "link:real/r.json", "link.json": "link:" + "HOP",
			},
		},
		{
			name: "link in a linked directory",
			setup: func(t *testing.T, dir string) {
				testfs.Mkdir(t, filepath.Join(dir, "real"), 0o755)
				testfs.Symlink(t, "real", filepath.Join(dir, "alias"))
				testfs.WriteFile(t, filepath.Join(dir, "real", "r.json"), "old", 0o644)
			},
			path: "alias/r.json",
			want: map[string]string{"real": "dir", "alias": "link:real", "real/r.json": "file:" + data + " -rw-r--r--"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			for k, v := range tt.want {
				tt.want[k] = strings.ReplaceAll(v, "HOP", filepath.Join(dir, "hop.json"))
			}
			path := filepath.Join(dir, tt.path)
			if err := Check(path); err != nil {
				t.Fatalf("Check: got %v, want nil", err)
			}
			if err := WriteFile(path, []byte(data), 0o644); err != nil {
				t.Fatalf("WriteFile: got %v, want nil", err)
			}
			if d := testfs.Diff(testfs.Snapshot(t, dir), tt.want); d != "" {
				t.Errorf("after writing %s:\n%s", tt.path, d)
			}
		})
	}
}

// TestWriteFileRefuses: paths a write must refuse, with the reason, leaving
// everything as it was. Check gives the same error without writing.
func TestWriteFileRefuses(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on windows")
	}
	tests := []struct {
		name   string
		setup  func(t *testing.T, dir string)
		path   string
		reason string // DIR stands for the test directory
		is     error  // errors.Is target, if any
	}{
		{
			name:   "missing directory",
			path:   "no/such/x.json",
			reason: "directory DIR/no/such does not exist",
			is:     fs.ErrNotExist,
		},
		{
			name:   "parent is a file",
			setup:  func(t *testing.T, dir string) { testfs.WriteFile(t, filepath.Join(dir, "f"), "keep", 0o644) },
			path:   "f/x.json",
			reason: "directory DIR/f does not exist (DIR/f is not a directory)",
		},
		{
			name:   "a directory",
			setup:  func(t *testing.T, dir string) { testfs.Mkdir(t, filepath.Join(dir, "d"), 0o755) },
			path:   "d",
			reason: "is a directory",
		},
		{
			name: "link to a directory",
			setup: func(t *testing.T, dir string) {
				testfs.Mkdir(t, filepath.Join(dir, "d"), 0o755)
				testfs.Symlink(t, "d", filepath.Join(dir, "link"))
			},
			path:   "link",
			reason: "symbolic link to DIR/d, which is a directory",
		},
		{
			name:   "dangling link",
			setup:  func(t *testing.T, dir string) { testfs.Symlink(t, "gone.json", filepath.Join(dir, "link.json")) },
			path:   "link.json",
			reason: "symbolic link to DIR/gone.json, which does not exist",
			is:     fs.ErrNotExist,
		},
		{
			name: "link loop",
			setup: func(t *testing.T, dir string) {
				testfs.Symlink(t, "b.json", filepath.Join(dir, "a.json"))
				testfs.Symlink(t, "a.json", filepath.Join(dir, "b.json"))
			},
			path:   "a.json",
			reason: "symbolic link loop: DIR/a.json -> DIR/b.json -> DIR/a.json",
		},
		{
			name:   "read-only file",
			setup:  func(t *testing.T, dir string) { testfs.WriteFile(t, filepath.Join(dir, "ro.json"), "keep", 0o444) },
			path:   "ro.json",
			reason: "DIR/ro.json is read-only (-r--r--r--)",
			is:     fs.ErrPermission,
		},
		{
			name: "link to a read-only file",
			setup: func(t *testing.T, dir string) {
				testfs.WriteFile(t, filepath.Join(dir, "ro.json"), "keep", 0o400)
				testfs.Symlink(t, "ro.json", filepath.Join(dir, "link.json"))
			},
			path:   "link.json",
			reason: "DIR/ro.json is read-only (-r--------)",
			is:     fs.ErrPermission,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			before := testfs.Snapshot(t, dir)
			path := filepath.Join(dir, tt.path)
			want := "writing " + path + ": " + strings.ReplaceAll(tt.reason, "DIR", dir)
			for _, f := range []struct {
				name  string
				write func() error
			}{
				{"Check", func() error { return Check(path) }},
				{"WriteFile", func() error { return WriteFile(path, []byte("new"), 0o644) }},
			} {
				err := f.write()
				if err == nil || err.Error() != want {
					t.Errorf("%s: got %v, want %s", f.name, err, want)
				}
				var e *Error
				if !errors.As(err, &e) || e.Path != path {
					t.Errorf("%s: got %#v, want an *Error with Path %s", f.name, err, path)
				}
				if tt.is != nil && !errors.Is(err, tt.is) {
					t.Errorf("%s: got %v, want it to wrap %v", f.name, err, tt.is)
				}
				if d := testfs.Diff(testfs.Snapshot(t, dir), before); d != "" {
					t.Errorf("%s changed the directory:\n%s", f.name, d)
				}
			}
		})
	}
}

// TestWriteFileUnwritableDirectory: a directory the kernel refuses to
// create files in is named with the kernel's reason, never with the name
// of a temporary file. The directory is a chmod-ed one, or, when running
// as root (which ignores the mode), /sys if the kernel refuses it.
func TestWriteFileUnwritableDirectory(t *testing.T) {
	ro := filepath.Join(t.TempDir(), "ro")
	testfs.Mkdir(t, ro, 0o755)
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(ro, 0o755) })
	var dirs []string
	for _, d := range []string{ro, "/sys"} {
		// The truth: what the kernel says when asked to create a file there.
		f, err := os.OpenFile(filepath.Join(d, "probe-by-test"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			os.Remove(f.Name())
			continue // root, or a writable /sys: nothing to refuse
		}
		dirs = append(dirs, d)
	}
	if len(dirs) == 0 {
		t.Skip("no directory refuses writes here (running as root with a writable /sys)")
	}
	for _, d := range dirs {
		t.Run(d, func(t *testing.T) {
			_, err := os.OpenFile(filepath.Join(d, "probe-by-test"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
			var pe *fs.PathError
			if !errors.As(err, &pe) {
				t.Fatalf("probe: got %v, want a *fs.PathError", err)
			}
			path := filepath.Join(d, "x.json")
			want := "writing " + path + ": directory " + d + " is not writable: " + pe.Err.Error()
			for name, write := range map[string]func() error{
				"Check":     func() error { return Check(path) },
				"WriteFile": func() error { return WriteFile(path, []byte("new"), 0o644) },
			} {
				if err := write(); err == nil || err.Error() != want {
					t.Errorf("%s: got %v, want %s", name, err, want)
				}
			}
		})
	}
}

// TestWriteFileInPlace: devices, pipes and the /dev/fd links of open files
// (what /dev/stdout is) are written in place: the link and the device stay,
// the data reaches the open file.
func TestWriteFileInPlace(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/dev/fd and /proc/self/fd links are linux's")
	}
	const data = "through the descriptor\n"
	t.Run("pipe through a link to /proc/self/fd", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		dir := t.TempDir()
		link := filepath.Join(dir, "stdout")
		fdLink := fmt.Sprintf("/proc/self/fd/%d", w.Fd())
		testfs.Symlink(t, fdLink, link)
		done := make(chan string)
		go func() {
			b := make([]byte, len(data))
			n, _ := r.Read(b)
			done <- string(b[:n])
		}()
		if err := Check(link); err != nil {
			t.Fatalf("Check: got %v, want nil", err)
		}
		if err := WriteFile(link, []byte(data), 0o644); err != nil {
			t.Fatalf("WriteFile: got %v, want nil", err)
		}
		w.Close()
		if got := <-done; got != data {
			t.Errorf("read from the pipe: got %q, want %q", got, data)
		}
		if d := testfs.Diff(testfs.Snapshot(t, dir), map[string]string{"stdout": "link:" + fdLink}); d != "" {
			t.Errorf("after writing:\n%s", d)
		}
	})
	t.Run("regular file open as a descriptor", func(t *testing.T) {
		// As "memprof -o /dev/stdout > out.json" after the shell wrote a
		// header: what is in the file stays, the data follows it.
		dir := t.TempDir()
		out := filepath.Join(dir, "out.json")
		f, err := os.OpenFile(out, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString("header\n"); err != nil {
			t.Fatal(err)
		}
		path := fmt.Sprintf("/dev/fd/%d", f.Fd())
		if err := Check(path); err != nil {
			t.Fatalf("Check: got %v, want nil", err)
		}
		if err := WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatalf("WriteFile: got %v, want nil", err)
		}
		if d := testfs.Diff(testfs.Snapshot(t, dir), map[string]string{"out.json": "file:header\n" + data + " -rw-r--r--"}); d != "" {
			t.Errorf("after writing:\n%s", d)
		}
	})
}

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/memprof/memprof/internal/testfs"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	"github.com/memprof/memprof/vocab"
)

// childStartedEnv names a file the test binary creates when it starts as
// a measuring child (see TestMain; not the child probing constructors for
// the memory estimate): a test that must not measure checks
// that the file was never made.
const childStartedEnv = "MEMPROF_TEST_CHILD_STARTED"

// badOutput is a path a write must refuse, and the reason it is refused
// with (DIR stands for the test directory).
type badOutput struct {
	name   string
	setup  func(t *testing.T, dir string) string // builds the path, returns it
	reason string
}

func badOutputs(t *testing.T) []badOutput {
	bad := []badOutput{
		{"missing directory", func(t *testing.T, dir string) string { return filepath.Join(dir, "no", "such", "x.json") },
			"directory DIR/no/such does not exist"},
		{"a directory", func(t *testing.T, dir string) string { return testfs.Mkdir(t, filepath.Join(dir, "d"), 0o755) },
			"is a directory"},
		{"link to a directory", func(t *testing.T, dir string) string {
			testfs.Mkdir(t, filepath.Join(dir, "d"), 0o755)
			return testfs.Symlink(t, "d", filepath.Join(dir, "link"))
		}, "symbolic link to DIR/d, which is a directory"},
		{"dangling link", func(t *testing.T, dir string) string {
			return testfs.Symlink(t, "gone.json", filepath.Join(dir, "link.json"))
		},
			"symbolic link to DIR/gone.json, which does not exist"},
		{"link loop", func(t *testing.T, dir string) string {
			testfs.Symlink(t, "b.json", filepath.Join(dir, "a.json"))
			return testfs.Symlink(t, "a.json", filepath.Join(dir, "b.json"))
		}, "symbolic link loop: DIR/b.json -> DIR/a.json -> DIR/b.json"},
		{"read-only file", func(t *testing.T, dir string) string {
			return testfs.WriteFile(t, filepath.Join(dir, "ro.json"), "keep", 0o444)
		},
			"DIR/ro.json is read-only (-r--r--r--)"},
	}
	if d, why := unwritableDir(t); d != "" {
		bad = append(bad, badOutput{"unwritable directory", func(t *testing.T, dir string) string { return filepath.Join(d, "x.json") },
			"directory " + d + " is not writable: " + why})
	}
	return bad
}

// unwritableDir returns a directory in which the kernel refuses to create
// files, and the kernel's reason: a chmod-ed directory, or, for root
// (which ignores modes), /sys where the kernel refuses it.
func unwritableDir(t *testing.T) (dir, why string) {
	ro := testfs.Mkdir(t, filepath.Join(t.TempDir(), "ro"), 0o755)
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(ro, 0o755) })
	for _, d := range []string{ro, "/sys"} {
		f, err := os.OpenFile(filepath.Join(d, "probe-by-test"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			os.Remove(f.Name())
			continue
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return d, pe.Err.Error()
		}
	}
	return "", ""
}

// TestRefusedOutputBeforeMeasuring: every command with -o refuses an
// output it could not write, exit 1 with the path and the reason, before
// it measures, fetches or reads anything, and changes nothing.
func TestRefusedOutputBeforeMeasuring(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on windows")
	}
	var agreed, fetched atomic.Int32
	saved := agreeRuns[vocab.BLS12381]
	replaceAgreement(t, vocab.BLS12381, func(r *suites.Registry) (*agree.Report, error) {
		agreed.Add(1)
		return saved(r)
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetched.Add(1)
		http.Error(w, "the test server serves nothing", http.StatusNotFound)
	}))
	defer srv.Close()
	commands := []struct {
		name string
		args func(out string) []string
	}{
		{"instances", func(out string) []string {
			return []string{"instances", "--type", "Signature", "--lib", "gnark", "-n", "200", "-o", out}
		}},
		{"throughput", func(out string) []string {
			return []string{"throughput", "--type", "Signature", "--lib", "gnark", "--samples", "1", "--min-sample", "1ms", "-o", out}
		}},
		{"heapscan", func(out string) []string { return []string{"heapscan", "-o", out, srv.URL + "/debug/pprof/heap"} }},
		{"compare", func(out string) []string {
			return []string{"compare", compareDir + "base.json", compareDir + "head.json", "-o", out}
		}},
	}
	for _, c := range commands {
		for _, b := range badOutputs(t) {
			t.Run(c.name+"/"+b.name, func(t *testing.T) {
				dir := t.TempDir()
				marker := filepath.Join(t.TempDir(), "child-started")
				t.Setenv(childStartedEnv, marker)
				agreed.Store(0)
				fetched.Store(0)
				out := b.setup(t, dir)
				before := testfs.Snapshot(t, dir)
				code, stdout, stderr := runCLI(t, c.args(out)...)
				want := "memprof " + c.name + ": writing results to " + out + ": " + strings.ReplaceAll(b.reason, "DIR", dir) + "\n"
				if code != exitFailure || stderr != want || stdout != "" {
					t.Errorf("got exit %d, stdout %q, stderr %q; want exit %d, no stdout, stderr %q", code, stdout, stderr, exitFailure, want)
				}
				if _, err := os.Stat(marker); err == nil {
					t.Errorf("a measuring child started before the output was refused")
				}
				if n := agreed.Load() + fetched.Load(); n != 0 {
					t.Errorf("got %d agreement checks or fetches before the output was refused, want 0", n)
				}
				if d := testfs.Diff(testfs.Snapshot(t, dir), before); d != "" {
					t.Errorf("the refused write changed %s:\n%s", dir, d)
				}
			})
		}
	}
}

// TestRefusedBudgetsUpdateBeforeMeasuring: check --update refuses a
// budgets file it could not replace before it measures.
func TestRefusedBudgetsUpdateBeforeMeasuring(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on windows")
	}
	var e suites.Entry
	for _, c := range registry().Entries() {
		if c.Unavailable.IsZero() && c.Layout == "pointer" && c.DefaultN == 0 {
			e = c
			break
		}
	}
	src := "version: 1\nbudgets:\n  - select: {type: " + string(e.Type) + ", lib: " + string(e.Lib) + ", repr: " + string(e.Repr) + ", layout: pointer}\n" +
		"    max_bytes_per_instance: 0B\n    owner: test\n    reason: set by --update\n"
	tests := []badOutput{
		{"read-only file", func(t *testing.T, dir string) string {
			return testfs.WriteFile(t, filepath.Join(dir, "b.yaml"), src, 0o444)
		},
			"DIR/b.yaml is read-only (-r--r--r--)"},
		{"link to a read-only file", func(t *testing.T, dir string) string {
			testfs.WriteFile(t, filepath.Join(dir, "b.yaml"), src, 0o400)
			return testfs.Symlink(t, "b.yaml", filepath.Join(dir, "link.yaml"))
		}, "DIR/b.yaml is read-only (-r--------)"},
	}
	if os.Geteuid() != 0 {
		tests = append(tests, badOutput{"read-only directory", func(t *testing.T, dir string) string {
			p := testfs.WriteFile(t, filepath.Join(dir, "b.yaml"), src, 0o644)
			if err := os.Chmod(dir, 0o555); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(dir, 0o755) })
			return p
		}, "directory DIR is not writable: permission denied"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			marker := filepath.Join(t.TempDir(), "child-started")
			t.Setenv(childStartedEnv, marker)
			path := tt.setup(t, dir)
			before := testfs.Snapshot(t, dir)
			code, stdout, stderr := runCLI(t, "check", "--update", "--budgets", path, "-n", "200", "--jobs", "1")
			want := "memprof check: writing budgets to " + path + ": " + strings.ReplaceAll(tt.reason, "DIR", dir) + "\n"
			if code != exitFailure || stderr != want || stdout != "" {
				t.Errorf("got exit %d, stdout %q, stderr %q; want exit %d, no stdout, stderr %q", code, stdout, stderr, exitFailure, want)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("a measuring child started before the update was refused")
			}
			if d := testfs.Diff(testfs.Snapshot(t, dir), before); d != "" {
				t.Errorf("the refused update changed %s:\n%s", dir, d)
			}
		})
	}
}

// TestOutputThroughLink: -o and check --update write through a symbolic
// link to its target, keep the target's permission bits, and leave the
// link a link and no temporary file behind. The content is what the same
// command prints to stdout.
func TestOutputThroughLink(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; measures, if at all, in children
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on windows")
	}
	profile := heapProfiles + "before.pb.gz"
	// -o PATH goes before the positional arguments (heapscan stops
	// parsing flags at its profile).
	withOut := func(out string, args ...string) []string {
		if out == "" {
			return args
		}
		return append([]string{args[0], "-o", out}, args[1:]...)
	}
	tests := []struct {
		name string
		args func(out string) []string // "" for stdout
		// exact: the content equals stdout's; otherwise (fresh
		// measurements) the header line and the number of lines do.
		exact  bool
		update bool // check --update: the command rewrites the target itself
	}{
		{name: "compare", exact: true, args: func(out string) []string {
			return withOut(out, "compare", compareDir+"base.json", compareDir+"base.json")
		}},
		{name: "heapscan", exact: true, args: func(out string) []string { return withOut(out, "heapscan", "--format", "csv", profile) }},
		{name: "instances", args: func(out string) []string {
			return withOut(out, "instances", "--type", "Signature", "--lib", "gnark", "--repr", "affine", "-n", "200", "--format", "csv")
		}},
		{name: "check --update", exact: true, update: true, args: func(out string) []string {
			return []string{"check", "--results", budgetsDir + "results.json", "--update", "--headroom", "1.5", "--budgets", out}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			real := testfs.Mkdir(t, filepath.Join(dir, "real"), 0o755)
			target := filepath.Join(real, "target")
			link := testfs.Symlink(t, "real/target", filepath.Join(dir, "link"))
			var want string
			if tt.update {
				// The reference: the same update of a plain copy.
				plain := copyUpdateBudgets(t, t.TempDir())
				if code, _, stderr := runCLI(t, tt.args(plain)...); code != exitOK {
					t.Fatalf("plain update: exit %d: %s", code, stderr)
				}
				b, _ := os.ReadFile(plain)
				want = string(b)
				copyFile(t, budgetsDir+"update.yaml", target)
			} else {
				code, stdout, stderr := runCLI(t, tt.args("")...)
				if code != exitOK {
					t.Fatalf("to stdout: exit %d: %s", code, stderr)
				}
				want = stdout
				testfs.WriteFile(t, target, "earlier results\n", 0o600)
			}
			if err := os.Chmod(target, 0o640); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runCLI(t, tt.args(link)...)
			if code != exitOK {
				t.Fatalf("through the link: exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
			got := testfs.Snapshot(t, dir)
			content, _ := os.ReadFile(target)
			if !tt.exact && sameShape(string(content), want) {
				want = string(content)
			}
			if d := testfs.Diff(got, map[string]string{"link": "link:real/target", "real": "dir",
				"real/target": fmt.Sprintf("file:%s -rw-r-----", want)}); d != "" {
				t.Errorf("after writing through the link:\n%s", d)
			}
		})
	}
}

// sameShape reports whether two outputs of a fresh measurement have the
// same header line and number of lines.
func sameShape(a, b string) bool {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	return len(la) == len(lb) && la[0] == lb[0]
}

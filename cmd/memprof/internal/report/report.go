// Package report writes memprof's design review: a directory holding a
// Markdown report (README.md) with its SVG charts, and the results in the
// three forms other tools read (results.json, results.csv, results.bench).
//
// It renders a memprof.results/v1 value and measures nothing, so that a
// run measured once (in CI, say) can be rendered many times. The whole
// review is written to a temporary directory beside the destination and
// moved into place at the end: an interrupted or failed report leaves no
// half-written review, and a refused one writes nothing.
package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/export"
	"github.com/memprof/memprof/model"
)

// The files of a review. Trade-off charts are named TradeoffFile(type).
const (
	ReadmeFile    = "README.md"
	BytesChart    = "bytes_per_instance.svg"
	GCChart       = "gc_cpu_per_instance.svg"
	ResultsJSON   = "results.json"
	ResultsCSV    = "results.csv"
	ResultsBench  = "results.bench"
	tradeoffStart = "tradeoff_"
)

// TradeoffFile is the name of the trade-off chart of typ.
func TradeoffFile(typ string) string {
	safe := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		}
		return '_'
	}, typ)
	return tradeoffStart + safe + ".svg"
}

// ErrOutNotEmpty is wrapped by the error for a destination that exists and
// is not empty when Options.Force is false.
var ErrOutNotEmpty = errors.New("exists and is not empty")

// Options are the choices of a report.
type Options struct {
	// Force replaces a destination directory that exists and is not empty.
	// The old directory is replaced as a whole: files in it that the
	// review does not write are removed too.
	Force bool
	// Source says where the results came from, for the report's header:
	// a file name, or "" for a fresh run.
	Source string
	// Notes are sentences added to the report's method section: what this
	// run did not measure, and why.
	Notes []string
	// Machines, when it holds more than one, makes the review one of
	// several machines (see machines.go): the results rendered are the
	// first machine's, and the others are compared with them.
	Machines []Machine
}

// CheckOut returns an error when a review cannot be written to out: out
// exists and is not a directory, or is a directory that is not empty and
// force is false. It lets a command refuse before spending time measuring.
//
// An out that is a symbolic link stands for the directory it leads to (see
// resolveOut).
func CheckOut(out string, force bool) error {
	dir, err := resolveOut(out)
	if err != nil {
		return err
	}
	return checkOut(out, dir, force)
}

// resolveOut returns the directory a review for out is installed as: out
// with its symbolic links resolved, so that a link stays a link and the
// directory it leads to receives the review. A dangling link (which would
// put the review where nobody looks) and a link loop are errors.
func resolveOut(out string) (string, error) {
	p := out
	seen := map[string]bool{}
	for {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) && p != out {
			return "", fmt.Errorf("output directory %s is a symbolic link to %s, which does not exist", out, p)
		}
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil // not a link: checkOut says what is wrong, if anything
		}
		if seen[p] {
			return "", fmt.Errorf("output directory %s: symbolic link loop", out)
		}
		seen[p] = true
		l, err := os.Readlink(p)
		if err != nil {
			return "", fmt.Errorf("output directory %s: %w", out, err)
		}
		if !filepath.IsAbs(l) {
			l = filepath.Join(filepath.Dir(p), l)
		}
		p = l
	}
}

// checkOut is CheckOut for the resolved directory dir of out (the name
// the messages use).
func checkOut(out, dir string, force bool) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("output directory %s exists and is not a directory", out)
	}
	if force {
		// --force replaces an earlier review, never a directory holding
		// anything a review does not write.
		names, err := readDirNames(dir)
		if err != nil {
			return fmt.Errorf("output directory: %w", err)
		}
		for _, n := range names {
			if !isReviewFile(n) {
				return fmt.Errorf("output directory %s holds %s, which a review does not write: refusing to replace it, even with --force", out, n)
			}
		}
		return nil
	}
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	defer f.Close()
	if _, err := f.Readdirnames(1); err == nil {
		return fmt.Errorf("output directory %s %w (use --force to replace it)", out, ErrOutNotEmpty)
	} else if err != io.EOF {
		return fmt.Errorf("output directory: %w", err)
	}
	return nil
}

// isReviewFile reports whether name is one of the files a review writes.
func isReviewFile(name string) bool {
	switch name {
	case "README.md", BytesChart, GCChart, "results.json", "results.csv", "results.bench":
		return true
	}
	if isMachineFile(name) {
		return true
	}
	return strings.HasPrefix(name, "tradeoff_") && strings.HasSuffix(name, ".svg")
}

func readDirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// Write renders the review of rs into the directory out and returns the
// names of the files it wrote, README.md first. It writes into a temporary
// directory beside out and renames it into place at the end; on error,
// nothing is left behind. rs is not modified.
//
// An out that is a symbolic link stays one: the review replaces the
// directory it leads to, beside which the temporary one is made. A
// directory replaced keeps its permission bits.
func Write(out string, rs *model.Results, opts Options) (files []string, err error) {
	if err := CheckOut(out, opts.Force); err != nil {
		return nil, err
	}
	rendered, err := Render(rs, opts)
	if err != nil {
		return nil, err
	}
	dir, err := resolveOut(out)
	if err != nil {
		return nil, err
	}
	mode := fs.FileMode(0o755)
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		mode = fi.Mode().Perm()
	}
	parent, base := filepath.Split(filepath.Clean(dir))
	if parent == "" {
		parent = "."
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-")
	if err != nil {
		return nil, fmt.Errorf("writing review: %w", err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	for _, f := range rendered {
		if err := os.WriteFile(filepath.Join(tmp, f.Name), f.Data, 0o644); err != nil {
			return nil, fmt.Errorf("writing review: %w", err)
		}
		files = append(files, f.Name)
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return nil, fmt.Errorf("writing review: %w", err)
	}
	if err := install(tmp, out, dir, opts.Force); err != nil {
		return nil, err
	}
	return files, nil
}

// install moves the finished directory tmp to dir, the resolved out. An
// empty dir is replaced; a non-empty one only with force, by moving it
// aside first and removing it once tmp is in place (and moving it back if
// that fails).
func install(tmp, out, dir string, force bool) error {
	// Check again: out may have changed while the review was rendered.
	if err := checkOut(out, dir, force); err != nil {
		return err
	}
	err := os.Rename(tmp, dir)
	if err == nil {
		return nil
	}
	if _, statErr := os.Stat(dir); statErr != nil {
		return fmt.Errorf("writing review: %w", err)
	}
	// dir exists: an empty directory (which rename cannot replace on
	// every system) or, with force, a full one.
	aside, err := os.MkdirTemp(filepath.Dir(filepath.Clean(dir)), "."+filepath.Base(dir)+".old-")
	if err != nil {
		return fmt.Errorf("writing review: %w", err)
	}
	os.Remove(aside)
	if err := os.Rename(dir, aside); err != nil {
		return fmt.Errorf("writing review: moving the old %s aside: %w", dir, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.Rename(aside, dir)
		return fmt.Errorf("writing review: %w", err)
	}
	return os.RemoveAll(aside)
}

// File is one rendered file of a review.
type File struct {
	Name string
	Data []byte
}

// Render renders every file of the review of rs in memory, README.md
// first. A chart with nothing to draw is left out, and the README says so.
func Render(rs *model.Results, opts Options) ([]File, error) {
	var files []File
	add := func(name string, fn func(io.Writer) error) (bool, error) {
		var buf bytes.Buffer
		err := fn(&buf)
		if errors.Is(err, render.ErrNoData) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("rendering %s: %w", name, err)
		}
		files = append(files, File{name, buf.Bytes()})
		return true, nil
	}
	copied := *rs
	if copied.Schema == "" {
		copied.Schema = model.Schema
	}
	// The trade-off tables, derived again from the rows (a file's own are
	// not trusted), go into the results the review keeps.
	copied.Tradeoff = model.Tradeoffs(&copied)
	charts := charts{tradeoff: map[string]string{}}
	ok, err := add(BytesChart, func(w io.Writer) error { return render.BytesPerInstanceChart(w, &copied) })
	if err != nil {
		return nil, err
	}
	if ok {
		charts.bytes = BytesChart
	}
	if ok, err = add(GCChart, func(w io.Writer) error { return render.GCChart(w, &copied) }); err != nil {
		return nil, err
	}
	if ok {
		charts.gc = GCChart
	}
	for _, typ := range render.TypesMeasured(&copied) {
		name := TradeoffFile(string(typ))
		ok, err := add(name, func(w io.Writer) error { return render.TradeoffChart(w, &copied, typ) })
		if err != nil {
			return nil, err
		}
		if ok {
			charts.tradeoff[string(typ)] = name
		}
	}
	for _, f := range []struct {
		name string
		fn   func(io.Writer, *model.Results) error
	}{
		{ResultsJSON, func(w io.Writer, rs *model.Results) error { return rs.WriteJSON(w) }},
		{ResultsCSV, render.CSV},
		{ResultsBench, export.Bench},
	} {
		if _, err := add(f.name, func(w io.Writer) error { return f.fn(w, &copied) }); err != nil {
			return nil, err
		}
	}
	if ms := machines(opts.Machines); ms.several() {
		for _, m := range ms[1:] {
			if _, err := add(MachineFile(m.Name), m.Results.WriteJSON); err != nil {
				return nil, err
			}
		}
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	var readme bytes.Buffer
	if err := writeReadme(&readme, &copied, opts, charts, names); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", ReadmeFile, err)
	}
	return append([]File{{ReadmeFile, readme.Bytes()}}, files...), nil
}

// charts says which charts a review holds: the bytes chart ("" if none)
// and the trade-off chart of each type that has one.
type charts struct {
	bytes    string
	gc       string // the GC chart, "" if none
	tradeoff map[string]string
}

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
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/export"
	"github.com/memprof/memprof/internal/livewriter"
	"github.com/memprof/memprof/internal/onexit"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/all"
	"github.com/memprof/memprof/vocab"
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

// FileDoc says what one file of a review holds, for report's help.
type FileDoc struct{ Name, What string }

// Files are the files a review may write, in the order it writes them:
// what report's help lists. A name with <type> or <machine> stands for
// one file per type or machine.
func Files() []FileDoc {
	return []FileDoc{
		{ReadmeFile, "the report: summary, one table per type, sites, environment, method, charts embedded"},
		{BytesChart, "bytes per instance, grouped by type (log scale where they span more than a factor of 100)"},
		{GCChart, "bytes per instance against the CPU time the GC's cycles spend per instance (only with cases that have the GC CPU figure)"},
		{tradeoffStart + "<type>.svg", "bytes per instance against the time of each use, one panel per operation (only for types with operations timed from two representations)"},
		{ResultsJSON, "the memprof.results/v1 file"},
		{ResultsCSV, "one row per measurement"},
		{ResultsBench, "Go benchmark format, for benchstat"},
		{"results-<machine>.json", "with --from given several times, each machine's results file but the first's"},
	}
}

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

// tradeoffKey names the trade-off chart of typ at the parameter set p
// ("" for a type without sets): the type, then the set's value
// (MLDSAPublicKey_ML-DSA-65).
func tradeoffKey(typ vocab.Type, p results.Param) string {
	if p == "" {
		return string(typ)
	}
	_, v := p.Split()
	return string(typ) + "_" + v
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
	// Registry gives the families the review writes sections of
	// (Registry.Families) and what their agreement checks compare
	// (Registry.CheckTexts); nil stands for the built-in suites
	// (suites/all).
	Registry *suites.Registry
}

func (o Options) registry() *suites.Registry {
	if o.Registry != nil {
		return o.Registry
	}
	return all.Registry()
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
// names of the files it wrote, README.md first (see WriteContext).
func Write(out string, rs *results.File, opts Options) (files []string, err error) {
	return WriteContext(context.Background(), out, rs, opts)
}

// WriteContext renders the review of rs into the directory out and
// returns the names of the files it wrote, README.md first. It writes
// each file into a temporary directory beside out as it renders it, and
// renames the directory into place at the end; on error, or once ctx is
// done (it looks at ctx at every write), nothing is left behind and out
// is untouched. Errors name out, never the temporary directory. rs is not
// modified.
//
// An out that is a symbolic link stays one: the review replaces the
// directory it leads to, beside which the temporary one is made. A
// directory replaced keeps its permission bits.
func WriteContext(ctx context.Context, out string, rs *results.File, opts Options) (files []string, err error) {
	if err := CheckOut(out, opts.Force); err != nil {
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
	// A process that must exit before this returns (a second interrupt)
	// removes tmp through onexit.Run; once installed, tmp is no more.
	tmp, removeTmp, err := onexit.MkdirTemp(parent, "."+base+".tmp-")
	if err != nil {
		return nil, writeErr(out, "", err)
	}
	defer removeTmp()
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	emit := func(name string, fn func(io.Writer) error) (bool, error) {
		if err := ctx.Err(); err != nil {
			return false, context.Cause(ctx)
		}
		f, err := os.OpenFile(filepath.Join(tmp, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return false, writeErr(out, name, err)
		}
		bw := bufio.NewWriterSize(livewriter.Writer{Ctx: ctx, W: f}, 64<<10)
		err = fn(bw)
		if err == nil {
			err = bw.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if errors.Is(err, render.ErrNoData) {
			return false, os.Remove(filepath.Join(tmp, name))
		}
		if err != nil {
			if ctx.Err() != nil {
				return false, context.Cause(ctx)
			}
			var pe *fs.PathError
			if errors.As(err, &pe) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EIO) {
				return false, writeErr(out, name, err)
			}
			return false, fmt.Errorf("rendering %s: %w", name, err)
		}
		files = append(files, name)
		return true, nil
	}
	if err := render1(ctx, rs, opts, emit); err != nil {
		return nil, err
	}
	// README.md is rendered last (it lists the others) and named first.
	files = append(files[len(files)-1:], files[:len(files)-1]...)
	if err := os.Chmod(tmp, mode); err != nil {
		return nil, writeErr(out, "", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, context.Cause(ctx)
	}
	if err := install(tmp, out, dir, opts.Force); err != nil {
		return nil, err
	}
	return files, nil
}

// writeErr words an error of writing file name of the review for out
// (name "" for the directory itself) without the temporary directory's
// name: "writing review to OUT: README.md: no space left on device".
func writeErr(out, name string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	if name != "" {
		return fmt.Errorf("writing review to %s: %s: %w", out, name, err)
	}
	return fmt.Errorf("writing review to %s: %w", out, err)
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
		return writeErr(out, "", err)
	}
	// dir exists: an empty directory (which rename cannot replace on
	// every system) or, with force, a full one.
	aside, err := os.MkdirTemp(filepath.Dir(filepath.Clean(dir)), "."+filepath.Base(dir)+".old-")
	if err != nil {
		return writeErr(out, "", err)
	}
	os.Remove(aside)
	if err := os.Rename(dir, aside); err != nil {
		return writeErr(out, "", fmt.Errorf("moving the old review aside: %w", err))
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.Rename(aside, dir)
		return writeErr(out, "", err)
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
func Render(rs *results.File, opts Options) ([]File, error) {
	var files []File
	err := render1(context.Background(), rs, opts, func(name string, fn func(io.Writer) error) (bool, error) {
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
	})
	if err != nil {
		return nil, err
	}
	// README.md is rendered last (it lists the others) and comes first.
	return append(files[len(files)-1:], files[:len(files)-1]...), nil
}

// render1 renders every file of the review of rs through emit, which
// writes what fn writes as the file name and reports whether it kept it
// (not when fn has nothing to draw: render.ErrNoData). README.md comes
// last, listing the others. A chart that takes long (the GC chart, of
// many points) stops once ctx is done.
func render1(ctx context.Context, rs *results.File, opts Options, emit func(name string, fn func(io.Writer) error) (bool, error)) error {
	var names []string
	add := func(name string, fn func(io.Writer) error) (bool, error) {
		ok, err := emit(name, fn)
		if ok {
			names = append(names, name)
		}
		return ok, err
	}
	copied := *rs
	if copied.Schema == "" {
		copied.Schema = results.Schema
	}
	// The trade-off tables, derived again from the rows (a file's own are
	// not trusted), go into the results the review keeps.
	copied.Tradeoff = results.Tradeoffs(&copied)
	charts := charts{tradeoff: map[string]string{}}
	ok, err := add(BytesChart, func(w io.Writer) error { return render.BytesPerInstanceChart(ctx, w, &copied) })
	if err != nil {
		return err
	}
	if ok {
		charts.bytes = BytesChart
	}
	if ok, err = add(GCChart, func(w io.Writer) error { return render.GCChart(ctx, w, &copied) }); err != nil {
		return err
	}
	if ok {
		charts.gc = GCChart
	}
	for _, typ := range render.TypesMeasured(&copied) {
		// A type measured at several parameter sets has a chart per set,
		// drawn from that set's rows alone (results.AtParam).
		for _, p := range results.InstanceParams(&copied, typ) {
			key, from := tradeoffKey(typ, p), &copied
			if p != "" {
				from = results.AtParam(&copied, typ, p)
			}
			name := TradeoffFile(key)
			ok, err := add(name, func(w io.Writer) error { return render.TradeoffChart(w, from, typ) })
			if err != nil {
				return err
			}
			if ok {
				charts.tradeoff[key] = name
			}
		}
	}
	for _, f := range []struct {
		name string
		fn   func(io.Writer, *results.File) error
	}{
		{ResultsJSON, func(w io.Writer, rs *results.File) error { return rs.WriteJSON(w) }},
		{ResultsCSV, render.CSV},
		{ResultsBench, export.Bench},
	} {
		if _, err := add(f.name, func(w io.Writer) error { return f.fn(w, &copied) }); err != nil {
			return err
		}
	}
	if ms := machines(opts.Machines); ms.several() {
		for _, m := range ms[1:] {
			if _, err := add(MachineFile(m.Name), m.Results.WriteJSON); err != nil {
				return err
			}
		}
	}
	_, err = emit(ReadmeFile, func(w io.Writer) error { return writeReadme(ctx, w, &copied, opts, charts, names) })
	return err
}

// charts says which charts a review holds: the bytes chart ("" if none)
// and the trade-off chart of each type that has one.
type charts struct {
	bytes    string
	gc       string // the GC chart, "" if none
	tradeoff map[string]string
}

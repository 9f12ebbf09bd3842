package gate

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/memprof/memprof/internal/readlimit"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// Version is the budgets file version this package reads.
const Version = 1

// Metric is one quantity a budget can bound: a figure of results.Figures
// that has a budget key (results.Figure.Budget). Its entry says everything
// the gate does with it: the rows it reads (instances or operations),
// its unit, how a limit on it is judged (measure.Judge), what a row that
// lacks it says. A figure given a budget key there is a metric here.
type Metric struct{ f *results.Figure }

// Metrics returns the metrics, in the order of results.Figures, read from
// the registry on each call (a figure a test adds is a metric too).
func Metrics() []Metric {
	var out []Metric
	for _, f := range results.Figures {
		if f.Budget != "" {
			out = append(out, Metric{f})
		}
	}
	return out
}

// metricKeys are the budget keys of Metrics, in order.
func metricKeys(keep func(Metric) bool) []string {
	var keys []string
	for _, m := range Metrics() {
		if keep == nil || keep(m) {
			keys = append(keys, m.Key())
		}
	}
	return keys
}

// Figure is the figure the metric bounds.
func (m Metric) Figure() *results.Figure { return m.f }

// Key is the metric's key in a budgets file ("max_bytes_per_instance").
func (m Metric) Key() string { return m.f.Budget }

// String is the metric's name for people ("bytes per instance").
func (m Metric) String() string { return m.f.Title }

// OnOps reports whether the metric bounds operation rows (a time, or
// what one call allocates) rather than instance rows.
func (m Metric) OnOps() bool { return m.f.Row == results.RowThroughput }

// IsTime reports whether the metric's values are times judged over their
// samples (an operation's, the GC mark time): written with a duration
// unit, judged by the noise rule (median against the interquartile
// range), given a min_delta noise floor, and updated with headroom.
func (m Metric) IsTime() bool {
	return m.f.Judge.OverSamples()
}

// Timed reports whether the metric is an operation's time (read from
// throughput rows: none when timing was not available).
func (m Metric) Timed() bool { return m.OnOps() && m.IsTime() }

// Unit is the unit of the metric's values.
func (m Metric) Unit() units.Unit { return m.f.Unit }

// Format renders a value of the metric for people, with its unit
// (units.Unit.Format): "192 B", "1", "2.081 ms".
func (m Metric) Format(v float64) string { return m.Unit().Format(v) }

// File is a parsed budgets file. It keeps the YAML source so
// that Update can rewrite values in place, comments and layout untouched.
type File struct {
	// Path names the file in messages (file:line).
	Path    string
	Version int
	Budgets []*Budget
	src     []byte
}

// Budget is one entry of a budgets file: a selector, one or more limits,
// and who to ask about it.
type Budget struct {
	// Line is the budget's line in the file (its first key).
	Line   int
	Select Selector
	Limits []Limit
	Owner  string
	Reason string
	// GOMAXPROCS is the GOMAXPROCS its max_bytes_per_op and
	// max_allocs_per_op hold for, on operations whose allocations depend
	// on the cores (results.OpCost.CoresDependent); 0 when not given.
	GOMAXPROCS int
	// Optional lets the results lack cases the budget selects (optional:
	// true): Check reports each as a Skip instead of an Error. Cases the
	// results have are checked as ever.
	Optional bool
	// N, when not 0 (n: 1000), is the number of instances the budget's
	// instance cases are measured at: what memprof check and instances
	// --budgets measure them at, and the N a results row must have for
	// the budget to hold (another is an Error). It keeps a budget on
	// large objects (a post-quantum key of 100 KB) from measuring
	// gigabytes at the entries' default N.
	N int

	// Expires, when set (HasExpiry), is the last day the budget holds
	// (UTC): afterwards it fails (see waiver.go). ExpiresLine is its line
	// in the file; Issue links the issue that tracks the waiver. MinDelta
	// is a time budget's noise floor.
	Expires      time.Time
	ExpiresSet   bool // Expires was given (see HasExpiry)
	ExpiresLine  int
	Issue        string
	MinDelta     NoiseFloor
	minDeltaLine int
}

// Limit is one max_* key of a budget.
type Limit struct {
	Metric Metric
	Value  float64
	// Line and Column locate the value in the file (1-based); Raw is the
	// value as written, quotes included, for in-place rewriting.
	Line, Column int
	Raw          string
	// hadUnit records that the value was written with a unit, so that an
	// update writes one too.
	hadUnit bool
}

// PosError is a problem at a position in a budgets file.
type PosError struct {
	File string
	Line int
	Msg  string
}

func (e *PosError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// ErrInvalid is wrapped by every error that says a budgets file is
// invalid (as opposed to unreadable).
var ErrInvalid = errors.New("invalid budgets file")

// DefaultMaxBytes is the largest budgets file ReadFile reads: 4 MiB,
// some 25,000 budgets (memprof's own file is 18 KB).
const DefaultMaxBytes = 4 << 20

// BytesPerNode is how many bytes of its limit a budgets file must have
// per YAML node (key, value, list or mapping) on average: ReadFileLimit
// refuses, before parsing, a file that may make more than
// limit/BytesPerNode nodes (524,288 at the default limit, and no fewer
// under a lower one; some 13,000 budgets of the usual shape). Parsing
// costs a few hundred bytes per node: dense YAML (a list of a million
// one-letter names) would cost far more memory than its size says.
const BytesPerNode = 8

// ErrTooLarge is wrapped by the error of a budgets file larger than the
// limit; it is the same value as results.ErrTooLarge.
var ErrTooLarge = readlimit.ErrTooLarge

// ReadFile reads and parses the budgets file at path, up to
// DefaultMaxBytes.
func ReadFile(path string) (*File, error) { return ReadFileLimit(path, DefaultMaxBytes) }

// ReadFileLimit reads and parses the budgets file at path, refusing, as
// soon as it has read limit+1 bytes, a file larger than limit bytes (0
// means DefaultMaxBytes), and one of more YAML nodes than the limit
// allows (BytesPerNode); both errors wrap ErrTooLarge.
func ReadFileLimit(path string, limit int64) (*File, error) {
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading budgets: %w", err)
	}
	defer f.Close()
	data, err := readlimit.ReadAll(f, limit)
	if err != nil {
		return nil, fmt.Errorf("reading budgets %s: %w", path, err)
	}
	if n, most := yamlNodes(data), max(limit, DefaultMaxBytes)/BytesPerNode; int64(n) > most {
		return nil, fmt.Errorf("reading budgets %s: %w", path, &nodesError{int64(n), most})
	}
	return Parse(path, data)
}

// nodesError is a budgets file that may make more YAML nodes than its
// limit.
type nodesError struct{ n, most int64 }

func (e *nodesError) Error() string {
	return fmt.Sprintf("more than the limit of %d YAML nodes (keys, values, lists and mappings; up to %d in it, one per %d bytes of the size limit allowed)", e.most, e.n, BytesPerNode)
}

func (e *nodesError) Is(target error) bool { return target == ErrTooLarge }

// OfSchemes returns a copy of f that checks the cases of schemes only
// (memprof check --scheme). A budget's schemes are those it names, or the
// default (min-pk) when it names none; it keeps those among schemes. One
// that keeps none selects only its types without a scheme (a budget on
// every type of blst keeps G1, ...), and is left out, counted in dropped,
// when it has none. f is not modified; the copy shares its budgets' other
// fields.
func (f *File) OfSchemes(schemes []vocab.Scheme) (kept *File, dropped int) {
	out := *f
	out.Budgets = nil
	for _, b := range f.Budgets {
		sel := b.Select
		own := sel.Scheme
		if len(own) == 0 {
			own = []string{string(vocab.MinPk)}
		}
		var keep []string
		for _, s := range own {
			if slices.Contains(schemes, vocab.Scheme(s)) && !slices.Contains(keep, s) {
				keep = append(keep, s)
			}
		}
		switch {
		case len(keep) > 0:
			sel.Scheme = keep
		case len(sel.Type) == 0 || slices.ContainsFunc(sel.Type, func(t string) bool { return !vocab.Type(t).HasScheme() }):
			sel.noScheme = true
		default:
			dropped++
			continue
		}
		nb := *b
		nb.Select = sel
		out.Budgets = append(out.Budgets, &nb)
	}
	return &out, dropped
}

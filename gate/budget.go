package gate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/memprof/memprof/internal/readlimit"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// Version is the budgets file version this package reads.
const Version = 1

// Metric is one quantity a budget can bound: a figure of results.Figures
// that has a budget key (results.Figure.Budget). Its entry says everything
// the gate does with it: the rows it reads (instances or operations),
// its unit, how a limit on it is judged (results.Judge), what a row that
// lacks it says. A figure given a budget key there is a metric here.
type Metric struct{ f *results.Figure }

// Metrics are the metrics, in the order of results.Figures.
var Metrics = budgetMetrics()

func budgetMetrics() []Metric {
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
	for _, m := range Metrics {
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
	return m.f.Judge == results.JudgeNoise || m.f.Judge == results.JudgeEstimate
}

// Timed reports whether the metric is an operation's time (read from
// throughput rows: none when timing was not available).
func (m Metric) Timed() bool { return m.OnOps() && m.IsTime() }

// Unit is the unit of the metric's values.
func (m Metric) Unit() units.Unit { return m.f.Unit }

// Format renders a value of the metric for people, with its unit
// (units.Unit.Format): "192 B", "1", "2.081 ms".
func (m Metric) Format(v float64) string { return m.Unit().Format(v) }

// File is a parsed budgets file. It keeps the YAML source and node tree so
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

// Selector chooses cases. Each field lists the accepted names. An empty
// field selects what a run that does not name it measures: every name,
// but for Layout the default layouts (measure.DefaultLayouts: not the
// slice) and for Scheme the default scheme (min-pk), as memprof instances
// and throughput measure them by default; "all" in a budgets file (or
// the full list) widens them. Names are canonical (as the suites
// registry spells them).
type Selector struct {
	Type, Lib, Repr, Layout, Scheme, Op []string
	// Param selects the parameter of cases measured at several settings
	// ("precompute=8"); any value is a valid name.
	Param []string
	// noScheme selects, of the cases a scheme decides, none (File.OfSchemes
	// keeps so the types without a scheme of a budget whose schemes were
	// left out).
	noScheme bool
}

// String renders the selector as in a budgets file: {type: Signature, lib: blst}.
func (s Selector) String() string {
	var parts []string
	for _, f := range s.fields() {
		if len(f.values) == 1 {
			parts = append(parts, f.key+": "+f.values[0])
		} else if len(f.values) > 1 {
			parts = append(parts, f.key+": ["+strings.Join(f.values, ", ")+"]")
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

type selectorField struct {
	key    string
	values []string
	valid  []string // nil: any name
}

func (s *Selector) fields() []selectorField {
	return []selectorField{
		{"type", s.Type, vocab.Strings(vocab.Types)}, {"lib", s.Lib, vocab.Strings(vocab.Libs)}, {"repr", s.Repr, vocab.Strings(vocab.Reprs)},
		{"layout", s.Layout, vocab.Strings(measure.Layouts)}, {"scheme", s.Scheme, vocab.Strings(vocab.Schemes)}, {"op", s.Op, vocab.Strings(vocab.Ops)},
		{"param", s.Param, nil},
	}
}

func accepts(list []string, v string) bool {
	if len(list) == 0 {
		return true
	}
	return slices.ContainsFunc(list, func(s string) bool { return strings.EqualFold(s, v) })
}

// Matches reports whether the case k is selected. For an instance case
// (no op), a selector naming an op selects only operations, never
// instances; a selector without layout selects the default layouts
// (measure.DefaultLayouts), and one without scheme the scheme a case's type
// has by default (min-pk; a key without a scheme is of its type's
// default), what memprof instances measures when not told otherwise. A
// case whose type has no scheme is selected by any scheme. For an
// operation the layout and scheme are not selected on (operations have
// no layout and are all min-pk; Parse refuses time budgets that select on
// them).
func (s Selector) Matches(k results.Key) bool {
	base := accepts(s.Type, string(k.Type)) && accepts(s.Lib, string(k.Lib)) && accepts(s.Repr, string(k.Repr)) && accepts(s.Param, string(k.Param))
	if k.Op != "" {
		return base && accepts(s.Op, string(k.Op))
	}
	if !base || len(s.Op) > 0 {
		return false
	}
	switch {
	case k.Layout == "": // a user's own case: no layout to select on
	case len(s.Layout) == 0 && !slices.Contains(measure.DefaultLayouts, k.Layout):
		return false
	case !accepts(s.Layout, string(k.Layout)):
		return false
	}
	switch scheme := k.Normalize().Scheme; {
	case scheme == "":
		return true
	case s.noScheme:
		return false
	case len(s.Scheme) == 0:
		return scheme == k.Type.DefaultScheme()
	default:
		return accepts(s.Scheme, string(scheme))
	}
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

// Parse parses a budgets file. path names it in errors. Every problem
// found is reported, each as file:line: message, joined; the error wraps
// ErrInvalid. Unknown keys, duplicate keys, unknown names in selectors,
// values without a valid number or unit and budgets without a limit are
// all errors.
func Parse(path string, data []byte) (*File, error) {
	p := &parser{path: path}
	f := &File{Path: path, src: data}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: %s: %v", ErrInvalid, path, err)
	}
	// One document per file: a second (after ---) would be ignored, and a
	// budgets file assembled from two would check only the first.
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, fmt.Errorf("%w: %s:%d: a second YAML document starts here (---), and it is not valid YAML (%v): a budgets file is one document; put every budget in the first one's budgets list",
			ErrInvalid, path, secondDocumentLine(data), err)
	default:
		return nil, fmt.Errorf("%w: %s:%d: a second YAML document starts here (---): a budgets file is one document; put every budget in the first one's budgets list",
			ErrInvalid, path, next.Line)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, fmt.Errorf("%w: %s: empty file: want version: %d and a list of budgets", ErrInvalid, path, Version)
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		p.errorf(root, "want a mapping with version and budgets, got %s", kindName(root))
		return nil, p.err()
	}
	var budgetsNode *yaml.Node
	p.mapping(root, map[string]func(k, v *yaml.Node){
		"version": func(k, v *yaml.Node) {
			n, err := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil || n != Version {
				p.errorf(v, "version must be %d, got %q", Version, v.Value)
				return
			}
			f.Version = n
		},
		"budgets": func(k, v *yaml.Node) { budgetsNode = v },
	})
	if f.Version == 0 && !p.has("version") {
		p.errorf(root, "missing version: %d", Version)
	}
	switch {
	case budgetsNode == nil:
		p.errorf(root, "missing budgets: a list of budgets")
	case budgetsNode.Kind != yaml.SequenceNode:
		p.errorf(budgetsNode, "budgets must be a list, got %s", kindName(budgetsNode))
	case len(budgetsNode.Content) == 0:
		p.errorf(budgetsNode, "budgets is empty: a gate that checks nothing would always pass")
	default:
		for _, bn := range budgetsNode.Content {
			if b := p.budget(bn); b != nil {
				f.Budgets = append(f.Budgets, b)
			}
		}
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	return f, nil
}

type parser struct {
	path string
	errs []error
	seen map[string]bool // keys of the mapping being read
}

func (p *parser) errorf(n *yaml.Node, format string, a ...any) {
	p.errs = append(p.errs, &PosError{File: p.path, Line: n.Line, Msg: fmt.Sprintf(format, a...)})
}

func (p *parser) err() error {
	if len(p.errs) == 0 {
		return nil
	}
	return fmt.Errorf("%w:\n%w", ErrInvalid, errors.Join(p.errs...))
}

func (p *parser) has(key string) bool { return p.seen[key] }

// mapping walks the keys of a mapping node, calling the handler for each
// known key and reporting unknown and duplicate keys with their lines.
func (p *parser) mapping(n *yaml.Node, handlers map[string]func(k, v *yaml.Node)) {
	p.seen = map[string]bool{}
	var valid []string
	for k := range handlers {
		valid = append(valid, k)
	}
	slices.Sort(valid)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.errorf(k, "keys must be names, got %s", kindName(k))
			continue
		}
		h, ok := handlers[k.Value]
		if !ok {
			p.errorf(k, "unknown key %q: valid keys are %s", k.Value, strings.Join(valid, ", "))
			continue
		}
		if p.seen[k.Value] {
			p.errorf(k, "duplicate key %q", k.Value)
			continue
		}
		p.seen[k.Value] = true
		h(k, v)
	}
}

func (p *parser) budget(n *yaml.Node) *Budget {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "a budget must be a mapping with select and max_* keys, got %s", kindName(n))
		return nil
	}
	b := &Budget{Line: n.Line}
	before := len(p.errs)
	var selNode *yaml.Node
	handlers := map[string]func(k, v *yaml.Node){
		"select": func(k, v *yaml.Node) { selNode = v; b.Select = p.selector(v) },
		"owner":  func(k, v *yaml.Node) { b.Owner = p.text(k, v) },
		"reason": func(k, v *yaml.Node) { b.Reason = p.text(k, v) },
		"gomaxprocs": func(k, v *yaml.Node) {
			n, err := strconv.Atoi(strings.TrimSpace(v.Value))
			switch {
			case v.Kind != yaml.ScalarNode || err != nil || n < 1:
				p.errorf(v, "gomaxprocs must be a whole number of at least 1, got %s", kindName(v))
				return
			case n > maxGOMAXPROCS:
				p.errorf(v, "gomaxprocs must be at most %d, got %s", maxGOMAXPROCS, kindName(v))
				return
			}
			b.GOMAXPROCS = n
		},
		"n": func(k, v *yaml.Node) {
			n, err := strconv.Atoi(strings.TrimSpace(v.Value))
			switch {
			case v.Kind != yaml.ScalarNode || err != nil || n < 1:
				p.errorf(v, "n must be a whole number of instances, at least 1, got %s", kindName(v))
				return
			case n > MaxN:
				p.errorf(v, "n must be at most %d instances, got %s", MaxN, kindName(v))
				return
			}
			b.N = n
		},
		"optional": func(k, v *yaml.Node) {
			if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
				p.errorf(v, "optional must be true or false, got %s", kindName(v))
				return
			}
			b.Optional = v.Value == "true" || v.Value == "True" || v.Value == "TRUE"
		},
	}
	p.waiverKeys(b, handlers)
	for _, m := range Metrics {
		handlers[m.Key()] = func(k, v *yaml.Node) {
			if l, ok := p.limit(m, k, v); ok {
				b.Limits = append(b.Limits, l)
			}
		}
	}
	p.mapping(n, handlers)
	if len(p.errs) > before {
		return nil
	}
	if len(b.Limits) == 0 {
		p.errorf(n, "budget has no limit: set one or more of %s", strings.Join(metricKeys(nil), ", "))
		return nil
	}
	var timed, memory bool
	for _, l := range b.Limits {
		if l.Metric.OnOps() {
			timed = true
		} else {
			memory = true
		}
	}
	at := n
	if selNode != nil {
		at = selNode
	}
	if memory && len(b.Select.Op) > 0 {
		p.errorf(at, "op selects operations, but %s bounds instances: put the op's max_ns_per_op in a budget of its own", firstMemoryKey(b))
		return nil
	}
	if len(b.Select.Scheme) > 0 && len(b.Select.Type) > 0 && !slices.ContainsFunc(b.Select.Type, func(t string) bool { return vocab.Type(t).HasScheme() }) {
		p.errorf(at, "select %s: %s %s no scheme (only %s have one: it decides their group): remove scheme",
			b.Select, strings.Join(b.Select.Type, ", "), map[bool]string{true: "has", false: "have"}[len(b.Select.Type) == 1], vocab.Join(schemeTypes()))
		return nil
	}
	if timed && (len(b.Select.Layout) > 0 || len(b.Select.Scheme) > 0) {
		p.errorf(at, "%s bounds operations, which have no layout or scheme: select them by type, lib, repr and op", firstOpKey(b))
		return nil
	}
	if b.N > 0 && !memory {
		p.errorf(at, "n is the number of instances the budget's cases are measured at, and this budget bounds no figure of instances (%s bounds operations)", firstOpKey(b))
		return nil
	}
	if b.GOMAXPROCS > 0 && !slices.ContainsFunc(b.Limits, func(l Limit) bool { return l.Metric.f.PerGOMAXPROCS }) {
		p.errorf(at, "gomaxprocs ties %s to a number of cores, and this budget has neither", strings.Join(metricKeys(func(m Metric) bool { return m.f.PerGOMAXPROCS }), " and "))
		return nil
	}
	if !p.checkWaiver(b) {
		return nil
	}
	return b
}

func firstMemoryKey(b *Budget) string {
	for _, l := range b.Limits {
		if !l.Metric.OnOps() {
			return l.Metric.Key()
		}
	}
	return ""
}

func firstOpKey(b *Budget) string {
	for _, l := range b.Limits {
		if l.Metric.OnOps() {
			return l.Metric.Key()
		}
	}
	return ""
}

func (p *parser) text(k, v *yaml.Node) string {
	if v.Kind != yaml.ScalarNode {
		p.errorf(v, "%s must be text, got %s", k.Value, kindName(v))
		return ""
	}
	return v.Value
}

func (p *parser) limit(m Metric, k, v *yaml.Node) (Limit, bool) {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		p.errorf(v, "%s must be a number, got %s", k.Value, kindName(v))
		return Limit{}, false
	}
	var val float64
	var err error
	hadUnit := false
	switch m.Unit() {
	case units.Nanoseconds:
		val, err = units.ParseDuration(v.Value)
		hadUnit = true
	case units.Count:
		val, err = units.ParseCount(v.Value)
	default:
		val, err = units.ParseSize(v.Value)
		_, perr := strconv.ParseFloat(strings.TrimSpace(v.Value), 64)
		hadUnit = perr != nil
	}
	if err != nil {
		p.errorf(v, "%s: %v", k.Value, err)
		return Limit{}, false
	}
	return Limit{Metric: m, Value: val, Line: v.Line, Column: v.Column, Raw: v.Value, hadUnit: hadUnit}, true
}

func (p *parser) selector(n *yaml.Node) Selector {
	var s Selector
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "select must be a mapping such as {type: Signature, lib: blst}, got %s", kindName(n))
		return s
	}
	targets := map[string]*[]string{"type": &s.Type, "lib": &s.Lib, "repr": &s.Repr, "layout": &s.Layout, "scheme": &s.Scheme, "op": &s.Op, "param": &s.Param}
	handlers := map[string]func(k, v *yaml.Node){}
	for _, f := range s.fields() {
		f := f
		handlers[f.key] = func(k, v *yaml.Node) { *targets[f.key] = p.names(f, v) }
	}
	saved := p.seen
	p.mapping(n, handlers)
	p.seen = saved
	return s
}

// names reads a selector value: one name or a list of names, each checked
// against the registry's names (case-insensitively) and canonicalised.
func (p *parser) names(f selectorField, v *yaml.Node) []string {
	var items []*yaml.Node
	switch v.Kind {
	case yaml.ScalarNode:
		items = []*yaml.Node{v}
	case yaml.SequenceNode:
		items = v.Content
		if len(items) == 0 {
			p.errorf(v, "select %s: empty list (omit the key to select every %s)", f.key, f.key)
		}
	default:
		p.errorf(v, "select %s must be a name or a list of names, got %s", f.key, kindName(v))
		return nil
	}
	var out []string
	for _, it := range items {
		if it.Kind != yaml.ScalarNode || it.Value == "" {
			p.errorf(it, "select %s: want a name, got %s", f.key, kindName(it))
			continue
		}
		name := it.Value
		if strings.EqualFold(name, "all") && f.widens() {
			out = append(out, f.valid...) // every name, where an omitted key selects the default
			continue
		}
		if f.key == "param" {
			if err := results.Param(name).Check(); err != nil {
				p.errorf(it, "select: %v", err)
				continue
			}
		}
		if f.valid != nil {
			c, err := vocab.Canonical(f.key, name, f.valid)
			if err != nil {
				p.errorf(it, "select: %v", err)
				continue
			}
			name = c
		}
		out = append(out, name)
	}
	return out
}

// widens reports whether the field takes "all": the fields whose
// omission selects a default (layout, scheme), not every name.
func (f selectorField) widens() bool { return f.key == "layout" || f.key == "scheme" }

// schemeTypes are the types whose group the scheme decides.
func schemeTypes() []vocab.Type {
	var out []vocab.Type
	for _, t := range vocab.Types {
		if t.HasScheme() {
			out = append(out, t)
		}
	}
	return out
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		return fmt.Sprintf("%q", n.Value)
	case yaml.AliasNode:
		return "an alias"
	}
	return "nothing"
}

// secondDocumentLine returns the line of the marker (---) that starts the
// second YAML document of src: the second marker when the first document
// starts with one, else the first.
func secondDocumentLine(src []byte) int {
	var markers []int
	firstContent := 0
	for i, line := range bytes.Split(src, []byte("\n")) {
		t := bytes.TrimRight(line, " \t\r")
		if bytes.Equal(t, []byte("---")) || bytes.HasPrefix(t, []byte("--- ")) {
			markers = append(markers, i+1)
		}
		if firstContent == 0 && len(bytes.TrimSpace(t)) > 0 && !bytes.HasPrefix(bytes.TrimSpace(t), []byte("#")) {
			firstContent = i + 1
		}
	}
	switch {
	case len(markers) > 1 && markers[0] == firstContent:
		return markers[1]
	case len(markers) > 0 && markers[0] != firstContent:
		return markers[0]
	}
	return 0
}

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

package gate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// Parse parses a budgets file. path names it in errors. Every problem
// found is reported, each as file:line: message, joined; the error wraps
// ErrInvalid. Unknown keys, duplicate keys, unknown names in selectors,
// values without a valid number or unit and budgets without a limit are
// all errors.
func Parse(path string, data []byte) (*File, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var y fileYAML
	err := dec.Decode(&y)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: %s: %v", ErrInvalid, path, err)
	}
	if err := oneDocument(dec, path, data); err != nil {
		return nil, err
	}
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: %s: empty file: want version: %d and a list of budgets", ErrInvalid, path, Version)
	}
	p := &parser{path: path}
	root := &y.written.node
	if root.Kind == 0 { // a null: no UnmarshalYAML is given one
		root = nullRoot(data)
	}
	if root.Kind != yaml.MappingNode {
		p.errorf(root, "want a mapping with version and budgets, got %s", kindName(root))
		return nil, p.err()
	}
	f := &File{Path: path, src: data}
	p.file(&y, f)
	if err := p.err(); err != nil {
		return nil, err
	}
	return f, nil
}

// oneDocument refuses a second document after the one dec decoded from
// data.
func oneDocument(dec *yaml.Decoder, path string, data []byte) error {
	// One document per file: a second (after ---) would be ignored, and a
	// budgets file assembled from two would check only the first.
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return fmt.Errorf("%w: %s:%d: a second YAML document starts here (---), and it is not valid YAML (%v): a budgets file is one document; put every budget in the first one's budgets list",
			ErrInvalid, path, secondDocumentLine(data), err)
	default:
		return fmt.Errorf("%w: %s:%d: a second YAML document starts here (---): a budgets file is one document; put every budget in the first one's budgets list",
			ErrInvalid, path, next.Line)
	}
	return nil
}

// nullRoot returns the top of data's first document, a null (the nodes
// of a document with nothing else are few).
func nullRoot(data []byte) *yaml.Node {
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil || len(doc.Content) == 0 {
		return &yaml.Node{}
	}
	return doc.Content[0]
}

// parser collects the problems of a budgets file, each where it is
// written.
type parser struct {
	path string
	errs []keyProblem
}

func (p *parser) errorf(n *yaml.Node, format string, a ...any) {
	p.errs = append(p.errs, keyProblem{n.Line, n.Column, fmt.Sprintf(format, a...)})
}

// keyProblems reports the problems of a mapping's keys.
func (p *parser) keyProblems(problems []keyProblem) { p.errs = append(p.errs, problems...) }

func (p *parser) err() error {
	if len(p.errs) == 0 {
		return nil
	}
	errs := make([]error, len(p.errs))
	for i, k := range p.errs {
		errs[i] = &PosError{File: p.path, Line: k.line, Msg: k.msg}
	}
	return fmt.Errorf("%w:\n%w", ErrInvalid, errors.Join(errs...))
}

// inOrder sorts the problems from the from-th on as they are written.
func (p *parser) inOrder(from int) {
	slices.SortStableFunc(p.errs[from:], func(a, b keyProblem) int { return a.compare(b) })
}

// file checks the top of a budgets file and each of its budgets into f.
func (p *parser) file(y *fileYAML, f *File) {
	root := &y.written.node
	p.keyProblems(y.written.problems)
	if v := &y.Version; given(v) {
		n, err := strconv.Atoi(v.Value)
		if v.Kind != yaml.ScalarNode || err != nil || n != Version {
			p.errorf(v, "version must be %d, got %q", Version, v.Value)
		} else {
			f.Version = n
		}
	}
	p.inOrder(0)
	if !y.written.decoded {
		return // keys the decoder could not place: the rest is unknown
	}
	if !given(&y.Version) {
		p.errorf(root, "missing version: %d", Version)
	}
	switch bn := valueOf(root, "budgets"); {
	case bn == nil:
		p.errorf(root, "missing budgets: a list of budgets")
	case bn.Kind != yaml.SequenceNode:
		p.errorf(bn, "budgets must be a list, got %s", kindName(bn))
	case len(bn.Content) == 0:
		p.errorf(bn, "budgets is empty: a gate that checks nothing would always pass")
	default:
		for _, n := range bn.Content {
			if b := p.budget(n, y.Budgets.at[positionOf(n)]); b != nil {
				f.Budgets = append(f.Budgets, b)
			}
		}
	}
}

// budget checks one budget as written, n, decoded as y (nil when it is
// not a mapping).
func (p *parser) budget(n *yaml.Node, y *budgetYAML) *Budget {
	if n.Kind != yaml.MappingNode || y == nil {
		p.errorf(n, "a budget must be a mapping with select and max_* keys, got %s", kindName(n))
		return nil
	}
	before := len(p.errs)
	p.keyProblems(y.written.problems)
	if !y.written.decoded {
		return nil
	}
	b := &Budget{Line: n.Line}
	selNode := valueOf(n, "select")
	if selNode != nil {
		b.Select = p.selector(selNode, &y.Select)
	}
	p.fields(b, y)
	p.waiver(b, y)
	done := map[string]bool{} // a key given twice is a problem of its own
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		v, ok := y.Limits[k.Value]
		if !ok || done[k.Value] {
			continue
		}
		done[k.Value] = true
		metrics := Metrics()
		i := slices.IndexFunc(metrics, func(m Metric) bool { return m.Key() == k.Value })
		if i < 0 {
			p.errorf(k, "%s", unknownKey(k.Value, budgetKeys()))
			continue
		}
		if l, ok := p.limit(metrics[i], k.Value, &v); ok {
			b.Limits = append(b.Limits, l)
		}
	}
	p.inOrder(before)
	if len(p.errs) > before {
		return nil
	}
	if len(b.Limits) == 0 {
		p.errorf(n, "budget has no limit: set one or more of %s", strings.Join(metricKeys(nil), ", "))
		return nil
	}
	at := n
	if selNode != nil {
		at = selNode
	}
	if !p.consistent(b, at) || !p.checkWaiver(b) {
		return nil
	}
	return b
}

// wholeNumber reads v, a whole number from 1 to most, into dst. Its
// errors are notWhole, or tooLarge (a format taking most), each followed
// by what v is.
func (p *parser) wholeNumber(v *yaml.Node, dst *int, most int, notWhole, tooLarge string) {
	n, err := strconv.Atoi(strings.TrimSpace(v.Value))
	switch {
	case v.Kind != yaml.ScalarNode || err != nil || n < 1:
		p.errorf(v, notWhole+", got %s", kindName(v))
	case n > most:
		p.errorf(v, tooLarge+", got %s", most, kindName(v))
	default:
		*dst = n
	}
}

// fields checks a budget's owner, reason, gomaxprocs, n and optional.
func (p *parser) fields(b *Budget, y *budgetYAML) {
	if given(&y.Owner) {
		b.Owner = p.text("owner", &y.Owner)
	}
	if given(&y.Reason) {
		b.Reason = p.text("reason", &y.Reason)
	}
	if v := &y.GOMAXPROCS; given(v) {
		p.wholeNumber(v, &b.GOMAXPROCS, maxGOMAXPROCS, "gomaxprocs must be a whole number of at least 1", "gomaxprocs must be at most %d")
	}
	if v := &y.N; given(v) {
		p.wholeNumber(v, &b.N, MaxN, "n must be a whole number of instances, at least 1", "n must be at most %d instances")
	}
	if v := &y.Optional; given(v) {
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
			p.errorf(v, "optional must be true or false, got %s", kindName(v))
		} else {
			b.Optional = v.Value == "true" || v.Value == "True" || v.Value == "TRUE"
		}
	}
}

// consistent checks that a budget's limits go with its selector, its n
// and its gomaxprocs; at is where the selector is written.
func (p *parser) consistent(b *Budget, at *yaml.Node) bool {
	var timed, memory bool
	for _, l := range b.Limits {
		if l.Metric.OnOps() {
			timed = true
		} else {
			memory = true
		}
	}
	switch {
	case memory && len(b.Select.Op) > 0:
		p.errorf(at, "op selects operations, but %s bounds instances: put the op's max_ns_per_op in a budget of its own", firstMemoryKey(b))
	case len(b.Select.Scheme) > 0 && len(b.Select.Type) > 0 && !slices.ContainsFunc(b.Select.Type, func(t string) bool { return vocab.Type(t).HasScheme() }):
		p.errorf(at, "select %s: %s %s no scheme (only %s have one: it decides their group): remove scheme",
			b.Select, strings.Join(b.Select.Type, ", "), map[bool]string{true: "has", false: "have"}[len(b.Select.Type) == 1], vocab.Join(schemeTypes()))
	case timed && (len(b.Select.Layout) > 0 || len(b.Select.Scheme) > 0):
		p.errorf(at, "%s bounds operations, which have no layout or scheme: select them by type, lib, repr and op", firstOpKey(b))
	case b.N > 0 && !memory:
		p.errorf(at, "n is the number of instances the budget's cases are measured at, and this budget bounds no figure of instances (%s bounds operations)", firstOpKey(b))
	case b.GOMAXPROCS > 0 && !slices.ContainsFunc(b.Limits, func(l Limit) bool { return l.Metric.f.PerGOMAXPROCS }):
		p.errorf(at, "gomaxprocs ties %s to a number of cores, and this budget has neither", strings.Join(metricKeys(func(m Metric) bool { return m.f.PerGOMAXPROCS }), " and "))
	default:
		return true
	}
	return false
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

func (p *parser) text(key string, v *yaml.Node) string {
	if v.Kind != yaml.ScalarNode {
		p.errorf(v, "%s must be text, got %s", key, kindName(v))
		return ""
	}
	return v.Value
}

func (p *parser) limit(m Metric, key string, v *yaml.Node) (Limit, bool) {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		p.errorf(v, "%s must be a number, got %s", key, kindName(v))
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
		p.errorf(v, "%s: %v", key, err)
		return Limit{}, false
	}
	return Limit{Metric: m, Value: val, Line: v.Line, Column: v.Column, Raw: v.Value, hadUnit: hadUnit}, true
}

// selector checks a budget's select, written n, decoded as y.
func (p *parser) selector(n *yaml.Node, y *selectYAML) Selector {
	var s Selector
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "select must be a mapping such as {type: Signature, lib: blst}, got %s", kindName(n))
		return s
	}
	p.keyProblems(y.written.problems)
	if !y.written.decoded {
		return s
	}
	written := map[string]*yaml.Node{"type": &y.Type, "lib": &y.Lib, "repr": &y.Repr, "layout": &y.Layout, "scheme": &y.Scheme, "op": &y.Op, "param": &y.Param}
	targets := map[string]*[]string{"type": &s.Type, "lib": &s.Lib, "repr": &s.Repr, "layout": &s.Layout, "scheme": &s.Scheme, "op": &s.Op, "param": &s.Param}
	for _, f := range s.fields() {
		if v := written[f.key]; given(v) {
			*targets[f.key] = p.names(f, v)
		}
	}
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

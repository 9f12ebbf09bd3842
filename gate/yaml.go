package gate

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// A budgets file is decoded by yaml.v3 into the typed structs below, with
// KnownFields: a key that no field names is refused at its line. Each
// mapping keeps its node (its line, its kind) and each value its node
// (yaml.Node: its line, column and text as written, an alias or a null
// kept as such), so that the parser's checks say where each problem is
// and Update can rewrite a value in place. The limits (max_*) are not
// fields: a budget's keys other than its fields are the registry's budget
// keys (Metrics), so that a figure given a budget key is a limit here
// with no change to this file.

// fileYAML is the top of a budgets file.
type fileYAML struct {
	written mappingYAML

	Version yaml.Node  `yaml:"version"`
	Budgets budgetList `yaml:"budgets"`
}

// mappingYAML is what decoding a mapping keeps beside its fields: its
// node, the problems of its keys, and whether its fields were decoded
// (decodeMapping).
type mappingYAML struct {
	node     yaml.Node
	problems []keyProblem
	decoded  bool
}

func (m *mappingYAML) decode(unmarshal func(any) error, fields any, valid []string) {
	m.problems, m.decoded = decodeMapping(unmarshal, &m.node, fields, valid)
}

// budgetList is the budgets list: its node, and each budget decoded,
// by the position of its node.
type budgetList struct {
	node yaml.Node
	at   map[position]*budgetYAML
}

// budgetYAML is one budget as written.
type budgetYAML struct {
	written mappingYAML

	Select     selectYAML `yaml:"select"`
	Owner      yaml.Node  `yaml:"owner"`
	Reason     yaml.Node  `yaml:"reason"`
	GOMAXPROCS yaml.Node  `yaml:"gomaxprocs"`
	N          yaml.Node  `yaml:"n"`
	Optional   yaml.Node  `yaml:"optional"`
	Expires    yaml.Node  `yaml:"expires"`
	Issue      yaml.Node  `yaml:"issue"`
	MinDelta   yaml.Node  `yaml:"min_delta"`
	// Limits are the budget's other keys: the max_* keys of Metrics, and
	// keys unknown to both (refused by the parser).
	Limits map[string]yaml.Node `yaml:",inline"`
}

// selectYAML is a budget's selector as written.
type selectYAML struct {
	written mappingYAML

	Type   yaml.Node `yaml:"type"`
	Lib    yaml.Node `yaml:"lib"`
	Repr   yaml.Node `yaml:"repr"`
	Layout yaml.Node `yaml:"layout"`
	Scheme yaml.Node `yaml:"scheme"`
	Op     yaml.Node `yaml:"op"`
	Param  yaml.Node `yaml:"param"`
}

// The structs' fields without their UnmarshalYAML, for the decoder.
type (
	fileFields   fileYAML
	budgetFields budgetYAML
	selectFields selectYAML
)

// position is where a node is: its line and column.
type position struct{ line, column int }

func positionOf(n *yaml.Node) position { return position{n.Line, n.Column} }

// keyProblem is a problem with a mapping's keys, found while decoding it:
// at line and column, msg.
type keyProblem struct {
	line, column int
	msg          string
}

// compare orders problems as they are written.
func (k keyProblem) compare(o keyProblem) int {
	return cmp.Or(cmp.Compare(k.line, o.line), cmp.Compare(k.column, o.column))
}

// The UnmarshalYAML methods take the decoder's unmarshal function (the
// form of yaml.v3 that decodes with the same decoder, KnownFields
// included). Each keeps its node and its key problems, and returns nil:
// the parser reports them with the file's other problems, in order.

func (f *fileYAML) UnmarshalYAML(unmarshal func(any) error) error {
	f.written.decode(unmarshal, (*fileFields)(f), fileKeys)
	return nil
}

func (s *selectYAML) UnmarshalYAML(unmarshal func(any) error) error {
	s.written.decode(unmarshal, (*selectFields)(s), selectKeys)
	return nil
}

func (b *budgetYAML) UnmarshalYAML(unmarshal func(any) error) error {
	b.written.decode(unmarshal, (*budgetFields)(b), budgetKeys())
	return nil
}

func (l *budgetList) UnmarshalYAML(unmarshal func(any) error) error {
	if l.node = *nodeOf(unmarshal); l.node.Kind != yaml.SequenceNode {
		return nil // the parser reports what the budgets are instead
	}
	var items []*budgetYAML
	_ = unmarshal(&items) // each budget keeps its own problems
	l.at = map[position]*budgetYAML{}
	for _, b := range items {
		if b != nil {
			l.at[positionOf(&b.written.node)] = b
		}
	}
	return nil
}

// nodeOf returns the node unmarshal decodes (the decoder's own, not a
// copy), or an empty node.
func nodeOf(unmarshal func(any) error) *yaml.Node {
	var c nodeCapture
	if err := unmarshal(&c); err != nil || c.n == nil {
		return &yaml.Node{}
	}
	return c.n
}

// nodeCapture keeps the node it is decoded from.
type nodeCapture struct{ n *yaml.Node }

func (c *nodeCapture) UnmarshalYAML(n *yaml.Node) error {
	c.n = n
	return nil
}

// decodeMapping keeps the node unmarshal decodes in n and, when it is a
// mapping, decodes it into fields (decoded). It returns the problems of
// its keys, in order: keys that are not names (a list, an alias), keys
// given twice, and unknown keys (valid lists the known ones; a merge
// key, <<, is one).
func decodeMapping(unmarshal func(any) error, n *yaml.Node, fields any, valid []string) (problems []keyProblem, decoded bool) {
	mapping := nodeOf(unmarshal)
	if *n = *mapping; n.Kind != yaml.MappingNode {
		return nil, false // the parser reports the kind
	}
	// A key is its text: yaml.v3 would resolve an alias, merge a merge
	// key's mapping (<<), skip a null key, decode a tagged one by its tag
	// and refuse a mapping with a repeated key as a whole. It decodes the
	// mapping with each key as plain text, without the keys that are not
	// names and the repeated ones (each key's first value), so that the
	// rest is checked too.
	once := make([]*yaml.Node, 0, len(n.Content))
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch k := n.Content[i]; {
		case k.Kind != yaml.ScalarNode:
			problems = append(problems, keyProblem{k.Line, k.Column, "keys must be names, got " + kindName(k)})
		case seen[k.Value] && !slices.Contains(valid, k.Value):
			problems = append(problems, keyProblem{k.Line, k.Column, unknownKey(k.Value, valid)})
		case seen[k.Value]:
			problems = append(problems, keyProblem{k.Line, k.Column, fmt.Sprintf("duplicate key %q", k.Value)})
		default:
			seen[k.Value] = true
			text := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k.Value, Line: k.Line, Column: k.Column}
			once = append(once, text, n.Content[i+1])
		}
	}
	mapping.Content = once
	err := unmarshal(fields)
	mapping.Content = n.Content
	var te *yaml.TypeError
	switch {
	case errors.As(err, &te):
		for _, e := range te.Errors {
			problems = append(problems, keyProblemOf(e, n, valid))
		}
	case err != nil:
		return append(problems, keyProblem{n.Line, n.Column, err.Error()}), false
	}
	slices.SortStableFunc(problems, func(a, b keyProblem) int { return a.compare(b) })
	return problems, true
}

// The problems yaml.v3 reports while decoding a mapping into a struct
// (its TypeError lines): a key no field names (KnownFields), and any
// other at its line.
var (
	unknownField = regexp.MustCompile(`^line (\d+): field (.*) not found in type \S+$`)
	atLine       = regexp.MustCompile(`^line (\d+): (.*)$`)
)

// keyProblemOf words a problem yaml.v3 reports while decoding the
// mapping n, e, as the parser does ("unknown key ...", at the key);
// another keeps yaml.v3's words.
func keyProblemOf(e string, n *yaml.Node, valid []string) keyProblem {
	if m := unknownField.FindStringSubmatch(e); m != nil {
		line, _ := strconv.Atoi(m[1])
		column := 0
		for i := 0; i < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Line == line && k.Value == m[2] {
				column = k.Column
			}
		}
		return keyProblem{line, column, unknownKey(m[2], valid)}
	}
	if m := atLine.FindStringSubmatch(e); m != nil {
		line, _ := strconv.Atoi(m[1])
		return keyProblem{line, 0, m[2]}
	}
	return keyProblem{n.Line, n.Column, e}
}

func unknownKey(key string, valid []string) string {
	return fmt.Sprintf("unknown key %q: valid keys are %s", key, strings.Join(valid, ", "))
}

// fieldKeys returns the keys of the struct T's fields, sorted.
func fieldKeys[T any]() []string {
	t := reflect.TypeFor[T]()
	var keys []string
	for i := range t.NumField() {
		if tag, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); tag != "" {
			keys = append(keys, tag)
		}
	}
	slices.Sort(keys)
	return keys
}

// The keys of the top of a budgets file and of a select, sorted.
var (
	fileKeys   = fieldKeys[fileFields]()
	selectKeys = fieldKeys[selectFields]()
)

// budgetKeys returns the keys of a budget, its fields' and the metrics',
// sorted.
func budgetKeys() []string {
	keys := append(fieldKeys[budgetFields](), metricKeys(nil)...)
	slices.Sort(keys)
	return keys
}

// valueOf returns the value of key in the mapping n as written (an alias
// or a null as such), or nil when n lacks it.
func valueOf(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// given reports whether the mapping held the value v (a field's node is
// the zero node when its key is absent).
func given(v *yaml.Node) bool { return v.Kind != 0 }

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

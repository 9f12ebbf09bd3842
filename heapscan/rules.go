package heapscan

import (
	"errors"
	"fmt"
	"os"
	"regexp"

	"github.com/memprof/memprof/internal/readlimit"
	"gopkg.in/yaml.v3"
)

// Rule names a domain object by the stack frames that allocate it.
type Rule struct {
	// Name is the row's key ("PublicKey").
	Name string
	// Patterns are matched (unanchored) against the function name of
	// every frame of a sample's stack; any match is a match.
	Patterns []*regexp.Regexp
}

// Rules is an ordered list of rules: a sample belongs to the first rule,
// in file order, that matches one of its frames.
type Rules struct {
	List []Rule
}

// match returns the index of the first rule matching the function name
// fn, or -1.
func (rs *Rules) match(fn string) int {
	for i, r := range rs.List {
		for _, p := range r.Patterns {
			if p.MatchString(fn) {
				return i
			}
		}
	}
	return -1
}

// ParseRules parses rules from YAML: a mapping from rule names to a
// pattern or a list of patterns (Go regexps over function names), in the
// order they are tried:
//
//	PublicKey: 'blst/bindings/go\.\(\*P1Affine\)\.(Uncompress|Deserialize)'
//	Signature:
//	  - 'blst/bindings/go\.\(\*P2Affine\)\.Uncompress'
//	  - 'gnark-crypto/ecc/bls12-381\.\(\*G2Affine\)\.SetBytes'
//
// name is used in error messages ("name:line: ...").
func ParseRules(name string, data []byte) (*Rules, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: no rules", name)
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: rules must be a mapping from names to patterns", name, m.Line)
	}
	rs := &Rules{}
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value == "" {
			return nil, fmt.Errorf("%s:%d: a rule name must be a non-empty string", name, k.Line)
		}
		if line, dup := seen[k.Value]; dup {
			return nil, fmt.Errorf("%s:%d: rule %s already defined at line %d", name, k.Line, k.Value, line)
		}
		seen[k.Value] = k.Line
		var pats []*yaml.Node
		switch v.Kind {
		case yaml.ScalarNode:
			pats = []*yaml.Node{v}
		case yaml.SequenceNode:
			pats = v.Content
		default:
			return nil, fmt.Errorf("%s:%d: rule %s: want a pattern or a list of patterns", name, v.Line, k.Value)
		}
		if len(pats) == 0 {
			return nil, fmt.Errorf("%s:%d: rule %s has no patterns", name, v.Line, k.Value)
		}
		r := Rule{Name: k.Value}
		for _, p := range pats {
			if p.Kind != yaml.ScalarNode || p.Value == "" {
				return nil, fmt.Errorf("%s:%d: rule %s: a pattern must be a non-empty string", name, p.Line, k.Value)
			}
			re, err := regexp.Compile(p.Value)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: rule %s: %w", name, p.Line, k.Value, err)
			}
			r.Patterns = append(r.Patterns, re)
		}
		rs.List = append(rs.List, r)
	}
	if len(rs.List) == 0 {
		return nil, errors.New(name + ": no rules")
	}
	return rs, nil
}

// DefaultMaxRulesBytes is the largest rules file ReadRules reads: YAML
// rules are a few KB; a larger file is a mistake (--rules /dev/zero) or
// hostile.
const DefaultMaxRulesBytes = 64 << 20

// ReadRules reads rules from the named YAML file (see ParseRules), of at
// most DefaultMaxRulesBytes.
func ReadRules(path string) (*Rules, error) {
	return ReadRulesLimit(path, DefaultMaxRulesBytes)
}

// ReadRulesLimit reads rules from the named YAML file of at most maxBytes
// (<= 0: DefaultMaxRulesBytes). The limit is checked while reading, so
// that reading a device or a pipe that never ends stops at the limit; a
// larger file is an error wrapping ErrTooLarge.
func ReadRulesLimit(path string, maxBytes int64) (*Rules, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxRulesBytes
	}
	tooLarge := func() error {
		return fmt.Errorf("reading rules %s: larger than the limit of %d bytes (%s): %w", path, maxBytes, readlimit.FormatSize(maxBytes), errTooLarge)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading rules: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > maxBytes {
		return nil, tooLarge()
	}
	data, err := readlimit.ReadAll(f, maxBytes)
	if errors.Is(err, readlimit.ErrTooLarge) {
		return nil, tooLarge()
	}
	if err != nil {
		return nil, fmt.Errorf("reading rules %s: %w", path, err)
	}
	return ParseRules(path, data)
}

package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memprof/memprof/vocab"
)

// The one place that suggests what a near miss meant: an unknown command
// (instanses), flag (-fromat) or value (--type Signatur, --lib blts)
// gets "did you mean" the nearest valid name, by the Damerau-Levenshtein
// distance (an edit is an insertion, a deletion, a substitution or the
// transposition of two neighbours), ignoring case.

// nearest returns the name of valid nearest to v, if one is near enough
// to be what was meant: at most a third of v's letters (at least one)
// edited, and nearer than any other name.
func nearest(v string, valid []string) (string, bool) {
	best, bestD, tie := "", -1, false
	for _, c := range valid {
		d := editDistance(strings.ToLower(v), strings.ToLower(c))
		switch {
		case bestD < 0 || d < bestD:
			best, bestD, tie = c, d, false
		case d == bestD:
			tie = true
		}
	}
	limit := max(1, utf8.RuneCountInString(v)/3)
	if bestD < 0 || bestD > limit || tie || bestD == 0 {
		return "", false
	}
	return best, true
}

// editDistance is the optimal string alignment distance of a and b (the
// Damerau-Levenshtein distance, no substring edited twice).
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

// unknownPart returns the first comma-separated part of v that is not
// one of valid (ignoring case), and the name of valid near it, if any.
func unknownPart(v string, valid []string) (part, near string, ok bool) {
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		known := false
		for _, c := range valid {
			known = known || strings.EqualFold(c, part)
		}
		if known || part == "" {
			continue
		}
		near, ok := nearest(part, valid)
		return part, near, ok
	}
	return "", "", false
}

// suggest returns err with a "did you mean" for v among valid: after the
// unknown name where the message quotes it ("unknown type "Signatur"
// (did you mean Signature?): valid types are ..."), else at its end; nil
// for a nil err.
func suggest(err error, v string, valid []string) error {
	if err == nil {
		return nil
	}
	part, near, ok := unknownPart(v, valid)
	if !ok {
		return err
	}
	hint := " (did you mean " + near + "?)"
	msg := err.Error()
	if q := strconv.Quote(part); strings.Contains(msg, q) {
		return suggestion{strings.Replace(msg, q, q+hint, 1), err}
	}
	return suggestion{msg + ";" + strings.TrimSuffix(strings.TrimPrefix(hint, " ("), ")"), err}
}

// suggestion is an error with a "did you mean" in its words; it unwraps
// to the error it was made from.
type suggestion struct {
	msg string
	err error
}

func (s suggestion) Error() string { return s.msg }
func (s suggestion) Unwrap() error { return s.err }

// typeNames are the names --type takes: the types, the groups and the
// families.
func typeNames() []string {
	names := append(vocab.Strings(vocab.Types), "all", "scenarios", "everything")
	return append(names, vocab.Strings(vocab.Families)...)
}

// flagNames returns the names of the flags of fs, dashed as help writes
// them (-n, --lib).
func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, dashed(f.Name)) })
	return names
}

// explained is a flag's value that, when a value given does not parse,
// keeps an error saying what was expected (the flag package's own is a
// bare "parse error").
type explained struct {
	flag.Value
	name, def string // the flag's name and default
	bad       *error
}

func (e explained) Set(v string) error {
	err := e.Value.Set(v)
	if err != nil && *e.bad == nil {
		*e.bad = valueError(e.name, e.def, v, e.Value, err)
	}
	return err
}

// IsBoolFlag keeps a boolean flag one that takes no value.
func (e explained) IsBoolFlag() bool {
	b, ok := e.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// explainValues wraps the values of fs's flags so that the first value
// given that does not parse sets *bad to an error saying what was
// expected; restore puts the values back (help prints their types).
func explainValues(fs *flag.FlagSet, bad *error) (restore func()) {
	var flags []*flag.Flag
	var values []flag.Value
	fs.VisitAll(func(f *flag.Flag) {
		flags, values = append(flags, f), append(values, f.Value)
		f.Value = explained{f.Value, f.Name, f.DefValue, bad}
	})
	return func() {
		for i, f := range flags {
			f.Value = values[i]
		}
	}
}

// outOfRange reports whether v is a whole number too large (or small)
// for the integer kind of current, with the smallest and largest it takes.
func outOfRange(v string, current any) (lo, hi string, ok bool) {
	var err error
	switch current.(type) {
	case int:
		_, err = strconv.ParseInt(v, 0, strconv.IntSize)
		lo, hi = strconv.Itoa(math.MinInt), strconv.Itoa(math.MaxInt)
	case int64:
		_, err = strconv.ParseInt(v, 0, 64)
		lo, hi = strconv.FormatInt(math.MinInt64, 10), strconv.FormatInt(math.MaxInt64, 10)
	case uint:
		_, err = strconv.ParseUint(v, 0, strconv.IntSize)
		lo, hi = "0", strconv.FormatUint(math.MaxUint, 10)
	case uint64:
		_, err = strconv.ParseUint(v, 0, 64)
		lo, hi = "0", strconv.FormatUint(math.MaxUint64, 10)
	}
	return lo, hi, errors.Is(err, strconv.ErrRange)
}

// valueError says what a flag of value's kind expected instead of v:
// `--min-sample: "40" is not a duration; write 40ms`, `-n: "abc" is not a
// whole number, such as 100000`.
func valueError(name, def, v string, value flag.Value, err error) error {
	g, _ := value.(flag.Getter)
	var current any
	if g != nil {
		current = g.Get()
	}
	f := dashed(name)
	switch current.(type) {
	case time.Duration:
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			return fmt.Errorf("%s: %q is not a duration; write %sms (or s, us, ns)", f, v, v)
		}
		return fmt.Errorf("%s: %q is not a duration: write one such as 100ms, 2s or 1m30s", f, v)
	case int, int64, uint, uint64:
		if lo, hi, ok := outOfRange(v, current); ok {
			return fmt.Errorf("%s: %q is out of range: a whole number from %s to %s", f, v, lo, hi)
		}
		if x, err := strconv.ParseFloat(v, 64); err == nil && x == math.Trunc(x) && math.Abs(x) < 1e18 {
			return fmt.Errorf("%s: %q is not a whole number as the flag takes it; write %s", f, v, strconv.FormatFloat(x, 'f', 0, 64))
		}
		return fmt.Errorf("%s: %q is not a whole number: write one such as %s", f, v, def)
	case float64:
		return fmt.Errorf("%s: %q is not a number: write one such as %s", f, v, def)
	case bool:
		return fmt.Errorf("%s: %q is not true or false", f, v)
	}
	return fmt.Errorf("%s: %q: %w", f, v, err)
}

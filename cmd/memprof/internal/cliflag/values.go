package cliflag

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"time"
)

// Names returns the names of the flags of fs, Dashed as help writes
// them (-n, --lib).
func Names(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, Dashed(f.Name)) })
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

// ExplainValues wraps the values of fs's flags so that the first value
// given that does not parse sets *bad to an error saying what was
// expected; restore puts the values back (help prints their types).
func ExplainValues(fs *flag.FlagSet, bad *error) (restore func()) {
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
	f := Dashed(name)
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

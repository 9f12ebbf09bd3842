package gate

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/memprof/memprof/units"
)

// Update returns the budgets file's source with every limit set to the
// current measurements in rep (a Report of Check on the same File): for
// each limit the largest value among the cases its budget selects, bytes
// (scan bytes too) and allocations exactly, times (the median of an
// operation or of the GC mark samples) multiplied by headroom and rounded
// up to three significant digits. Only the values change: keys,
// comments, order and layout stay byte for byte, so the diff is the
// budget change to review.
//
// Update refuses (and changes nothing) when the report has problems or a
// limit has no measurement: a gate must not be re-based on a case that
// did not measure. It never touches a budget's expires, and refuses while
// a budget has expired: re-basing does not extend a waiver, people renew
// or remove it.
func Update(f *File, rep *Report, headroom float64) ([]byte, error) {
	if !(headroom >= 1 && headroom <= MaxHeadroom) {
		return nil, fmt.Errorf("headroom must be a number from 1 to %d, got %v", MaxHeadroom, headroom)
	}
	if len(rep.Problems) > 0 {
		return nil, fmt.Errorf("not updating %s: %w", f.Path, errors.Join(rep.Problems...))
	}
	if err := expiredWaivers(f, rep); err != nil {
		return nil, err
	}
	type key struct{ line, col int }
	measured := map[key]float64{}
	limits := map[key]Limit{}
	var errs []error
	for _, o := range rep.Outcomes {
		if o.Status == Skip {
			continue // unavailable here, or optional and not in the results: no measurement
		}
		k := key{o.Limit.Line, o.Limit.Column}
		limits[k] = o.Limit
		if o.Status == Error {
			errs = append(errs, &PosError{File: f.Path, Line: o.Limit.Line, Msg: fmt.Sprintf("%s %s: %s", o.Case, o.Limit.Metric.Key(), o.Detail)})
			continue
		}
		measured[k] = max(measured[k], o.Measured)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("not updating %s: %w", f.Path, errors.Join(errs...))
	}
	// Each value's place in the source, found through one table of line
	// starts, then the source rebuilt once: linear in the file and its
	// limits.
	lines := lineStarts(f.src)
	var edits []edit
	for _, b := range f.Budgets {
		for _, l := range b.Limits {
			v, ok := measured[key{l.Line, l.Column}]
			if !ok {
				return nil, &PosError{File: f.Path, Line: l.Line, Msg: l.Metric.Key() + ": no measurement to update from"}
			}
			var text string
			if l.Metric.IsTime() {
				v *= headroom
			}
			if most := maxValue(l.Metric); v > most {
				return nil, &PosError{File: f.Path, Line: l.Line, Msg: fmt.Sprintf("%s: the measurement gives %s, more than the %s a budget takes", l.Metric.Key(), l.Metric.Format(v), l.Metric.Format(most))}
			}
			switch {
			case l.Metric.IsTime():
				text = FormatDuration(v)
			case l.Metric.Unit() == units.Count:
				text = FormatCount(v)
			default:
				if l.hadUnit {
					text = FormatSize(v)
				} else {
					text = FormatCount(v)
				}
			}
			e, err := scalarAt(f.src, lines, f.Path, l)
			if err != nil {
				return nil, err
			}
			e.text = text
			edits = append(edits, e)
		}
	}
	slices.SortFunc(edits, func(a, b edit) int { return a.off - b.off })
	var out bytes.Buffer
	out.Grow(len(f.src))
	at := 0
	for _, e := range edits {
		if e.off < at {
			return nil, fmt.Errorf("%s: two limits share one value; cannot update", f.Path)
		}
		out.Write(f.src[at:e.off])
		out.WriteString(e.text)
		at = e.off + e.n
	}
	out.Write(f.src[at:])
	return out.Bytes(), nil
}

// edit replaces the n bytes of a source at off with text.
type edit struct {
	off, n int
	text   string
}

// lineStarts returns the offset at which each line of src starts: line
// L (1-based) at [L-1].
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// maxValue is the largest value a limit on m takes (MaxSize, MaxDuration,
// MaxCount).
func maxValue(m Metric) float64 {
	switch m.Unit() {
	case units.Nanoseconds:
		return MaxDuration
	case units.Count:
		return MaxCount
	}
	return MaxSize
}

// scalarAt locates the scalar value of l (at l.Line, l.Column) in src,
// whose lines start at lines.
func scalarAt(src []byte, lines []int, path string, l Limit) (edit, error) {
	if l.Line < 1 || l.Line > len(lines) {
		return edit{}, &PosError{File: path, Line: l.Line, Msg: "value not found for update"}
	}
	start := lines[l.Line-1]
	end := len(src)
	if l.Line < len(lines) {
		end = lines[l.Line] - 1
	}
	line := src[start:end]
	// yaml.v3 counts columns in characters.
	off := 0
	for c := 1; c < l.Column && off < len(line); c++ {
		_, size := utf8.DecodeRune(line[off:])
		off += size
	}
	rest := line[off:]
	var n int
	switch {
	case len(rest) > 0 && (rest[0] == '"' || rest[0] == '\''):
		end := bytes.IndexByte(rest[1:], rest[0])
		if end < 0 {
			return edit{}, &PosError{File: path, Line: l.Line, Msg: "quoted value spans lines; write it on one line to update it"}
		}
		n = end + 2
	case bytes.HasPrefix(rest, []byte(l.Raw)):
		n = len(l.Raw)
	default:
		return edit{}, &PosError{File: path, Line: l.Line, Msg: fmt.Sprintf("value %q not found at column %d for update", l.Raw, l.Column)}
	}
	return edit{off: start + off, n: n}, nil
}

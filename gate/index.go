package gate

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memprof/memprof/results"
)

// A budgets file of one budget per case (what check --update keeps
// current) would cost budgets × rows if each budget looked at every row.
// rowIndex finds the rows a selector may select from the values of one of
// its keys, so that Check costs the rows plus the budgets plus the
// outcomes; Selector.Matches still decides every row.

// selKey is a selector key a rowIndex can look rows up by: one whose
// rows match exactly when their value is among the selector's values
// (scheme is not one for instance rows: a row without a scheme matches
// any scheme selector).
type selKey int

const (
	byType selKey = iota
	byLib
	byRepr
	byLayout
	byOp
	byParam
	numSelKeys
)

// values returns s's values of key k.
func (s *Selector) values(k selKey) []string {
	switch k {
	case byType:
		return s.Type
	case byLib:
		return s.Lib
	case byRepr:
		return s.Repr
	case byLayout:
		return s.Layout
	case byOp:
		return s.Op
	}
	return s.Param
}

// keyValue returns the value of key k of a case.
func keyValue(c results.Key, k selKey) string {
	switch k {
	case byType:
		return string(c.Type)
	case byLib:
		return string(c.Lib)
	case byRepr:
		return string(c.Repr)
	case byLayout:
		return string(c.Layout)
	case byOp:
		return string(c.Op)
	}
	return string(c.Param)
}

// rowIndex maps, for some selector keys, each value (folded as
// strings.EqualFold compares) to the rows that have it, in row order.
type rowIndex struct {
	n  int
	by [numSelKeys]map[string][]int
}

// newRowIndex indexes rows by keys.
func newRowIndex[R any](rows []R, key func(*R) results.Key, keys ...selKey) *rowIndex {
	ix := &rowIndex{n: len(rows)}
	for _, k := range keys {
		ix.by[k] = map[string][]int{}
	}
	for i := range rows {
		c := key(&rows[i])
		for _, k := range keys {
			v := fold(keyValue(c, k))
			ix.by[k][v] = append(ix.by[k][v], i)
		}
	}
	return ix
}

// candidates returns, in row order, the rows s may select: those of the
// indexed key of s that has the fewest; all, when s names no indexed key.
func (ix *rowIndex) candidates(s Selector) []int {
	best, bestN := selKey(-1), 0
	for k := range numSelKeys {
		if ix.by[k] == nil || len(s.values(k)) == 0 {
			continue
		}
		n := 0
		for _, v := range s.values(k) {
			n += len(ix.by[k][fold(v)]) // a value given twice counts twice: a bound
		}
		if best < 0 || n < bestN {
			best, bestN = k, n
		}
	}
	if best < 0 {
		all := make([]int, ix.n)
		for i := range all {
			all[i] = i
		}
		return all
	}
	var rows []int
	seen := map[string]bool{}
	for _, v := range s.values(best) {
		if f := fold(v); !seen[f] {
			seen[f] = true
			rows = append(rows, ix.by[best][f]...)
		}
	}
	if len(seen) > 1 {
		slices.Sort(rows) // the rows of several values, in row order
	}
	return rows
}

// fold returns s in the form strings.EqualFold compares: each rune the
// smallest of its case-folding orbit, so that EqualFold(a, b) exactly
// when fold(a) == fold(b).
func fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToUpper(s) // an ASCII letter's orbit starts at its capital
	}
	var b strings.Builder
	for _, r := range s {
		low := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			low = min(low, f)
		}
		b.WriteRune(low)
	}
	return b.String()
}

// indexed is a results file with the indexes Check looks rows up in.
type indexed struct {
	*results.File
	instances, throughput, unavailable *rowIndex
}

func indexResults(rs *results.File) *indexed {
	return &indexed{
		File:        rs,
		instances:   newRowIndex(rs.Instances, instanceRows.key, byType, byLib, byRepr, byLayout, byParam),
		throughput:  newRowIndex(rs.Throughput, throughputRows.key, byType, byLib, byRepr, byOp, byParam),
		unavailable: newRowIndex(rs.Unavailable, func(u *results.Unavailable) results.Key { return u.Key }, byType, byLib, byRepr, byParam),
	}
}

// selectedUnavailable returns the unavailable rows s selects, instance
// combinations or operations (ops), in row order.
func (rs *indexed) selectedUnavailable(s Selector, ops bool) []*results.Unavailable {
	var out []*results.Unavailable
	for _, i := range rs.unavailable.candidates(s) {
		u := &rs.Unavailable[i]
		if (u.Op != "") == ops && s.Matches(u.Key) {
			out = append(out, u)
		}
	}
	return out
}

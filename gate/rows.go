package gate

import (
	"slices"

	"github.com/memprof/memprof/results"
)

// rowKind tells the helpers Check and Compare share how to read one kind
// of results row (results.Row, results.ThroughputRow): its case key and
// its error ("" when it was measured), and its kind for the figure
// registry.
type rowKind[R any] struct {
	kind results.RowKind
	key  func(*R) results.Key
	err  func(*R) string
}

var (
	instanceRows = rowKind[results.Row]{
		kind: results.RowInstances,
		key:  func(r *results.Row) results.Key { return r.Key },
		err:  func(r *results.Row) string { return r.Error },
	}
	throughputRows = rowKind[results.ThroughputRow]{
		kind: results.RowThroughput,
		key:  func(r *results.ThroughputRow) results.Key { return r.Key },
		err:  func(r *results.ThroughputRow) string { return r.Error },
	}
)

// outcomes gives limit l's outcome for every row of rows that b selects,
// in their order: an Error for a row that failed to measure; judge sets
// the figures and the status of the others.
// ix indexes rows (see rowIndex).
func (k rowKind[R]) outcomes(b *Budget, l Limit, rows []R, ix *rowIndex, judge func(*Outcome, *R)) []Outcome {
	var outs []Outcome
	for _, i := range ix.candidates(b.Select) {
		r := &rows[i]
		if !b.Select.Matches(k.key(r)) {
			continue
		}
		o := Outcome{Budget: b, Limit: l, Case: k.key(r).FullName()}
		if e := k.err(r); e != "" {
			o.Status, o.Detail = Error, "failed to measure: "+firstLine(e)
		} else {
			judge(&o, r)
		}
		outs = append(outs, o)
	}
	return outs
}

// pair is one case and its rows in base and head, nil on the side that
// lacks it. The rows are base's and head's own.
type pair[R any] struct {
	key        results.Key
	base, head *R
}

// pairs pairs the rows of base and head by normalized key (a row without
// a scheme is of its type's default scheme, as a selector without one
// selects it), in the one ordering of keys (results.Compare; head's order,
// then the cases only base has, where keys tie).
func (k rowKind[R]) pairs(base, head []R) []pair[R] {
	baseBy := map[results.Key]*R{}
	for i := range base {
		baseBy[k.key(&base[i]).Normalize()] = &base[i]
	}
	headBy := map[results.Key]*R{}
	var keys []results.Key
	for i := range head {
		key := k.key(&head[i]).Normalize()
		headBy[key] = &head[i]
		keys = append(keys, key)
	}
	for i := range base {
		if key := k.key(&base[i]).Normalize(); headBy[key] == nil {
			keys = append(keys, key)
		}
	}
	slices.SortStableFunc(keys, results.Compare)
	out := make([]pair[R], len(keys))
	for i, key := range keys {
		out[i] = pair[R]{key, baseBy[key], headBy[key]}
	}
	return out
}

// judgeAbsent sets row for a case that one side lacks or failed to
// measure, value giving a side's figure, and reports whether it did: a
// case only in head is New, one only in base Missing (failing unless
// allowMissing), one that failed in head fails, one that failed only in
// base is Unmeasured and passes.
func (k rowKind[R]) judgeAbsent(row *Row, p pair[R], value func(*R) float64, allowMissing bool) bool {
	b, h := p.base, p.head
	switch {
	case b == nil:
		row.Change, row.Head = New, value(h)
		if e := k.err(h); e != "" {
			row.Change, row.Fails, row.Note = Unmeasured, true, "head failed to measure: "+firstLine(e)
		}
	case h == nil:
		row.Change, row.Base = Missing, value(b)
		row.Fails = !allowMissing
	case k.err(h) != "":
		row.Change, row.Fails, row.Note = Unmeasured, true, "head failed to measure: "+firstLine(k.err(h))
	case k.err(b) != "":
		row.Change, row.Head, row.Note = Unmeasured, value(h), "base failed to measure: "+firstLine(k.err(b))
	default:
		return false
	}
	return true
}

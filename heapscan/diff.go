package heapscan

import (
	"fmt"
	"sort"
)

// Diff compares the summary cur with the summary base of an earlier
// profile, made with the same options. Every row of either appears once,
// with its current figures, its base figures and, when it exists in only
// one, the Status "new" or "vanished". Rows are sorted by the absolute
// change in bytes, largest first, then in objects, then by key. Neither
// summary is changed.
func Diff(base, cur *Summary) (*Summary, error) {
	if base.Sample != cur.Sample || base.GroupBy != cur.GroupBy {
		return nil, fmt.Errorf("diff: summaries differ in sample (%s, %s) or grouping (%s, %s)", base.Sample, cur.Sample, base.GroupBy, cur.GroupBy)
	}
	if base.Diff || cur.Diff {
		return nil, fmt.Errorf("diff: a summary is already a diff")
	}
	d := &Summary{
		Period: cur.Period, Sample: cur.Sample, GroupBy: cur.GroupBy,
		TotalBytes: cur.TotalBytes, TotalObjects: cur.TotalObjects,
		Diff: true, BasePeriod: base.Period,
		BaseTotalBytes: base.TotalBytes, BaseTotalObjects: base.TotalObjects,
		NoObjects:       base.NoObjects || cur.NoObjects,
		NoSamplingError: base.NoSamplingError || cur.NoSamplingError,
		Delta:           base.Delta || cur.Delta,
		DeltaReason:     cur.DeltaReason,
		AbsTotalBytes:   cur.AbsTotalBytes,
		Notes:           append([]string(nil), cur.Notes...),
	}
	if d.DeltaReason == "" {
		d.DeltaReason = "the base " + base.DeltaReason
	}
	for _, n := range base.Notes {
		d.Notes = append(d.Notes, "base: "+n)
	}
	baseRows := make(map[string]*Row, len(base.Rows))
	for i := range base.Rows {
		baseRows[base.Rows[i].Key] = &base.Rows[i]
	}
	seen := make(map[string]bool, len(cur.Rows))
	for _, r := range cur.Rows {
		r.Sizes = append([]int64{}, r.Sizes...)
		seen[r.Key] = true
		if b, ok := baseRows[r.Key]; ok {
			r.BaseObjects, r.BaseBytes = b.Objects, b.Bytes
		} else {
			r.Status = "new"
		}
		d.Rows = append(d.Rows, r)
	}
	for _, b := range base.Rows {
		if seen[b.Key] {
			continue
		}
		r := b
		r.Sizes = append([]int64{}, b.Sizes...)
		r.BaseObjects, r.BaseBytes = b.Objects, b.Bytes
		r.Objects, r.Bytes = 0, 0
		r.Status = "vanished"
		d.Rows = append(d.Rows, r)
	}
	sort.Slice(d.Rows, func(i, j int) bool {
		a, b := &d.Rows[i], &d.Rows[j]
		if x, y := abs(a.DeltaBytes()), abs(b.DeltaBytes()); x != y {
			return x > y
		}
		if x, y := abs(a.DeltaObjects()), abs(b.DeltaObjects()); x != y {
			return x > y
		}
		return a.Key < b.Key
	})
	return d, nil
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

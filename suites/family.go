package suites

import (
	"fmt"
	"maps"
	"slices"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// Family is what the views know of one family, as a value: the family
// it is, the section of the review that weighs its own trade-offs (nil:
// the family has none beyond its types' sections). A family's package
// gives it in its Suite (Suite.Families); the review and verify render it
// without knowing the family.
type Family struct {
	Family vocab.Family
	// Subject names the family in the review's title ("BLS12-381");
	// families whose objects are another's share its subject (KZG's
	// are BLS12-381's).
	Subject string
	// Review is the family's own section of the review, or nil.
	Review *ReviewSection
	// KeyOps lists, per type of the family, the operations (of the
	// family) whose cost a representation changes most, best first: the
	// review judges a type's trade-off on the first one that was timed.
	KeyOps map[vocab.Type][]vocab.Op
}

// ReviewSection is a family's section of the review: a title, a
// paragraph that introduces the family's libraries, and blocks built
// from the results. The review writes it only when the results hold rows
// of the family.
type ReviewSection struct {
	// Title is the section's heading, without its "## ".
	Title string
	// Paragraph introduces the section, in Markdown.
	Paragraph string
	// Blocks builds the section's blocks from the results; it reads only
	// rs, which it must not modify.
	Blocks func(rs *results.File) []ReviewBlock
}

// ReviewBlock is one block of a review section, rendered in Markdown and
// followed by a blank line. Exactly one field is set.
type ReviewBlock struct {
	// Heading is a heading of the section's third level, without "### ".
	Heading string
	// Paragraph is one paragraph, in Markdown.
	Paragraph string
	// Bullets are the items of a list, in Markdown, without "- ". The
	// blank line follows the list even when it has no item.
	Bullets []string
	// Table is a table of cells already formatted.
	Table *ReviewTable
	// Tradeoff is a trade-off table across types, with its sentence.
	Tradeoff *ReviewTradeoff
	// TradeoffSummary is a list of the trade-offs of types.
	TradeoffSummary *ReviewTradeoffSummary
}

// ReviewTable is a table of a review section: its header, which columns
// are right-aligned, and its rows of formatted cells.
type ReviewTable struct {
	Header []string
	Right  []bool
	Rows   [][]string
}

// ReviewTradeoff is the trade-off of Type's forms against Op timed on
// OpType from the same forms (results.TradeoffAcross of Rows): Lead, the
// review's sentence on it and its table; or Missing when Op was not timed
// from two of the forms.
type ReviewTradeoff struct {
	// Rows are the results the trade-off is built from (the section's,
	// or a subset of them).
	Rows          *results.File
	Type, OpType  vocab.Type
	Op            vocab.Op
	Lead, Missing string
}

// ReviewTradeoffSummary lists, for each of Types that has a trade-off
// (results.TradeoffOf), the fastest form of each of Libs at the type's key
// operation and the Pareto-optimal forms.
type ReviewTradeoffSummary struct {
	Types []vocab.Type
	Libs  []vocab.Lib
}

// HasRows reports whether rs holds an instance or throughput row of f.
func HasRows(rs *results.File, f vocab.Family) bool {
	return slices.ContainsFunc(rs.Instances, func(r results.Row) bool { return r.Family() == f }) ||
		slices.ContainsFunc(rs.Throughput, func(r results.ThroughputRow) bool { return r.Family() == f })
}

// Measured returns the measured instances of typ in rs, smallest first
// (ties in the one ordering of keys, results.Compare): the rows a review
// section tabulates.
func Measured(rs *results.File, typ vocab.Type) []results.Row {
	var out []results.Row
	for _, r := range rs.Instances {
		if r.Type == typ && r.Error == "" {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b results.Row) int { return results.Compare(a.Key, b.Key) })
	slices.SortStableFunc(out, func(a, b results.Row) int {
		switch {
		case a.BytesPerInstance < b.BytesPerInstance:
			return -1
		case a.BytesPerInstance > b.BytesPerInstance:
			return 1
		}
		return 0
	})
	return out
}

// Families returns the family values of every suite, in family order.
func (r *Registry) Families() []Family { return r.families }

// KeyOps returns the key operations of every family's types
// (Family.KeyOps) in one map. The map is new; the slices are the
// families'.
func (r *Registry) KeyOps() map[vocab.Type][]vocab.Op {
	out := map[vocab.Type][]vocab.Op{}
	for _, f := range r.families {
		maps.Copy(out, f.KeyOps)
	}
	return out
}

func checkFamily(f Family) error {
	switch {
	case !vocab.Known(f.Family, vocab.Families):
		return fmt.Errorf("family %q is not one of %s", f.Family, vocab.Join(vocab.Families))
	case f.Subject == "":
		return fmt.Errorf("family %s: no subject for the review's title", f.Family)
	case f.Review != nil && (f.Review.Title == "" || f.Review.Blocks == nil):
		return fmt.Errorf("family %s: a review section needs a title and blocks", f.Family)
	}
	for _, typ := range slices.Sorted(maps.Keys(f.KeyOps)) {
		if typ.Family() != f.Family {
			return fmt.Errorf("family %s: key operations of type %s, which is not one of its types", f.Family, typ)
		}
		for _, op := range f.KeyOps[typ] {
			if !f.Family.HasOp(op) {
				return fmt.Errorf("family %s: key operation %s of type %s is not an operation of the family", f.Family, op, typ)
			}
		}
	}
	return nil
}

package measure

// Layout says how a case holds its instances: each its own heap object
// (pointer), all in one contiguous slice (slice), or in a structure built
// as a whole (collection).
type Layout string

// The layouts.
const (
	Pointer    Layout = "pointer"
	Slice      Layout = "slice"
	Collection Layout = "collection"
	// Single is one object per process (a library's KZG context): built
	// once per pass, never warmed up, N is 1.
	Single Layout = "single"
)

// Layouts are the layouts, in the order tables list them.
var Layouts = []Layout{Pointer, Slice, Collection, Single}

// DefaultLayouts are the layouts a selection that names none measures
// (memprof instances without --layout) and selects (a budget's select
// without layout): every layout but the slice, whose figures are exact
// at one N only.
var DefaultLayouts = []Layout{Pointer, Collection, Single}

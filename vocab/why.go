package vocab

import "fmt"

// Kind says why a combination was not measured. Code decides by the kind,
// never by the text of the reason.
type Kind string

// The kinds of unavailability.
const (
	// DoesNotApply: the representation or operation makes no sense for
	// the type in any library (a scalar Signature, compress from
	// compressed). Tables leave these out and say how many they left.
	DoesNotApply Kind = "does-not-apply"
	// NotOffered: the library has no such representation or operation.
	NotOffered Kind = "not-offered-by-library"
	// NeedsCgo: the library is a cgo binding and this build has
	// CGO_ENABLED=0.
	NeedsCgo Kind = "needs-cgo"
	// Failed: the combination exists but could not be prepared here (its
	// inputs failed to build).
	Failed Kind = "failed"
)

// Kinds lists the kinds in the order messages list them.
var Kinds = []Kind{DoesNotApply, NotOffered, NeedsCgo, Failed}

// Why is the reason a combination was not measured: its kind and a
// sentence for people. The zero Why means "available".
type Why struct {
	Kind   Kind   `json:"kind,omitempty"`
	Reason string `json:"reason"`
}

// IsZero reports whether w says nothing: the combination is available.
func (w Why) IsZero() bool { return w.Kind == "" && w.Reason == "" }

// Exists reports whether a case unavailable for w exists to be measured
// somewhere: any reason but a combination its library does not offer or
// one that does not apply (a case with no reason exists).
func (w Why) Exists() bool { return w.Kind != NotOffered && w.Kind != DoesNotApply }

// Because returns a Why of kind k with the formatted reason.
func Because(k Kind, format string, a ...any) Why {
	return Why{Kind: k, Reason: fmt.Sprintf(format, a...)}
}

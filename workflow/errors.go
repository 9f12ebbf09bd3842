package workflow

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// UsageError is the error of a selection or an option that is wrong in
// itself (a type without operations, a negative N): the caller asked for
// something that cannot be measured anywhere. Nothing was measured.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usagef(format string, a ...any) error {
	return &UsageError{fmt.Errorf(format, a...)}
}

// NoMatch is the error of a selection that no registered instance case
// (What "case") or operation (What "operation") matches. Nothing was
// measured.
type NoMatch struct {
	// What is "case" or "operation".
	What string
	// OpTypes are the registry's types that have operations, for a
	// message that says which could have been chosen.
	OpTypes []vocab.Type
}

func (e *NoMatch) Error() string {
	if e.What == "operation" {
		return fmt.Sprintf("no operation matches the selection; types with operations are %s", vocab.Join(e.OpTypes))
	}
	return "no " + e.What + " matches the selection"
}

// NothingMeasured is the error of a selection of which nothing can be
// measured: every instance case (What "case") or operation (What
// "operation") it selects is unavailable. Nothing was measured.
type NothingMeasured struct {
	What string
	// Why are the reasons, one per selected case, in the registry's order.
	Why []vocab.Why
}

func nothingMeasured(what string, us []results.Unavailable) *NothingMeasured {
	e := &NothingMeasured{What: what}
	for _, u := range us {
		e.Why = append(e.Why, u.Why)
	}
	return e
}

// DoesNotApply reports whether every selected combination is of kind
// vocab.DoesNotApply (a scalar Signature): the selection itself is wrong.
// Otherwise a library, or this build, lacks what it selects.
func (e *NothingMeasured) DoesNotApply() bool {
	return !slices.ContainsFunc(e.Why, func(w vocab.Why) bool { return w.Kind != vocab.DoesNotApply })
}

// Reasons returns each distinct reason once, in order: when DoesNotApply,
// the reasons why the combinations do not apply (without their leading
// "does not apply: "); otherwise only the reasons of the other kinds,
// which are what a user can change (another library, a cgo build).
func (e *NothingMeasured) Reasons() []string {
	only := e.DoesNotApply()
	var out []string
	for _, w := range e.Why {
		if (w.Kind == vocab.DoesNotApply) != only {
			continue
		}
		text := w.Reason
		if only {
			text = strings.TrimPrefix(text, "does not apply: ")
		}
		if !slices.Contains(out, text) {
			out = append(out, text)
		}
	}
	return out
}

func (e *NothingMeasured) Error() string {
	if e.DoesNotApply() {
		return "the selection holds only combinations that do not apply to their type: " + strings.Join(e.Reasons(), "; ")
	}
	return "nothing measured: every selected " + e.What + " is unavailable: " + strings.Join(e.Reasons(), "; ")
}

// IsUsage reports whether err says that the request itself is wrong, as
// opposed to a failure to measure it: a *UsageError, a *NoMatch, or a
// *NothingMeasured whose combinations do not apply to their type (when a
// library or the build lacks them instead, nothing could be measured here:
// a failure).
func IsUsage(err error) bool {
	var u *UsageError
	var m *NoMatch
	var n *NothingMeasured
	return errors.As(err, &u) || errors.As(err, &m) || errors.As(err, &n) && n.DoesNotApply()
}

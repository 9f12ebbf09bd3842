// Package secptest holds the checks both secp256k1 suites' tests run on
// their own registrations: every key of the matrix and every row of the
// operations table registered once, available or unavailable with a
// reason of the right kind; every available entry measured in process at
// exactly the bytes and objects its construction keeps (the suite's test
// says what those are, from unsafe.Sizeof and the size classes); every
// operation's result known and its invalid input refused; and every
// sender-cache form holding its population.
package secptest

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/secpkit"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

// Kept is what one instance keeps alive, by construction: its objects
// and their slots' bytes.
type Kept struct {
	Objects float64
	Bytes   float64
}

// Slot returns what one object of n bytes keeps: one object in the
// runtime's size class for n.
func Slot(t *testing.T, n uintptr) Kept {
	t.Helper()
	c, ok := suitetest.SizeClass(int64(n))
	if !ok {
		t.Fatalf("no size class holds %d bytes", n)
	}
	return Kept{1, float64(c)}
}

// Plus returns k and o together.
func (k Kept) Plus(o ...Kept) Kept {
	for _, x := range o {
		k.Objects += x.Objects
		k.Bytes += x.Bytes
	}
	return k
}

// Times returns k n times over.
func (k Kept) Times(n float64) Kept { return Kept{k.Objects * n, k.Bytes * n} }

// CheckUnavailable returns suitetest.CheckCoverage's check of the
// secp256k1 suites of lib: an unavailable entry is of kind NotOffered,
// its reason naming lib, or of kind NeedsCgo.
func CheckUnavailable(lib string) func(suites.Entry) error {
	return func(e suites.Entry) error {
		if e.Unavailable.IsZero() {
			return nil
		}
		return whyError(lib, e.Unavailable)
	}
}

// whyError checks why an entry or operation of lib is unavailable: of
// kind NotOffered, its reason naming lib, or of kind NeedsCgo.
func whyError(lib string, why vocab.Why) error {
	switch why.Kind {
	case vocab.NeedsCgo:
	case vocab.NotOffered:
		if !strings.Contains(why.Reason, lib) {
			return fmt.Errorf("reason %q does not name %s", why.Reason, lib)
		}
	default:
		return fmt.Errorf("kind %q, want %s or %s", why.Kind, vocab.NotOffered, vocab.NeedsCgo)
	}
	return nil
}

// CheckObjects measures every available single-object entry of s in
// process at each of suitetest.Ns and checks its bytes and objects per
// instance against kept's, exactly (to 0.01), and its sizeof against the
// entry's SizeHint. It returns how many it measured.
func CheckObjects(t *testing.T, s suites.Suite, kept func(t *testing.T, k results.Key) Kept) int {
	t.Helper()
	n := 0
	for _, e := range s.Entries {
		if e.Layout != measure.Pointer || !e.Unavailable.IsZero() {
			continue
		}
		n++
		t.Run(e.BenchName(), func(t *testing.T) {
			want := kept(t, e.Key)
			for _, n := range suitetest.Ns() {
				c := e.Case()
				c.Name = e.BenchName()
				r, err := memprof.Measure(c, memprof.N(n), memprof.SkipGC())
				if err != nil {
					t.Fatalf("N=%d: %v", n, err)
				}
				if r.SizeofBytes != int64(e.SizeHint) {
					t.Errorf("N=%d: sizeof: got %d, want SizeHint %d", n, r.SizeofBytes, e.SizeHint)
				}
				if math.Abs(r.AllocsPerInstance-want.Objects) > 0.01 || math.Abs(r.BytesPerInstance-want.Bytes) > 0.01 {
					t.Errorf("N=%d: got %.3f objects and %.3f B per instance, want %v and %v by construction", n, r.AllocsPerInstance, r.BytesPerInstance, want.Objects, want.Bytes)
					for _, s := range r.Sites {
						t.Logf("site %s:%d: %.3f B, %.3f objects, slots %v", s.Function, s.Line, s.BytesPerInstance, s.AllocsPerInstance, s.SlotSizes)
					}
				}
			}
		})
	}
	return n
}

// EntryCase returns the case of s's pointer entry of typ in repr.
func EntryCase(t *testing.T, s suites.Suite, typ vocab.Type, repr vocab.Repr) memprof.Case {
	t.Helper()
	for _, e := range s.Entries {
		if e.Type == typ && e.Repr == repr && e.Layout == measure.Pointer {
			return e.Case()
		}
	}
	t.Fatalf("no entry %s/%s", typ, repr)
	return memprof.Case{}
}

// Same measures two cases at n instances and fails unless they keep the
// same bytes and objects per instance, in the same slots, to one object
// in all (see below): a cheap constructor standing in for the real one
// keeps alive what the real one does.
func Same(t *testing.T, n int, cheap, real memprof.Case) {
	t.Helper()
	var rs [2]*memprof.Result
	for i, c := range []memprof.Case{cheap, real} {
		c.Name = [2]string{"cheap", "real"}[i]
		r, err := memprof.Measure(c, memprof.N(n), memprof.SkipGC())
		if err != nil {
			t.Fatal(err)
		}
		rs[i] = r
	}
	slots := func(r *memprof.Result) []int64 {
		var out []int64
		for _, s := range r.Sites {
			out = append(out, s.SlotSizes...)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	a, b := rs[0], rs[1]
	// In all n instances the real call may keep one object more, of at
	// most the largest slot: a cgo call on a thread the runtime has just
	// started leaves a record of its own (a 48 B object, seen once in
	// 300 instances of crypto.ToECDSA on a loaded machine). Per
	// instance, the figures must agree to that one object.
	largest := float64(slices.Max(append(slots(b), 0)))
	dBytes, dObjects := (b.BytesPerInstance-a.BytesPerInstance)*float64(n), (b.AllocsPerInstance-a.AllocsPerInstance)*float64(n)
	if dBytes < -0.5 || dBytes > largest+0.5 || dObjects < -0.5 || dObjects > 1.5 || !slices.Equal(slots(a), slots(b)) {
		t.Errorf("cheap constructor: %.3f B, %.3f objects, slots %v; real one: %.3f B, %.3f objects, slots %v; want the same", a.BytesPerInstance, a.AllocsPerInstance, slots(a), b.BytesPerInstance, b.AllocsPerInstance, slots(b))
		for i, r := range rs {
			for _, s := range r.Sites {
				t.Logf("%s: site %s (%s:%d): %.4f B, %.4f objects, slots %v", [2]string{"cheap", "real"}[i], s.Function, s.File, s.Line, s.BytesPerInstance, s.AllocsPerInstance, s.SlotSizes)
			}
		}
	}
}

// CheckOps checks s's operations against the table: one per row, the
// rows that do not apply of kind DoesNotApply and no others; every
// unavailable one of kind NotOffered naming the library, or NeedsCgo;
// every available one computing its known result, twice, and refusing
// its invalid input. It returns how many were available.
func CheckOps(t *testing.T, s suites.Suite) int {
	t.Helper()
	rows := secpkit.Rows()
	if len(s.Ops) != len(rows) {
		t.Fatalf("got %d operations, want %d (one per row of the table)", len(s.Ops), len(rows))
	}
	n := 0
	for i, op := range s.Ops {
		row := rows[i]
		t.Run(op.BenchName(), func(t *testing.T) {
			if op.Type != row.Row.Type || op.Repr != row.Row.Repr || op.Op != row.Row.Op {
				t.Fatalf("operation %d is %s, want the table's row %s", i, op.Key, row.Row)
			}
			if (op.Unavailable.Kind == vocab.DoesNotApply) == row.Applies {
				t.Errorf("kind %q for a row that applies: %v", op.Unavailable.Kind, row.Applies)
			}
			if !op.Unavailable.IsZero() {
				if op.Unavailable.Kind != vocab.DoesNotApply {
					if err := whyError(s.Name, op.Unavailable); err != nil {
						t.Errorf("%s: %v", op.Key, err)
					}
				}
				return
			}
			n++
			if op.Want == nil || op.Path == "" || op.Note == "" {
				t.Errorf("got Want %v, path %q, note %q; want all set", op.Want != nil, op.Path, op.Note)
			}
			h, err := suites.CheckOp(op, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := suitetest.CheckAgain(op, h, nil); err != nil {
				t.Error(err)
			}
			if err := suites.CheckOpRejects(op); err != nil {
				t.Error(err)
			}
		})
	}
	return n
}

// CheckSenderCaches builds every available sender-cache form of s at n
// transactions and checks it holds n distinct entries (the map's length)
// and that the sender of transaction i is what sender(form, value) says
// (for a few i), the value read by reflection from the map.
func CheckSenderCaches(t *testing.T, s suites.Suite, n int, sender func(t *testing.T, form vocab.Repr, v reflect.Value) [secpkit.AddressBytes]byte) {
	t.Helper()
	for _, e := range s.Entries {
		if e.Type != vocab.SenderCache || !e.Unavailable.IsZero() {
			continue
		}
		t.Run(e.BenchName(), func(t *testing.T) {
			c := e.Case()
			if err := c.Prepare(n); err != nil {
				t.Fatal(err)
			}
			m := reflect.ValueOf(c.NewAll(n))
			if m.Kind() != reflect.Map || m.Len() != n {
				t.Fatalf("got a %s of %d entries, want a map of %d", m.Kind(), m.Len(), n)
			}
			senders := secpkit.Senders(3)
			for i := range 3 {
				v := m.MapIndex(reflect.ValueOf(secpkit.TxHash(i)))
				if !v.IsValid() {
					t.Fatalf("no entry for transaction %d", i)
				}
				if got, want := sender(t, e.Repr, v), secpkit.Address(senders[i][:]); got != want {
					t.Errorf("transaction %d: sender %x, want %x", i, got, want)
				}
			}
		})
	}
}

// CheckSenderCacheScan measures every available sender-cache form of s
// at n transactions, the collector's figures included, and checks what
// the collector scans per entry against the form's shape: at least
// atLeast[form] bytes (the pointers each entry holds), or below
// below[form] (a pointer-free form: only the map's own tables, a few
// pointers per thousand entries), each within the figure's resolution.
func CheckSenderCacheScan(t *testing.T, s suites.Suite, n int, atLeast, below map[vocab.Repr]float64) {
	t.Helper()
	for _, e := range s.Entries {
		if e.Type != vocab.SenderCache || !e.Unavailable.IsZero() || e.FixedN != secpkit.Populations[0] {
			continue
		}
		t.Run(e.BenchName(), func(t *testing.T) {
			suitetest.CheckScan(t, e, n, "entry", atLeast, below)
			if _, ok := atLeast[e.Repr]; !ok {
				if _, ok := below[e.Repr]; !ok {
					t.Errorf("no expectation for form %s", e.Repr)
				}
			}
		})
	}
}

package scenarios

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
)

// DefaultN is the scale the scenarios are measured at: one million
// validators, the size of Ethereum's validator set.
const DefaultN = 1_000_000

// distinct is how many real keys and signatures each library makes: the
// suites' own values, shared with the instance cases.
const distinct = suitekit.Distinct

// root returns the deterministic 32-byte message root of attestation i.
func root(i int) [32]byte {
	return sha256.Sum256([]byte(fmt.Sprintf("memprof attestation root %d", i)))
}

// cacheKey is the 48-byte map key of validator i: its compressed public key
// with the index in the last eight bytes, so that keys are distinct.
func cacheKey(compressed [48]byte, i int) [48]byte {
	binary.BigEndian.PutUint64(compressed[40:], uint64(i))
	return compressed
}

// values are one library's real keys and signatures; PK and Sig are that
// library's public-key and signature representations.
type values[PK, Sig any] struct {
	pks        []PK
	compressed [][48]byte // compressed public keys
	sigs       []Sig
	sigBytes   [][96]byte // compressed signatures
	roots      [][32]byte // message roots
	// clonePK and cloneSig return a fresh copy of value i%distinct, as a
	// program holds its own copy of each decoded value.
	clonePK  func(v *PK) PK
	cloneSig func(v *Sig) Sig
}

func (v *values[PK, Sig]) pk(i int) PK   { return v.clonePK(&v.pks[i%len(v.pks)]) }
func (v *values[PK, Sig]) sig(i int) Sig { return v.cloneSig(&v.sigs[i%len(v.sigs)]) }

// root returns the message root of attestation i.
func (v *values[PK, Sig]) root(i int) [32]byte { return v.roots[i%distinct] }

// wrapperPtr and wrapperVal are the wrapper structs clients put around a key.
type wrapperPtr[PK any] struct{ p *PK }
type wrapperVal[PK any] struct{ p PK }

// attestation forms.
type attValue[Sig any] struct {
	root [32]byte
	sig  Sig
}
type attPointer[Sig any] struct {
	root [32]byte
	sig  *Sig
}
type attCompressed struct {
	root [32]byte
	sig  [96]byte
}

// pubkeyCache builds a cache of n validators in the given form.
func pubkeyCache[PK, Sig any](v *values[PK, Sig], form model.Repr, n int) any {
	switch form {
	case "index-slice":
		c := struct {
			index map[[48]byte]int
			keys  []PK
		}{index: map[[48]byte]int{}}
		for i := range n {
			c.index[cacheKey(v.compressed[i%distinct], i)] = i
			c.keys = append(c.keys, v.pk(i))
		}
		return &c
	case "map-pointer":
		m := map[[48]byte]*PK{}
		for i := range n {
			p := new(PK)
			*p = v.pk(i)
			m[cacheKey(v.compressed[i%distinct], i)] = p
		}
		return m
	case "wrapper-pointer":
		c := struct {
			index map[[48]byte]int
			keys  []wrapperPtr[PK]
		}{index: map[[48]byte]int{}}
		for i := range n {
			p := new(PK)
			*p = v.pk(i)
			c.index[cacheKey(v.compressed[i%distinct], i)] = i
			c.keys = append(c.keys, wrapperPtr[PK]{p})
		}
		return &c
	case "wrapper-value":
		c := struct {
			index map[[48]byte]int
			keys  []wrapperVal[PK]
		}{index: map[[48]byte]int{}}
		for i := range n {
			c.index[cacheKey(v.compressed[i%distinct], i)] = i
			c.keys = append(c.keys, wrapperVal[PK]{v.pk(i)})
		}
		return &c
	}
	panic("scenarios: unknown PubkeyCache form " + string(form))
}

// attestationPool builds a pool of n signatures with their roots.
func attestationPool[PK, Sig any](v *values[PK, Sig], form model.Repr, n int) any {
	switch form {
	case "slice-value":
		var pool []attValue[Sig]
		for i := range n {
			pool = append(pool, attValue[Sig]{v.root(i), v.sig(i)})
		}
		return &pool
	case "slice-pointer":
		var pool []attPointer[Sig]
		for i := range n {
			s := new(Sig)
			*s = v.sig(i)
			pool = append(pool, attPointer[Sig]{v.root(i), s})
		}
		return &pool
	case "slice-compressed":
		var pool []attCompressed
		for i := range n {
			pool = append(pool, attCompressed{v.root(i), v.sigBytes[i%distinct]})
		}
		return &pool
	case "map-root":
		m := map[[32]byte]*Sig{}
		for i := range n {
			s := new(Sig)
			*s = v.sig(i)
			r := v.root(i)
			binary.BigEndian.PutUint64(r[24:], uint64(i)) // distinct roots
			m[r] = s
		}
		return m
	}
	panic("scenarios: unknown AttestationPool form " + string(form))
}

// forms lists each scenario's forms and what they hold.
var forms = map[model.Type][]struct {
	repr model.Repr
	what string
}{
	"PubkeyCache": {
		{"index-slice", "map[[48]byte]int index + []PublicKey by index"},
		{"map-pointer", "map[[48]byte]*PublicKey"},
		{"wrapper-pointer", "map[[48]byte]int index + []struct{p *PublicKey}"},
		{"wrapper-value", "map[[48]byte]int index + []struct{p PublicKey}"},
	},
	"AttestationPool": {
		{"slice-value", "[]struct{root [32]byte; sig Signature}"},
		{"slice-pointer", "[]struct{root [32]byte; sig *Signature}"},
		{"slice-compressed", "[]struct{root [32]byte; sig [96]byte} (compressed)"},
		{"map-root", "map[[32]byte]*Signature"},
	},
}

// Suite returns the scenario entries of every library.
func Suite() suites.Suite {
	var es []suites.Entry
	for _, lib := range []func() []suites.Entry{blstEntries, gnarkEntries, circlEntries} {
		es = append(es, lib()...)
	}
	return suites.Suite{Name: "scenarios", Entries: es}
}

// entries returns the scenario entries of one library. prepare makes its
// real values; pkName and sigName name its representations in the
// Constructor text. When unavailable is not zero, the entries are
// unavailable for that reason.
func entries[PK, Sig any](lib model.Lib, pkName, sigName string, prepare func() (*values[PK, Sig], error), unavailable model.Why) []suites.Entry {
	var out []suites.Entry
	for _, typ := range model.Scenarios {
		for _, f := range forms[typ] {
			e := suites.Entry{Key: model.Key{Type: typ, Lib: lib, Repr: f.repr, Layout: model.Collection}, DefaultN: DefaultN}
			if !unavailable.IsZero() {
				e.Unavailable = unavailable
				out = append(out, e)
				continue
			}
			what := f.what
			if typ == "PubkeyCache" {
				e.Constructor = fmt.Sprintf("%s, PublicKey = %s, grown one validator at a time", what, pkName)
			} else {
				e.Constructor = fmt.Sprintf("%s, Signature = %s, grown one attestation at a time", what, sigName)
			}
			typ, form := typ, f.repr
			var size uintptr
			switch {
			case typ == "PubkeyCache":
				size = unsafe.Sizeof(*new(PK))
			case form == "slice-compressed":
				size = unsafe.Sizeof([96]byte{}) // the signature as kept: compressed
			default:
				size = unsafe.Sizeof(*new(Sig))
			}
			e.SizeHint = size
			e.Case = func() memprof.Case {
				var v *values[PK, Sig]
				return memprof.Case{
					SizeOf: size,
					Prepare: func(int) (err error) {
						if v, err = prepare(); err != nil {
							return err
						}
						for j := range distinct {
							v.roots = append(v.roots, root(j))
						}
						return nil
					},
					NewAll: func(n int) any {
						if typ == "PubkeyCache" {
							return pubkeyCache(v, form, n)
						}
						return attestationPool(v, form, n)
					},
				}
			}
			out = append(out, e)
		}
	}
	return out
}

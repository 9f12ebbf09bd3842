package scenarios

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"unsafe"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
	"github.com/memprof/memprof/vocab"
)

// DefaultN is the scale the scenarios are measured at: one million
// validators, the size of Ethereum's validator set.
const DefaultN = 1_000_000

// nWhy is why the scenarios are measured at DefaultN.
const nWhy = "the scenario's real scale: about a million validators on Ethereum's beacon chain"

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
	// cloneSig returns a fresh copy of a signature, as a program holds its
	// own copy of each decoded value.
	cloneSig func(v *Sig) Sig
}

// source is where one library's scenario values come from: the suite's
// own min-pk public keys and signatures, the calls that compress them
// (to 48 and 96 bytes), and, when a plain copy would share memory, how a
// program copies a signature.
type source[PK, Sig any] struct {
	lib vocab.Lib
	// pkName and sigName name the representations in Constructor texts;
	// suitekit.TypeName when empty.
	pkName, sigName string
	pks             func() []PK
	sigs            func() []Sig
	compressPK      func(*PK) ([]byte, error)
	compressSig     func(*Sig) []byte
	cloneSig        func(*Sig) Sig
}

// values computes the library's values and the message roots.
func (s source[PK, Sig]) values() (*values[PK, Sig], error) {
	v := &values[PK, Sig]{pks: s.pks(), sigs: s.sigs(), cloneSig: s.cloneSig}
	if v.cloneSig == nil {
		v.cloneSig = func(sig *Sig) Sig { return *sig }
	}
	for i := range v.pks {
		pk, err := s.compressPK(&v.pks[i])
		if err != nil {
			return nil, fmt.Errorf("%s public key: %w", s.lib, err)
		}
		sig := s.compressSig(&v.sigs[i])
		if len(pk) != 48 || len(sig) != 96 {
			return nil, fmt.Errorf("%s: compressed public key of %d bytes and signature of %d, want 48 and 96", s.lib, len(pk), len(sig))
		}
		v.compressed = append(v.compressed, [48]byte(pk))
		v.sigBytes = append(v.sigBytes, [96]byte(sig))
	}
	for j := range distinct {
		v.roots = append(v.roots, root(j))
	}
	return v, nil
}

// pk and sig return a fresh copy of key and signature i%distinct.
func (v *values[PK, Sig]) pk(i int) PK   { return v.pks[i%len(v.pks)] }
func (v *values[PK, Sig]) sig(i int) Sig { return v.cloneSig(&v.sigs[i%len(v.sigs)]) }

// root returns the message root of attestation i.
func (v *values[PK, Sig]) root(i int) [32]byte { return v.roots[i%distinct] }

// wrapperPtr and wrapperVal are the wrapper structs clients put around a key.
type wrapperPtr[PK any] struct{ p *PK }
type wrapperVal[PK any] struct{ p PK }

// publicKey is the interface a client holds its keys behind (Prysm's
// crypto/bls common.PublicKey): a value of it holds a *wrapperPtr, the
// wrapper struct around a pointer to the library's key, so each validator
// is two objects and the map entry an interface value.
type publicKey[PK any] interface{ point() *PK }

func (w *wrapperPtr[PK]) point() *PK { return w.p }

// lruCapacity is the capacity of the lru form's cache: Prysm's pubkey
// cache holds up to 2,000,000 keys, mainnet's next years.
const lruCapacity = 2_000_000

// lruPopulations are the populations the lru form is measured at: what a
// cache of lruCapacity costs a tenth full and half full.
var lruPopulations = []int{100_000, 1_000_000}

// wrapped returns validator i's key as a client holds it behind
// publicKey: a new key and a new wrapper around it.
func wrapped[PK, Sig any](v *values[PK, Sig], i int) publicKey[PK] {
	p := new(PK)
	*p = v.pk(i)
	return &wrapperPtr[PK]{p}
}

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
func pubkeyCache[PK, Sig any](v *values[PK, Sig], form vocab.Repr, n int) any {
	switch form {
	case "index-slice":
		return indexed(v, n, v.pk)
	case "map-pointer":
		m := map[[48]byte]*PK{}
		for i := range n {
			p := new(PK)
			*p = v.pk(i)
			m[cacheKey(v.compressed[i%distinct], i)] = p
		}
		return m
	case "wrapper-pointer":
		return indexed(v, n, func(i int) wrapperPtr[PK] {
			p := new(PK)
			*p = v.pk(i)
			return wrapperPtr[PK]{p}
		})
	case "wrapper-value":
		return indexed(v, n, func(i int) wrapperVal[PK] { return wrapperVal[PK]{v.pk(i)} })
	case vocab.InterfaceMap:
		m := map[[48]byte]publicKey[PK]{}
		for i := range n {
			m[cacheKey(v.compressed[i%distinct], i)] = wrapped(v, i)
		}
		return m
	case vocab.LRU:
		c, err := lru.New[[48]byte, publicKey[PK]](lruCapacity)
		if err != nil {
			panic("scenarios: " + err.Error())
		}
		for i := range n {
			c.Add(cacheKey(v.compressed[i%distinct], i), wrapped(v, i))
		}
		return c
	}
	panic("scenarios: unknown PubkeyCache form " + string(form))
}

// indexed builds the index forms of a cache of n validators: a map from
// each validator's key to its index, and the keys by index, key i made
// by keyAt(i).
func indexed[PK, Sig, K any](v *values[PK, Sig], n int, keyAt func(i int) K) any {
	c := struct {
		index map[[48]byte]int
		keys  []K
	}{index: map[[48]byte]int{}}
	for i := range n {
		k := keyAt(i)
		c.index[cacheKey(v.compressed[i%distinct], i)] = i
		c.keys = append(c.keys, k)
	}
	return &c
}

// attestationPool builds a pool of n signatures with their roots.
func attestationPool[PK, Sig any](v *values[PK, Sig], form vocab.Repr, n int) any {
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

// forms lists each scenario's forms and what they hold; a form measured
// at several populations (populations) has one entry for each, told apart
// by its key's parameter population=N and measured at exactly that N.
var forms = map[vocab.Type][]struct {
	repr        vocab.Repr
	what        string
	populations []int
}{
	"PubkeyCache": {
		{"index-slice", "map[[48]byte]int index + []PublicKey by index", nil},
		{"map-pointer", "map[[48]byte]*PublicKey", nil},
		{"wrapper-pointer", "map[[48]byte]int index + []struct{p *PublicKey}", nil},
		{"wrapper-value", "map[[48]byte]int index + []struct{p PublicKey}", nil},
		{vocab.InterfaceMap, "map[[48]byte]iface, iface an interface holding a *struct{p *PublicKey} (the wrapper of Prysm's crypto/bls)", nil},
		{vocab.LRU, fmt.Sprintf("github.com/hashicorp/golang-lru/v2 Cache[[48]byte, iface] of capacity %d (iface as in interface-map)", lruCapacity), lruPopulations},
	},
	"AttestationPool": {
		{"slice-value", "[]struct{root [32]byte; sig Signature}", nil},
		{"slice-pointer", "[]struct{root [32]byte; sig *Signature}", nil},
		{"slice-compressed", "[]struct{root [32]byte; sig [96]byte} (compressed)", nil},
		{"map-root", "map[[32]byte]*Signature", nil},
	},
}

// lruModule is the module of the lru form's cache, whose version the
// results record.
const lruModule = "github.com/hashicorp/golang-lru/v2"

// Suite returns the scenario entries of every library.
func Suite() suites.Suite {
	var es []suites.Entry
	for _, lib := range []func() []suites.Entry{blstEntries, gnarkEntries, circlEntries} {
		es = append(es, lib()...)
	}
	return suites.Suite{Name: "scenarios", Modules: []string{lruModule}, Entries: es}
}

// entries returns the scenario entries of the library src takes its
// values from. When unavailable is not zero, the entries are unavailable
// for that reason.
func entries[PK, Sig any](src source[PK, Sig], unavailable vocab.Why) []suites.Entry {
	lib, pkName, sigName := src.lib, src.pkName, src.sigName
	if pkName == "" {
		pkName = suitekit.TypeName[PK]()
	}
	if sigName == "" {
		sigName = suitekit.TypeName[Sig]()
	}
	var out []suites.Entry
	for _, typ := range vocab.Scenarios {
		for _, f := range forms[typ] {
			for _, e := range populations(suites.Entry{Key: results.Key{Type: typ, Lib: lib, Repr: f.repr, Layout: measure.Collection}, DefaultN: DefaultN, NWhy: nWhy}, f.populations) {
				out = append(out, entry(src, e, f.what, pkName, sigName, unavailable))
			}
		}
	}
	return out
}

// populations returns e once for each population (one entry with the
// parameter population=N and N fixed at it), or e itself when there are
// none.
func populations(e suites.Entry, pops []int) []suites.Entry {
	if len(pops) == 0 {
		return []suites.Entry{e}
	}
	var out []suites.Entry
	for _, n := range pops {
		p := e
		p.Param, p.DefaultN, p.FixedN = results.NewParam("population", n), n, n
		out = append(out, p)
	}
	return out
}

// entry completes the scenario entry e of the library src takes its
// values from: its constructor text, size and case, or the reason it is
// unavailable.
func entry[PK, Sig any](src source[PK, Sig], e suites.Entry, what, pkName, sigName string, unavailable vocab.Why) suites.Entry {
	if !unavailable.IsZero() {
		e.Unavailable = unavailable
		return e
	}
	typ, form := e.Type, e.Repr
	if typ == "PubkeyCache" {
		e.Constructor = fmt.Sprintf("%s, PublicKey = %s, grown one validator at a time", what, pkName)
		if e.FixedN > 0 {
			e.Constructor += fmt.Sprintf(", holding %d", e.FixedN)
		}
	} else {
		e.Constructor = fmt.Sprintf("%s, Signature = %s, grown one attestation at a time", what, sigName)
	}
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
				v, err = src.values()
				return err
			},
			NewAll: func(n int) any {
				if typ == "PubkeyCache" {
					return pubkeyCache(v, form, n)
				}
				return attestationPool(v, form, n)
			},
		}
	}
	return e
}

// Package agree proves, before any throughput figure is printed, that the
// libraries compute the same thing. For every case of fixtures/vectors.json
// (20 cases made by blst: 32-byte IKM, messages of varied length, DST
// BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_) each available library must
//
//  1. derive the file's secret key from the IKM (IETF KeyGen), the file's
//     public key from that key and the file's signature of the message,
//     byte for byte;
//  2. verify every library's public key and signature bytes, and reject the
//     signature checked against the next case's message;
//  3. round-trip the public key and the signature through every
//     representation it offers back to the same compressed and uncompressed
//     encodings;
//  4. run go-ethereum's EIP-2537 precompile vectors (fixtures/eip2537:
//     additions, G1 scalar multiplications, pairing checks and the maps to
//     G1 and G2, with their fail- files) where it offers the operation
//     (eip2537.go).
//
// The libraries come from a suites registry (Registry.AgreeLibs). A library this build cannot run (blst
// without cgo) is reported as unavailable, and the others are still checked
// against the file.
package agree

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// fileName is how errors name the reference.
const fileName = "fixtures/vectors.json (made by blst)"

// Disagreement is the error Check returns when a library does not compute
// what the vectors say (suites.Disagreement, which the checks of every
// family return: those given by a suite cannot import this package).
type Disagreement = suites.Disagreement

// Report is the outcome of Check (suites.AgreeReport, which the checks of
// every family return).
type Report = suites.AgreeReport

// Suite gives the registry BLS12-381's value and agreement check; the libraries'
// suites give their parts (Suite.Agree).
func Suite() suites.Suite {
	return suites.Suite{Name: "bls12-381 agreement", Families: []suites.Family{{Family: vocab.BLS12381, Subject: "BLS12-381", KeyOps: keyOps}}, Checks: []suites.FamilyCheck{{Family: vocab.BLS12381, RunOwn: Run,
		Checks: "keys, public keys, signatures byte for byte; each verifies the others'; round trips", Help: help}}}
}

// help is the check's paragraph in verify's help (suites.FamilyCheck.Help).
const help = `BLS: for the 20 cases of fixtures/vectors.json (32-byte IKM, messages of varied
length, DST BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_), every library must
derive the same secret key (IETF KeyGen), public key and signature byte for
byte, verify every library's bytes and reject them for another message, and
round-trip the public key and the signature through each of its
representations to the same encodings. Then every library runs go-ethereum's
EIP-2537 precompile vectors (fixtures/eip2537: G1 and G2 addition, G1 scalar
multiplication, the pairing check, the maps to G1 and G2, and their fail-
files) where it offers the operation, the padded encodings converted, and must
return each output and refuse each failing input; the cases count them. In a
build without cgo, blst is reported unavailable and gnark-crypto and circl are
checked against the files.`

// keyOps lists, per BLS12-381 type, the operations whose cost a
// representation changes most, best first (suites.Family.KeyOps).
// Aggregation is where affine and Jacobian storage differ (blst-ts's
// lesson: affine storage pays a conversion per addition); decoding is
// where the compressed encodings pay.
var keyOps = map[vocab.Type][]vocab.Op{
	"Signature": {"verify", "aggregate", "decompress-checked", "decompress", "to-affine"},
	"PublicKey": {"verify", "aggregate", "fast-aggregate-verify", "decompress-checked", "decompress", "to-affine"},
	"SecretKey": {"sign"},
	"G1":        {"aggregate", "msm", "to-affine-batch", "to-affine", "decompress-checked", "decompress"},
	"G2":        {"pairing-check", "aggregate", "to-affine-batch", "to-affine", "decompress-checked", "decompress"},
}

// Run checks the libraries of r against the embedded vectors: the 20
// cases of fixtures/vectors.json (Check), then the EIP-2537 vectors
// (CheckEIP2537), which the report's cases count too.
func Run(r *suites.Registry) (*Report, error) {
	return Steps[*fixtures.Vectors, suites.AgreeLib]{
		Load: fixtures.Load, Check: Check, Cases: EIP2537Cases, More: CheckEIP2537,
		Available: func(l suites.AgreeLib) bool { return l.Unavailable.IsZero() },
	}.Run(r.AgreeLibs())
}

// Steps are an agreement check in two steps: the vectors Load returns,
// which Check checks every library against, then a second set, which
// More checks the Available libraries against and whose Cases the report
// counts too.
type Steps[V, L any] struct {
	Load      func() (V, error)
	Check     func(V, []L) (*Report, error)
	Cases     func() (int, error)
	More      func([]L) error
	Available func(L) bool
}

// Run runs the steps on libs. The report is returned with the error too,
// once Check has made it.
func (s Steps[V, L]) Run(libs []L) (*Report, error) {
	v, err := s.Load()
	if err != nil {
		return nil, err
	}
	rep, err := s.Check(v, libs)
	if err != nil {
		return rep, err
	}
	n, err := s.Cases()
	if err != nil {
		return rep, err
	}
	rep.Cases += n
	var avail []L
	for _, l := range libs {
		if s.Available(l) {
			avail = append(avail, l)
		}
	}
	return rep, s.More(avail)
}

// Check checks libs against v; see the package documentation. The report
// is returned with the error too (it says which libraries took part). The
// error is a *Disagreement when a library computes something else, or
// another error when no library can be checked.
func Check(v *fixtures.Vectors, libs []suites.AgreeLib) (*Report, error) {
	rep, avail, err := Available("agreement", len(v.Cases), libs, func(l suites.AgreeLib) (vocab.Lib, vocab.Why) { return l.Lib, l.Unavailable })
	if err != nil {
		return rep, err
	}
	if string(suites.OpDST) != v.DST {
		return rep, fmt.Errorf("checking agreement: vectors use DST %q, the libraries %q", v.DST, suites.OpDST)
	}
	for i, c := range v.Cases {
		made, err := checkOutputs(c, avail)
		if err != nil {
			return rep, err
		}
		next := v.Cases[(i+1)%len(v.Cases)].Msg
		if err := checkVerify(c, next, avail, made); err != nil {
			return rep, err
		}
		if err := checkRoundTrips(c, avail); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// Available starts the report of a check (what: "agreement") on cases:
// it returns the report, naming the libraries of libs that take part and
// those that cannot with why, and the libraries that take part, in the
// order of libs. lib reads a library's name and why it cannot take part
// (zero when it can). The error says that none can.
func Available[L any](what string, cases int, libs []L, lib func(L) (vocab.Lib, vocab.Why)) (*Report, []L, error) {
	rep := &Report{Cases: cases, Unavailable: map[vocab.Lib]string{}}
	var avail []L
	for _, l := range libs {
		name, why := lib(l)
		if !why.IsZero() {
			rep.Unavailable[name] = why.Reason
			continue
		}
		avail = append(avail, l)
		rep.Libs = append(rep.Libs, name)
	}
	slices.Sort(rep.Libs)
	if len(avail) == 0 {
		return rep, nil, fmt.Errorf("checking %s: no library available", what)
	}
	return rep, avail, nil
}

// made is what one library produced for a case.
type made struct{ pk, sig []byte }

// checkOutputs compares each library's key, public key and signature with
// the file, and returns each library's public key and signature.
func checkOutputs(c fixtures.Case, libs []suites.AgreeLib) (map[vocab.Lib]made, error) {
	out := map[vocab.Lib]made{}
	steps := []struct {
		check string
		want  []byte
		fn    func(l suites.AgreeLib) ([]byte, error)
	}{
		{"secret key (KeyGen)", c.SK, func(l suites.AgreeLib) ([]byte, error) { return l.KeyGen(c.IKM) }},
		{"public key", c.PK, func(l suites.AgreeLib) ([]byte, error) { return l.PublicKey(c.SK) }},
		{"signature", c.Sig, func(l suites.AgreeLib) ([]byte, error) { return l.Sign(c.SK, c.Msg) }},
	}
	for _, s := range steps {
		got := map[vocab.Lib][]byte{}
		var errs []*Disagreement
		for _, l := range libs {
			b, err := s.fn(l)
			if err != nil {
				errs = append(errs, &Disagreement{Case: c.Name, Check: s.check, Lib: l.Lib, Against: fileName, Detail: err.Error()})
				continue
			}
			got[l.Lib] = b
		}
		for _, l := range libs {
			if b, ok := got[l.Lib]; ok && !bytes.Equal(b, s.want) {
				errs = append(errs, &Disagreement{Case: c.Name, Check: s.check, Lib: l.Lib, Against: fileName, Got: b, Want: s.want})
			}
		}
		if len(errs) > 0 {
			d := errs[0]
			for lib, b := range got {
				if bytes.Equal(b, s.want) {
					d.Agreeing = append(d.Agreeing, lib)
				}
			}
			slices.Sort(d.Agreeing)
			return nil, d
		}
		for lib, b := range got {
			m := out[lib]
			switch s.check {
			case "public key":
				m.pk = b
			case "signature":
				m.sig = b
			}
			out[lib] = m
		}
	}
	return out, nil
}

// checkVerify has every library verify the public key and signature bytes
// every library produced, and reject the signature against another
// message.
func checkVerify(c fixtures.Case, other []byte, libs []suites.AgreeLib, byLib map[vocab.Lib]made) error {
	for _, verifier := range libs {
		for _, producer := range libs {
			m := byLib[producer.Lib]
			ok, err := verifier.Verify(m.pk, c.Msg, m.sig)
			if err != nil || !ok {
				detail := "rejects the signature"
				if err != nil {
					detail = err.Error()
				}
				return &Disagreement{Case: c.Name, Check: "verify", Lib: verifier.Lib, Against: string(producer.Lib) + " (public key and signature made by it)", Detail: detail}
			}
		}
		if !bytes.Equal(other, c.Msg) {
			ok, err := verifier.Verify(c.PK, other, c.Sig)
			if err == nil && ok {
				return &Disagreement{Case: c.Name, Check: "verify of another message", Lib: verifier.Lib, Against: fileName, Detail: "accepts the signature for a message that was not signed"}
			}
		}
	}
	return nil
}

// checkRoundTrips decodes the public key and the signature into every
// representation of every library and compares the re-encodings.
func checkRoundTrips(c fixtures.Case, libs []suites.AgreeLib) error {
	for _, p := range []struct {
		typ        vocab.Type
		comp, unco []byte
	}{{"PublicKey", c.PK, c.PKUncompressed}, {"Signature", c.Sig, c.SigUncompressed}} {
		for _, l := range libs {
			trips, err := l.RoundTrips(p.typ, p.comp)
			if err != nil {
				return &Disagreement{Case: c.Name, Check: string(p.typ) + " round trip", Lib: l.Lib, Against: fileName, Detail: err.Error()}
			}
			if len(trips) == 0 {
				return &Disagreement{Case: c.Name, Check: string(p.typ) + " round trip", Lib: l.Lib, Against: fileName, Detail: "no representation round-tripped"}
			}
			for _, t := range trips {
				if !bytes.Equal(t.Compressed, p.comp) {
					return &Disagreement{Case: c.Name, Check: string(p.typ) + " round trip through " + string(t.Repr) + " (compressed)", Lib: l.Lib, Against: fileName, Got: t.Compressed, Want: p.comp}
				}
				if !bytes.Equal(t.Uncompressed, p.unco) {
					return &Disagreement{Case: c.Name, Check: string(p.typ) + " round trip through " + string(t.Repr) + " (uncompressed)", Lib: l.Lib, Against: fileName, Got: t.Uncompressed, Want: p.unco}
				}
			}
		}
	}
	return nil
}

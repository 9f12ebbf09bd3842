// Package secp256k1 is the secp256k1 part of the agreement check: before
// any secp256k1 figure is printed, the libraries (libsecp256k1 through
// go-ethereum, decred) must compute the same thing, and what vectors
// nobody here wrote say. Each available library must
//
//  1. derive ops.json's public keys and address from its key (the address
//     is go-ethereum's own test answer), sign its hash to its R‖S‖V, and
//     recover and verify it (fixtures.Secp256k1OpsFile);
//  2. for the Distinct keys the instance cases hold, derive byte-identical
//     public keys and RFC 6979 signatures (R‖S‖V, and DER where the
//     library has it, equal to encoding/asn1's), verify every library's
//     signature, recover the same key, and convert between the encodings;
//  3. give go-ethereum's ecRecover precompile vectors their expected output
//     with the precompile's rules (fixtures.EcRecoverFile);
//  4. accept exactly the valid tests of Wycheproof's bitcoin file: strict
//     DER, Ethereum's low-S rule, ECDSA (fixtures.WycheproofBitcoinFile);
//  5. on Wycheproof's P1363 file (R‖S, a high S valid): accept the valid
//     tests with a low S under Ethereum's rule and refuse the others,
//     accept every valid test under the library's own verification (or,
//     for libsecp256k1, which refuses a high S itself, its N − S twin),
//     refuse the invalid ones, and recover the test's public key from each
//     valid signature with one of the recovery ids 0 to 3, every library
//     the same key or failure for each id (fixtures.WycheproofP1363File).
//
// Ethereum's rules are the harness's (secpkit.EthereumRule,
// secpkit.PrecompileRule), applied once for all libraries. A library
// without DER (libsecp256k1 as go-ethereum binds it) verifies the R‖S the
// others parsed from the bitcoin file's DER. A library this build cannot
// run is reported unavailable; the others are still checked.
package secp256k1

import (
	"bytes"
	"crypto/sha256"
	"fmt"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	"github.com/memprof/memprof/suites/internal/secpkit"
	"github.com/memprof/memprof/vocab"
)

// Check is the family's agreement check, as a suite registers it.
var Check = suites.FamilyCheck{Family: vocab.Secp256k1, Run: Run,
	Checks: "public keys, addresses and RFC 6979 signatures byte for byte; each verifies and recovers the others'; go-ethereum's ecRecover and Wycheproof's ECDSA vectors accepted and rejected as they say", Help: help}

// help is the check's paragraph in verify's help (suites.FamilyCheck.Help).
const help = `secp256k1: go-ethereum's libsecp256k1 (on bytes), go-ethereum's own
*ecdsa.PrivateKey and *ecdsa.PublicKey (on every path that has them) and
decred must derive the public keys
and address of fixtures/secp256k1/ops.json's key (go-ethereum's own test
answer) and its RFC 6979 signature; derive byte-identical keys and R‖S‖V
signatures for 64 more keys and verify and recover each other's; give
go-ethereum's ecRecover precompile vectors their output; and accept exactly
what Wycheproof's ECDSA secp256k1 SHA-256 vectors accept (DER with Ethereum's
low-S rule; R‖S, where a high S verifies only without the rule, and recovers
the test's key). In a build without cgo, libsecp256k1 and go-ethereum are
reported unavailable and decred is checked against the files.`

// Run checks libs against the embedded vectors.
func Run(libs []suites.FamilyAgreeLib) (*suites.AgreeReport, error) {
	v, err := fixtures.LoadSecp256k1()
	if err != nil {
		return nil, err
	}
	return CheckVectors(v, libs)
}

// lib is one available library.
type lib struct {
	name vocab.Lib
	*secpkit.AgreeLib
}

// Cases is the number of cases CheckVectors runs on v.
func Cases(v *fixtures.Secp256k1Vectors) int {
	return 1 + secpkit.Distinct + len(v.EcRecover) + v.Bitcoin.NumberOfTests + v.P1363.NumberOfTests
}

// CheckVectors checks libs against v; see the package documentation. The
// report is returned with the error too. The error is an
// *agree.Disagreement when a library computes something else, or another
// error when no library can be checked.
func CheckVectors(v *fixtures.Secp256k1Vectors, libs []suites.FamilyAgreeLib) (*suites.AgreeReport, error) {
	rep, avail, err := agree.Available("secp256k1 agreement", Cases(v), libs, func(l suites.FamilyAgreeLib) (vocab.Lib, vocab.Why) { return l.Lib, l.Unavailable })
	if err != nil {
		return rep, err
	}
	var ls []lib
	for _, l := range avail {
		impl, ok := l.Impl.(*secpkit.AgreeLib)
		if !ok {
			return rep, fmt.Errorf("secp256k1 agreement lib %s: Impl is %T, want *secpkit.AgreeLib", l.Lib, l.Impl)
		}
		ls = append(ls, lib{l.Lib, impl})
	}
	for _, step := range []func(*fixtures.Secp256k1Vectors, []lib) error{checkOps, checkDistinct, checkEcRecover, checkBitcoin, checkP1363} {
		if err := step(v, ls); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// differs is the disagreement of l on check in case, against what.
func differs(c, check string, l lib, against string, got, want []byte, detail string) *agree.Disagreement {
	return &agree.Disagreement{Case: c, Check: check, Lib: l.name, Against: against, Got: got, Want: want, Detail: detail}
}

// same compares a library's bytes with want; a library error is a
// disagreement with its message.
func same(c, check string, l lib, against string, got, want []byte, err error) error {
	if err != nil {
		return differs(c, check, l, against, nil, want, "error: "+err.Error())
	}
	if !bytes.Equal(got, want) {
		return differs(c, check, l, against, got, want, "")
	}
	return nil
}

// verifies is a library's verification of rs under Ethereum's rule: the
// rule, then the library.
func verifies(l lib, pub, hash, rs []byte) bool {
	if !secpkit.EthereumRule(rs) {
		return false
	}
	ok, err := l.Verify(pub, hash, rs)
	return err == nil && ok
}

func checkOps(v *fixtures.Secp256k1Vectors, ls []lib) error {
	o, file := v.Ops, fixtures.Secp256k1OpsFile
	const c = "ops.json"
	for _, l := range ls {
		comp, unc, err := l.PublicKey(o.SecretKey)
		if err := same(c, "compressed public key", l, file, comp, o.Compressed, err); err != nil {
			return err
		}
		if err := same(c, "uncompressed public key", l, file, unc, o.Uncompressed, nil); err != nil {
			return err
		}
		addr, err := l.Address(o.SecretKey)
		if err := same(c, "address (go-ethereum's testAddrHex)", l, file, addr, o.Address, err); err != nil {
			return err
		}
		sig, err := l.Sign(o.SecretKey, o.Hash)
		if err := same(c, "signature R‖S‖V (RFC 6979)", l, file, sig, o.RSV, err); err != nil {
			return err
		}
		if l.EncodeDER != nil {
			der, err := l.EncodeDER(o.RSV[:64])
			if err := same(c, "DER", l, file, der, o.DER, err); err != nil {
				return err
			}
		}
		pub, err := l.Recover(o.Hash, o.RSV)
		if err := same(c, "recovered public key", l, file, pub, o.Uncompressed, err); err != nil {
			return err
		}
		twin := secpkit.Twin(o.RSV)
		pub, err = l.Recover(o.Hash, twin)
		if err := same(c, "public key recovered from the high-S twin (N − S, V flipped)", l, file, pub, o.Uncompressed, err); err != nil {
			return err
		}
		for _, t := range []struct {
			what string
			hash []byte
			rs   []byte
			want bool
		}{
			{"verify", o.Hash, o.RSV[:64], true},
			{"verify against another hash", o.OtherHash, o.RSV[:64], false},
			{"verify the high-S twin under Ethereum's rule", o.Hash, twin[:64], false},
		} {
			if got := verifies(l, o.Uncompressed, t.hash, t.rs); got != t.want {
				return differs(c, t.what, l, file, nil, nil, fmt.Sprintf("got %v, want %v", got, t.want))
			}
		}
		ok, err := l.Verify(o.Uncompressed, o.Hash, twin[:64])
		if err != nil || ok != l.VerifiesHighS {
			return differs(c, "the library's own verification of the high-S twin", l, file, nil, nil, fmt.Sprintf("got %v (%v), want %v: the library says whether it accepts a high S (VerifiesHighS)", ok, err, l.VerifiesHighS))
		}
	}
	return nil
}

// made is what one library made of one of the Distinct keys.
type made struct{ comp, unc, rsv, der []byte }

func checkDistinct(_ *fixtures.Secp256k1Vectors, ls []lib) error {
	for i := range secpkit.Distinct {
		c := fmt.Sprintf("key %d", i)
		sk, hash := secpkit.KeyBytes(i), secpkit.Hash(i)
		if !secpkit.Valid(&sk) {
			return fmt.Errorf("secp256k1 agreement: %s: SHA-256 of its seed is not below N", c)
		}
		ms := make([]made, len(ls))
		for j, l := range ls {
			m := &ms[j]
			var err error
			if m.comp, m.unc, err = l.PublicKey(sk[:]); err != nil {
				return differs(c, "public key", l, "the others", nil, nil, "error: "+err.Error())
			}
			if m.rsv, err = l.Sign(sk[:], hash[:]); err != nil {
				return differs(c, "signature", l, "the others", nil, nil, "error: "+err.Error())
			}
			if l.EncodeDER != nil {
				want, err := secpkit.DERFromRS(m.rsv[:64])
				if err != nil {
					return err
				}
				m.der, err = l.EncodeDER(m.rsv[:64])
				if err := same(c, "DER", l, "encoding/asn1", m.der, want, err); err != nil {
					return err
				}
			}
		}
		ref := ms[0]
		for j, l := range ls[1:] {
			m := ms[j+1]
			against := string(ls[0].name)
			for _, s := range []struct {
				what      string
				got, want []byte
			}{{"compressed public key", m.comp, ref.comp}, {"uncompressed public key", m.unc, ref.unc}, {"signature R‖S‖V (RFC 6979)", m.rsv, ref.rsv}} {
				if err := same(c, s.what, l, against, s.got, s.want, nil); err != nil {
					return err
				}
			}
		}
		for _, l := range ls {
			if !verifies(l, ref.unc, hash[:], ref.rsv[:64]) || !verifies(l, ref.comp, hash[:], ref.rsv[:64]) {
				return differs(c, "verify every library's signature under either encoding", l, "the others", nil, nil, "did not verify")
			}
			pub, err := l.Recover(hash[:], ref.rsv)
			if err := same(c, "recovered public key", l, "the others", pub, ref.unc, err); err != nil {
				return err
			}
			u, err := l.Decompress(ref.comp)
			if err := same(c, "decompressed public key", l, "the others", u, ref.unc, err); err != nil {
				return err
			}
			cp, err := l.Compress(ref.unc)
			if err := same(c, "compressed public key from the uncompressed", l, "the others", cp, ref.comp, err); err != nil {
				return err
			}
			if l.ParseDER != nil {
				der, _ := secpkit.DERFromRS(ref.rsv[:64])
				rs, err := l.ParseDER(der)
				if err := same(c, "R‖S parsed from DER", l, "the others", rs, ref.rsv[:64], err); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// precompile is the ecRecover precompile on one library: the input padded
// to 128 bytes (hash, v, r, s), v 27 or 28 with 31 zero bytes before it,
// r and s in [1, N) (a high S allowed), recovery, and the address
// left-padded to 32 bytes; nothing when any of these fails.
func precompile(l lib, v fixtures.EcRecoverVector) []byte {
	in := v.Padded()
	if !bytes.Equal(in[32:63], make([]byte, 31)) || (in[63] != 27 && in[63] != 28) {
		return nil
	}
	rsv := append(bytes.Clone(in[64:128]), in[63]-27)
	if !secpkit.PrecompileRule(rsv[:64]) {
		return nil
	}
	pub, err := l.Recover(in[:32], rsv)
	if err != nil {
		return nil
	}
	a := secpkit.Address(pub)
	return append(make([]byte, 12), a[:]...)
}

func checkEcRecover(v *fixtures.Secp256k1Vectors, ls []lib) error {
	for _, e := range v.EcRecover {
		for _, l := range ls {
			if got := precompile(l, e); !bytes.Equal(got, e.Expected) {
				return differs(e.Name, "ecRecover precompile output", l, fixtures.EcRecoverFile, got, e.Expected, "")
			}
		}
	}
	return nil
}

// wycheproofCase names a test in disagreements.
func wycheproofCase(w *fixtures.Wycheproof, t fixtures.WycheproofTest) string {
	return fmt.Sprintf("%s tcId %d (%s)", w.File(), t.TcID, t.Comment)
}

func checkBitcoin(v *fixtures.Secp256k1Vectors, ls []lib) error {
	w := v.Bitcoin
	for _, g := range w.TestGroups {
		for _, t := range g.Tests {
			c := wycheproofCase(w, t)
			hash := sha256.Sum256(t.Msg)
			// The R‖S the DER parsers agree on, or nil when they refuse it.
			var rs []byte
			parsedBy := vocab.Lib("")
			for _, l := range ls {
				if l.ParseDER == nil {
					continue
				}
				got, err := l.ParseDER(t.Sig)
				if err != nil {
					got = nil
				}
				if parsedBy == "" {
					rs, parsedBy = got, l.name
				} else if !bytes.Equal(got, rs) {
					return differs(c, "R‖S parsed from DER", l, string(parsedBy), got, rs, "")
				}
			}
			for _, l := range ls {
				ok := rs != nil && verifies(l, g.PublicKey.Uncompressed, hash[:], rs)
				if ok != t.Valid() {
					return differs(c, "verify (strict DER, low S)", l, w.File(), nil, nil, fmt.Sprintf("got %v, want %s (flags %v)", ok, t.Result, t.Flags))
				}
			}
		}
	}
	return nil
}

func checkP1363(v *fixtures.Secp256k1Vectors, ls []lib) error {
	w := v.P1363
	for _, g := range w.TestGroups {
		pub := g.PublicKey.Uncompressed
		for _, t := range g.Tests {
			c := wycheproofCase(w, t)
			hash := sha256.Sum256(t.Msg)
			if len(t.Sig) != secpkit.RSBytes {
				if t.Valid() {
					return fmt.Errorf("secp256k1 agreement: %s: a valid signature of %d bytes", c, len(t.Sig))
				}
				continue // every library's verification takes exactly 64 bytes
			}
			highS := secpkit.IsHighS(t.Sig)
			for _, l := range ls {
				if got, want := verifies(l, pub, hash[:], t.Sig), t.Valid() && !highS; got != want {
					return differs(c, "verify under Ethereum's rule", l, w.File(), nil, nil, fmt.Sprintf("got %v, want %v (%s, high S %v)", got, want, t.Result, highS))
				}
				own, err := l.Verify(pub, hash[:], t.Sig)
				own = own && err == nil
				want := t.Valid() && (!highS || l.VerifiesHighS)
				if own != want {
					return differs(c, "the library's own verification", l, w.File(), nil, nil, fmt.Sprintf("got %v, want %v (%s, high S %v, the library accepts a high S: %v)", own, want, t.Result, highS, l.VerifiesHighS))
				}
				if t.Valid() && highS {
					if ok, err := l.Verify(pub, hash[:], secpkit.Twin(t.Sig)); err != nil || !ok {
						return differs(c, "verify the low-S twin (N − S) of a valid high-S signature", l, w.File(), nil, nil, fmt.Sprintf("got %v (%v), want true", ok, err))
					}
				}
			}
			if t.Valid() {
				if err := checkRecovery(c, w.File(), pub, hash[:], t.Sig, ls); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkRecovery recovers the key of a valid R‖S with each recovery id:
// every library must give the same key or fail for each, and one id must
// give the test's key.
func checkRecovery(c, file string, want, hash, rs []byte, ls []lib) error {
	found := false
	for id := byte(0); id < 4; id++ {
		rsv := append(bytes.Clone(rs), id)
		var ref []byte
		for j, l := range ls {
			got, err := l.Recover(hash, rsv)
			if err != nil {
				got = nil
			}
			if j == 0 {
				ref = got
			} else if !bytes.Equal(got, ref) {
				return differs(c, fmt.Sprintf("key recovered with recovery id %d", id), l, string(ls[0].name), got, ref, "")
			}
		}
		found = found || bytes.Equal(ref, want)
	}
	if !found {
		return differs(c, "recovery", ls[0], file, nil, want, "no recovery id 0-3 gives the test's public key")
	}
	return nil
}

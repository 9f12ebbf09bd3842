package results

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/vocab"
)

// TestTypeFamily: every type of the vocabulary belongs to exactly one
// family, as the table of families says; names outside it to none.
func TestTypeFamily(t *testing.T) {
	tests := []struct {
		typ  vocab.Type
		want vocab.Family
	}{
		{vocab.SecretKey, vocab.BLS12381}, {vocab.PublicKey, vocab.BLS12381}, {vocab.Signature, vocab.BLS12381}, {vocab.G1, vocab.BLS12381}, {vocab.G2, vocab.BLS12381},
		{vocab.PubkeyCache, vocab.BLS12381}, {vocab.AttestationPool, vocab.BLS12381},
		{vocab.Blob, vocab.KZG}, {vocab.Commitment, vocab.KZG}, {vocab.Proof, vocab.KZG}, {vocab.KZGCell, vocab.KZG}, {vocab.CellsAndProofs, vocab.KZG}, {vocab.KZGContext, vocab.KZG}, {vocab.PeerDASNode, vocab.KZG},
		{vocab.Secp256k1SecretKey, vocab.Secp256k1}, {vocab.Secp256k1PublicKey, vocab.Secp256k1}, {vocab.Secp256k1Signature, vocab.Secp256k1}, {vocab.SenderCache, vocab.Secp256k1},
		{vocab.BN254G1, vocab.BN254}, {vocab.BN254G2, vocab.BN254}, {vocab.Groth16VerifyingKey, vocab.BN254},
		{vocab.MLKEMDecapsulationKey, vocab.MLKEM}, {vocab.MLKEMEncapsulationKey, vocab.MLKEM}, {vocab.MLKEMCiphertext, vocab.MLKEM}, {vocab.TLSHandshakes, vocab.MLKEM},
		{vocab.MLDSAPrivateKey, vocab.MLDSA}, {vocab.MLDSAPublicKey, vocab.MLDSA}, {vocab.MLDSASignature, vocab.MLDSA}, {vocab.MLDSAPubkeyCache, vocab.MLDSA},
		{vocab.SLHDSAPrivateKey, vocab.SLHDSA}, {vocab.SLHDSAPublicKey, vocab.SLHDSA}, {vocab.SLHDSASignature, vocab.SLHDSA},
		{"Unknown", ""}, {"", ""},
	}
	var listed []vocab.Type
	for _, tt := range tests {
		if got := tt.typ.Family(); got != tt.want {
			t.Errorf("%q.Family(): got %q, want %q", tt.typ, got, tt.want)
		}
		if got := (Key{Type: tt.typ}).Family(); got != tt.want {
			t.Errorf("Key{Type: %q}.Family(): got %q, want %q", tt.typ, got, tt.want)
		}
		if tt.want != "" {
			listed = append(listed, tt.typ)
		}
	}
	// The table above covers the whole vocabulary, in its order: a type
	// added without a test here fails.
	if !slices.Equal(listed, vocab.Types) {
		t.Errorf("the test lists %v, the vocabulary %v", listed, vocab.Types)
	}
	for _, f := range vocab.Families {
		for _, ty := range f.Types() {
			if ty.Family() != f {
				t.Errorf("%s.Types() holds %s, whose family is %q", f, ty, ty.Family())
			}
		}
	}
}

// TestFamilyNames: one name and one order per family; the names are those
// --type takes, and no family's name is a type's.
func TestFamilyNames(t *testing.T) {
	want := []string{"bls12-381", "kzg", "secp256k1", "bn254", "ml-kem", "ml-dsa", "slh-dsa"}
	if got := vocab.Strings(vocab.Families); !slices.Equal(got, want) {
		t.Errorf("Families: got %v, want %v", got, want)
	}
	for _, f := range vocab.Families {
		if f.String() != string(f) {
			t.Errorf("String: got %q, want %q", f.String(), string(f))
		}
		if _, err := vocab.Canonical("type", string(f), vocab.Types); err == nil {
			t.Errorf("family %s is also a type's name", f)
		}
		if _, err := vocab.Canonical("family", strings.ToUpper(string(f)), vocab.Families); err != nil {
			t.Errorf("Canonical(%q): %v", strings.ToUpper(string(f)), err)
		}
	}
}

// TestVocabularyUnchanged: the names that predate families keep their
// place at the head of the lists, so that every existing ordering, table
// and results file reads as before.
func TestVocabularyUnchanged(t *testing.T) {
	before := []struct {
		name       string
		got, wantP []string
	}{
		{"types", vocab.Strings(vocab.Types), []string{"SecretKey", "PublicKey", "Signature", "G1", "G2", "PubkeyCache", "AttestationPool", "Blob", "Commitment", "Proof", "Cell", "CellsAndProofs", "KZGContext", "PeerDASNode"}},
		{"libs", vocab.Strings(vocab.Libs), []string{"blst", "gnark", "circl", "ckzg", "gokzg"}},
		{"ops", vocab.Strings(vocab.Ops), []string{"compress", "serialize", "decompress", "decompress-checked", "to-affine", "to-affine-batch", "aggregate", "sign", "verify", "fast-aggregate-verify", "batch-verify", "pairing-ctx-verify", "pairing-check", "msm",
			"blob-to-commitment", "compute-blob-proof", "verify-blob-proof", "verify-blob-proof-batch", "compute-cells-and-proofs", "verify-cell-proof-batch", "recover-cells-and-proofs"}},
		{"reprs", vocab.Strings(vocab.Reprs), []string{"scalar", "affine", "jacobian", "projective", "compressed", "uncompressed", "prepared", "index-slice", "map-pointer", "wrapper-pointer", "wrapper-value", "slice-value", "slice-pointer", "slice-compressed", "map-root", "interface-map", "lru", "bytes", "decoded", "packed"}},
	}
	for _, b := range before {
		if len(b.got) < len(b.wantP) || !slices.Equal(b.got[:len(b.wantP)], b.wantP) {
			t.Errorf("%s: got %v, want it to start with %v", b.name, b.got, b.wantP)
		}
		if len(slices.Compact(slices.Sorted(slices.Values(b.got)))) != len(b.got) {
			t.Errorf("%s: a name twice in %v", b.name, b.got)
		}
	}
	if !slices.Equal(vocab.ObjectTypes, []vocab.Type{vocab.SecretKey, vocab.PublicKey, vocab.Signature, vocab.G1, vocab.G2}) || !slices.Equal(vocab.Scenarios, []vocab.Type{vocab.PubkeyCache, vocab.AttestationPool}) {
		t.Errorf("all = %v, scenarios = %v: want BLS12-381's, as before families", vocab.ObjectTypes, vocab.Scenarios)
	}
	if !slices.Equal(vocab.KZGTypes, vocab.KZG.Types()) || !slices.Equal(vocab.KZGOps, vocab.KZG.Ops()) {
		t.Errorf("KZGTypes and KZGOps are not the KZG family's")
	}
}

// TestLibFamilies: a library's families, and the libraries every family
// has; gnark and circl serve several under one name.
func TestLibFamilies(t *testing.T) {
	tests := []struct {
		lib  vocab.Lib
		want []vocab.Family
	}{
		{vocab.Blst, []vocab.Family{vocab.BLS12381}},
		{vocab.Gnark, []vocab.Family{vocab.BLS12381, vocab.BN254}},
		{vocab.Circl, []vocab.Family{vocab.BLS12381, vocab.MLKEM, vocab.MLDSA, vocab.SLHDSA}},
		{vocab.CKZG, []vocab.Family{vocab.KZG}}, {vocab.GoKZG, []vocab.Family{vocab.KZG}},
		{vocab.Libsecp256k1, []vocab.Family{vocab.Secp256k1}}, {vocab.GoEthereum, []vocab.Family{vocab.Secp256k1}}, {vocab.Decred, []vocab.Family{vocab.Secp256k1}},
		{vocab.BN256Cloudflare, []vocab.Family{vocab.BN254}}, {vocab.BN256Google, []vocab.Family{vocab.BN254}}, {vocab.BN256Gnark, []vocab.Family{vocab.BN254}},
		{vocab.Stdlib, []vocab.Family{vocab.MLKEM}}, {vocab.FilippoMLDSA, []vocab.Family{vocab.MLDSA}},
		{"openssl", nil},
	}
	var listed []vocab.Lib
	for _, tt := range tests {
		if got := tt.lib.Families(); !slices.Equal(got, tt.want) {
			t.Errorf("%s.Families(): got %v, want %v", tt.lib, got, tt.want)
		}
		for _, f := range vocab.Families {
			if got, want := f.HasLib(tt.lib), slices.Contains(tt.want, f); got != want {
				t.Errorf("%s.HasLib(%s): got %v, want %v", f, tt.lib, got, want)
			}
		}
		if tt.want != nil {
			listed = append(listed, tt.lib)
		}
	}
	if !slices.Equal(listed, vocab.Libs) {
		t.Errorf("the test lists %v, the vocabulary %v", listed, vocab.Libs)
	}
	// The names issues 24 and 25 fixed (a contract).
	for _, name := range []vocab.Lib{"libsecp256k1", "go-ethereum", "decred", "bn256-cloudflare", "bn256-google", "bn256-gnark", "gnark", "stdlib", "circl", "filippo-mldsa"} {
		if !vocab.Known(name, vocab.Libs) {
			t.Errorf("lib %q is not in the vocabulary", name)
		}
	}
}

// TestSchemeIsBLSOnly: the scheme belongs to BLS12-381's public keys and
// signatures, and to no type of another family.
func TestSchemeIsBLSOnly(t *testing.T) {
	for _, ty := range vocab.Types {
		want := ty == vocab.PublicKey || ty == vocab.Signature
		if got := ty.HasScheme(); got != want {
			t.Errorf("%s.HasScheme(): got %v, want %v", ty, got, want)
		}
		if ty.HasScheme() && ty.Family() != vocab.BLS12381 {
			t.Errorf("%s has a scheme but is of family %s", ty, ty.Family())
		}
		if ty.Family() != vocab.BLS12381 && ty.DefaultScheme() != "" {
			t.Errorf("%s: default scheme %q, want none", ty, ty.DefaultScheme())
		}
	}
	k := Key{Type: vocab.Secp256k1Signature, Lib: vocab.Decred, Repr: vocab.RSV, Layout: measure.Pointer}
	if k.Normalize().Scheme != "" || k.HasSchemeMismatch() {
		t.Errorf("%s: normalized scheme %q, mismatch %v: want none", k, k.Normalize().Scheme, k.HasSchemeMismatch())
	}
	if k.Scheme = vocab.MinPk; !k.HasSchemeMismatch() {
		t.Errorf("a Secp256k1Signature with scheme min-pk is not a mismatch")
	}
}

// TestFamilyMismatch: a key's library and operation must be its type's
// family's.
func TestFamilyMismatch(t *testing.T) {
	tests := []struct {
		key  Key
		want string // "" for none
	}{
		{Key{Type: vocab.Signature, Lib: vocab.Gnark}, ""},
		{Key{Type: vocab.BN254G1, Lib: vocab.Gnark}, ""},
		{Key{Type: vocab.MLDSAPublicKey, Lib: vocab.Circl, Op: vocab.Verify}, ""},
		{Key{Type: vocab.Secp256k1Signature, Lib: vocab.Decred, Op: vocab.Sign}, ""},
		{Key{Type: vocab.Signature, Lib: vocab.Decred}, "lib decred is not a library of family bls12-381 (blst, gnark, circl)"},
		{Key{Type: vocab.BN254G1, Lib: vocab.Blst}, "lib blst is not a library of family bn254"},
		{Key{Type: vocab.Blob, Lib: vocab.Gnark}, "lib gnark is not a library of family kzg (ckzg, gokzg)"},
		{Key{Type: vocab.Secp256k1Signature, Lib: vocab.Decred, Op: vocab.FastAggregateVerify}, "op fast-aggregate-verify is not an operation of family secp256k1"},
		{Key{Type: vocab.Signature, Lib: vocab.Blst, Op: vocab.BlobToCommitment}, "op blob-to-commitment is not an operation of family bls12-381"},
		// Names outside the vocabulary are the name checks' to report.
		{Key{Type: vocab.Signature, Lib: "openssl", Op: "verfy"}, ""},
		{Key{Type: "Unknown", Lib: vocab.Decred}, ""},
		{Key{Name: "mine"}, ""},
	}
	for _, tt := range tests {
		got := tt.key.FamilyMismatch()
		if (got == "") != (tt.want == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.key, got, tt.want)
		}
	}
}

// TestParameterSetParam: a parameter set spelled as the standards spell it
// is a Param: it passes Check, names the case and sorts by name.
func TestParameterSetParam(t *testing.T) {
	for _, p := range []Param{"set=ML-KEM-768", "set=ML-KEM-1024", "set=ML-DSA-65", "set=SLH-DSA-SHA2-128s", "set=SLH-DSA-SHAKE-128f"} {
		if err := p.Check(); err != nil {
			t.Errorf("Check(%q): %v", p, err)
		}
	}
	k := Key{Type: vocab.MLDSAPublicKey, Lib: vocab.Circl, Repr: vocab.Parsed, Layout: measure.Pointer, Param: "set=ML-DSA-65"}
	if got, want := k.String(), "MLDSAPublicKey/circl/parsed/pointer/set=ML-DSA-65"; got != want {
		t.Errorf("String: got %q, want %q", got, want)
	}
	if got, want := k.BenchName(), "type=MLDSAPublicKey/lib=circl/repr=parsed/layout=pointer/set=ML-DSA-65"; got != want {
		t.Errorf("BenchName: got %q, want %q", got, want)
	}
	a, b := k, k
	a.Param, b.Param = "set=ML-DSA-44", "set=ML-DSA-87"
	if !Less(a, k) || !Less(k, b) {
		t.Errorf("parameter sets out of order: %s, %s, %s", a.Param, k.Param, b.Param)
	}
}

// TestCompareGroupsFamilies: the one ordering keeps each family's rows
// together, in family order, and BLS12-381's first as before.
func TestCompareGroupsFamilies(t *testing.T) {
	want := []Key{
		{Type: vocab.Signature, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Pointer, Scheme: vocab.MinPk},
		{Type: vocab.PubkeyCache, Lib: vocab.Gnark, Repr: vocab.MapPointer, Layout: measure.Collection},
		{Type: vocab.Blob, Lib: vocab.GoKZG, Repr: vocab.ByteForm, Layout: measure.Pointer},
		{Type: vocab.Secp256k1Signature, Lib: vocab.Libsecp256k1, Repr: vocab.RSV, Layout: measure.Pointer},
		{Type: vocab.Secp256k1Signature, Lib: vocab.Decred, Repr: vocab.RSV, Layout: measure.Pointer},
		{Type: vocab.BN254G1, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Pointer},
		{Type: vocab.BN254G1, Lib: vocab.BN256Cloudflare, Repr: vocab.Affine, Layout: measure.Pointer},
		{Type: vocab.MLKEMEncapsulationKey, Lib: vocab.Circl, Repr: vocab.Parsed, Layout: measure.Pointer, Param: "set=ML-KEM-768"},
		{Type: vocab.MLDSAPublicKey, Lib: vocab.FilippoMLDSA, Repr: vocab.Parsed, Layout: measure.Pointer, Param: "set=ML-DSA-65"},
		{Type: vocab.SLHDSASignature, Lib: vocab.Circl, Repr: vocab.ByteForm, Layout: measure.Pointer},
	}
	checkOrder(t, want)
}

// TestAgreementOf: the checks of several families merge into one record
// that keeps each; a record of BLS12-381 alone or KZG alone has the shape
// of the records written before families.
func TestAgreementOf(t *testing.T) {
	bls := FamilyAgreement{Family: vocab.BLS12381, Cases: 20, Libs: []vocab.Lib{vocab.Blst, vocab.Circl, vocab.Gnark}, OK: true}
	kzg := FamilyAgreement{Family: vocab.KZG, Cases: 8, Libs: []vocab.Lib{vocab.GoKZG}, OK: true, Unavailable: []string{"ckzg: needs cgo"}}
	secp := FamilyAgreement{Family: vocab.Secp256k1, Cases: 5, Libs: []vocab.Lib{vocab.Decred}, OK: false}
	tests := []struct {
		name   string
		checks []FamilyAgreement
		want   *Agreement
	}{
		{"none", nil, nil},
		{"BLS12-381 alone", []FamilyAgreement{bls}, &Agreement{Cases: 20, Libs: []vocab.Lib{vocab.Blst, vocab.Circl, vocab.Gnark}, OK: true}},
		{"KZG alone", []FamilyAgreement{kzg}, &Agreement{Cases: 8, Libs: []vocab.Lib{vocab.GoKZG}, OK: true, Unavailable: []string{"ckzg: needs cgo"}}},
		{"both", []FamilyAgreement{bls, kzg}, &Agreement{Cases: 28, Libs: []vocab.Lib{vocab.Blst, vocab.Circl, vocab.Gnark, vocab.GoKZG}, OK: true, Unavailable: []string{"ckzg: needs cgo"},
			Families: []FamilyAgreement{bls, kzg}}},
		{"another family alone", []FamilyAgreement{secp}, &Agreement{Cases: 5, Libs: []vocab.Lib{vocab.Decred}, Families: []FamilyAgreement{secp}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AgreementOf(tt.checks)
			if (got == nil) != (tt.want == nil) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			if got == nil {
				return
			}
			if got.Cases != tt.want.Cases || got.OK != tt.want.OK || !slices.Equal(got.Libs, tt.want.Libs) ||
				!slices.Equal(got.Unavailable, tt.want.Unavailable) || len(got.Families) != len(tt.want.Families) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			for i := range got.Families {
				if got.Families[i].Family != tt.want.Families[i].Family {
					t.Errorf("families[%d]: got %s, want %s", i, got.Families[i].Family, tt.want.Families[i].Family)
				}
			}
		})
	}
}

// TestResultsReaderFamilies: the reader refuses a row whose library or
// operation is not of its type's family, and an agreement record whose
// families are unknown, repeated or out of order; it reads one of a new
// family's rows and a record of several families.
func TestResultsReaderFamilies(t *testing.T) {
	families := func(fs ...any) func(d doc) {
		return func(d doc) {
			d["agreement"] = map[string]any{"cases": 25, "libs": []any{"blst", "decred"}, "ok": true, "families": fs}
		}
	}
	check := func(family string, cases int) map[string]any {
		return map[string]any{"family": family, "cases": cases, "libs": []any{}, "ok": true}
	}
	tests := []editCase{
		{"a new family's row", func(d doc) {
			r := d.row("instances", 0)
			r["type"], r["lib"], r["repr"], r["param"] = "MLDSAPublicKey", "filippo-mldsa", "parsed", "set=ML-DSA-65"
			delete(r, "scheme")
		}, ""},
		{"a library of another family", func(d doc) { d.row("instances", 0)["lib"] = "decred" },
			"instances[0] (Signature/decred/affine/pointer): lib decred is not a library of family bls12-381 (blst, gnark, circl)"},
		{"an operation of another family", func(d doc) { d.row("throughput", 0)["op"] = "blob-to-commitment" },
			"throughput[0] (Signature/blst/affine op=blob-to-commitment): op blob-to-commitment is not an operation of family bls12-381 (" + vocab.Join(vocab.BLS12381.Ops()) + ")"},
		{"several families", families(check("bls12-381", 20), check("secp256k1", 5)), ""},
		{"an unknown family", families(check("ed25519", 1)),
			`agreement: families[0]: unknown family "ed25519": valid families are ` + vocab.Join(vocab.Families)},
		{"families out of order", families(check("secp256k1", 5), check("bls12-381", 20)),
			"agreement: families[1]: family bls12-381 is out of order or repeated (the order is " + vocab.Join(vocab.Families) + ")"},
		{"a family without its name", families(check("", 5)), "agreement: families[0].family is missing"},
		{"negative cases", families(check("kzg", -1)), "agreement: families[0].cases is -1, want a non-negative number"},
	}
	checkEdits(t, tests)
}

// TestOldLibraryLabelsRead: a results file written before go-ethereum's
// key objects had their own library labels them libsecp256k1; it reads,
// beside a file that labels them go-ethereum (a contract).
func TestOldLibraryLabelsRead(t *testing.T) {
	for _, lib := range []vocab.Lib{vocab.Libsecp256k1, vocab.GoEthereum} {
		rs := validResults(t)
		rs.Instances = append(rs.Instances, Row{Key: Key{Type: vocab.Secp256k1SecretKey, Lib: lib, Repr: vocab.Decoded, Layout: measure.Pointer},
			Measurement: measure.Measurement{N: 1000, BytesPerInstance: 336, AllocsPerInstance: 7, SizeofBytes: 8, SlotBytes: 48}})
		got, err := Read(bytes.NewReader(jsonOf(t, rs)))
		if err != nil {
			t.Fatalf("%s: %v", lib, err)
		}
		if r := got.Instances[len(got.Instances)-1]; r.Lib != lib {
			t.Errorf("read lib %s, want %s", r.Lib, lib)
		}
	}
}

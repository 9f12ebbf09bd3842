package model

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestTypeFamily: every type of the vocabulary belongs to exactly one
// family, as the table of families says; names outside it to none.
func TestTypeFamily(t *testing.T) {
	tests := []struct {
		typ  Type
		want Family
	}{
		{SecretKey, BLS12381}, {PublicKey, BLS12381}, {Signature, BLS12381}, {G1, BLS12381}, {G2, BLS12381},
		{PubkeyCache, BLS12381}, {AttestationPool, BLS12381},
		{Blob, KZG}, {Commitment, KZG}, {Proof, KZG}, {KZGCell, KZG}, {CellsAndProofs, KZG}, {KZGContext, KZG}, {PeerDASNode, KZG},
		{Secp256k1SecretKey, Secp256k1}, {Secp256k1PublicKey, Secp256k1}, {Secp256k1Signature, Secp256k1}, {SenderCache, Secp256k1},
		{BN254G1, BN254}, {BN254G2, BN254}, {Groth16VerifyingKey, BN254},
		{MLKEMDecapsulationKey, MLKEM}, {MLKEMEncapsulationKey, MLKEM}, {MLKEMCiphertext, MLKEM}, {TLSHandshakes, MLKEM},
		{MLDSAPrivateKey, MLDSA}, {MLDSAPublicKey, MLDSA}, {MLDSASignature, MLDSA}, {MLDSAPubkeyCache, MLDSA},
		{SLHDSAPrivateKey, SLHDSA}, {SLHDSAPublicKey, SLHDSA}, {SLHDSASignature, SLHDSA},
		{"Unknown", ""}, {"", ""},
	}
	var listed []Type
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
	if !slices.Equal(listed, Types) {
		t.Errorf("the test lists %v, the vocabulary %v", listed, Types)
	}
	for _, f := range Families {
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
	if got := Strings(Families); !slices.Equal(got, want) {
		t.Errorf("Families: got %v, want %v", got, want)
	}
	for _, f := range Families {
		if f.String() != string(f) {
			t.Errorf("String: got %q, want %q", f.String(), string(f))
		}
		if _, err := Canonical("type", string(f), Types); err == nil {
			t.Errorf("family %s is also a type's name", f)
		}
		if _, err := Canonical("family", strings.ToUpper(string(f)), Families); err != nil {
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
		{"types", Strings(Types), []string{"SecretKey", "PublicKey", "Signature", "G1", "G2", "PubkeyCache", "AttestationPool", "Blob", "Commitment", "Proof", "Cell", "CellsAndProofs", "KZGContext", "PeerDASNode"}},
		{"libs", Strings(Libs), []string{"blst", "gnark", "circl", "ckzg", "gokzg"}},
		{"ops", Strings(Ops), []string{"compress", "serialize", "decompress", "decompress-checked", "to-affine", "to-affine-batch", "aggregate", "sign", "verify", "fast-aggregate-verify", "batch-verify", "pairing-ctx-verify", "pairing-check", "msm",
			"blob-to-commitment", "compute-blob-proof", "verify-blob-proof", "verify-blob-proof-batch", "compute-cells-and-proofs", "verify-cell-proof-batch", "recover-cells-and-proofs"}},
		{"reprs", Strings(Reprs), []string{"scalar", "affine", "jacobian", "projective", "compressed", "uncompressed", "prepared", "index-slice", "map-pointer", "wrapper-pointer", "wrapper-value", "slice-value", "slice-pointer", "slice-compressed", "map-root", "interface-map", "lru", "bytes", "decoded", "packed"}},
	}
	for _, b := range before {
		if len(b.got) < len(b.wantP) || !slices.Equal(b.got[:len(b.wantP)], b.wantP) {
			t.Errorf("%s: got %v, want it to start with %v", b.name, b.got, b.wantP)
		}
		if len(slices.Compact(slices.Sorted(slices.Values(b.got)))) != len(b.got) {
			t.Errorf("%s: a name twice in %v", b.name, b.got)
		}
	}
	if !slices.Equal(ObjectTypes, []Type{SecretKey, PublicKey, Signature, G1, G2}) || !slices.Equal(Scenarios, []Type{PubkeyCache, AttestationPool}) {
		t.Errorf("all = %v, scenarios = %v: want BLS12-381's, as before families", ObjectTypes, Scenarios)
	}
	if !slices.Equal(KZGTypes, KZG.Types()) || !slices.Equal(KZGOps, KZG.Ops()) {
		t.Errorf("KZGTypes and KZGOps are not the KZG family's")
	}
}

// TestLibFamilies: a library's families, and the libraries every family
// has; gnark and circl serve several under one name.
func TestLibFamilies(t *testing.T) {
	tests := []struct {
		lib  Lib
		want []Family
	}{
		{Blst, []Family{BLS12381}},
		{Gnark, []Family{BLS12381, BN254}},
		{Circl, []Family{BLS12381, MLKEM, MLDSA, SLHDSA}},
		{CKZG, []Family{KZG}}, {GoKZG, []Family{KZG}},
		{Libsecp256k1, []Family{Secp256k1}}, {Decred, []Family{Secp256k1}},
		{BN256Cloudflare, []Family{BN254}}, {BN256Google, []Family{BN254}}, {BN256Gnark, []Family{BN254}},
		{Stdlib, []Family{MLKEM}}, {FilippoMLDSA, []Family{MLDSA}},
		{"openssl", nil},
	}
	var listed []Lib
	for _, tt := range tests {
		if got := tt.lib.Families(); !slices.Equal(got, tt.want) {
			t.Errorf("%s.Families(): got %v, want %v", tt.lib, got, tt.want)
		}
		for _, f := range Families {
			if got, want := f.HasLib(tt.lib), slices.Contains(tt.want, f); got != want {
				t.Errorf("%s.HasLib(%s): got %v, want %v", f, tt.lib, got, want)
			}
		}
		if tt.want != nil {
			listed = append(listed, tt.lib)
		}
	}
	if !slices.Equal(listed, Libs) {
		t.Errorf("the test lists %v, the vocabulary %v", listed, Libs)
	}
	// The names issues 24 and 25 fixed (a contract).
	for _, name := range []Lib{"libsecp256k1", "decred", "bn256-cloudflare", "bn256-google", "bn256-gnark", "gnark", "stdlib", "circl", "filippo-mldsa"} {
		if !Known(name, Libs) {
			t.Errorf("lib %q is not in the vocabulary", name)
		}
	}
}

// TestSchemeIsBLSOnly: the scheme belongs to BLS12-381's public keys and
// signatures, and to no type of another family.
func TestSchemeIsBLSOnly(t *testing.T) {
	for _, ty := range Types {
		want := ty == PublicKey || ty == Signature
		if got := ty.HasScheme(); got != want {
			t.Errorf("%s.HasScheme(): got %v, want %v", ty, got, want)
		}
		if ty.HasScheme() && ty.Family() != BLS12381 {
			t.Errorf("%s has a scheme but is of family %s", ty, ty.Family())
		}
		if ty.Family() != BLS12381 && ty.DefaultScheme() != "" {
			t.Errorf("%s: default scheme %q, want none", ty, ty.DefaultScheme())
		}
	}
	k := Key{Type: Secp256k1Signature, Lib: Decred, Repr: RSV, Layout: Pointer}
	if k.Normalize().Scheme != "" || k.HasSchemeMismatch() {
		t.Errorf("%s: normalized scheme %q, mismatch %v: want none", k, k.Normalize().Scheme, k.HasSchemeMismatch())
	}
	if k.Scheme = MinPk; !k.HasSchemeMismatch() {
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
		{Key{Type: Signature, Lib: Gnark}, ""},
		{Key{Type: BN254G1, Lib: Gnark}, ""},
		{Key{Type: MLDSAPublicKey, Lib: Circl, Op: Verify}, ""},
		{Key{Type: Secp256k1Signature, Lib: Decred, Op: Sign}, ""},
		{Key{Type: Signature, Lib: Decred}, "lib decred is not a library of family bls12-381 (blst, gnark, circl)"},
		{Key{Type: BN254G1, Lib: Blst}, "lib blst is not a library of family bn254"},
		{Key{Type: Blob, Lib: Gnark}, "lib gnark is not a library of family kzg (ckzg, gokzg)"},
		{Key{Type: Secp256k1Signature, Lib: Decred, Op: FastAggregateVerify}, "op fast-aggregate-verify is not an operation of family secp256k1"},
		{Key{Type: Signature, Lib: Blst, Op: BlobToCommitment}, "op blob-to-commitment is not an operation of family bls12-381"},
		// Names outside the vocabulary are the name checks' to report.
		{Key{Type: Signature, Lib: "openssl", Op: "verfy"}, ""},
		{Key{Type: "Unknown", Lib: Decred}, ""},
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
	k := Key{Type: MLDSAPublicKey, Lib: Circl, Repr: Parsed, Layout: Pointer, Param: "set=ML-DSA-65"}
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
		{Type: Signature, Lib: Gnark, Repr: Affine, Layout: Pointer, Scheme: MinPk},
		{Type: PubkeyCache, Lib: Gnark, Repr: MapPointer, Layout: Collection},
		{Type: Blob, Lib: GoKZG, Repr: ByteForm, Layout: Pointer},
		{Type: Secp256k1Signature, Lib: Libsecp256k1, Repr: RSV, Layout: Pointer},
		{Type: Secp256k1Signature, Lib: Decred, Repr: RSV, Layout: Pointer},
		{Type: BN254G1, Lib: Gnark, Repr: Affine, Layout: Pointer},
		{Type: BN254G1, Lib: BN256Cloudflare, Repr: Affine, Layout: Pointer},
		{Type: MLKEMEncapsulationKey, Lib: Circl, Repr: Parsed, Layout: Pointer, Param: "set=ML-KEM-768"},
		{Type: MLDSAPublicKey, Lib: FilippoMLDSA, Repr: Parsed, Layout: Pointer, Param: "set=ML-DSA-65"},
		{Type: SLHDSASignature, Lib: Circl, Repr: ByteForm, Layout: Pointer},
	}
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortStableFunc(got, Compare)
	if !slices.Equal(got, want) {
		t.Errorf("order:\ngot  %v\nwant %v", got, want)
	}
}

// TestAgreementOf: the checks of several families merge into one record
// that keeps each; a record of BLS12-381 alone or KZG alone has the shape
// of the records written before families.
func TestAgreementOf(t *testing.T) {
	bls := FamilyAgreement{Family: BLS12381, Cases: 20, Libs: []Lib{Blst, Circl, Gnark}, OK: true}
	kzg := FamilyAgreement{Family: KZG, Cases: 8, Libs: []Lib{GoKZG}, OK: true, Unavailable: []string{"ckzg: needs cgo"}}
	secp := FamilyAgreement{Family: Secp256k1, Cases: 5, Libs: []Lib{Decred}, OK: false}
	tests := []struct {
		name   string
		checks []FamilyAgreement
		want   *Agreement
	}{
		{"none", nil, nil},
		{"BLS12-381 alone", []FamilyAgreement{bls}, &Agreement{Cases: 20, Libs: []Lib{Blst, Circl, Gnark}, OK: true}},
		{"KZG alone", []FamilyAgreement{kzg}, &Agreement{Cases: 8, Libs: []Lib{GoKZG}, OK: true, Unavailable: []string{"ckzg: needs cgo"}}},
		{"both", []FamilyAgreement{bls, kzg}, &Agreement{Cases: 28, Libs: []Lib{Blst, Circl, Gnark, GoKZG}, OK: true, Unavailable: []string{"ckzg: needs cgo"},
			Families: []FamilyAgreement{bls, kzg}}},
		{"another family alone", []FamilyAgreement{secp}, &Agreement{Cases: 5, Libs: []Lib{Decred}, Families: []FamilyAgreement{secp}}},
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
	tests := []struct {
		name string
		edit func(d doc)
		want string
	}{
		{"a new family's row", func(d doc) {
			r := d.row("instances", 0)
			r["type"], r["lib"], r["repr"], r["param"] = "MLDSAPublicKey", "filippo-mldsa", "parsed", "set=ML-DSA-65"
			delete(r, "scheme")
		}, ""},
		{"a library of another family", func(d doc) { d.row("instances", 0)["lib"] = "decred" },
			"instances[0] (Signature/decred/affine/pointer): lib decred is not a library of family bls12-381 (blst, gnark, circl)"},
		{"an operation of another family", func(d doc) { d.row("throughput", 0)["op"] = "blob-to-commitment" },
			"throughput[0] (Signature/blst/affine op=blob-to-commitment): op blob-to-commitment is not an operation of family bls12-381 (" + Join(BLS12381.Ops()) + ")"},
		{"several families", families(check("bls12-381", 20), check("secp256k1", 5)), ""},
		{"an unknown family", families(check("ed25519", 1)),
			`agreement: families[0]: unknown family "ed25519": valid families are ` + Join(Families)},
		{"families out of order", families(check("secp256k1", 5), check("bls12-381", 20)),
			"agreement: families[1]: family bls12-381 is out of order or repeated (the order is " + Join(Families) + ")"},
		{"a family without its name", families(check("", 5)), "agreement: families[0].family is missing"},
		{"negative cases", families(check("kzg", -1)), "agreement: families[0].cases is -1, want a non-negative number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := json.Marshal(editedResults(t, tt.edit))
			if err != nil {
				t.Fatal(err)
			}
			_, err = ResultsReader{}.Read(bytes.NewReader(data), "r.json")
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("got %v, want the file accepted", err)
			case tt.want != "" && (err == nil || err.Error() != "r.json: "+tt.want):
				t.Errorf("got %v, want r.json: %s", err, tt.want)
			}
		})
	}
}

package secpkit

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// The operations are one table (specs): a row names the type and the
// representation the data starts in, the operation and, for a
// conversion, the representation it makes; its inputs come from
// fixtures/secp256k1/ops.json (one key, its public key and address, its
// signature of one hash), and its known result too. A library writes an
// OpImpl for each row it offers: a maker that turns the inputs into the
// row's representation outside any timing and returns the call that is
// timed, the whole path from that representation to the result.

// Row identifies one operation of the table.
type Row struct {
	Type vocab.Type
	// Repr is the representation the data is in when the operation
	// starts.
	Repr vocab.Repr
	Op   vocab.Op
	// To is the representation a conversion (convert) makes; "" for the
	// other operations.
	To vocab.Repr
}

func (r Row) String() string {
	s := string(r.Type) + "/" + string(r.Repr) + " op=" + string(r.Op)
	if r.To != "" {
		s += " to=" + string(r.To)
	}
	return s
}

// RowOf is the row of op on the form r of type t.
func RowOf(t vocab.Type, r vocab.Repr, op vocab.Op) Row { return Row{Type: t, Repr: r, Op: op} }

// ConvOf is the row of the conversion of type t from one form to another.
func ConvOf(t vocab.Type, from, to vocab.Repr) Row {
	return Row{Type: t, Repr: from, Op: vocab.Convert, To: to}
}

// ImplOf is an implementation: its note, the calls it makes and its Maker.
func ImplOf(note string, calls []string, make Maker) OpImpl {
	return OpImpl{Note: note, Calls: calls, Make: make}
}

// ToParam is the key parameter of a conversion to repr: to=<repr>.
func ToParam(repr vocab.Repr) results.Param { return results.Param("to=" + string(repr)) }

// Input is what one operation starts from, in byte forms: the key, public
// key, address and signature of ops.json (or, for the inputs an operation
// must reject, the variant its row names). The maker converts the forms
// it needs into the row's representation before the timing.
type Input struct {
	SecretKey    [SecretKeyBytes]byte
	Compressed   [CompressedBytes]byte
	Uncompressed [UncompressedBytes]byte
	Address      [AddressBytes]byte
	// Hash is what is signed, verified against and recovered from.
	Hash [32]byte
	RSV  [RSVBytes]byte
	DER  []byte
}

// RS returns the R‖S of the input's signature (sharing its memory).
func (in *Input) RS() []byte { return in.RSV[:RSBytes] }

// Call is a prepared operation: Run is timed; Result returns the
// canonical encoding of what the last Run made (not timed): a secret key
// or R‖S‖V as its bytes, a public key uncompressed, an address, R‖S, DER,
// or a decoded signature as R‖S.
type Call struct {
	Run    func() error
	Result func() ([]byte, error)
}

// Maker prepares a call on in, outside any timing.
type Maker func(in *Input) (Call, error)

// OpImpl is how a library does one row: Note says what is timed (the API
// called and the checks it makes), Calls names the calls of one timed
// call in order (its path), Make prepares it.
type OpImpl struct {
	Note  string
	Calls []string
	Make  Maker
}

// LibOps is a library's adapter for the table.
type LibOps struct {
	Lib vocab.Lib
	// Unavailable, when set, makes every row that applies unavailable for
	// that reason (libsecp256k1 without cgo).
	Unavailable vocab.Why
	// Lacks says why the library does not offer a row (a representation
	// it has no form for), or nothing.
	Lacks func(Row) vocab.Why
	// Impls are the rows the library offers.
	Impls map[Row]OpImpl
}

// spec is one row of the table: what one call handles, for the note; the
// known result; and how the input an operation must reject differs from
// the valid one (nil when it has none). doesNotApply, when set, says why
// the row makes no sense in any library.
type spec struct {
	row          Row
	what         string
	want         func(o *fixtures.Secp256k1Ops) []byte
	invalid      func(in *Input, v *fixtures.Secp256k1Vectors) error
	doesNotApply string
}

var (
	wantTrue         = func(*fixtures.Secp256k1Ops) []byte { return []byte{1} }
	wantSecretKey    = func(o *fixtures.Secp256k1Ops) []byte { return o.SecretKey }
	wantCompressed   = func(o *fixtures.Secp256k1Ops) []byte { return o.Compressed }
	wantUncompressed = func(o *fixtures.Secp256k1Ops) []byte { return o.Uncompressed }
	wantAddress      = func(o *fixtures.Secp256k1Ops) []byte { return o.Address }
	wantRSV          = func(o *fixtures.Secp256k1Ops) []byte { return o.RSV }
	wantRS           = func(o *fixtures.Secp256k1Ops) []byte { return o.RSV[:RSBytes] }
	wantDER          = func(o *fixtures.Secp256k1Ops) []byte { return o.DER }
)

const (
	noPoint     = "an address is a hash of the public key: no point can be made from it"
	noID        = "R‖S carries no recovery id (V): recovery needs R‖S‖V"
	isOutput    = "the data already is in the form the operation makes"
	justSlicing = "R‖S is the first 64 bytes of R‖S‖V: there is nothing to convert"
)

// specs is the table, type by type.
var specs = slices.Concat(secretKeySpecs(), publicKeySpecs(), signatureSpecs())

// secretKeySpecs are the secret key's rows: sign from each form, and the
// two conversions.
func secretKeySpecs() []spec {
	sk := vocab.Secp256k1SecretKey
	var out []spec
	add := func(s spec) { out = append(out, s) }
	for _, r := range Reprs[sk] {
		add(spec{row: Row{sk, r, vocab.Sign, ""}, what: "key ops.json's signature of its hash, R‖S‖V (RFC 6979 nonce)", want: wantRSV})
	}
	add(spec{row: Row{sk, vocab.ByteForm, vocab.Convert, vocab.Decoded}, what: "32 bytes to the library's key object, refusing 0 and values >= N; invalid input: N", want: wantSecretKey, invalid: func(in *Input, _ *fixtures.Secp256k1Vectors) error {
		in.SecretKey = Order()
		return nil
	}})
	add(spec{row: Row{sk, vocab.Decoded, vocab.Convert, vocab.ByteForm}, what: "the library's key object to its 32 bytes", want: wantSecretKey})
	return out
}

// publicKeySpecs are the public key's rows: verify from each form (an
// address by recovering the signer's address and comparing), the
// encodings and the address.
func publicKeySpecs() []spec {
	pk := vocab.Secp256k1PublicKey
	var out []spec
	add := func(s spec) { out = append(out, s) }
	otherHash := func(in *Input, v *fixtures.Secp256k1Vectors) error {
		in.Hash = [32]byte(v.Ops.OtherHash)
		return nil
	}
	for _, r := range Reprs[pk] {
		what := "ops.json's signature of its hash under the key; invalid input: the signature checked against another hash"
		if r == vocab.Address {
			what = "ops.json's R‖S‖V: recover the signer's address and compare (how Ethereum checks a sender); invalid input: another hash"
		}
		add(spec{row: Row{pk, r, vocab.Verify, ""}, what: what, want: wantTrue, invalid: otherHash})
	}
	offCurve := func(in *Input, _ *fixtures.Secp256k1Vectors) error {
		c, u, err := offCurveEncodings(&in.Compressed, &in.Uncompressed)
		in.Compressed, in.Uncompressed = c, u
		return err
	}
	for _, c := range []struct {
		op       vocab.Op
		want     func(*fixtures.Secp256k1Ops) []byte
		from     map[vocab.Repr]bool // the encodings it checks the point of
		output   vocab.Repr
		what     string
		noInvert bool
	}{
		{vocab.Compress, wantCompressed, map[vocab.Repr]bool{vocab.Uncompressed: true}, vocab.Compressed, "the key to its 33-byte compressed encoding", false},
		{vocab.Serialize, wantUncompressed, map[vocab.Repr]bool{vocab.Compressed: true}, vocab.Uncompressed, "the key to its 65-byte uncompressed encoding", false},
		{vocab.Decompress, wantUncompressed, map[vocab.Repr]bool{vocab.Compressed: true, vocab.Uncompressed: true}, vocab.Decoded, "an encoding to the library's point, checked on the curve", false},
		{vocab.ToAddress, wantAddress, map[vocab.Repr]bool{vocab.Compressed: true}, vocab.Address, "the key's Ethereum address, Keccak-256 of X‖Y", false},
	} {
		for _, r := range Reprs[pk] {
			s := spec{row: Row{pk, r, c.op, ""}, what: c.what, want: c.want}
			switch {
			case r == c.output:
				s.doesNotApply = isOutput
			case r == vocab.Address:
				s.doesNotApply = noPoint
			case c.op == vocab.Decompress && r == vocab.Decoded:
				s.doesNotApply = isOutput
			case c.from[r]:
				s.what += "; invalid input: an encoding whose point is not on the curve"
				s.invalid = offCurve
			}
			add(s)
		}
	}
	return out
}

// signatureSpecs are the signature's rows: verify from each form,
// recovery from R‖S‖V, and the conversions between the forms.
func signatureSpecs() []spec {
	sig := vocab.Secp256k1Signature
	var out []spec
	add := func(s spec) { out = append(out, s) }
	highS := func(in *Input, _ *fixtures.Secp256k1Vectors) error {
		in.RSV = [RSVBytes]byte(Twin(in.RSV[:]))
		der, err := DERFromRS(in.RS())
		in.DER = der
		return err
	}
	for _, r := range Reprs[sig] {
		add(spec{row: Row{sig, r, vocab.Verify, ""}, what: "ops.json's signature of its hash under its key, Ethereum's low-S rule first (crypto.ValidateSignatureValues with homestead); invalid input: the same signature with S replaced by N − S, valid ECDSA that the rule refuses", want: wantTrue, invalid: highS})
	}
	unrecoverable := func(in *Input, v *fixtures.Secp256k1Vectors) error {
		hash, rsv, err := UnrecoverableVector(v)
		in.Hash, in.RSV = hash, rsv
		return err
	}
	for _, c := range []struct {
		op   vocab.Op
		want func(*fixtures.Secp256k1Ops) []byte
		what string
	}{
		{vocab.Recover, wantUncompressed, "the public key of ops.json's signature of its hash, to the library's point (a high S accepted, as the precompile must)"},
		{vocab.RecoverAddress, wantAddress, "the signer's address of ops.json's signature, as the ecRecover precompile computes it"},
	} {
		for _, r := range Reprs[sig] {
			s := spec{row: Row{sig, r, c.op, ""}, what: c.what + "; invalid input: " + fixtures.EcRecoverFile + "'s " + UnrecoverableName + " (no point has that R)", want: c.want, invalid: unrecoverable}
			if r != vocab.RSV {
				s.doesNotApply = noID
			}
			add(s)
		}
	}
	overflowR := func(in *Input, _ *fixtures.Secp256k1Vectors) error {
		n := Order()
		copy(in.RSV[:32], n[:])
		return nil
	}
	ber := func(in *Input, _ *fixtures.Secp256k1Vectors) error {
		in.DER = BER(in.DER)
		return nil
	}
	for _, to := range []struct {
		repr vocab.Repr
		want func(*fixtures.Secp256k1Ops) []byte
	}{{vocab.RSV, wantRSV}, {vocab.RS, wantRS}, {vocab.DER, wantDER}, {vocab.Decoded, wantRS}} {
		for _, r := range Reprs[sig] {
			if r == to.repr {
				continue
			}
			s := spec{row: Row{sig, r, vocab.Convert, to.repr}, what: "the signature from " + string(r) + " to " + string(to.repr), want: to.want}
			switch {
			case to.repr == vocab.RSV:
				s.doesNotApply = noID
			case r == vocab.RSV && to.repr == vocab.RS:
				s.doesNotApply = justSlicing
			case r == vocab.DER:
				s.what += ", strict DER only; invalid input: the same signature with a BER long-form length"
				s.invalid = ber
			case r == vocab.RSV || r == vocab.RS:
				if to.repr == vocab.DER || to.repr == vocab.Decoded {
					s.what += ", refusing r or s >= N; invalid input: r = N"
					s.invalid = overflowR
				}
			}
			add(s)
		}
	}
	return out
}

// UnrecoverableName is the ecRecover vector the recoveries must reject:
// its R is no point's x.
const UnrecoverableName = "CallEcrecoverUnrecoverableKey"

// UnrecoverableVector returns the hash and R‖S‖V of the ecRecover vector
// UnrecoverableName.
func UnrecoverableVector(v *fixtures.Secp256k1Vectors) (hash [32]byte, rsv [RSVBytes]byte, err error) {
	for _, e := range v.EcRecover {
		if e.Name == UnrecoverableName {
			in := e.Padded()
			copy(hash[:], in[:32])
			copy(rsv[:32], in[64:96])
			copy(rsv[32:64], in[96:128])
			rsv[64] = in[63] - 27
			return hash, rsv, nil
		}
	}
	return hash, rsv, fmt.Errorf("%s has no vector %s", fixtures.EcRecoverFile, UnrecoverableName)
}

// offCurveEncodings returns encodings the decodes must refuse: the
// compressed key with the next x above its own that no point has, and the
// uncompressed key with the last bit of y flipped.
func offCurveEncodings(c *[CompressedBytes]byte, u *[UncompressedBytes]byte) ([CompressedBytes]byte, [UncompressedBytes]byte, error) {
	oc, ou := *c, *u
	ou[UncompressedBytes-1] ^= 1
	var x, y secp256k1.FieldVal
	x.SetByteSlice(c[1:])
	var one secp256k1.FieldVal
	one.SetInt(1)
	for range 64 {
		x.Add(&one).Normalize()
		if !secp256k1.DecompressY(&x, false, &y) {
			x.PutBytesUnchecked(oc[1:])
			return oc, ou, nil
		}
	}
	return oc, ou, errors.New("secpkit: found no x off the curve near the key's")
}

// Ops returns the operations of the table as lib does them: one per row,
// unavailable where the row does not apply, where lib.Unavailable is set,
// or where the library lacks it. It panics when a row the library should
// offer has no OpImpl, or an OpImpl has no such row.
func Ops(lib LibOps) []suites.Op {
	used := map[Row]bool{}
	var out []suites.Op
	for _, s := range specs {
		o := suites.Op{Key: results.Key{Type: s.row.Type, Lib: lib.Lib, Repr: s.row.Repr, Op: s.row.Op, Batch: 1}}
		if s.row.To != "" {
			o.Param = ToParam(s.row.To)
		}
		switch {
		case s.doesNotApply != "":
			o.Unavailable = vocab.Because(vocab.DoesNotApply, "%s from %s: %s", s.row.Op, s.row.Repr, s.doesNotApply)
		case !lib.Unavailable.IsZero():
			o.Unavailable = lib.Unavailable
		case lib.Lacks != nil && !lib.Lacks(s.row).IsZero():
			o.Unavailable = lib.Lacks(s.row)
		default:
			im, ok := lib.Impls[s.row]
			if !ok {
				panic(fmt.Sprintf("secpkit: %s: %s is offered but has no OpImpl", lib.Lib, s.row))
			}
			used[s.row] = true
			o.Note, o.Path = im.Note+": "+s.what, strings.Join(im.Calls, ", ")
			o.Prepare = prepare(s, im)
			o.Want = func() ([]byte, error) {
				v, err := fixtures.LoadSecp256k1()
				if err != nil {
					return nil, err
				}
				return s.want(v.Ops), nil
			}
		}
		out = append(out, o)
	}
	for r := range lib.Impls {
		if !used[r] {
			panic(fmt.Sprintf("secpkit: %s: OpImpl for %s, which the table does not offer (does not apply, unavailable or unknown)", lib.Lib, r))
		}
	}
	return out
}

// TableRow is one row of the table as Rows lists it: the row, and
// whether it applies at all (in some library).
type TableRow struct {
	Row
	Applies bool
}

// Rows returns every row of the table, in table order.
func Rows() []TableRow {
	out := make([]TableRow, len(specs))
	for i, s := range specs {
		out[i] = TableRow{s.row, s.doesNotApply == ""}
	}
	return out
}

// prepare returns the Prepare of row s done by im: the input from
// ops.json (its invalid variant for in.Invalid), then the maker.
func prepare(s spec, im OpImpl) func(suites.OpInput) (suites.OpHarness, error) {
	return func(oi suites.OpInput) (suites.OpHarness, error) {
		if oi.Invalid && s.invalid == nil {
			return suites.OpHarness{}, suites.ErrNoInvalidInput
		}
		v, err := fixtures.LoadSecp256k1()
		if err != nil {
			return suites.OpHarness{}, err
		}
		in := OpsInput(v.Ops)
		if oi.Invalid {
			if err := s.invalid(in, v); err != nil {
				return suites.OpHarness{}, err
			}
		}
		c, err := im.Make(in)
		if err != nil {
			return suites.OpHarness{}, err
		}
		return suites.OpHarness{Run: c.Run, Result: c.Result}, nil
	}
}

// OpsInput returns the valid input of the operations: the values of
// ops.json, in a new Input the caller owns.
func OpsInput(o *fixtures.Secp256k1Ops) *Input {
	return &Input{
		SecretKey: [SecretKeyBytes]byte(o.SecretKey), Compressed: [CompressedBytes]byte(o.Compressed),
		Uncompressed: [UncompressedBytes]byte(o.Uncompressed), Address: [AddressBytes]byte(o.Address),
		Hash: [32]byte(o.Hash), RSV: [RSVBytes]byte(o.RSV), DER: bytes.Clone(o.DER),
	}
}

// Produce is the call of an operation that makes a value: Run keeps what
// run returns, Result encodes it with result.
func Produce[T any](run func() (T, error), result func(T) []byte) Call {
	var out T
	return Call{
		Run: func() (err error) {
			out, err = run()
			return err
		},
		Result: func() ([]byte, error) { return result(out), nil },
	}
}

// Verified is the call of a verification: Run fails with ErrNotVerified
// when check returns false, or with check's error.
func Verified(check func() (bool, error)) Call {
	ok := false
	return Call{
		Run: func() (err error) {
			ok, err = check()
			if err == nil && !ok {
				err = ErrNotVerified
			}
			return err
		},
		Result: func() ([]byte, error) { return suites.OpBool(ok), nil },
	}
}

// ErrAddress is what the verification from an address returns when the
// recovered address is not the sender's.
var ErrAddress = errors.New("the recovered address is not the sender's")

// FromAddress is the call of the verification from an address: the
// Ethereum rule on r and s, then the address recover finds from in's hash
// and R‖S‖V, compared with want.
func FromAddress[A comparable](in *Input, recover func(hash, rsv []byte) (A, error), want A) Call {
	return Verified(func() (bool, error) {
		if !EthereumRule(in.RS()) {
			return false, ErrRule
		}
		a, err := recover(in.Hash[:], in.RSV[:])
		if err != nil {
			return false, err
		}
		if a != want {
			return false, ErrAddress
		}
		return true, nil
	})
}

// Reencode is the call of a conversion: parse enc (which checks the
// point), then encode it again; result encodes what encode returns.
func Reencode[P any](enc []byte, parse func([]byte) (P, error), encode func(P) []byte, result func([]byte) []byte) Call {
	return Produce(func() ([]byte, error) {
		p, err := parse(enc)
		if err != nil {
			return nil, err
		}
		return encode(p), nil
	}, result)
}

// Valid reports whether the 32 bytes are a valid secret key, in [1, N).
func Valid(sk *[SecretKeyBytes]byte) bool { return inRange(sk[:]) }

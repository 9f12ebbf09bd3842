package secpkit

// AgreeLib is what the secp256k1 agreement check (suites/agree/secp256k1)
// needs from one library, in byte forms: secret keys of 32 bytes, public
// keys compressed (33) or uncompressed (65), hashes of 32 bytes,
// signatures R‖S (64) or R‖S‖V (65, V in {0, 1}). It is the Impl of the
// library's suites.FamilyAgreeLib. Every function is the library's own
// path; none applies Ethereum's rules (the check does, once for all).
type AgreeLib struct {
	// PublicKey returns sk's public key, compressed and uncompressed.
	PublicKey func(sk []byte) (compressed, uncompressed []byte, err error)
	// Address returns the Ethereum address of sk's public key, by the
	// library's own path where it has one.
	Address func(sk []byte) ([]byte, error)
	// Sign signs hash with sk (RFC 6979), R‖S‖V.
	Sign func(sk, hash []byte) (rsv []byte, err error)
	// Verify reports whether rs verifies under pub (33 or 65 bytes) with
	// the library's own acceptance of S; err for input it cannot parse.
	Verify func(pub, hash, rs []byte) (bool, error)
	// VerifiesHighS says whether the library's Verify accepts a high S
	// (decred) or refuses it itself (libsecp256k1).
	VerifiesHighS bool
	// Recover returns the uncompressed public key that signed hash with
	// rsv (V in {0, 1, 2, 3}), accepting a high S.
	Recover func(hash, rsv []byte) (uncompressed []byte, err error)
	// Decompress and Compress convert between the encodings, checking the
	// point.
	Decompress func(compressed []byte) (uncompressed []byte, err error)
	Compress   func(uncompressed []byte) (compressed []byte, err error)
	// ParseDER returns the R‖S of a strict DER signature, and EncodeDER
	// the DER of an R‖S; nil for a library without DER (libsecp256k1 as
	// go-ethereum binds it), whose part of the DER vectors is to verify
	// the R‖S the others parsed.
	ParseDER  func(der []byte) (rs []byte, err error)
	EncodeDER func(rs []byte) (der []byte, err error)
}

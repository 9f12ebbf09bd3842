package secpkit

import (
	"encoding/asn1"
	"errors"
	"math/big"
)

// derSignature is an ECDSA signature as DER holds it (SEC 1, RFC 3279):
// a SEQUENCE of the two INTEGERs r and s.
type derSignature struct{ R, S *big.Int }

// DERFromRS encodes the R‖S signature rs in DER with the standard
// library's encoding/asn1, an encoder of neither library: the reference
// the libraries' DER is compared with.
func DERFromRS(rs []byte) ([]byte, error) {
	if len(rs) != RSBytes {
		return nil, errors.New("secpkit: R‖S of the wrong length")
	}
	return asn1.Marshal(derSignature{new(big.Int).SetBytes(rs[:32]), new(big.Int).SetBytes(rs[32:])})
}

// BER returns der with its SEQUENCE length in the long form (0x81 and one
// byte): the same signature in BER, which strict DER parsers must refuse.
// der must be shorter than 128 bytes, as every secp256k1 signature is.
func BER(der []byte) []byte {
	out := make([]byte, 0, len(der)+1)
	out = append(out, der[0], 0x81)
	return append(out, der[1:]...)
}

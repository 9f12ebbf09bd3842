// Package bn254kit is what the four BN254 suites (suites/gnarkbn254,
// suites/bn256cloudflare, suites/bn256google, suites/bn256gnark) share:
// the instance matrix they cover, the deterministic points they all make
// their instances of, the vectors the operations run on, and Curve, one
// description of a library's G1 and G2 points from which the entries
// (entries.go), the operations (ops.go) and the library's part of the
// agreement check (AgreeLib, precompile.go) are made.
//
// Every value is the EIP-196/197 encoding at the boundary: a G1 point is
// x‖y (64 bytes), a G2 point x.a1‖x.a0‖y.a1‖y.a0 (128 bytes), each
// coordinate 32 bytes big-endian, the point at infinity all zeros. A
// library describes how it decodes that encoding (with its checks: each
// coordinate below the field modulus, on the curve, in the subgroup),
// encodes it, and computes with its points; the kit writes the rest once.
package bn254kit

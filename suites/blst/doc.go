// Package blst registers the cases of github.com/supranational/blst, the
// cgo binding of the C library. Without cgo it registers every entry as
// unavailable, with the reason, so that lists and tables say why blst rows
// are missing.
package blst

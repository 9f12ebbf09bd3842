//go:build cgo

package scenarios

import (
	"testing"

	blst "github.com/supranational/blst/bindings/go"
)

// TestScanPointerFreeBlst: blst's P1Affine and P2Affine, C structs held
// in Go memory, hold no pointer.
func TestScanPointerFreeBlst(t *testing.T) {
	checkScansNothing(t, append(pointerFree[blst.P1Affine]("blst.P1Affine"), pointerFree[blst.P2Affine]("blst.P2Affine")...))
}

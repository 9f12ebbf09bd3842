package render

import (
	"testing"

	"github.com/memprof/memprof/measure"
)

// TestSiteName: a site's cell is one token, the function as pprof's tables
// name it (no package directories, no type arguments) and its line; the
// names memprof gives the harness's own allocations are kept whole.
func TestSiteName(t *testing.T) {
	tests := []struct {
		site measure.Site
		want string
	}{
		{measure.Site{Function: "github.com/supranational/blst/bindings/go.(*P2Affine).Compress", File: "github.com/supranational/blst@v0.3.17/bindings/go/blst.go", Line: 2566},
			"go.(*P2Affine).Compress:2566"},
		{measure.Site{Function: "github.com/consensys/gnark-crypto/ecc/bls12-381.(*G2Affine).Bytes", Line: 12}, "bls12-381.(*G2Affine).Bytes:12"},
		{measure.Site{Function: "example.com/app.newKey[go.shape.struct { example.com/x.T }].func1", Line: 3}, "app.newKey[...].func1:3"},
		{measure.Site{Function: "runtime.mallocgc", Line: 9}, "runtime.mallocgc:9"},
		{measure.Site{Function: "new(blst.P2Affine)"}, "new(blst.P2Affine)"},
		{measure.Site{Function: "make([]bls12381.G1Affine, n)"}, "make([]bls12381.G1Affine,n)"},
		{measure.Site{Function: measure.UnattributedSite}, measure.UnattributedSite},
	}
	for _, tt := range tests {
		if got := siteName(tt.site); got != tt.want {
			t.Errorf("siteName(%s:%d) = %q, want %q", tt.site.Function, tt.site.Line, got, tt.want)
		}
	}
}

//go:build !cgo

package scenarios

func init() {
	register[struct{}, struct{}]("blst", "", "", nil, "blst needs cgo; this build has CGO_ENABLED=0")
}

package frame

import (
	"reflect"
	"runtime"
	"testing"
)

func TestSourcePath(t *testing.T) {
	const mod = "github.com/memprof/memprof"
	tests := []struct {
		name, fn, file, main, want string
	}{
		{"module cache", "github.com/supranational/blst/bindings/go.(*P2Affine).Compress",
			"/root/go/pkg/mod/github.com/supranational/blst@v0.3.17/bindings/go/blst.go", mod,
			"github.com/supranational/blst@v0.3.17/bindings/go/blst.go"},
		{"module cache, case-encoded", "github.com/ProjectZKM/Ziren/crates/go-runtime/zkvm_runtime.f",
			"/home/u/go/pkg/mod/github.com/!project!z!k!m/!ziren/crates/go-runtime/zkvm_runtime@v0.0.0-20251001021608-1fe7b43fc4d6/x.go", mod,
			"github.com/ProjectZKM/Ziren/crates/go-runtime/zkvm_runtime@v0.0.0-20251001021608-1fe7b43fc4d6/x.go"},
		{"module cache elsewhere", "gopkg.in/yaml%2ev3.(*parser).node",
			"/cache/gopkg.in/yaml.v3@v3.0.1/parserc.go", "",
			"gopkg.in/yaml.v3@v3.0.1/parserc.go"},
		{"module cache elsewhere, package below the module", "github.com/consensys/gnark-crypto/ecc/bls12-381.(*G2Affine).Bytes",
			"/m/github.com/consensys/gnark-crypto@v0.22.0/ecc/bls12-381/marshal.go", "",
			"github.com/consensys/gnark-crypto@v0.22.0/ecc/bls12-381/marshal.go"},
		{"GOROOT", "runtime.mallocgc", "/usr/local/go/src/runtime/malloc.go", mod, "runtime/malloc.go"},
		{"GOROOT, nested package", "math/big.nat.make", "/usr/lib/go-1.26/src/math/big/nat.go", "", "math/big/nat.go"},
		{"main module", mod + "/suites/internal/suitekit.Fill[...].Pointer.func1.1",
			"/work/wt/suites/internal/suitekit/suitekit.go", mod, "suites/internal/suitekit/suitekit.go"},
		{"main module, generic with paths in its type arguments", mod + "/suites/circl.addPublicKey[go.shape.struct { github.com/cloudflare/circl/sign/bls.g int }].func1.1",
			"/work/wt/suites/circl/circl.go", mod, "suites/circl/circl.go"},
		{"main module checked out under its own name", mod + "/suites/blst.f",
			"/home/u/memprof/suites/blst/blst.go", mod, "suites/blst/blst.go"},
		{"external test package", mod + "/memprof_test.ExampleMeasure",
			"/work/wt/memprof/example_test.go", mod, "memprof/example_test.go"},
		{"another module, not known", "example.com/app/internal/store.New",
			"/srv/app/internal/store/store.go", "", "internal/store/store.go"},
		{"already trimmed", "runtime.mallocgc", "runtime/malloc.go", mod, "runtime/malloc.go"},
		{"no package to match", "main.main", "/home/u/tool/main.go", "", "/home/u/tool/main.go"},
		{"not a function name", "0x4a2b1c", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SourcePath(tt.fn, tt.file, tt.main); got != tt.want {
				t.Errorf("SourcePath(%q, %q, %q) = %q, want %q", tt.fn, tt.file, tt.main, got, tt.want)
			}
		})
	}
}

// TestSourcePathOfThisBinary maps this test's own frames: its file is in
// heapscan/, the runtime's in runtime/.
func TestSourcePathOfThisBinary(t *testing.T) {
	pc, file, _, _ := runtime.Caller(0)
	fn := runtime.FuncForPC(pc).Name()
	if got, want := SourcePath(fn, file, "github.com/memprof/memprof"), "internal/frame/paths_test.go"; got != want {
		t.Errorf("SourcePath(%q, %q) = %q, want %q", fn, file, got, want)
	}
	rpc := runtime.FuncForPC(reflect.ValueOf(runtime.GC).Pointer())
	rfile, _ := rpc.FileLine(rpc.Entry())
	if got, want := SourcePath(rpc.Name(), rfile, ""), "runtime/mgc.go"; got != want {
		t.Errorf("SourcePath(%q, %q) = %q, want %q", rpc.Name(), rfile, got, want)
	}
}

func TestPackagePath(t *testing.T) {
	for fn, want := range map[string]string{
		"github.com/supranational/blst/bindings/go.(*P2Affine).Compress": "github.com/supranational/blst/bindings/go",
		"gopkg.in/yaml%2ev3.(*parser).node":                              "gopkg.in/yaml.v3",
		"runtime.mallocgc":                                               "runtime",
		"a/b.F[go.shape.struct { c/d.T }].func1":                         "a/b",
		"0x4a2b1c":                                                       "",
		"new(blst.P2Affine)":                                             "",
	} {
		if got := PackagePath(fn); got != want {
			t.Errorf("PackagePath(%q) = %q, want %q", fn, got, want)
		}
	}
}

package main

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"unsafe"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// tinyParam marks the entries of tinyRegistry: a measuring child asked
// for one serves tinyRegistry (TestMain), so that tests of the commands'
// behaviour (flags, formats, files, exit codes) measure cases of one
// small array each, not the real suites.
const tinyParam results.Param = "test=tiny"

// tinySignature is what each of the tiny registry's Signature instances
// is: a new array of a signature's compressed size; the tests read its
// size from unsafe.Sizeof, never a written figure.
type tinySignature [96]byte

// tinyRegistry is the Signature entries of three libraries in two
// representations each, every one a new tinySignature, with a module this
// binary links, whose version the results record (as the real suites'
// modules).
var tinyRegistry = sync.OnceValue(func() *suites.Registry {
	var entries []suites.Entry
	for _, lib := range []vocab.Lib{vocab.Blst, vocab.Gnark, vocab.Circl} {
		for _, repr := range []vocab.Repr{vocab.Affine, vocab.Jacobian} {
			entries = append(entries, suites.Entry{
				Key:         results.Key{Type: vocab.Signature, Lib: lib, Repr: repr, Layout: measure.Pointer, Scheme: vocab.MinPk, Param: tinyParam},
				Constructor: "new(tinySignature) (test)",
				SizeHint:    unsafe.Sizeof(tinySignature{}),
				Case: func() memprof.Case {
					return memprof.Case{New: func(int) any { return new(tinySignature) }}
				},
			})
		}
	}
	r, err := suites.NewRegistry(suites.Suite{Name: "tiny", Modules: []string{"github.com/consensys/gnark-crypto"}, Entries: entries})
	if err != nil {
		panic(err)
	}
	return r
})

// runTiny runs the CLI as runCLI does, on tinyRegistry: the tests that
// use it may run in parallel (no package variable changes).
func runTiny(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runCommand(context.Background(), tinyRegistry, args, &out, &errb)
	return code, out.String(), errb.String()
}

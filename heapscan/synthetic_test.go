package heapscan_test

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// The synthetic profile of the benchmarks: the shape of a large server's
// heap profile, written field by field in the order the Go runtime writes
// it (period type, period, sample types; then each sample after the
// locations and functions it introduces; the string table last).
const (
	synthStacks    = 600_000
	synthFunctions = 20_000
	synthMinDepth  = 8
	synthMaxDepth  = 24
	synthRate      = 512 * 1024 // runtime.MemProfileRate's default
)

var writeSynthetic = flag.String("write-synthetic", "", "write the benchmarks' synthetic heap profile (gzip) to `file` and exit the test")

var synthOnce = sync.OnceValues(func() (gz, plain []byte) {
	plain = syntheticProfile(synthStacks, synthFunctions, 1)
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed) // as runtime/pprof compresses
	zw.Write(plain)
	zw.Close()
	return b.Bytes(), plain
})

// TestWriteSynthetic writes the synthetic profile for command-line
// comparisons (go tool pprof, memprof heapscan under /usr/bin/time) when
// -write-synthetic is set.
func TestWriteSynthetic(t *testing.T) {
	if *writeSynthetic == "" {
		t.Skip("set -write-synthetic FILE to write the synthetic profile")
	}
	gz, plain := synthOnce()
	if err := os.WriteFile(*writeSynthetic, gz, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %d bytes, %d uncompressed", *writeSynthetic, len(gz), len(plain))
}

// syntheticProfile returns an uncompressed heap profile of nstacks
// distinct stacks over nfuncs functions (one location per function).
func syntheticProfile(nstacks, nfuncs int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	strs := []string{""}
	strIndex := map[string]uint64{"": 0}
	str := func(s string) uint64 {
		if i, ok := strIndex[s]; ok {
			return i
		}
		strIndex[s] = uint64(len(strs))
		strs = append(strs, s)
		return uint64(len(strs) - 1)
	}
	var b []byte
	valueType := func(field protowire.Number, typ, unit string) {
		var m []byte
		m = protowire.AppendTag(m, 1, protowire.VarintType)
		m = protowire.AppendVarint(m, str(typ))
		m = protowire.AppendTag(m, 2, protowire.VarintType)
		m = protowire.AppendVarint(m, str(unit))
		b = protowire.AppendTag(b, field, protowire.BytesType)
		b = protowire.AppendBytes(b, m)
	}
	valueType(11, "space", "bytes")
	b = protowire.AppendTag(b, 12, protowire.VarintType)
	b = protowire.AppendVarint(b, synthRate)
	valueType(1, "alloc_objects", "count")
	valueType(1, "alloc_space", "bytes")
	valueType(1, "inuse_objects", "count")
	valueType(1, "inuse_space", "bytes")

	emitted := make([]bool, nfuncs+1)
	emit := func(id int) {
		// Function, then its location, as runtime/pprof emits them.
		pkg := id % 700
		name := fmt.Sprintf("github.com/example/service/pkg%03d.(*Type%d).Method%d", pkg, id%37, id)
		file := fmt.Sprintf("/home/build/go/src/github.com/example/service/pkg%03d/file%d.go", pkg, id%11)
		var f []byte
		f = protowire.AppendTag(f, 1, protowire.VarintType)
		f = protowire.AppendVarint(f, uint64(id))
		f = protowire.AppendTag(f, 2, protowire.VarintType)
		f = protowire.AppendVarint(f, str(name))
		f = protowire.AppendTag(f, 3, protowire.VarintType)
		f = protowire.AppendVarint(f, str(name))
		f = protowire.AppendTag(f, 4, protowire.VarintType)
		f = protowire.AppendVarint(f, str(file))
		f = protowire.AppendTag(f, 5, protowire.VarintType)
		f = protowire.AppendVarint(f, uint64(10+id%400))
		b = protowire.AppendTag(b, 5, protowire.BytesType)
		b = protowire.AppendBytes(b, f)
		var ln []byte
		ln = protowire.AppendTag(ln, 1, protowire.VarintType)
		ln = protowire.AppendVarint(ln, uint64(id))
		ln = protowire.AppendTag(ln, 2, protowire.VarintType)
		ln = protowire.AppendVarint(ln, uint64(20+id%500))
		var l []byte
		l = protowire.AppendTag(l, 1, protowire.VarintType)
		l = protowire.AppendVarint(l, uint64(id))
		l = protowire.AppendTag(l, 2, protowire.VarintType)
		l = protowire.AppendVarint(l, 1)
		l = protowire.AppendTag(l, 3, protowire.VarintType)
		l = protowire.AppendVarint(l, 0x400000+uint64(id)*64)
		l = protowire.AppendTag(l, 4, protowire.BytesType)
		l = protowire.AppendBytes(l, ln)
		b = protowire.AppendTag(b, 4, protowire.BytesType)
		b = protowire.AppendBytes(b, l)
		emitted[id] = true
	}
	sizes := []int64{16, 32, 48, 64, 96, 144, 256, 512, 1024, 4096, 16384}
	bytesKey := str("bytes")
	var ids, packed, vals, lab, smp []byte
	for range nstacks {
		depth := synthMinDepth + rng.IntN(synthMaxDepth-synthMinDepth+1)
		ids = ids[:0]
		for range depth {
			id := 1 + rng.IntN(nfuncs)
			if !emitted[id] {
				emit(id)
			}
			ids = protowire.AppendVarint(ids, uint64(id))
		}
		size := sizes[rng.IntN(len(sizes))]
		allocN := int64(1 + rng.IntN(64))
		inuseN := int64(rng.IntN(int(allocN) + 1))
		packed = packed[:0]
		for _, v := range [][2]int64{scale(allocN, allocN*size), scale(inuseN, inuseN*size)} {
			packed = protowire.AppendVarint(packed, uint64(v[0]))
			packed = protowire.AppendVarint(packed, uint64(v[1]))
		}
		vals = vals[:0]
		lab = lab[:0]
		lab = protowire.AppendTag(lab, 1, protowire.VarintType)
		lab = protowire.AppendVarint(lab, bytesKey)
		lab = protowire.AppendTag(lab, 3, protowire.VarintType)
		lab = protowire.AppendVarint(lab, uint64(size))
		smp = smp[:0]
		smp = protowire.AppendTag(smp, 1, protowire.BytesType)
		smp = protowire.AppendBytes(smp, ids)
		smp = protowire.AppendTag(smp, 2, protowire.BytesType)
		smp = protowire.AppendBytes(smp, packed)
		smp = protowire.AppendTag(smp, 3, protowire.BytesType)
		smp = protowire.AppendBytes(smp, lab)
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendBytes(b, smp)
		_ = vals
	}
	for _, s := range strs {
		b = protowire.AppendTag(b, 6, protowire.BytesType)
		b = protowire.AppendString(b, s)
	}
	return b
}

// scale is runtime/pprof's scaleHeapSample at synthRate.
func scale(count, size int64) [2]int64 {
	if count == 0 || size == 0 {
		return [2]int64{0, 0}
	}
	avg := float64(size) / float64(count)
	s := 1 / (1 - math.Exp(-avg/synthRate))
	return [2]int64{int64(float64(count) * s), int64(float64(size) * s)}
}

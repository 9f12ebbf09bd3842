package heapscan

import (
	"bytes"
	"hash/maphash"

	"google.golang.org/protobuf/encoding/protowire"
)

// textSample accumulates the lines of one stack with one sign pattern
// (the signs of the line's four values, or two): within a pattern, every
// line is nonzero for the same kinds, so one set of sizes serves them all
// and no kind's sum is zero unless all its lines are.
type textSample struct {
	size    int64    // the first "bytes" label (others: textReader.more)
	sampled [2]int64 // objects the runtime sampled behind each kind's lines: allocated, in use
	next    int32    // the next sample with the same hash, or -1
	signs   byte
}

// textReader reads a legacy text heap profile as a stream.
type textReader struct {
	hdr      textHeader
	ntypes   int
	budget   int64
	retained int64

	locs     map[uint64]int32 // adjusted address -> location index
	addrs    []uint64         // location index -> adjusted address
	seed     maphash.Seed
	byHash   map[uint64]int32 // hash of stack and signs -> first sample
	agg      []textSample
	vals     []int64           // sample i's values are vals[i*ntypes:(i+1)*ntypes]
	more     map[int32][]int64 // sample -> its "bytes" labels after the first
	moreSeen map[sizeKey]struct{}
	stacks   []byte // location IDs (index+1) of every sample, as varints
	stackAt  []uint32

	syms symbolTable
	key  []byte
	pcs  []uint64

	// What lies beyond MaxLocations and MaxSamples: the location of
	// OverLimitFrame (-1 until needed), its stack, and the lines added to
	// it.
	overLoc   int32
	overKey   []byte
	overLines int64
}

// stack resolves a line's addresses to location indexes (creating new
// locations) and builds its key; it starts the symbol record of the line.
// A line that would take the locations past MaxLocations gets the stack
// of OverLimitFrame, and its symbol comments are skipped.
func (t *textReader) stack(addrs []uint64) {
	t.key = t.key[:0]
	t.pcs = t.pcs[:0]
	fresh := 0
	for _, a := range addrs {
		if _, ok := t.locs[a-1]; !ok {
			fresh++
		}
	}
	if fresh > 0 && len(t.addrs)+fresh >= MaxLocations {
		t.overStack()
		return
	}
	for _, a := range addrs {
		a-- // a return address: the call is the instruction before
		li, ok := t.locs[a]
		if !ok {
			li = int32(len(t.addrs))
			t.locs[a] = li
			t.addrs = append(t.addrs, a)
			t.retained += 150 // here and in the Heap
		}
		t.pcs = append(t.pcs, a)
		t.key = protowire.AppendVarint(t.key, uint64(li)+1)
	}
	t.syms.startRecord(t.pcs)
}

// add adds a line's values to the sample of its stack and sign pattern,
// and the objects sampled behind them, recovered per line as Summarize
// recovers them per sample: the sum is then what pprof's separate
// samples give.
func (t *textReader) add(v []int64, blocksize int64) {
	var signs byte
	for i, x := range v {
		switch {
		case x > 0:
			signs |= 1 << (2 * i)
		case x < 0:
			signs |= 2 << (2 * i)
		}
	}
	if signs == 0 {
		return // pprof's sample would be skipped by every summary
	}
	si, ok := t.find(signs)
	if (!ok || si < 0) && len(t.agg) >= MaxSamples && !t.over() {
		// A new stack past MaxSamples: added to OverLimitFrame's.
		t.overStack()
		si, ok = t.find(signs)
	}
	over := t.over()
	if over {
		t.overLines++
	}
	if !ok || si < 0 {
		hash := t.hash(signs)
		first := int32(-1)
		if ok {
			first = t.byHash[hash]
		}
		si = int32(len(t.agg))
		t.byHash[hash] = si
		t.agg = append(t.agg, textSample{size: blocksize, next: first, signs: signs})
		t.vals = append(t.vals, make([]int64, t.ntypes)...)
		t.stacks = append(t.stacks, t.key...)
		t.stackAt = append(t.stackAt, uint32(len(t.stacks)))
		t.retained += int64(len(t.key)) + int64(8*t.ntypes) + 80
	}
	s := &t.agg[si]
	base := int(si) * t.ntypes
	for i, x := range v {
		t.vals[base+i] += x
		if i%2 == 0 {
			s.sampled[i/2] += sampledAt(x, v[i+1], t.hdr.period)
		}
	}
	if over || s.size == blocksize {
		return // OverLimitFrame's samples keep no sizes but their first
	}
	k := sizeKey{si, blocksize}
	if _, seen := t.moreSeen[k]; seen {
		return
	}
	if t.more == nil {
		t.more, t.moreSeen = map[int32][]int64{}, map[sizeKey]struct{}{}
	}
	t.moreSeen[k] = struct{}{}
	t.more[si] = append(t.more[si], blocksize)
	t.retained += 80
}

// sizeKey is a "bytes" label of a sample, beyond its first.
type sizeKey struct {
	sample int32
	size   int64
}

// hash is the hash of the current key and signs.
func (t *textReader) hash(signs byte) uint64 {
	return maphash.Bytes(t.seed, t.key) ^ uint64(signs)*0x9e3779b97f4a7c15
}

// find returns the sample of the current key and signs; ok says whether
// their hash is known, si is -1 when the sample is not.
func (t *textReader) find(signs byte) (si int32, ok bool) {
	si, ok = t.byHash[t.hash(signs)]
	for ok && si >= 0 && (t.agg[si].signs != signs || !bytes.Equal(t.sampleStack(si), t.key)) {
		si = t.agg[si].next
	}
	return si, ok
}

// overStack makes the current key the stack of OverLimitFrame alone
// (creating its location), and skips the line's symbol comments.
func (t *textReader) overStack() {
	if t.overLoc < 0 {
		t.overLoc = int32(len(t.addrs))
		t.addrs = append(t.addrs, 0) // named in heap, never by a symbol comment
		t.overKey = protowire.AppendVarint(nil, uint64(t.overLoc)+1)
		t.retained += 48
	}
	t.key = append(t.key[:0], t.overKey...)
	t.pcs = t.pcs[:0]
	t.syms.skipRecord()
}

// over reports whether the current key is OverLimitFrame's stack.
func (t *textReader) over() bool {
	return t.overLoc >= 0 && bytes.Equal(t.key, t.overKey)
}

func (t *textReader) sampleStack(i int32) []byte {
	start := uint32(0)
	if i > 0 {
		start = t.stackAt[i-1]
	}
	return t.stacks[start:t.stackAt[i]]
}

// heap builds the Heap: one sample per stack, kind and sign pattern, in
// the order their first lines appeared; locations as address frames,
// named by their symbol comments where the profile has them.
func (t *textReader) heap() (*Heap, error) {
	types := t.hdr.sampleTypes()
	h := &Heap{SampleTypes: types, PeriodType: ValueType{"space", "bytes"}, Period: t.hdr.period}
	ntypes := len(types)
	h.stacks = t.stacks
	h.stackEnd = t.stackAt
	h.rawSampled = make([]int64, 0, len(t.vals))
	h.values = make([]byte, 0, len(t.vals)*2)
	h.valueEnd = make([]uint32, 0, len(t.agg))
	h.sizes = make([]int64, 0, len(t.agg))
	h.sizeEnd = make([]uint32, 0, len(t.agg))
	for i := range t.agg {
		for _, v := range t.vals[i*ntypes : (i+1)*ntypes] {
			h.values = protowire.AppendVarint(h.values, uint64(v))
		}
		h.valueEnd = append(h.valueEnd, uint32(len(h.values)))
		h.sizes = append(h.sizes, t.agg[i].size)
		h.sizes = append(h.sizes, t.more[int32(i)]...)
		h.sizeEnd = append(h.sizeEnd, uint32(len(h.sizes)))
		// Objects sampled, laid out as the values (for each count type).
		for k := 0; k < ntypes; k += 2 {
			h.rawSampled = append(h.rawSampled, t.agg[i].sampled[k/2], 0)
		}
	}
	h.nsamples = len(t.agg)
	t.vals, t.agg, t.byHash, t.more, t.moreSeen = nil, nil, nil, nil, nil
	h.locLines = make([]uint32, 0, len(t.addrs)+1)
	ids := make([]uint64, len(t.addrs))
	for i, a := range t.addrs {
		h.locLines = append(h.locLines, uint32(len(h.lines)))
		if int32(i) == t.overLoc {
			h.lines = append(h.lines, line{fn: int32(len(h.funcs))})
			h.funcs = append(h.funcs, function{name: OverLimitFrame})
		} else {
			h.addAddressFrame(a)
		}
		ids[i] = uint64(i + 1)
	}
	h.locLines = append(h.locLines, uint32(len(h.lines)))
	if err := h.setLocationIDs(ids); err != nil {
		return nil, err
	}
	h.symbolize(t.addrs, &t.syms, t.overLoc)
	if t.overLines > 0 {
		h.Notes = append(h.Notes, overLimitNote(t.overLines, "sample lines"))
	}
	return h, h.check()
}

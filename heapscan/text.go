package heapscan

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// The legacy text heap profile (/debug/pprof/heap?debug=1, and the older
// heapz formats pprof reads) is read here as a stream, line by line, as
// github.com/google/pprof/profile's parseHeap reads it: the same header
// and sample expressions, the same scaling and "bytes" label, the same
// address adjustment (each return address minus one). Unlike pprof, which
// keeps one sample per line (about 27 bytes of memory per byte of text),
// lines with the same stack are added together as they are read, so a
// profile of repeated lines costs the memory of its distinct stacks.
//
// Lines are kept apart by the signs of their values (textSample), so
// that the sums behave in Summarize exactly as pprof's separate samples
// do: a group of lines whose values are all zero for a kind contributes
// nothing to it (no row, no size), and a group with any nonzero line
// never sums to zero.
//
// The "#" comment lines that debug=1 writes under each sample name its
// frames: "#\t0x47c9ab\tmain.foo+0x2b\t/src/main.go:12", one line per
// frame, inlined frames first, under the program counter they share
// (the sample's address minus one). pprof skips them; heapscan uses them
// (symbolTable) so that rows are functions and sites.

// The expressions pprof matches (github.com/google/pprof/profile,
// legacy_profile.go).
var (
	heapHeaderRE          = regexp.MustCompile(`heap profile: *(\d+): *(\d+) *\[ *(\d+): *(\d+) *\] *@ *(heap[_a-z0-9]*)/?(\d*)`)
	heapSampleRE          = regexp.MustCompile(`(-?\d+): *(-?\d+) *\[ *(\d+): *(\d+) *] @([ x0-9a-f]*)`)
	hexNumberRE           = regexp.MustCompile(`0x[0-9a-f]+`)
	growthHeaderRE        = regexp.MustCompile(`heap profile: *(\d+): *(\d+) *\[ *(\d+): *(\d+) *\] @ growthz?`)
	fragmentationHeaderRE = regexp.MustCompile(`heap profile: *(\d+): *(\d+) *\[ *(\d+): *(\d+) *\] @ fragmentationz?`)
	countStartRE          = regexp.MustCompile(`\A(\S+) profile: total \d+\z`)
)

// maxTextLine is the longest line the text reader accepts, as pprof's
// bufio.Scanner does (bufio.MaxScanTokenSize).
const maxTextLine = bufio.MaxScanTokenSize

// textHeader is what the first line of a legacy heap profile says.
type textHeader struct {
	period   int64
	hasAlloc bool // four sample types; else two, named objects and space
	scale    bool // values are sampled and must be scaled (heap_v2)
}

// parseTextHeader parses the first line as pprof's parseHeap does.
func parseTextHeader(line string) (textHeader, error) {
	if m := heapHeaderRE.FindStringSubmatch(line); m != nil {
		var h textHeader
		if len(m[6]) > 0 {
			p, err := strconv.ParseInt(m[6], 10, 64)
			if err != nil {
				return h, fmt.Errorf("malformed profile: line 1: sampling period %q out of range", m[6])
			}
			h.period = p
		}
		h.hasAlloc = (m[3] != m[1] && m[3] != "0") || (m[4] != m[2] && m[4] != "0")
		switch m[5] {
		case "heapz_v2", "heap_v2":
			h.scale = true
		case "heapprofile":
			h.period = 1
		case "heap":
			// Go writes 2*MemProfileRate.
			h.scale = true
			h.period /= 2
		default:
			return h, fmt.Errorf("not a profile: line 1: unknown heap profile kind %q", m[5])
		}
		return h, nil
	}
	if growthHeaderRE.MatchString(line) || fragmentationHeaderRE.MatchString(line) {
		return textHeader{period: 1}, nil
	}
	if m := countStartRE.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
		return textHeader{}, fmt.Errorf("not a heap profile: a legacy text %s profile", m[1])
	}
	return textHeader{}, errors.New("not a profile: text that is not the legacy heap profile format (the first line is not a heap profile header)")
}

func (th textHeader) sampleTypes() []ValueType {
	if th.hasAlloc {
		return []ValueType{{"alloc_objects", "count"}, {"alloc_space", "bytes"}, {"inuse_objects", "count"}, {"inuse_space", "bytes"}}
	}
	return []ValueType{{"objects", "count"}, {"space", "bytes"}}
}

// textLine is one parsed sample line.
type textLine struct {
	inuseCount, inuseSize int64
	allocCount, allocSize int64
	addrs                 []uint64 // as written (return addresses)
}

// parseTextSample parses a sample line ("1: 64 [2: 128] @ 0x4a 0x4b"),
// already trimmed, into l (whose addrs buffer it reuses). A line in the
// exact form Go writes is parsed directly; any other is matched with
// pprof's expression, so both accept the same lines with the same values.
func parseTextSample(b []byte, l *textLine) error {
	l.addrs = l.addrs[:0]
	if parseTextSampleFast(b, l) {
		return nil
	}
	l.addrs = l.addrs[:0]
	m := heapSampleRE.FindSubmatch(b)
	if m == nil {
		return errors.New("not a heap sample line")
	}
	var err error
	num := func(s []byte) int64 {
		v, e := strconv.ParseInt(string(s), 10, 64)
		if e != nil && err == nil {
			err = fmt.Errorf("number %s out of range", s)
		}
		return v
	}
	l.inuseCount, l.inuseSize, l.allocCount, l.allocSize = num(m[1]), num(m[2]), num(m[3]), num(m[4])
	if err != nil {
		return err
	}
	for _, h := range hexNumberRE.FindAll(m[5], -1) {
		a, e := strconv.ParseUint(string(h[2:]), 16, 64)
		if e != nil {
			return fmt.Errorf("address %s is not a 64-bit number", h)
		}
		l.addrs = append(l.addrs, a)
	}
	return nil
}

// parseTextSampleFast parses the canonical form, `-?\d+: -?\d+ [\d+: \d+] @`
// followed by " 0x…" addresses to the end of the line, and reports
// whether the line had it. Where it does, heapSampleRE matches from the
// first byte with the same groups.
func parseTextSampleFast(b []byte, l *textLine) bool {
	i := 0
	num := func(signed bool) (int64, bool) {
		neg := false
		if signed && i < len(b) && b[i] == '-' {
			neg = true
			i++
		}
		start := i
		var v uint64
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			if v > (math.MaxInt64-9)/10 {
				return 0, false // leave overflow to the slow path's error
			}
			v = v*10 + uint64(b[i]-'0')
			i++
		}
		if i == start {
			return 0, false
		}
		if neg {
			return -int64(v), true
		}
		return int64(v), true
	}
	lit := func(c byte) bool {
		if i < len(b) && b[i] == c {
			i++
			return true
		}
		return false
	}
	spaces := func() {
		for i < len(b) && b[i] == ' ' {
			i++
		}
	}
	// pair reads "count: size" and the spaces after it.
	pair := func(signed bool, count, size *int64) bool {
		var ok bool
		if *count, ok = num(signed); !ok || !lit(':') {
			return false
		}
		spaces()
		if *size, ok = num(signed); !ok {
			return false
		}
		spaces()
		return true
	}
	if !pair(true, &l.inuseCount, &l.inuseSize) || !lit('[') {
		return false
	}
	spaces()
	if !pair(false, &l.allocCount, &l.allocSize) || !lit(']') || !lit(' ') || !lit('@') {
		return false
	}
	for i < len(b) {
		if !lit(' ') {
			return false
		}
		spaces()
		if i == len(b) {
			break
		}
		if !lit('0') || !lit('x') {
			return false
		}
		start := i
		var a uint64
		for i < len(b) {
			c := b[i]
			var d byte
			switch {
			case c >= '0' && c <= '9':
				d = c - '0'
			case c >= 'a' && c <= 'f':
				d = c - 'a' + 10
			default:
				goto end
			}
			if i-start >= 16 {
				return false // more than 64 bits: the slow path says so
			}
			a = a<<4 | uint64(d)
			i++
		}
	end:
		if i == start {
			return false
		}
		l.addrs = append(l.addrs, a)
	}
	return true
}

// scaleHeapSample is pprof's: a sampled heap count and size divided by the
// probability that an object of their average size was sampled.
func scaleHeapSample(count, size, rate int64) (int64, int64) {
	if count == 0 || size == 0 {
		return 0, 0
	}
	if rate <= 1 {
		return count, size
	}
	avgSize := float64(size) / float64(count)
	scale := 1 / (1 - math.Exp(-avgSize/float64(rate)))
	return int64(float64(count) * scale), int64(float64(size) * scale)
}

// lineValues computes what pprof makes of one sample line: per sample
// kind the scaled count and size, and the line's "bytes" label.
func (th textHeader) lineValues(l *textLine) (alloc, inuse [2]int64, blocksize int64, err error) {
	add := func(count, size int64, what string) ([2]int64, error) {
		if count == 0 && size != 0 {
			return [2]int64{}, fmt.Errorf("%s count was 0 but %s bytes was %d", what, what, size)
		}
		if count != 0 {
			blocksize = size / count
			if th.scale {
				count, size = scaleHeapSample(count, size, th.period)
			}
		}
		return [2]int64{count, size}, nil
	}
	if th.hasAlloc {
		if alloc, err = add(l.allocCount, l.allocSize, "allocation"); err != nil {
			return
		}
	}
	inuse, err = add(l.inuseCount, l.inuseSize, "inuse")
	return
}

func isMemoryMapSentinel(line []byte) bool {
	return bytes.Contains(line, []byte("--- Memory map: ---")) || bytes.Contains(line, []byte("MAPPED_LIBRARIES:"))
}

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

// decodeText reads a legacy text heap profile from r. budget bounds the
// memory its decoded data retains.
func decodeText(r io.Reader, budget int64) (*Heap, error) {
	// The scanner hands out the last, partial line before the error
	// that cut it (the size limit, say): that error is the one to tell.
	er := &errReader{r: r}
	sc := bufio.NewScanner(er)
	sc.Buffer(make([]byte, 4096), maxTextLine)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, textScanErr(err, 1)
		}
		return nil, errors.New("not a profile: no data")
	}
	hdr, err := parseTextHeader(sc.Text())
	if err != nil {
		return nil, err
	}
	ntypes := len(hdr.sampleTypes())
	t := &textReader{hdr: hdr, ntypes: ntypes, budget: budget, locs: map[uint64]int32{}, seed: maphash.MakeSeed(), byHash: map[uint64]int32{}, overLoc: -1}
	var l textLine
	lineNo := 1
	inMaps := false
	for sc.Scan() {
		lineNo++
		if inMaps {
			continue // pprof reads the memory map; heapscan has no use for it
		}
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if b[0] == '#' {
			t.syms.comment(b)
			continue
		}
		if isMemoryMapSentinel(b) {
			inMaps = true
			continue
		}
		if err := parseTextSample(b, &l); err != nil {
			if er.err != nil && er.err != io.EOF {
				return nil, er.err
			}
			return nil, fmt.Errorf("malformed profile: line %d: %w", lineNo, err)
		}
		alloc, inuse, blocksize, err := hdr.lineValues(&l)
		if err != nil {
			return nil, fmt.Errorf("malformed profile: line %d: %w", lineNo, err)
		}
		t.stack(l.addrs)
		if hdr.hasAlloc {
			t.add([]int64{alloc[0], alloc[1], inuse[0], inuse[1]}, blocksize)
		} else {
			t.add([]int64{inuse[0], inuse[1]}, blocksize)
		}
		if t.retained+t.syms.retained > t.budget {
			return nil, fmt.Errorf("decoded profile exceeds the limit of %d bytes of retained data at line %d: %w", t.budget, lineNo, errTooLarge)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, textScanErr(err, lineNo+1)
	}
	t.syms.endRecord()
	if t.retained+t.syms.retained > t.budget {
		return nil, fmt.Errorf("decoded profile exceeds the limit of %d bytes of retained data: %w", t.budget, errTooLarge)
	}
	return t.heap()
}

// errReader remembers its reader's error.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && e.err == nil {
		e.err = err
	}
	return n, err
}

func textScanErr(err error, line int) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("malformed profile: line %d is longer than %d bytes", line, maxTextLine)
	}
	return err
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

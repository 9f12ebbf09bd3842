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

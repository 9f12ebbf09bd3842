package heapscan

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/google/pprof/profile"
)

// ValueType names one value of a sample ("inuse_space", "bytes").
type ValueType struct {
	Type string
	Unit string
}

// Heap is a heap profile held in the compact form heapscan groups: the
// sample values, each sample's stack as a list of location IDs, the
// "bytes" label, and the location and function tables. Both readers
// produce it: Decode streams the protobuf wire format without building
// pprof's object model, and FromProfile converts a parsed
// *profile.Profile. A Heap retains nothing of its input.
type Heap struct {
	// SampleTypes name the values of every sample, in order.
	SampleTypes []ValueType
	// PeriodType and Period are the profile's sampling period: for a Go
	// heap profile, Period is runtime.MemProfileRate (1 = every
	// allocation recorded).
	PeriodType ValueType
	Period     int64
	// DurationNanos is the profile's duration_nanos: set (positive) for a
	// profile of the changes over a time (/debug/pprof/heap?seconds=N),
	// never by the Go runtime's own heap profile.
	DurationNanos int64
	// Notes say what a reader of the figures must know about the input
	// (e.g. a text profile without symbols).
	Notes []string

	nsamples   int
	negatives  int      // samples with a negative value
	rawSampled []int64  // legacy text: objects sampled behind each value of sample i, summed over its lines, laid out as values (nil: recover them from the values)
	values     []byte   // every sample's values, as varints
	valueEnd   []uint32 // sample i's values are values[valueEnd[i-1]:valueEnd[i]]
	stacks     []byte   // location IDs of every sample, leaf first, as varints
	stackEnd   []uint32 // sample i's IDs are stacks[stackEnd[i-1]:stackEnd[i]]
	sizes      []int64  // the "bytes" label values of every sample
	sizeEnd    []uint32 // sample i's sizes are sizes[sizeEnd[i-1]:sizeEnd[i]]

	funcs    []function
	locLines []uint32 // location i's lines are lines[locLines[i]:locLines[i+1]]
	lines    []line
	locDense []int32 // location ID -> index + 1 (0: none), when IDs are dense
	locMap   map[uint64]int32

	addrFuncs map[uint64]int32 // address frame -> index into funcs
}

// function is one function of the profile, resolved to its names.
type function struct {
	name string
	file string
	// runtime marks an unnamed frame known to be the Go runtime's (one
	// the runtime left out of a text profile's symbol comments).
	runtime bool
}

// line is one frame of a location: inlined callees come first.
type line struct {
	fn   int32 // index into Heap.funcs
	line int64
}

// Samples returns the number of samples in the profile.
func (h *Heap) Samples() int { return h.nsamples }

// sampleStack returns sample i's encoded location IDs.
func (h *Heap) sampleStack(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = h.stackEnd[i-1]
	}
	return h.stacks[start:h.stackEnd[i]]
}

// sampleValues returns sample i's encoded values.
func (h *Heap) sampleValues(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = h.valueEnd[i-1]
	}
	return h.values[start:h.valueEnd[i]]
}

// sampleSizes returns sample i's "bytes" label values.
func (h *Heap) sampleSizes(i int) []int64 {
	start := uint32(0)
	if i > 0 {
		start = h.sizeEnd[i-1]
	}
	return h.sizes[start:h.sizeEnd[i]]
}

// locIndex returns the index of the location with the given ID.
func (h *Heap) locIndex(id uint64) (int32, bool) {
	if h.locMap != nil {
		i, ok := h.locMap[id]
		return i, ok
	}
	if id < uint64(len(h.locDense)) {
		if i := h.locDense[id]; i > 0 {
			return i - 1, true
		}
	}
	return 0, false
}

// setLocationIDs builds the ID lookup for locations whose IDs are ids.
func (h *Heap) setLocationIDs(ids []uint64) error {
	var maxID uint64
	for _, id := range ids {
		maxID = max(maxID, id)
	}
	if maxID <= uint64(2*len(ids)+1024) {
		h.locDense = make([]int32, maxID+1)
		for i, id := range ids {
			if id == 0 {
				return fmt.Errorf("malformed profile: location %d has ID 0", i)
			}
			if h.locDense[id] != 0 {
				return fmt.Errorf("malformed profile: duplicate location ID %d", id)
			}
			h.locDense[id] = int32(i + 1)
		}
		return nil
	}
	h.locMap = make(map[uint64]int32, len(ids))
	for i, id := range ids {
		if id == 0 {
			return fmt.Errorf("malformed profile: location %d has ID 0", i)
		}
		if _, dup := h.locMap[id]; dup {
			return fmt.Errorf("malformed profile: duplicate location ID %d", id)
		}
		h.locMap[id] = int32(i)
	}
	return nil
}

// check validates what the readers could not check while reading: every
// sample has one value per sample type and refers only to locations that
// exist.
func (h *Heap) check() error {
	if len(h.SampleTypes) == 0 {
		return errors.New("not a heap profile: it has no sample types (is it a profile at all?)")
	}
	h.negatives = 0
	for i := 0; i < h.nsamples; i++ {
		b, n, neg := h.sampleValues(i), 0, false
		for ; len(b) > 0; n++ {
			v, m := protowire.ConsumeVarint(b)
			if m < 0 {
				return fmt.Errorf("malformed profile: sample %d: bad value: %w", i, protowire.ParseError(m))
			}
			neg = neg || int64(v) < 0
			b = b[m:]
		}
		if neg {
			h.negatives++
		}
		if n != len(h.SampleTypes) {
			return fmt.Errorf("malformed profile: sample %d has %d values, want one per sample type (%d)", i, n, len(h.SampleTypes))
		}
		b = h.sampleStack(i)
		for len(b) > 0 {
			id, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return fmt.Errorf("malformed profile: sample %d: bad location ID: %w", i, protowire.ParseError(n))
			}
			b = b[n:]
			if _, ok := h.locIndex(id); !ok {
				return fmt.Errorf("malformed profile: sample %d refers to location ID %d, which the profile does not define", i, id)
			}
		}
	}
	return nil
}

// sampleIndexes returns the indexes of the sample types that count the
// objects and the bytes of kind ("inuse" or "alloc"): kind_objects and
// kind_space, or pprof's names for a legacy text profile whose allocated
// and in-use figures are equal, objects and space. A profile with a
// single sample type (inuse_space only, as continuous-profiling agents
// write them) has no object count: objects is then -1.
func (h *Heap) sampleIndexes(kind string) (objects, space int, err error) {
	find := func(name string) int {
		for i, st := range h.SampleTypes {
			if st.Type == name {
				return i
			}
		}
		return -1
	}
	objects, space = find(kind+"_objects"), find(kind+"_space")
	if space < 0 {
		objects, space = find("objects"), find("space")
	}
	if space < 0 {
		return 0, 0, fmt.Errorf("not a heap profile: want sample type %s_space (with %s_objects), or space, has %s",
			kind, kind, h.sampleTypeList())
	}
	return objects, space, nil
}

func (h *Heap) sampleTypeList() string {
	s := ""
	for i, st := range h.SampleTypes {
		if i > 0 {
			s += ", "
		}
		s += st.Type + "/" + st.Unit
	}
	if s == "" {
		s = "none"
	}
	return s
}

// FromProfile converts a profile parsed by github.com/google/pprof/profile
// into a Heap. p is read, not changed or retained. It is the model
// reader's last step and the reader for profiles built in memory.
func FromProfile(p *profile.Profile) (*Heap, error) {
	h, _, err := fromProfile(p)
	return h, err
}

// fromProfile is FromProfile; it also returns the address of every
// location of the Heap, by index.
func fromProfile(p *profile.Profile) (*Heap, []uint64, error) {
	h := &Heap{Period: p.Period, DurationNanos: p.DurationNanos}
	if p.PeriodType != nil {
		h.PeriodType = ValueType{p.PeriodType.Type, p.PeriodType.Unit}
	}
	for _, st := range p.SampleType {
		h.SampleTypes = append(h.SampleTypes, ValueType{st.Type, st.Unit})
	}
	funcIndex := map[*profile.Function]int32{}
	locIndex := make(map[*profile.Location]uint64, len(p.Location))
	var ids, addrs []uint64
	addLocation := func(loc *profile.Location) uint64 {
		if id, ok := locIndex[loc]; ok {
			return id
		}
		h.locLines = append(h.locLines, uint32(len(h.lines)))
		for _, ln := range loc.Line {
			if ln.Function == nil {
				continue
			}
			fi, ok := funcIndex[ln.Function]
			if !ok {
				fi = int32(len(h.funcs))
				funcIndex[ln.Function] = fi
				h.funcs = append(h.funcs, function{name: ln.Function.Name, file: ln.Function.Filename})
			}
			h.lines = append(h.lines, line{fn: fi, line: ln.Line})
		}
		if len(h.lines) == int(h.locLines[len(h.locLines)-1]) {
			h.addAddressFrame(loc.Address)
		}
		id := uint64(len(ids) + 1)
		ids = append(ids, id)
		addrs = append(addrs, loc.Address)
		locIndex[loc] = id
		return id
	}
	for _, loc := range p.Location {
		addLocation(loc)
	}
	for _, s := range p.Sample {
		if len(s.Value) != len(p.SampleType) {
			return nil, nil, fmt.Errorf("malformed profile: sample %d has %d values, want %d", h.nsamples, len(s.Value), len(p.SampleType))
		}
		for _, v := range s.Value {
			h.values = protowire.AppendVarint(h.values, uint64(v))
		}
		for _, loc := range s.Location {
			if loc == nil {
				return nil, nil, fmt.Errorf("malformed profile: sample %d has a nil location", h.nsamples)
			}
			h.stacks = protowire.AppendVarint(h.stacks, addLocation(loc))
		}
		h.sizes = append(h.sizes, s.NumLabel["bytes"]...)
		if uint64(len(h.stacks)) > math.MaxUint32 || uint64(len(h.values)) > math.MaxUint32 || uint64(len(h.sizes)) > math.MaxUint32 {
			return nil, nil, errors.New("profile too large: more than 4 GiB of samples")
		}
		h.stackEnd = append(h.stackEnd, uint32(len(h.stacks)))
		h.valueEnd = append(h.valueEnd, uint32(len(h.values)))
		h.sizeEnd = append(h.sizeEnd, uint32(len(h.sizes)))
		h.nsamples++
	}
	h.locLines = append(h.locLines, uint32(len(h.lines)))
	if err := h.setLocationIDs(ids); err != nil {
		return nil, nil, err
	}
	if err := h.check(); err != nil {
		return nil, nil, err
	}
	return h, addrs, nil
}

// addAddressFrame gives a location without symbol information one frame
// named by its address, so unsymbolized profiles still group by location.
func (h *Heap) addAddressFrame(addr uint64) {
	fi, ok := h.addrFuncs[addr]
	if !ok {
		if h.addrFuncs == nil {
			h.addrFuncs = map[uint64]int32{}
		}
		fi = int32(len(h.funcs))
		h.addrFuncs[addr] = fi
		h.funcs = append(h.funcs, function{name: "0x" + strconv.FormatUint(addr, 16)})
	}
	h.lines = append(h.lines, line{fn: fi})
}

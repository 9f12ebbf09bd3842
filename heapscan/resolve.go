package heapscan

import (
	"errors"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// resolve turns string indexes into names, function IDs into indexes and
// numeric labels into the "bytes" sizes, then checks the samples.
func (d *decoder) resolve() error {
	h := d.h
	if d.badScalar {
		return errors.New("malformed profile: a sample, location, function or string is encoded as a varint")
	}
	if len(d.strings) > 0 && d.strings[0] != "" {
		return errors.New("malformed profile: string table does not start with the empty string")
	}
	if err := d.resolveTypes(); err != nil {
		return err
	}
	funcIndex, err := d.resolveFunctions()
	if err != nil {
		return err
	}
	overID, err := d.resolveLocations(funcIndex)
	if err != nil {
		return err
	}
	if err := d.resolveLabels(); err != nil {
		return err
	}
	if err := d.addOverSample(overID); err != nil {
		return err
	}
	if n := d.overSamples + d.overRewrites; n > 0 {
		h.Notes = append(h.Notes, overLimitNote(n, "samples"))
	}
	return h.check()
}

// resolveTypes names the sample types and the period type.
func (d *decoder) resolveTypes() error {
	h := d.h
	var err error
	for i, vt := range d.sampleTypes {
		var t, u string
		if t, err = d.str(vt[0], fmt.Sprintf("sample type %d", i)); err != nil {
			return err
		}
		if u, err = d.str(vt[1], fmt.Sprintf("sample type %d unit", i)); err != nil {
			return err
		}
		h.SampleTypes = append(h.SampleTypes, ValueType{t, u})
	}
	if h.PeriodType.Type, err = d.str(d.periodType[0], "period type"); err != nil {
		return err
	}
	if h.PeriodType.Unit, err = d.str(d.periodType[1], "period type unit"); err != nil {
		return err
	}
	return nil
}

// resolveFunctions names the functions and returns the index of each
// function ID.
func (d *decoder) resolveFunctions() (map[uint64]int32, error) {
	h := d.h
	// Functions: IDs to indexes.
	funcIndex := make(map[uint64]int32, len(d.funcIDs))
	h.funcs = make([]function, 0, len(d.funcs)+len(d.locIDs))
	for i, f := range d.funcs {
		id := d.funcIDs[i]
		if id == 0 {
			return nil, fmt.Errorf("malformed profile: function %d has ID 0", i)
		}
		if _, dup := funcIndex[id]; dup {
			return nil, fmt.Errorf("malformed profile: duplicate function ID %d", id)
		}
		name, err := d.str(f[0], fmt.Sprintf("function %d name", id))
		if err != nil {
			return nil, err
		}
		file, err := d.str(f[1], fmt.Sprintf("function %d file name", id))
		if err != nil {
			return nil, err
		}
		funcIndex[id] = int32(len(h.funcs))
		h.funcs = append(h.funcs, function{name: name, file: file})
	}
	d.funcs, d.funcIDs = nil, nil
	return funcIndex, nil
}

// resolveLocations turns the locations' lines into function indexes, adds
// OverLimitFrame's location where the profile was cut, and returns its
// ID (0 for none).
func (d *decoder) resolveLocations(funcIndex map[uint64]int32) (overID uint64, err error) {
	h := d.h
	// Locations: lines to function indexes.
	h.locLines = make([]uint32, 0, len(d.locIDs)+1)
	h.lines = make([]line, 0, len(d.lines))
	for i := range d.locIDs {
		end := len(d.lines)
		if i+1 < len(d.locLines) {
			end = int(d.locLines[i+1])
		}
		h.locLines = append(h.locLines, uint32(len(h.lines)))
		for _, ln := range d.lines[d.locLines[i]:end] {
			if ln.fnID == 0 {
				continue
			}
			fi, ok := funcIndex[ln.fnID]
			if !ok {
				return 0, fmt.Errorf("malformed profile: location %d refers to function ID %d, which the profile does not define", d.locIDs[i], ln.fnID)
			}
			h.lines = append(h.lines, line{fn: fi, line: ln.line})
		}
		if len(h.lines) == int(h.locLines[i]) {
			h.addAddressFrame(d.locAddrs[i])
		}
	}
	// OverLimitFrame's location, under an ID no other has.
	if d.overSamples > 0 || d.locsLeftOut > 0 {
		// Above every location's and every sample's: even an ID no
		// location defines stays undefined.
		overID = d.maxLocID
		for b := h.stacks; len(b) > 0; {
			id, n := protowire.ConsumeVarint(b)
			if n < 0 {
				break // Heap.check says so
			}
			overID, b = max(overID, id), b[n:]
		}
		overID++
		h.locLines = append(h.locLines, uint32(len(h.lines)))
		h.lines = append(h.lines, line{fn: int32(len(h.funcs))})
		h.funcs = append(h.funcs, function{name: OverLimitFrame})
		d.locIDs = append(d.locIDs, overID)
	}
	h.locLines = append(h.locLines, uint32(len(h.lines)))
	if err := h.setLocationIDs(d.locIDs); err != nil {
		return 0, err
	}
	d.lines, d.locIDs, d.locAddrs, d.locLines = nil, nil, nil, nil
	if d.locsLeftOut > 0 {
		// A location left out leaves its samples to OverLimitFrame's (a
		// profile past the limit cannot tell them from samples that
		// refer to no location at all).
		if err := d.toOverLimit(overID); err != nil {
			return 0, err
		}
	}
	return overID, nil
}

// resolveLabels keeps the samples' "bytes" label values.
func (d *decoder) resolveLabels() error {
	h := d.h
	h.sizeEnd = make([]uint32, len(d.labelEnd))
	b, start := d.labels, uint32(0)
	for i, end := range d.labelEnd {
		for j := start; j < end; {
			k, n := protowire.ConsumeVarint(b[j:])
			v, m := protowire.ConsumeVarint(b[j+uint32(n):])
			j += uint32(n + m)
			if k >= uint64(len(d.strings)) {
				return fmt.Errorf("malformed profile: a label of sample %d refers to string %d, but the string table has %d entries", i, k, len(d.strings))
			}
			if d.strings[k] == "bytes" {
				h.sizes = append(h.sizes, int64(v))
			}
		}
		start = end
		h.sizeEnd[i] = uint32(len(h.sizes))
	}
	d.labels, d.labelEnd = nil, nil
	return nil
}

// addOverSample adds the sample that sums the samples past MaxSamples,
// at OverLimitFrame's location overID, where there were any.
func (d *decoder) addOverSample(overID uint64) error {
	h := d.h
	if d.overSamples > 0 {
		if d.overBad || len(d.overValues) != len(h.SampleTypes) {
			return fmt.Errorf("malformed profile: a sample past the first %d has another number of values than the sample types (%d)", MaxSamples, len(h.SampleTypes))
		}
		for _, v := range d.overValues {
			h.values = protowire.AppendVarint(h.values, uint64(v))
		}
		h.stacks = protowire.AppendVarint(h.stacks, overID)
		h.stackEnd = append(h.stackEnd, uint32(len(h.stacks)))
		h.valueEnd = append(h.valueEnd, uint32(len(h.values)))
		h.sizeEnd = append(h.sizeEnd, uint32(len(h.sizes)))
		h.nsamples++
	}
	return nil
}

// toOverLimit gives every sample whose stack refers to a location the
// decoder left out the stack of OverLimitFrame (location overID) alone.
func (d *decoder) toOverLimit(overID uint64) error {
	h := d.h
	stacks := make([]byte, 0, len(h.stacks))
	start := uint32(0)
	for i, end := range h.stackEnd {
		b := h.stacks[start:end]
		start = end
		kept := true
		for rest := b; len(rest) > 0; {
			id, n := protowire.ConsumeVarint(rest)
			if n < 0 {
				return fmt.Errorf("malformed profile: sample %d: bad location ID: %w", i, protowire.ParseError(n))
			}
			rest = rest[n:]
			if _, ok := h.locIndex(id); !ok {
				kept = false
				break
			}
		}
		if kept {
			stacks = append(stacks, b...)
		} else {
			stacks = protowire.AppendVarint(stacks, overID)
			d.overRewrites++
		}
		h.stackEnd[i] = uint32(len(stacks))
	}
	h.stacks = stacks
	return nil
}

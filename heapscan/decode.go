package heapscan

import (
	"errors"
	"fmt"
	"io"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// Field numbers of perftools.profiles.Profile (profile.proto) and the
// messages it contains.
const (
	fieldProfileSampleType        = 1
	fieldProfileSample            = 2
	fieldProfileLocation          = 4
	fieldProfileFunction          = 5
	fieldProfileStringTable       = 6
	fieldProfilePeriodType        = 11
	fieldProfileDurationNanos     = 10
	fieldProfilePeriod            = 12
	fieldProfileDefaultSampleType = 14

	fieldSampleLocationID = 1
	fieldSampleValue      = 2
	fieldSampleLabel      = 3

	fieldLabelKey     = 1
	fieldLabelStr     = 2
	fieldLabelNum     = 3
	fieldLabelNumUnit = 4

	fieldLocationID      = 1
	fieldLocationAddress = 3
	fieldLocationLine    = 4

	fieldLineFunctionID = 1
	fieldLineLine       = 2

	fieldFunctionID       = 1
	fieldFunctionName     = 2
	fieldFunctionFilename = 4

	fieldValueTypeType = 1
	fieldValueTypeUnit = 2
)

// decoder holds what the streaming reader keeps while it reads: samples
// arrive before the tables that name their frames (the Go runtime and
// pprof both write the string table last), so stacks are kept as location
// IDs and labels as string indexes, and resolved at the end.
type decoder struct {
	h *Heap

	budget   int64 // bytes the decoded data may retain
	retained int64

	sampleTypes [][2]int64 // type, unit string indexes
	periodType  [2]int64
	labels      []byte   // numeric labels: key string index, value, as varints
	labelEnd    []uint32 // sample i's labels end at labels[labelEnd[i]]

	locIDs   []uint64
	locAddrs []uint64
	locLines []uint32
	lines    []rawLine

	funcIDs []uint64
	funcs   [][2]int64 // name, filename string indexes

	strings []string

	badScalar bool // a message field arrived as a varint

	// What lies beyond MaxSamples and MaxLocations: the samples past
	// MaxSamples, their values summed (overValues, one per value; a
	// sample with another count of values is a problem, overBad), and
	// the locations left out.
	overSamples  int64
	overValues   []int64
	overBad      bool
	locsLeftOut  int64
	overRewrites int64  // samples kept whose stacks needed a location left out
	maxLocID     uint64 // the largest location ID, of every location

	sizeHint int64 // expected uncompressed size, or 0
}

// presize sizes the sample buffers from the size hint, when the first
// sample arrives.
func (d *decoder) presize() {
	h, hint := d.h, d.sizeHint
	d.sizeHint = 0
	if hint <= 0 {
		return
	}
	n := int(hint / 60)
	h.stacks = make([]byte, 0, hint*6/10)
	h.values = make([]byte, 0, hint/6)
	d.labels = make([]byte, 0, hint/12)
	h.stackEnd = make([]uint32, 0, n)
	h.valueEnd = make([]uint32, 0, n)
	d.labelEnd = make([]uint32, 0, n)
}

type rawLine struct {
	fnID uint64
	line int64
}

// errTooLarge is wrapped by every error that reports an exceeded size
// limit.
var errTooLarge = errors.New("size limit exceeded")

// ErrTooLarge reports a profile whose decompressed size, or whose decoded
// data, exceeds ReadOptions.MaxBytes. Test for it with errors.Is.
var ErrTooLarge = errTooLarge

// decodeStream reads an uncompressed profile.proto message from r, one
// top-level field at a time, keeping only what grouping needs. maxBytes
// bounds the memory the decoded data retains.
//
// sizeHint, the expected uncompressed size or 0, sizes the buffers so
// that they need not grow (and be copied) while the samples arrive: in a
// Go heap profile, stacks take about half the bytes, values and labels a
// sixth, and a sample about 60 bytes.
//
// inputSize is the exact size of the input when it is known (a plain
// file), or -1: a field that claims more bytes than remain of it, or of
// maxBytes, is refused before anything is read into it.
func decodeStream(r io.Reader, maxBytes, sizeHint, inputSize int64) (*Heap, error) {
	d := &decoder{h: &Heap{}, budget: retainedBudget(maxBytes), sizeHint: sizeHint}
	s := &stream{src: r, buf: make([]byte, bufSize(sizeHint)), maxBuf: int(min(maxBytes+1, math.MaxInt32))}
	for {
		fieldStart := s.off
		key, err := s.uvarint()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, posErr(s, err)
		}
		num, typ := protowire.DecodeTag(key)
		if num <= 0 {
			return nil, fmt.Errorf("malformed profile: invalid field number %d at byte %d", num, fieldStart)
		}
		switch typ {
		case protowire.VarintType:
			v, err := s.uvarint()
			if err != nil {
				return nil, posErr(s, err)
			}
			d.scalar(num, v)
		case protowire.Fixed32Type:
			if _, err := s.next(4); err != nil {
				return nil, posErr(s, err)
			}
		case protowire.Fixed64Type:
			if _, err := s.next(8); err != nil {
				return nil, posErr(s, err)
			}
		case protowire.BytesType:
			n, err := s.uvarint()
			if err != nil {
				return nil, posErr(s, err)
			}
			if err := checkLength(num, fieldStart, s.off, n, maxBytes, inputSize); err != nil {
				return nil, err
			}
			b, err := s.next(int(n))
			if err != nil {
				return nil, posErr(s, err)
			}
			if err := d.message(num, b); err != nil {
				return nil, fmt.Errorf("malformed profile: field %d at byte %d: %w", num, fieldStart, err)
			}
			if d.retained > d.budget {
				return nil, fmt.Errorf("decoded profile exceeds the limit of %d bytes of retained data: %w", d.budget, errTooLarge)
			}
		default:
			return nil, fmt.Errorf("malformed profile: field %d at byte %d has unsupported wire type %d", num, fieldStart, typ)
		}
	}
	if err := d.resolve(); err != nil {
		return nil, err
	}
	return d.h, nil
}

// checkLength refuses a length-delimited field (starting at byte start
// of the input, its data at byte off) of n bytes that cannot be there:
// one longer than what remains of the input (when its size is known) or
// of the limit.
func checkLength(num protowire.Number, start, off int64, n uint64, maxBytes, inputSize int64) error {
	if inputSize >= 0 && n > uint64(max(inputSize-off, 0)) {
		return fmt.Errorf("truncated profile: field %d at byte %d claims %d bytes, but only %d remain", num, start, n, max(inputSize-off, 0))
	}
	if left := max(maxBytes-off, 0); n > uint64(left) {
		return fmt.Errorf("field %d at byte %d claims %d bytes, which exceeds the limit of %d bytes (%d left): %w", num, start, n, maxBytes, left, errTooLarge)
	}
	if n > math.MaxInt32 {
		return fmt.Errorf("malformed profile: field %d at byte %d claims %d bytes", num, start, n)
	}
	return nil
}

// scanStream reads an uncompressed profile.proto message from r as
// decodeStream does, checking every top-level field's tag, wire type and
// declared length, without keeping anything: the pprof model's reader
// runs it on the bytes as they arrive, so that an input with a lying
// length is refused before it has been read into memory.
func scanStream(r io.Reader, maxBytes, inputSize int64) error {
	s := &stream{src: r, buf: make([]byte, 16<<10), maxBuf: 16 << 10}
	for {
		fieldStart := s.off
		key, err := s.uvarint()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return posErr(s, err)
		}
		num, typ := protowire.DecodeTag(key)
		if num <= 0 {
			return fmt.Errorf("malformed profile: invalid field number %d at byte %d", num, fieldStart)
		}
		var skip uint64
		switch typ {
		case protowire.VarintType:
			if _, err := s.uvarint(); err != nil {
				return posErr(s, err)
			}
		case protowire.Fixed32Type:
			skip = 4
		case protowire.Fixed64Type:
			skip = 8
		case protowire.BytesType:
			n, err := s.uvarint()
			if err != nil {
				return posErr(s, err)
			}
			if err := checkLength(num, fieldStart, s.off, n, maxBytes, inputSize); err != nil {
				return err
			}
			skip = n
		default:
			return fmt.Errorf("malformed profile: field %d at byte %d has unsupported wire type %d", num, fieldStart, typ)
		}
		if err := s.skip(int64(skip)); err != nil {
			return posErr(s, err)
		}
	}
}

// posErr describes a read error at the stream's position.
func posErr(s *stream, err error) error {
	if errors.Is(err, errTooLarge) {
		return err
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return fmt.Errorf("truncated profile: unexpected end of data at byte %d", s.off)
	}
	if errors.Is(err, errVarint) {
		return fmt.Errorf("malformed profile: bad varint at byte %d", s.off)
	}
	return err
}

// scalar handles a top-level varint field.
func (d *decoder) scalar(num protowire.Number, v uint64) {
	switch num {
	case fieldProfilePeriod:
		d.h.Period = int64(v)
	case fieldProfileDurationNanos:
		d.h.DurationNanos = int64(v)
	case fieldProfileSample, fieldProfileLocation, fieldProfileFunction, fieldProfileStringTable:
		// Wrong wire type for a message: pprof rejects it too, but a
		// varint carries nothing to keep; ignoring it would hide
		// corruption, so it is recorded as a bad message below.
		d.badScalar = true
	}
}

// message handles a top-level length-delimited field.
func (d *decoder) message(num protowire.Number, b []byte) error {
	switch num {
	case fieldProfileSampleType:
		vt, err := decodeValueType(b)
		if err != nil {
			return fmt.Errorf("sample type: %w", err)
		}
		d.sampleTypes = append(d.sampleTypes, vt)
	case fieldProfilePeriodType:
		vt, err := decodeValueType(b)
		if err != nil {
			return fmt.Errorf("period type: %w", err)
		}
		d.periodType = vt
	case fieldProfileSample:
		return d.sample(b)
	case fieldProfileLocation:
		return d.location(b)
	case fieldProfileFunction:
		return d.function(b)
	case fieldProfileStringTable:
		d.strings = append(d.strings, string(b))
		d.retained += int64(len(b)) + 32
	}
	return nil
}

func decodeValueType(b []byte) ([2]int64, error) {
	var vt [2]int64
	err := fields(b, func(num protowire.Number, typ protowire.Type, v uint64, _ []byte) error {
		switch num {
		case fieldValueTypeType:
			vt[0] = int64(v)
		case fieldValueTypeUnit:
			vt[1] = int64(v)
		}
		return nil
	})
	return vt, err
}

// sample keeps one sample: its values, its location IDs (copied as the
// varints they are), and its numeric labels.
func (d *decoder) sample(b []byte) error {
	if d.sizeHint > 0 {
		d.presize()
	}
	h := d.h
	if h.nsamples >= MaxSamples {
		return d.overSample(b)
	}
	stacks0, values0, labels0 := len(h.stacks), len(h.values), len(d.labels)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		switch {
		case (num == fieldSampleLocationID || num == fieldSampleValue) && (typ == protowire.BytesType || typ == protowire.VarintType):
			dst := &h.stacks
			if num == fieldSampleValue {
				dst = &h.values
			}
			n := appendVarints(dst, typ, b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			b = b[n:]
		case num == fieldSampleLabel && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			if err := d.label(v); err != nil {
				return err
			}
			b = b[n:]
		case num == fieldSampleLocationID || num == fieldSampleValue || num == fieldSampleLabel:
			return fmt.Errorf("sample field %d has wire type %d", num, typ)
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			b = b[n:]
		}
	}
	if uint64(len(h.stacks)) > math.MaxUint32 || uint64(len(h.values)) > math.MaxUint32 || uint64(len(d.labels)) > math.MaxUint32 {
		return fmt.Errorf("more than 4 GiB of samples: %w", errTooLarge)
	}
	h.stackEnd = append(h.stackEnd, uint32(len(h.stacks)))
	h.valueEnd = append(h.valueEnd, uint32(len(h.values)))
	d.labelEnd = append(d.labelEnd, uint32(len(d.labels)))
	h.nsamples++
	d.retained += int64(len(h.stacks)-stacks0) + int64(len(h.values)-values0) + int64(len(d.labels)-labels0) + 12
	return nil
}

// overSample adds the values of a sample past MaxSamples to the sample
// of OverLimitFrame; its stack and labels are not kept.
func (d *decoder) overSample(b []byte) error {
	var vals []byte
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if num == fieldSampleValue && (typ == protowire.BytesType || typ == protowire.VarintType) {
			n = appendVarints(&vals, typ, b)
		} else {
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
	}
	i := 0
	for ; len(vals) > 0; i++ {
		v, n := protowire.ConsumeVarint(vals)
		if n < 0 {
			return protowire.ParseError(n)
		}
		vals = vals[n:]
		if d.overSamples == 0 {
			d.overValues = append(d.overValues, 0)
		}
		if i < len(d.overValues) {
			d.overValues[i] += int64(v)
		}
	}
	d.overBad = d.overBad || i != len(d.overValues)
	d.overSamples++
	return nil
}

// appendVarints appends the value of a repeated varint field at the
// start of b to *dst, as varints: a packed field's bytes as they are
// (Heap.check validates them), a single varint re-encoded. It returns
// the bytes of b it consumed, or a negative protowire error code.
func appendVarints(dst *[]byte, typ protowire.Type, b []byte) int {
	if typ == protowire.BytesType {
		v, n := protowire.ConsumeBytes(b)
		if n >= 0 {
			*dst = append(*dst, v...)
		}
		return n
	}
	v, n := protowire.ConsumeVarint(b)
	if n >= 0 {
		*dst = protowire.AppendVarint(*dst, v)
	}
	return n
}

// label keeps a numeric label (pprof's rule: a label without a string
// value and with a number or unit is numeric).
func (d *decoder) label(b []byte) error {
	var key, str, num, unit int64
	err := fields(b, func(n protowire.Number, typ protowire.Type, v uint64, _ []byte) error {
		switch n {
		case fieldLabelKey:
			key = int64(v)
		case fieldLabelStr:
			str = int64(v)
		case fieldLabelNum:
			num = int64(v)
		case fieldLabelNumUnit:
			unit = int64(v)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("label: %w", err)
	}
	if str == 0 && (num != 0 || unit != 0) {
		d.labels = protowire.AppendVarint(d.labels, uint64(key))
		d.labels = protowire.AppendVarint(d.labels, uint64(num))
	}
	return nil
}

func (d *decoder) location(b []byte) error {
	var id, addr uint64
	lines0 := len(d.lines)
	err := fields(b, func(num protowire.Number, typ protowire.Type, v uint64, msg []byte) error {
		switch num {
		case fieldLocationID:
			id = v
		case fieldLocationAddress:
			addr = v
		case fieldLocationLine:
			if typ != protowire.BytesType {
				return fmt.Errorf("location line has wire type %d", typ)
			}
			var ln rawLine
			err := fields(msg, func(num protowire.Number, _ protowire.Type, v uint64, _ []byte) error {
				switch num {
				case fieldLineFunctionID:
					ln.fnID = v
				case fieldLineLine:
					ln.line = int64(v)
				}
				return nil
			})
			if err != nil {
				return fmt.Errorf("line: %w", err)
			}
			d.lines = append(d.lines, ln)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("location: %w", err)
	}
	d.maxLocID = max(d.maxLocID, id)
	if len(d.locIDs) >= MaxLocations-1 { // one is OverLimitFrame's
		d.lines = d.lines[:lines0]
		d.locsLeftOut++
		return nil
	}
	d.locIDs = append(d.locIDs, id)
	d.locAddrs = append(d.locAddrs, addr)
	d.locLines = append(d.locLines, uint32(lines0))
	d.retained += 150 + 32*int64(len(d.lines)-lines0) // its tables here and in the Heap
	return nil
}

func (d *decoder) function(b []byte) error {
	var id uint64
	var name, file int64
	err := fields(b, func(num protowire.Number, _ protowire.Type, v uint64, _ []byte) error {
		switch num {
		case fieldFunctionID:
			id = v
		case fieldFunctionName:
			name = int64(v)
		case fieldFunctionFilename:
			file = int64(v)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("function: %w", err)
	}
	d.funcIDs = append(d.funcIDs, id)
	d.funcs = append(d.funcs, [2]int64{name, file})
	d.retained += 100 // here, in the ID map and in the Heap
	return nil
}

// fields calls f for every field of the message b. Varint fields pass
// their value, length-delimited fields their bytes; fixed-width fields are
// skipped.
func fields(b []byte, f func(num protowire.Number, typ protowire.Type, v uint64, msg []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		var v uint64
		var msg []byte
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			msg, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if typ == protowire.VarintType || typ == protowire.BytesType {
			if err := f(num, typ, v, msg); err != nil {
				return err
			}
		}
	}
	return nil
}

// str returns string i of the table, or an error naming what referred to
// it.
func (d *decoder) str(i int64, what string) (string, error) {
	if i < 0 || i >= int64(len(d.strings)) {
		return "", fmt.Errorf("malformed profile: %s refers to string %d, but the string table has %d entries", what, i, len(d.strings))
	}
	return d.strings[i], nil
}

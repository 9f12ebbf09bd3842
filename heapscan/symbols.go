package heapscan

import (
	"bufio"
	"bytes"
	"strconv"
)

// symbolTable collects the symbol comments of a legacy text heap profile
// (debug=1): under each sample line, one line per frame,
//
//	#	0x4d9704	main.alloc+0x84		/src/main.go:12
//
// naming the frame at a program counter (the sample's address minus one;
// inlined frames share their caller's counter and come first), or
// "#\t0x4d9704" for a counter without a function. The runtime leaves out
// runtime.goexit and the runtime frames a stack starts with (the
// allocator's own); a counter of a sample that has symbol lines but none
// of its own is therefore one of those, and is marked hidden: a runtime
// frame, which grouping by function skips as it skips runtime.mallocgc.
type symbolTable struct {
	entries map[uint64]symEntry // program counter -> what the comments say
	funcs   []function
	fnIndex map[function]int32

	record     int32    // the current sample line, counted from 1
	skipping   bool     // its comments are not kept (a line past heapscan's limits)
	recPCs     []uint64 // its program counters
	recSymbols int      // symbol lines under it so far
	runPC      uint64   // the counter of the previous symbol line of this record
	lines      int      // symbol lines in the whole profile

	retained int64 // bytes the table keeps, approximately
}

type symEntry struct {
	frames  []symFrame
	named   int32 // the record whose lines gave frames
	seen    int32 // the last record with a line for this counter
	hidden  bool
	unnamed bool // a line gave the counter without a function
}

type symFrame struct {
	fn   int32 // index into symbolTable.funcs
	line int64
}

// startRecord begins the comments of a sample line whose (adjusted)
// program counters are pcs.
func (s *symbolTable) startRecord(pcs []uint64) {
	s.endRecord()
	s.record++
	s.skipping = false
	s.recPCs = append(s.recPCs[:0], pcs...)
	s.recSymbols = 0
}

// skipRecord begins the comments of a sample line that are not kept.
func (s *symbolTable) skipRecord() {
	s.startRecord(nil)
	s.skipping = true
}

// endRecord ends the current sample's comments: counters without a line
// of their own, in a sample that has some, are hidden runtime frames.
func (s *symbolTable) endRecord() {
	if s.recSymbols == 0 {
		return
	}
	for _, pc := range s.recPCs {
		e := s.entries[pc]
		if e.seen == s.record || e.hidden {
			continue
		}
		e.hidden = true
		s.entries[pc] = e
		s.retained += 64
	}
	s.recSymbols = 0
}

// comment reads one "#" line (trimmed); lines that are not symbol lines
// (the runtime.MemStats section) are ignored.
func (s *symbolTable) comment(b []byte) {
	pc, name, file, line, ok := parseSymbolLine(b)
	if !ok || s.record == 0 || s.skipping {
		return
	}
	if s.entries == nil {
		s.entries = map[uint64]symEntry{}
		s.fnIndex = map[function]int32{}
	}
	s.lines++
	s.recSymbols++
	e, known := s.entries[pc]
	if !known {
		s.retained += 64
	}
	continuing := s.recSymbols > 1 && s.runPC == pc && e.named == s.record
	s.runPC = pc
	if (len(e.frames) > 0 || e.unnamed) && !continuing {
		// Named already, by an earlier sample or earlier in this one
		// (a recursive stack repeats its counters).
		e.seen = s.record
		s.entries[pc] = e
		return
	}
	e.seen = s.record
	if name == nil {
		e.unnamed = true
		e.named = s.record
		s.entries[pc] = e
		return
	}
	f := function{name: string(name), file: string(file)}
	fi, ok := s.fnIndex[f]
	if !ok {
		fi = int32(len(s.funcs))
		s.fnIndex[f] = fi
		s.funcs = append(s.funcs, f)
		s.retained += int64(len(f.name)+len(f.file)) + 80
	}
	e.frames = append(e.frames, symFrame{fn: fi, line: line})
	e.named = s.record
	s.retained += 16
	s.entries[pc] = e
}

// parseSymbolLine parses "#\t0xPC\tNAME+0xOFF\tFILE:LINE" (tabs, any
// number of them) or "#\t0xPC". name is nil when the line names no
// function.
func parseSymbolLine(b []byte) (pc uint64, name, file []byte, line int64, ok bool) {
	if len(b) < 2 || b[0] != '#' || b[1] != '\t' {
		return 0, nil, nil, 0, false
	}
	var fields [3][]byte
	n := 0
	for rest := b[1:]; len(rest) > 0; {
		for len(rest) > 0 && rest[0] == '\t' {
			rest = rest[1:]
		}
		if len(rest) == 0 {
			break
		}
		end := bytes.IndexByte(rest, '\t')
		if end < 0 {
			end = len(rest)
		}
		if n == len(fields) {
			return 0, nil, nil, 0, false
		}
		fields[n] = rest[:end]
		n++
		rest = rest[end:]
	}
	if n == 0 || !bytes.HasPrefix(fields[0], []byte("0x")) {
		return 0, nil, nil, 0, false
	}
	pc, err := strconv.ParseUint(string(fields[0][2:]), 16, 64)
	if err != nil {
		return 0, nil, nil, 0, false
	}
	if n == 1 {
		return pc, nil, nil, 0, true
	}
	name = fields[1]
	if i := bytes.LastIndex(name, []byte("+0x")); i > 0 {
		name = name[:i]
	}
	if n == 3 {
		file = fields[2]
		if i := bytes.LastIndexByte(file, ':'); i >= 0 {
			if v, err := strconv.ParseInt(string(file[i+1:]), 10, 64); err == nil {
				file, line = file[:i], v
			}
		}
	}
	return pc, name, file, line, true
}

// scanSymbols reads the symbol comments of a legacy text profile held in
// memory (the pprof model's path, which parses the samples itself).
func scanSymbols(data []byte) (*symbolTable, error) {
	s := &symbolTable{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 4096), maxTextLine)
	var l textLine
	var pcs []uint64
	first := true
	for sc.Scan() {
		if first {
			first = false // the header
			continue
		}
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if b[0] == '#' {
			s.comment(b)
			continue
		}
		if isMemoryMapSentinel(b) {
			break
		}
		if err := parseTextSample(b, &l); err != nil {
			return nil, err
		}
		pcs = pcs[:0]
		for _, a := range l.addrs {
			pcs = append(pcs, a-1)
		}
		s.startRecord(pcs)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	s.endRecord()
	return s, nil
}

// noSymbolsNote is the note on a text profile without symbol comments.
const noSymbolsNote = "legacy text profile without symbol comments (# 0x… function file:line): frames are addresses, not functions"

// symbolize names the address frames of h (location i is at address
// addrs[i]) from the symbol comments: a location whose counter has
// symbol lines gets their frames; one hidden by the runtime keeps its
// address and is marked a runtime frame. Location skip (-1: none), which
// has no address, keeps its frame.
func (h *Heap) symbolize(addrs []uint64, s *symbolTable, skip int32) {
	if s.lines == 0 {
		h.Notes = append(h.Notes, noSymbolsNote)
		return
	}
	nloc := len(h.locLines) - 1
	lines := make([]line, 0, len(h.lines))
	locLines := make([]uint32, 0, nloc+1)
	fnMap := make([]int32, len(s.funcs)) // symbol function -> index into h.funcs, +1
	for li := 0; li < nloc; li++ {
		locLines = append(locLines, uint32(len(lines)))
		old := h.lines[h.locLines[li]:h.locLines[li+1]]
		if int32(li) == skip {
			lines = append(lines, old...)
			continue
		}
		e := s.entries[addrs[li]]
		if len(e.frames) == 0 {
			if e.hidden {
				for _, ln := range old {
					h.funcs[ln.fn].runtime = true
				}
			}
			lines = append(lines, old...)
			continue
		}
		for _, f := range e.frames {
			if fnMap[f.fn] == 0 {
				h.funcs = append(h.funcs, s.funcs[f.fn])
				fnMap[f.fn] = int32(len(h.funcs))
			}
			lines = append(lines, line{fn: fnMap[f.fn] - 1, line: f.line})
		}
	}
	locLines = append(locLines, uint32(len(lines)))
	h.lines, h.locLines = lines, locLines
}

package gate

import (
	"fmt"
	"strings"
	"time"

	"github.com/memprof/memprof/model"
)

// Status is the verdict on one limit for one case.
type Status int

// The statuses, from best to worst.
const (
	// Pass: the measurement is within the limit.
	Pass Status = iota
	// Skip: a case the budget names by library is unavailable in this
	// build (for example blst without cgo) while other selected cases were
	// checked. It does not fail the gate but is reported.
	Skip
	// Warn: a time whose median exceeds the limit while part of its
	// interquartile range does not, or an off-heap figure above the limit
	// by no more than its resolution (noise cannot be ruled out).
	Warn
	// Fail: the limit is exceeded.
	Fail
	// Error: the limit could not be checked (the case failed to measure,
	// is unavailable in this build, or timing is not available). Errors
	// fail the gate: it fails closed.
	Error
)

func (s Status) String() string {
	return [...]string{"PASS", "SKIP", "WARN", "FAIL", "ERROR"}[s]
}

// Outcome is the check of one limit of one budget against one case.
type Outcome struct {
	Budget *Budget
	Limit  Limit
	// Case names the case: Signature/blst/affine/pointer, or
	// Signature/blst/affine op=verify for an operation.
	Case   string
	Status Status
	// Measured is the measured value (the median, for times); Q1 and Q3
	// the interquartile range of a time.
	Measured float64
	Q1, Q3   float64
	// Detail explains an Error or a Warn.
	Detail string
	// Expired reports that the outcome fails because its budget expired
	// (Budget.Expires), whatever was measured.
	Expired bool
}

// Over returns how much the measurement exceeds the limit, absolutely and
// as a fraction of the limit (+Inf for a zero limit).
func (o Outcome) Over() (by, fraction float64) {
	by = o.Measured - o.Limit.Value
	if o.Limit.Value == 0 {
		if by > 0 {
			return by, inf
		}
		return by, 0
	}
	return by, by / o.Limit.Value
}

// Report is the result of checking a budgets file against results.
type Report struct {
	File     *File
	Outcomes []Outcome
	// Problems are budgets that select nothing: the file does not fit
	// what exists, which makes the file invalid (the gate fails closed).
	Problems []error
	// Now is the instant the budgets' expires were judged at.
	Now time.Time
}

// Count returns how many outcomes have status s.
func (r *Report) Count(s Status) int {
	n := 0
	for _, o := range r.Outcomes {
		if o.Status == s {
			n++
		}
	}
	return n
}

// OK reports whether the gate passes: no problems, no failures, no errors.
// Warnings pass.
func (r *Report) OK() bool {
	return len(r.Problems) == 0 && r.Count(Fail) == 0 && r.Count(Error) == 0
}

// CheckOptions tune Check.
type CheckOptions struct {
	// TimingUnavailable, when set, is why no times were measured: every
	// time limit then ends as an Error with this text, never as a pass.
	TimingUnavailable string
	// Now is the clock a budget's expires is judged by; nil means
	// time.Now.
	Now func() time.Time
}

// Check evaluates every limit of f against rs, which should come from a
// model.ResultsReader (validated at load). Each budget applies to every
// case its selector matches. A budget that matches no case at all is a
// Problem; one that matches only cases that failed to measure or are
// unavailable gives Error outcomes. Times are TimeFigure's; every time
// limit is an Error when rs's agreement check failed.
func Check(f *File, rs *model.Results, opts CheckOptions) *Report {
	now := time.Now()
	if opts.Now != nil {
		now = opts.Now()
	}
	rep := &Report{File: f, Now: now}
	for _, b := range f.Budgets {
		reported := false
		for _, l := range b.Limits {
			var outs []Outcome
			var err error
			switch {
			case l.Metric.Timed():
				outs, err = checkTime(b, l, rs, opts)
			case l.Metric.OnOps():
				outs, err = checkOpMemory(b, l, rs)
			default:
				outs, err = checkMemory(b, l, rs)
			}
			if err != nil {
				if !reported {
					rep.Problems = append(rep.Problems, &PosError{File: f.Path, Line: b.Line, Msg: err.Error()})
					reported = true
				}
				continue
			}
			rep.Outcomes = append(rep.Outcomes, expire(b, outs, now)...)
		}
	}
	return rep
}

func checkMemory(b *Budget, l Limit, rs *model.Results) ([]Outcome, error) {
	outs := instanceRows.outcomes(b, l, rs.Instances, func(o *Outcome, r *model.Result) {
		if l.Metric == CHeapBytesPerInstance && r.CHeapBytesPerInstance == nil {
			o.Status, o.Detail = Error, "no C heap reading: "+orUnknown(r.CHeapUnavailable)
			return
		}
		if gcFigure(o, b, l, r) {
			return
		}
		o.Measured = memoryValue(l.Metric, r)
		o.Status = Pass
		if o.Measured > l.Value {
			o.Status = Fail
			// The off-heap figure is read in the runtime's 256 KiB
			// chunks: within its resolution (two chunks over N) of the
			// budget it may be the reading, not the instances.
			if l.Metric == OffheapBytesPerInstance && o.Measured-l.Value <= r.OffheapResolution {
				o.Status = Warn
				o.Detail = fmt.Sprintf("above the budget by no more than the reading's resolution (%s per instance, 512 KiB / N): measure at a larger N to tell", model.FormatBytes(r.OffheapResolution))
			}
		}
	})
	var reasons []string
	var skips []Outcome
	for _, u := range rs.Unavailable {
		if u.Op == "" && b.Select.Matches(u.Key) {
			name := u.Key.String()
			reasons = append(reasons, name+": "+u.Reason)
			if len(b.Select.Lib) > 0 {
				skips = append(skips, Outcome{Budget: b, Limit: l, Case: name, Status: Skip, Detail: "unavailable: " + u.Reason})
			}
		}
	}
	if len(outs) > 0 {
		return append(outs, skips...), nil
	}
	if len(reasons) > 0 {
		return []Outcome{{Budget: b, Limit: l, Case: b.Select.String(), Status: Error,
			Detail: "every selected case is unavailable: " + strings.Join(reasons, "; ")}}, nil
	}
	return nil, fmt.Errorf("select %s matches no measured case", b.Select)
}

func memoryValue(m Metric, r *model.Result) float64 {
	switch m {
	case AllocsPerInstance:
		return r.AllocsPerInstance
	case OffheapBytesPerInstance:
		return r.OffheapBytesPerInstance
	case CHeapBytesPerInstance:
		return *r.CHeapBytesPerInstance // checkMemory refuses a row without one
	}
	return r.BytesPerInstance
}

func orUnknown(why string) string {
	if why == "" {
		return "not recorded"
	}
	return why
}

func checkTime(b *Budget, l Limit, rs *model.Results, opts CheckOptions) ([]Outcome, error) {
	if opts.TimingUnavailable != "" {
		return []Outcome{{Budget: b, Limit: l, Case: b.Select.String(), Status: Error, Detail: opts.TimingUnavailable}}, nil
	}
	if why := disagreement(rs); why != "" {
		return []Outcome{{Budget: b, Limit: l, Case: b.Select.String(), Status: Error, Detail: why}}, nil
	}
	outs := throughputRows.outcomes(b, l, rs.Throughput, func(o *Outcome, t *model.ThroughputRow) {
		q, _, err := TimeFigure(t)
		if err != nil {
			o.Status, o.Detail = Error, err.Error()
			return
		}
		timeOutcome(o, q, l.Value)
		noiseFloor(b, l, o)
	})
	if len(outs) > 0 {
		return outs, nil
	}
	return noOperation(b, l, rs, "timing is not available: the results hold no throughput rows")
}

// noOperation is the outcome of an operation limit whose budget selects
// no measured operation row: an Error when every selected operation is
// unavailable, or (saying noRows) when rs has no operation row at all; a
// Problem otherwise.
func noOperation(b *Budget, l Limit, rs *model.Results, noRows string) ([]Outcome, error) {
	var reasons []string
	for _, u := range rs.Unavailable {
		if u.Op != "" && b.Select.Matches(u.Key) {
			reasons = append(reasons, u.Key.String()+": "+u.Reason)
		}
	}
	if len(reasons) > 0 {
		return []Outcome{{Budget: b, Limit: l, Case: b.Select.String(), Status: Error,
			Detail: "every selected operation is unavailable: " + strings.Join(reasons, "; ")}}, nil
	}
	if len(rs.Throughput) == 0 {
		return []Outcome{{Budget: b, Limit: l, Case: b.Select.String(), Status: Error, Detail: noRows}}, nil
	}
	return nil, fmt.Errorf("select %s matches no measured operation", b.Select)
}

// timeVerdict applies the noise rule: a time fails only when its median
// exceeds the limit and so does its whole interquartile range (q1 above
// the limit); a median above the limit with q1 at or below it warns.
func timeVerdict(median, q1, limit float64) Status {
	switch {
	case median <= limit:
		return Pass
	case q1 > limit:
		return Fail
	}
	return Warn
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

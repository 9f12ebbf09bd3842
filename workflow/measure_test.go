package workflow

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	"github.com/memprof/memprof/vocab"
)

// These tests measure in child processes: this test binary, re-executed
// (see TestMain), measuring the test registry's cases.

// recorder keeps the events a workflow sends.
type recorder struct{ events []Event }

func (r *recorder) record(ev Event) { r.events = append(r.events, ev) }

// kinds returns the kinds of the events, in order.
func (r *recorder) kinds() []EventKind {
	var out []EventKind
	for _, ev := range r.events {
		out = append(out, ev.Kind)
	}
	return out
}

// agreeing is an agreement check that passes without blst.
func agreeing(*suites.Registry) (*agree.Report, error) {
	return &agree.Report{Cases: 1, Libs: []vocab.Lib{vocab.Circl, vocab.Gnark}, Unavailable: map[vocab.Lib]string{vocab.Blst: "needs cgo (test)"}}, nil
}

// blsAgree is Options.Agree replacing BLS12-381's check with run.
func blsAgree(run func(*suites.Registry) (*agree.Report, error)) map[vocab.Family]func(*suites.Registry) (*agree.Report, error) {
	return map[vocab.Family]func(*suites.Registry) (*agree.Report, error){vocab.BLS12381: run}
}

// checkExact checks that r measured, at N n, one object of sizeof bytes
// per instance: its slot (from the profile's bytes label), nothing more.
func checkExact(t *testing.T, r results.Row, sizeof uintptr, n int) {
	t.Helper()
	if r.Error != "" {
		t.Fatalf("%s: %s", r.Key, r.Error)
	}
	if r.N != n || r.AllocsPerInstance != 1 || r.SizeofBytes != int64(sizeof) || r.SlotBytes < float64(sizeof) || r.BytesPerInstance != r.SlotBytes {
		t.Errorf("%s: got N %d, %v B, %v allocs, sizeof %d, slot %v per instance; want N %d, 1 alloc, sizeof %d, a slot of at least that, B = slot",
			r.Key, r.N, r.BytesPerInstance, r.AllocsPerInstance, r.SizeofBytes, r.SlotBytes, n, sizeof)
	}
}

func TestInstancesMeasures(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "profiles")
	var rec recorder
	sel := Selection{Types: []vocab.Type{vocab.G1}}
	rs, err := Instances(context.Background(), testRegistry(), sel, Options{N: 1000, Jobs: 2, ProfileDir: dir, Progress: rec.record})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(rs.Instances), keyStrings(g1Affine, g1Jacobian); !slices.Equal(got, want) {
		t.Fatalf("instances: got %v, want %v", got, want)
	}
	checkExact(t, rs.Instances[0], unsafe.Sizeof(affine48{}), 1000)
	checkExact(t, rs.Instances[1], unsafe.Sizeof(jacobian72{}), 1000)
	if got, want := keys(rs.Unavailable), keyStrings(g1Blst, g1Scalar, g1CirclScalar, g1Circl); !slices.Equal(got, want) {
		t.Errorf("unavailable: got %v, want %v", got, want)
	}
	if rs.Schema != results.Schema || rs.Env.GoVersion == "" || rs.Agreement != nil || len(rs.Throughput) != 0 {
		t.Errorf("got schema %q, env %+v, agreement %v, %d throughput rows; want %s, an env, no throughput", rs.Schema, rs.Env, rs.Agreement, len(rs.Throughput), results.Schema)
	}
	for _, k := range []results.Key{g1Affine, g1Jacobian} {
		name := strings.NewReplacer("/", "_", "=", "-").Replace(k.BenchName()) + ".pb.gz"
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("profile of %s: got %v, want a profile in %s", k, err, name)
		}
	}
	// Events: the cases, each started once, and nothing of throughput.
	if got, want := rec.kinds(), []EventKind{CasesStarting, CaseStarted, CaseStarted, CasesDone}; !slices.Equal(got, want) {
		t.Errorf("events: got %v, want %v", got, want)
	}
	if rec.events[0].Total != 2 {
		t.Errorf("CasesStarting: got Total %d, want 2", rec.events[0].Total)
	}
	started := []string{rec.events[1].Key.String(), rec.events[2].Key.String()}
	slices.Sort(started)
	if want := []string{g1Affine.String(), g1Jacobian.String()}; !slices.Equal(started, want) {
		t.Errorf("cases started: got %v, want %v", started, want)
	}
}

func TestInstancesSweep(t *testing.T) {
	sweep := []int{1000, 2000, 4000}
	sel := Selection{Types: []vocab.Type{vocab.G1}, Reprs: []vocab.Repr{vocab.Affine}, Libs: []vocab.Lib{vocab.Gnark}}
	rs, err := Instances(context.Background(), testRegistry(), sel, Options{N: 1000, Sweep: sweep})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.Instances) != 1 || rs.Instances[0].Sweep == nil {
		t.Fatalf("got %+v, want one case with a sweep", rs.Instances)
	}
	checkExact(t, rs.Instances[0], unsafe.Sizeof(affine48{}), 1000)
	s := rs.Instances[0].Sweep
	want := rs.Instances[0].SlotBytes
	var ns []int
	for _, p := range s.Points {
		ns = append(ns, p.N)
		if p.BytesPerInstance != want {
			t.Errorf("N=%d: got %v B per instance, want %v", p.N, p.BytesPerInstance, want)
		}
	}
	if !slices.Equal(ns, sweep) {
		t.Errorf("sweep points: got N %v, want %v", ns, sweep)
	}
	// An exact linear cost: the slope is the slot, the interval holds it.
	if math.Abs(s.Slope-want) > 1e-6 || s.SlopeLow > want+1e-6 || s.SlopeHigh < want-1e-6 || s.R2 < 1-1e-9 {
		t.Errorf("fit: got slope %v [%v, %v], R² %v; want %v, an interval holding it, R² 1", s.Slope, s.SlopeLow, s.SlopeHigh, s.R2, want)
	}
}

// TestFailingChild: a child that crashes is that case's error, with the
// child's stderr; the other cases still run, and the workflow itself has
// not failed.
func TestFailingChild(t *testing.T) {
	sel := Selection{Types: []vocab.Type{vocab.G1, vocab.G2}, Libs: []vocab.Lib{vocab.Gnark}, Reprs: []vocab.Repr{vocab.Affine}}
	rs, err := Instances(context.Background(), testRegistry(), sel, Options{N: 500, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(rs.Instances), keyStrings(g1Affine, g2Crash); !slices.Equal(got, want) {
		t.Fatalf("instances: got %v, want %v", got, want)
	}
	checkExact(t, rs.Instances[0], unsafe.Sizeof(affine48{}), 500)
	crashed := rs.Instances[1]
	for _, w := range []string{"child process failed", "test constructor aborted the process"} {
		if !strings.Contains(crashed.Error, w) {
			t.Errorf("crashed case: got error %q, want it to contain %q", crashed.Error, w)
		}
	}
	if crashed.N != 500 || crashed.Constructor == "" {
		t.Errorf("crashed case: got N %d, constructor %q; want N 500 and the constructor", crashed.N, crashed.Constructor)
	}
}

func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sel := Selection{Types: []vocab.Type{vocab.G1}}
	for name, wf := range map[string]func() (*results.File, error){
		"instances": func() (*results.File, error) { return Instances(ctx, testRegistry(), sel, Options{N: 100}) },
		"throughput": func() (*results.File, error) {
			return Throughput(ctx, testRegistry(), sel, Options{Agree: blsAgree(agreeing)})
		},
	} {
		rs, err := wf()
		if rs != nil || !errors.Is(err, context.Canceled) || IsUsage(err) {
			t.Errorf("%s: got results %v, error %v; want none and the cancellation", name, rs != nil, err)
		}
	}
}

// TestThroughput times the test registry's operations: one computes the
// vectors' result and is timed, one does not and is a failed row, one is
// unavailable.
func TestThroughput(t *testing.T) {
	var rec recorder
	rs, err := Throughput(context.Background(), testRegistry(), Selection{}, Options{Samples: 2, MinSample: time.Millisecond, Agree: blsAgree(agreeing), Progress: rec.record})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(rs.Throughput), keyStrings(opWrong, opGood); !slices.Equal(got, want) {
		t.Fatalf("throughput rows: got %v, want %v (the failed check first, as it fails)", got, want)
	}
	wrong, good := rs.Throughput[0], rs.Throughput[1]
	if !strings.Contains(wrong.Error, "wrong result: got 010203") || wrong.Samples != 0 {
		t.Errorf("%s: got error %q, %d samples; want the wrong result, untimed", wrong.Key, wrong.Error, wrong.Samples)
	}
	if good.Error != "" || good.Samples != 2 || len(good.SamplesNs) != 2 || good.NsPerOpMedian <= 0 || good.Note != "test operation" {
		t.Errorf("%s: got error %q, %d samples (%d kept), median %v, note %q; want 2 samples timed, the op's note", good.Key, good.Error, good.Samples, len(good.SamplesNs), good.NsPerOpMedian, good.Note)
	}
	if got, want := keys(rs.Unavailable), keyStrings(opNoCgo); !slices.Equal(got, want) {
		t.Errorf("unavailable: got %v, want %v", got, want)
	}
	if rs.Agreement == nil || !rs.Agreement.OK || rs.Method != memprof.MethodText() || rs.Instances == nil || len(rs.Instances) != 0 {
		t.Errorf("got agreement %+v, method %q, instances %v; want a passed agreement, the throughput and sites methods, an empty list of instances", rs.Agreement, rs.Method, rs.Instances)
	}
	if good.Sites == nil || len(good.Sites) != 0 || good.SitesCalls < memprof.MinOpSiteCalls {
		t.Errorf("%s: got sites %+v over %d calls; want none (it allocates nothing), profiled over at least %d calls", good.Key, good.Sites, good.SitesCalls, memprof.MinOpSiteCalls)
	}
	want := []EventKind{OpsStarting, AgreementWithout, OpFailed, TimingStarted, SitesStarting, OpsDone}
	if got := rec.kinds(); !slices.Equal(got, want) {
		t.Fatalf("events: got %v, want %v", got, want)
	}
	if ev := rec.events[1]; ev.Message != "blst: needs cgo (test)" {
		t.Errorf("AgreementWithout: got %q, want the library and why", ev.Message)
	}
	if ev := rec.events[2]; ev.Key != opWrong || ev.Err == nil || ev.Err.Error() != wrong.Error {
		t.Errorf("OpFailed: got %v %v, want %s with its row's error", ev.Key, ev.Err, opWrong)
	}
	plan := rec.events[3].Timing
	if wantPlan := (TimingPlan{Ops: 1, Groups: 1, Samples: 2, MinSample: time.Millisecond, Estimate: 2*time.Millisecond + time.Millisecond/2}); plan != wantPlan {
		t.Errorf("TimingStarted: got %+v, want %+v", plan, wantPlan)
	}
}

func TestDisagreement(t *testing.T) {
	d := &agree.Disagreement{Case: "case-07", Check: "signature", Lib: vocab.Gnark, Against: "test vectors"}
	broken := errors.New("no library can be checked")
	tests := []struct {
		name      string
		agree     func(*suites.Registry) (*agree.Report, error)
		want      error
		agreement bool // the results record a failed agreement
	}{
		{"disagree", func(*suites.Registry) (*agree.Report, error) { return &agree.Report{Cases: 20}, d }, d, true},
		{"cannot check", func(*suites.Registry) (*agree.Report, error) { return nil, broken }, broken, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := Throughput(context.Background(), testRegistry(), Selection{}, Options{Samples: 1, MinSample: time.Millisecond, Agree: blsAgree(tt.agree)})
			if !errors.Is(err, tt.want) || IsUsage(err) {
				t.Fatalf("got error %v, want %v", err, tt.want)
			}
			if rs == nil || len(rs.Throughput) != 0 || rs.Method != memprof.MethodText() {
				t.Fatalf("got results %+v, want results with no throughput row", rs)
			}
			if got := rs.Agreement != nil && !rs.Agreement.OK; got != tt.agreement {
				t.Errorf("got agreement %+v; want a failed one recorded: %v", rs.Agreement, tt.agreement)
			}
			v, verr := Verify(testRegistry(), Options{Agree: blsAgree(tt.agree)})
			if v != nil || !errors.Is(verr, tt.want) {
				t.Errorf("Verify: got %v, %v; want no results and %v", v, verr, tt.want)
			}
		})
	}
	v, err := Verify(testRegistry(), Options{Agree: blsAgree(agreeing)})
	if err != nil || v.Agreement == nil || !v.Agreement.OK || v.Agreement.Cases != 1 || len(v.Instances) != 0 || v.Instances == nil {
		t.Errorf("Verify: got %+v, %v; want a passed agreement of 1 case and no instances", v, err)
	}
}

// TestInstancesWithThroughput: the operations of the selected types are
// timed after the instances, and a disagreement leaves the instance rows
// good with the error.
func TestInstancesWithThroughput(t *testing.T) {
	sel := Selection{Types: []vocab.Type{vocab.G1}, Libs: []vocab.Lib{vocab.Gnark}}
	var rec recorder
	rs, err := Instances(context.Background(), testRegistry(), sel, Options{N: 500, Throughput: ThroughputRequired, Samples: 1, MinSample: time.Millisecond, Agree: blsAgree(agreeing), Progress: rec.record})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(rs.Instances), keyStrings(g1Affine, g1Jacobian); !slices.Equal(got, want) {
		t.Errorf("instances: got %v, want %v", got, want)
	}
	if got, want := keys(rs.Throughput), keyStrings(opGood); !slices.Equal(got, want) || rs.Throughput[0].Error != "" {
		t.Errorf("throughput: got %v (%+v), want %v timed", got, rs.Throughput, want)
	}
	if got, want := keys(rs.Unavailable), keyStrings(g1Scalar); !slices.Equal(got, want) {
		t.Errorf("unavailable: got %v, want %v", got, want)
	}
	want := []EventKind{CasesStarting, CaseStarted, CaseStarted, CasesDone, OpsStarting, AgreementWithout, TimingStarted, SitesStarting, OpsDone}
	if got := rec.kinds(); !slices.Equal(got, want) {
		t.Errorf("events: got %v, want %v", got, want)
	}

	d := &agree.Disagreement{Case: "case-01", Check: "public key", Lib: vocab.Gnark}
	rs, err = Instances(context.Background(), testRegistry(), sel, Options{N: 500, Throughput: ThroughputIfAny, Agree: blsAgree(func(*suites.Registry) (*agree.Report, error) { return &agree.Report{}, d })})
	if !errors.Is(err, d) || rs == nil || len(rs.Instances) != 2 || len(rs.Throughput) != 0 || rs.Agreement == nil || rs.Agreement.OK {
		t.Errorf("disagreeing: got %v and %+v; want the disagreement, both instances, no throughput row, a failed agreement", err, rs)
	}
}

// TestBudgeted measures what a budgets file checks: the instance cases of
// its memory budgets, the operations of its time budgets (and not the
// other way round: the time budget selects instance cases too), and
// records what it selects but cannot measure.
func TestBudgeted(t *testing.T) {
	src := `version: 1
budgets:
  - select: {type: G1, repr: affine}
    max_bytes_per_instance: 1KiB
  - select: {type: G1, lib: gnark}
    max_ns_per_op: 1s
`
	f, err := gate.Parse("test.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Budgeted(context.Background(), testRegistry(), f, Options{N: 500, Samples: 1, MinSample: time.Millisecond, Agree: blsAgree(agreeing)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(rs.Instances), keyStrings(g1Affine); !slices.Equal(got, want) {
		t.Errorf("instances: got %v, want %v (the memory budget's)", got, want)
	}
	checkExact(t, rs.Instances[0], unsafe.Sizeof(affine48{}), 500)
	if got, want := keys(rs.Throughput), keyStrings(opGood); !slices.Equal(got, want) {
		t.Errorf("throughput: got %v, want %v (the time budget's)", got, want)
	}
	if got, want := keys(rs.Unavailable), keyStrings(g1Blst, g1Circl); !slices.Equal(got, want) {
		t.Errorf("unavailable: got %v, want %v", got, want)
	}
	rep := gate.Check(f, rs, gate.CheckOptions{})
	if !rep.OK() {
		t.Errorf("the budgets do not hold for what was measured: %+v", rep)
	}
}

// TestResultsEnv: a workflow's results name the machine (Options.Machine,
// else the host name) and the commit (Options.Commit, else the binary's
// VCS revision) and say when the measurement started.
func TestResultsEnv(t *testing.T) {
	host, _ := os.Hostname()
	rev, _ := memprof.VCSRevision()
	tests := []struct {
		name                 string
		opts                 Options
		wantMachine, wantRev string
	}{
		{"defaults", Options{Agree: blsAgree(agreeing)}, host, rev},
		{"given", Options{Agree: blsAgree(agreeing), Machine: "arm64-runner", Commit: "0123abc"}, "arm64-runner", "0123abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := time.Now().UTC().Truncate(time.Second)
			rs, err := Verify(testRegistry(), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			e := rs.Env
			if e.Machine != tt.wantMachine || e.Commit != tt.wantRev {
				t.Errorf("machine, commit: got %q, %q; want %q, %q", e.Machine, e.Commit, tt.wantMachine, tt.wantRev)
			}
			at, ok := e.Measured()
			if !ok || at.Before(before) || at.After(time.Now().UTC()) {
				t.Errorf("time: got %q (%v, %v), want a time from %v to now", e.Time, at, ok, before)
			}
		})
	}
}

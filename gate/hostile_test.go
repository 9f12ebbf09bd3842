package gate

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// The refusals of the second hostile trial: each input let a regression
// through (exit 0) or a budget nobody meant.

const oneBudget = "version: 1\nbudgets:\n  - select: {type: Signature, lib: blst}\n    max_bytes_per_instance: 192B\n"

// TestParseOneDocument: a budgets file is one YAML document; a second one
// (after ---), whatever it holds, is refused at its line, not ignored. A
// first document that starts with --- is one document.
func TestParseOneDocument(t *testing.T) {
	tests := []parseCase{
		{"one document", oneBudget, ""},
		{"one document after ---", "---\n" + oneBudget, ""},
		{"one document ending with ...", oneBudget + "...\n", ""},
		{"a second document", oneBudget + "---\n" + oneBudget, "b.yaml:5: a second YAML document starts here (---)"},
		{"a second document after a first ---", "---\n" + oneBudget + "---\n" + oneBudget, "b.yaml:6: a second YAML document starts here (---)"},
		{"a second document that is not YAML", oneBudget + "---\nthis is: not: yaml: [\n", "b.yaml:5: a second YAML document starts here (---), and it is not valid YAML"},
		{"an empty second document", oneBudget + "---\n", "b.yaml:5: a second YAML document starts here (---)"},
		{"a second document of comments", oneBudget + "--- # more\n# budgets: []\n", "b.yaml:5: a second YAML document starts here (---)"},
	}
	checkParse(t, tests)
}

// parseCase is a budgets file, b.yaml, and what Parse makes of it: want
// "" is the file accepted, any other an ErrInvalid holding want.
type parseCase struct{ name, src, want string }

// checkParse parses each case's file and checks Parse's answer.
func checkParse(t *testing.T, tests []parseCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("b.yaml", []byte(tt.src))
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("got %v, want the file accepted", err)
			case tt.want != "" && (err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("got %v, want an ErrInvalid holding %q", err, tt.want)
			}
		})
	}
}

// TestExpiresIsADate: a day is a day: 0001-01-01 (Go's zero time) is a
// waiver long expired, which fails, is listed and stops --update; a day
// more than MaxWaiverYears ahead is refused (a waiver that never ends).
func TestExpiresIsADate(t *testing.T) {
	rs := readFixture(t, checkResults)
	src := func(day string) string {
		return "version: 1\nbudgets:\n  - select: {type: Signature, lib: blst, repr: affine}\n    max_bytes_per_instance: 192B\n    expires: " + day + "\n"
	}
	f, err := Parse("w.yaml", []byte(src("0001-01-01")))
	if err != nil {
		t.Fatal(err)
	}
	b := f.Budgets[0]
	if !b.HasExpiry() || !b.Expired(time.Now()) {
		t.Errorf("0001-01-01: HasExpiry %v, Expired %v; want a waiver that has expired", b.HasExpiry(), b.Expired(time.Now()))
	}
	rep := Check(f, rs, CheckOptions{})
	if rep.OK() || len(rep.Outcomes) != 1 || !rep.Outcomes[0].Expired || rep.Outcomes[0].Detail != "budget expired on 0001-01-01" {
		t.Errorf("0001-01-01: got OK %v, %+v; want one expired failure", rep.OK(), rep.Outcomes)
	}
	if _, err := Update(f, rep, 1.2); err == nil || !strings.Contains(err.Error(), "--update does not extend a waiver") {
		t.Errorf("update: got %v, want the expired waiver refused", err)
	}

	limit := time.Now().UTC().AddDate(MaxWaiverYears, 0, 0)
	for _, tt := range []struct {
		day, want string
	}{
		{"9999-12-31", "w.yaml:5: expires: 9999-12-31 is more than 100 years ahead: a waiver ends"},
		{limit.AddDate(0, 0, 2).Format(dateLayout), "is more than 100 years ahead"},
		{limit.AddDate(0, 0, -2).Format(dateLayout), ""},
	} {
		t.Run(tt.day, func(t *testing.T) {
			_, err := Parse("w.yaml", []byte(src(tt.day)))
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("got %v, want accepted", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}

// TestParseNumbersInRange: every number a budgets file holds is finite
// and within its documented range, or the file is refused at its line
// saying what was expected: an overflow to +Inf is no budget, NaN
// compares false with everything, a noise floor beyond the budget (or
// 100%) turns every failure into a warning.
func TestParseNumbersInRange(t *testing.T) {
	bytesBudget := "version: 1\nbudgets:\n  - select: {type: Signature, lib: blst}\n"
	timeBudget := "version: 1\nbudgets:\n  - select: {type: Signature, lib: blst, op: verify}\n    max_ns_per_op: 1ms\n"
	tests := []parseCase{
		{"size overflows to +Inf", bytesBudget + "    max_bytes_per_instance: 1e308GiB\n", `b.yaml:4: max_bytes_per_instance: size "1e308GiB": must be at most 1 TiB`},
		{"size past float64", bytesBudget + "    max_bytes_per_instance: 1e400\n", `b.yaml:4: max_bytes_per_instance: size "1e400": must be a finite number >= 0`},
		{"size NaN", bytesBudget + "    max_bytes_per_instance: NaN\n", `b.yaml:4: max_bytes_per_instance: size "NaN": must be a finite number >= 0`},
		{"size Inf", bytesBudget + "    max_scan_bytes_per_instance: .inf\n", `b.yaml:4: max_scan_bytes_per_instance: size ".inf": not a number`},
		{"size at the limit", bytesBudget + "    max_bytes_per_instance: 1024GiB\n", ""},
		{"count past the limit", bytesBudget + "    max_allocs_per_instance: 1e13\n", `b.yaml:4: max_allocs_per_instance: count "1e13": must be at most 10^12`},
		{"count NaN", bytesBudget + "    max_allocs_per_instance: NaN\n", `count "NaN": must be a finite number >= 0`},
		{"duration overflows", "version: 1\nbudgets:\n  - select: {type: Signature, lib: blst, op: verify}\n    max_ns_per_op: 1e308s\n", `b.yaml:4: max_ns_per_op: duration "1e308s": must be at most 1 hour`},
		{"duration of two hours", "version: 1\nbudgets:\n  - select: {type: Signature, lib: blst, op: verify}\n    max_ns_per_op: 7200s\n", "must be at most 1 hour"},
		{"mark time NaN", bytesBudget + "    max_gc_mark_ns_per_instance: NaNns\n", `duration "NaNns": must be a finite number >= 0`},
		{"min_delta 1e308%", timeBudget + "    min_delta: 1e308%\n", `b.yaml:5: min_delta: percentage "1e308%": must be at most 100%`},
		{"min_delta 101%", timeBudget + "    min_delta: 101%\n", `percentage "101%": must be at most 100%`},
		{"min_delta NaN%", timeBudget + "    min_delta: NaN%\n", `percentage "NaN%": must be a finite number >= 0`},
		{"min_delta 100%", timeBudget + "    min_delta: 100%\n", ""},
		{"min_delta above the budget", timeBudget + "    min_delta: 2ms\n", "b.yaml:5: min_delta 2ms is more than the budget's max_ns_per_op 1ms: a noise floor is at most the budget"},
		{"min_delta the budget", timeBudget + "    min_delta: 1ms\n", ""},
		{"gomaxprocs huge", "version: 1\nbudgets:\n  - select: {op: verify}\n    max_bytes_per_op: 1KiB\n    gomaxprocs: 99999999\n", "b.yaml:5: gomaxprocs must be at most 1048576"},
	}
	checkParse(t, tests)
}

// TestUpdateHeadroomInRange: Update takes a headroom from 1 to
// MaxHeadroom, and refuses to write a budget past the largest the file
// takes (a time times the headroom past an hour).
func TestUpdateHeadroomInRange(t *testing.T) {
	rs := readFixture(t, checkResults)
	f := readBudgets(t, "../fixtures/budgets/time.yaml")
	rep := Check(f, rs, CheckOptions{})
	for _, h := range []float64{0.5, 100.5, 1e308, nan()} {
		if _, err := Update(f, rep, h); err == nil || !strings.Contains(err.Error(), "headroom must be a number from 1 to 100") {
			t.Errorf("headroom %v: got %v, want it refused", h, err)
		}
	}
	slow := *rs
	slow.Throughput = []results.ThroughputRow{op("Signature", "verify", seq(10, 40e9, 1e9))} // 40 s a call
	rep = Check(f, &slow, CheckOptions{})
	if _, err := Update(f, rep, 100); err == nil || !strings.Contains(err.Error(), "more than the 3600.0 s a budget takes") {
		t.Errorf("a time past an hour: got %v, want the update refused", err)
	}
}

func nan() float64 { var z float64; return z / z }

// checkRegistry is the registry the completeness tests expand against:
// Signature/blst in both schemes and two layouts, PublicKey/blst, G2/blst
// (needs cgo in this registry), a combination circl does not offer, the
// verify operation, and c-kzg contexts at two precompute settings.
func checkRegistry() []RegistryCase {
	sig := func(layout measure.Layout, scheme vocab.Scheme) RegistryCase {
		return RegistryCase{Key: results.Key{Type: "Signature", Lib: "blst", Repr: "affine", Layout: layout, Scheme: scheme}}
	}
	return []RegistryCase{
		sig("pointer", "min-pk"), sig("slice", "min-pk"), sig("pointer", "min-sig"),
		{Key: results.Key{Type: "PublicKey", Lib: "blst", Repr: "affine", Layout: "pointer", Scheme: "min-pk"}},
		{Key: results.Key{Type: "G2", Lib: "blst", Repr: "affine", Layout: "pointer"}, Why: vocab.Why{Kind: vocab.NeedsCgo, Reason: "built without cgo"}},
		{Key: results.Key{Type: "Signature", Lib: "circl", Repr: "affine", Layout: "pointer", Scheme: "min-pk"}, Why: vocab.Why{Kind: vocab.NotOffered, Reason: "circl has no affine type"}},
		{Key: results.Key{Type: "Signature", Lib: "blst", Repr: "affine", Op: "verify", Batch: 1, Scheme: "min-pk"}},
		{Key: results.Key{Type: "KZGContext", Lib: "ckzg", Repr: "decoded", Layout: "single", Param: "precompute=0"}},
		{Key: results.Key{Type: "KZGContext", Lib: "ckzg", Repr: "decoded", Layout: "single", Param: "precompute=8"}},
	}
}

// TestSelectionsComplete: with the registry, a budget selects the cases
// that exist, not only those the results hold: each selected case the
// results lack is an ERROR naming it (a SKIP when the budget is optional),
// a selector or param value that matches nothing memprof knows makes the
// file invalid, and a case the results list as unavailable keeps its
// treatment. Without the registry, the results decide (as before).
func TestSelectionsComplete(t *testing.T) {
	rs := readFixture(t, checkResults) // PublicKey/blst, Signature/blst (min-pk pointer), G2/blst unavailable, verify
	kzg := *rs
	kzg.Instances = append([]results.Row{{Key: results.Key{Type: "KZGContext", Lib: "ckzg", Repr: "decoded", Layout: "single", Param: "precompute=0"},
		Measurement: measure.Measurement{N: 1, BytesPerInstance: 1 << 20, AllocsPerInstance: 3}}}, rs.Instances...)
	tests := []struct {
		name     string
		budget   string
		results  *results.File
		registry bool
		problem  string   // a Problem holding this
		want     []string // "STATUS CASE" of each outcome, in order
	}{
		{"omitted layout and scheme select what a run measures by default", "{type: Signature, lib: blst, repr: affine}\n    max_bytes_per_instance: 192B", rs, true, "",
			[]string{"PASS Signature/blst/affine/pointer/min-pk"}},
		{"one case of three in the results", "{type: Signature, lib: blst, repr: affine, layout: all, scheme: all}\n    max_bytes_per_instance: 192B", rs, true, "",
			[]string{"PASS Signature/blst/affine/pointer/min-pk", "ERROR Signature/blst/affine/slice/min-pk", "ERROR Signature/blst/affine/pointer/min-sig"}},
		{"optional", "{type: Signature, lib: blst, repr: affine, layout: [pointer, slice], scheme: [min-pk, min-sig]}\n    max_bytes_per_instance: 192B\n    optional: true", rs, true, "",
			[]string{"PASS Signature/blst/affine/pointer/min-pk", "SKIP Signature/blst/affine/slice/min-pk", "SKIP Signature/blst/affine/pointer/min-sig"}},
		{"optional, none in the results", "{type: Signature, lib: blst, scheme: min-sig}\n    max_bytes_per_instance: 192B\n    optional: true", rs, true, "",
			[]string{"ERROR {type: Signature, lib: blst, scheme: min-sig}"}},
		{"exactly what the results hold", "{type: Signature, lib: blst, layout: pointer, scheme: min-pk}\n    max_bytes_per_instance: 192B", rs, true, "",
			[]string{"PASS Signature/blst/affine/pointer/min-pk"}},
		{"unavailable in the results keeps its treatment", "{type: [PublicKey, G2], lib: blst}\n    max_bytes_per_instance: 1KiB", rs, true, "",
			[]string{"PASS PublicKey/blst/affine/pointer/min-pk", "SKIP G2/blst/affine/pointer"}},
		{"not offered is never lacking", "{type: Signature, lib: [blst, circl], repr: affine, layout: pointer, scheme: min-pk}\n    max_bytes_per_instance: 192B", rs, true, "",
			[]string{"PASS Signature/blst/affine/pointer/min-pk"}},
		{"none of the cases in the results", "{type: Signature, lib: blst, scheme: min-sig}\n    max_bytes_per_instance: 192B", rs, true, "",
			[]string{"ERROR Signature/blst/affine/pointer/min-sig"}},
		{"matches nothing memprof knows", "{type: G1, lib: circl}\n    max_bytes_per_instance: 96B", rs, true,
			"select {type: G1, lib: circl} matches no case memprof knows", nil},
		{"an operation lacking", "{type: Signature, lib: blst, op: [verify, sign]}\n    max_ns_per_op: 2ms", rs, true,
			"", []string{"PASS Signature/blst/affine op=verify"}},
		{"a param value lacking", "{type: KZGContext, param: [precompute=0, precompute=8]}\n    max_bytes_per_instance: 2MiB", &kzg, true, "",
			[]string{"PASS KZGContext/ckzg/decoded/single/precompute=0", "ERROR KZGContext/ckzg/decoded/single/precompute=8"}},
		{"a param value that matches nothing", "{type: KZGContext, param: [precompute=0, precompute=99]}\n    max_bytes_per_instance: 2MiB", &kzg, true,
			"select {type: KZGContext, param: [precompute=0, precompute=99]}: param precompute=99 matches no case memprof knows", nil},
		{"without the registry, the results decide", "{type: Signature, lib: blst, repr: affine}\n    max_bytes_per_instance: 192B", rs, false, "",
			[]string{"PASS Signature/blst/affine/pointer/min-pk"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("b.yaml", []byte("version: 1\nbudgets:\n  - select: "+tt.budget+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			var opts CheckOptions
			if tt.registry {
				opts.Registry = checkRegistry()
			}
			rep := Check(f, tt.results, opts)
			if tt.problem != "" {
				if len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0].Error(), tt.problem) {
					t.Errorf("problems: got %v, want one holding %q", rep.Problems, tt.problem)
				}
				return
			}
			var got []string
			for _, o := range rep.Outcomes {
				got = append(got, o.Status.String()+" "+o.Case)
				if o.Status == Error && !strings.Contains(o.Detail, "the results do not have it") && !strings.Contains(o.Detail, "the results have none of them") {
					t.Errorf("%s: detail %q, want it to say the results lack it", o.Case, o.Detail)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") || len(rep.Problems) > 0 {
				t.Errorf("got\n%s\n(problems %v), want\n%s", strings.Join(got, "\n"), rep.Problems, strings.Join(tt.want, "\n"))
			}
			wantOK := !strings.Contains(strings.Join(tt.want, " "), "ERROR")
			if rep.OK() != wantOK {
				t.Errorf("OK got %v, want %v", rep.OK(), wantOK)
			}
		})
	}
}

package gate

import (
	"strconv"
	"strings"
	"testing"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// What one runner of a matrix can check: a case or an operation that
// needs cgo, in results measured without it, is skipped (a runner with
// cgo checks it), never an error; the same case unavailable in results
// that say cgo was on, or unavailable for another reason, is not. A
// budget every case of which needs cgo says so (whatever it also selects
// that no library offers), and is an error unless skipped as told.
func TestCheckCgoOff(t *testing.T) {
	needsCgo := vocab.Because(vocab.NeedsCgo, "blst needs cgo; this build has CGO_ENABLED=0")
	notOffered := vocab.Because(vocab.NotOffered, "blst has no such representation")
	blstSig := results.Key{Type: vocab.Signature, Lib: "blst", Repr: "affine", Layout: "pointer"}
	tests := []struct {
		name   string
		budget string
		cgo    bool
		why    vocab.Why
		skip   bool // CheckOptions.SkipCgo
		want   []Status
		detail string
		ok     bool
	}{
		{"every selected case needs cgo, cgo off", "{type: Signature, lib: blst}", false, needsCgo, false,
			[]Status{Error}, "every one needs cgo, and these results were measured with cgo off (env.cgo false): check them where cgo is on, or skip such budgets on this runner with --skip-cgo", false},
		// Skipped as told, and then nothing was checked: not ok either.
		{"every selected case needs cgo, cgo off, --skip-cgo", "{type: Signature, lib: blst}", false, needsCgo, true,
			[]Status{Skip}, "--skip-cgo: needs cgo, and these results were measured with cgo off (env.cgo false)", false},
		{"no lib named, cgo off: the others checked, the cgo case skipped", "{type: Signature}", false, needsCgo, false,
			[]Status{Pass, Skip}, "needs cgo", true},
		{"needs cgo, yet the results say cgo was on", "{type: Signature, lib: blst}", true, needsCgo, false,
			[]Status{Error}, "every selected case is unavailable", false},
		{"not offered, cgo off", "{type: Signature, lib: blst}", false, notOffered, false,
			[]Status{Error}, "every selected case is unavailable", false},
		// A representation blst does not offer, selected beside the
		// cgo ones, is no case to check anywhere: the budget is one of
		// cases that need cgo all the same.
		{"needs cgo beside one not offered, cgo off", "{type: Signature, lib: blst}", false, needsCgo, false,
			[]Status{Error}, "every one needs cgo, and these results were measured with cgo off", false},
		{"needs cgo beside one not offered, cgo off, --skip-cgo", "{type: Signature, lib: blst}", false, needsCgo, true,
			[]Status{Skip}, "--skip-cgo: needs cgo", false},
		// An operation of a cgo library says so as its instances do.
		{"an operation that needs cgo, cgo off", "{type: Signature, lib: blst, op: verify}", false, needsCgo, false,
			[]Status{Error}, "every one needs cgo, and these results were measured with cgo off (env.cgo false): check them where cgo is on, or skip such budgets on this runner with --skip-cgo", false},
		{"an operation that needs cgo, cgo off, --skip-cgo", "{type: Signature, lib: blst, op: verify}", false, needsCgo, true,
			[]Status{Skip}, "--skip-cgo: needs cgo, and these results were measured with cgo off (env.cgo false): blst needs cgo", false},
		{"an operation that needs cgo, yet the results say cgo was on", "{type: Signature, lib: blst, op: verify}", true, needsCgo, false,
			[]Status{Error}, "every selected operation is unavailable", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := &results.File{Schema: results.Schema, Env: fixtureEnv,
				Instances:   []results.Row{instance("Signature", "gnark", 192, 1)},
				Unavailable: []results.Unavailable{{Key: blstSig, Why: tt.why}}}
			limit := "max_bytes_per_instance: 192B"
			if strings.Contains(tt.budget, "op:") {
				op := blstSig
				op.Layout, op.Op, op.Batch = "", "verify", 1
				rs.Unavailable[0].Key, limit = op, "max_allocs_per_op: 10"
			}
			if strings.Contains(tt.name, "not offered") && tt.why != notOffered {
				projective := blstSig
				projective.Repr = "projective"
				rs.Unavailable = append(rs.Unavailable, results.Unavailable{Key: projective, Why: notOffered})
			}
			rs.Env.Cgo = tt.cgo
			f, err := Parse("b.yaml", []byte("version: 1\nbudgets:\n  - select: "+tt.budget+"\n    "+limit+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			rep := Check(f, rs, CheckOptions{SkipCgo: tt.skip})
			var got []Status
			for _, o := range rep.Outcomes {
				got = append(got, o.Status)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v (%+v), want %v", got, rep.Outcomes, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("outcome %d: got %v, want %v", i, got[i], tt.want[i])
				}
			}
			last := rep.Outcomes[len(rep.Outcomes)-1]
			if !strings.Contains(last.Detail, tt.detail) {
				t.Errorf("detail %q: want it to contain %q", last.Detail, tt.detail)
			}
			if rep.OK() != tt.ok {
				t.Errorf("OK: got %v, want %v", rep.OK(), tt.ok)
			}
		})
	}
}

// A budget's n: parsed and range-checked; a results row at another N is
// an error, never a pass.
func TestBudgetN(t *testing.T) {
	parse := func(extra string) (*File, error) {
		return Parse("b.yaml", []byte("version: 1\nbudgets:\n  - select: {type: Signature, lib: gnark}\n    max_bytes_per_instance: 192B\n"+extra))
	}
	refusals := []struct{ extra, want string }{
		{"    n: 0\n", "b.yaml:5: n must be a whole number of instances, at least 1, got \"0\""},
		{"    n: 1e3\n", "b.yaml:5: n must be a whole number of instances, at least 1, got \"1e3\""},
		{"    n: 2000000000\n", "b.yaml:5: n must be at most 1000000000 instances, got \"2000000000\""},
		{"    n: [1]\n", "b.yaml:5: n must be a whole number of instances, at least 1, got a list"},
	}
	for _, r := range refusals {
		if _, err := parse(r.extra); err == nil || !strings.Contains(err.Error(), r.want) {
			t.Errorf("n %q: got %v, want %q", r.extra, err, r.want)
		}
	}
	if _, err := Parse("b.yaml", []byte("version: 1\nbudgets:\n  - select: {type: Signature, lib: gnark, op: verify}\n    max_ns_per_op: 2ms\n    n: 1000\n")); err == nil ||
		!strings.Contains(err.Error(), "b.yaml:3: n is the number of instances the budget's cases are measured at, and this budget bounds no figure of instances (max_ns_per_op bounds operations)") {
		t.Errorf("n on an operation's budget: got %v", err)
	}

	rs := &results.File{Schema: results.Schema, Env: fixtureEnv, Instances: []results.Row{instance("Signature", "gnark", 192, 1)}}
	for _, tt := range []struct {
		n      int
		want   Status
		detail string
	}{
		{rs.Instances[0].N, Pass, ""},
		{rs.Instances[0].N * 10, Error, "measured at N=1000, and the budget holds at n: 10000"},
	} {
		f, err := parse("    n: " + itoa(tt.n) + "\n")
		if err != nil {
			t.Fatal(err)
		}
		if f.Budgets[0].N != tt.n {
			t.Errorf("n: got %d, want %d", f.Budgets[0].N, tt.n)
		}
		rep := Check(f, rs, CheckOptions{})
		o := rep.Outcomes[0]
		if o.Status != tt.want || !strings.Contains(o.Detail, tt.detail) {
			t.Errorf("n %d: got %v (%s), want %v (%s)", tt.n, o.Status, o.Detail, tt.want, tt.detail)
		}
		if tt.want != Pass {
			continue
		}
		// --update rewrites the limits and keeps n.
		rs.Instances[0].BytesPerInstance = 96
		src, err := Update(f, Check(f, rs, CheckOptions{}), 1.2)
		rs.Instances[0].BytesPerInstance = 192
		if want := "    max_bytes_per_instance: 96B\n    n: " + itoa(tt.n) + "\n"; err != nil || !strings.HasSuffix(string(src), want) {
			t.Errorf("update: got %q (%v), want it to end with %q", src, err, want)
		}
	}
}

// Compare judges a figure read to a resolution beyond the resolution of
// both readings only; an exact figure (resolution 0) on any increase.
func TestCompareResolution(t *testing.T) {
	tests := []struct {
		name                 string
		baseRes, headRes, dB float64
		want                 Change
		fails                bool
	}{
		{"exact, +1 B", 0, 0, 1, Regressed, true},
		{"exact, unchanged", 0, 0, 0, Unchanged, false},
		{"within both resolutions", 0.5, 0.5, 0.9, Unchanged, false},
		{"beyond both resolutions", 0.5, 0.5, 1.1, Regressed, true},
		{"a decrease", 0.5, 0.5, -2, Improved, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, head := fixtureBase(), fixtureBase()
			base.Throughput, head.Throughput = nil, nil
			base.Instances[0].HeapResolution = tt.baseRes
			head.Instances[0].HeapResolution = tt.headRes
			head.Instances[0].BytesPerInstance += tt.dB
			c, err := Compare(base, head, CompareOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r, ok := findRow(c, "PublicKey/blst/affine/pointer/min-pk", "bytes/instance")
			if !ok {
				t.Fatal("no bytes row")
			}
			if r.Change != tt.want || r.Fails != tt.fails {
				t.Errorf("got %s (fails %v, note %q), want %s (fails %v)", r.Change, r.Fails, r.Note, tt.want, tt.fails)
			}
			if tt.want == Unchanged && tt.dB > 0 && !strings.Contains(r.Note, "within the readings' resolution (1 B per instance)") {
				t.Errorf("note %q does not name the resolution", r.Note)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

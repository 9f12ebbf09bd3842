package circl

import (
	"strings"
	"testing"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/suites"
)

// TestOps runs every circl operation once on valid inputs (its result must
// match the vectors blst made) and once on invalid inputs (it must reject
// them); unavailable operations must say why.
func TestOps(t *testing.T) {
	v, err := fixtures.Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, op := range suites.Ops() {
		if op.Lib != "circl" {
			continue
		}
		n++
		t.Run(op.ID(), func(t *testing.T) {
			if op.Unavailable != "" {
				if !strings.HasPrefix(op.Unavailable, "not offered by circl") {
					t.Errorf("got reason %q, want it to start with \"not offered by circl\"", op.Unavailable)
				}
				return
			}
			if _, err := suites.CheckOp(op, v); err != nil {
				t.Error(err)
			}
			if err := suites.CheckOpRejects(op); err != nil {
				t.Error(err)
			}
		})
	}
	if n == 0 {
		t.Fatal("no circl operation registered")
	}
}

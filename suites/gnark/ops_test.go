package gnark

import (
	"testing"

	"github.com/memprof/memprof/suites/internal/suitetest"
)

// TestOps runs every gnark operation once on valid inputs (its result must
// match the vectors blst made) and once on invalid inputs (it must reject
// them); unavailable operations must say why.
func TestOps(t *testing.T) { suitetest.CheckOps(t, Suite()) }

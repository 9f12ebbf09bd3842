package blst

import (
	"testing"

	"github.com/memprof/memprof/suites/internal/suitetest"
)

func TestCoverage(t *testing.T) { suitetest.CheckCoverage(t, Suite()) }

func TestSchemes(t *testing.T) { suitetest.CheckSchemes(t, Suite()) }

func TestMeasurements(t *testing.T) { suitetest.CheckMeasurements(t, Suite()) }

func BenchmarkNew(b *testing.B) { suitetest.BenchmarkNew(b, Suite()) }

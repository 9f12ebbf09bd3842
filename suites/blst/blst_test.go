package blst

import (
	"testing"

	"github.com/memprof/memprof/suites/internal/suitetest"
)

func TestSuite(t *testing.T) { suitetest.CheckSuite(t, Suite()) }

func BenchmarkNew(b *testing.B) { suitetest.BenchmarkNew(b, Suite()) }

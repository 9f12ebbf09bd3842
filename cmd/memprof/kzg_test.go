package main

import (
	"testing"

	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
)

// TestKZGDisagreementExitsOne: a KZG disagreement stops verify (and the
// timing of KZG operations) with exit 1, naming the blob, the object, the
// libraries and the first differing byte.
func TestKZGDisagreementExitsOne(t *testing.T) {
	saved := agreeKZGRun
	t.Cleanup(func() { agreeKZGRun = saved })
	agreeKZGRun = func(*suites.Registry) (*agree.Report, error) {
		return &agree.Report{Cases: 8, Libs: []model.Lib{"ckzg", "gokzg"}}, &agree.Disagreement{
			Case: "blob-3", Check: "commitment", Lib: "gokzg", Against: "fixtures/kzg-vectors.json (made by c-kzg)",
			Agreeing: []model.Lib{"ckzg"}, Got: []byte{0xa0, 0x01, 0x02, 0x07}, Want: []byte{0xa0, 0x01, 0x02, 0x03},
		}
	}
	for _, args := range [][]string{
		{"verify"},
		{"throughput", "--type", "Commitment", "--lib", "gokzg", "--samples", "1", "--min-sample", "1ms"},
	} {
		t.Run(args[0], func(t *testing.T) {
			stdout, _ := runChecked(t, args, exitFailure, nil,
				[]string{"case blob-3", "commitment", "gokzg differs", "ckzg agree", "a0010207", "a0010203", "first difference at byte 3"})
			if stdout != "" {
				t.Errorf("got stdout %q, want nothing printed", stdout)
			}
		})
	}
}

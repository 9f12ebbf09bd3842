package run

import (
	"os"
	"testing"
	"time"

	"github.com/memprof/memprof/memprof"
)

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
		{"defaults", Options{Agree: agreeing}, host, rev},
		{"given", Options{Agree: agreeing, Machine: "arm64-runner", Commit: "0123abc"}, "arm64-runner", "0123abc"},
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

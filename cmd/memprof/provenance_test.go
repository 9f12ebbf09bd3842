package main

import (
	"os"
	"strings"
	"testing"

	"github.com/memprof/memprof/results"
)

// TestProvenance: results name the commit measured (--commit, else
// $GITHUB_SHA) and the machine (--machine, else the host name), and say
// when they were measured.
func TestProvenance(t *testing.T) {
	if testing.Short() {
		t.Skip("measures in a child process")
	}
	host, _ := os.Hostname()
	sig := []string{"instances", "--type", "Signature", "--lib", "gnark", "--repr", "affine", "-n", "1000", "--format", "json"}
	tests := []struct {
		name                string
		args                []string
		githubSHA           string
		wantCommit, machine string
	}{
		{"flags", []string{"--commit", "0123abc", "--machine", "arm64-runner"}, "feedbeef", "0123abc", "arm64-runner"},
		{"GITHUB_SHA", nil, "feedbeef", "feedbeef", host},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GITHUB_SHA", tt.githubSHA)
			code, stdout, stderr := runCLI(t, append(sig, tt.args...)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			rs, err := results.Read(strings.NewReader(stdout))
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := rs.Env.Measured(); rs.Env.Commit != tt.wantCommit || rs.Env.Machine != tt.machine || !ok {
				t.Errorf("env: got commit %q, machine %q, time %q; want %q, %q and a time", rs.Env.Commit, rs.Env.Machine, rs.Env.Time, tt.wantCommit, tt.machine)
			}
		})
	}
}

package truth

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// serveProbe answers, in a child of this test binary that probe started,
// the reading env asks for: it prints read's answer to env's value as
// JSON and exits 0, or prints the error and exits 1. It returns at once
// where env is unset.
func serveProbe(env string, read func(value string) (any, error)) {
	value := os.Getenv(env)
	if value == "" {
		return
	}
	v, err := read(value)
	if err == nil {
		var out []byte
		if out, err = json.Marshal(v); err == nil {
			fmt.Println(string(out))
			os.Exit(0)
		}
	}
	fmt.Fprintf(os.Stderr, "%s=%q: %v\n", env, value, err)
	os.Exit(1)
}

// probe runs this test binary again as a fresh process with env set to
// value and no test to run, and decodes the JSON reading its serveProbe
// prints into v; what names the reading in a failure.
func probe(t *testing.T, what, env, value string, v any) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env+"="+value)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("%s: %v: %q", what, err, out)
	}
}

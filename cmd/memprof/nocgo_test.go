package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var withoutCgo = flag.Bool("cli.without-cgo", false, "run TestWithoutCgo in a cgo build too (a second full build of the CLI; CGO_ENABLED=0 go test runs it without the flag)")

// TestWithoutCgo builds the CLI with CGO_ENABLED=0 and runs it: the blst
// suite must be absent with its reason in list and in every table, and the
// pure-Go suites must still measure. It runs where the tests themselves
// are built without cgo (.ci/run's CGO_ENABLED=0 go test ./... step, whose
// build of the CLI the step before it cached), or with -cli.without-cgo:
// in a cgo build it would be a second full build of the CLI.
func TestWithoutCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module without cgo")
	}
	if testBuiltWithCgo && !*withoutCgo {
		t.Skip("builds the CLI without cgo: runs in CGO_ENABLED=0 go test (.ci/run), or with -cli.without-cgo")
	}
	bin := buildCLI(t, "CGO_ENABLED=0")

	out, err := exec.Command(bin, "list", "--format", "json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Cases []struct {
			ID          string `json:"id"`
			Lib         string `json:"lib"`
			Unavailable string `json:"unavailable"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatal(err)
	}
	// Every blst row is unavailable: the ones blst offers because this
	// build has no cgo, the others for their own reason.
	blst, noCgo := 0, 0
	for _, c := range list.Cases {
		if c.Lib != "blst" {
			continue
		}
		blst++
		if c.Unavailable == "" {
			t.Errorf("%s: available without cgo", c.ID)
		}
		if strings.Contains(c.Unavailable, "CGO_ENABLED=0") {
			noCgo++
		}
	}
	if blst == 0 || noCgo == 0 {
		t.Errorf("list shows %d blst rows, %d naming CGO_ENABLED=0: their absence must be said, not hidden", blst, noCgo)
	}

	cmd := exec.Command(bin, "instances", "--type", "Signature", "-n", "1000")
	// Wide enough that the note is not wrapped mid-reason.
	cmd.Env = append(os.Environ(), "COLUMNS=200")
	table, err := cmd.Output()
	if err != nil {
		t.Fatalf("instances without cgo: %v\n%s", err, table)
	}
	s := string(table)
	if !strings.Contains(s, "blst needs cgo") || !strings.Contains(s, "gnark") {
		t.Errorf("table without cgo lacks the blst reason or the gnark rows:\n%s", s)
	}
}

// buildCLI returns the path of a memprof binary built with env added to
// the environment; without a go command on PATH the test is skipped.
// Tests that ask for the same environment share one build (in
// builtCLIDir, which TestMain removes). Without env it is this test
// binary, through a link named cliName, which TestMain runs as the
// command (main) itself: the same code, without a second build and link.
func buildCLI(t *testing.T, env ...string) string {
	t.Helper()
	builtCLI.mu.Lock()
	defer builtCLI.mu.Unlock()
	key := strings.Join(env, " ")
	if bin, ok := builtCLI.bins[key]; ok {
		return bin
	}
	dir, err := builtCLI.tempDir()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, fmt.Sprintf("memprof-%d", len(builtCLI.bins)))
	if len(env) == 0 {
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		bin = filepath.Join(dir, cliName)
		if err := os.Symlink(self, bin); err != nil {
			t.Fatal(err)
		}
	} else {
		gobin, err := exec.LookPath("go")
		if err != nil {
			t.Skip("no go command on PATH")
		}
		cmd := exec.Command(gobin, "build", "-o", bin, "./cmd/memprof")
		cmd.Dir, cmd.Env = moduleRoot(t), append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", strings.Join(env, " "), err, out)
		}
	}
	if builtCLI.bins == nil {
		builtCLI.bins = map[string]string{}
	}
	builtCLI.bins[key] = bin
	return bin
}

// cliName is the name of the link to this test binary that runs it as
// the memprof command (buildCLI, TestMain).
const cliName = "memprof"

// tempDir is the directory of the binaries, made on first use.
func (b *builtCLIs) tempDir() (string, error) {
	if b.dir == "" {
		dir, err := os.MkdirTemp("", "memprof-cli-")
		if err != nil {
			return "", err
		}
		b.dir = dir
	}
	return b.dir, nil
}

// builtCLI holds the binaries buildCLI built, by environment.
var builtCLI builtCLIs

type builtCLIs struct {
	mu   sync.Mutex
	dir  string
	bins map[string]string
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/internal/testfs"
)

// TestVerifyRefusesCutVectors: verify built with EIP-2537's pairing files
// cut to one vector each (a copy of the embedded files substituted, no
// rebuild) exits 1 before any library runs, naming each file with the
// SHA-256 recorded and the file's.
func TestVerifyRefusesCutVectors(t *testing.T) {
	m := testfs.Copy(t, fixtures.EmbeddedFS())
	recs, err := fixtures.Embedded().Records()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range recs {
		if r.Path != "eip2537/blsPairing.json" && r.Path != "eip2537/fail-blsPairing.json" {
			continue
		}
		var l []json.RawMessage
		if err := json.Unmarshal(m[r.Path].Data, &l); err != nil {
			t.Fatal(err)
		}
		cut, err := json.Marshal(l[:1])
		if err != nil {
			t.Fatal(err)
		}
		m[r.Path] = &fstest.MapFile{Data: cut}
		want = append(want, fmt.Sprintf("fixtures/%s: SHA-256 %s is not the one fixtures/PROVENANCE.md records (%s)", r.Path, sha256Hex(cut), r.SHA256))
	}
	if len(want) != 2 {
		t.Fatalf("got %d records of the pairing files, want 2", len(want))
	}
	saved := checkVectorFiles
	t.Cleanup(func() { checkVectorFiles = saved })
	checkVectorFiles = fixtures.OpenFiles(m).Check
	code, stdout, stderr := runCLI(t, "verify")
	if code != exitFailure {
		t.Errorf("got exit %d, want %d", code, exitFailure)
	}
	if stdout != "" {
		t.Errorf("got stdout %q, want none", stdout)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("got stderr %q, want it to contain %q", stderr, w)
		}
	}
}

func sha256Hex(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }

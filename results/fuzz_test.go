package results

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadResults feeds arbitrary bytes to the results reader, which
// checks every name against the vocabulary. It must never panic; whatever it accepts must encode
// (WriteJSON), read back, and encode again to the same bytes.
func FuzzReadResults(f *testing.F) {
	for _, pattern := range []string{"../fixtures/results/*.json", "../fixtures/compare/*.json", "../fixtures/budgets/*.json"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		if len(files) == 0 {
			f.Fatalf("no seed files match %s", pattern)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte(`{"schema":"memprof.results/v1","instances":[{"type":"G1","lib":"blst","repr":"affine","layout":"pointer","n":1,"bytes_per_instance":null}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		{
			rs, err := Reader{MaxBytes: 1 << 20}.Read(bytes.NewReader(data), "fuzz.json")
			if err != nil {
				return
			}
			var first bytes.Buffer
			if err := rs.WriteJSON(&first); err != nil {
				t.Fatalf("accepted results do not encode: %v", err)
			}
			back, err := Reader{}.Read(bytes.NewReader(first.Bytes()), "re-encoded.json")
			if err != nil {
				t.Fatalf("accepted results, re-encoded, are refused: %v\n%s", err, first.Bytes())
			}
			var second bytes.Buffer
			if err := back.WriteJSON(&second); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(first.Bytes(), second.Bytes()) {
				t.Fatalf("re-reading changed the results:\nfirst  %s\nsecond %s", first.Bytes(), second.Bytes())
			}
		}
	})
}

package results

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestWriteJSONAsEncoder: WriteJSON, which writes a row at a time, writes
// what encoding/json's indenting Encoder writes of the whole value, for
// lists that are nil, empty and full, optional fields absent and
// present, and strings encoding/json escapes.
func TestWriteJSONAsEncoder(t *testing.T) {
	full := validResults(t)
	full.Method = "<b>&'\\u2028 method"
	full.Tradeoff = Tradeoffs(full)
	empty := &File{Schema: Schema, Instances: []Row{}, Throughput: []ThroughputRow{}}
	bare := &File{Schema: Schema}
	for name, rs := range map[string]*File{"full": full, "empty lists": empty, "nil lists": bare} {
		t.Run(name, func(t *testing.T) {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetIndent("", "  ")
			if err := enc.Encode(rs); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := rs.WriteJSON(&got); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
			}
		})
	}
}

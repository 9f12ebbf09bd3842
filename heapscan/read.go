package heapscan

import (
	"bytes"
	"fmt"

	"github.com/google/pprof/profile"
)

// ParseBytes parses a heap profile held in memory (gzip-compressed or plain
// protobuf, or the legacy text format) with the full pprof model, and checks
// that it is a heap profile.
func ParseBytes(data []byte) (*profile.Profile, error) {
	p, err := profile.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("parsing heap profile: %w", err)
	}
	if _, _, err := sampleIndexes(p.SampleType, "inuse"); err != nil {
		return nil, err
	}
	return p, nil
}

package heapscan

import (
	"encoding/json"
	"io"
)

// Schema names the JSON document WriteJSON writes.
const Schema = "memprof.heapscan/v1"

// JSONDocument is the memprof.heapscan/v1 document.
type JSONDocument struct {
	Schema  string      `json:"schema"`
	Profile JSONProfile `json:"profile"`
	Rows    []JSONRow   `json:"rows"`
}

// JSONProfile describes the profile (or, in a diff, the current profile).
type JSONProfile struct {
	Period       int64  `json:"period"`
	Sample       string `json:"sample"`
	TotalBytes   int64  `json:"total_bytes"`
	TotalObjects int64  `json:"total_objects"`
	// Exact is true when every allocation was recorded (rate 1).
	Exact   bool   `json:"exact"`
	GroupBy string `json:"group_by"`
	// Instances is the --instances divisor, when set.
	Instances int64 `json:"instances,omitempty"`
	// The base profile of a diff.
	BasePeriod       *int64 `json:"base_period,omitempty"`
	BaseTotalBytes   *int64 `json:"base_total_bytes,omitempty"`
	BaseTotalObjects *int64 `json:"base_total_objects,omitempty"`
	// OmittedRows and OmittedBytes count rows left out by --top.
	OmittedRows  int   `json:"omitted_rows,omitempty"`
	OmittedBytes int64 `json:"omitted_bytes,omitempty"`
}

// JSONRow is one row. The base figures are null outside a diff; Status
// appears only in a diff, the per-instance figures only with instances.
type JSONRow struct {
	Key                string   `json:"key"`
	Objects            int64    `json:"objects"`
	Bytes              int64    `json:"bytes"`
	BytesPerObject     float64  `json:"bytes_per_object"`
	Sizes              []int64  `json:"sizes"`
	RelError           float64  `json:"rel_error"`
	BaseObjects        *int64   `json:"base_objects"`
	BaseBytes          *int64   `json:"base_bytes"`
	Share              float64  `json:"share"`
	Sampled            int64    `json:"sampled"`
	LowSamples         bool     `json:"low_samples,omitempty"`
	Status             string   `json:"status,omitempty"`
	BytesPerInstance   *float64 `json:"bytes_per_instance,omitempty"`
	ObjectsPerInstance *float64 `json:"objects_per_instance,omitempty"`
}

// JSON returns s as a memprof.heapscan/v1 document; instances > 0 adds the
// per-instance figures.
func (s *Summary) JSON(instances int64) *JSONDocument {
	doc := &JSONDocument{
		Schema: Schema,
		Profile: JSONProfile{
			Period: s.Period, Sample: s.Sample,
			TotalBytes: s.TotalBytes, TotalObjects: s.TotalObjects,
			Exact: s.Exact(), GroupBy: s.GroupBy,
			OmittedRows: s.OmittedRows, OmittedBytes: s.OmittedBytes,
		},
		Rows: []JSONRow{},
	}
	if instances > 0 {
		doc.Profile.Instances = instances
	}
	if s.Diff {
		doc.Profile.BasePeriod = ptr(s.BasePeriod)
		doc.Profile.BaseTotalBytes = ptr(s.BaseTotalBytes)
		doc.Profile.BaseTotalObjects = ptr(s.BaseTotalObjects)
	}
	for i := range s.Rows {
		r := &s.Rows[i]
		jr := JSONRow{
			Key: r.Key, Objects: r.Objects, Bytes: r.Bytes,
			BytesPerObject: r.BytesPerObject(), Sizes: r.Sizes,
			RelError: r.RelError, Share: s.Share(r), Sampled: r.Sampled,
			LowSamples: r.LowSamples, Status: r.Status,
		}
		if jr.Sizes == nil {
			jr.Sizes = []int64{}
		}
		if s.Diff {
			jr.BaseObjects, jr.BaseBytes = ptr(r.BaseObjects), ptr(r.BaseBytes)
		}
		if instances > 0 {
			jr.BytesPerInstance = ptr(float64(r.Bytes) / float64(instances))
			jr.ObjectsPerInstance = ptr(float64(r.Objects) / float64(instances))
		}
		doc.Rows = append(doc.Rows, jr)
	}
	return doc
}

// WriteJSON writes s as an indented memprof.heapscan/v1 document.
func (s *Summary) WriteJSON(w io.Writer, instances int64) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s.JSON(instances))
}

func ptr[T any](v T) *T { return &v }

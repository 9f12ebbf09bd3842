package heapscan

import (
	"bufio"
	"bytes"
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
	Period     int64  `json:"period"`
	Sample     string `json:"sample"`
	TotalBytes int64  `json:"total_bytes"`
	// Delta is true for a profile of changes (Summary.Delta): totals are
	// net sums, AbsTotalBytes is pprof's total, and Notes say why.
	Delta         bool   `json:"delta"`
	AbsTotalBytes *int64 `json:"abs_total_bytes,omitempty"`
	// TotalObjects is null when the profile counts no objects.
	TotalObjects *int64 `json:"total_objects"`
	// Exact is true when every allocation was recorded (rate 1).
	Exact   bool   `json:"exact"`
	GroupBy string `json:"group_by"`
	// Notes say what a reader of the figures must know (Summary.Notes).
	Notes []string `json:"notes,omitempty"`
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
// Figures that are not known are null: objects (and bytes per object,
// sampled, objects per instance) for a profile that counts no objects;
// bytes per object for a row without a positive count; rel_error and
// sampled for a profile without a sampling error to estimate (period 0,
// not the Go runtime's) and for a delta profile's rows whose counts are
// not positive.
type JSONRow struct {
	Key                string   `json:"key"`
	Objects            *int64   `json:"objects"`
	Bytes              int64    `json:"bytes"`
	BytesPerObject     *float64 `json:"bytes_per_object"`
	Sizes              []int64  `json:"sizes"`
	RelError           *float64 `json:"rel_error"`
	BaseObjects        *int64   `json:"base_objects"`
	BaseBytes          *int64   `json:"base_bytes"`
	Share              float64  `json:"share"`
	Sampled            *int64   `json:"sampled"`
	LowSamples         bool     `json:"low_samples,omitempty"`
	Status             string   `json:"status,omitempty"`
	BytesPerInstance   *float64 `json:"bytes_per_instance,omitempty"`
	ObjectsPerInstance *float64 `json:"objects_per_instance,omitempty"`
}

// JSON returns s as a memprof.heapscan/v1 document; instances > 0 adds the
// per-instance figures. WriteJSON writes the same document without
// building it.
func (s *Summary) JSON(instances int64) *JSONDocument {
	doc := &JSONDocument{Schema: Schema, Profile: s.jsonProfile(instances), Rows: make([]JSONRow, 0, len(s.Rows))}
	for i := range s.Rows {
		doc.Rows = append(doc.Rows, s.jsonRow(&s.Rows[i], instances))
	}
	return doc
}

func (s *Summary) jsonProfile(instances int64) JSONProfile {
	p := JSONProfile{
		Period: s.Period, Sample: s.Sample,
		TotalBytes: s.TotalBytes, Delta: s.Delta,
		Exact: s.Exact(), GroupBy: s.GroupBy, Notes: s.Notes,
		OmittedRows: s.OmittedRows, OmittedBytes: s.OmittedBytes,
	}
	if !s.NoObjects {
		p.TotalObjects = ptr(s.TotalObjects)
	}
	if s.Delta {
		p.AbsTotalBytes = ptr(s.AbsTotalBytes)
	}
	if instances > 0 {
		p.Instances = instances
	}
	if s.Diff {
		p.BasePeriod = ptr(s.BasePeriod)
		p.BaseTotalBytes = ptr(s.BaseTotalBytes)
		if !s.NoObjects {
			p.BaseTotalObjects = ptr(s.BaseTotalObjects)
		}
	}
	return p
}

func (s *Summary) jsonRow(r *Row, instances int64) JSONRow {
	jr := JSONRow{
		Key: r.Key, Bytes: r.Bytes, Sizes: r.Sizes,
		Share: s.Share(r), Status: r.Status,
	}
	if !s.NoObjects {
		jr.Objects = ptr(r.Objects)
	}
	if v, ok := s.BytesPerObject(r); ok {
		jr.BytesPerObject = ptr(v)
	}
	if v, ok := s.RelError(r); ok {
		jr.RelError = ptr(v)
		jr.LowSamples = r.LowSamples
	}
	if v, ok := s.Sampled(r); ok {
		jr.Sampled = ptr(v)
	}
	if jr.Sizes == nil {
		jr.Sizes = []int64{}
	}
	if s.Diff {
		jr.BaseBytes = ptr(r.BaseBytes)
		if !s.NoObjects {
			jr.BaseObjects = ptr(r.BaseObjects)
		}
	}
	if instances > 0 {
		jr.BytesPerInstance = ptr(float64(r.Bytes) / float64(instances))
		if !s.NoObjects {
			jr.ObjectsPerInstance = ptr(float64(r.Objects) / float64(instances))
		}
	}
	return jr
}

// WriteJSON writes s as an indented memprof.heapscan/v1 document, one row
// at a time: the output is never held in memory whole, whatever the
// number of rows, and the encoder's buffers are reused from row to row.
func (s *Summary) WriteJSON(w io.Writer, instances int64) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// encode writes v indented at the depth it has in the document,
	// without the newline Encode adds.
	encode := func(v any, prefix string) error {
		buf.Reset()
		enc.SetIndent(prefix, "  ")
		if err := enc.Encode(v); err != nil {
			return err
		}
		_, err := bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		return err
	}
	bw.WriteString("{\n  \"schema\": ")
	if err := encode(Schema, "  "); err != nil {
		return err
	}
	bw.WriteString(",\n  \"profile\": ")
	if err := encode(s.jsonProfile(instances), "  "); err != nil {
		return err
	}
	bw.WriteString(",\n  \"rows\": [")
	var row JSONRow
	for i := range s.Rows {
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		row = s.jsonRow(&s.Rows[i], instances)
		if err := encode(&row, "    "); err != nil {
			return err
		}
	}
	if len(s.Rows) > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("]\n}\n")
	return bw.Flush()
}

func ptr[T any](v T) *T { return &v }

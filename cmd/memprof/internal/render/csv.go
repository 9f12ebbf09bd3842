package render

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/memprof/memprof/model"
)

// CSVHeader is the header row of the CSV output. Every row has every
// column; a column that does not apply to a row's kind is empty. Numbers
// carry no unit: the unit is in the column name.
var CSVHeader = []string{
	"kind", "type", "lib", "repr", "layout", "scheme", "constructor", "op", "batch", "n", "samples",
	"bytes_per_instance", "allocs_per_instance", "sizeof_bytes", "slot_bytes", "array_slot_bytes_per_instance",
	"offheap_bytes_per_instance", "heapalloc_bytes_per_instance", "holder_bytes_per_instance",
	"c_heap_bytes_per_instance", "rss_bytes_per_instance", "unaccounted_bytes_per_instance", "rss_resolution_bytes_per_instance",
	"ns_per_op_median", "ns_per_op_q1", "ns_per_op_q3", "cpu_ns_per_op_median", "ops_per_s",
	"bytes_per_op", "allocs_per_op", "note", "error",
}

// The kinds of CSV rows.
const (
	CSVKindInstances   = "instances"   // one case of the instances measurement
	CSVKindThroughput  = "throughput"  // one operation of one case
	CSVKindUnavailable = "unavailable" // a combination or operation not offered, with the reason in note
)

// CSV writes rs as comma-separated values: the header row, then one row per
// measured case (kind "instances"), one per timed operation (kind
// "throughput") and one per combination that could not be measured (kind
// "unavailable", numbers empty, the reason in "note"). A failed case keeps
// its row, with its numbers empty and the message in "error".
func CSV(w io.Writer, rs *model.Results) error {
	cw := csv.NewWriter(w)
	col := make(map[string]int, len(CSVHeader))
	for i, h := range CSVHeader {
		col[h] = i
	}
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	write := func(set map[string]string) error {
		rec := make([]string, len(CSVHeader))
		for k, v := range set {
			i, ok := col[k]
			if !ok {
				panic("render: CSV column " + k + " is not in CSVHeader")
			}
			rec[i] = v
		}
		return cw.Write(rec)
	}
	instances := append([]model.Result(nil), rs.Instances...)
	SortInstances(instances)
	for _, r := range instances {
		set := map[string]string{
			"kind": CSVKindInstances, "type": string(r.Type), "lib": string(r.Lib), "repr": string(r.Repr), "layout": string(r.Layout),
			"scheme": string(r.Scheme), "constructor": r.Constructor, "n": strconv.Itoa(r.N),
		}
		if r.Type == "" {
			set["type"] = r.Name
		}
		if r.Error != "" {
			set["error"] = r.Error
		} else {
			set["bytes_per_instance"] = csvNum(r.BytesPerInstance)
			set["allocs_per_instance"] = csvNum(r.AllocsPerInstance)
			set["sizeof_bytes"] = strconv.FormatInt(r.SizeofBytes, 10)
			set["slot_bytes"] = csvNum(r.SlotBytes)
			set["array_slot_bytes_per_instance"] = csvNum(r.ArraySlotBytesPerInstance)
			set["offheap_bytes_per_instance"] = csvNum(r.OffheapBytesPerInstance)
			set["heapalloc_bytes_per_instance"] = csvNum(r.HeapAllocBytesPerInstance)
			set["holder_bytes_per_instance"] = csvNum(r.HolderBytesPerInstance)
			if r.CHeapBytesPerInstance != nil {
				set["c_heap_bytes_per_instance"] = csvNum(*r.CHeapBytesPerInstance)
			} else {
				set["note"] = r.CHeapUnavailable
			}
			set["rss_bytes_per_instance"] = csvNum(r.RSSBytesPerInstance)
			set["unaccounted_bytes_per_instance"] = csvNum(r.UnaccountedBytesPerInstance)
			if r.RSSResolution > 0 { // 0: not recorded (an older file)
				set["rss_resolution_bytes_per_instance"] = csvNum(r.RSSResolution)
			}
		}
		if err := write(set); err != nil {
			return err
		}
	}
	for _, r := range SortedThroughput(rs.Throughput) {
		set := map[string]string{
			"kind": CSVKindThroughput, "type": string(r.Type), "lib": string(r.Lib), "repr": string(r.Repr), "op": string(r.Op),
			"batch": strconv.Itoa(r.Batch), "note": r.Note,
		}
		if r.Error != "" {
			set["error"] = r.Error
		} else {
			set["samples"] = strconv.Itoa(r.Samples)
			set["ns_per_op_median"] = csvNum(r.NsPerOpMedian)
			set["ns_per_op_q1"] = csvNum(r.NsPerOpQ1)
			set["ns_per_op_q3"] = csvNum(r.NsPerOpQ3)
			set["cpu_ns_per_op_median"] = csvNum(r.CPUNsPerOpMedian)
			set["ops_per_s"] = csvNum(r.OpsPerSecond)
			set["bytes_per_op"] = csvNum(r.BytesPerOp)
			set["allocs_per_op"] = csvNum(r.AllocsPerOp)
		}
		if err := write(set); err != nil {
			return err
		}
	}
	for _, u := range append(unavailableInstances(rs), unavailableOps(rs)...) {
		if err := write(map[string]string{
			"kind": CSVKindUnavailable, "type": string(u.Type), "lib": string(u.Lib), "repr": string(u.Repr),
			"layout": string(u.Layout), "op": string(u.Op), "note": u.Reason,
		}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvNum formats v in the shortest form that reads back as the same
// float64, without exponent for the magnitudes memprof produces.
func csvNum(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}

package main

import (
	"strings"
	"testing"
)

// badInputsDir holds the inputs of TestBadInputs: results files and
// budgets each made to break one rule.
const badInputsDir = "../../fixtures/badinputs/"

// TestBadInputs: results a run of memprof cannot write are refused
// (exit 2) naming the file, the row and the field, and a figure's
// resolution never turns a figure far above its budget into a warning.
func TestBadInputs(t *testing.T) {
	zero := badInputsDir + "scan-zero.yaml"
	tests := []struct {
		cmd string
		cliCase
	}{
		{"check", cliCase{"a scan resolution of 1e300", []string{"--budgets", zero, "--results", badInputsDir + "scan-resolution-1e300.json"}, exitUsage, nil,
			[]string{"scan-resolution-1e300.json: instances[0] (Signature/blst/affine/pointer): scan_resolution_bytes_per_instance is 1e+300, wider than memprof writes at n 1000: at most 5024.58 B"}}},
		{"check", cliCase{"an off-heap resolution past two chunks over N", []string{"--budgets", zero, "--results", badInputsDir + "offheap-resolution-wide.json"}, exitUsage, nil,
			[]string{"offheap-resolution-wide.json: instances[0] (Signature/blst/affine/pointer): offheap_resolution_bytes_per_instance is 1000000, wider than memprof writes at n 1000: at most 524.29 B"}}},
		{"check", cliCase{"a warning band never wider than the budget", []string{"--budgets", zero, "--results", badInputsDir + "scan-resolution-wide.json"}, exitFailure,
			[]string{"FAIL  Signature/blst/affine/pointer/min-pk  GC scan bytes per instance: 5000 B > budget 0 B",
				"WARN  Signature/blst/affine/pointer/min-pk  GC scan bytes per instance: 5000 B > budget 4995 B (+5 B, +0.1%)",
				"above the budget by no more than the reading's resolution (5010 B per instance; a warning allows no more than the budget, 4995 B)"}, nil}},
		{"export", cliCase{"--only time of a file without a time figure", []string{"--to", "github-action-benchmark", "--only", "time", badInputsDir + "no-times.json"}, exitUsage, nil,
			[]string{"memprof export: " + badInputsDir + "no-times.json: no time figure in it: nothing to export with --only time"}}},
		{"export", cliCase{"--only time to bencher of a file without a time figure", []string{"--to", "bencher", "--only", "time", badInputsDir + "no-times.json"}, exitUsage, nil,
			[]string{"no time figure in it: nothing to export with --only time"}}},
		{"export", cliCase{"--only memory of a file of operations only", []string{"--to", "bencher", "--only", "memory", "../../export/testdata/throughput-run1.json"}, exitUsage, nil,
			[]string{"throughput-run1.json: no memory figure in it: nothing to export with --only memory"}}},
		{"show", cliCase{"a file of no rows", []string{badInputsDir + "bare.json"}, exitUsage, nil,
			[]string{"memprof show: reading results " + badInputsDir + "bare.json: no instance, throughput or unavailable rows in it: nothing to show"}}},
		{"show", cliCase{"a file of no rows, a selection", []string{badInputsDir + "bare.json", "--type", "G1"}, exitUsage, nil,
			[]string{"bare.json: no instance, throughput or unavailable rows in it: nothing to show"}}},
		{"show", cliCase{"a scheme on a G1 row", []string{badInputsDir + "g1-scheme.json"}, exitUsage, nil,
			[]string{`g1-scheme.json: instances[1] (G1/blst/affine/pointer): G1 has no scheme, but the row says scheme "min-pk": only PublicKey, Signature have one`}}},
		{"compare", cliCase{"a scheme on a G1 row", []string{badInputsDir + "g1-scheme.json", badInputsDir + "g1-scheme.json"}, exitUsage, nil,
			[]string{`G1 has no scheme`}}},
		{"show", cliCase{"n of 1.5", []string{badInputsDir + "n-fraction.json"}, exitUsage, nil,
			[]string{"instances.n is 1.5, want a whole number"}}},
		{"show", cliCase{"an integer figure out of range", []string{badInputsDir + "sizeof-overflow.json"}, exitUsage, nil,
			[]string{"instances[0] (Signature/blst/affine/pointer): sizeof_bytes is 1e+30, out of range, want a whole number of at most 9007199254740992"}}},
		{"instances", cliCase{"-n past the largest int", []string{"--type", "Signature", "-n", "9223372036854775808"}, exitUsage, nil,
			[]string{`-n: "9223372036854775808" is out of range: a whole number from -9223372036854775808 to 9223372036854775807`}}},
		{"show", cliCase{"a GC CPU figure missing beside its samples", []string{badInputsDir + "gc-cpu-missing.json"}, exitUsage, nil,
			[]string{"instances[0] (PubkeyCache/blst/interface-map/collection): gc_cpu_ns_per_instance is missing, but the gc_cpu_samples_ns give 11.5"}}},
		{"compare", cliCase{"control characters in a machine and CPU name, Markdown", []string{compareDir + "base.json", badInputsDir + "machine-line-break.json", "--format", "markdown", "--allow-env-mismatch"}, exitFailure,
			[]string{"**head**: on `ci-runner\\n# not a heading\\x1b[2J`.", `| cpu ⚠️ | Fixture CPU @ 3.00GHz | Fixture CPU\r\n\| a \| b \| |`}, nil}},
		{"show", cliCase{"control characters in a CPU name, text", []string{badInputsDir + "machine-line-break.json", "--type", "Signature"}, exitOK,
			[]string{`GOMAXPROCS 2, Fixture CPU\r\n| a | b |.`}, nil}},
		{"show", cliCase{"a GC CPU time of 1e300 ns, Markdown", []string{badInputsDir + "gc-cpu-1e300.json", "--format", "markdown"}, exitOK,
			[]string{" 1e+291 s |"}, nil}},
		{"show", cliCase{"a GC CPU time of 1e300 ns, CSV", []string{badInputsDir + "gc-cpu-1e300.json", "--format", "csv"}, exitOK,
			[]string{",1e+300,"}, nil}},
		{"instances", cliCase{"all with another scheme", []string{"--type", "Signature", "--scheme", "all,min-pk"}, exitUsage, nil,
			[]string{`scheme list "all,min-pk" names all with other schemes: all alone means every scheme`}}},
		{"instances", cliCase{"an empty lib item", []string{"--type", "Signature", "--lib", "blst,"}, exitUsage, nil,
			[]string{`lib list "blst," has an empty item: remove the extra comma`}}},
		{"throughput", cliCase{"an empty type item", []string{"--type", "G1,", "--samples", "1"}, exitUsage, nil,
			[]string{`type list "G1," has an empty item`}}},
		{"", cliCase{"a near miss of help", []string{"hlep"}, exitUsage, nil,
			[]string{"memprof hlep: unknown command; did you mean help? the commands are check, compare, export, heapscan, help, instances,"}}},
		{"", cliCase{"help of an unknown command", []string{"help", "foo"}, exitUsage, nil,
			[]string{"memprof help foo: unknown command: the commands are check, compare, export, heapscan, help, instances, list, report, show, throughput, verify, version; help method says how memprof measures\nRun 'memprof help' for usage.\n"}}},
		{"", cliCase{"help among the commands", []string{"help"}, exitOK,
			[]string{"\thelp        print help: help <command> for one, help method for the method\n"}, nil}},
		{"", cliCase{"help of help", []string{"help", "help"}, exitOK,
			[]string{"The commands are:"}, nil}},
		{"show", cliCase{"a scan resolution of 1e300", []string{badInputsDir + "scan-resolution-1e300.json"}, exitUsage, nil,
			[]string{"instances[0] (Signature/blst/affine/pointer): scan_resolution_bytes_per_instance is 1e+300"}}},
	}
	for _, tt := range tests {
		t.Run(tt.cmd+"/"+tt.name, func(t *testing.T) {
			if tt.cmd == "" {
				tt.check(t)
				return
			}
			tt.check(t, tt.cmd)
		})
	}
	// No control character of the file reaches an output: no line
	// starts with what followed the machine's line break.
	for _, args := range [][]string{
		{"compare", compareDir + "base.json", badInputsDir + "machine-line-break.json", "--format", "markdown", "--allow-env-mismatch"},
		{"show", badInputsDir + "machine-line-break.json", "--format", "markdown"},
	} {
		_, stdout, stderr := runCLI(t, args...)
		for _, out := range []string{stdout, stderr} {
			if strings.ContainsAny(out, "\r\x1b") || strings.Contains(out, "\n# not a heading") || strings.Contains(out, "\n| a | b |") {
				t.Errorf("%v: got a control character of the file in the output:\n%q", args, out)
			}
		}
	}
}

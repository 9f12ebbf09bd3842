package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refusal is one hostile command line and what memprof must answer: the
// exit code, substrings of stderr, and (oneLine) that stderr is one line.
// Nothing may be written: stdout stays empty (unless stdout says what it
// must hold), a -o file keeps what it had
// and a report's --out is not created.
type refusal struct {
	name    string
	args    []string // OUT is replaced by a file holding earlier output, DIR by a directory that does not exist
	code    int
	want    []string
	oneLine bool
	// stdout, when not nil, lists what stdout must contain (check reports
	// its budgets there); otherwise stdout must be empty.
	stdout []string
}

// checkRefusals runs each refusal as its own subtest.
func checkRefusals(t *testing.T, tests []refusal) {
	t.Helper()
	const earlier = "earlier output that a refused command must keep\n"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out.json")
			if err := os.WriteFile(out, []byte(earlier), 0o644); err != nil {
				t.Fatal(err)
			}
			review := filepath.Join(dir, "review")
			args := make([]string, len(tt.args))
			for i, a := range tt.args {
				switch a {
				case "OUT":
					a = out
				case "DIR":
					a = review
				}
				args[i] = a
			}
			stdout, stderr := runChecked(t, args, tt.code, tt.stdout, tt.want)
			if tt.oneLine {
				if lines := strings.Count(strings.TrimSuffix(stderr, "\n"), "\n") + 1; lines != 1 {
					t.Errorf("stderr: got %d lines, want 1:\n%s", lines, stderr)
				}
			}
			if tt.stdout == nil && stdout != "" {
				t.Errorf("stdout: got %q, want nothing", stdout)
			}
			if got, err := os.ReadFile(out); err != nil || string(got) != earlier {
				t.Errorf("-o file: got %q (%v), want the earlier output %q kept", got, err, earlier)
			}
			if _, err := os.Stat(review); !os.IsNotExist(err) {
				t.Errorf("--out %s: got %v, want it not created", review, err)
			}
		})
	}
}

// TestNothingToMeasure: a selection that can measure nothing is refused
// before anything runs. When every selected combination does not apply to
// its type, the selection itself is wrong: a usage error naming why. When
// every one is unavailable for another reason (the library lacks it), that
// is a failure, with one line saying that nothing was measured and why.
func TestNothingToMeasure(t *testing.T) {
	circlAffine := "circl has no affine point type"
	checkRefusals(t, []refusal{
		{"scalar Signature", []string{"instances", "--type", "Signature", "--repr", "scalar", "-n", "100"}, exitUsage,
			[]string{"--type Signature --repr scalar selects only combinations that do not apply to their type", "a Signature is a curve point; the scalar representation is the SecretKey's", "memprof list"}, false, nil},
		{"affine and jacobian SecretKey", []string{"instances", "--type", "SecretKey", "--repr", "affine,jacobian", "-n", "100", "-o", "OUT"}, exitUsage,
			[]string{"do not apply to their type", "a secret key is a scalar, not a curve point, so it has no affine coordinates", "so it has no jacobian coordinates"}, false, nil},
		{"scalar G1 slices", []string{"instances", "--type", "G1", "--repr", "scalar", "--layout", "slice", "-n", "100"}, exitUsage,
			[]string{"--type G1 --repr scalar --layout slice selects only combinations that do not apply", "a G1 is a curve point"}, false, nil},
		{"report of a scalar Signature", []string{"report", "--type", "Signature", "--repr", "scalar", "-n", "100", "--out", "DIR"}, exitUsage,
			[]string{"do not apply to their type", "a Signature is a curve point"}, false, nil},
		{"no combination at all", []string{"instances", "--type", "Signature", "--repr", "index-slice"}, exitUsage,
			[]string{"no case matches --type Signature"}, false, nil},
		{"a library lacks the representation", []string{"instances", "--type", "Signature", "--lib", "circl", "--repr", "affine", "-n", "100", "-o", "OUT"}, exitFailure,
			[]string{"memprof instances: nothing measured: every selected case is unavailable: " + circlAffine}, true, nil},
		{"a library lacks both representations", []string{"instances", "--type", "Signature", "--lib", "circl", "--repr", "affine,jacobian", "-n", "100"}, exitFailure,
			[]string{"nothing measured", circlAffine, "circl has no Jacobian point type"}, true, nil},
		{"lacking and not applying", []string{"instances", "--type", "Signature", "--lib", "circl", "--repr", "scalar,affine", "-n", "100"}, exitFailure,
			[]string{"nothing measured", circlAffine}, true, nil},
		{"lacking, with throughput", []string{"instances", "--type", "Signature", "--lib", "circl", "--repr", "affine", "-n", "100", "--with-throughput", "--samples", "1", "--min-sample", "1ms"}, exitFailure,
			[]string{"nothing measured", circlAffine}, true, nil},
		{"report of what a library lacks", []string{"report", "--type", "Signature", "--lib", "circl", "--repr", "affine", "-n", "100", "--out", "DIR"}, exitFailure,
			[]string{"memprof report: nothing measured: every selected case is unavailable: " + circlAffine}, true, nil},
		{"an operation a library lacks", []string{"throughput", "--type", "Signature", "--lib", "circl", "--op", "fast-aggregate-verify", "--samples", "1", "--min-sample", "1ms", "-o", "OUT"}, exitFailure,
			[]string{"memprof throughput: nothing measured: every selected operation is unavailable: not offered by circl: sign/bls has the basic scheme only"}, true, nil},
	})
}

// TestFlagsThatDoNothing: a flag given where it has no effect, or given
// with an empty value (an unset shell variable: --lib "$LIB"), is a usage
// error naming the flag; it is never silently ignored or read as "all".
//
// The --scheme rows use types no test registers a scheme for
// (TestCrashingChildExitsOne registers G1 under min-sig).
func TestFlagsThatDoNothing(t *testing.T) {
	checkRefusals(t, []refusal{
		{"instances --op without --with-throughput", []string{"instances", "--type", "G1", "-n", "100", "--op", "to-affine"}, exitUsage,
			[]string{"--op does nothing without --with-throughput"}, false, nil},
		{"instances --samples without --with-throughput", []string{"instances", "--type", "G1", "-n", "100", "--samples", "3"}, exitUsage,
			[]string{"--samples does nothing without --with-throughput"}, false, nil},
		{"instances --min-sample without --with-throughput", []string{"instances", "--type", "G1", "-n", "100", "--min-sample", "10ms"}, exitUsage,
			[]string{"--min-sample does nothing without --with-throughput"}, false, nil},
		{"instances --op with --with-throughput=false", []string{"instances", "--type", "G1", "-n", "100", "--with-throughput=false", "--op", "to-affine"}, exitUsage,
			[]string{"--op does nothing without --with-throughput"}, false, nil},
		{"instances --sweep-n without --sweep", []string{"instances", "--type", "G1", "-n", "100", "--sweep-n", "10,20,30"}, exitUsage,
			[]string{"--sweep-n does nothing without --sweep"}, false, nil},
		{"instances --scheme of a type without one", []string{"instances", "--type", "SecretKey,G2", "-n", "100", "--scheme", "min-sig"}, exitUsage,
			[]string{"--scheme does nothing for --type SecretKey,G2", "PublicKey, Signature"}, false, nil},
		{"instances --with-throughput of a type without operations", []string{"instances", "--type", "SecretKey", "-n", "100", "--with-throughput"}, exitUsage,
			[]string{"--with-throughput does nothing: no operation matches --type SecretKey", "types with operations are"}, false, nil},
		{"instances --with-throughput of an operation the type lacks", []string{"instances", "--type", "G1", "-n", "100", "--with-throughput", "--op", "sign"}, exitUsage,
			[]string{"--with-throughput does nothing: no operation matches --type G1 --op sign"}, false, nil},
		{"instances empty --lib", []string{"instances", "--type", "G1", "-n", "100", "--lib", ""}, exitUsage,
			[]string{"--lib is empty", "blst, gnark, circl", "leave the flag out"}, false, nil},
		{"instances empty --type", []string{"instances", "--type", "", "-n", "100"}, exitUsage,
			[]string{"--type is empty"}, false, nil},
		{"instances --repr of commas", []string{"instances", "--type", "G1", "-n", "100", "--repr", ","}, exitUsage,
			[]string{"--repr is empty", "affine"}, false, nil},
		{"instances blank --layout", []string{"instances", "--type", "G1", "-n", "100", "--layout", " "}, exitUsage,
			[]string{"--layout is empty", "pointer, slice"}, false, nil},
		{"instances empty --scheme", []string{"instances", "--type", "Signature", "-n", "100", "--scheme", ""}, exitUsage,
			[]string{"--scheme is empty", "min-pk, min-sig"}, false, nil},
		{"instances empty --format", []string{"instances", "--type", "G1", "-n", "100", "--format", ""}, exitUsage,
			[]string{"--format is empty"}, false, nil},
		{"instances empty --profile-dir", []string{"instances", "--type", "G1", "-n", "100", "--profile-dir", ""}, exitUsage,
			[]string{"--profile-dir is empty"}, false, nil},
		{"instances empty -o", []string{"instances", "--type", "G1", "-n", "100", "-o", ""}, exitUsage,
			[]string{"-o is empty"}, false, nil},
		{"instances empty --sweep-n", []string{"instances", "--type", "G1", "-n", "100", "--sweep", "--sweep-n", ""}, exitUsage,
			[]string{"--sweep-n is empty"}, false, nil},
		{"instances empty --op", []string{"instances", "--type", "G1", "-n", "100", "--with-throughput", "--op", ""}, exitUsage,
			[]string{"--op is empty", "to-affine"}, false, nil},
		{"throughput empty --lib", []string{"throughput", "--type", "G1", "--lib", "", "--samples", "1", "--min-sample", "1ms"}, exitUsage,
			[]string{"--lib is empty"}, false, nil},
		{"throughput empty --repr", []string{"throughput", "--type", "G1", "--repr", "", "--samples", "1", "--min-sample", "1ms"}, exitUsage,
			[]string{"--repr is empty"}, false, nil},
		{"throughput --op of commas", []string{"throughput", "--type", "G1", "--op", ",,", "--samples", "1", "--min-sample", "1ms"}, exitUsage,
			[]string{"--op is empty"}, false, nil},
		{"throughput empty --type", []string{"throughput", "--type", ""}, exitUsage,
			[]string{"--type is empty"}, false, nil},
		{"throughput empty -o", []string{"throughput", "--type", "G1", "-o", "", "--samples", "1", "--min-sample", "1ms"}, exitUsage,
			[]string{"-o is empty"}, false, nil},
		{"report --op with --throughput=false", []string{"report", "--type", "G1", "-n", "100", "--throughput=false", "--op", "to-affine", "--out", "DIR"}, exitUsage,
			[]string{"--op does nothing with --throughput=false"}, false, nil},
		{"report --samples with --throughput=false", []string{"report", "--type", "G1", "-n", "100", "--throughput=false", "--samples", "3", "--out", "DIR"}, exitUsage,
			[]string{"--samples does nothing with --throughput=false"}, false, nil},
		{"report --min-sample with --throughput=false", []string{"report", "--type", "G1", "-n", "100", "--throughput=false", "--min-sample", "1s", "--out", "DIR"}, exitUsage,
			[]string{"--min-sample does nothing with --throughput=false"}, false, nil},
		{"report --op of an operation the type lacks", []string{"report", "--type", "G1", "-n", "100", "--op", "sign", "--out", "DIR"}, exitUsage,
			[]string{"--op does nothing: no operation matches --type G1 --op sign"}, false, nil},
		{"report --scheme of a type without one", []string{"report", "--type", "G2", "-n", "100", "--throughput=false", "--scheme", "min-sig", "--out", "DIR"}, exitUsage,
			[]string{"--scheme does nothing for --type G2"}, false, nil},
		{"report empty --lib", []string{"report", "--type", "G1", "-n", "100", "--throughput=false", "--lib", "", "--out", "DIR"}, exitUsage,
			[]string{"--lib is empty"}, false, nil},
		{"report empty --from", []string{"report", "--from", "", "--type", "G1", "-n", "100", "--throughput=false", "--out", "DIR"}, exitUsage,
			[]string{"--from is empty"}, false, nil},
		{"check --headroom without --update", []string{"check", "--budgets", budgetsDir + "pass.yaml", "--results", budgetsDir + "results.json", "--headroom", "1.5"}, exitUsage,
			[]string{"--headroom does nothing without --update"}, false, nil},
		{"check -n with --results", []string{"check", "--budgets", budgetsDir + "pass.yaml", "--results", budgetsDir + "results.json", "-n", "100"}, exitUsage,
			[]string{"-n does nothing with --results"}, false, nil},
		{"check --jobs with --results", []string{"check", "--budgets", budgetsDir + "pass.yaml", "--results", budgetsDir + "results.json", "--jobs", "1"}, exitUsage,
			[]string{"--jobs does nothing with --results"}, false, nil},
		{"check --samples with --results", []string{"check", "--budgets", budgetsDir + "pass.yaml", "--results", budgetsDir + "results.json", "--samples", "3"}, exitUsage,
			[]string{"--samples does nothing with --results"}, false, nil},
		{"check --min-sample with --results", []string{"check", "--budgets", budgetsDir + "pass.yaml", "--results", budgetsDir + "results.json", "--min-sample", "1ms"}, exitUsage,
			[]string{"--min-sample does nothing with --results"}, false, nil},
		{"check empty --results", []string{"check", "--budgets", budgetsDir + "pass.yaml", "--results", "", "-n", "100"}, exitUsage,
			[]string{"--results is empty"}, false, nil},
		{"check empty --budgets", []string{"check", "--budgets", "", "--results", budgetsDir + "results.json"}, exitUsage,
			[]string{"--budgets is empty"}, false, nil},
		{"compare empty -o", []string{"compare", budgetsDir + "results.json", budgetsDir + "results.json", "-o", ""}, exitUsage,
			[]string{"-o is empty"}, false, nil},
		{"compare empty --format", []string{"compare", "--format", "", budgetsDir + "results.json", budgetsDir + "results.json"}, exitUsage,
			[]string{"--format is empty"}, false, nil},
		{"verify empty -o", []string{"verify", "-o", ""}, exitUsage,
			[]string{"-o is empty"}, false, nil},
		{"list empty --format", []string{"list", "--format", ""}, exitUsage,
			[]string{"--format is empty"}, false, nil},
	})
}

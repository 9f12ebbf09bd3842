package gate

import (
	"errors"
	"strings"
	"testing"
)

// TestParseAsWritten: what yaml.v3's typed decoding would accept or
// word its own way is refused as the budgets file is written, each
// problem at its line, every one reported: a key given twice beside
// other problems of its mapping, aliases and merge keys (which decoding
// would resolve), keys that are not names, budgets that are not
// mappings, a select of nothing, unknown keys (KnownFields) beside
// unknown names.
func TestParseAsWritten(t *testing.T) {
	const head = "version: 1\nbudgets:\n"
	tests := []struct {
		name, src string
		want      []string // the error's lines after the first, in order
	}{
		{"a key twice beside other problems", head + "  - select: {type: Signature}\n    max_bytes_per_instance: 1\n    max_bytes_per_instance: 2\n    max_byts: 3\n    owner: [a]\n",
			[]string{`b.yaml:5: duplicate key "max_bytes_per_instance"`, `b.yaml:6: unknown key "max_byts": valid keys are ` + strings.Join(budgetKeys(), ", "), "b.yaml:7: owner must be text, got a list"}},
		{"a budget that is an alias", head + "  - &x {select: {type: Signature}, max_bytes_per_instance: 1}\n  - *x\n",
			[]string{"b.yaml:4: a budget must be a mapping with select and max_* keys, got an alias"}},
		{"a select that is an alias", head + "  - select: &s {type: Signature}\n    max_bytes_per_instance: 1\n  - select: *s\n    max_bytes_per_instance: 2\n",
			[]string{"b.yaml:5: select must be a mapping such as {type: Signature, lib: blst}, got an alias"}},
		{"a merge key", head + "  - <<: {owner: me}\n    max_bytes_per_instance: 1\n",
			[]string{`b.yaml:3: unknown key "<<": valid keys are ` + strings.Join(budgetKeys(), ", ")}},
		{"a key that is a list", head + "  - ? [a]\n    : 1\n    max_bytes_per_instance: 1\n",
			[]string{"b.yaml:3: keys must be names, got a list"}},
		{"budgets that are not mappings", head + "  -\n  - ~\n  - 5\n  - [a]\n",
			[]string{"b.yaml:3: a budget must be a mapping with select and max_* keys, got nothing", "b.yaml:4: a budget must be a mapping with select and max_* keys, got nothing",
				`b.yaml:5: a budget must be a mapping with select and max_* keys, got "5"`, "b.yaml:6: a budget must be a mapping with select and max_* keys, got a list"}},
		{"a select of nothing", head + "  - select:\n    max_bytes_per_instance: 1\n    owner: ~\n    reason: {a: 1}\n",
			[]string{"b.yaml:3: select must be a mapping such as {type: Signature, lib: blst}, got nothing", "b.yaml:6: reason must be text, got a mapping"}},
		{"unknown keys and names of a select", head + "  - select: {tpye: Signature, lib: nope, lib: blst}\n    max_bytes_per_instance: 1\n",
			[]string{`b.yaml:3: unknown key "tpye": valid keys are layout, lib, op, param, repr, scheme, type`, `b.yaml:3: select: unknown lib "nope": valid libs are `, `b.yaml:3: duplicate key "lib"`}},
		{"the top's keys", "version: [1]\nextra: 2\nversion: 1\nbudgets: {a: 1}\n",
			[]string{`b.yaml:1: version must be 1, got ""`, `b.yaml:2: unknown key "extra": valid keys are budgets, version`, `b.yaml:3: duplicate key "version"`, "b.yaml:4: budgets must be a list, got a mapping"}},
		{"keys with tags, null and repeated unknown", head + "  - !!int max_bytes_per_instance: 1\n    ~: 2\n    extra: 3\n    extra: 4\n    !custom owner: me\n",
			[]string{`b.yaml:4: unknown key "~"`, `b.yaml:5: unknown key "extra"`, `b.yaml:6: unknown key "extra"`}},
		{"a merge key at the top", "<<: {version: 1}\n",
			[]string{`b.yaml:1: unknown key "<<": valid keys are budgets, version`, "b.yaml:1: missing version: 1", "b.yaml:1: missing budgets: a list of budgets"}},
		{"a limit on its own line", head + "  - max_bytes_per_instance:\n      5\n    unknown_thing:\n      6\n",
			[]string{`b.yaml:5: unknown key "unknown_thing"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("b.yaml", []byte(tt.src))
			if err == nil || !errors.Is(err, ErrInvalid) {
				t.Fatalf("got %v, want an ErrInvalid", err)
			}
			lines := strings.Split(err.Error(), "\n")[1:]
			if len(lines) != len(tt.want) {
				t.Fatalf("got %d problems, want %d:\n%s", len(lines), len(tt.want), err)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("problem %d: got %q, want %q", i+1, lines[i], w)
				}
			}
		})
	}
}

// TestEveryMetricIsALimit: every figure with a budget key is a limit of
// a budgets file, read in its unit, with no change to the gate.
func TestEveryMetricIsALimit(t *testing.T) {
	for _, m := range Metrics() {
		sel := "{type: Signature}"
		if m.OnOps() {
			sel = "{type: Signature, op: verify}"
		}
		value := m.Format(1)
		src := "version: 1\nbudgets:\n  - select: " + sel + "\n    " + m.Key() + ": " + value + "\n"
		f, err := Parse("b.yaml", []byte(src))
		if err != nil {
			t.Errorf("%s: got %v, want it parsed", m.Key(), err)
			continue
		}
		if l := f.Budgets[0].Limits; len(l) != 1 || l[0].Metric != m || l[0].Value != 1 || l[0].Raw != value {
			t.Errorf("%s: got limits %+v, want one of %s, 1 written %q", m.Key(), l, m, value)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSchemeListsAndBudgets: the refusals of --scheme lists and of
// instances --budgets, before anything is measured.
func TestSchemeListsAndBudgets(t *testing.T) {
	dir := t.TempDir()
	budgets := filepath.Join(dir, "b.yaml")
	if err := os.WriteFile(budgets, []byte("version: 1\nbudgets:\n  - select: {type: G1, lib: gnark, repr: affine}\n    max_bytes_per_instance: 96B\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []cliCase{
		{name: "instances --budgets with --type", args: []string{"instances", "--budgets", budgets, "--type", "G1"}, code: exitUsage, wantErr: []string{"--type does nothing with --budgets"}},
		{name: "instances --budgets of a missing file", args: []string{"instances", "--budgets", filepath.Join(dir, "none.yaml")}, code: exitUsage, wantErr: []string{"none.yaml"}},
		{name: "instances --scheme unknown in a list", args: []string{"instances", "--type", "Signature", "--scheme", "min-pk,min-sg"}, code: exitUsage, wantErr: []string{"min-sg", "min-sig"}},
		{name: "throughput --scheme without min-pk", args: []string{"throughput", "--type", "Signature", "--scheme", "min-sig"}, code: exitUsage, wantErr: []string{"min-pk"}},
		{name: "instances --with-throughput --scheme without min-pk", args: []string{"instances", "--type", "Signature", "--scheme", "min-sig", "--with-throughput"}, code: exitUsage, wantErr: []string{"add min-pk"}},
		{name: "check --scheme unknown", args: []string{"check", "--budgets", budgets, "--scheme", "min-sg"}, code: exitUsage, wantErr: []string{"min-sig"}},
		{name: "check --scheme with --update", args: []string{"check", "--budgets", budgets, "--scheme", "min-pk", "--update"}, code: exitUsage, wantErr: []string{"--scheme does nothing with --update"}},
	} {
		t.Run(c.name, func(t *testing.T) { c.check(t) })
	}
}

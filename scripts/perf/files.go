package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// describeMachine names the machine: CPUs, CPU model, memory, system.
func describeMachine(ctx context.Context, dir string) string {
	parts := []string{fmt.Sprintf("%d CPUs (nproc)", runtime.NumCPU())}
	if m := cpuModel(ctx, dir); m != "" {
		parts = append(parts, m)
	}
	if kb := procField("/proc/meminfo", "MemTotal"); kb != "" {
		if n, err := strconv.ParseFloat(strings.TrimSuffix(kb, " kB"), 64); err == nil {
			parts = append(parts, fmt.Sprintf("%.0f GiB", n/(1<<20)))
		}
	}
	return strings.Join(append(parts, runtime.GOOS+"/"+runtime.GOARCH), ", ")
}

// cpuModel is the CPU's model name, from /proc/cpuinfo or sysctl.
func cpuModel(ctx context.Context, dir string) string {
	if m := procField("/proc/cpuinfo", "model name"); m != "" {
		return m
	}
	m, _ := output(ctx, dir, "sysctl", "-n", "machdep.cpu.brand_string")
	return m
}

// procField is the value of the first "name: value" line of file.
func procField(file, name string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == name {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// uptime is the load average over 1, 5 and 15 minutes, as uptime(1)
// prints it.
func uptime(ctx context.Context) string {
	out, err := output(ctx, "", "uptime")
	if err != nil {
		return "n/a"
	}
	if _, load, ok := strings.Cut(out, "load average"); ok {
		load = strings.TrimPrefix(load, "s") // BSD: "load averages"
		return strings.TrimSpace(strings.TrimPrefix(load, ":"))
	}
	return out
}

// The markers around the section of the documentation that this command
// writes.
const (
	sectionBegin = "<!-- perf: begin. scripts/perf writes this section and replaces it on each run: edit the text around it -->"
	sectionEnd   = "<!-- perf: end -->"
)

// writeDocSection replaces the section between the markers in file with
// body (appends the section when file has none, creates file when there
// is none).
func writeDocSection(file, body string) error {
	old, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err != nil {
		old = []byte("# Performance\n")
	}
	section := sectionBegin + "\n\n" + body + "\n" + sectionEnd
	var out []byte
	i, j := bytes.Index(old, []byte(sectionBegin)), bytes.Index(old, []byte(sectionEnd))
	switch {
	case i >= 0 && j > i:
		out = append(append(append([]byte{}, old[:i]...), section...), old[j+len(sectionEnd):]...)
	case i >= 0 || j >= 0:
		return fmt.Errorf("%s: one of the markers %q and %q without the other, or in the wrong order", file, sectionBegin, sectionEnd)
	default:
		out = append(append(bytes.TrimRight(old, "\n"), "\n\n"...), section+"\n"...)
	}
	return writeAtomically(file, out)
}

// appendNote appends the run, with its date, commits and command, to the
// dated note file.
func appendNote(file string, run runInfo, args []string) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o777); err != nil {
		return err
	}
	old, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if len(old) == 0 {
		old = []byte("# Performance runs of " + run.started.Format("2006-01-02") + "\n")
	}
	var b bytes.Buffer
	b.Write(bytes.TrimRight(old, "\n"))
	fmt.Fprintf(&b, "\n\n## %s UTC: scripts/perf %s\n\n", run.started.Format("15:04"), strings.Join(args, " "))
	b.WriteString(renderRun(run, true))
	return writeAtomically(file, b.Bytes())
}

// writeAtomically replaces file with data, or leaves it as it was.
func writeAtomically(file string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

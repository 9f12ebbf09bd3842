package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/memprof/memprof/cmd/memprof/internal/interrupt"
	"github.com/memprof/memprof/internal/testfs"
)

// interruptLine is all an interrupted command prints once interrupted.
const interruptLine = "memprof: interrupted\n"

// earlier is the content of the -o file before the interrupted run: it
// must stay byte for byte.
const earlier = "earlier results, which an interrupted run must not replace\n"

// lockedBuffer is a bytes.Buffer safe for a command writing and a test
// reading at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// interruptCase is a command interrupted while it works: started reports
// that it has started working (a child's temporary directory exists, a
// marker line is on stderr, the server got the request).
type interruptCase struct {
	name string
	args func(e *interruptEnv) []string
	// waitFor says what shows the command has started.
	waitFor string // "child", "stderr:TEXT" or "request"
	// tiny says that the command works on the tiny registry's cases as
	// it does on the real ones: the in-process runs measure those
	// (TestInterruptSignals runs the binary, on the real suites).
	tiny bool
	// binaryArgs, when set, are the arguments TestInterruptSignals runs
	// the binary with instead of args: the same command on a selection of
	// the real suites that reaches the same work for less CPU.
	binaryArgs func(e *interruptEnv) []string
}

// interruptEnv is one interrupted run's world.
type interruptEnv struct {
	dir, tmp, out, review string
	srv                   *httptest.Server
	requested             chan struct{}
}

func newInterruptEnv(t *testing.T) *interruptEnv {
	t.Helper()
	e := &interruptEnv{dir: t.TempDir(), requested: make(chan struct{}, 1)}
	e.tmp = testfs.Mkdir(t, filepath.Join(e.dir, "tmp"), 0o755)
	e.out = testfs.WriteFile(t, filepath.Join(e.dir, "existing.json"), earlier, 0o644)
	e.review = filepath.Join(e.dir, "review")
	release := make(chan struct{})
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case e.requested <- struct{}{}:
		default:
		}
		// Stall, as a live process's endpoint under load can, until the
		// client gives up or the test ends.
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() {
		close(release)
		e.srv.Close()
	})
	return e
}

var interruptCases = []interruptCase{
	{"instances", func(e *interruptEnv) []string { return []string{"instances", "--type", "all", "-o", e.out} }, "child", true, nil},
	// The binary times ML-KEM's keys: the libraries' agreement, which
	// throughput checks before it times, costs them a few lattice
	// operations where BLS12-381's Signature costs pairings on every
	// vector (notes/2026-12-06-testtime-cmd.md), and the interrupt lands
	// in the timing either way.
	{"throughput", func(e *interruptEnv) []string { return []string{"throughput", "--type", "Signature", "-o", e.out} },
		"stderr:memprof throughput: timing", true,
		func(e *interruptEnv) []string {
			return []string{"throughput", "--type", "MLKEMEncapsulationKey", "-o", e.out}
		}},
	{"report", func(e *interruptEnv) []string { return []string{"report", "--type", "Signature", "--out", e.review} }, "child", true, nil},
	// The project's budgets select the real suites' cases.
	{"check", func(e *interruptEnv) []string { return []string{"check", "--budgets", "../../memprof.budgets.yaml"} }, "child", false, nil},
	{"heapscan", func(e *interruptEnv) []string {
		return []string{"heapscan", "-o", e.out, e.srv.URL + "/debug/pprof/heap"}
	}, "request", false, nil},
}

// started reports whether the command has begun the work an interrupt
// must stop.
func (e *interruptEnv) started(how string, stderr func() string) bool {
	switch {
	case how == "child":
		entries, _ := os.ReadDir(e.tmp)
		return len(entries) > 0
	case how == "request":
		select {
		case <-e.requested:
			return true
		default:
			return false
		}
	case strings.HasPrefix(how, "stderr:"):
		return strings.Contains(stderr(), strings.TrimPrefix(how, "stderr:"))
	}
	panic("unknown start marker " + how)
}

// waitUntil polls cond until it holds, or fails the test after d.
func waitUntil(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up after %v waiting for %s", d, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// checkUntouched checks what an interrupted run must leave: the -o file
// as it was, no review directory, nothing in the temporary directory.
func (e *interruptEnv) checkUntouched(t *testing.T) {
	t.Helper()
	if got, err := os.ReadFile(e.out); err != nil || string(got) != earlier {
		t.Errorf("-o file after the interrupt: got %q (%v), want it unchanged, %q", got, err, earlier)
	}
	want := map[string]string{"tmp": "dir", "existing.json": "file:" + earlier + " -rw-r--r--"}
	if d := testfs.Diff(testfs.Snapshot(t, e.dir), want); d != "" {
		t.Errorf("left behind in %s (the temporary directory is tmp, the review would be review):\n%s", e.dir, d)
	}
}

// TestInterruptInProcess cancels run's context as main does on a signal,
// while each command works, and checks that it stops cleanly: exit 128 +
// the signal, nothing more on stderr than the one line, nothing written,
// nothing left in TMPDIR. Children are this test binary (see TestMain);
// the commands that measure do so on the tiny registry (interruptCase.tiny).
func TestInterruptInProcess(t *testing.T) {
	signals := []syscall.Signal{syscall.SIGTERM, syscall.SIGINT}
	for i, c := range interruptCases {
		sig := signals[i%len(signals)]
		t.Run(c.name+"/"+sig.String(), func(t *testing.T) {
			e := newInterruptEnv(t)
			t.Setenv("TMPDIR", e.tmp)
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			var stdout, stderr lockedBuffer
			done := make(chan int, 1)
			reg := registry
			if c.tiny {
				reg = tinyRegistry
			}
			go func() { done <- runCommand(ctx, reg, c.args(e), &stdout, &stderr) }()
			waitUntil(t, time.Minute, c.name+" to start ("+c.waitFor+")", func() bool {
				select {
				case code := <-done:
					t.Fatalf("%s ended with exit %d before it was interrupted; stderr %s", c.name, code, stderr.String())
				default:
				}
				return e.started(c.waitFor, stderr.String)
			})
			before := len(stderr.String())
			cancel(interrupt.Cause{Signal: sig})
			var code int
			select {
			case code = <-done:
			case <-time.After(time.Minute):
				t.Fatalf("%s did not stop within a minute of the interrupt", c.name)
			}
			if want := 128 + int(sig); code != want {
				t.Errorf("exit code: got %d, want %d", code, want)
			}
			if got := stderr.String()[before:]; got != interruptLine {
				t.Errorf("stderr after the interrupt: got %q, want exactly %q", got, interruptLine)
			}
			if stdout.String() != "" {
				t.Errorf("stdout: got %q, want nothing", stdout.String())
			}
			e.checkUntouched(t)
		})
	}
}

// TestInterruptExitCode: the exit code follows the signal in the
// context's cause.
func TestInterruptExitCode(t *testing.T) {
	tests := []struct {
		name   string
		cancel func(context.CancelCauseFunc)
		code   int
		ok     bool
	}{
		{"not cancelled", func(context.CancelCauseFunc) {}, 0, false},
		{"SIGINT", func(c context.CancelCauseFunc) { c(interrupt.Cause{Signal: syscall.SIGINT}) }, 130, true},
		{"SIGTERM", func(c context.CancelCauseFunc) { c(interrupt.Cause{Signal: syscall.SIGTERM}) }, 143, true},
		{"cancelled without a signal", func(c context.CancelCauseFunc) { c(nil) }, 130, true},
		{"other cause", func(c context.CancelCauseFunc) { c(errors.New("shutting down")) }, 130, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			tt.cancel(cancel)
			code, ok := interrupt.ExitCode(ctx)
			if code != tt.code || ok != tt.ok {
				t.Errorf("got %d, %v; want %d, %v", code, ok, tt.code, tt.ok)
			}
		})
	}
}

var interruptAll = flag.Bool("interrupt.all", false, "TestInterruptSignals sends each command both SIGINT and SIGTERM (go test sends each one of them, in turn; .ci/run sets it)")

// TestInterruptSignals runs the memprof binary and sends it real signals
// while each command works: the parent must stop its children, write
// nothing, leave TMPDIR empty, print one line and exit 128 + the signal.
// Each command gets one signal, SIGINT and SIGTERM in turn (both with
// -interrupt.all, as .ci/run runs it); the runs are parallel, each in its
// own directories with its own server. One more run of report gets SIGINT
// twice, the second once the first was taken: it exits at once, and
// still leaves nothing behind.
func TestInterruptSignals(t *testing.T) {
	t.Parallel() // each run is a process of its own, with its own environment, directories and server
	if testing.Short() {
		t.Skip("runs the memprof binary for each command")
	}
	if runtime.GOOS != "linux" {
		t.Skip("finds children in /proc")
	}
	bin := buildCLI(t)
	signals := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM}
	for i, c := range interruptCases {
		sigs := signals
		if !*interruptAll {
			sigs = signals[i%len(signals) : i%len(signals)+1]
		}
		for _, sig := range sigs {
			t.Run(c.name+"/"+sig.String(), func(t *testing.T) {
				t.Parallel()
				interruptBinary(t, bin, c, sig)
			})
		}
	}
	for _, c := range interruptCases {
		if c.name == "report" {
			t.Run("report/"+syscall.SIGINT.String()+" twice", func(t *testing.T) {
				t.Parallel()
				interruptBinary(t, bin, c, syscall.SIGINT, syscall.SIGINT)
			})
		}
	}
}

// interruptBinary runs command c of the binary bin, sends it sigs once it
// has started (each after the one before was taken, so that two of one
// signal are two), and checks what an interrupted command leaves: exit
// 128 + the first signal, stderr's one line, no stdout, no child alive,
// the -o file and TMPDIR as they were.
func interruptBinary(t *testing.T, bin string, c interruptCase, sigs ...syscall.Signal) {
	t.Helper()
	e := newInterruptEnv(t)
	args := c.args(e)
	if c.binaryArgs != nil {
		args = c.binaryArgs(e)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(withoutEnv(os.Environ(), "TMPDIR", childStartedEnv), "TMPDIR="+e.tmp)
	var stdout, stderr lockedBuffer
	cmd.Stdout = &stdout
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	copied := make(chan struct{})
	go func() {
		io.Copy(&stderr, errPipe)
		close(copied)
	}()
	exited := make(chan error, 1)
	pid := cmd.Process.Pid
	defer func() {
		cmd.Process.Kill()
	}()
	var kids []int
	waitUntil(t, time.Minute, c.name+" to start ("+c.waitFor+")", func() bool {
		if !e.started(c.waitFor, stderr.String) {
			return false
		}
		if c.waitFor == "child" {
			// A child's directory exists: wait for the child.
			kids = childrenOf(pid)
			return len(kids) > 0
		}
		return true
	})
	for i, sig := range sigs {
		if i > 0 {
			// Two of one signal pending at once are one: wait until
			// the process has taken the one before.
			waitUntil(t, time.Minute, "the signal to be taken", func() bool { return !signalPending(pid, sigs[i-1]) })
		}
		if err := syscall.Kill(pid, sig); err != nil {
			t.Fatal(err)
		}
	}
	go func() {
		<-copied
		exited <- cmd.Wait()
	}()
	select {
	case <-exited:
	case <-time.After(time.Minute):
		t.Fatalf("%s did not exit within a minute of %v", c.name, sigs)
	}
	if got, want := cmd.ProcessState.ExitCode(), 128+int(sigs[0]); got != want {
		t.Errorf("exit code: got %d (%v), want %d", got, cmd.ProcessState, want)
	}
	checkInterruptStderr(t, stderr.String())
	if stdout.String() != "" {
		t.Errorf("stdout: got %q, want nothing", stdout.String())
	}
	for _, k := range kids {
		if alive(k) {
			t.Errorf("child %d of %d still runs after the interrupt", k, pid)
			syscall.Kill(k, syscall.SIGKILL)
		}
	}
	e.checkUntouched(t)
}

// signalPending reports whether sig is pending for process pid, to it
// or to one of its threads (/proc/PID/status's ShdPnd and SigPnd; the
// threads' own are in /proc/PID/task/TID/status).
func signalPending(pid int, sig syscall.Signal) bool {
	files, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/status")
	for _, f := range append(files, "/proc/"+strconv.Itoa(pid)+"/status") {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			name, mask, ok := strings.Cut(line, ":\t")
			if !ok || name != "ShdPnd" && name != "SigPnd" {
				continue
			}
			if m, err := strconv.ParseUint(mask, 16, 64); err == nil && m&(1<<(uint(sig)-1)) != 0 {
				return true
			}
		}
	}
	return false
}

// checkInterruptStderr checks that stderr ends with the one interrupt
// line and holds nothing else but the progress lines a command prints
// before it is interrupted.
func checkInterruptStderr(t *testing.T, stderr string) {
	t.Helper()
	progress := []string{"memprof throughput: timing ", "memprof throughput: agreement checked without "}
	if !strings.HasSuffix(stderr, interruptLine) || strings.Count(stderr, interruptLine) != 1 {
		t.Errorf("stderr: got %q, want it to end with the one line %q", stderr, interruptLine)
		return
	}
	for _, line := range strings.Split(strings.TrimSuffix(stderr, interruptLine), "\n") {
		if line == "" {
			continue
		}
		// The memory estimate of a large run is announced first.
		ok := strings.HasPrefix(line, "memprof ") && strings.Contains(line, ": this run will need about ")
		for _, p := range progress {
			ok = ok || strings.HasPrefix(line, p)
		}
		if !ok {
			t.Errorf("stderr line %q: want only progress lines before %q", line, interruptLine)
		}
	}
}

// childrenOf returns the processes whose parent is pid.
func childrenOf(pid int) []int {
	var kids []int
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		if ppid, _, ok := readStat(p); ok && ppid == pid {
			k, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			kids = append(kids, k)
		}
	}
	return kids
}

// alive reports whether pid is a process that has not exited (a zombie
// has).
func alive(pid int) bool {
	_, state, ok := readStat("/proc/" + strconv.Itoa(pid) + "/stat")
	return ok && state != "Z" && state != "X"
}

// readStat reads the parent pid and state of /proc/PID/stat.
func readStat(path string) (ppid int, state string, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, "", false
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, "", false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0, "", false
	}
	ppid, err = strconv.Atoi(f[1])
	return ppid, f[0], err == nil
}

// withoutEnv drops the named variables from env.
func withoutEnv(env []string, names ...string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, n := range names {
			drop = drop || name == n
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

// lookCounter is a context that is done from its limit-th look on (a
// call of Err), or never when limit is 0, and counts the looks: a test
// interrupts a command at any point of its work, reading, rendering or
// writing, without depending on how fast the machine is.
type lookCounter struct {
	context.Context // for Value and Deadline
	mu              sync.Mutex
	looks, limit    int
	done            chan struct{}
}

func newLookCounter(limit int) *lookCounter {
	return &lookCounter{Context: context.Background(), limit: limit, done: make(chan struct{})}
}

func (c *lookCounter) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.looks++
	if c.limit > 0 && c.looks >= c.limit {
		if c.looks == c.limit {
			close(c.done)
		}
		return context.Canceled
	}
	return nil
}

func (c *lookCounter) Done() <-chan struct{} { return c.done }

// count returns the looks so far.
func (c *lookCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.looks
}

// resultsCommandsOutputs are the results commands with the output each
// writes: -o FILE or --out DIR in dir.
func interruptedResultsArgs(f resultsFiles, out, review string) map[string][]string {
	return map[string][]string{
		"check":          {"check", "--results", f.results, "--budgets", f.budgets, "-o", out},
		"check --update": {"check", "--update", "--results", f.results, "--budgets", f.budgets},
		"compare":        {"compare", f.results, f.results, "-o", out},
		"export":         {"export", "--to", "bencher", f.results, "-o", out},
		"report --from":  {"report", "--from", f.results, "--from", f.results, "--out", review},
		"list":           {"list"},
	}
}

// TestInterruptResultsCommands interrupts each command that reads results
// files at points spread over its whole work (its first look at the
// context, while it reads, renders and writes, and its last look) and
// checks that it stops: exit 130, "memprof: interrupted" last on stderr,
// and each output (stdout, the -o file, the budgets file, --out) either
// as it was before or, when the interrupt came after it was written,
// whole: never half written. Interrupted in its first half, it has
// written nothing. The commands must look at the context all along: at
// least once per few rows, counted on a file of rows rows. The
// interrupts go to runs on a file of a quarter of them: what they check
// holds at any size, and each run up to the interrupt costs a share of
// the whole, so the smaller file saves most of the test's work.
func TestInterruptResultsCommands(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; measures, if at all, in children
	const rows = 1000
	counted := writeResultsFiles(t, t.TempDir(), rows)
	countedArgs := interruptedResultsArgs(counted, filepath.Join(counted.dir, "out"), filepath.Join(counted.dir, "review"))
	f := writeResultsFiles(t, t.TempDir(), rows/4)
	budgets, err := os.ReadFile(f.budgets)
	if err != nil {
		t.Fatal(err)
	}
	out, review := filepath.Join(f.dir, "out"), filepath.Join(f.dir, "review")
	for name, args := range interruptedResultsArgs(f, out, review) {
		t.Run(name, func(t *testing.T) {
			// How often the command looks on the file of rows rows.
			if name != "list" {
				looks := newLookCounter(0)
				var stderr lockedBuffer
				if code := run(looks, countedArgs[name], io.Discard, &stderr); code != exitOK && code != exitFailure {
					t.Fatalf("uninterrupted, %d rows: exit %d: %s", rows, code, clip(stderr.String()))
				}
				if n := looks.count(); n < rows/4 {
					t.Errorf("the command looked at its context %d times for %d rows, want at least one look per 4 rows", n, rows)
				}
			}
			reset := func() {
				testfs.WriteFile(t, out, earlier, 0o644)
				testfs.WriteFile(t, f.budgets, string(budgets), 0o644)
				os.RemoveAll(review)
			}
			// The whole command on the smaller file, and its looks.
			reset()
			all := newLookCounter(0)
			var stdout, stderr lockedBuffer
			if code := run(all, args, &stdout, &stderr); code != exitOK && code != exitFailure {
				t.Fatalf("uninterrupted: exit %d: %s", code, clip(stderr.String()))
			}
			whole := outputs{stdout.String(), readFile(t, out), readFile(t, f.budgets), readFile(t, filepath.Join(review, "README.md"))}
			before := outputs{"", earlier, string(budgets), ""}
			total := all.count()
			for _, at := range []int{1, total / 4, total / 2, total * 9 / 10, total - 1} {
				if at < 1 {
					continue
				}
				reset()
				var stdout, stderr lockedBuffer
				code := run(newLookCounter(at), args, &stdout, &stderr)
				if code != 128+int(syscall.SIGINT) {
					t.Errorf("interrupted at look %d of %d: exit %d, want 130; stderr %s", at, total, code, clip(stderr.String()))
				}
				if got := stderr.String(); !strings.HasSuffix(got, interruptLine) {
					t.Errorf("interrupted at look %d of %d: stderr %q, want it to end with %q", at, total, clip(got), interruptLine)
				}
				got := outputs{stdout.String(), readFile(t, out), readFile(t, f.budgets), readFile(t, filepath.Join(review, "README.md"))}
				for i, what := range []string{"stdout", "the -o file", "the budgets file", "--out"} {
					if got[i] != before[i] && (got[i] != whole[i] || at <= total/2) {
						t.Errorf("interrupted at look %d of %d: %s is %q, want it as before (%q) or, late, whole", at, total, what, clip(got[i]), clip(before[i]))
					}
				}
				if leftovers, _ := filepath.Glob(filepath.Join(f.dir, ".*")); len(leftovers) > 0 {
					t.Errorf("interrupted at look %d of %d: left %v", at, total, leftovers)
				}
			}
		})
	}
}

// outputs are what a command wrote: stdout, the -o file, the budgets
// file, the review's README.
type outputs [4]string

// readFile returns the file's content, "" when it does not exist.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// TestInterruptResultsCommandsDeadline interrupts each results command,
// by a real cancel of its context, while it works on a file of a fifth of
// the row limit, and checks that it stops within a generous deadline (not that
// it is fast: that it looks at the interrupt at all).
func TestInterruptResultsCommandsDeadline(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable
	if testing.Short() {
		t.Skip("writes a results file of 10,000 rows")
	}
	f := writeResultsFiles(t, t.TempDir(), 10000)
	for name, args := range interruptedResultsArgs(f, filepath.Join(f.dir, "out"), filepath.Join(f.dir, "review")) {
		if name == "list" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			var stdout, stderr lockedBuffer
			done := make(chan int, 1)
			go func() { done <- run(ctx, args, &stdout, &stderr) }()
			time.Sleep(50 * time.Millisecond) // into its work, most likely; anywhere will do
			cancel(interrupt.Cause{Signal: syscall.SIGTERM})
			select {
			case code := <-done:
				if code != exitOK && code != exitFailure && code != 128+int(syscall.SIGTERM) {
					t.Errorf("exit %d, want 143 (or the exit of a command that ended first)", code)
				}
			case <-time.After(time.Minute):
				t.Fatalf("%s did not stop within a minute of the interrupt", name)
			}
		})
	}
}

// clip shortens s for a message.
func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

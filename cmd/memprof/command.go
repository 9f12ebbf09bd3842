package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"syscall"

	"github.com/memprof/memprof/cmd/memprof/internal/cliflag"
	"github.com/memprof/memprof/cmd/memprof/internal/interrupt"
	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/internal/atomicfile"
	"github.com/memprof/memprof/internal/livewriter"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/all"
	"github.com/memprof/memprof/vocab"
	"github.com/memprof/memprof/workflow"
)

// Exit codes, as cmd/go uses them.
const (
	exitOK      = 0
	exitFailure = 1 // a measurement failed, a budget was exceeded, a regression was found
	exitUsage   = 2 // bad flags, arguments or input files
	// An interrupted command exits 128 + the signal's number, as a shell
	// reports it: 130 for SIGINT, 143 for SIGTERM (see interrupt.ExitCode).
)

// live returns w as a livewriter.Writer of the command's context (an
// interrupted command prints nothing more; run prints the one line that
// says why): a command
// renders into it, so that rendering stops at an interrupt (at its next
// write) and nothing rendered after is written anywhere.
func (inv *invocation) live(w io.Writer) io.Writer {
	if inv.ctx == nil {
		return w
	}
	return livewriter.Writer{Ctx: inv.ctx, W: w}
}

// command is one subcommand, in the style of cmd/go.
type command struct {
	Name      string
	UsageLine string // "instances --type T [flags]"
	Short     string
	Long      string
	// LongFunc, if set, builds Long when help is printed: for text that
	// needs the registry (verify's checks), which a measuring child never
	// builds, or costs work at start (the method's wrapped paragraphs).
	LongFunc func() string
	// Run executes the command with its arguments (the command name
	// removed) and returns the exit code.
	Run func(ctx context.Context, inv *invocation, args []string) int
	// Examples end the command's help: real commands, run from the
	// module's root.
	Examples []example
}

// commands is every subcommand, in the order help lists them.
var commands = []*command{
	checkCommand,
	compareCommand,
	exportCommand,
	heapscanCommand,
	instancesCommand,
	listCommand,
	reportCommand,
	showCommand,
	throughputCommand,
	verifyCommand,
	versionCommand,
}

// lookup returns the command called name.
func lookup(name string) (*command, bool) {
	for _, c := range commands {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}

// helpShort is help's line in the lists of commands: help is run's own,
// not a command of the table, but a user looks for it among them.
const helpShort = "print help: help <command> for one, help method for the method"

// listedCommands returns the names and short lines of the commands and of
// help, in alphabetical order: what help lists and did-you-mean knows.
func listedCommands() (names, shorts []string) {
	for _, c := range commands {
		names, shorts = append(names, c.Name), append(shorts, c.Short)
	}
	i, _ := slices.BinarySearch(names, "help")
	return slices.Insert(names, i, "help"), slices.Insert(shorts, i, helpShort)
}

// writeCommandList writes the commands' names and short lines, one a
// line after indent, for the usages.
func writeCommandList(w io.Writer, indent string) {
	names, shorts := listedCommands()
	for i, name := range names {
		fmt.Fprintf(w, "%s%-11s %s\n", indent, name, shorts[i])
	}
}

// commandNames lists the commands' names, in the table's order.
func commandNames() []string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.Name
	}
	return names
}

// invocation carries what a command may use: its output streams, the
// context the command runs under, and the registry of the cases and
// operations it measures.
type invocation struct {
	cmd      *command
	stdout   io.Writer
	stderr   io.Writer
	ctx      context.Context // nil: never interrupted
	registry *suites.Registry
	// dryRun stops a command once its flags, selection and inputs are
	// checked, before it measures, fetches or writes (the tests of the
	// help's examples and of the documents set it, with withDryRun); nil
	// outside a dry run.
	dryRun *dryRun
}

// dryRunKey marks a context whose commands stop before they work.
type dryRunKey struct{}

// dryRun is a dry run's record: whether a command run under it stopped
// before its work, so that output it printed is known to be partial.
type dryRun struct{ stopped bool }

// withDryRun returns ctx with the commands run under it stopping once
// their flags are checked (invocation.stopDry).
func withDryRun(ctx context.Context) context.Context {
	return context.WithValue(ctx, dryRunKey{}, &dryRun{})
}

// dryRunStopped reports whether a command run under ctx (made by
// withDryRun) stopped before its work.
func dryRunStopped(ctx context.Context) bool {
	d, _ := ctx.Value(dryRunKey{}).(*dryRun)
	return d != nil && d.stopped
}

// stopDry reports whether the command must stop here, before it
// measures, fetches or writes: it is a dry run, which records the stop.
func (inv *invocation) stopDry() bool {
	if inv.dryRun == nil {
		return false
	}
	inv.dryRun.stopped = true
	return true
}

// errDryRun is what a dry run's Ready returns to a workflow: it stops
// before measuring.
var errDryRun = errors.New("dry run: stopped before measuring")

// ready is a workflow's Ready of the invocation: check before measuring
// (the -o file), or stop a dry run.
func (inv *invocation) ready(check func() error) func() error {
	return func() error {
		if inv.stopDry() {
			return errDryRun
		}
		return check()
	}
}

// registry returns the suites registry the commands measure, which run
// passes to each command; tests replace it with one of their own.
var registry = all.Registry

// childLookup finds the case a measuring child was asked for: the
// built-in suites' lookup, which builds the suites of the case's family
// only (the parent found the name in the checked registry); tests that
// replace registry for their children replace it too.
var childLookup = all.LookupCase

// run is the whole program: main only adds os.Args, the signals that
// cancel ctx, and os.Exit.
//
// When ctx is done (main cancels it with an interrupt.Cause on SIGINT or
// SIGTERM), the command stops: children are killed with the context,
// nothing more is printed or written (see livewriter.Writer and
// invocation.writeFile), and run prints "memprof: interrupted" and returns
// 128 + the signal's number.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if memprof.ChildRequested() {
		if err := memprof.ServeChild(childLookup, workflow.ChildTasksOf(registry)...); err != nil {
			fmt.Fprintln(stderr, "memprof child:", err)
			return exitFailure
		}
		return exitOK
	}
	return runCommand(ctx, registry, args, stdout, stderr)
}

// runCommand is run's work in the parent: the command args name, on the
// cases of the registry reg returns, built only when a command runs
// (tests give a registry of their own).
func runCommand(ctx context.Context, reg func() *suites.Registry, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		shortUsage(stderr)
		return exitUsage
	}
	out := &stdoutWriter{w: stdout}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[1] == "method" {
			fmt.Fprintln(out, methodHelp())
			return out.exit(stderr, "help", exitOK)
		}
		if len(args) > 1 && args[1] != "help" {
			if c, ok := lookup(args[1]); ok {
				commandUsage(out, c, nil)
				return out.exit(stderr, "help", exitOK)
			}
			names, _ := listedCommands()
			fmt.Fprintf(stderr, "memprof help %s: unknown command%s the commands are %s; help method says how memprof measures\nRun 'memprof help' for usage.\n", args[1], commandSuggestion(args[1], append(names, "method")), strings.Join(names, ", "))
			return exitUsage
		}
		usage(out)
		return out.exit(stderr, "help", exitOK)
	case "--version", "-version":
		name = versionCommand.Name
	}
	c, ok := lookup(name)
	if !ok {
		names, _ := listedCommands()
		fmt.Fprintf(stderr, "memprof %s: unknown command%s the commands are %s\nRun 'memprof help' for usage.\n", name, commandSuggestion(name, names), strings.Join(names, ", "))
		return exitUsage
	}
	inv := &invocation{cmd: c, stdout: livewriter.Writer{Ctx: ctx, W: out}, stderr: livewriter.Writer{Ctx: ctx, W: stderr}, ctx: ctx, registry: reg()}
	inv.dryRun, _ = ctx.Value(dryRunKey{}).(*dryRun)
	code := c.Run(ctx, inv, args[1:])
	if interrupted, ok := interrupt.ExitCode(ctx); ok {
		fmt.Fprintln(stderr, "memprof: interrupted")
		return interrupted
	}
	return out.exit(stderr, c.Name, code)
}

// stdoutWriter is standard output as the commands write to it: it keeps
// the first error (a full disk, a closed pipe) and drops what follows it,
// so that run reports the error once, whichever command printed.
type stdoutWriter struct {
	w   io.Writer
	err error
}

func (s *stdoutWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err != nil {
		s.err = err
	}
	return n, err
}

// Unwrap returns the writer s writes to (render.File looks through s for
// the terminal).
func (s *stdoutWriter) Unwrap() io.Writer { return s.w }

// exit returns the exit code of command name that returned code: at
// least exitFailure, with the error on stderr, when standard output
// could not be written; a closed pipe (the reader had enough, as head
// does) ends quietly with the command's own code.
func (s *stdoutWriter) exit(stderr io.Writer, name string, code int) int {
	if s.err == nil || errors.Is(s.err, syscall.EPIPE) {
		return code
	}
	err := s.err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	fmt.Fprintf(stderr, "memprof %s: writing to standard output: %v\n", name, err)
	return max(code, exitFailure)
}

// stdoutFailed reports whether a write to standard output failed (run
// reports it).
func (inv *invocation) stdoutFailed() bool {
	s, ok := livewriter.Unwrap(inv.stdout).(*stdoutWriter)
	return ok && s.err != nil
}

// print writes b to standard output and returns exitOK; run reports an
// error of standard output (see stdoutWriter).
func (inv *invocation) print(b []byte) int {
	inv.stdout.Write(b)
	return exitOK
}

// commandSuggestion is "; did you mean instances?" for a near miss of
// one of names, else ":".
func commandSuggestion(name string, names []string) string {
	if c, ok := vocab.Nearest(name, names); ok {
		return "; did you mean " + c + "?"
	}
	return ":"
}

// shortUsage is what memprof without a command prints: the usage line
// and the commands, one line each.
func shortUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: memprof <command> [flags] [arguments]\n\n")
	writeCommandList(w, "  ")
	fmt.Fprintf(w, "\nRun 'memprof help' for more, 'memprof <command> -h' for one command.\n")
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "memprof measures what cryptographic objects cost in memory and speed, in\neach library and representation.\n\nUsage:\n\n\tmemprof <command> [flags] [arguments]\n\nThe commands are:\n\n")
	writeCommandList(w, "\t")
	fmt.Fprintf(w, "\nUse \"memprof <command> -h\" for more about a command, \"memprof help method\"\nfor how memprof measures.\n")
	fmt.Fprintf(w, "\nSIGINT or SIGTERM stops any command: its children are stopped, nothing is\nwritten, and it exits 130 or 143.\n")
	fmt.Fprintf(w, "\nEXAMPLES\n\n")
	for _, c := range commands {
		if len(c.Examples) > 0 {
			render.WriteExample(w, c.Examples[0])
		}
	}
}

// example is one example of a command's help.
type example = render.Example

// commandUsage writes a command's help: its usage line, its description,
// its flags (when fs is not nil) and its examples.
func commandUsage(w io.Writer, c *command, fs *flag.FlagSet) {
	long := c.Long
	if c.LongFunc != nil {
		long = c.LongFunc()
	}
	render.CommandHelp(w, c.Name, c.UsageLine, long, fs, c.Examples)
}

// methodHelp is the method (memprof.Method) as help prints it: the
// sections titled titles, or all of them, each its title and its
// paragraphs wrapped at render.HelpWidth.
func methodHelp(titles ...string) string {
	var out []string
	for _, sec := range memprof.Method() {
		if len(titles) > 0 && !slices.Contains(titles, sec.Title) {
			continue
		}
		out = append(out, sec.Title+".", render.HelpParagraphs(sec.Paragraphs...))
	}
	return strings.Join(out, "\n\n")
}

// flags makes the command's FlagSet; its errors go to stderr.
func (inv *invocation) flags() *flag.FlagSet {
	fs := flag.NewFlagSet(inv.cmd.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parse parses args; it returns done=true with the exit code when the
// command must stop: -h (0) or a usage error (2).
//
// A flag the command does not have is named with the nearest one it has
// ("did you mean --format?"), and a value that does not parse says what
// was expected (cliflag.ExplainValues).
func (inv *invocation) parse(fs *flag.FlagSet, args []string) (code int, done bool) {
	var bad error
	restore := cliflag.ExplainValues(fs, &bad)
	err := fs.Parse(args)
	restore()
	switch {
	case err == nil:
		return 0, false
	case errors.Is(err, flag.ErrHelp):
		commandUsage(inv.stdout, inv.cmd, fs)
		return exitOK, true
	case bad != nil:
		return inv.usageError("%v", bad), true
	}
	// The flag package's words for a flag it does not know.
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok && fs.Lookup(name) == nil {
		msg := "unknown flag " + cliflag.Dashed(name)
		if s, ok := vocab.Nearest(cliflag.Dashed(name), cliflag.Names(fs)); ok {
			msg += "; did you mean " + s + "?"
		}
		return inv.usageError("%s", msg), true
	}
	return inv.usageError("%v", err), true
}

// parseFlags parses args, which must hold only flags, and checks them:
// cliflag.Check, with the rules rules returns once the flags are parsed (none
// if rules is nil), then format, if not nil, which it leaves in its
// canonical spelling. It returns done=true with the exit code when the
// command must stop: -h (0) or a usage error (2).
func (inv *invocation) parseFlags(fs *flag.FlagSet, args []string, format *cliflag.Format, rules func() []cliflag.Inert) (code int, done bool) {
	if code, done := inv.parse(fs, args); done {
		return code, true
	}
	if fs.NArg() > 0 {
		return inv.usageError("unexpected arguments: %s", strings.Join(fs.Args(), " ")), true
	}
	var rs []cliflag.Inert
	if rules != nil {
		rs = rules()
	}
	if err := cliflag.Check(fs, rs...); err != nil {
		return inv.usageError("%v", err), true
	}
	if format != nil {
		var err error
		if format.Value, err = format.Get(); err != nil {
			return inv.usageError("%v", err), true
		}
	}
	return 0, false
}

// writeResults renders rs in format (table with table, the others as
// every command writes them) and writes it to out (see writeOutput). It
// returns exitOK, or exitFailure with the error printed.
func (inv *invocation) writeResults(rs *results.File, format, out string, table func(io.Writer, *results.File) error) int {
	write := func(w io.Writer) error {
		if err := render.WriteResults(inv.live(w), rs, format, table); err != nil {
			return fmt.Errorf("rendering: %w", err)
		}
		return nil
	}
	var err error
	switch {
	case out != "":
		// Streamed into the temporary file that replaces out at the
		// end: a file at the row limit is never held twice, and a
		// failed or interrupted render leaves out as it was.
		err = inv.streamFile("results", out, write)
	case format == "json":
		// JSON is written as it is rendered, a row at a time: its text
		// at the row limit would double what show holds.
		err = write(inv.stdout)
	default:
		var buf bytes.Buffer
		if err = write(&buf); err == nil {
			inv.stdout.Write(buf.Bytes()) // run reports an error of standard output
		}
	}
	if err != nil {
		return inv.fail("%v", err)
	}
	return exitOK
}

// tableWriter is where a command's table goes: stdout, or, with -o, a
// file (nil), which has no terminal width.
func tableWriter(inv *invocation, out string) io.Writer {
	if out != "" {
		return nil
	}
	return inv.stdout
}

// usageError prints a one-line usage error and returns exitUsage.
func (inv *invocation) usageError(format string, a ...any) int {
	fmt.Fprintf(inv.stderr, "memprof %s: %s\nRun 'memprof %s -h' for usage.\n", inv.cmd.Name, fmt.Sprintf(format, a...), inv.cmd.Name)
	return exitUsage
}

// fail prints an error and returns exitFailure.
func (inv *invocation) fail(format string, a ...any) int {
	fmt.Fprintf(inv.stderr, "memprof %s: %s\n", inv.cmd.Name, fmt.Sprintf(format, a...))
	return exitFailure
}

// checkOutputPath fails early, before minutes of measuring, when -o names
// a file that cannot be written (see atomicfile.Check): a missing or
// read-only directory, a directory, a read-only file, a dangling link or a
// link loop. The error names the path and the reason.
func checkOutputPath(path string) error {
	return checkWritable("results", path)
}

// checkWritable is checkOutputPath for a file holding what, for the
// message: "writing results to PATH: ...".
func checkWritable(what, path string) error {
	if path == "" {
		return nil
	}
	return writeError(what, atomicfile.Check(path))
}

// writeOutput writes b to path (atomically; see atomicfile.WriteFile), or
// to stdout when path is "". Every command's -o goes through it. Once the
// command is interrupted it writes nothing: an earlier file at path stays
// as it was.
func writeOutput(inv *invocation, path string, b []byte) error {
	if path != "" {
		return inv.writeFile("results", path, b)
	}
	inv.stdout.Write(b) // run reports an error of standard output
	return nil
}

// writeFile writes b to path atomically, unless the command was
// interrupted.
func (inv *invocation) writeFile(what, path string, b []byte) error {
	if inv.ctx != nil {
		if err := inv.ctx.Err(); err != nil {
			return fmt.Errorf("not writing %s to %s: %w", what, path, context.Cause(inv.ctx))
		}
	}
	return writeError(what, atomicfile.WriteFile(path, b, 0o644))
}

// streamFile writes path atomically with write, unless the command was
// interrupted before it began.
func (inv *invocation) streamFile(what, path string, write func(io.Writer) error) error {
	if inv.ctx != nil {
		if err := inv.ctx.Err(); err != nil {
			return fmt.Errorf("not writing %s to %s: %w", what, path, context.Cause(inv.ctx))
		}
	}
	return writeError(what, atomicfile.WriteStream(path, 0o644, write))
}

// writeError words an atomicfile error as "writing WHAT to PATH: reason".
func writeError(what string, err error) error {
	var fe *atomicfile.Error
	if errors.As(err, &fe) {
		return fmt.Errorf("writing %s to %s: %w", what, fe.Path, fe.Err)
	}
	return err
}

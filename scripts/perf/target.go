package main

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
)

// target is one source tree being measured: the working tree or a commit
// checked out in a temporary worktree, the binaries built from it, and
// what they measured.
type target struct {
	rev       string // as given: "." or a git revision
	commit    string // its commit (HEAD's for "."), abbreviated
	subject   string // the commit's subject line
	dirty     bool   // "." with uncommitted changes to tracked files
	dir       string // the source tree
	memprof   string // the memprof binary built from it
	test      string // the test binary of its memprof package (the engine's benchmarks)
	goVersion string
	res       results
}

// label names the target in tables: its abbreviated commit, with "+"
// for a working tree with uncommitted changes.
func (t *target) label() string {
	if t.dirty {
		return t.commit + "+"
	}
	return t.commit
}

// gitRoot is the top of the git working tree that dir is in.
func gitRoot(ctx context.Context, dir string) (string, error) {
	out, err := output(ctx, dir, "git", "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("finding the working tree: %w", err)
	}
	return out, nil
}

// prepareTargets checks out each rev of revs ("." is root as it is) into
// a worktree under tmp and builds memprof and the engine's test binary
// from it. The returned function removes the worktrees; call it even
// when the error is not nil.
func prepareTargets(ctx context.Context, root, tmp string, revs []string, stderr io.Writer) ([]*target, func(), error) {
	var worktrees []string
	cleanup := func() {
		for _, w := range worktrees {
			// A fresh context: the run's may be cancelled by now.
			if _, err := output(context.Background(), root, "git", "worktree", "remove", "--force", w); err != nil {
				fmt.Fprintf(stderr, "perf: removing the worktree %s: %v\n", w, err)
			}
		}
	}
	var targets []*target
	for i, rev := range revs {
		t := &target{rev: rev, dir: root}
		if rev != "." {
			hash, err := output(ctx, root, "git", "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
			if err != nil {
				return nil, cleanup, fmt.Errorf("-rev %s: %w", rev, err)
			}
			t.dir = filepath.Join(tmp, fmt.Sprintf("src-%d", i))
			fmt.Fprintf(stderr, "perf: checking out %s in %s\n", rev, t.dir)
			if _, err := output(ctx, root, "git", "worktree", "add", "--detach", t.dir, hash); err != nil {
				return nil, cleanup, fmt.Errorf("-rev %s: %w", rev, err)
			}
			worktrees = append(worktrees, t.dir)
		}
		if err := t.describe(ctx); err != nil {
			return nil, cleanup, err
		}
		bin := filepath.Join(tmp, fmt.Sprintf("bin-%d", i))
		t.memprof, t.test = filepath.Join(bin, "memprof"), filepath.Join(bin, "memprof.test")
		fmt.Fprintf(stderr, "perf: building memprof and the engine's benchmarks of %s (%s)\n", rev, t.label())
		if _, err := output(ctx, t.dir, "go", "build", "-o", t.memprof, "./cmd/memprof"); err != nil {
			return nil, cleanup, fmt.Errorf("%s: building memprof: %w", rev, err)
		}
		if _, err := output(ctx, t.dir, "go", "test", "-c", "-o", t.test, "./memprof"); err != nil {
			return nil, cleanup, fmt.Errorf("%s: building the memprof package's test binary: %w", rev, err)
		}
		targets = append(targets, t)
	}
	return targets, cleanup, nil
}

// describe reads the target's commit, whether it has changes, and the Go
// version that builds it.
func (t *target) describe(ctx context.Context) error {
	line, err := output(ctx, t.dir, "git", "log", "-1", "--format=%h %s")
	if err != nil {
		return fmt.Errorf("%s: %w", t.rev, err)
	}
	t.commit, t.subject, _ = strings.Cut(line, " ")
	if t.rev == "." {
		st, err := output(ctx, t.dir, "git", "status", "--porcelain", "--untracked-files=no")
		if err != nil {
			return fmt.Errorf("%s: %w", t.rev, err)
		}
		t.dirty = st != ""
	}
	if t.goVersion, err = output(ctx, t.dir, "go", "env", "GOVERSION"); err != nil {
		return fmt.Errorf("%s: %w", t.rev, err)
	}
	return nil
}

// output runs name with args in dir and returns its standard output,
// trimmed; an error carries the end of its standard error.
func output(ctx context.Context, dir, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var stderr tail
	cmd.Stderr = &stderr
	ownGroup(cmd)
	out, err := cmd.Output()
	if err != nil {
		return "", commandError(cmd, err, &stderr)
	}
	return strings.TrimSpace(string(out)), nil
}

// commandError says which command failed, and how.
func commandError(cmd *exec.Cmd, err error, stderr *tail) error {
	msg := strings.TrimSpace(stderr.String())
	if msg != "" {
		msg = ":\n" + msg
	}
	return fmt.Errorf("%s: %w%s", strings.Join(cmd.Args, " "), err, msg)
}

// tail keeps the last tailBytes bytes written to it.
type tail struct{ b []byte }

const tailBytes = 4096

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > tailBytes {
		t.b = t.b[len(t.b)-tailBytes:]
	}
	return len(p), nil
}

func (t *tail) String() string { return string(t.b) }

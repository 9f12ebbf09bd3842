package memprof

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// Quiet keeps the children of one run out of each other's GC mark
// readings. The collector's idle and fractional mark workers use whatever
// CPU is free, so a process computing beside them stretches the mark time
// they report; so while one child reads the collector's mark time,
// MeasureInChild stops the others (SIGSTOP) and continues them (SIGCONT)
// when it is done. One child reads at a time; a child started meanwhile
// is stopped as it starts. Share one Quiet among the MeasureInChild calls
// of a run (Child.Quiet); the zero Quiet is ready to use. Processes are
// stopped only where the system has SIGSTOP (Unix); elsewhere the children
// read side by side.
//
// A stopped child is continued when the reading one says it is done,
// exits or fails; a child the run kills is killed stopped or not; and if
// the parent itself dies, the kernel continues (and hangs up on) the
// stopped children of its process group.
type Quiet struct {
	turn sync.Mutex // held while one child reads

	mu      sync.Mutex
	running map[*os.Process]bool // the children of the run, not reaped
	stopped []*os.Process        // the ones stopped for the reading child
	reading *os.Process          // the reading child, or nil

	// observe, when set (by tests), is called once the children are
	// stopped for a reading one.
	observe func(reading *os.Process, stopped []*os.Process)
}

// add registers a started child, and stops it if another one is reading.
func (q *Quiet) add(p *os.Process) error {
	if q == nil {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.running == nil {
		q.running = map[*os.Process]bool{}
	}
	q.running[p] = true
	if q.reading != nil {
		if err := stopProcess(p); err != nil {
			if errors.Is(err, os.ErrProcessDone) {
				return nil
			}
			return err
		}
		q.stopped = append(q.stopped, p)
	}
	return nil
}

// remove unregisters a child that has exited, before it is reaped.
func (q *Quiet) remove(p *os.Process) {
	if q == nil {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.running, p)
}

// quiet waits for its turn, then stops every child of the run but p.
func (q *Quiet) quiet(p *os.Process) error {
	q.turn.Lock()
	q.mu.Lock()
	defer q.mu.Unlock()
	q.reading = p
	var errs []error
	for c := range q.running {
		if c == p {
			continue
		}
		if err := stopProcess(c); err != nil {
			if !errors.Is(err, os.ErrProcessDone) { // it has just exited
				errs = append(errs, err)
			}
			continue
		}
		q.stopped = append(q.stopped, c)
	}
	if q.observe != nil {
		q.observe(p, q.stopped)
	}
	return errors.Join(errs...)
}

// resume continues the children quiet stopped and ends p's turn.
func (q *Quiet) resume() error {
	q.mu.Lock()
	var errs []error
	for _, c := range q.stopped {
		if err := continueProcess(c); err != nil && !errors.Is(err, os.ErrProcessDone) {
			errs = append(errs, err)
		}
	}
	q.stopped, q.reading = nil, nil
	q.mu.Unlock()
	q.turn.Unlock()
	return errors.Join(errs...)
}

// The messages of the quiet pipe, one byte each: the child asks for
// quiet and, once done, for the others to resume; the parent answers ok
// when it has done it, or fail.
const (
	askQuiet  = 'q'
	askResume = 'r'
	answerOK  = 'k'
	answerBad = 'e'
)

// serve answers the requests child p writes on the pipe r (w), until the
// pipe closes (the child exited). A turn still held then is ended, so no
// child stays stopped for one that is gone.
func (q *Quiet) serve(p *os.Process, r io.Reader, w io.Writer) {
	holding := false
	defer func() {
		if holding {
			q.resume()
		}
	}()
	buf := make([]byte, 1)
	for {
		if _, err := io.ReadFull(r, buf); err != nil {
			return
		}
		var err error
		switch {
		case buf[0] == askQuiet && !holding:
			holding = true
			err = q.quiet(p)
		case buf[0] == askResume && holding:
			holding = false
			err = q.resume()
		default:
			err = fmt.Errorf("unexpected request %q", buf[0])
		}
		answer := []byte{answerOK}
		if err != nil {
			answer[0] = answerBad
		}
		if _, err := w.Write(answer); err != nil {
			return
		}
	}
}

// quietPipe is the child's end of its parent's Quiet: it writes requests
// on w and reads the answers from r. A nil *quietPipe (a process
// measuring alone) does nothing.
type quietPipe struct {
	r, w *os.File
	buf  [1]byte // a request, then its answer: asking allocates nothing
}

// The descriptors of a child's quiet pipe: the first two of
// exec.Cmd.ExtraFiles.
const (
	quietAnswerFd  = 3
	quietRequestFd = 4
)

// childQuietPipe is the quiet pipe this child's parent opened.
func childQuietPipe() *quietPipe {
	return &quietPipe{r: os.NewFile(quietAnswerFd, "quiet answers"), w: os.NewFile(quietRequestFd, "quiet requests")}
}

// quiet asks the parent to stop the other children, and waits until it
// has.
func (g *quietPipe) quiet() error { return g.ask(askQuiet) }

// resume asks the parent to continue them.
func (g *quietPipe) resume() error { return g.ask(askResume) }

func (g *quietPipe) ask(req byte) error {
	if g == nil {
		return nil
	}
	g.buf[0] = req
	if _, err := g.w.Write(g.buf[:]); err != nil {
		return fmt.Errorf("asking the parent for quiet: %w", err)
	}
	if _, err := io.ReadFull(g.r, g.buf[:]); err != nil {
		return fmt.Errorf("asking the parent for quiet: %w", err)
	}
	if g.buf[0] != answerOK {
		return fmt.Errorf("asking the parent for quiet: it could not stop or continue the other children")
	}
	return nil
}

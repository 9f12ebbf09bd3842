package render

import (
	"fmt"
	"io"
	"sync"
	"time"

	"golang.org/x/perf/benchunit"
)

// Progress reports a long run's progress on one terminal line: "case i of
// n, the case name, elapsed". It is meant for a terminal's stderr only; the
// CLI creates it enabled only when stderr is a terminal, and a disabled (or
// nil) Progress writes nothing. It is safe for concurrent use.
type Progress struct {
	mu      sync.Mutex
	w       io.Writer
	what    string
	n       int
	started int
	name    string
	start   time.Time
	now     func() time.Time
	stop    chan struct{}
	done    chan struct{}
	// rss, when set, reads the resident memory of the measuring
	// processes, drawn after the elapsed time.
	rss func() (uint64, bool)
}

// ShowRSS makes the progress line end with the memory rss reads (memprof
// and its measuring children), where it can be read: "RSS 1.2GB". A nil
// Progress ignores it.
func (p *Progress) ShowRSS(rss func() (uint64, bool)) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rss = rss
}

// NewProgress returns a Progress over n cases of what ("case", "operation")
// writing to w, or nil (which reports nothing) when enabled is false. With
// tick > 0 it also refreshes the elapsed time every tick until Finish.
func NewProgress(w io.Writer, what string, n int, enabled bool, tick time.Duration) *Progress {
	if !enabled {
		return nil
	}
	p := &Progress{w: w, what: what, n: n, start: time.Now(), now: time.Now}
	if tick > 0 {
		p.stop, p.done = make(chan struct{}), make(chan struct{})
		go p.tick(tick)
	}
	return p
}

func (p *Progress) tick(d time.Duration) {
	defer close(p.done)
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			if p.started > 0 {
				p.draw()
			}
			p.mu.Unlock()
		}
	}
}

// Start reports that the case called name has started.
func (p *Progress) Start(name string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.started++
	p.name = name
	p.draw()
}

// Writer returns a writer for other messages to the same terminal: each
// write first clears the progress line, which the next tick (or Start)
// draws again below the message. For a nil Progress it returns w.
func (p *Progress) Writer(w io.Writer) io.Writer {
	if p == nil {
		return w
	}
	return progressWriter{p, w}
}

type progressWriter struct {
	p *Progress
	w io.Writer
}

func (pw progressWriter) Write(b []byte) (int, error) {
	pw.p.mu.Lock()
	defer pw.p.mu.Unlock()
	fmt.Fprint(pw.p.w, "\r\x1b[K")
	return pw.w.Write(b)
}

// draw rewrites the progress line in place: carriage return, the line,
// erase to the end of the line.
func (p *Progress) draw() {
	mem := ""
	if p.rss != nil {
		if b, ok := p.rss(); ok {
			mem = ", RSS " + benchunit.Scale(float64(b), benchunit.Decimal) + "B"
		}
	}
	fmt.Fprintf(p.w, "\r%s %d of %d: %s (%s elapsed%s)\x1b[K", p.what, p.started, p.n, p.name, p.now().Sub(p.start).Round(100*time.Millisecond), mem)
}

// Finish clears the progress line and writes a last line saying how many
// of the n cases started and how long they took: "case: 22 of 22 done in
// 4.2s".
func (p *Progress) Finish() {
	if p == nil {
		return
	}
	if p.stop != nil {
		close(p.stop)
		<-p.done
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "\r\x1b[K%s: %d of %d done in %s\n", p.what, p.started, p.n, p.now().Sub(p.start).Round(100*time.Millisecond))
}

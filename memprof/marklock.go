package memprof

import (
	"fmt"
	"os"
)

// markLock is the lock file that the processes measuring at the same time
// (the children of one memprof run) share, so that the GC pass's mark
// readings are taken with none of the others running: the collector's
// idle and fractional workers use whatever CPU is free, and a process
// computing beside them stretches the mark time they report. Each process
// holds the lock shared while it measures and exclusive during its GC
// pass; it waits for the lock only while it holds none, so no two wait on
// each other. A nil *markLock (no lock file given) does nothing.
type markLock struct {
	f    *os.File
	path string
}

// openMarkLock opens (creating it if needed) the lock file at path and
// takes it shared; an empty path gives a nil lock.
func openMarkLock(path string) (*markLock, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the mark lock: %w", err)
	}
	l := &markLock{f: f, path: path}
	if err := l.shared(); err != nil {
		f.Close()
		return nil, err
	}
	return l, nil
}

// shared releases the lock and waits to hold it shared.
func (l *markLock) shared() error {
	if l == nil {
		return nil
	}
	if err := lockFile(l.f, false); err != nil {
		return fmt.Errorf("taking the mark lock %s shared: %w", l.path, err)
	}
	return nil
}

// exclusive releases the lock and waits to hold it alone.
func (l *markLock) exclusive() error {
	if l == nil {
		return nil
	}
	if err := lockFile(l.f, true); err != nil {
		return fmt.Errorf("taking the mark lock %s exclusive: %w", l.path, err)
	}
	return nil
}

// close releases the lock.
func (l *markLock) close() {
	if l != nil {
		l.f.Close()
	}
}

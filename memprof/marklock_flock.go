//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package memprof

import (
	"errors"
	"os"
	"syscall"
)

// lockFile releases f's flock and waits for it again, exclusive or
// shared. The release comes first, so a process never waits while it
// holds the lock.
func lockFile(f *os.File, exclusive bool) error {
	if err := flock(f, syscall.LOCK_UN); err != nil {
		return err
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	return flock(f, how)
}

func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

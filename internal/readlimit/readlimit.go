// Package readlimit reads whole input files with a bound on their size,
// checked while reading: a file past the limit (or an endless one, such as
// /dev/zero) stops the read as soon as limit+1 bytes have arrived, so no
// more than limit+1 bytes are ever held.
package readlimit

import (
	"errors"
	"fmt"
	"io"
	"strconv"
)

// ErrTooLarge is wrapped by every error that reports an input past its
// size limit. Test for it with errors.Is.
var ErrTooLarge = errors.New("input exceeds its size limit")

// TooLargeError reports an input larger than Limit bytes.
type TooLargeError struct {
	Limit int64
}

func (e *TooLargeError) Error() string {
	return "larger than the limit of " + FormatSize(e.Limit)
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// ReadAll reads r to its end, or fails with a *TooLargeError as soon as it
// has read more than limit bytes. limit must be positive. The returned
// slice is the caller's.
func ReadAll(r io.Reader, limit int64) ([]byte, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("size limit must be positive, got %d", limit)
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Limit: limit}
	}
	return data, nil
}

// FormatSize renders a byte count in the units the --max-bytes flags
// take: "256 MiB", "64 KiB", "100 B".
func FormatSize(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " B"
}

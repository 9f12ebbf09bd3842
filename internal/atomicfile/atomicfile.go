// Package atomicfile writes files and directories so that readers never see
// half of them: everything goes to a temporary name beside the target and is
// renamed into place only when complete.
//
// A path is resolved before it is written, the way a user who typed it
// means it:
//
//   - a regular file (or a new name in an existing directory) is replaced
//     atomically, keeping the permission bits of the file it replaces;
//   - a symbolic link is followed to its final target, which is replaced
//     atomically beside itself: the link stays a link;
//   - a device, a pipe or socket, and the /proc/self/fd and /dev/fd links of
//     open files (what /dev/stdout is) are written in place, since renaming
//     over them would replace a device or a stream with a file;
//   - a directory, a link to one, a dangling link, a link loop, a read-only
//     file and a directory that does not exist or refuses new files are
//     errors, and nothing is written.
//
// Errors are *Error values naming the path as given and the reason; no
// reason names a temporary file.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/memprof/memprof/internal/onexit"
)

// Error is a write that was refused or failed.
type Error struct {
	// Path is the path as the caller gave it.
	Path string
	// Err is the reason, a sentence that does not repeat Path (it may
	// name the link's target). It wraps fs.ErrNotExist, fs.ErrPermission
	// or the system's error where one applies.
	Err error
}

func (e *Error) Error() string { return "writing " + e.Path + ": " + e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// reason is the text of an Error's Err, wrapping the cause for errors.Is.
type reason struct {
	msg   string
	cause error
}

func (r *reason) Error() string { return r.msg }

func (r *reason) Unwrap() error { return r.cause }

func because(cause error, format string, a ...any) error {
	return &reason{msg: fmt.Sprintf(format, a...), cause: cause}
}

// maxLinks bounds a chain of symbolic links, as Linux's MAXSYMLINKS does.
const maxLinks = 40

// destination is where a write to a path goes.
type destination struct {
	// target is the file that receives the data: the path with its chain
	// of symbolic links resolved (or the path itself, when in place).
	target string
	// inPlace says the target is opened and written, not replaced.
	inPlace bool
	// appendTo says an in-place target is an open file's descriptor link
	// (/dev/stdout to a file): the data follows what the file holds, as
	// if written to the descriptor.
	appendTo bool
	// exists says target is an existing regular file, whose permission
	// bits are perm.
	exists bool
	perm   fs.FileMode
}

// resolve finds where a write to path goes, following its symbolic links
// one by one (so that a dangling link or a loop can be named), and checks
// that the write can happen there.
func resolve(path string) (destination, error) {
	p := path
	var chain []string
	for {
		fi, err := os.Lstat(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && len(chain) > 0 {
				// Not created through the link: a typo in it would put
				// the results where nobody looks.
				return destination{}, because(fs.ErrNotExist, "symbolic link to %s, which does not exist", p)
			}
			if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
				// A new file: its directory must exist.
				if err := checkDir(filepath.Dir(p)); err != nil {
					return destination{}, err
				}
				if !errors.Is(err, fs.ErrNotExist) {
					return destination{}, systemErr(err)
				}
				return destination{target: p}, nil
			}
			return destination{}, systemErr(err)
		}
		switch mode := fi.Mode(); {
		case mode&fs.ModeSymlink != 0:
			if descriptorLink(p) {
				return inPlace(path, true)
			}
			for _, seen := range chain {
				if seen == p {
					return destination{}, because(nil, "symbolic link loop: %s", strings.Join(append(chain, p), " -> "))
				}
			}
			if len(chain) == maxLinks {
				return destination{}, because(nil, "more than %d symbolic links in a chain", maxLinks)
			}
			chain = append(chain, p)
			l, err := os.Readlink(p)
			if err != nil {
				return destination{}, systemErr(err)
			}
			if !filepath.IsAbs(l) {
				l = filepath.Join(filepath.Dir(p), l)
			}
			p = l
		case mode.IsDir():
			if len(chain) > 0 {
				return destination{}, because(nil, "symbolic link to %s, which is a directory", p)
			}
			return destination{}, because(nil, "is a directory")
		case mode.IsRegular():
			if mode.Perm()&0o222 == 0 {
				return destination{}, because(fs.ErrPermission, "%s is read-only (%v)", p, mode.Perm())
			}
			if err := checkDir(filepath.Dir(p)); err != nil {
				return destination{}, err
			}
			return destination{target: p, exists: true, perm: mode.Perm()}, nil
		default:
			// A device, a pipe, a socket.
			return inPlace(path, false)
		}
	}
}

// descriptorLink reports whether p is one of the kernel's links to an open
// file (/proc/self/fd/1, /dev/fd/1, /proc/<pid>/fd/1): its target is not a
// path to replace but a descriptor to write to.
func descriptorLink(p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	return strings.HasPrefix(abs, "/proc/") || strings.HasPrefix(abs, "/dev/fd/")
}

// inPlace is the destination of a path written in place; the kernel
// follows its links.
func inPlace(path string, appendTo bool) (destination, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return destination{}, systemErr(err)
	}
	if fi.IsDir() {
		return destination{}, because(nil, "is a directory")
	}
	return destination{target: path, inPlace: true, appendTo: appendTo && fi.Mode().IsRegular()}, nil
}

// checkDir checks that dir exists and is a directory; whether it accepts
// new files only creating one can tell.
func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return because(fs.ErrNotExist, "directory %s does not exist", dir)
	case isNotDir(err):
		return because(err, "directory %s does not exist (%s is not a directory)", dir, firstNonDir(dir))
	case err != nil:
		return because(err, "directory %s: %v", dir, unwrapPath(err))
	case !fi.IsDir():
		return because(nil, "directory %s does not exist (%s is not a directory)", dir, dir)
	}
	return nil
}

// firstNonDir returns the first ancestor of dir (or dir) that exists and
// is not a directory.
func firstNonDir(dir string) string {
	for d := dir; ; {
		fi, err := os.Stat(d)
		if err == nil && !fi.IsDir() {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// isNotDir reports whether err says a component of a path is not a
// directory (ENOTDIR).
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// unwrapPath drops the operation and path of a *fs.PathError, leaving the
// system's reason.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func systemErr(err error) error { return because(err, "%v", err) }

// Check reports, without writing anything, whether WriteFile(path, ...)
// would be refused: the checks of resolve, and a directory that refuses new
// files (tried by creating and removing an empty file in it). A command
// calls it before spending minutes on what it will write.
func Check(path string) error {
	d, err := resolve(path)
	if err != nil {
		return &Error{Path: path, Err: err}
	}
	if d.inPlace {
		return nil
	}
	f, err := createTemp(d.target, 0o600)
	if err != nil {
		return &Error{Path: path, Err: err}
	}
	name := f.Name()
	f.Close()
	if err := os.Remove(name); err != nil {
		return &Error{Path: path, Err: because(err, "removing a trial file in %s: %v", filepath.Dir(d.target), unwrapPath(err))}
	}
	return nil
}

// WriteFile writes data to path (see the package documentation for what a
// path resolves to): a crash leaves either the old file or the new one,
// never a truncated mix. A new file gets mode perm, less the umask; a
// replaced one keeps its permission bits (its owner and extended
// attributes are those of the writer). The error is an *Error.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return WriteStream(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteStream is WriteFile for output too large to hold: write writes the
// content, as it is produced, through a buffer to where path resolves
// (written in place for a device, a pipe or a descriptor link; otherwise a
// temporary file beside the target, renamed onto it only when write and
// the file's sync succeed: on failure the target is untouched and the
// temporary file removed). An error of write is returned wrapped in the
// *Error.
func WriteStream(path string, perm os.FileMode, write func(w io.Writer) error) error {
	d, err := resolve(path)
	if err != nil {
		return &Error{Path: path, Err: err}
	}
	if d.inPlace {
		err = writeInPlace(d, write)
	} else {
		err = replace(d, perm, write)
	}
	if err != nil {
		return &Error{Path: path, Err: err}
	}
	return nil
}

func writeInPlace(d destination, write func(w io.Writer) error) error {
	flag := os.O_WRONLY
	if d.appendTo {
		flag |= os.O_APPEND
	}
	f, err := os.OpenFile(d.target, flag, 0)
	if err != nil {
		return systemErr(err)
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	if err := write(bw); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return systemErr(err)
	}
	if err := f.Close(); err != nil {
		return systemErr(err)
	}
	return nil
}

// replace writes the content to a temporary file beside d.target and
// renames it onto d.target.
func replace(d destination, perm os.FileMode, write func(w io.Writer) error) (err error) {
	// A process that must exit before this returns (a second interrupt)
	// removes tmp through onexit.Run, made under its lock (onexit.Owe) so
	// that it cannot come between that Run and the exit; once renamed, tmp
	// is no more.
	var f *os.File
	removeTmp, err := onexit.Owe(func() (func(), error) {
		var err error
		if f, err = createTemp(d.target, perm); err != nil {
			return nil, err
		}
		tmp := f.Name()
		return func() { os.Remove(tmp) }, nil
	})
	if err != nil {
		return err
	}
	defer removeTmp()
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	wrap := func(err error) error { return because(err, "%v", unwrapPath(err)) }
	bw := bufio.NewWriterSize(f, 64<<10)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return wrap(err)
	}
	if d.exists {
		// Chmod, not the create mode: the umask must not narrow the bits
		// the replaced file had.
		if err := f.Chmod(d.perm); err != nil {
			return wrap(err)
		}
	}
	if err := f.Sync(); err != nil {
		return wrap(err)
	}
	if err := f.Close(); err != nil {
		return wrap(err)
	}
	if err := os.Rename(tmp, d.target); err != nil {
		return wrap(err)
	}
	return nil
}

// createTemp creates a new file beside target, with mode perm less the
// umask (as os.WriteFile would give a new file). Its error names the
// directory and the system's reason, never the temporary name.
func createTemp(target string, perm os.FileMode) (*os.File, error) {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	dir = filepath.Clean(dir)
	for range 1000 {
		name := filepath.Join(dir, "."+base+".tmp-"+strconv.FormatUint(uint64(rand.Uint32()), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if err == nil {
			return f, nil
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
			if dirErr := checkDir(dir); dirErr != nil {
				return nil, dirErr
			}
		}
		if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
			return nil, because(err, "directory %s is not writable: %v", dir, unwrapPath(err))
		}
		return nil, because(err, "creating a file in directory %s: %v", dir, unwrapPath(err))
	}
	return nil, because(fs.ErrExist, "creating a file in directory %s: too many temporary files named .%s.tmp-*", dir, base)
}

// WriteFileNoFollow writes data to the name path in its directory, never
// through it: a temporary file beside it, renamed onto path itself, so
// that a symbolic link (or a device, a pipe) planted under that name is
// replaced by the file, and whatever it led to is untouched. A regular
// file replaced keeps its permission bits; path a directory is an error.
// It is for files a command names itself in a directory it was given
// (memprof instances --profile-dir), where no link is the user's choice.
func WriteFileNoFollow(path string, data []byte, perm os.FileMode) error {
	d := destination{target: path}
	fi, err := os.Lstat(path)
	switch {
	case err == nil && fi.IsDir():
		return &Error{Path: path, Err: because(nil, "is a directory")}
	case err == nil && fi.Mode().IsRegular():
		d.exists, d.perm = true, fi.Mode().Perm()
	case err == nil, errors.Is(err, fs.ErrNotExist):
		// A link, a device, a pipe, or nothing: a new file takes the name.
	case isNotDir(err):
		return &Error{Path: path, Err: checkDir(filepath.Dir(path))}
	default:
		return &Error{Path: path, Err: systemErr(err)}
	}
	err = replace(d, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
	if err != nil {
		return &Error{Path: path, Err: err}
	}
	return nil
}

// CheckDir reports, without leaving anything behind, whether files can be
// written into the directory dir, creating it (and its parents) if it
// does not exist: it must be a directory that accepts new files (tried by
// creating and removing an empty file in it). A command calls it before
// spending minutes on what it will write there.
func CheckDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		if cerr := checkDir(dir); cerr != nil && (errors.Is(err, fs.ErrExist) || isNotDir(err)) {
			return &Error{Path: dir, Err: cerr}
		}
		if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
			return &Error{Path: dir, Err: because(err, "cannot create directory %s: %v", dir, unwrapPath(err))}
		}
		return &Error{Path: dir, Err: systemErr(err)}
	}
	if err := checkDir(dir); err != nil {
		return &Error{Path: dir, Err: err}
	}
	f, err := createTemp(filepath.Join(dir, "check"), 0o600)
	if err != nil {
		return &Error{Path: dir, Err: err}
	}
	name := f.Name()
	f.Close()
	if err := os.Remove(name); err != nil {
		return &Error{Path: dir, Err: because(err, "removing a trial file in %s: %v", dir, unwrapPath(err))}
	}
	return nil
}

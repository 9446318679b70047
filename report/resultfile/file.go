package resultfile

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/vesload/vesload/internal/inputfile"
	"github.com/vesload/vesload/report/result"
)

// Encode writes r as indented JSON, the form -o - prints and the form
// files hold. A result without a schema is written as the current schema
// (r itself is not changed), so that a half-filled result saved in a hurry
// can still be read back.
func Encode(w io.Writer, r *result.Result) error {
	if r == nil {
		return errors.New("encode result: no result")
	}
	c := *r
	if c.Schema == "" {
		c.Schema = result.Schema
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// URLs and messages stay readable: no \u0026 for '&'.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&c); err != nil {
		return fmt.Errorf("encode result: %w", err)
	}
	return nil
}

// Write saves r at path atomically (see WriteFile). Path "-" (stdout) is
// the caller's business: use Encode.
func Write(path string, r *result.Result) error {
	if path == "" || path == "-" {
		return fmt.Errorf("write result %q: not a file path (use Encode for stdout)", path)
	}
	if err := WriteFile(path, func(w io.Writer) error { return Encode(w, r) }); err != nil {
		return fmt.Errorf("write result %s: %w", path, err)
	}
	return nil
}

// WriteFile renders into a temporary file in path's directory, flushes it
// to disk and renames it over path, so that readers and crashes only ever
// see the old or the new file, never half of one; a failed render leaves
// the old file alone. Every rendering vesload writes goes through it.
//
// Only regular files (and paths that do not exist yet) are replaced that
// way; a symlink is followed and its target replaced, the link kept.
// Anything else that can be opened for writing (a named pipe, a device such
// as /dev/null, /dev/stdout) is written through, since renaming over it
// would destroy it; a directory is refused.
func WriteFile(path string, render func(io.Writer) error) error {
	return WriteFileContext(context.Background(), path, render)
}

// WriteFileContext is WriteFile whose wait on a named pipe or a device
// (for a reader to open it, or to take bytes) ends when ctx is done, so
// that a signal at the end of a run need not wait out the bounds: the
// caller then saves the rendering elsewhere.
func WriteFileContext(ctx context.Context, path string, render func(io.Writer) error) error {
	target, through, err := resolve(path)
	switch {
	case err != nil:
		return err
	case through:
		return writeThrough(ctx, target, render)
	default:
		return writeAtomic(target, render)
	}
}

// errIsDir refuses a directory where a file is written.
var errIsDir = errors.New("is a directory (want a file name)")

// resolve says how every output is written to path: through (one of
// this process's descriptors, a named pipe, a device) or replaced whole (a
// regular file, or a path not there yet, ENOTDIR included: its folder is
// the problem, which the write or check then names), at target, path's
// links followed. A directory is refused (errIsDir). WriteFile,
// CreateStream and CheckWritable decide alike through it.
func resolve(path string) (target string, through bool, err error) {
	if throughProcess(path) {
		return path, true, nil
	}
	if target, err = followLinks(path); err != nil {
		return "", false, err
	}
	st, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return target, false, nil
	case err != nil:
		return "", false, err
	case st.IsDir():
		return "", false, errIsDir
	}
	return target, !st.Mode().IsRegular(), nil
}

// throughProcess reports paths that name one of this process's own open
// files (/dev/stdout, /dev/fd/N, /proc/self/fd/N): their link targets are
// not ordinary paths ("pipe:[123]"), and when they do name a file the
// shell opened it, so the bytes go through the descriptor's file.
func throughProcess(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	for _, p := range []string{"/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"} {
		if abs == p || strings.HasPrefix(abs, p) {
			return true
		}
	}
	return false
}

// maxLinks bounds the symlinks followLinks follows, as the kernel does
// (ELOOP after 40).
const maxLinks = 40

// followLinks returns the path a chain of symlinks at path ends at, which
// need not exist yet (a dangling link is written through to its target).
func followLinks(path string) (string, error) {
	for i := 0; i < maxLinks; i++ {
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// writeAtomic is the temporary file and rename of WriteFile.
func writeAtomic(path string, render func(io.Writer) error) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	if err := writeSynced(tmp, render); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	syncDir(dir)
	return nil
}

// Bounds on writing through a named pipe or a device, so that one nobody
// reads never holds the end of a run: the open waits at most
// throughOpenWait for a reader, and each write at most throughWriteIdle
// for the reader to take bytes. A write that fails on them falls back as
// any other failed write does (the temporary folder).
const (
	throughOpenWait  = 2 * time.Second
	throughWriteIdle = 10 * time.Second
	throughOpenRetry = 50 * time.Millisecond
)

// openThrough opens path for writing without blocking: a named pipe
// without a reader is retried until throughOpenWait, then refused.
func openThrough(ctx context.Context, path string) (*os.File, error) {
	deadline := time.Now().Add(throughOpenWait)
	retry := time.NewTimer(throughOpenRetry)
	defer retry.Stop()
	for {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|syscall.O_NONBLOCK, 0)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.ENXIO) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no reader on the named pipe %s after %v", path, throughOpenWait)
		}
		retry.Reset(throughOpenRetry)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("stopped while waiting for a reader on the named pipe %s: %w", path, context.Cause(ctx))
		case <-retry.C:
		}
	}
}

// idleWriter gives each write to f throughWriteIdle to complete, where f
// supports deadlines (pipes, most devices); elsewhere it writes as is.
// When ctx ends, a write in progress fails at once (newIdleWriter sets a
// past deadline then).
type idleWriter struct {
	ctx context.Context
	f   *os.File
}

// newIdleWriter returns the writer and a function that releases ctx's
// watch; call it once the writes are over.
func newIdleWriter(ctx context.Context, f *os.File) (idleWriter, func() bool) {
	stop := context.AfterFunc(ctx, func() { _ = f.SetWriteDeadline(time.Unix(1, 0)) })
	return idleWriter{ctx: ctx, f: f}, stop
}

func (w idleWriter) Write(b []byte) (int, error) {
	_ = w.f.SetWriteDeadline(time.Now().Add(throughWriteIdle))
	if w.ctx.Err() != nil { // ended before the deadline above replaced the past one
		return 0, fmt.Errorf("stopped while writing to %s: %w", w.f.Name(), context.Cause(w.ctx))
	}
	n, err := w.f.Write(b)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		if w.ctx.Err() != nil {
			return n, fmt.Errorf("stopped while writing to %s: %w", w.f.Name(), context.Cause(w.ctx))
		}
		err = fmt.Errorf("nothing read from %s for %v: %w", w.f.Name(), throughWriteIdle, err)
	}
	return n, err
}

// writeThrough renders into path opened as it is: a pipe's reader or a
// device gets the bytes, nothing is created, renamed or truncated (a
// regular file behind /dev/stdout is appended to, as the shell's ">>" and
// ">" both expect). Opening and writing are bounded (throughOpenWait,
// throughWriteIdle).
func writeThrough(ctx context.Context, path string, render func(io.Writer) error) error {
	f, err := openThrough(ctx, path)
	if err != nil {
		return err
	}
	iw, release := newIdleWriter(ctx, f)
	defer release()
	bw := bufio.NewWriter(iw)
	err = render(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeSynced renders into f, flushes it to stable storage and closes it.
// Reports are not secret, so the file gets the usual 0644 instead of
// CreateTemp's 0600.
func writeSynced(f *os.File, render func(io.Writer) error) error {
	bw := bufio.NewWriter(f)
	err := render(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDir makes the rename durable where the platform allows it; failing
// to sync a directory never fails the write, the data is already safe.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}

// Read loads and checks the result document at path; see Decode. A
// regular file over inputfile.Result is refused from its size, unread.
func Read(path string) (*result.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read result: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > inputfile.Result {
		return nil, &inputfile.TooLargeError{Name: path, What: "result", Limit: inputfile.Result}
	}
	return Decode(f, path)
}

// Decode reads one result document from rd. name (usually the file name)
// starts every error, which is a single line: "name:line:col: message"
// for JSON syntax and type errors, "name: message" otherwise. It refuses
// documents of another schema, documents missing a required field,
// negative request counts and histograms that do not decode, so that
// comparisons and gates never run on a misread file. Unknown fields are
// ignored: newer writers may add fields.
func Decode(rd io.Reader, name string) (*result.Result, error) {
	data, err := inputfile.ReadAll(rd, name, "result", inputfile.Result)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: empty file (want a vesload result JSON document)", name)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, jsonError(name, data, err)
	}
	if err := checkSchema(top); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := checkTimes(top); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	r := new(result.Result)
	if err := json.Unmarshal(data, r); err != nil {
		return nil, jsonError(name, data, err)
	}
	if missing := missingFields(top); len(missing) > 0 {
		return nil, fmt.Errorf("%s: not a complete vesload result: missing %s", name, quoteList(missing))
	}
	if err := validate(r); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return r, nil
}

// Stream is a file that a run writes while it goes on (the JTL, the
// HdrHistogram log): opened before the load, so that a bad path fails at
// once, and written by an output's own goroutine.
type Stream struct {
	f *os.File
	w io.Writer
}

// CreateStream opens path for a stream. A regular file (or a new path) is
// created or truncated as usual; a named pipe or a device is opened as it
// is, with the bounds of every output written through (a named pipe with
// no reader is refused after throughOpenWait, a write nobody reads fails
// after throughWriteIdle), so that a stream nobody reads never holds the
// start or the end of a run: it stops alone, as a full disk does.
func CreateStream(path string) (*Stream, error) {
	target, through, err := resolve(path)
	if err != nil {
		return nil, err
	}
	if through {
		f, err := openThrough(context.Background(), target)
		if err != nil {
			return nil, err
		}
		return &Stream{f: f, w: idleWriter{ctx: context.Background(), f: f}}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &Stream{f: f, w: f}, nil
}

// Write writes to the stream, bounded as CreateStream says.
func (s *Stream) Write(b []byte) (int, error) { return s.w.Write(b) }

// Name is the path the stream was opened at.
func (s *Stream) Name() string { return s.f.Name() }

// Close closes the stream's file.
func (s *Stream) Close() error { return s.f.Close() }

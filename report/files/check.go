package files

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/vesload/vesload/report/resultfile"
)

// Path is an output file and the name of the option that named it, by
// which errors point at it.
type Path struct{ Option, Path string }

// stdout is the path "-" of the option "-o": the terminal, not a file.
func (p Path) skip() bool { return p.Path == "" || (p.Option == "-o" && p.Path == "-") }

// Check checks every file a run will write before any load is sent: a
// folder, or a missing or read-only one, is an error found in a second,
// not after a long test whose report would then be lost.
func Check(outs []Path) error {
	if err := checkDistinct(outs); err != nil {
		return err
	}
	for _, out := range outs {
		if out.skip() {
			continue
		}
		if st, err := os.Stat(out.Path); err == nil && st.IsDir() {
			return fmt.Errorf("%s %s: is a folder, want a file name", out.Option, out.Path)
		}
		if err := resultfile.CheckWritable(out.Path); err != nil {
			return fmt.Errorf("%s %s: %v", out.Option, out.Path, err)
		}
	}
	return nil
}

// CheckInputs refuses an output that names one of a command's input
// files, however it is spelled: one command never reads and writes one
// file (report r.json -o r.json would replace the result with its
// rendering). "-" as an input is the standard input, not a file.
func CheckInputs(inputs []string, outs []Path) error {
	for _, out := range outs {
		if out.skip() || isStdout(out.Path) {
			continue
		}
		for _, in := range inputs {
			if in != "-" && sameFile(in, out.Path) {
				return fmt.Errorf("%s %s is the input %s: give the output a file of its own (one command never reads and writes one file)", out.Option, out.Path, in)
			}
		}
	}
	return nil
}

// isStdout reports whether path names the standard output by a device's
// name rather than by "-".
func isStdout(path string) bool {
	switch filepath.Clean(path) {
	case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1":
		return true
	}
	return false
}

// checkDistinct refuses two outputs that name one file, however it is
// spelled (a relative and an absolute path, a symlink, a hard link): the
// one written last would replace the other. The null device may take any
// number of them. Two outputs on the standard output ("-o -" and
// /dev/stdout) are refused too: their lines would mix in one stream.
func checkDistinct(outs []Path) error {
	seen := make([]Path, 0, len(outs))
	var stream *Path
	for _, out := range outs {
		if out.Path != "" && (out.Option == "-o" && out.Path == "-" || isStdout(out.Path)) {
			if stream != nil {
				return fmt.Errorf("%s %s and %s %s both write to the standard output, where their lines would mix: give one a file", stream.Option, stream.Path, out.Option, out.Path)
			}
			stream = &out
			continue
		}
		if out.skip() {
			continue
		}
		if abs, err := filepath.Abs(out.Path); err == nil && abs == os.DevNull {
			continue
		}
		for _, prev := range seen {
			if sameFile(prev.Path, out.Path) {
				return fmt.Errorf("%s %s and %s %s name the same file: give each output its own", prev.Option, prev.Path, out.Option, out.Path)
			}
		}
		seen = append(seen, out)
	}
	return nil
}

// sameFile reports whether paths a and b name one file, existing or not.
func sameFile(a, b string) bool {
	if sa, err := os.Stat(a); err == nil {
		if sb, err := os.Stat(b); err == nil {
			return os.SameFile(sa, sb)
		}
	}
	return canonicalPath(a) == canonicalPath(b)
}

// canonicalPath is path made absolute with its links resolved, for a file
// that may not exist yet: a dangling link names the file it will create.
func canonicalPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	for range 40 { // the kernel's limit of links in a chain
		st, err := os.Lstat(abs)
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			break
		}
		dest, err := os.Readlink(abs)
		if err != nil {
			break
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(abs), dest)
		}
		abs = dest
	}
	dir, base := filepath.Split(abs)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return filepath.Join(real, base)
	}
	return abs
}

// CheckDir checks, before any load is sent, that dir (named by option) is
// a folder a file can be written into; empty is not checked.
func CheckDir(option, dir string) error {
	if dir == "" {
		return nil
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("%s %s: want an existing folder", option, dir)
	}
	f, err := os.CreateTemp(dir, ".vesload-check-*")
	if err != nil {
		return fmt.Errorf("%s %s: %w", option, dir, err)
	}
	if err := errors.Join(f.Close(), os.Remove(f.Name())); err != nil {
		return fmt.Errorf("%s %s: %w", option, dir, err)
	}
	return nil
}

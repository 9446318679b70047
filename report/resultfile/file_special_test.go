package resultfile

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mkfifo makes a named pipe at path, or skips the test where that is
// not permitted.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo not permitted here: %v", err)
	}
}

func renderText(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// A named pipe is written through: its reader gets the bytes and the pipe
// is still a pipe afterwards (a rename would have replaced it by a file).
func TestWriteFileThroughFIFO(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "out.fifo")
	mkfifo(t, path)
	// A non-blocking reader lets the writer's open succeed at once.
	rd, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if err := WriteFile(path, renderText("through the pipe\n")); err != nil {
		t.Fatalf("WriteFile(fifo): %v", err)
	}
	got, err := io.ReadAll(rd)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "through the pipe\n" {
		t.Errorf("reader got %q", got)
	}
	st, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("after the write %s is %v, want a named pipe", path, st.Mode())
	}
}

// A device stays a device (as root a rename replaced /dev/null by a
// file). The test makes its own null device (char 1,3) in a temporary
// directory rather than risk the machine's /dev/null.
func TestWriteFileDevice(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "null")
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|3 /* major 1, minor 3 */); err != nil {
		t.Skipf("mknod not permitted here (needs root), device case not tested: %v", err)
	}
	if err := WriteFile(path, renderText("discarded")); err != nil {
		t.Fatalf("WriteFile(null device): %v", err)
	}
	st, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("%s is %v after the write, want a character device", path, st.Mode())
	}
	if entries, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(entries) > 0 {
		t.Errorf("temporary files left: %v", entries)
	}
}

// /proc/self/fd/N (what /dev/stdout points at) goes to the descriptor.
func TestWriteFileThroughOwnDescriptor(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	path := "/proc/self/fd/" + strconv.Itoa(int(w.Fd()))
	if _, err := os.Stat(path); err != nil {
		w.Close()
		t.Skipf("no %s here: %v", path, err)
	}
	err = WriteFile(path, renderText("to stdout\n"))
	w.Close()
	if err != nil {
		t.Fatalf("WriteFile(%s): %v", path, err)
	}
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "to stdout\n" {
		t.Errorf("pipe got %q", got)
	}
}

// A symlink is followed: the target is replaced, the link stays a link,
// and a dangling link creates its target.
func TestWriteFileFollowsSymlinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	other := filepath.Join(dir, "results")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name         string
		targetExists bool
	}{
		{"existing target", true},
		{"dangling", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			target := filepath.Join(other, strings.ReplaceAll(tc.name, " ", "-")+".json")
			link := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".link")
			if tc.targetExists {
				if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			// A relative link, resolved against the link's directory.
			if err := os.Symlink(filepath.Join("results", filepath.Base(target)), link); err != nil {
				t.Fatal(err)
			}
			if err := WriteFile(link, renderText("new")); err != nil {
				t.Fatalf("WriteFile(link): %v", err)
			}
			st, err := os.Lstat(link)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode()&fs.ModeSymlink == 0 {
				t.Errorf("link replaced by %v, want it kept", st.Mode())
			}
			got, err := os.ReadFile(target)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != "new" {
				t.Errorf("target holds %q, want %q", got, "new")
			}
			tst, err := os.Stat(target)
			if err != nil {
				t.Fatal(err)
			}
			if tst.Mode().Perm() != 0o644 {
				t.Errorf("target mode %v, want 0644", tst.Mode().Perm())
			}
		})
	}
}

func TestWriteFileRefusesDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "dir.link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{dir, link} {
		err := WriteFile(path, renderText("x"))
		if err == nil || !strings.Contains(err.Error(), "is a directory") || strings.Contains(err.Error(), "\n") {
			t.Errorf("WriteFile(%s) = %v, want one line saying it is a directory", path, err)
		}
		if st, serr := os.Stat(dir); serr != nil || !st.IsDir() {
			t.Errorf("%s no longer a directory: %v %v", dir, st, serr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("directory holds %v, want nothing written inside", entries)
	}
}

func TestWriteFileSymlinkLoop(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.Symlink(b, a); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(a, b); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(a, renderText("x")); err == nil || !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("WriteFile(loop) = %v, want a symbolic-link error", err)
	}
}

// A named pipe nobody reads never holds the writer: the open gives up
// after throughOpenWait with an error that says why, and a reader that
// stops reading fails the write after throughWriteIdle.
func TestWriteFileThroughFIFOWithoutReaderIsBounded(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "noreader.fifo")
	mkfifo(t, path)
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- WriteFile(path, renderText("lost?\n")) }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "no reader on the named pipe") {
			t.Errorf("WriteFile to a pipe without a reader: %v", err)
		}
		if took := time.Since(start); took < throughOpenWait || took > throughOpenWait+3*time.Second {
			t.Errorf("gave up after %v, want about %v", took, throughOpenWait)
		}
	case <-time.After(throughOpenWait + 10*time.Second):
		t.Fatal("WriteFile to a pipe without a reader blocked")
	}
}

// A stream (the JTL, the HdrHistogram log) opened on a named pipe with no
// reader is refused, not waited for: the run then fails before any load
// instead of hanging in its set-up. With a reader it is written through,
// and the pipe stays a pipe.
func TestCreateStreamOnFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lonely, read := filepath.Join(dir, "noreader.fifo"), filepath.Join(dir, "read.fifo")
	for _, p := range []string{lonely, read} {
		mkfifo(t, p)
	}
	if s, err := CreateStream(lonely); err == nil || !strings.Contains(err.Error(), "no reader on the named pipe") {
		if s != nil {
			s.Close()
		}
		t.Errorf("CreateStream(pipe without a reader) = %v, want a refusal naming the missing reader", err)
	}
	rd, err := os.OpenFile(read, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	s, err := CreateStream(read)
	if err != nil {
		t.Fatalf("CreateStream(pipe with a reader): %v", err)
	}
	if _, err := io.WriteString(s, "row\n"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(rd); string(got) != "row\n" {
		t.Errorf("reader got %q", got)
	}
	if st, err := os.Lstat(read); err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("after the stream %s is %v (%v), want a named pipe", read, st.Mode(), err)
	}
	if _, err := CreateStream(dir); err == nil {
		t.Error("CreateStream(directory) succeeded")
	}
	regular := filepath.Join(dir, "rows.jtl")
	if err := os.WriteFile(regular, []byte("old contents\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = CreateStream(regular)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(s, "new\n")
	s.Close()
	if got, _ := os.ReadFile(regular); string(got) != "new\n" {
		t.Errorf("a regular file is truncated and written: got %q", got)
	}
}

package inputfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadAllStopsAtTheLimit(t *testing.T) {
	cases := []struct {
		name    string
		content string
		limit   int64
		tooBig  bool
	}{
		{"empty", "", 4, false},
		{"under", "abc", 4, false},
		{"exactly the limit", "abcd", 4, false},
		{"one byte over", "abcde", 4, true},
		{"far over", strings.Repeat("x", 1000), 4, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReadAll(strings.NewReader(c.content), "in.txt", "secret", c.limit)
			var tl *TooLargeError
			if c.tooBig != errors.As(err, &tl) {
				t.Fatalf("err %v: want too large %v", err, c.tooBig)
			}
			if !c.tooBig && string(got) != c.content {
				t.Errorf("read %q, want %q", got, c.content)
			}
		})
	}
}

func TestReadFileRefusesFromTheSize(t *testing.T) {
	dir := t.TempDir()
	sparse := filepath.Join(dir, "sparse")
	if err := os.WriteFile(sparse, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, 1<<40); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
	cases := []struct {
		path, want string
	}{
		{sparse, "CA file " + sparse + ": more than 16 MiB, the most a CA file may have"},
		{"/dev/zero", "CA file /dev/zero: more than 16 MiB, the most a CA file may have"},
		{dir, "CA file " + dir + ": is a directory"},
		{filepath.Join(dir, "none"), "read CA file: open " + filepath.Join(dir, "none") + ": no such file or directory"},
	}
	for _, c := range cases {
		_, err := ReadFile(c.path, "CA file", Cert)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ReadFile(%s): %v, want %q", c.path, err, c.want)
		}
	}
}

func TestSizeIsWrittenForPeople(t *testing.T) {
	for n, want := range map[int64]string{64 << 10: "64 KiB", 256 << 20: "256 MiB", 1 << 30: "1 GiB", 1000: "1000 bytes"} {
		if got := size(n); got != want {
			t.Errorf("size(%d) = %q, want %q", n, got, want)
		}
	}
}

// FuzzReadAll: whatever the input and the limit, ReadAll returns the input
// when it fits and a *TooLargeError when it does not, read in any chunks.
func FuzzReadAll(f *testing.F) {
	f.Add([]byte("abc"), uint8(3), uint8(1))
	f.Add([]byte("abcd"), uint8(3), uint8(2))
	f.Add([]byte{}, uint8(0), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, limit, chunk uint8) {
		r := &chunked{data: data, n: int(chunk%7) + 1}
		got, err := ReadAll(r, "in", "input", int64(limit))
		var tl *TooLargeError
		switch {
		case len(data) <= int(limit) && (err != nil || string(got) != string(data)):
			t.Fatalf("%d bytes under a limit of %d: %q, %v", len(data), limit, got, err)
		case len(data) > int(limit) && !errors.As(err, &tl):
			t.Fatalf("%d bytes over a limit of %d: %v", len(data), limit, err)
		}
	})
}

// chunked reads data n bytes at a time.
type chunked struct {
	data []byte
	n    int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), c.n)], c.data)
	c.data = c.data[n:]
	return n, nil
}

// TestSecretLine: a secret is its file's first line without its line end
// or trailing blanks; an empty one is refused, and so is a device that
// never ends, at the secret's bound, without its content in the error.
func TestSecretLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, content, want, err string
	}{
		{"plain", "s3cret\n", "s3cret", ""},
		{"crlf and blanks", "s3cret \t\r\nsecond line\n", "s3cret", ""},
		{"no newline", "tok", "tok", ""},
		{"empty", "\n", "", "empty"},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := SecretLine(path, "password file")
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %q, %v; want %q, %q", tc.name, got, err, tc.want, tc.err)
		}
	}
	if _, err := SecretLine("/dev/zero", "password file"); !errors.As(err, new(*TooLargeError)) {
		t.Errorf("/dev/zero: %v, want a TooLargeError", err)
	}
}

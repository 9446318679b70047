// Package inputfile is the one place where the sizes of the files vesload
// reads are bounded. A file named on the command line or in a profile may
// be a device (/dev/zero, a FIFO), a sparse file of terabytes or simply
// the wrong file: read whole, any of them grows the process until the
// kernel stops it. Every reader of an input file goes through ReadFile or
// ReadAll with one of the limits below, so that such a file is refused
// with one line that names it and the limit, before anything starts.
//
// The limits are far above any real file of their kind; what they stop
// is a file that is not of that kind at all.
package inputfile

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// The limits, in bytes, one per kind of input. Each says why it is what
// it is, since a user who meets one needs to know whether their file is
// wrong or the limit is.
const (
	// Secret bounds a password file or a USER:PASS file: one line.
	Secret int64 = 64 << 10
	// Cert bounds a PEM bundle, a key or a PKCS#12 store: the largest
	// system CA bundles are under 1 MiB.
	Cert int64 = 16 << 20
	// Profile bounds a scenario file: a profile is a few kilobytes, the
	// largest imported JMeter plans a few hundred.
	Profile int64 = 8 << 20
	// Body bounds a request body, a body template or a JMeter plan: the
	// VES limit of a message is 2 MB, and a plan carries its bodies.
	Body int64 = 64 << 20
	// Data bounds a CSV data file (--data-file).
	Data int64 = 32 << 20
	// Schema bounds a JSON schema the emulator reads (the 3GPP ones are
	// the largest, about 1 MB).
	Schema int64 = 64 << 20
	// Result bounds a result document (report, compare, trend, merge,
	// --baseline). A result holds one timeline entry per second of the
	// run, about 400 bytes of JSON each, and its histograms: 256 MiB
	// holds a week's timeline several times over, and its decoding (the
	// document and its parsed form) stays within a gigabyte of memory.
	Result int64 = 256 << 20
	// Logs bounds a stream of pod logs read for the results in it: the
	// logs of every shard of a run, each with its result (a few hundred
	// KiB for a long run), kept in memory while they are split by pod.
	Logs int64 = 128 << 20
)

// YAMLDepth bounds how deeply a profile may nest its YAML (flow
// collections and block entries chained on one line), checked before the
// YAML library reads it: the library's memory grows with the square of
// the nesting (20,000 levels in 40 KB took 990 MB), and a profile nests
// a few levels, a JSON body written inline in it a dozen more.
const YAMLDepth = 100

// TooLargeError is a file over its kind's limit. It is a usage error: the
// file given is not a file of the kind asked for.
type TooLargeError struct {
	Name  string // the file, as the user named it
	What  string // what the file is for ("result", "CA file")
	Limit int64
}

// BadInput marks the error as bad input (usage.Marked): exit 2.
func (*TooLargeError) BadInput() {}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s %s: more than %s, the most a %s may have (is it the right file?)", e.What, e.Name, size(e.Limit), e.What)
}

// size writes a limit as people read it.
func size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ReadFile reads the file at path, what it is for naming it in errors, and
// refuses it when it holds more than limit bytes. A regular file is
// refused from its size before a byte is read, so a sparse file of
// terabytes costs nothing; a device or a pipe is read up to the limit.
func ReadFile(path, what string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", what, path, err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s %s: is a directory", what, path)
	}
	if st.Mode().IsRegular() && st.Size() > limit {
		return nil, &TooLargeError{Name: path, What: what, Limit: limit}
	}
	return ReadAll(f, path, what, limit)
}

// SecretLine reads a password or token file, bounded as a secret: its
// first line, line end and trailing blanks dropped. An empty one is an
// error. Errors name what the file is for and its path, never its
// content.
func SecretLine(path, what string) (string, error) {
	b, err := ReadFile(path, what, Secret)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	if line = strings.TrimRight(line, "\r \t"); line == "" {
		return "", fmt.Errorf("%s %s: empty", what, path)
	}
	return line, nil
}

// ReadAll reads r to its end, name and what naming it in errors, and
// refuses it when it holds more than limit bytes, having read at most one
// byte more. It reads in chunks joined at the end, so that a stream
// refused at the limit has cost the limit, not the doubling buffer of
// io.ReadAll (600 MB for a limit of 256 MiB).
func ReadAll(r io.Reader, name, what string, limit int64) ([]byte, error) {
	br := Reader(r, name, what, limit)
	var chunks [][]byte
	total := 0
	for {
		chunk := make([]byte, min(readChunk, limit+1))
		n, err := io.ReadFull(br, chunk)
		if n > 0 {
			chunks, total = append(chunks, chunk[:n]), total+n
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		var tl *TooLargeError
		if errors.As(err, &tl) {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", what, name, err)
		}
	}
	data := make([]byte, 0, total)
	for _, c := range chunks {
		data = append(data, c...)
	}
	return data, nil
}

// readChunk is what ReadAll reads at once.
const readChunk = 1 << 20

// Reader returns r bounded to limit bytes: a read past the limit fails
// with a *TooLargeError instead of returning more, for readers that
// stream a file rather than read it whole.
func Reader(r io.Reader, name, what string, limit int64) io.Reader {
	return &bounded{r: r, left: limit, err: &TooLargeError{Name: name, What: what, Limit: limit}}
}

type bounded struct {
	r    io.Reader
	left int64
	err  *TooLargeError
	peek [1]byte
}

func (b *bounded) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if b.left <= 0 {
		// At the limit: the file is too large only if one more byte is there.
		n, err := b.r.Read(b.peek[:])
		if n > 0 {
			return 0, b.err
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

// KeyPair loads a PEM certificate and its key as tls.LoadX509KeyPair
// does, each file within Cert.
func KeyPair(certFile, keyFile string) (tls.Certificate, error) {
	certPEM, err := ReadFile(certFile, "certificate", Cert)
	if err != nil {
		return tls.Certificate{}, err
	}
	keyPEM, err := ReadFile(keyFile, "key", Cert)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.X509KeyPair(certPEM, keyPEM)
}

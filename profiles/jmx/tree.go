package jmx

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/vesload/vesload/internal/inputfile"
)

// node is one XML element of a plan with its position in the file.
type node struct {
	tag      string
	attrs    []xml.Attr
	children []*node
	text     strings.Builder
	line     int
	col      int
}

func (n *node) attr(name string) string {
	for _, a := range n.attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// Limits that keep a hostile or broken plan from exhausting memory or the
// stack; real plans are far below them.
const (
	maxPlanDepth = 256
)

// lineIndex maps byte offsets of the input to line:column.
type lineIndex []int

func newLineIndex(data []byte) lineIndex {
	starts := lineIndex{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func (li lineIndex) pos(off int64) (line, col int) {
	i := sort.Search(len(li), func(i int) bool { return int64(li[i]) > off }) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, int(off-int64(li[i])) + 1
}

// parseTree reads the whole plan into a tree of elements. XML errors come
// back as one line with the position where reading stopped.
func parseTree(r io.Reader, name string) (*node, error) {
	data, err := inputfile.ReadAll(r, name, "JMeter plan", inputfile.Body)
	if err != nil {
		return nil, err
	}
	li := newLineIndex(data)
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.CharsetReader = charsetReader
	var root *node
	var stack []*node
	for {
		off := d.InputOffset()
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, xmlError(name, li, tokenStart(data, off), err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxPlanDepth {
				return nil, xmlError(name, li, off, fmt.Errorf("elements nested more than %d deep", maxPlanDepth))
			}
			n := &node{tag: t.Name.Local, attrs: t.Attr}
			n.line, n.col = li.pos(off + int64(max(0, bytes.IndexByte(data[off:], '<'))))
			if len(stack) == 0 {
				if root != nil {
					return nil, xmlError(name, li, off, errors.New("a second root element"))
				}
				root = n
			} else {
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text.Write(t)
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("%s: not a JMeter plan: no XML element", name)
	}
	return root, nil
}

func xmlError(name string, li lineIndex, off int64, err error) error {
	line, col := li.pos(off)
	msg := err.Error()
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		msg = se.Msg
	}
	msg = strings.TrimPrefix(strings.Join(strings.Fields(msg), " "), "xml: ")
	return fmt.Errorf("%s:%d:%d: invalid XML: %s", name, line, col, msg)
}

// charsetReader accepts the encodings JMeter writes (UTF-8, and
// ISO-8859-1 from old versions) and refuses others with a clear message.
func charsetReader(charset string, input io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return input, nil
	case "iso-8859-1", "latin1", "latin-1":
		return latin1Reader{input}, nil
	}
	return nil, fmt.Errorf("encoding %q is not supported: save the plan as UTF-8", charset)
}

// latin1Reader converts ISO-8859-1 bytes to UTF-8.
type latin1Reader struct{ r io.Reader }

func (l latin1Reader) Read(p []byte) (int, error) {
	if len(p) < 2 {
		return 0, io.ErrShortBuffer
	}
	buf := make([]byte, len(p)/2)
	n, err := l.r.Read(buf)
	out := p[:0]
	for _, c := range buf[:n] {
		out = append(out, string(rune(c))...)
	}
	return len(out), err
}

// tokenStart skips the white space at off, so that an error points at
// the token that failed rather than at the end of the one before.
func tokenStart(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n", data[off]) >= 0 {
		off++
	}
	return off
}

package profiles

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/vesload/vesload/internal/inputfile"
)

// Load reads a profile by built-in name (see Builtins) or file path. A
// built-in name wins over a file of the same name in the working
// directory: write ./NAME for the file. Relative file paths inside a
// profile file (body_file, password_file, TLS files) are made relative to
// the profile's folder, so the profile runs from anywhere.
func Load(nameOrPath string) (*Profile, error) {
	if data, err := BuiltinYAML(nameOrPath); err == nil {
		p, err := Parse(data, nameOrPath)
		if err != nil {
			return nil, err
		}
		p.Source = "builtin:" + nameOrPath
		return p, nil
	}
	data, err := readFile(nameOrPath)
	if err != nil {
		return nil, err
	}
	p, err := Parse(data, nameOrPath)
	if err != nil {
		return nil, err
	}
	p.rebasePaths(filepath.Dir(nameOrPath))
	return p, nil
}

func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) && !strings.ContainsAny(path, `/\.`) {
		return nil, fmt.Errorf("profile %s: no built-in profile or file of that name (built-ins: %s)", path, strings.Join(builtinNames(), ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("read profile %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read profile %s: %w", path, err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("read profile %s: is a directory", path)
	}
	if st.Mode().IsRegular() && st.Size() > inputfile.Profile {
		return nil, &inputfile.TooLargeError{Name: path, What: "profile", Limit: inputfile.Profile}
	}
	return inputfile.ReadAll(f, path, "profile", inputfile.Profile)
}

// rebasePaths makes relative file references relative to dir.
func (p *Profile) rebasePaths(dir string) {
	rebase := func(s *string) {
		if *s != "" && !filepath.IsAbs(*s) && !strings.Contains(*s, "${") {
			*s = filepath.Join(dir, *s)
		}
	}
	if a := p.Target.Auth; a != nil {
		rebase(&a.PasswordFile)
	}
	if t := p.Target.TLS; t != nil {
		rebase(&t.CACert)
		rebase(&t.Cert)
		rebase(&t.Key)
		rebase(&t.CertPassFile)
	}
	for i := range p.Requests {
		rebase(&p.Requests[i].BodyFile)
	}
	if p.Data != nil {
		rebase(&p.Data.File)
	}
}

// Parse decodes a profile strictly and validates it. name labels errors
// (file:line:column: message) and, without a name: key, names the
// profile. Every error is a single line; problems in the text are
// *Error values with their position.
func Parse(data []byte, name string) (p *Profile, err error) {
	defer func() {
		// The YAML library is outside code; a failure in it must not
		// take the command down.
		if r := recover(); r != nil {
			p, err = nil, &Error{File: name, Msg: oneLine(fmt.Sprintf("cannot decode YAML: %v", r))}
		}
	}()
	if int64(len(data)) > inputfile.Profile {
		return nil, &Error{File: name, Msg: fmt.Sprintf("%d bytes, more than the %d a profile may have", len(data), inputfile.Profile)}
	}
	if !utf8.Valid(data) {
		return nil, invalidUTF8(data, name)
	}
	// Files saved on Windows: the YAML reader counts \r\n as two lines.
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	if err := checkDepth(data, name); err != nil {
		return nil, err
	}
	body, err := parseDocument(data, name)
	if err != nil {
		return nil, err
	}
	c := &checker{pos: map[string]*token.Position{}}
	if err := c.check(body, profileType, "", 0); err != nil {
		return nil, positioned(name, err)
	}
	p = &Profile{}
	if err := yaml.NodeToValue(body, p, yaml.Strict()); err != nil {
		return nil, positioned(name, err)
	}
	p.normalize()
	p.applyDefaults(func(i int) bool { _, ok := c.pos[fmt.Sprintf("requests[%d].weight", i)]; return ok })
	if p.Name == "" {
		p.Name = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	}
	p.Source = name
	if err := p.Validate(); err != nil {
		return nil, c.locate(name, err)
	}
	return p, nil
}

// parseDocument returns the body of the single YAML document in data.
func parseDocument(data []byte, name string) (ast.Node, error) {
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		var ye yaml.Error
		if errors.As(err, &ye) && ye.GetToken() != nil {
			pos, msg := inUserWords(data, ye.GetToken().Position, oneLine(ye.GetMessage()))
			return nil, newError(name, pos, msg)
		}
		return nil, positioned(name, err)
	}
	var bodies []ast.Node
	for _, d := range f.Docs {
		if d != nil && d.Body != nil && d.Body.Type() != ast.CommentType && d.Body.Type() != ast.CommentGroupType {
			bodies = append(bodies, d.Body)
		}
	}
	switch {
	case len(bodies) == 0:
		return nil, &Error{File: name, Msg: "empty profile: want a mapping with load, requests, target…"}
	case len(bodies) > 1:
		return nil, positioned(name, errAt(firstToken(bodies[1]), "a second YAML document: want one profile per file"))
	}
	body := unwrap(bodies[0])
	if _, ok := mapEntries(body); !ok {
		return nil, positioned(name, errAt(body.GetToken(), "want a mapping of profile keys (name, target, load, requests…), got %s", kindOf(body)))
	}
	return bodies[0], nil
}

// positioned turns a checker or YAML library error into a one-line *Error
// with the position of its token.
func positioned(name string, err error) error {
	var ce *checkError
	if errors.As(err, &ce) {
		return newError(name, ce.pos, ce.msg)
	}
	var ye yaml.Error
	if errors.As(err, &ye) {
		var pos *token.Position
		if tk := ye.GetToken(); tk != nil {
			pos = tk.Position
		}
		return newError(name, pos, oneLine(ye.GetMessage()))
	}
	return &Error{File: name, Msg: oneLine(err.Error())}
}

func newError(name string, pos *token.Position, msg string) *Error {
	e := &Error{File: name, Msg: msg}
	if pos != nil {
		e.Line, e.Column = pos.Line, pos.Column
	}
	return e
}

// locate gives a Validate error the position of the key it names, or of
// the nearest enclosing key that was written.
func (c *checker) locate(name string, err error) error {
	var fe *FieldError
	if !errors.As(err, &fe) {
		return &Error{File: name, Msg: oneLine(err.Error())}
	}
	for path := fe.Path; path != ""; path = parentPath(path) {
		if pos, ok := c.pos[path]; ok {
			return newError(name, pos, oneLine(fe.Error()))
		}
	}
	return &Error{File: name, Msg: oneLine(fe.Error())}
}

// parentPath strips the last key or index from a field path.
func parentPath(path string) string {
	i := strings.LastIndexAny(path, ".[")
	if i < 0 {
		return ""
	}
	return path[:i]
}

// firstToken is the token where a node starts as a reader sees it: the
// first key of a mapping rather than its colon.
func firstToken(n ast.Node) *token.Token {
	if entries, ok := mapEntries(unwrap(n)); ok && len(entries) > 0 && entries[0].Key != nil {
		return entries[0].Key.GetToken()
	}
	return n.GetToken()
}

// normalize makes empty collections nil, so that `headers: {}` and no
// headers are the same profile (and Marshal, which omits both, round-trips).
func (p *Profile) normalize() {
	nilIfEmpty := func(m map[string]string) map[string]string {
		if len(m) == 0 {
			return nil
		}
		return m
	}
	p.Vars = nilIfEmpty(p.Vars)
	p.Target.Headers = nilIfEmpty(p.Target.Headers)
	p.Samplers.PromQueries = nilIfEmpty(p.Samplers.PromQueries)
	for i := range p.Requests {
		p.Requests[i].Headers = nilIfEmpty(p.Requests[i].Headers)
	}
	if p.Target.TLS != nil && *p.Target.TLS == (TLS{}) {
		p.Target.TLS = nil
	}
	if len(p.Thresholds) == 0 {
		p.Thresholds = nil
	}
	if len(p.Load.Stages) == 0 {
		p.Load.Stages = nil
	}
	if len(p.Requests) == 0 {
		p.Requests = nil
	}
}

// invalidUTF8 points at the first byte that is not UTF-8: YAML is text.
func invalidUTF8(data []byte, name string) error {
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return &Error{File: name, Line: line, Column: col, Msg: "not UTF-8 text: save the profile as UTF-8"}
}

package profiles

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/vesload/vesload/internal/suggest"
)

// checker walks the YAML tree against the Go types of Profile before
// decoding, so that every unknown key, wrong type and bad duration is
// reported at its own line and column with what was expected. It also
// records where each key is, so that Validate's errors (which name a
// field path) can point at a line too.
type checker struct {
	pos map[string]*token.Position
}

// checkError is a problem at a token.
type checkError struct {
	pos *token.Position
	msg string
}

func (e *checkError) Error() string { return e.msg }

func errAt(tk *token.Token, format string, args ...any) *checkError {
	var pos *token.Position
	if tk != nil {
		pos = tk.Position
	}
	return &checkError{pos: pos, msg: fmt.Sprintf(format, args...)}
}

var durationType = reflect.TypeOf(time.Duration(0))

// maxDepth bounds the nesting the checker follows; a profile is shallow.
const maxDepth = 32

func (c *checker) check(n ast.Node, t reflect.Type, path string, depth int) error {
	if depth > maxDepth {
		return errAt(n.GetToken(), "%s: nested too deeply", path)
	}
	n = unwrap(n)
	if n == nil || n.Type() == ast.NullType {
		return nil
	}
	if n.Type() == ast.AliasType {
		return nil // resolved by the decoder, checked where defined
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == durationType:
		return checkDuration(n, path)
	case t.Kind() == reflect.Struct:
		return c.checkStruct(n, t, path, depth)
	case t.Kind() == reflect.Map:
		return c.checkMap(n, t, path, depth)
	case t.Kind() == reflect.Slice:
		return c.checkSlice(n, t, path, depth)
	}
	return checkScalar(n, t, path)
}

// unwrap looks through tags and anchors to the value node.
func unwrap(n ast.Node) ast.Node {
	for i := 0; n != nil && i < maxDepth; i++ {
		switch v := n.(type) {
		case *ast.TagNode:
			n = v.Value
		case *ast.AnchorNode:
			n = v.Value
		default:
			return n
		}
	}
	return n
}

// mapEntries returns the key/value pairs of a mapping node, or false when
// n is not a mapping.
func mapEntries(n ast.Node) ([]*ast.MappingValueNode, bool) {
	switch v := n.(type) {
	case *ast.MappingNode:
		return v.Values, true
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{v}, true
	}
	return nil, false
}

func keyText(mv *ast.MappingValueNode) string {
	if mv.Key == nil || mv.Key.GetToken() == nil {
		return ""
	}
	return mv.Key.GetToken().Value
}

func (c *checker) checkStruct(n ast.Node, t reflect.Type, path string, depth int) error {
	entries, ok := mapEntries(n)
	if !ok {
		return errAt(n.GetToken(), "%s: want a mapping of %s, got %s", label(path), strings.Join(yamlKeys(t), ", "), kindOf(n))
	}
	keys := yamlKeys(t)
	for _, mv := range entries {
		key := keyText(mv)
		sub := join(path, key)
		c.record(sub, mv.Key)
		f, ok := fieldByKey(t, key)
		if !ok {
			return unknownKey(mv, t, path, key, keys)
		}
		if err := c.check(mv.Value, f.Type, sub, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func unknownKey(mv *ast.MappingValueNode, t reflect.Type, path, key string, keys []string) error {
	tk := mv.Key.GetToken()
	if t == reflect.TypeOf(Auth{}) && strings.EqualFold(key, "password") {
		return errAt(tk, "%s: a password is never written in a profile: use password_file or password_env", join(path, key))
	}
	where := "at the top level"
	if path != "" {
		where = "in " + path
	}
	if s := suggest.Nearest(key, keys); s != "" {
		return errAt(tk, "unknown key %q %s: did you mean %q?", key, where, s)
	}
	return errAt(tk, "unknown key %q %s: want one of %s", key, where, strings.Join(keys, ", "))
}

func (c *checker) checkMap(n ast.Node, t reflect.Type, path string, depth int) error {
	entries, ok := mapEntries(n)
	if !ok {
		return errAt(n.GetToken(), "%s: want a mapping, got %s", label(path), kindOf(n))
	}
	for _, mv := range entries {
		sub := join(path, keyText(mv))
		c.record(sub, mv.Key)
		if err := c.check(mv.Value, t.Elem(), sub, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) checkSlice(n ast.Node, t reflect.Type, path string, depth int) error {
	seq, ok := n.(*ast.SequenceNode)
	if !ok {
		return errAt(n.GetToken(), "%s: want a list, got %s", label(path), kindOf(n))
	}
	for i, v := range seq.Values {
		sub := fmt.Sprintf("%s[%d]", path, i)
		c.record(sub, v)
		if err := c.check(v, t.Elem(), sub, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) record(path string, n ast.Node) {
	if n != nil && n.GetToken() != nil {
		if _, dup := c.pos[path]; !dup {
			c.pos[path] = n.GetToken().Position
		}
	}
}

func checkDuration(n ast.Node, path string) error {
	tk := n.GetToken()
	switch n.Type() {
	case ast.StringType:
		s := tk.Value
		if _, err := time.ParseDuration(s); err != nil {
			return errAt(tk, "%s: bad duration %q: want a duration such as 10m, 30s or 150ms", path, s)
		}
		return nil
	case ast.IntegerType, ast.FloatType:
		return errAt(tk, "%s: %s has no unit: want a duration such as 10m, 30s or 150ms", path, tk.Value)
	}
	return errAt(tk, "%s: want a duration such as 10m, got %s", path, kindOf(n))
}

func checkScalar(n ast.Node, t reflect.Type, path string) error {
	tk := n.GetToken()
	nt := n.Type()
	switch t.Kind() {
	case reflect.String:
		switch nt {
		case ast.StringType, ast.LiteralType, ast.IntegerType, ast.FloatType, ast.BoolType, ast.InfinityType, ast.NanType:
			return nil
		}
		return errAt(tk, "%s: want a string, got %s", path, kindOf(n))
	case reflect.Bool:
		if nt == ast.BoolType {
			return nil
		}
		return errAt(tk, "%s: want true or false, got %s", path, kindOf(n))
	case reflect.Int, reflect.Int64:
		if nt == ast.StringType && looksNumeric(tk.Value) {
			return errAt(tk, "%s: %s is out of range", path, tk.Value)
		}
		if nt != ast.IntegerType {
			return errAt(tk, "%s: want a whole number, got %s", path, kindOf(n))
		}
		return checkIntRange(tk, path)
	case reflect.Float64:
		switch nt {
		case ast.IntegerType:
			return nil
		case ast.FloatType:
			if f, ok := n.(*ast.FloatNode); ok && !math.IsNaN(f.Value) && !math.IsInf(f.Value, 0) {
				return nil
			}
			return errAt(tk, "%s: %s is out of range", path, tk.Value)
		case ast.NanType, ast.InfinityType:
			return errAt(tk, "%s: want a finite number, got %s", path, tk.Value)
		}
		return errAt(tk, "%s: want a number, got %s", path, kindOf(n))
	}
	return errAt(tk, "%s: unsupported value", path)
}

// checkIntRange rejects integers that do not fit an int64, with the value
// as written (YAML allows 0x…, 0o… and _ separators).
func checkIntRange(tk *token.Token, path string) error {
	s := strings.ReplaceAll(tk.Value, "_", "")
	if strings.HasPrefix(s, "0o") || strings.HasPrefix(s, "-0o") {
		s = strings.Replace(s, "0o", "0", 1)
	}
	if _, err := strconv.ParseInt(s, 0, 64); err != nil {
		return errAt(tk, "%s: %s is out of range", path, tk.Value)
	}
	return nil
}

// kindOf names a node's kind for messages, without its value: a value can
// be a secret.
func kindOf(n ast.Node) string {
	switch n.Type() {
	case ast.MappingType, ast.MappingValueType:
		return "a mapping"
	case ast.SequenceType:
		return "a list"
	case ast.StringType, ast.LiteralType:
		return "a string"
	case ast.IntegerType:
		return "a whole number"
	case ast.FloatType, ast.InfinityType, ast.NanType:
		return "a number"
	case ast.BoolType:
		return "a boolean"
	}
	return n.Type().YAMLName()
}

func label(path string) string {
	if path == "" {
		return "profile"
	}
	return path
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// yamlKeys lists the YAML keys of a struct type, in declaration order.
func yamlKeys(t reflect.Type) []string {
	var keys []string
	for i := range t.NumField() {
		if k := yamlName(t.Field(i)); k != "" {
			keys = append(keys, k)
		}
	}
	return keys
}

func fieldByKey(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		if f := t.Field(i); yamlName(f) == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func yamlName(f reflect.StructField) string {
	tag := f.Tag.Get("yaml")
	name, _, _ := strings.Cut(tag, ",")
	if name == "-" || !f.IsExported() {
		return ""
	}
	if name == "" {
		return strings.ToLower(f.Name)
	}
	return name
}

var profileType = reflect.TypeOf(Profile{})

// looksNumeric reports whether a plain string is a number that the YAML
// reader gave up on (too many digits for any integer type).
func looksNumeric(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && s[i] != '_' {
			return false
		}
	}
	return true
}

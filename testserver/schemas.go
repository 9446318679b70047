package testserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"sigs.k8s.io/yaml"

	"github.com/vesload/vesload/internal/inputfile"
)

// The collector's default configuration validates each API version
// against one CommonEventFormat schema (collector.schema.file) and the
// data of stndDefined events against the 3GPP OpenAPI schemas of its
// externalRepo (collector.externalSchema.*, on by default). The emulator
// reads the same files from a directory laid out as the collector's etc/
// (and as ONAP's reference material is): the three schema files below
// and externalRepo/schema-map.json with the files it maps. None of them
// is part of vesload.

// schemaFiles is the collector's default collector.schema.file.
var schemaFiles = []struct {
	file     string
	versions []string
}{
	{"CommonEventFormat_27.2.json", []string{"v1", "v2", "v3", "v4"}},
	{"CommonEventFormat_28.4.1.json", []string{"v5"}},
	{"CommonEventFormat_30.2.1_ONAP.json", []string{"v7"}},
}

const (
	externalRepoDir = "externalRepo"
	schemaMapFile   = "schema-map.json"
	// maxStndCache bounds the compiled stndDefined schemas kept, keyed by
	// the references clients send; past it a reference is compiled anew
	// each time (under the same lock), so clients cannot grow memory.
	maxStndCache = 1024
)

// schemaSet is what a schema directory gives: one compiled schema per API
// version, and the stndDefined validator (nil without externalRepo).
type schemaSet struct {
	dir       string
	byVersion map[string]*jsonschema.Schema
	stnd      *stndSchemas
}

// loadSchemas compiles the CommonEventFormat schemas of dir once. A
// missing or broken file is an error: the collector does not start
// without them either. externalRepo/schema-map.json is optional (the
// stndDefined data check is then off, which Describe says).
func loadSchemas(dir string) (*schemaSet, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("schema dir %s: %w", dir, err)
	}
	set := &schemaSet{dir: abs, byVersion: map[string]*jsonschema.Schema{}}
	for _, f := range schemaFiles {
		sch, err := compileEventSchema(filepath.Join(abs, f.file))
		if err != nil {
			return nil, err
		}
		for _, v := range f.versions {
			set.byVersion[v] = sch
		}
	}
	repo := filepath.Join(abs, externalRepoDir)
	if _, err := os.Stat(filepath.Join(repo, schemaMapFile)); err == nil {
		if set.stnd, err = newStndSchemas(repo); err != nil {
			return nil, err
		}
	}
	return set, nil
}

// describe is the line the emulator logs on start about its validation.
func (s *schemaSet) describe() string {
	stnd := "stndDefined data checked against " + filepath.Join(s.dir, externalRepoDir, schemaMapFile)
	if s.stnd == nil {
		stnd = "no " + filepath.Join(externalRepoDir, schemaMapFile) + " there: stndDefined data not checked"
	} else if len(s.stnd.mapping) == 0 {
		stnd += " (it maps no usable schema: every schemaReference gets SVC2004)"
	}
	return "validation: CommonEventFormat schemas from " + s.dir + " (v1-v4 27.2, v5 28.4.1, v7 30.2.1); " + stnd
}

func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4)
	c.UseLoader(jsonschema.SchemeURLLoader{"file": yamlOrJSONLoader{}})
	return c
}

func compileEventSchema(path string) (*jsonschema.Schema, error) {
	c := newCompiler()
	c.AssertFormat()
	for _, f := range collectorFormats() {
		c.RegisterFormat(f)
	}
	c.RegisterVocabulary(writtenIntegerVocab())
	sch, err := c.Compile(path)
	if err != nil {
		return nil, fmt.Errorf("compile event schema %s: %w", path, err)
	}
	return sch, nil
}

// writtenIntegerVocab narrows "integer" to what the collector's validator
// takes for one. It validates the text org.json writes the document back
// to, read by Jackson: a number written with a fraction or an exponent is
// a double there, never an integer, whatever its value. The parser keeps
// numbers in that written form (1.0 becomes 1, 1e3 becomes 1E+3), so a
// number whose text holds '.', 'e' or 'E' is not an integer.
func writtenIntegerVocab() *jsonschema.Vocabulary {
	return &jsonschema.Vocabulary{
		URL: "urn:vesload:written-integer",
		Compile: func(_ *jsonschema.CompilerContext, obj map[string]any) (jsonschema.SchemaExt, error) {
			if wantsInteger(obj["type"]) {
				return writtenInteger{}, nil
			}
			return nil, nil
		},
	}
}

// wantsInteger reports whether a schema's type takes integers but not
// other numbers.
func wantsInteger(t any) bool {
	switch t := t.(type) {
	case string:
		return t == "integer"
	case []any:
		return slices.Contains(t, any("integer")) && !slices.Contains(t, any("number"))
	}
	return false
}

// writtenInteger refuses a number written as a double.
type writtenInteger struct{}

func (writtenInteger) Validate(ctx *jsonschema.ValidatorContext, v any) {
	if n, ok := v.(json.Number); ok && strings.ContainsAny(string(n), ".eE") {
		ctx.AddError(&kind.Type{Got: "number", Want: []string{"integer"}})
	}
}

// yamlOrJSONLoader loads file URLs, reading .yaml and .yml files as YAML
// (the 3GPP schemas are OpenAPI documents in YAML).
type yamlOrJSONLoader struct{}

func (yamlOrJSONLoader) Load(u string) (any, error) {
	path, err := jsonschema.FileLoader{}.ToFile(u)
	if err != nil {
		return nil, err
	}
	b, err := inputfile.ReadFile(path, "schema", inputfile.Schema)
	if err != nil {
		return nil, err
	}
	if ext := strings.ToLower(filepath.Ext(path)); ext == ".yaml" || ext == ".yml" {
		if b, err = yaml.YAMLToJSON(b); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

// collectorFormats are the format checks of the collector's validator
// (networknt json-schema-validator 1.0.49), which differ from the JSON
// Schema suite's: an IPv4 octet may have leading zeros ("09.09.09.09"),
// an IPv6 address may carry a zone ("fe80::1%eth2"), and a URI is a
// scheme, a colon and no white space (or "//" and no white space).
func collectorFormats() []*jsonschema.Format {
	ipv4 := regexp.MustCompile(`^((25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)$`)
	uri := regexp.MustCompile(`(^[a-zA-Z][a-zA-Z0-9+-.]*:[^\s]*$)|(^//[^\s]*$)`)
	str := func(check func(string) bool, what string) func(any) error {
		return func(v any) error {
			s, ok := v.(string)
			if !ok || check(s) {
				return nil
			}
			return errors.New("not " + what)
		}
	}
	return []*jsonschema.Format{
		{Name: "ipv4", Validate: str(ipv4.MatchString, "an IPv4 address")},
		{Name: "ipv6", Validate: str(validIPv6, "an IPv6 address")},
		{Name: "uri", Validate: str(uri.MatchString, "a URI")},
	}
}

// validIPv6 is the validator's ipv6 format: white space (Java's \s) may
// surround the address, and a zone after '%' may hold any character but a
// line terminator.
func validIPv6(s string) bool {
	s = strings.Trim(s, " \t\n\v\f\r")
	if _, zone, ok := strings.Cut(s, "%"); ok && strings.ContainsAny(zone, "\n\r\u0085\u2028\u2029") {
		return false
	}
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6()
}

// stndSchemas validates stndDefinedFields.data as the collector's
// external schema manager does: the schemaReference's URL (before '#')
// is looked up in schema-map.json (only entries whose local file exists
// and reads as YAML count), and the part after '#' is a JSON pointer into
// that file.
type stndSchemas struct {
	repo    string
	mapping map[string]string // public URL → local file

	mu    sync.Mutex // guards c and cache: the compiler is not safe for concurrent use
	c     *jsonschema.Compiler
	cache map[string]stndCompiled
}

type stndCompiled struct {
	sch *jsonschema.Schema
	err error
}

func newStndSchemas(repo string) (*stndSchemas, error) {
	b, err := inputfile.ReadFile(filepath.Join(repo, schemaMapFile), "schema map", inputfile.Schema)
	if err != nil {
		return nil, err
	}
	var entries []struct {
		PublicURL string `json:"publicURL"`
		LocalURL  string `json:"localURL"`
	}
	if err := json.Unmarshal(b, &entries); err != nil {
		return nil, fmt.Errorf("schema map %s: %w", filepath.Join(repo, schemaMapFile), err)
	}
	st := &stndSchemas{repo: repo, mapping: map[string]string{}, c: newCompiler(), cache: map[string]stndCompiled{}}
	for _, e := range entries {
		local := filepath.Join(repo, filepath.FromSlash(e.LocalURL))
		if readsAsYAML(local) {
			st.mapping[e.PublicURL] = local
		}
	}
	return st, nil
}

func readsAsYAML(path string) bool {
	b, err := inputfile.ReadFile(path, "schema", inputfile.Schema)
	if err != nil || len(b) == 0 {
		return false
	}
	var v any
	return yaml.Unmarshal(b, &v) == nil
}

// stndResult is what the stndDefined check of one event decided.
type stndResult uint8

const (
	stndOK             stndResult = iota
	stndInvalid                   // 400 SVC2000: data does not conform
	stndNoLocalSchema             // 400 SVC2004: the URL is not in the schema map
	stndBadInternalRef            // 400 SVC2000: the part after '#' names nothing in the file
	stndCrash                     // 500: a reference of only '#' characters, which the collector cannot split
)

// check validates one event (the object under "event", or one element
// of "eventList") when it is a stndDefined event with a schemaReference.
func (st *stndSchemas) check(event map[string]any) stndResult {
	header, _ := event["commonEventHeader"].(map[string]any)
	if domain, _ := header["domain"].(string); domain != "stndDefined" {
		return stndOK
	}
	fields, _ := event["stndDefinedFields"].(map[string]any)
	ref, _ := fields["schemaReference"].(string)
	if ref == "" {
		return stndOK
	}
	sch, r := st.schema(ref)
	if r != stndOK {
		return r
	}
	if sch.Validate(fields["data"]) != nil {
		return stndInvalid
	}
	return stndOK
}

// schema resolves and compiles a schemaReference.
func (st *stndSchemas) schema(ref string) (*jsonschema.Schema, stndResult) {
	parts := strings.Split(ref, "#")
	for len(parts) > 0 && parts[len(parts)-1] == "" { // Java's split drops trailing empty strings
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 {
		return nil, stndCrash
	}
	// Without one internal reference (no '#', or more than one) the
	// reference is "/", which the collector's validator resolves to the
	// whole file: the data is checked against the document's root.
	internal := ""
	if len(parts) == 2 && parts[1] != "/" {
		internal = parts[1]
		if !strings.HasPrefix(internal, "/") {
			internal = "/" + internal
		}
	}
	local, ok := st.mapping[parts[0]]
	if !ok {
		return nil, stndNoLocalSchema
	}
	loc := (&url.URL{Scheme: "file", Path: filepath.ToSlash(local), Fragment: internal}).String()
	st.mu.Lock()
	defer st.mu.Unlock()
	got, ok := st.cache[loc]
	if !ok {
		got.sch, got.err = st.c.Compile(loc)
		if len(st.cache) < maxStndCache {
			st.cache[loc] = got
		}
	}
	if got.err != nil {
		return nil, stndBadInternalRef
	}
	return got.sch, stndOK
}

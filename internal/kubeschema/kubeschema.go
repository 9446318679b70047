// Package kubeschema checks Kubernetes objects against the API's own
// schemas, strictly: the OpenAPI v3 documents of the Kubernetes release
// that matches the k8s.io/api module in go.mod (api/openapi-spec/v3 of
// the k8s.io/kubernetes module, fetched through the Go module proxy
// like any module), with every object closed to unknown fields, as
// kubeconform -strict does. Required fields and types are the schemas'
// own (Kubernetes' documents carry no enum keywords: the allowed values
// are in the descriptions). Only tests import it: the binary carries
// none of it.
package kubeschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"
)

// gvk names an object's schema as its apiVersion and kind do.
type gvk struct{ group, version, kind string }

// Validator holds the compiled schemas of the API groups it has been
// asked about so far; it is safe for concurrent use.
type Validator struct {
	dir string
	mu  sync.Mutex
	// byKind has one compiled schema per kind of the groups loaded;
	// loaded says which group versions' documents were read.
	byKind map[gvk]*jsonschema.Schema
	loaded map[string]bool
}

// Open reads the schemas from dir, a Kubernetes release's
// api/openapi-spec/v3, as each group version is first needed.
func Open(dir string) (*Validator, error) {
	if _, err := os.Stat(filepath.Join(dir, "api__v1_openapi.json")); err != nil {
		return nil, fmt.Errorf("kubeschema: %s holds no OpenAPI v3 documents: %w", dir, err)
	}
	return &Validator{dir: dir, byKind: map[gvk]*jsonschema.Schema{}, loaded: map[string]bool{}}, nil
}

// Validate checks one object, given as YAML or JSON, against the schema
// of its apiVersion and kind. An object of a kind the API does not
// define (a custom resource) is an error.
func (v *Validator) Validate(doc []byte) error {
	js, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return fmt.Errorf("kubeschema: %w", err)
	}
	obj, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return fmt.Errorf("kubeschema: %w", err)
	}
	m, _ := obj.(map[string]any)
	apiVersion, _ := m["apiVersion"].(string)
	kind, _ := m["kind"].(string)
	if apiVersion == "" || kind == "" {
		return errors.New("kubeschema: the object has no apiVersion or kind")
	}
	k := gvk{version: apiVersion, kind: kind}
	if g, ver, ok := strings.Cut(apiVersion, "/"); ok {
		k.group, k.version = g, ver
	}
	s, err := v.schema(k)
	if err != nil {
		return err
	}
	if err := s.Validate(obj); err != nil {
		return fmt.Errorf("kubeschema: %s %s: %w", apiVersion, kind, err)
	}
	return nil
}

// schema compiles the document of k's group version once and returns
// k's schema from it.
func (v *Validator) schema(k gvk) (*jsonschema.Schema, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	file := "api__" + k.version + "_openapi.json"
	if k.group != "" {
		file = "apis__" + k.group + "__" + k.version + "_openapi.json"
	}
	if !v.loaded[file] {
		if err := v.load(file); err != nil {
			return nil, err
		}
		v.loaded[file] = true
	}
	s, ok := v.byKind[k]
	if !ok {
		return nil, fmt.Errorf("kubeschema: Kubernetes defines no kind %s in %s", k.kind, file)
	}
	return s, nil
}

// load compiles every kind that the document file defines.
func (v *Validator) load(file string) error {
	f, err := os.Open(filepath.Join(v.dir, file))
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("kubeschema: Kubernetes has no API group version %s", strings.TrimSuffix(file, "_openapi.json"))
	}
	if err != nil {
		return fmt.Errorf("kubeschema: %w", err)
	}
	defer f.Close()
	var doc struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	dec := json.NewDecoder(f)
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("kubeschema: %s: %w", file, err)
	}
	defs := doc.Components.Schemas
	for _, d := range defs {
		strict(d)
	}
	url := "file:///kubernetes/" + file
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(url, map[string]any{"$defs": defs}); err != nil {
		return fmt.Errorf("kubeschema: %s: %w", file, err)
	}
	for name, d := range defs {
		m, _ := d.(map[string]any)
		kinds, _ := m["x-kubernetes-group-version-kind"].([]any)
		for _, x := range kinds {
			g, _ := x.(map[string]any)
			k := gvk{group: str(g["group"]), version: str(g["version"]), kind: str(g["kind"])}
			s, err := c.Compile(url + "#/$defs/" + name)
			if err != nil {
				return fmt.Errorf("kubeschema: %s: %s: %w", file, name, err)
			}
			v.byKind[k] = s
		}
	}
	return nil
}

func str(x any) string { s, _ := x.(string); return s }

// strict closes every object schema with named properties to other
// fields (what kubeconform -strict does), except where the API keeps
// unknown fields on purpose, and points the document's references at
// $defs.
func strict(x any) {
	switch n := x.(type) {
	case map[string]any:
		if ref, ok := n["$ref"].(string); ok {
			n["$ref"] = strings.Replace(ref, "#/components/schemas/", "#/$defs/", 1)
		}
		_, props := n["properties"]
		_, extra := n["additionalProperties"]
		keep, _ := n["x-kubernetes-preserve-unknown-fields"].(bool)
		if props && !extra && !keep {
			n["additionalProperties"] = false
		}
		for _, c := range n {
			strict(c)
		}
	case []any:
		for _, c := range n {
			strict(c)
		}
	}
}

// ValidateStream checks every object of a multi-document YAML stream
// (documents after "---" lines; comments before the first are skipped)
// and returns how many it checked. skip says which kinds to leave to the
// caller (custom resources), by kind.
func (v *Validator) ValidateStream(stream []byte, skip func(kind string) bool) (int, error) {
	n := 0
	for i, d := range bytes.Split(stream, []byte("\n---\n")) {
		var head struct{ Kind string }
		if err := yaml.Unmarshal(d, &head); err != nil {
			return n, fmt.Errorf("document %d: %w", i, err)
		}
		if head.Kind == "" || (skip != nil && skip(head.Kind)) {
			continue
		}
		if err := v.Validate(d); err != nil {
			return n, fmt.Errorf("document %d: %w", i, err)
		}
		n++
	}
	return n, nil
}

// RequireEnv makes a missing schema a failure rather than a skip (CI
// sets it).
const RequireEnv = "VESLOAD_REQUIRE_KUBE_SCHEMAS"

var shared = sync.OnceValues(func() (*Validator, error) {
	dir, err := SpecDir()
	if err != nil {
		return nil, err
	}
	return Open(dir)
})

// ForTest returns the validator of the Kubernetes release matching
// go.mod's k8s.io/api, shared by the tests of a package. Without the go
// command or the module it skips the test, unless RequireEnv is 1.
func ForTest(t testing.TB) *Validator {
	t.Helper()
	v, err := shared()
	if err != nil {
		if os.Getenv(RequireEnv) == "1" {
			t.Fatalf("Kubernetes' schemas: %v", err)
		}
		t.Skipf("Kubernetes' schemas are not available (%v); %s=1 makes this a failure", err, RequireEnv)
	}
	return v
}

// SpecDir finds api/openapi-spec/v3 of the k8s.io/kubernetes release
// whose minor and patch are those of go.mod's k8s.io/api (v0.X.Y is
// Kubernetes v1.X.Y), downloading the module (about 22 MB) into the
// module cache the first time. The go command is run from the current
// directory, which must be inside this module.
func SpecDir() (string, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return "", err
	}
	out, err := run(exec.Command(goBin, "list", "-m", "-f", "{{.Version}}", "k8s.io/api"))
	if err != nil {
		return "", err
	}
	api := strings.TrimSpace(string(out))
	rest, ok := strings.CutPrefix(api, "v0.")
	if !ok {
		return "", fmt.Errorf("k8s.io/api %s: not a v0.X.Y version", api)
	}
	mod := "k8s.io/kubernetes@v1." + rest
	// Outside this module, so that go.mod and go.sum stay as they are.
	dl := exec.Command(goBin, "mod", "download", "-json", mod)
	dl.Dir = os.TempDir()
	dl.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err = run(dl)
	if err != nil {
		return "", err
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil {
		return "", fmt.Errorf("go mod download %s: %w", mod, err)
	}
	if info.Error != "" {
		return "", fmt.Errorf("go mod download %s: %s", mod, info.Error)
	}
	return filepath.Join(info.Dir, "api", "openapi-spec", "v3"), nil
}

func run(cmd *exec.Cmd) ([]byte, error) {
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%s: %w: %s", strings.Join(cmd.Args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

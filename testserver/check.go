package testserver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DefaultSchemaDir is where the collector's schemas are looked for when
// none is named (Options.SchemaDir, vesload serve --schema-dir):
// $VESLOAD_SHARED/ves when set, else ../shared/ves, the reference
// material's place beside the repository.
func DefaultSchemaDir() string {
	if root := os.Getenv("VESLOAD_SHARED"); root != "" {
		return filepath.Join(root, "ves")
	}
	return filepath.Join("..", "shared", "ves")
}

// Schemas checks request bodies as the emulator does with a schema
// directory, without a server: what a client would send can be judged
// before it is sent.
type Schemas struct{ set *schemaSet }

// LoadSchemas compiles the schemas of dir, laid out as Options.SchemaDir
// says. A missing or broken schema file is an error.
func LoadSchemas(dir string) (*Schemas, error) {
	set, err := loadSchemas(dir)
	if err != nil {
		return nil, err
	}
	return &Schemas{set: set}, nil
}

// Dir is the schema directory, made absolute.
func (s *Schemas) Dir() string { return s.set.dir }

// maxSchemaDetail bounds the schema validator's explanation in Check's
// error: it lists every failing keyword and can run to pages.
const maxSchemaDetail = 600

// Check judges body as a request to API version (such as "v7") would be
// judged: parsed as the collector parses it, an "event" (or with batch an
// "eventList") valid against the version's CommonEventFormat schema, and
// stndDefined data against externalRepo. It returns nil for a body the
// emulator would accept on these grounds, else what is wrong.
func (s *Schemas) Check(body []byte, version string, batch bool) error {
	if len(body) == 0 {
		return errors.New("no body")
	}
	tree, err := parseOrgJSON(body)
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	want := bodyKey(batch)
	if s.set.byVersion[version] == nil {
		return fmt.Errorf("no schema for API version %q", version)
	}
	v, err := s.set.conform(tree, want, version, true)
	switch {
	case v.outcome == outcomeOK:
		return nil
	case err != nil:
		detail := strings.TrimSpace(err.Error())
		if len(detail) > maxSchemaDetail {
			detail = detail[:maxSchemaDetail] + " …"
		}
		return fmt.Errorf("%s does not conform to the %s schema: %s", want, version, detail)
	case v.field == "":
		return errors.New(v.problem) // "missing event"
	}
	return fmt.Errorf("%s %s", v.field, v.problem)
}

// CollectorParse is what the collector's JSON parser (org.json, lenient
// in its own ways: see orgjson.go) makes of body: nil when it reads a
// document, which the collector then validates, else why it throws, which
// the collector answers with 500 (Spring's error page), as the emulator
// does. An importer can so say what a body that is not JSON will get.
func CollectorParse(body []byte) error {
	_, err := parseOrgJSON(body)
	return err
}

package profiles

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestReadmeExamples parses every YAML example of the key reference, so
// the documentation cannot drift from the decoder.
func TestReadmeExamples(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(data), "```yaml\n")[1:]
	if len(blocks) < 8 {
		t.Fatalf("found %d YAML examples in README.md, want at least 8", len(blocks))
	}
	for i, b := range blocks {
		example, _, ok := strings.Cut(b, "```")
		if !ok {
			t.Fatalf("example %d is not closed", i+1)
		}
		p, err := Parse([]byte(example), "README example")
		if err != nil {
			t.Errorf("example %d: %v\n%s", i+1, err, example)
			continue
		}
		if p.Name == "README example" {
			t.Errorf("example %d has no name", i+1)
		}
	}
}

// TestReadmeListsEveryKey checks that every YAML key of the profile types
// is documented.
func TestReadmeListsEveryKey(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []any{Profile{}, Target{}, Auth{}, TLS{}, Samplers{}, Shape{}, Stage{}, Ramp{}, Closed{}, Producers{}, Request{}, Data{}} {
		for _, key := range yamlKeys(reflect.TypeOf(typ)) {
			if !strings.Contains(string(data), "`"+key+"`") && !strings.Contains(string(data), "."+key+"`") {
				t.Errorf("README.md does not document key %q of %T", key, typ)
			}
		}
	}
}

package profiles

import (
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/inputfile"
)

func TestCheckDepth(t *testing.T) {
	deep := inputfile.YAMLDepth + 1
	jsonBody := strings.Repeat(`{"a": `, 60) + "1" + strings.Repeat("}", 60)
	cases := []struct {
		name string
		yaml string
		at   string // "line:column" of the refusal; "" accepts
	}{
		{"a profile", "name: p\nload: {rps: 10, duration: 1m}\nrequests:\n  - {path: /x, body: '[[[[['}\n", ""},
		{"flow at the limit", "a: " + strings.Repeat("[", inputfile.YAMLDepth) + strings.Repeat("]", inputfile.YAMLDepth) + "\n", ""},
		{"flow past the limit", "a: " + strings.Repeat("[", deep) + "\n", "1:" + strconv.Itoa(3+deep)},
		{"flow mappings", "a:\n  b: " + strings.Repeat("{a: ", deep) + "\n", "2:" + strconv.Itoa(6+4*(deep-1))},
		{"block entries on one line", "a:\n" + strings.Repeat("- ", deep) + "x\n", "2:" + strconv.Itoa(2*deep-1)},
		{"brackets in quotes", "a: \"" + strings.Repeat("[", 500) + "\"\nb: '" + strings.Repeat("{", 500) + "'\n", ""},
		{"brackets in a comment", "a: 1 # " + strings.Repeat("[", 500) + "\n", ""},
		{"a JSON body in a block scalar", "body: |\n  " + strings.Repeat("[", 500) + "\n  \n  x\nload: 1\n", ""},
		{"a deep JSON body written inline", "body: " + jsonBody + "\n", ""},
		{"a block scalar ends at its indentation", "body: |\n  - \"\nload: " + strings.Repeat("[", deep) + "\n", "3:" + strconv.Itoa(6+deep)},
		{"a quote in a plain scalar", "a: x - \"\nb: " + strings.Repeat("[", deep) + "\n", "2:" + strconv.Itoa(3+deep)},
		{"a plain scalar's next line", "a: x\n  \"\nb: " + strings.Repeat("[", deep) + "\n", "3:" + strconv.Itoa(3+deep)},
		{"a quote that never ends hides no bracket", "a: [ \"\n" + strings.Repeat("[\n", 10*inputfile.YAMLDepth), "1001:1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := checkDepth([]byte(c.yaml), "p.yaml")
			if c.at == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var pe *Error
			if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "p.yaml:"+c.at+": ") || !strings.Contains(err.Error(), "100") {
				t.Fatalf("err %v: want p.yaml:%s: and the limit", err, c.at)
			}
		})
	}
}

// TestParseRefusesDeepNestingCheaply is the profile of 20,000 nested "["
// (40 KB) that took 990 MB in the YAML library: refused before it, with
// its line, in a few milliseconds and a few megabytes.
func TestParseRefusesDeepNestingCheaply(t *testing.T) {
	for _, data := range []string{
		"load: " + strings.Repeat("[", 20000) + "\n",
		"load:\n" + strings.Repeat("- ", 20000) + "x\n",
		"load: " + strings.Repeat("{a: ", 20000) + "\n",
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		_, err := Parse([]byte(data), "deep.yaml")
		took := time.Since(start)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.HasPrefix(err.Error(), "deep.yaml:") || !strings.Contains(err.Error(), "nested more than 100 levels") {
			t.Errorf("err %v: want the depth refused with its position", err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
			t.Errorf("allocated %d MiB to refuse it: want a few", alloc>>20)
		}
		if took > 2*time.Second {
			t.Errorf("took %v to refuse it", took)
		}
	}
}

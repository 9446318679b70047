package scenario

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vesload/vesload/profiles"
)

// A data file that cannot be read is named by where it was given: the
// profile's data.file names the profile, --data-file the flag.
func TestDataFileErrorNamesItsOrigin(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "rows.csv")
	for _, c := range []struct {
		option, want string
	}{
		{"", "profile p.yaml: data file: open " + missing},
		{"--data-file", "--data-file data file: open " + missing},
	} {
		p := &profiles.Profile{Source: "p.yaml", Data: &profiles.Data{File: missing, Columns: []string{"PNF"}, Option: c.option}}
		_, err := Resolve(p, nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("option %q: %v, want it to start %q", c.option, err, c.want)
		}
	}
}

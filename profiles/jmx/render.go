package jmx

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/vesload/vesload/profiles"
)

// Render writes an imported profile as a YAML file that says where it
// came from and, as comments at the top, what was not translated, so the
// warnings stay with the profile a user edits.
func Render(p *profiles.Profile, source string, warns []Warning) ([]byte, error) {
	body, err := p.Marshal()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Imported from JMeter plan %s.\n", oneLine(source))
	if missing := p.MissingVars(); len(missing) > 0 {
		fmt.Fprintf(&b, "# Before a run, set %s with --set NAME=VALUE (or give the target with --url).\n", strings.Join(missing, ", "))
	}
	if len(warns) > 0 {
		fmt.Fprintf(&b, "# Not translated, or not exactly (%d):\n", len(warns))
		for _, w := range warns {
			fmt.Fprintf(&b, "#   %s\n", oneLine(w.String()))
		}
	}
	b.Write(body)
	return b.Bytes(), nil
}

package scenario

import (
	"fmt"
	"strings"

	"github.com/vesload/vesload/profiles"
)

// Resolve binds the --set variables (each "NAME=VALUE") to p, which it
// changes, and returns a copy with every placeholder replaced and every
// value checked: the scenario ready for Compile. The variables of body
// files count like any other, so --set fills a --body-file template and a
// variable the profile requires (declared empty) stops the run when only
// a body file uses it.
func Resolve(p *profiles.Profile, sets []string) (*profiles.Profile, error) {
	if err := p.ScanBodyFiles(); err != nil {
		return nil, fmt.Errorf("%s: %w", p.Label(), err)
	}
	if p.Data != nil {
		d, err := loadData(p.Data, p.Label())
		if err != nil {
			return nil, err
		}
		p.BindDataColumns(d.Columns)
	}
	for _, kv := range sets {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("--set %q: want NAME=VALUE", kv)
		}
		if err := p.Set(name, value); err != nil {
			return nil, err
		}
	}
	resolved, err := p.Resolve()
	if err != nil {
		return nil, err
	}
	if err := resolved.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", p.Label(), err)
	}
	return resolved, nil
}

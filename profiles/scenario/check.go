package scenario

import (
	"fmt"
	"net/url"

	"github.com/vesload/vesload/profiles"
)

// checkPlaceholder stands for a variable the profile leaves to the run
// (--set, --url) while its bodies are checked.
const checkPlaceholder = "placeholder"

// CheckBodies resolves p and compiles and renders every request body as a
// run does, so that `profiles check` refuses what a run would refuse (a
// body that renders to invalid JSON, a bad template, a bad data file).
// Variables the profile leaves to the run get a placeholder value; no
// credential is read and nothing is sent. It changes p, as Resolve does.
func CheckBodies(p *profiles.Profile) error {
	var sets []string
	for _, name := range p.MissingVars() {
		sets = append(sets, name+"="+checkPlaceholder)
	}
	r, err := Resolve(p, sets)
	if err != nil {
		return err
	}
	base := &url.URL{Scheme: "http", Host: "127.0.0.1", Path: "/eventListener/v7"}
	if r.Target.URL != "" {
		if base, err = url.Parse(r.Target.URL); err != nil {
			return fmt.Errorf("target.url: %w", err)
		}
	}
	return setRequests(&Plan{}, r, base, "check")
}

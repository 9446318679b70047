package jmx

import (
	"fmt"
	"os"
	"strings"

	"github.com/vesload/vesload/profiles"
)

// ImportFile opens and imports the plan at path (see Import). Every error
// names the file, with line:column when the plan itself is at fault.
func ImportFile(path string) (*profiles.Profile, []Warning, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("open JMeter plan: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, nil, fmt.Errorf("JMeter plan %s: is a directory", path)
	}
	return Import(f, path)
}

// RenderLoadable renders the profile as Render does and reads the text
// back as a profile file: what is written must load, since a profile
// that fails only at run time would leave the user a file to debug that
// they did not write.
func RenderLoadable(p *profiles.Profile, source string, warns []Warning) ([]byte, error) {
	out, err := Render(p, source, warns)
	if err != nil {
		return nil, fmt.Errorf("render profile: %w", err)
	}
	if _, err := profiles.Parse(out, p.Name+".yaml"); err != nil {
		return nil, fmt.Errorf("the imported profile does not read back: %w", err)
	}
	return out, nil
}

// Summary is the closing line of an import: what the profile will send,
// how many warnings it carries, where it was written (dest) and what is
// still to be given before a run.
func Summary(p *profiles.Profile, warnings int, dest string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", p.Name, p.Load.Describe())
	switch warnings {
	case 0:
	case 1:
		b.WriteString("; 1 warning")
	default:
		fmt.Fprintf(&b, "; %d warnings", warnings)
	}
	fmt.Fprintf(&b, "; written to %s", dest)
	if advice := p.MissingAdvice(); advice != "" {
		b.WriteString("; before a run, " + advice)
	}
	return b.String()
}

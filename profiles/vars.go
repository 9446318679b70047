package profiles

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/vesload/vesload/internal/inputfile"
	"github.com/vesload/vesload/internal/suggest"
)

// Set gives variable name the value, as --set NAME=VALUE does. Variables
// fill ${NAME} placeholders in the target, headers, paths and bodies
// (imported JMeter plans use them for hosts such as WORKER_IP). Setting a
// name the profile neither declares nor uses is an error, so a typo does
// not go unnoticed.
func (p *Profile) Set(name, value string) error {
	if !ValidVarName(name) {
		return fmt.Errorf("--set %q: want NAME=VALUE with a name of letters, digits and _", name)
	}
	if _, declared := p.Vars[name]; !declared && !slices.Contains(p.referencedVars(), name) {
		known := p.knownVars()
		if len(known) == 0 {
			return fmt.Errorf("--set %s: %s uses no variables", name, p.Label())
		}
		msg := fmt.Sprintf("--set %s: %s has no variable %s (it has %s)", name, p.Label(), name, strings.Join(known, ", "))
		if s := suggest.Nearest(name, known); s != "" {
			msg = fmt.Sprintf("--set %s: %s has no variable %s; did you mean %s?", name, p.Label(), name, s)
		}
		return fmt.Errorf("%s", msg)
	}
	if p.Vars == nil {
		p.Vars = make(map[string]string)
	}
	p.Vars[name] = value
	return nil
}

// BindDataColumns notes the columns of the profile's data file: their
// ${NAME} placeholders are bound per request by the body templates, so
// they need no --set and Resolve leaves them in bodies.
func (p *Profile) BindDataColumns(columns []string) {
	p.dataVars = slices.Clone(columns)
}

// MissingVars lists, sorted, the variables used by a ${NAME} placeholder
// (in the target URL, headers, auth user, request paths, headers and
// inline bodies, and in body_file templates once ScanBodyFiles has read
// them) that have no value yet: each must be set with --set (or the URL
// replaced with --url) before the profile can run. A variable declared
// with an empty value is one the profile requires.
func (p *Profile) MissingVars() []string {
	var missing []string
	for _, name := range p.referencedVars() {
		if p.Vars[name] == "" && !slices.Contains(p.dataVars, name) {
			missing = append(missing, name)
		}
	}
	return missing
}

// Resolve returns a copy of the profile with every variable placeholder
// replaced by its value, ready for the engine; JMeter-style functions such
// as ${__time()} are left for the body template. It fails, naming them,
// when variables are missing.
func (p *Profile) Resolve() (*Profile, error) {
	if missing := p.MissingVars(); len(missing) > 0 {
		return nil, fmt.Errorf("%s: set %s (with --set NAME=VALUE or --url)", p.Label(), strings.Join(missing, ", "))
	}
	q := p.clone()
	sub := func(s string) string { return expandVars(s, p.Vars) }
	q.Target.URL = sub(q.Target.URL)
	q.Target.Headers = mapValues(q.Target.Headers, sub)
	if q.Target.Auth != nil {
		q.Target.Auth.User = sub(q.Target.Auth.User)
	}
	// Bodies keep the data columns' ${NAME} for the template, which binds
	// them per request.
	bodyVars := p.Vars
	if len(p.dataVars) > 0 {
		bodyVars = mapValues(p.Vars, nil)
		for _, c := range p.dataVars {
			delete(bodyVars, c)
		}
	}
	for i := range q.Requests {
		r := &q.Requests[i]
		r.Path, r.Body = sub(r.Path), expandVars(r.Body, bodyVars)
		r.Headers = mapValues(r.Headers, sub)
	}
	if err := q.validateTarget(); err != nil {
		if len(p.referencedVars()) == 0 {
			return nil, fmt.Errorf("%s: %w", p.Label(), err)
		}
		return nil, fmt.Errorf("%s, once its variables are set: %w", p.Label(), err)
	}
	return q, nil
}

// clone copies the profile deeply enough that Resolve's edits do not
// reach the original.
func (p *Profile) clone() *Profile {
	q := *p
	q.Vars = mapValues(p.Vars, nil)
	q.Target.Headers = mapValues(p.Target.Headers, nil)
	if p.Target.Auth != nil {
		a := *p.Target.Auth
		q.Target.Auth = &a
	}
	if p.Target.TLS != nil {
		t := *p.Target.TLS
		q.Target.TLS = &t
	}
	q.Requests = slices.Clone(p.Requests)
	for i := range q.Requests {
		q.Requests[i].Headers = mapValues(p.Requests[i].Headers, nil)
	}
	q.Samplers.PromQueries = mapValues(p.Samplers.PromQueries, nil)
	q.Thresholds = slices.Clone(p.Thresholds)
	q.Labels = maps.Clone(p.Labels)
	q.fileVars = slices.Clone(p.fileVars)
	q.dataVars = slices.Clone(p.dataVars)
	if p.Data != nil {
		d := *p.Data
		d.Columns = slices.Clone(p.Data.Columns)
		q.Data = &d
	}
	return &q
}

// ScanBodyFiles reads the body_file templates of the request mix and notes
// the ${NAME} variables they use, so that Set accepts them, MissingVars
// lists those without a value and Resolve refuses to run without them.
// Without it a body file's variables are checked only when the template
// is compiled, and a required one declared empty would be sent as "".
func (p *Profile) ScanBodyFiles() error {
	seen := map[string]bool{}
	for _, r := range p.Requests {
		if r.BodyFile == "" {
			continue
		}
		src, err := readBodyFile(r.BodyFile)
		if err != nil {
			return err
		}
		for _, n := range VarsIn(string(src)) {
			seen[n] = true
		}
	}
	p.fileVars = slices.Sorted(maps.Keys(seen))
	return nil
}

// readBodyFile reads a body file within inputfile.Body, so that a device
// such as /dev/zero does not hang the run before it starts.
func readBodyFile(path string) ([]byte, error) {
	return inputfile.ReadFile(path, "body file", inputfile.Body)
}

// referencedVars lists, sorted and once each, the variable names used by
// placeholders in the fields Resolve expands and in the body files
// ScanBodyFiles read.
func (p *Profile) referencedVars() []string {
	seen := map[string]bool{}
	add := func(s string) {
		for _, n := range VarsIn(s) {
			seen[n] = true
		}
	}
	for _, n := range p.fileVars {
		seen[n] = true
	}
	add(p.Target.URL)
	for _, v := range p.Target.Headers {
		add(v)
	}
	if p.Target.Auth != nil {
		add(p.Target.Auth.User)
	}
	for _, r := range p.Requests {
		add(r.Path)
		add(r.Body)
		for _, v := range r.Headers {
			add(v)
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// knownVars is every declared or referenced variable, sorted.
func (p *Profile) knownVars() []string {
	all := map[string]bool{}
	for n := range p.Vars {
		all[n] = true
	}
	for _, n := range p.referencedVars() {
		all[n] = true
	}
	return slices.Sorted(maps.Keys(all))
}

// VarsIn lists the variable names of the ${NAME} placeholders in s, in
// order of appearance. Placeholders whose name starts with __ are template
// functions (${__time()}), not variables.
func VarsIn(s string) []string {
	var names []string
	for {
		i, j, ok := NextPlaceholder(s)
		if !ok {
			return names
		}
		if name := placeholderName(s[i:j]); ValidVarName(name) {
			names = append(names, name)
		}
		s = s[j:]
	}
}

// expandVars replaces the placeholders of the variables in vars with their
// values, leaving other ${…} text alone.
func expandVars(s string, vars map[string]string) string {
	return ReplacePlaceholders(s, func(expr string) string {
		name := placeholderName(expr)
		if v, ok := vars[name]; ok && ValidVarName(name) {
			return v
		}
		return expr
	})
}

// ValidVarName accepts names of letters, digits and _, not starting with
// a digit; a leading __ is reserved for template functions. Importers use
// it to decide what can become a profile variable.
func ValidVarName(s string) bool {
	return validIdent(s) && !strings.HasPrefix(s, "__")
}

func validIdent(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// mapValues copies m, applying f to each value when f is not nil.
func mapValues(m map[string]string, f func(string) string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if f != nil {
			v = f(v)
		}
		out[k] = v
	}
	return out
}

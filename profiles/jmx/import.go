package jmx

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vesload/vesload/profiles"
)

// importer holds the state of one translation.
type importer struct {
	file  string
	vars  map[string]string
	warns []Warning
	// once remembers plan-wide notes already given (TLS, methods…).
	once map[string]bool
	// group numbers the thread group being translated (from 1; 0 out of
	// any), for the warnings' Group.
	group int
	// expectStatus and data come from a Response Assertion on the
	// response code and a CSV Data Set, wherever they are in the plan.
	expectStatus []string
	data         *profiles.Data
}

func (imp *importer) warn(el *element, format string, args ...any) {
	w := Warning{Element: el.shortClass(), Name: el.name(), Reason: fmt.Sprintf(format, args...), Group: imp.group}
	w.Line, w.Column = el.n.line, el.n.col
	imp.warns = append(imp.warns, w)
}

// warnOnce gives a plan-wide note a single time, at its first element.
func (imp *importer) warnOnce(key string, el *element, format string, args ...any) {
	if imp.once[key] {
		return
	}
	imp.once[key] = true
	imp.warn(el, format, args...)
}

// Import converts the JMeter plan read from r into a profile. name labels
// errors and names the profile (its base name without extension). The
// warnings list, in plan order, every element that was not translated or
// not faithfully. Invalid XML, a file that is not a JMeter plan and a plan
// without a Thread Group holding an HTTP sampler are errors, each one line
// with the position where it applies.
func Import(r io.Reader, name string) (*profiles.Profile, []Warning, error) {
	root, err := parseTree(r, name)
	if err != nil {
		return nil, nil, err
	}
	if root.tag != "jmeterTestPlan" {
		return nil, nil, fmt.Errorf("%s:%d:%d: not a JMeter plan: root element <%s>, want <jmeterTestPlan>", name, root.line, root.col, root.tag)
	}
	plan := findPlan(root)
	if plan == nil {
		return nil, nil, fmt.Errorf("%s:%d:%d: not a JMeter plan: no TestPlan element", name, root.line, root.col)
	}
	imp := &importer{file: name, vars: map[string]string{}, once: map[string]bool{}}
	p, err := imp.translate(plan)
	if err != nil {
		return nil, imp.warns, err
	}
	p.Name = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	sort.SliceStable(imp.warns, func(i, j int) bool { return imp.warns[i].Line < imp.warns[j].Line })
	warns := rollUp(imp.warns)
	if err := p.Validate(); err != nil {
		return nil, warns, fmt.Errorf("%s: cannot translate: %w", name, err)
	}
	return p, warns, nil
}

// findPlan returns the TestPlan element of <jmeterTestPlan><hashTree>.
func findPlan(root *node) *element {
	for _, c := range root.children {
		if c.tag != "hashTree" {
			continue
		}
		for _, el := range elementsOf(c) {
			if el.class() == "TestPlan" {
				return el
			}
		}
	}
	return nil
}

// translate walks the test plan: its variables, the configuration in
// scope of every thread group, the thread groups and their samplers.
func (imp *importer) translate(plan *element) (*profiles.Profile, error) {
	imp.userVariables(plan, plan.n.prop("TestPlan.user_defined_variables"))
	serial := plan.n.flag("TestPlan.serialize_threadgroups", false)
	sc := imp.extend(scope{}, plan.children)
	var groups []*group
	for _, el := range plan.children {
		if !el.enabled() || isScoped(el) {
			continue
		}
		switch {
		case el.class() == "ThreadGroup":
			imp.group++
			if g := imp.threadGroup(el, sc); g != nil {
				groups = append(groups, g)
			}
		case isThreadGroup(el):
			imp.warn(el, "%s", threadGroupReason(el))
		default:
			imp.warnElement(el)
		}
	}
	if len(groups) == 0 {
		return nil, fmt.Errorf("%s:%d:%d: nothing to import: no enabled Thread Group with an HTTP sampler", imp.file, plan.n.line, plan.n.col)
	}
	p := &profiles.Profile{}
	imp.buildTarget(p, groups)
	shape, summary := imp.buildShape(groups, serial)
	p.Load = shape
	p.Description = describe(plan, summary)
	p.Target.ExpectStatus = imp.expectStatus
	p.Data = imp.data
	if len(imp.vars) > 0 {
		p.Vars = imp.vars
	}
	return p, nil
}

func describe(plan *element, summary string) string {
	d := "JMeter plan " + strings.TrimSpace(plan.name())
	if c := strings.Join(strings.Fields(plan.str("TestPlan.comments")), " "); c != "" {
		d += " (" + c + ")"
	}
	return d + ": " + summary
}

// userVariables reads an Arguments list (the plan's User Defined
// Variables, or an Arguments config element) into profile variables.
func (imp *importer) userVariables(el *element, args *node) {
	if args == nil {
		return
	}
	for _, a := range args.items("Arguments.arguments") {
		name := strings.TrimSpace(a.str("Argument.name"))
		value := a.str("Argument.value")
		if name == "" {
			continue
		}
		if !profiles.ValidVarName(name) {
			imp.warn(el, "user defined variable %q is not a name vesload can use (letters, digits, _): not translated", name)
			continue
		}
		imp.vars[name] = imp.variableValue(name, value, el)
	}
}

// variableValue evaluates a user defined variable's value: a JMeter
// property reference keeps its default (settable with --set), other
// expressions are kept as written.
func (imp *importer) variableValue(name, value string, el *element) string {
	v := strings.TrimSpace(value)
	if strings.HasPrefix(v, "${__") && profiles.IsPlaceholder(v) {
		fn, args := splitCall(v[2 : len(v)-1])
		switch {
		case strings.EqualFold(fn, "__P") && len(args) > 0:
			if len(args) > 1 {
				return args[1]
			}
			return ""
		case strings.EqualFold(fn, "__property") && len(args) > 0:
			if len(args) > 2 {
				return args[2]
			}
			return ""
		}
	}
	if strings.Contains(value, "${") {
		imp.warn(el, "user defined variable %s = %q uses JMeter expressions: kept as written", name, value)
	}
	return value
}

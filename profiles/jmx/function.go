package jmx

import (
	"strconv"
	"strings"

	"github.com/vesload/vesload/profiles"
)

// translateText rewrites JMeter functions and variables in s into the
// template syntax of profiles: ${__time()}, ${__UUID()}, ${__counter(,)},
// ${__Random(a,b)} and ${NAME} variables. JMeter properties
// (${__P(name,default)}) become variables with their default. What has no
// equivalent is left as written and reported against el.
func (imp *importer) translateText(s string, el *element, what string) string {
	return profiles.ReplacePlaceholders(s, func(expr string) string { return imp.translateExpr(expr, el, what) })
}

// translateExpr translates one ${…} expression.
func (imp *importer) translateExpr(expr string, el *element, what string) string {
	inner := expr[2 : len(expr)-1]
	if !strings.HasPrefix(inner, "__") {
		return imp.variable(inner, expr, el, what)
	}
	name, args := splitCall(inner)
	switch strings.ToLower(name) {
	case "__time":
		if len(args) > 0 && strings.TrimSpace(args[0]) != "" {
			imp.warn(el, "%s: ${__time(%s,…)} formats the time; vesload's ${__time()} is epoch milliseconds", what, args[0])
		}
		return "${__time()}"
	case "__uuid":
		return "${__UUID()}"
	case "__counter":
		if len(args) > 1 && strings.TrimSpace(args[1]) != "" {
			imp.warn(el, "%s: ${__counter} stores into variable %s, which vesload does not do", what, args[1])
		}
		return "${__counter(,)}"
	case "__random":
		return imp.random(expr, args, el, what)
	case "__p", "__property":
		return imp.property(expr, name, args, el, what)
	}
	imp.warn(el, "%s: JMeter function %s has no vesload equivalent; left as written", what, name)
	return expr
}

func (imp *importer) random(expr string, args []string, el *element, what string) string {
	if len(args) < 2 {
		imp.warn(el, "%s: %s needs a minimum and a maximum; left as written", what, expr)
		return expr
	}
	lo, err1 := strconv.ParseInt(strings.TrimSpace(args[0]), 10, 64)
	hi, err2 := strconv.ParseInt(strings.TrimSpace(args[1]), 10, 64)
	if err1 != nil || err2 != nil {
		imp.warn(el, "%s: %s has bounds that are not whole numbers; left as written", what, expr)
		return expr
	}
	if len(args) > 2 && strings.TrimSpace(args[2]) != "" {
		imp.warn(el, "%s: ${__Random} stores into variable %s, which vesload does not do", what, args[2])
	}
	return "${__Random(" + strconv.FormatInt(lo, 10) + "," + strconv.FormatInt(hi, 10) + ")}"
}

// property turns ${__P(name,default)} or ${__property(name,var,default)}
// into the variable ${name} with the default as its value.
func (imp *importer) property(expr, fn string, args []string, el *element, what string) string {
	if len(args) == 0 || !profiles.ValidVarName(strings.TrimSpace(args[0])) {
		imp.warn(el, "%s: %s is not a property name vesload can turn into a variable; left as written", what, expr)
		return expr
	}
	name := strings.TrimSpace(args[0])
	def := ""
	switch {
	case strings.EqualFold(fn, "__P") && len(args) > 1:
		def = args[1]
	case len(args) > 2:
		def = args[2]
	}
	imp.declare(name, def, el, "JMeter property "+name)
	return "${" + name + "}"
}

// variable keeps ${NAME} as a profile variable, declaring it (empty, so it
// must be set) when the plan does not define it.
func (imp *importer) variable(name, expr string, el *element, what string) string {
	if !profiles.ValidVarName(name) {
		imp.warn(el, "%s: variable %s is not a name vesload can set (letters, digits, _); left as written", what, expr)
		return expr
	}
	if _, ok := imp.vars[name]; !ok {
		imp.declare(name, "", el, "variable "+name)
	}
	return expr
}

// declare adds a variable once; an empty value must be set before a run,
// which the warning says.
func (imp *importer) declare(name, value string, el *element, origin string) {
	if _, ok := imp.vars[name]; ok {
		return
	}
	imp.vars[name] = value
	if value == "" {
		imp.warn(el, "%s is not defined in the plan: it became variable ${%s}, to set with --set %s=VALUE", origin, name, name)
	}
}

// splitCall splits "__name(a,b\,c)" into its name and unescaped
// arguments; a call without parentheses has none.
func splitCall(inner string) (string, []string) {
	open := strings.IndexByte(inner, '(')
	if open < 0 || !strings.HasSuffix(inner, ")") {
		return inner, nil
	}
	body := inner[open+1 : len(inner)-1]
	var args []string
	var cur strings.Builder
	depth := 0
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\\' && i+1 < len(body):
			i++
			cur.WriteByte(body[i])
			continue
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case c == ',' && depth == 0:
			args = append(args, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteByte(c)
	}
	args = append(args, cur.String())
	if len(args) == 1 && args[0] == "" {
		args = nil
	}
	return inner[:open], args
}

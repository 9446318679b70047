package jmx

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/vesload/vesload/profiles"
)

// request is one translated HTTP sampler.
type request struct {
	el        *element
	name      string
	method    string
	scheme    string
	host      string // as translated: may be ${VAR}
	port      string
	path      string
	rawURL    string // as written in the plan, to match auth entries
	body      string
	headers   map[string]string
	user      string
	keepAlive bool
	connectMS int
	respMS    int
	weight    int
}

var methods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}

// sampler translates one HTTP sampler with the configuration in scope; it
// returns nil (with a warning) when the request cannot be expressed.
func (imp *importer) sampler(el *element, sc scope, weight int) *request {
	sc = imp.extend(sc, el.children)
	for _, c := range el.children {
		if c.enabled() && !isScoped(c) {
			imp.warnElement(c)
		}
	}
	r := &request{el: el, name: strings.TrimSpace(el.name()), weight: weight}
	if r.name == "" {
		r.name = "HTTP Request"
	}
	r.method = strings.ToUpper(strings.TrimSpace(el.str("HTTPSampler.method")))
	if r.method == "" {
		r.method = "GET"
	}
	if !slices.Contains(methods, r.method) {
		imp.warn(el, "method %s is not supported (want one of %s): sampler not translated", r.method, strings.Join(methods, ", "))
		return nil
	}
	imp.location(r, el, sc)
	imp.payload(r, el)
	r.headers = imp.headers(sc, el)
	r.user = imp.authUser(r, sc)
	r.keepAlive = el.n.flag("HTTPSampler.use_keepalive", true)
	r.connectMS, r.respMS = timeouts(el, sc)
	imp.samplerOptions(el)
	return r
}

// field reads a sampler field, falling back to the HTTP Request Defaults
// in scope (innermost first).
func field(el *element, sc scope, name string) string {
	if v := strings.TrimSpace(el.str(name)); v != "" {
		return v
	}
	for i := len(sc.defaults) - 1; i >= 0; i-- {
		if v := strings.TrimSpace(sc.defaults[i].str(name)); v != "" {
			return v
		}
	}
	return ""
}

// location fills scheme, host, port and path, turning placeholder hosts
// such as WORKER_IP into variables.
func (imp *importer) location(r *request, el *element, sc scope) {
	r.scheme = strings.ToLower(field(el, sc, "HTTPSampler.protocol"))
	host := field(el, sc, "HTTPSampler.domain")
	r.port = field(el, sc, "HTTPSampler.port")
	path := field(el, sc, "HTTPSampler.path")
	if host == "" && (strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://")) {
		if u, err := url.Parse(path); err == nil {
			r.scheme, host, r.port = u.Scheme, u.Hostname(), u.Port()
			path = u.RequestURI()
		}
	}
	if r.scheme == "" {
		r.scheme = "http"
		if r.port == "443" {
			r.scheme = "https"
		}
	}
	if path != "" && !strings.HasPrefix(path, "/") && !strings.HasPrefix(path, "${") {
		path = "/" + path
	}
	r.rawURL = r.scheme + "://" + host
	if r.port != "" {
		r.rawURL += ":" + r.port
	}
	r.rawURL += path
	r.host = imp.hostOf(host, el)
	r.port = imp.translateText(r.port, el, "port")
	r.path = imp.translateText(path, el, "path") + imp.query(r, el)
}

// hostOf translates the host; a bare upper-case word such as WORKER_IP is
// a placeholder the plan's users replaced by hand, so it becomes a
// variable.
func (imp *importer) hostOf(host string, el *element) string {
	if isPlaceholderHost(host) {
		if _, ok := imp.vars[host]; !ok {
			imp.vars[host] = ""
			imp.warn(el, "host %s is a placeholder: it became variable ${%s}; set it with --set %s=HOST or replace the URL with --url", host, host, host)
		}
		return "${" + host + "}"
	}
	return imp.translateText(host, el, "host")
}

func isPlaceholderHost(h string) bool {
	if !profiles.ValidVarName(h) || strings.ToUpper(h) != h {
		return false
	}
	return strings.ContainsFunc(h, func(r rune) bool { return r >= 'A' && r <= 'Z' })
}

// query turns the named arguments of a non-raw GET or DELETE sampler into
// a query string; other methods' form parameters are reported.
func (imp *importer) query(r *request, el *element) string {
	if el.n.flag("HTTPSampler.postBodyRaw", false) {
		return ""
	}
	var q []string
	for _, a := range el.n.items("HTTPsampler.Arguments") {
		name := a.str("Argument.name")
		if name == "" {
			continue
		}
		q = append(q, url.QueryEscape(name)+"="+imp.translateText(a.str("Argument.value"), el, "parameter "+name))
	}
	if len(q) == 0 {
		return ""
	}
	if r.method != "GET" && r.method != "DELETE" && r.method != "HEAD" {
		imp.warn(el, "form parameters (%d) not translated: put the body in the request's body template", len(q))
		return ""
	}
	sep := "?"
	if strings.Contains(r.path, "?") {
		sep = "&"
	}
	return sep + strings.Join(q, "&")
}

// payload reads a raw body ("Body Data"), translates its functions and
// checks that a JSON body is JSON.
func (imp *importer) payload(r *request, el *element) {
	if !el.n.flag("HTTPSampler.postBodyRaw", false) {
		return
	}
	args := el.n.items("HTTPsampler.Arguments")
	if len(args) == 0 {
		return
	}
	body := args[0].str("Argument.value")
	body = strings.ReplaceAll(body, "\r\n", "\n")
	body = strings.ReplaceAll(body, "\r", "\n")
	line := bodyStartLine(args[0])
	r.body = imp.translateText(body, el, "body")
	if looksJSON(r.body) {
		var notes []string
		r.body, notes = uniqueEvents(r.body)
		for _, n := range notes {
			imp.warn(el, "%s", n)
		}
	}
	if problem := checkJSON(r.body, line); problem != "" {
		imp.warn(el, "body is not valid JSON: %s; it is imported as written, and %s", problem, collectorAnswer(r.body))
	}
	if looksJSON(r.body) {
		// White space around JSON means nothing; without it the body
		// reads well as a YAML block.
		r.body = strings.TrimLeft(r.body, " \t\n")
	}
}

// looksJSON reports a body that starts, after white space, like JSON.
func looksJSON(body string) bool {
	t := strings.TrimSpace(body)
	return t != "" && (t[0] == '{' || t[0] == '[')
}

// bodyStartLine is the plan line where a body's text starts (after the
// opening tag of its stringProp).
func bodyStartLine(arg *node) int {
	if p := arg.prop("Argument.value"); p != nil {
		return p.line
	}
	return arg.line
}

// authUser finds the HTTP Authorization Manager entry for the request
// (innermost manager first, entries in order, URL prefix match) and keeps
// its user; the password is never copied.
func (imp *importer) authUser(r *request, sc scope) string {
	for i := len(sc.auths) - 1; i >= 0; i-- {
		am := sc.auths[i]
		for _, a := range am.n.items("AuthManager.auth_list") {
			prefix := strings.TrimSpace(a.str("Authorization.url"))
			if prefix != "" && !strings.HasPrefix(r.rawURL, prefix) {
				continue
			}
			if m := strings.ToUpper(a.str("Authorization.mechanism")); m != "" && m != "BASIC" && m != "BASIC_DIGEST" {
				imp.warnOnce(fmt.Sprintf("mech %p", a), am, "%s authentication not translated: vesload does basic authentication", m)
			}
			imp.warnOnce(fmt.Sprintf("auth %p", am.n), am,
				"password not imported: vesload reads it at run time from $%s (or set target.auth.password_file)", passwordEnv)
			return imp.translateText(strings.TrimSpace(a.str("Authorization.username")), am, "user")
		}
	}
	return ""
}

// passwordEnv is where an imported plan's password is read from.
const passwordEnv = "VESLOAD_PASSWORD"

// samplerOptions reports sampler settings that have no equivalent.
func (imp *importer) samplerOptions(el *element) {
	n := el.n
	if n.flag("HTTPSampler.DO_MULTIPART_POST", false) {
		imp.warn(el, "multipart POST not translated: the body is sent as is")
	}
	if n.flag("HTTPSampler.image_parser", false) {
		imp.warn(el, "embedded resources are not fetched")
	}
	if v := strings.TrimSpace(n.str("HTTPSampler.ipSource")); v != "" {
		imp.warn(el, "source address %s not translated", v)
	}
	if v := strings.TrimSpace(n.str("HTTPSampler.proxyHost")); v != "" {
		imp.warn(el, "proxy %s not translated", v)
	}
}

// timeouts reads the sampler's connect and response timeouts in ms.
func timeouts(el *element, sc scope) (connect, response int) {
	connect, _ = strconv.Atoi(field(el, sc, "HTTPSampler.connect_timeout"))
	response, _ = strconv.Atoi(field(el, sc, "HTTPSampler.response_timeout"))
	return max(connect, 0), max(response, 0)
}

package jmx

import (
	"fmt"
	"net/http"
	"strings"
)

// scope is the configuration that applies to a sampler: in JMeter a
// config element or timer applies to the samplers at its level and below.
// Lists run from the outermost element to the innermost, and inner ones
// win.
type scope struct {
	headers  []*element
	auths    []*element
	defaults []*element
	timers   []*element
}

// throughput timers translate into the load shape.
const (
	classConstantThroughput = "ConstantThroughputTimer"
	classPreciseThroughput  = "PreciseThroughputTimer"
	classShapingTimer       = "kg.apc.jmeter.timers.VariableThroughputTimer"
)

// extend adds the config elements and throughput timers among els to sc,
// reading Arguments elements into variables as it goes.
func (imp *importer) extend(sc scope, els []*element) scope {
	out := scope{
		headers:  append([]*element(nil), sc.headers...),
		auths:    append([]*element(nil), sc.auths...),
		defaults: append([]*element(nil), sc.defaults...),
		timers:   append([]*element(nil), sc.timers...),
	}
	for _, el := range els {
		if !el.enabled() {
			continue
		}
		switch {
		case el.class() == "HeaderManager":
			out.headers = append(out.headers, el)
		case el.class() == "AuthManager":
			out.auths = append(out.auths, el)
		case isHTTPDefaults(el):
			out.defaults = append(out.defaults, el)
		case el.class() == "Arguments":
			imp.userVariables(el, el.n)
		case isThroughputTimer(el):
			out.timers = append(out.timers, el)
		}
	}
	return out
}

// isScoped reports whether el is one of the elements extend consumes.
func isScoped(el *element) bool {
	switch el.class() {
	case "HeaderManager", "AuthManager", "Arguments":
		return true
	}
	return isHTTPDefaults(el) || isThroughputTimer(el)
}

func isHTTPDefaults(el *element) bool {
	return el.class() == "ConfigTestElement" && el.gui() == "HttpDefaultsGui"
}

func isThroughputTimer(el *element) bool {
	switch el.class() {
	case classConstantThroughput, classPreciseThroughput, classShapingTimer:
		return true
	}
	return false
}

func isHTTPSampler(el *element) bool {
	switch el.class() {
	case "HTTPSamplerProxy", "HTTPSampler", "HTTPSampler2":
		return true
	}
	return false
}

func isThreadGroup(el *element) bool {
	c := el.class()
	return strings.HasSuffix(c, "ThreadGroup") || strings.HasPrefix(c, "kg.apc.jmeter.threads.")
}

func threadGroupReason(el *element) string {
	switch el.class() {
	case "SetupThreadGroup", "PostThreadGroup":
		return "setUp/tearDown thread groups are not translated: run their requests separately"
	}
	return "this kind of thread group is not translated: express its load as stages, a ramp or a Throughput Shaping Timer in a plain Thread Group"
}

// warnElement reports an element that the import does not translate,
// with the reason for its family.
func (imp *importer) warnElement(el *element) {
	switch {
	case el.class() == "ResponseAssertion" && imp.responseAssertion(el):
		return
	case el.class() == "CSVDataSet" && imp.csvDataSet(el):
		return
	}
	imp.warn(el, "%s", elementReason(el))
}

func elementReason(el *element) string {
	c := el.class()
	switch {
	case c == "ResultCollector":
		return "listener not translated: vesload writes its own result (-o) and reports"
	case c == "BackendListener" && backendName(el) == "InfluxDB":
		return "backend listener not kept in the profile: give the run --influx-url http://HOST:8086/write?db=DB and it writes the same per-second points to InfluxDB"
	case c == "BackendListener":
		return "backend listener not translated: use vesload's result file (-o) and Prometheus metrics instead of " + backendName(el)
	case c == "Summariser":
		return "summariser not translated: vesload prints its own progress"
	case strings.HasSuffix(c, "Assertion"):
		return "assertion not translated: vesload checks the response code (--expect-status, 2xx by default), not bodies"
	case strings.HasSuffix(c, "Timer"):
		return "timer not translated: vesload sets arrival times from the load shape, without think time"
	case strings.HasSuffix(c, "PreProcessor") || strings.HasSuffix(c, "PostProcessor") || strings.HasSuffix(c, "Extractor"):
		return "pre/post-processor not translated: vesload does not run scripts or extract values"
	case strings.HasSuffix(c, "Sampler") || strings.HasSuffix(c, "SamplerProxy"):
		return "sampler not translated: only HTTP requests are"
	case strings.HasSuffix(c, "Controller"):
		return "controller logic not translated; its HTTP samplers are part of the mix"
	case c == "CookieManager":
		return "cookie manager not translated: vesload sends no cookies"
	case c == "CacheManager" || c == "DNSCacheManager":
		return "cache manager not translated"
	case c == "CSVDataSet":
		return "CSV data set without a file name not translated: give the file with --data-file"
	case c == "KeystoreConfig":
		return "keystore not translated: set target.tls.cert and target.tls.key"
	case c == "ConfigTestElement":
		return "config element not translated"
	}
	return "element not translated"
}

func backendName(el *element) string {
	cls := el.str("classname")
	switch {
	case strings.Contains(strings.ToLower(cls), "influx"):
		return "InfluxDB"
	case strings.Contains(strings.ToLower(cls), "graphite"):
		return "Graphite"
	}
	return "the backend"
}

// headers merges the Header Managers in scope (inner ones win, names
// compared without case), dropping credentials with a warning.
func (imp *importer) headers(sc scope, sampler *element) map[string]string {
	values := map[string]string{}
	canonical := map[string]string{}
	for _, hm := range sc.headers {
		for _, h := range hm.n.items("HeaderManager.headers") {
			name := strings.TrimSpace(h.str("Header.name"))
			if name == "" {
				continue
			}
			switch http.CanonicalHeaderKey(name) {
			case "Authorization", "Proxy-Authorization":
				imp.warnOnce(fmt.Sprintf("authz %p %s", hm.n, name), hm,
					"header %s not imported: credentials are never written in a profile; use target.auth with password_env or password_file", name)
				continue
			}
			key := strings.ToLower(name)
			if prev, ok := canonical[key]; ok {
				name = prev
			} else {
				canonical[key] = name
			}
			values[name] = imp.translateText(h.str("Header.value"), sampler, "header "+name)
		}
	}
	return values
}

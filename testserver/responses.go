package testserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Response bodies and content types, as dcaegen2-collectors-ves sends
// them (VesRestController, ApiException, HealthCheckController,
// ApiAuthInterceptor, and Spring Boot's error page for 404/405/415).
const (
	successBody     = "Successfully send event" // sic: the collector's text
	healthBody      = "I'm good"
	welcomeBody     = "Welcome to VESCollector"
	contentJSON     = "application/json"
	contentText     = "text/plain;charset=UTF-8"
	svcExceptionKey = "ServiceException"
	polExceptionKey = "PolicyException"
	publishFailText = "The following service error occurred: %1. Error code is %2"
)

// reply is one canned response.
type reply struct {
	status int
	body   []byte
}

// replies holds every fixed response of one emulator.
type replies struct {
	success, badJSON, schema, missingNS, emptyNS reply
	mixedDomains, mixedNS, unauthorized          reply
	publishFailed, queueFull, tooLarge           reply
	stndInvalid, noLocalSchema, badInternalRef   reply
	unrouted                                     reply
}

// newReplies builds the canned responses for a compatibility mode. In
// v7.2 mode every publish failure becomes 500 with the "Internal Server
// Error" variables; otherwise it is 503 carrying the downstream status
// (429 when the pending-acquire queue is full).
func newReplies(legacy bool) replies {
	r := replies{
		success:      reply{202, []byte(successBody)},
		badJSON:      apiError(400, svcExceptionKey, "SVC0002", "Incorrect JSON payload"),
		schema:       apiError(400, svcExceptionKey, "SVC0002", "Bad Parameter (JSON does not conform to schema)"),
		missingNS:    apiError(400, svcExceptionKey, "SVC2006", "Mandatory input %1 %2 is missing from request", "attribute", "event.commonEventHeader.stndDefinedNamespace"),
		emptyNS:      apiError(400, svcExceptionKey, "SVC2006", "Mandatory input %1 %2 is empty in request", "attribute", "event.commonEventHeader.stndDefinedNamespace"),
		mixedDomains: apiError(400, svcExceptionKey, "SVC0001", "Different value of domain fields in Batch Event"),
		mixedNS:      apiError(400, svcExceptionKey, "SVC0001", "Value of stndDefinedNamespace fields have to be same when domain is stndDefined"),
		unauthorized: apiError(401, polExceptionKey, "POL2000", "Unauthorized user"),
		tooLarge:     apiError(413, svcExceptionKey, "SVC2000", publishFailText, "Request Entity Too Large", "413"),
		stndInvalid: apiError(400, svcExceptionKey, "SVC2000", publishFailText,
			"event.stndDefinedFields.data invalid against event.stndDefinedFields.schemaReference", "400"),
		noLocalSchema: apiError(400, svcExceptionKey, "SVC2004", "Invalid input value for %1 %2: %3",
			"attribute", "event.stndDefinedFields.schemaReference", "Referred external schema not present in schema repository"),
		badInternalRef: apiError(400, svcExceptionKey, "SVC2000", publishFailText,
			"event.stndDefinedFields.schemaReference value does not correspond to any external event schema file in externalSchema repo", "400"),
		unrouted: apiError(400, svcExceptionKey, "SVC2000", publishFailText, "No domain defined for stream id", "400"),
	}
	r.publishFailed = apiError(500, svcExceptionKey, "SVC2000", publishFailText, "Internal Server Error", "500")
	r.queueFull = r.publishFailed
	if legacy {
		r.success.status = 200
		r.publishFailed = apiError(503, svcExceptionKey, "SVC2000", publishFailText, "Service Unavailable", "503")
		r.queueFull = apiError(503, svcExceptionKey, "SVC2000", publishFailText, "Too Many Requests", "429")
	}
	return r
}

// forOutcome returns the response to a refused body.
func (r *replies) forOutcome(o outcome) reply {
	switch o {
	case outcomeBadJSON:
		return r.badJSON
	case outcomeMissingNamespace:
		return r.missingNS
	case outcomeEmptyNamespace:
		return r.emptyNS
	case outcomeMixedDomains:
		return r.mixedDomains
	case outcomeMixedNamespaces:
		return r.mixedNS
	case outcomeStndInvalid:
		return r.stndInvalid
	case outcomeNoLocalSchema:
		return r.noLocalSchema
	case outcomeBadInternalRef:
		return r.badInternalRef
	case outcomeUnrouted:
		return r.unrouted
	}
	return r.schema
}

// apiError renders the collector's error body:
// {"requestError":{"ServiceException":{"messageId":…,"text":…,"variables":[…]}}}
// ("variables" only when there are some, as ApiException.toJSON does).
func apiError(status int, kind, id, text string, vars ...string) reply {
	type exception struct {
		MessageID string   `json:"messageId"`
		Text      string   `json:"text"`
		Variables []string `json:"variables,omitempty"`
	}
	body, err := json.Marshal(map[string]map[string]exception{
		"requestError": {kind: {MessageID: id, Text: text, Variables: vars}},
	})
	if err != nil { // cannot happen: the value is made of strings only
		body = []byte(fmt.Sprintf(`{"requestError":{%q:{"messageId":%q}}}`, kind, id))
	}
	return reply{status, body}
}

// unsupportedVersion is the collector's answer to /eventListener/vN for
// a version it has no schema for: 400 with a plain sentence.
func unsupportedVersion(version []byte) []byte {
	return fmt.Appendf(nil, "API version %s is not supported", version)
}

// springError renders Spring Boot's JSON error page, which the collector
// sends for requests no controller takes (404, 405, 415).
func springError(now time.Time, status int, reason string, path []byte) []byte {
	body, _ := json.Marshal(struct {
		Timestamp string `json:"timestamp"`
		Status    int    `json:"status"`
		Error     string `json:"error"`
		Path      string `json:"path"`
	}{now.UTC().Format("2006-01-02T15:04:05.000+00:00"), status, reason, string(path)})
	return body
}

// The collector checks X-MinorVersion against its API description
// (etc/api_version_description.json lists 4.7.2, 5.4.1 and 7.2): a minor
// version it does not list is refused with 400. Its controller answers
// with ApiException.INVALID_CUSTOM_HEADER.toString(), and as that enum
// does not override toString, the body is the constant's name, not the
// SVC0002 "Bad Parameter (Incorrect request api version)" JSON the enum
// defines; the emulator sends what the collector sends.
const (
	minorVersionHeader      = "X-MinorVersion"
	invalidCustomHeaderBody = "INVALID_CUSTOM_HEADER"
)

// minorVersions are the minor versions the API description lists, by
// path version; versions it does not describe list none.
var minorVersions = map[string]string{"v4": "7", "v5": "4", "v7": "2"}

// minorVersionSent returns the X-MinorVersion value the collector sees.
// It reads the header from a map keyed by the names as the client spelled
// them (the first spelling of a name counts) and looks up
// "X-MinorVersion" exactly, so a header spelled otherwise (x-minorversion,
// or X-Minorversion as Go's clients write it) is not seen at all. value
// is the header's first value, raw the header block as received; without
// one the value stands.
func minorVersionSent(value, raw []byte) []byte {
	if len(value) == 0 {
		return nil
	}
	for len(raw) > 0 {
		var line []byte
		line, raw, _ = bytes.Cut(raw, []byte("\n"))
		name, _, ok := bytes.Cut(line, []byte(":"))
		if ok && bytes.EqualFold(name, []byte(minorVersionHeader)) {
			if string(name) == minorVersionHeader {
				return value
			}
			return nil
		}
	}
	return value
}

// minorVersionOK reports whether an X-MinorVersion header (empty when
// absent: the header is optional) is one the collector lists for version.
func minorVersionOK(version, minor []byte) bool {
	if len(minor) == 0 {
		return true
	}
	listed, ok := minorVersions[string(version)]
	return ok && string(bytes.TrimSpace(minor)) == listed
}

package testserver

// This file holds the built-in rules the emulator falls back to when it
// has no schema directory (Options.SchemaDir): the commonEventHeader of
// CommonEventFormat_28.4.1 (API v5, also used for v1–v4) and of
// CommonEventFormat_30.2.1_ONAP (API v7), plus the set of keys allowed
// in a v7 event object. With the schema files the whole event is
// validated against the collector's own schemas instead (schemas.go).

// fieldKind is the JSON type a header field must have.
type fieldKind uint8

const (
	kindString  fieldKind = iota
	kindNumber            // any JSON number
	kindInteger           // a number literal without fraction or exponent
	kindObject
)

// headerField is the rule for one commonEventHeader property.
type headerField struct {
	name     string
	path     string // "commonEventHeader.<name>", for error details
	kind     fieldKind
	required bool
	enum     []string // allowed values of a string field; nil: any
	bit      uint32   // position in the required-fields mask
}

// ruleset is what one API version checks.
type ruleset struct {
	header       map[string]*headerField
	requiredMask uint32
	closedHeader bool                // additionalProperties: false on the header
	eventKeys    map[string]struct{} // allowed keys of an event; nil: any
}

// newRuleset builds a ruleset from its fields, numbering the required ones.
func newRuleset(closed bool, eventKeys []string, fields ...headerField) *ruleset {
	r := &ruleset{header: make(map[string]*headerField, len(fields)), closedHeader: closed}
	var n uint32
	for i := range fields {
		f := fields[i]
		f.path = "commonEventHeader." + f.name
		if f.required {
			f.bit = 1 << n
			r.requiredMask |= f.bit
			n++
		}
		r.header[f.name] = &f
	}
	if eventKeys != nil {
		r.eventKeys = make(map[string]struct{}, len(eventKeys))
		for _, k := range eventKeys {
			r.eventKeys[k] = struct{}{}
		}
	}
	return r
}

// commonFields are the header properties both schema generations share;
// domain and version differ and are added per version.
func commonFields() []headerField {
	return []headerField{
		{name: "eventId", kind: kindString, required: true},
		{name: "eventName", kind: kindString, required: true},
		{name: "eventType", kind: kindString},
		{name: "internalHeaderFields", kind: kindObject},
		{name: "lastEpochMicrosec", kind: kindNumber, required: true},
		{name: "nfcNamingCode", kind: kindString},
		{name: "nfNamingCode", kind: kindString},
		{name: "priority", kind: kindString, required: true, enum: []string{"High", "Medium", "Normal", "Low"}},
		{name: "reportingEntityId", kind: kindString},
		{name: "reportingEntityName", kind: kindString, required: true},
		{name: "sequence", kind: kindInteger, required: true},
		{name: "sourceId", kind: kindString},
		{name: "sourceName", kind: kindString, required: true},
		{name: "startEpochMicrosec", kind: kindNumber, required: true},
	}
}

// rulesV5 follows CommonEventFormat_28.4.1: version is a number and the
// header and event accept extra properties.
func rulesV5() *ruleset {
	v5Domains := []string{"fault", "heartbeat", "measurementsForVfScaling", "mobileFlow", "other",
		"sipSignaling", "stateChange", "syslog", "thresholdCrossingAlert", "voiceQuality"}
	f := append(commonFields(),
		headerField{name: "domain", kind: kindString, required: true, enum: v5Domains},
		headerField{name: "version", kind: kindNumber, required: true},
	)
	return newRuleset(false, nil, f...)
}

// rulesV7 follows CommonEventFormat_30.2.1_ONAP: version and
// vesEventListenerVersion are enumerated strings, and neither the header
// nor the event accepts unknown properties (which is why the CSIT sample
// with a "dummy" header field is rejected).
func rulesV7() *ruleset {
	v7Domains := []string{"fault", "heartbeat", "measurement", "mobileFlow", "notification", "other",
		"perf3gpp", "pnfRegistration", "sipSignaling", "stateChange", "stndDefined", "syslog",
		"thresholdCrossingAlert", "voiceQuality"}
	f := append(commonFields(),
		headerField{name: "domain", kind: kindString, required: true, enum: v7Domains},
		headerField{name: "version", kind: kindString, required: true, enum: []string{"4.0", "4.0.1", "4.1"}},
		headerField{name: "vesEventListenerVersion", kind: kindString, required: true,
			enum: []string{"7.0", "7.0.1", "7.1", "7.1.1", "7.2", "7.2.1"}},
		headerField{name: "nfVendorName", kind: kindString},
		headerField{name: "stndDefinedNamespace", kind: kindString},
		headerField{name: "timeZoneOffset", kind: kindString},
	)
	events := []string{"commonEventHeader", "faultFields", "heartbeatFields", "measurementFields",
		"mobileFlowFields", "notificationFields", "otherFields", "perf3gppFields",
		"pnfRegistrationFields", "sipSignalingFields", "stateChangeFields", "stndDefinedFields",
		"syslogFields", "thresholdCrossingAlertFields", "voiceQualityFields"}
	return newRuleset(true, events, f...)
}

// apiVersions maps the path segment of a supported API version to its
// rules, as the collector's collector.schema.file maps v1–v5 and v7.
func apiVersions() map[string]*ruleset {
	v5, v7 := rulesV5(), rulesV7()
	return map[string]*ruleset{"v1": v5, "v2": v5, "v3": v5, "v4": v5, "v5": v5, "v7": v7}
}

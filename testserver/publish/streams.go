package publish

// Default output topics of the collector's stream mapping: domain →
// stream id (collector.dmaap.streamid in the collector's properties),
// stream id → topic (its ves-dmaap-config.json). Domains whose stream
// has no topic there (notification, …) are not published, as in the
// collector. stndDefined events are routed by their
// stndDefinedNamespace.
var defaultTopics = map[string]string{
	"fault":                     "unauthenticated.SEC_FAULT_OUTPUT",
	"heartbeat":                 "unauthenticated.SEC_HEARTBEAT_OUTPUT",
	"measurement":               "unauthenticated.VES_MEASUREMENT_OUTPUT",
	"measurementsForVfScaling":  "unauthenticated.VES_MEASUREMENT_OUTPUT",
	"other":                     "unauthenticated.SEC_OTHER_OUTPUT",
	"pnfRegistration":           "unauthenticated.VES_PNFREG_OUTPUT",
	"syslog":                    "DCAE-SE-COLLECTOR-EVENTS-DEV",
	"stateChange":               "DCAE-SE-COLLECTOR-EVENTS-DEV",
	"thresholdCrossingAlert":    "DCAE-SE-COLLECTOR-EVENTS-DEV",
	"mobileFlow":                "DCAE-SE-COLLECTOR-EVENTS-DEV",
	"voiceQuality":              "DCAE-SE-COLLECTOR-EVENTS-DEV",
	"sipSignaling":              "DCAE-SE-COLLECTOR-EVENTS-DEV",
	"3GPP-FaultSupervision":     "unauthenticated.SEC_3GPP_FAULTSUPERVISION_OUTPUT",
	"3GPP-Heartbeat":            "unauthenticated.SEC_3GPP_HEARTBEAT_OUTPUT",
	"3GPP-Provisioning":         "unauthenticated.SEC_3GPP_PROVISIONING_OUTPUT",
	"3GPP-PerformanceAssurance": "unauthenticated.SEC_3GPP_PERFORMANCEASSURANCE_OUTPUT",
}

// HVPerf3gppTopic is where HV-VES routes perf3gpp events by default.
const HVPerf3gppTopic = "HV_VES_PERF3GPP"

// Topic returns the output topic of an event of domain (for stndDefined
// events, of namespace), or "" when the collector would not publish it.
func Topic(domain, namespace string) string {
	if domain == "stndDefined" {
		return defaultTopics[namespace]
	}
	return defaultTopics[domain]
}

// Topics returns every default output topic once, for a broker to create
// them up front.
func Topics() []string {
	seen := map[string]bool{HVPerf3gppTopic: true}
	out := []string{HVPerf3gppTopic}
	for _, t := range defaultTopics {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// BuiltinNamespace is the stndDefinedNamespace of vesload's built-in
// stndDefined event (loadgen/ves).
const BuiltinNamespace = "3GPP-FaultSupervision"

// BuiltinURL is the kafka:// URL of the topic broker publishes the
// built-in events of domain to (a stndDefined event in BuiltinNamespace),
// or "" when the collector would not publish them: where a run against
// the built-in emulator follows its events.
func BuiltinURL(broker, domain string) string {
	ns := ""
	if domain == "stndDefined" {
		ns = BuiltinNamespace
	}
	topic := Topic(domain, ns)
	if topic == "" {
		return ""
	}
	return TopicURL(broker, topic)
}

// TopicURL is the --consume URL of topic on broker (HOST:PORT), for a run
// that follows its events onto the built-in emulator's broker: REST
// events by the stream mapping (BuiltinURL), HV-VES messages by the
// HV-VES emulator's routes.
func TopicURL(broker, topic string) string { return "kafka://" + broker + "/" + topic }

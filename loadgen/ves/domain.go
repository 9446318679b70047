package ves

import "strings"

// domainSpec describes one built-in event. Its text fields use template
// syntax (TEMPLATES.md) and are compiled once by NewEvent; the padding
// point is where the event can grow without leaving the schema: a string
// member of a hashMap, or the end of a free-text string.
type domainSpec struct {
	name      string // commonEventHeader.domain
	eventName string
	priority  string
	// header holds extra commonEventHeader members, each with a leading comma.
	header string
	// body is the domain block up to the padding point.
	body string
	// padOpen and padClose surround the padding when Size asks for it.
	padOpen, padClose string
	// closing ends the domain block and the event.
	closing string
}

// padKey is the hashMap member that carries padding. Collectors pass
// hashMap members through unchanged, and the name says where the bytes
// came from.
const padKey = `,"vesloadPadding":"`

// builtinDomains lists the built-in events in the order Domains reports
// them. The contents follow ONAP's own samples (the collector's test
// resources and the JMeter plans) so that collectors and their consumers
// see realistic events; every one validates against
// CommonEventFormat_30.2.1_ONAP.json.
func builtinDomains() []domainSpec {
	return []domainSpec{
		{
			// Modelled on the ONAP JMeter plans' fault event.
			name:      "fault",
			eventName: "Fault_vesload_PilotNumberPoolExhaustion",
			priority:  "High",
			header: `,"reportingEntityId":"7e5a0ad0-1c3b-4f0e-9d51-0000000000e1"` +
				`,"sourceId":"7e5a0ad0-1c3b-4f0e-9d51-0000000000a1"` +
				`,"nfVendorName":"vesload","nfNamingCode":"scfx","nfcNamingCode":"ssc","timeZoneOffset":"UTC+00:00"`,
			body: `"faultFields":{"faultFieldsVersion":"4.0","alarmCondition":"PilotNumberPoolExhaustion",` +
				`"eventSourceType":"other","specificProblem":"Calls cannot complete - pilot numbers are unavailable",` +
				`"eventSeverity":"CRITICAL","vfStatus":"Active","alarmAdditionalInformation":{"PilotNumberPoolSize":"1000"`,
			padOpen:  padKey,
			padClose: `"`,
			closing:  `}}}`,
		},
		{
			name:      "measurement",
			eventName: "Measurement_vesload_vAfx",
			priority:  "Normal",
			header:    `,"eventType":"applicationVnf","nfNamingCode":"AFX","nfcNamingCode":"AFX","timeZoneOffset":"UTC+00:00"`,
			body: `"measurementFields":{"measurementFieldsVersion":"4.0","measurementInterval":60,` +
				`"concurrentSessions":{{.Random 0 5000}},"requestRate":{{.Random 0 2000}},` +
				`"cpuUsageArray":[` +
				`{"cpuIdentifier":"cpu0","percentUsage":{{.Random 0 100}},"cpuUsageUser":{{.Random 0 60}},"cpuUsageSystem":{{.Random 0 30}}},` +
				`{"cpuIdentifier":"cpu1","percentUsage":{{.Random 0 100}},"cpuUsageUser":{{.Random 0 60}},"cpuUsageSystem":{{.Random 0 30}}}],` +
				`"memoryUsageArray":[{"vmIdentifier":"RAM","memoryConfigured":8076596,` +
				`"memoryFree":{{.Random 1000000 6000000}},"memoryUsed":{{.Random 300000 2000000}},"memoryCached":976988,"memoryBuffered":198020}],` +
				`"nicPerformanceArray":[{"nicIdentifier":"ens2","valuesAreSuspect":"false",` +
				`"receivedOctetsDelta":{{.Random 0 10000000}},"transmittedOctetsDelta":{{.Random 0 10000000}},` +
				`"receivedTotalPacketsDelta":{{.Random 0 10000}},"transmittedTotalPacketsDelta":{{.Random 0 10000}}}],` +
				`"additionalFields":{"generator":"vesload"`,
			padOpen:  padKey,
			padClose: `"`,
			closing:  `}}}`,
		},
		{
			name:      "heartbeat",
			eventName: "Heartbeat_vesload_vDNS",
			priority:  "Normal",
			header:    `,"eventType":"platform","nfNamingCode":"VNFA","nfcNamingCode":"VNFA","timeZoneOffset":"UTC+00:00"`,
			body:      `"heartbeatFields":{"heartbeatFieldsVersion":"3.0","heartbeatInterval":60,"additionalFields":{"generator":"vesload"`,
			padOpen:   padKey,
			padClose:  `"`,
			closing:   `}}}`,
		},
		{
			// Modelled on the PM FileReady notification that ONAP's DFC consumes.
			name:      "notification",
			eventName: "Notification_vesload_FileReady",
			priority:  "Normal",
			header:    `,"timeZoneOffset":"UTC+00:00"`,
			body: `"notificationFields":{"notificationFieldsVersion":"2.0","changeIdentifier":"PM_MEAS_FILES","changeType":"FileReady",` +
				`"arrayOfNamedHashMap":[{"name":"A20181002.0000-1000-0015-1000_5G.xml.gz","hashMap":{` +
				`"location":"sftp://sftpserver:22/A20181002.0000-1000-0015-1000_5G.xml.gz","compression":"gzip",` +
				`"fileFormatType":"org.3GPP.32.435#measCollec","fileFormatVersion":"V10"}}],` +
				`"additionalFields":{"generator":"vesload"`,
			padOpen:  padKey,
			padClose: `"`,
			closing:  `}}}`,
		},
		{
			name:      "pnfRegistration",
			eventName: "pnfRegistration_vesload_gNB",
			priority:  "Normal",
			header:    `,"eventType":"pnfRegistration","nfNamingCode":"gNB","nfcNamingCode":"oam","timeZoneOffset":"UTC+00:00"`,
			body: `"pnfRegistrationFields":{"pnfRegistrationFieldsVersion":"2.1","vendorName":"vesload","serialNumber":"6061ZW3",` +
				`"modelNumber":"AJ02","unitType":"AirScale","unitFamily":"BBU","softwareVersion":"5gDUv18.05.201",` +
				`"manufactureDate":"24032016","lastServiceDate":"15022017","macAddress":"02:42:c0:00:02:0d",` +
				`"oamV4IpAddress":"192.0.2.13","oamV6IpAddress":"2001:db8:31:1041:204a::1337",` +
				`"additionalFields":{"generator":"vesload"`,
			padOpen:  padKey,
			padClose: `"`,
			closing:  `}}}`,
		},
		{
			// Modelled on the collector's own stndDefined test event: the data
			// member is a 3GPP NotifyNewAlarm; padding extends additionalText.
			name:      "stndDefined",
			eventName: "StndDefined_vesload_NotifyNewAlarm",
			priority:  "High",
			header:    `,"stndDefinedNamespace":"3GPP-FaultSupervision","timeZoneOffset":"UTC+00:00"`,
			body: `"stndDefinedFields":{"stndDefinedFieldsVersion":"1.0",` +
				`"schemaReference":"https://forge.3gpp.org/rep/sa5/MnS/blob/SA88-Rel16/OpenAPI/faultMnS.yaml#components/schemas/NotifyNewAlarm",` +
				`"data":{"href":1,"uri":"1","notificationId":{{.Seq}},"notificationType":"notifyNewAlarm",` +
				`"eventTime":"{{.EventTime}}","systemDN":"DC=vesload.example,SubNetwork=1,ManagedElement=gNB-1",` +
				`"probableCause":1,"perceivedSeverity":"MAJOR","rootCauseIndicator":false,"specificProblem":"Power lost",` +
				`"correlatedNotifications":[],"backedUpStatus":true,"backUpObject":"none","trendIndication":"MORE_SEVERE",` +
				`"thresholdInfo":{"observedMeasurement":"new","observedValue":123},"stateChangeDefinition":{},` +
				`"monitoredAttributes":{"newAtt":"new"},"proposedRepairActions":"Check the power supply",` +
				`"additionalInformation":{"addInfo":"new"},"alarmId":"{{.EventID}}","alarmType":"COMMUNICATIONS_ALARM",` +
				`"additionalText":"Alarm raised by vesload`,
			padOpen:  ` `,
			padClose: ``,
			closing:  `"}}}`,
		},
	}
}

// Domains lists the VES domains NewEvent knows, in a stable order.
func Domains() []string {
	specs := builtinDomains()
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.name
	}
	return names
}

// lookupDomain finds a built-in domain by name, ignoring case so that
// command lines may say "pnfregistration".
func lookupDomain(name string) (domainSpec, bool) {
	for _, s := range builtinDomains() {
		if strings.EqualFold(s.name, name) {
			return s, true
		}
	}
	return domainSpec{}, false
}

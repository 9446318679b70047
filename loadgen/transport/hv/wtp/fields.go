package wtp

import "google.golang.org/protobuf/encoding/protowire"

// Field numbers of ONAP's .proto files (package org.onap.ves). The tests
// compare each with the files themselves, parsed at test time.
const (
	// VesEvent
	fVesHeader      protowire.Number = 1 // commonEventHeader
	fVesEventFields protowire.Number = 2 // eventFields (bytes)

	// CommonEventHeader
	fHdrVersion         protowire.Number = 1
	fHdrDomain          protowire.Number = 2
	fHdrSequence        protowire.Number = 3
	fHdrPriority        protowire.Number = 4
	fHdrEventID         protowire.Number = 5
	fHdrEventName       protowire.Number = 6
	fHdrEventType       protowire.Number = 7
	fHdrLastEpoch       protowire.Number = 8
	fHdrStartEpoch      protowire.Number = 9
	fHdrNfVendorName    protowire.Number = 12
	fHdrReportingEntity protowire.Number = 14
	fHdrSourceName      protowire.Number = 16
	fHdrListenerVersion protowire.Number = 18
	fHdrStndNamespace   protowire.Number = 19 // stndDefinedNamespace (the SDK's VesEvent.proto)

	// Perf3gppFields
	fP3Version  protowire.Number = 1
	fP3MeasData protowire.Number = 2
	fP3Addl     protowire.Number = 3 // map<string,string>: entry key 1, value 2

	// MeasDataCollection
	fMdcFormatVersion protowire.Number = 1
	fMdcGranularity   protowire.Number = 2
	fMdcUserName      protowire.Number = 3
	fMdcDn            protowire.Number = 4
	fMdcSwVersion     protowire.Number = 5
	fMdcMeasInfo      protowire.Number = 7

	// MeasInfo
	fMiIMeasInfoID protowire.Number = 1
	fMiIMeasTypes  protowire.Number = 3 // IMeasTypes{repeated uint32 iMeasType = 1}
	fMiJobID       protowire.Number = 5
	fMiMeasValues  protowire.Number = 6

	// MeasValue
	fMvSObjInstID  protowire.Number = 1
	fMvMeasResults protowire.Number = 3

	// MeasResult
	fMrP      protowire.Number = 1
	fMrIValue protowire.Number = 2 // sint64

	fMapKey   protowire.Number = 1
	fMapValue protowire.Number = 2
)

// Package vespb holds the protobuf types the HV-VES emulator decodes
// payloads into, generated from vesevent.proto (the project's own
// description of the collector's wire schema). The emulator decodes with
// these and never with the producers' encoder, so that a codec bug on
// one side cannot hide in tests of the other.
package vespb

//go:generate protoc --go_out=. --go_opt=paths=source_relative vesevent.proto

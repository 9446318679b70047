package testserver

import (
	"fmt"
	"strings"
	"time"
)

// Preset is a set of emulator settings that stands in for one generation
// of the VES collector, for A/B runs that compare two builds without
// deploying them (`vesload serve --preset NAME`). A flag given beside a
// preset wins over it.
//
// The two generations people compare differ in how an accepted event
// reaches the message router. Before release 1.10 the collector handed each
// event to the Cambria client's batching publisher and answered
// 202 "Accepted" at once: publishing happened later, in batches, and a
// failed publish was logged and the event dropped, never reported to the
// sender. From release 1.10 (2021, "Replace cambria with DmaaP client")
// to 1.12.3 the collector publishes through the DMaaP client before it
// answers: the request waits for the message router's acknowledgement on
// one of the client's pooled connections (16, with a pending queue of
// 2 × 16), and a failed publish is answered 500 SVC2000 in the default
// v7.2 response mode.
type Preset struct {
	Name string
	// Summary says in one line what the preset stands for.
	Summary string
	// Compat is the response mode (CompatV72: 202, publish failure 500).
	Compat string
	// PublishTime, BackendPool and BackendQueue are the backend model:
	// zero PublishTime answers before publishing.
	PublishTime               time.Duration
	BackendPool, BackendQueue int
}

// DMaaPPublishTime is the dmaap preset's publish time: a message router
// round trip on a quiet cluster, which every answer of that generation
// waits for.
const DMaaPPublishTime = 2 * time.Millisecond

// Presets are the collector generations `vesload serve --preset` knows.
func Presets() []Preset {
	return []Preset{
		{Name: "cambria", Compat: CompatV72,
			Summary: "the Cambria-client collector (before 1.10): 202 at once, events published later in batches, publish failures never answered"},
		{Name: "dmaap", Compat: CompatV72, PublishTime: DMaaPPublishTime, BackendPool: DefaultBackendPool, BackendQueue: 2 * DefaultBackendPool,
			Summary: fmt.Sprintf("the DMaaP-client collector (1.10 to 1.12.3): each answer waits for the publish (%v) on a pool of %d connections with %d pending, a failed publish is 500 SVC2000",
				DMaaPPublishTime, DefaultBackendPool, 2*DefaultBackendPool)},
	}
}

// LookupPreset returns the preset called name.
func LookupPreset(name string) (Preset, error) {
	var names []string
	for _, p := range Presets() {
		if p.Name == name {
			return p, nil
		}
		names = append(names, p.Name)
	}
	return Preset{}, fmt.Errorf("unknown preset %q (want %s)", name, strings.Join(names, " or "))
}

// Apply lays the preset over in, except where given says the command
// line set a value of its own (by the vesload serve flag's name:
// compat, publish-time, backend-pool, backend-queue).
func (p Preset) Apply(in *Input, given func(flag string) bool) {
	if !given("compat") {
		in.Compat = p.Compat
	}
	if !given("publish-time") {
		in.PublishTime = p.PublishTime
	}
	if !given("backend-pool") && p.BackendPool > 0 {
		in.BackendPool = p.BackendPool
	}
	if !given("backend-queue") && p.BackendQueue > 0 {
		in.BackendQueue, in.QueueGiven = p.BackendQueue, true
	}
}

// Package publish is the Kafka generation of the VES collector for the
// emulator: it publishes the events of accepted requests to output topics
// by domain, as the collector's default stream mapping does, and can run
// an in-process Kafka broker so that the whole loop (generator →
// emulator → Kafka → consumer) runs on one machine with nothing
// installed.
//
// It models the behaviours that make a 202 weaker than a delivery:
// answering before the broker acknowledges (collector ≥ 1.12.4), losing a
// fraction of events after answering, a publish delay, and a bounded
// producer buffer that stalls requests when full (the producer's
// max.block.ms). See docs/ARCHITECTURE.md, "Delivery".
//
// It owns no HTTP: the emulator hands it request bodies through
// testserver.Options.Publish.
package publish

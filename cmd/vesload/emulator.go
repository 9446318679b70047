package main

import (
	"fmt"

	"github.com/vesload/vesload/testserver"
)

// emulator is the built-in VES collector emulator of runs that name no
// target, publishing accepted events to an embedded Kafka broker (as the
// Kafka generation of the collector does: answer, then publish) so that
// their delivery is followed too.
type emulator struct {
	srv   *testserver.Server
	kafka *kafkaSide
}

// startEmulator starts the emulator and its broker on free loopback
// ports.
func startEmulator() (*emulator, error) {
	// The current collector's behaviour: answer once the event is
	// buffered, so the broker adds nothing to the answers' latency.
	pub := &publishFlags{embedded: "127.0.0.1:0", beforeAck: true}
	kafka, err := pub.start()
	if err != nil {
		return nil, fmt.Errorf("start the built-in emulator's Kafka broker: %w", err)
	}
	srv, err := testserver.Start(testserver.Options{Addr: "127.0.0.1:0", Publish: kafka.pub.Publish})
	if err != nil {
		kafka.close()
		return nil, fmt.Errorf("start the built-in emulator: %w", err)
	}
	return &emulator{srv: srv, kafka: kafka}, nil
}

// URL is the emulator's base URL.
func (e *emulator) URL() string { return e.srv.URL() }

// Close stops the emulator, then its broker.
func (e *emulator) Close() {
	e.srv.Close()
	e.kafka.close()
}

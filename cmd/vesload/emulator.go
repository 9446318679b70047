package main

import (
	"fmt"

	"github.com/vesload/vesload/testserver"
)

// startEmulator starts the built-in VES collector emulator on a free
// loopback port for runs that name no target.
func startEmulator() (*testserver.Server, error) {
	srv, err := testserver.Start(testserver.Options{Addr: "127.0.0.1:0"})
	if err != nil {
		return nil, fmt.Errorf("start the built-in emulator: %w", err)
	}
	return srv, nil
}

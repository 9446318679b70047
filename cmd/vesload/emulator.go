package main

import (
	"io"
	"time"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/testserver/builtin"
)

// emulator is the built-in collector emulator of runs that name no
// target, a child process (testserver/builtin).
type emulator struct{ *builtin.Emulator }

// emulatorAddrs is the line `vesload serve --announce` prints.
type emulatorAddrs = builtin.Addrs

// startEmulator starts the built-in emulator; its error lines go to
// stderr when it stops.
func startEmulator(stderr io.Writer) (*emulator, error) {
	e, err := builtin.Start(stderr)
	if err != nil {
		return nil, err
	}
	return &emulator{e}, nil
}

func (e *emulator) describe() string { return e.Describe() }

func (e *emulator) hvView(written int64, settle time.Duration) *result.HVReceiver {
	return e.HVReceiver(written, settle)
}

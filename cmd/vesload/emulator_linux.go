package main

import "syscall"

// childAttrs puts the emulator in a process group of its own (a Ctrl-C at
// the terminal is the run's to handle, not the emulator's) and has the
// kernel terminate it when vesload dies, even by SIGKILL.
func childAttrs() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}

//go:build !linux

package main

import "syscall"

// childAttrs: without a parent-death signal, the emulator stops when its
// stdin pipe from vesload reaches end of file.
func childAttrs() *syscall.SysProcAttr { return nil }

//go:build !linux

package child

import "syscall"

// attrs: without a parent-death signal, the child stops when its stdin
// pipe from vesload reaches end of file.
func attrs() *syscall.SysProcAttr { return nil }

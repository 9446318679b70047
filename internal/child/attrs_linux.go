package child

import "syscall"

// attrs puts the child in a process group of its own (a Ctrl-C at the
// terminal is the parent's to handle, not the child's) and has the kernel
// terminate it when vesload dies, even by SIGKILL.
func attrs() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}

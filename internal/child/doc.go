// Package child runs helper processes of vesload: the same binary started
// with other arguments (the built-in emulator as `vesload serve`, the
// delivery follower as `vesload consume`), so that their CPU and memory
// are not counted as the generator's.
//
// A child never outlives the run that started it, however the run ends:
// on Linux the kernel signals it when its parent dies (parent-death
// signal, even after SIGKILL), and everywhere its stdin is a pipe from
// the parent whose end of file tells it the parent is gone. It runs in a
// process group of its own, so a Ctrl-C at the terminal is the parent's
// to handle. The package owns that lifecycle; what the parent and the
// child say to each other over stdin and stdout is the caller's.
//
// It must not know what the child does.
package child

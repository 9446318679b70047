package transport

import "sync/atomic"

// FirstFailures remembers which error classes (and, for HTTP, which
// statuses) have failed already, so that -v describes the first failure
// of each once, whatever the protocol. Its zero value is ready; it is
// safe for concurrent use and costs a failing request one atomic swap.
type FirstFailures struct {
	class [NumClasses]atomic.Bool
	code  [600]atomic.Bool
}

// First reports whether this is the first failure of class c (of status
// code for HTTP), marking it seen. A status beyond HTTP's shares one
// slot with the class; a class out of range counts as Other.
func (f *FirstFailures) First(c Class, code int32) bool {
	if c == HTTP && code >= 0 && int(code) < len(f.code) {
		return !f.code[code].Swap(true)
	}
	if c >= NumClasses {
		c = Other
	}
	return !f.class[c].Swap(true)
}

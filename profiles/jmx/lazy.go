package jmx

import (
	"regexp"
	"sync"
)

// lazyRegexp returns a function that compiles expr the first time it is
// called and returns the same *regexp.Regexp ever after: only an import
// needs the patterns of this package, and a pattern compiled at start-up
// costs every other subcommand its memory.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

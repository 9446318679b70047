//go:build !unix

package fdlimit

// Open: there is no per-process open-file limit to respect here.
func Open() (limit int, ok bool) { return 0, false }

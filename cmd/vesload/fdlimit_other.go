//go:build !unix

package main

// openFileLimit: there is no per-process open-file limit to respect here.
func openFileLimit() (limit int, ok bool) { return 0, false }

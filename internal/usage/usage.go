// Package usage is the one mark of an error that is the user's input's
// fault (a flag, a profile value, a file given), not the target's or the
// machine's: the command line turns it into exit 2 with its one line,
// every other error into exit 1. Libraries mark their option errors with
// it and name the field; the command line names the flag.
//
// It must not know any package of vesload, print or exit.
package usage

import (
	"errors"
	"fmt"
)

// Marked is an error that is bad input by its kind, with no wrapping:
// a file over its kind's limit (inputfile.TooLargeError) is one wherever
// it is found. Is finds it as it finds an Error.
type Marked interface {
	error
	// BadInput marks the error; it does nothing.
	BadInput()
}

// Error is bad input. It wraps the error as it was found, so errors.Is
// and errors.As still see through it, and adds no text of its own.
type Error struct{ Err error }

// Error is the wrapped error's text.
func (e Error) Error() string { return e.Err.Error() }

// Unwrap gives the wrapped error to errors.Is and errors.As.
func (e Error) Unwrap() error { return e.Err }

// BadInput makes an Error Marked.
func (Error) BadInput() {}

// Wrap marks err as bad input; nil stays nil, and an error already
// marked is returned as it is.
func Wrap(err error) error {
	if err == nil || Is(err) {
		return err
	}
	return Error{err}
}

// Errorf is fmt.Errorf marked as bad input.
func Errorf(format string, args ...any) error { return Error{fmt.Errorf(format, args...)} }

// Is reports whether err, or an error it wraps, is bad input: an Error
// or another Marked error.
func Is(err error) bool { return errors.As(err, new(Marked)) }

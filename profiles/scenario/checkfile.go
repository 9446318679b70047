package scenario

import (
	"errors"

	"github.com/vesload/vesload/profiles"
)

// FileError is a problem CheckFile found in a profile that loads; it
// names the file, since the problem's own text may not.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }

// Unwrap returns the problem.
func (e *FileError) Unwrap() error { return e.Err }

// CheckFile checks a profile file, or a built-in's name, as a run would
// before its --set values are given (`vesload profiles check`): it loads,
// its body files are read and its bodies render (CheckBodies). It
// returns the line to print, "ok  PATH", with what is still to be set
// before a run. An error from loading is the loader's (a
// *profiles.Error starts with file:line:column); a later one is a
// *FileError.
func CheckFile(path string) (string, error) {
	p, err := profiles.Load(path)
	if err != nil {
		return "", err
	}
	if err := p.ScanBodyFiles(); err != nil {
		return "", &FileError{path, err}
	}
	line := "ok  " + path
	if advice := p.MissingAdvice(); advice != "" {
		line += " (before a run, " + advice + ")"
	}
	if err := CheckBodies(p); err != nil {
		return "", &FileError{path, err}
	}
	return line, nil
}

// Positioned reports whether a CheckFile error starts with its
// file:line:column (the loader's *profiles.Error), so that it is printed
// first, as compilers print theirs, for editors to jump to; a *FileError
// names its file only.
func Positioned(err error) bool {
	var pe *profiles.Error
	var fe *FileError
	return errors.As(err, &pe) && !errors.As(err, &fe)
}

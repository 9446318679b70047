package resultfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// CheckWritable reports whether WriteFile could write path, without
// writing it: the folder of a new or regular file must exist and take a
// new file (WriteFile renames a temporary file into place); a special file
// (a device, a named pipe, /dev/stdout) only has to exist. A run checks its
// outputs with it before it starts, so that a typo in a folder name does
// not cost the result of a long test.
func CheckWritable(path string) error {
	target, through, err := resolve(path)
	if err != nil || through {
		return err // a special file only has to exist
	}
	dir := filepath.Dir(target)
	dst, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("folder %s does not exist", dir)
	case err != nil:
		return err
	case !dst.IsDir():
		return fmt.Errorf("%s is not a folder", dir)
	}
	probe, err := os.CreateTemp(dir, "."+filepath.Base(target)+".check-*")
	if err != nil {
		return fmt.Errorf("folder %s is not writable: %w", dir, errors.Unwrap(err))
	}
	name := probe.Name()
	cerr := probe.Close()
	if rerr := os.Remove(name); rerr != nil {
		return fmt.Errorf("remove the probe %s: %w", name, rerr)
	}
	return cerr
}

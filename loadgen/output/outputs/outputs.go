// Package outputs is the one table of the outputs that write a run to
// somewhere else while it goes on (a database, a remote store), keyed by
// the flag that turns each on. The command line registers and checks
// their flags from it, the session starts the enabled ones and
// `vesload kube` renders their arguments from it: adding an output is
// its package (loadgen/output's Entry, Flags and Output) and one line
// in Table.
package outputs

import (
	"github.com/spf13/pflag"

	"github.com/vesload/vesload/loadgen/output"
	"github.com/vesload/vesload/loadgen/output/influx"
	"github.com/vesload/vesload/loadgen/output/promrw"
)

// Table is every output, in the order their flags are listed, started
// and finished. It is built anew on each call, so that no caller shares
// or changes another's.
func Table() []output.Entry {
	return []output.Entry{
		influx.Entry(),
		promrw.Entry(),
	}
}

// Set is one command's values of every output of the table.
type Set struct {
	flags []output.Flags
}

// New returns the outputs of the table with fresh values, their flags
// not yet registered.
func New() *Set {
	s := &Set{}
	for _, e := range Table() {
		s.flags = append(s.flags, e.New())
	}
	return s
}

// Add registers every output's flags on fs.
func (s *Set) Add(fs *pflag.FlagSet) {
	for _, f := range s.flags {
		f.Add(fs)
	}
}

// Check checks every output's values; the first error, one line naming
// its flag, is the command line's usage error.
func (s *Set) Check() error {
	for _, f := range s.flags {
		if err := f.Check(); err != nil {
			return err
		}
	}
	return nil
}

// Enabled are the outputs whose flag was given, for the session to
// start.
func (s *Set) Enabled() []output.Flags {
	var on []output.Flags
	for _, f := range s.flags {
		if f.Enabled() {
			on = append(on, f)
		}
	}
	return on
}

// KubeArgs are every output's arguments for the pods of `vesload kube`,
// in the table's order; the first refusal is returned alone.
func (s *Set) KubeArgs() ([]string, error) {
	if s == nil {
		return nil, nil
	}
	var a []string
	for _, f := range s.flags {
		more, err := f.KubeArgs()
		if err != nil {
			return nil, err
		}
		a = append(a, more...)
	}
	return a, nil
}

// Package output is the seam every output of a run plugs into: the
// Output a started output is (an observer of the engine's snapshots,
// what it adds to the result, what it lost), the Flags of one output on
// one command line (its flags, their check, its arguments on Kubernetes,
// its start) and the Entry that names it in the one table of outputs
// (package loadgen/output/outputs). Adding an output is a package of its
// own that fills these in, and one entry in that table: the session,
// the command line and the Kubernetes rendering read the table and name
// no output (docs/ARCHITECTURE.md, "Adding an output").
//
// The package holds types only: it knows no output, no protocol and no
// command.
package output

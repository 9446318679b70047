// Package files writes a run's result document and its renderings (JUnit,
// HTML, Markdown, CSV) to the files a user named, as `vesload run` and
// `vesload hv` both do: every path is checked before any load is sent (a
// folder, a read-only or missing folder, two outputs on one file however
// spelled), and after the run a file that cannot be written does not
// lose the figures: it is saved in the temporary folder instead, and the
// error says where.
//
// It must not render anything itself (the report packages do) or decide
// an exit code.
package files

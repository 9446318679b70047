// Package dashboard serves a run's report page while the run goes on
// (`--dashboard ADDR`): the page --html writes, with a status banner,
// brought up to date every second over Server-Sent Events, and at the
// end the final report itself, which the browser can save as the
// self-contained file --html would have written.
//
// The server is an observer of the engine's once-a-second snapshots
// (Observer.Checkpoint). It follows the rule of every output: the
// snapshot is handed over by a non-blocking send into a bounded buffer,
// rendered by a goroutine of its own, and offered to each browser the
// same way; what does not fit is dropped and counted, and the count ends
// up in the result's warnings. Each update is the whole page, so a
// browser that connects late, or missed updates, is whole again with the
// next one. A browser never slows the run.
//
// It listens on the loopback address unless given another explicitly.
// The page shows only what the report shows, redacted as the report is;
// it serves no file and takes no input.
package dashboard

// Package observe holds the engine's observers that are library logic
// rather than presentation: the --abort-on-fail guard over a sliding
// window of the timeline, the checkpointer that rewrites the result file
// during a run, and the JTL and HdrHistogram-log streams. Each is one
// engine.Observer, registered in the run's list in one line
// (docs/ARCHITECTURE.md, "Observers").
//
// Observers here never run load, never touch the network and never print
// to a terminal; the command line decides which ones a run gets.
package observe

// Package capacity finds the highest request rate a target holds within
// its SLOs (`vesload capacity`): a climb by doubling from a start rate
// until a step fails, a bisection between the highest pass and the lowest
// fail to a precision, and a confirmation of that boundary, every step
// judged by the SLO gates (report/threshold) over its measured window.
//
// It owns the search (Search), the judgement of a step, the SLOs a step
// can be judged by (CheckSLOs), a step's measured window with its warm-up
// left out (Window, an engine observer), the early verdict of a step that
// has clearly failed (Clearly), and which side a failure is laid to
// (Cause: the target, or the generator that could not offer the rate).
// The document it fills is report/result's CapacityDocument. It must not
// run load itself: each step goes through a Runner its caller hands it, so
// the search is a pure function of the runner's answers and the budget is
// counted in the durations the runner reports, never read off a clock.
package capacity

package format

import (
	"fmt"
	"strings"

	"github.com/vesload/vesload/report/result"
)

// Gate writes a gate's measured value with its unit, rounded as every
// rendering prints it (the summary, JUnit, the abort line of
// --abort-on-fail), or NA when the metric was missing from the result.
func Gate(th result.Threshold) string {
	if th.Reason != "" {
		return NA
	}
	if th.Kind == result.KindBaseline { // a change against the baseline
		unit := th.Unit
		if unit != "%" && unit != "pp" && unit != "" {
			unit = " " + unit
		}
		return fmt.Sprintf("%+.2f%s", th.Value, unit)
	}
	switch th.Unit {
	case "ms":
		return Ms(th.Value) + " ms"
	case "%":
		return Pct(th.Value) + "%"
	case "B":
		if th.Value >= 0 && th.Value < 1<<62 {
			return Bytes(int64(th.Value))
		}
	case "/s":
		return Num(th.Value) + "/s"
	case "":
		return Num(th.Value)
	}
	return strings.TrimSpace(Num(th.Value) + " " + th.Unit)
}

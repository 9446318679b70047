package threshold

import (
	"fmt"
	"math"
	"strconv"
)

// scale converts a written unit to the metric's natural unit: the value is
// multiplied by 10^exp10 (applied to the decimal text, so that "0.001" as
// a fraction and "0.1%" give the very same float) and then by factor.
type scale struct {
	exp10  int
	factor float64
}

// unitError is a value or unit that does not fit the metric; atNumber
// says whether it points at the number rather than the unit.
type unitError struct {
	atNumber bool
	msg      string
}

const (
	latencyUnits = "us, ms, s, m"
	byteUnits    = "B, KB, MB, GB, KiB, MiB, GiB"
)

// unitScale returns the conversion of unit u for a metric of kind k.
func unitScale(m metric, u string) (scale, *unitError) {
	switch m.kind {
	case kindLatency:
		switch u {
		case "us", "µs", "μs": // micro sign and Greek mu
			return scale{-3, 1}, nil
		case "ms":
			return scale{0, 1}, nil
		case "s":
			return scale{3, 1}, nil
		case "m":
			return scale{3, 60}, nil
		case "":
			return scale{}, &unitError{msg: fmt.Sprintf("missing unit: %s is a latency (want %s)", m.name, latencyUnits)}
		}
		return scale{}, &unitError{msg: fmt.Sprintf("unknown unit %q (want %s)", u, latencyUnits)}
	case kindPercent:
		if u == "" || u == "%" {
			return scale{0, 1}, nil
		}
		return scale{}, &unitError{msg: fmt.Sprintf("unknown unit %q (want %% or none: %s is a percentage)", u, m.name)}
	case kindFraction:
		switch u {
		case "%":
			return scale{0, 1}, nil
		case "":
			return scale{2, 1}, nil
		}
		return scale{}, &unitError{msg: fmt.Sprintf("unknown unit %q (want %% for a percentage, or none for a fraction)", u)}
	case kindBytes:
		switch u {
		case "", "B":
			return scale{0, 1}, nil
		case "KB":
			return scale{3, 1}, nil
		case "MB":
			return scale{6, 1}, nil
		case "GB":
			return scale{9, 1}, nil
		case "KiB":
			return scale{0, 1 << 10}, nil
		case "MiB":
			return scale{0, 1 << 20}, nil
		case "GiB":
			return scale{0, 1 << 30}, nil
		}
		return scale{}, &unitError{msg: fmt.Sprintf("unknown unit %q (want %s)", u, byteUnits)}
	case kindRate:
		if u == "" || u == "/s" {
			return scale{0, 1}, nil
		}
		return scale{}, &unitError{msg: fmt.Sprintf("unknown unit %q (want /s or none: %s is requests per second)", u, m.name)}
	}
	if u == "" {
		return scale{0, 1}, nil
	}
	return scale{}, &unitError{msg: fmt.Sprintf("unexpected unit %q (%s is a count and takes no unit)", u, m.name)}
}

// convert turns the written number and unit into the metric's natural
// unit, refusing values no gate can mean.
func convert(m metric, num, u string) (float64, *unitError) {
	sc, uerr := unitScale(m, u)
	if uerr != nil {
		return 0, uerr
	}
	v, err := strconv.ParseFloat(num+"e"+strconv.Itoa(sc.exp10), 64)
	if err != nil || math.IsInf(v*sc.factor, 0) {
		return 0, &unitError{atNumber: true, msg: fmt.Sprintf("number %s is out of range", num)}
	}
	v *= sc.factor
	if m.kind == kindFraction && v > 100 {
		if u == "" {
			return 0, &unitError{atNumber: true, msg: fmt.Sprintf("%s without %% is a fraction and %s is above 1; write %s%% for a percentage", m.name, num, num)}
		}
		return 0, &unitError{atNumber: true, msg: fmt.Sprintf("%s is a percentage and %s%% is above 100%%", m.name, num)}
	}
	return v, nil
}

package threshold

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/vesload/vesload/report/result/metric"
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
func unitScale(m metric.Metric, u string) (scale, *unitError) {
	switch m.Kind {
	case metric.Latency:
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
			return scale{}, &unitError{msg: fmt.Sprintf("missing unit: %s is a latency (want %s)", m.Name, latencyUnits)}
		}
		return scale{}, &unitError{msg: fmt.Sprintf("unknown unit %q (want %s)", Clip(u), latencyUnits)}
	case metric.Percent:
		if u == "" || u == "%" {
			return scale{0, 1}, nil
		}
		return scale{}, &unitError{msg: fmt.Sprintf("unknown unit %q (want %% or none: %s is a percentage)", Clip(u), m.Name)}
	case metric.Ratio:
		switch u {
		case "%":
			return scale{0, 1}, nil
		case "":
			// Only zero reaches here (convert refuses any other value
			// without a unit): it reads the same as a fraction or in percent.
			return scale{0, 1}, nil
		}
		return scale{}, &unitError{msg: fmt.Sprintf("unknown unit %q (want %%: %s is a percentage)", Clip(u), m.Name)}
	case metric.Bytes:
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
		return scale{}, &unitError{msg: fmt.Sprintf("unknown unit %q (want %s)", Clip(u), byteUnits)}
	case metric.Rate:
		if u == "" || u == "/s" {
			return scale{0, 1}, nil
		}
		return scale{}, &unitError{msg: fmt.Sprintf("unknown unit %q (want /s or none: %s is requests per second)", Clip(u), m.Name)}
	}
	if u == "" {
		return scale{0, 1}, nil
	}
	return scale{}, &unitError{msg: fmt.Sprintf("unexpected unit %q (%s is a count and takes no unit)", Clip(u), m.Name)}
}

// convert turns the written number and unit into the metric's natural
// unit, refusing values no gate can mean.
func convert(m metric.Metric, num, u string, recorded bool) (float64, *unitError) {
	if m.Kind == metric.Ratio && u == "" && recorded {
		// A gate a result file recorded: judged as the release that wrote
		// it read a rate without its unit, as a fraction.
		u, num = "%", fractionAsPercent(num)
	}
	if m.Kind == metric.Ratio && u == "" {
		if msg := ambiguousRate(m, num); msg != "" {
			return 0, &unitError{atNumber: true, msg: msg}
		}
	}
	sc, uerr := unitScale(m, u)
	if uerr != nil {
		return 0, uerr
	}
	v, err := strconv.ParseFloat(num+"e"+strconv.Itoa(sc.exp10), 64)
	if err != nil || math.IsInf(v*sc.factor, 0) {
		return 0, &unitError{atNumber: true, msg: fmt.Sprintf("number %s is out of range", Clip(num))}
	}
	v *= sc.factor
	if m.Kind == metric.Ratio && v > 100 {
		return 0, &unitError{atNumber: true, msg: fmt.Sprintf("%s is a percentage and %s%% is above 100%%", m.Name, num)}
	}
	return v, nil
}

// ambiguousRate refuses a rate written without a unit, naming its two
// readings: "error_rate<1" once meant a fraction (100 %) and passed runs
// with 4 % errors that their authors read as 1 %. Zero reads the same
// either way and is let through.
func ambiguousRate(m metric.Metric, num string) string {
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v == 0 {
		return ""
	}
	if utf8.RuneCountInString(num) > clipRunes/3 { // echoed three times
		return fmt.Sprintf("give a unit: %s%% (a rate without a unit reads as a percentage or as a fraction)", Clip(num))
	}
	pct := num + "%"
	if v > 1 {
		return fmt.Sprintf("give a unit: %s for %s in 100 requests (as a fraction, %s would be %s%%, above any rate)", pct, num, num, strconv.FormatFloat(v*100, 'f', -1, 64))
	}
	frac, ferr := strconv.ParseFloat(num+"e2", 64)
	if ferr != nil {
		return ""
	}
	return fmt.Sprintf("give a unit: %s for %s in 100 requests, or %s%% if %s was meant as a fraction of the requests (%s is a percentage)", pct, num, strconv.FormatFloat(frac, 'f', -1, 64), num, m.Name)
}

// fractionAsPercent writes the fraction num (decimal text) as a
// percentage, by moving its decimal point: exact, as the unit's scale is.
func fractionAsPercent(num string) string {
	v, err := strconv.ParseFloat(num+"e2", 64)
	if err != nil {
		return num // refused by the caller's own parse
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

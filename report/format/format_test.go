package format

import (
	"math"
	"testing"
	"time"
)

func TestFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, got, want string
	}{
		{"Ms", Ms(1.234567), "1.23"},
		{"Ms rounds", Ms(0.005), "0.01"},
		{"Duration", Duration(1300 * time.Millisecond), "1300.00"},
		{"Pct", Pct(99.95), "99.95"},
		{"CPU", CPU(41.66), "41.7"},
		{"Num of a rate", Num(99.98), "99.98"},
		{"Num drops zeros", Num(100), "100"},
		{"Num rounds", Num(1.23456), "1.23"},
		{"Num NaN", Num(math.NaN()), NA},
		{"Num Inf", Num(math.Inf(1)), NA},
		{"Round", Round(1.23456, 3), "1.235"},
		{"Exact", Exact(0.123456789), "0.123456789"},
		{"Int", Int(-42), "-42"},
		{"Shift up", Shift(31.25), "+31.2%"},
		{"Shift down", Shift(-4), "-4.0%"},
		{"Shift rounds up", Shift(0.05), "+0.1%"},
		{"Shift near zero", Shift(0.049), "0.0%"},
		{"Shift near zero down", Shift(-0.049), "0.0%"},
		{"Shift from zero", Shift(math.Inf(1)), "+inf%"},
		{"Shift from zero down", Shift(math.Inf(-1)), "-inf%"},
		{"Shift NaN", Shift(math.NaN()), NA},
		{"PValue", PValue(0.0234), "0.023"},
		{"PValue at the floor", PValue(0.001), "0.001"},
		{"PValue below", PValue(0.0009), "<0.001"},
		{"PValue one", PValue(1), "1.000"},
		{"PValue NaN", PValue(math.NaN()), NA},
		{"Seconds below a minute", Seconds(2.5), "2.5s"},
		{"Seconds of a minute", Seconds(90.4), "1m30s"},
		{"Seconds negative", Seconds(-1), "-1s"},
		{"Seconds NaN", Seconds(math.NaN()), NA},
		{"Bytes", Bytes(512), "512 B"},
		{"Bytes KiB", Bytes(1536), "1.5 KiB"},
		{"Bytes MiB", Bytes(512 << 20), "512.0 MiB"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

package loadgen

import "testing"

func TestParsePeakRSS(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"Name:\tvesload\nVmPeak:\t  900 kB\nVmHWM:\t   31576 kB\nVmRSS:\t 31000 kB\n", 31576 * 1024, true},
		{"VmHWM: 0 kB", 0, true},
		{"VmRSS:\t 31000 kB\n", 0, false},
		{"VmHWM:\t 12 MB\n", 0, false},
		{"VmHWM:\t x kB\n", 0, false},
	}
	for _, tc := range tests {
		got, ok := parsePeakRSS([]byte(tc.in))
		if got != tc.want || ok != tc.ok {
			t.Errorf("parsePeakRSS(%q) = %d %v, want %d %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	// On Linux the figure is this process's own peak, at least what it
	// holds now.
	if n, ok := procPeakRSS(); ok && n <= 0 {
		t.Errorf("procPeakRSS = %d", n)
	}
}

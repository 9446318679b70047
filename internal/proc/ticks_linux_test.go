package proc

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// ClockTicks must agree with the C library's sysconf(_SC_CLK_TCK), as
// getconf prints it.
func TestClockTicksAgreesWithGetconf(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("getconf", "CLK_TCK").Output()
	if err != nil {
		t.Skipf("no getconf to compare with (Debian's libc-bin): %v", err)
	}
	want, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		t.Fatalf("getconf CLK_TCK printed %q", out)
	}
	if got := ClockTicks(); got != want {
		t.Errorf("ClockTicks = %v, getconf CLK_TCK = %v", got, want)
	}
}

package compare

import (
	"math"
	"strings"
	"testing"
)

func TestParseOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		parse   func() error
		wantErr string
	}{
		{"welch", func() error { _, err := ParseTest("welch"); return err }, ""},
		{"utest", func() error { _, err := ParseTest("utest"); return err }, ""},
		{"t-test", func() error { _, err := ParseTest("t"); return err }, `unknown test "t" (want welch or utest)`},
		{"median", func() error { _, err := ParseCenter("median"); return err }, ""},
		{"mode", func() error { _, err := ParseCenter("mode"); return err }, `unknown centre "mode"`},
		{"pass", func() error { _, err := ParseUndecided("pass"); return err }, ""},
		{"maybe", func() error { _, err := ParseUndecided("maybe"); return err }, `unknown policy "maybe" (want fail or pass)`},
		{"alpha 0.05", func() error { return CheckAlpha(0.05) }, ""},
		{"alpha 1", func() error { return CheckAlpha(1) }, "1 is not between 0 and 1"},
		{"alpha 0", func() error { return CheckAlpha(0) }, "0 is not between 0 and 1"},
		{"alpha NaN", func() error { return CheckAlpha(math.NaN()) }, "NaN is not between 0 and 1"},
	}
	for _, tt := range tests {
		err := tt.parse()
		if (tt.wantErr == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), tt.wantErr)) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.wantErr)
		}
	}
}

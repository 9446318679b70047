package usage

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

// TestMark: a mark survives wrapping by callers, adds no text, keeps what
// it wraps visible, and is never doubled; an unmarked error is not bad
// input.
func TestMark(t *testing.T) {
	t.Parallel()
	marked := Errorf("--pool %d: want at least 1", 0)
	tests := []struct {
		name  string
		err   error
		usage bool
		text  string
	}{
		{"Errorf", marked, true, "--pool 0: want at least 1"},
		{"wrapped by a caller", fmt.Errorf("profile p.yaml: %w", marked), true, "profile p.yaml: --pool 0: want at least 1"},
		{"Wrap", Wrap(fs.ErrNotExist), true, "file does not exist"},
		{"plain", errors.New("connection refused"), false, "connection refused"},
		{"marked by its kind", fmt.Errorf("--cacert: %w", tooBig{}), true, "--cacert: too big"},
		{"nil", Wrap(nil), false, ""},
	}
	for _, tt := range tests {
		if got := Is(tt.err); got != tt.usage {
			t.Errorf("%s: Is = %v, want %v", tt.name, got, tt.usage)
		}
		if tt.err != nil && tt.err.Error() != tt.text {
			t.Errorf("%s: text %q, want %q", tt.name, tt.err.Error(), tt.text)
		}
	}
	if !errors.Is(Wrap(fs.ErrNotExist), fs.ErrNotExist) {
		t.Error("Wrap hides the error it marks from errors.Is")
	}
	if w := Wrap(marked); w != marked {
		t.Errorf("Wrap of a marked error marks it again: %#v", w)
	}
}

// tooBig is an error that is bad input by its kind.
type tooBig struct{}

func (tooBig) Error() string { return "too big" }
func (tooBig) BadInput()     {}

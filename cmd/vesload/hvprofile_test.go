package main

import "testing"

func TestProfileArg(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"-rps", "10"}, ""},
		{[]string{"-profile", "hv-6x60000-8k"}, "hv-6x60000-8k"},
		{[]string{"--profile=a.yaml", "-duration", "1s"}, "a.yaml"},
		{[]string{"-profile=a", "--profile", "b"}, "b"},
		{[]string{"-profile"}, ""},
		{[]string{"--", "-profile", "x"}, ""},
		{[]string{"--profiles", "x"}, ""},
	}
	for _, tt := range tests {
		if got := profileArg(tt.args); got != tt.want {
			t.Errorf("profileArg(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

func TestHVProfileGoesToProducers(t *testing.T) {
	t.Parallel()
	if !hvProfile([]string{"-profile", "hv-6x60000-8k"}) {
		t.Error("hv-6x60000-8k is an HV-VES profile")
	}
	for _, args := range [][]string{{"-profile", "ves-100rps-10m"}, {"-profile", "hv-producers-8k"}, {"-profile", "no-such-profile"}, {"-rps", "5"}} {
		if hvProfile(args) {
			t.Errorf("%q: not an HV-VES profile", args)
		}
	}
}

package main

import "testing"

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

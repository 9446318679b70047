package summary

import (
	"bytes"
	"strings"
	"testing"
)

func TestTextColor(t *testing.T) {
	t.Parallel()
	var plain, color bytes.Buffer
	if err := Text(&plain, sampleResult(t), Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Text(&color, sampleResult(t), Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "\x1b[") {
		t.Errorf("uncoloured text holds escape codes")
	}
	for _, want := range []string{ansiGreen + "PASS", ansiRed + "FAIL", ansiYellow + "WARNING:"} {
		if !strings.Contains(color.String(), want) {
			t.Errorf("coloured text lacks %q", want)
		}
	}
	strip := strings.NewReplacer(ansiRed, "", ansiGreen, "", ansiYellow, "", ansiBold, "", ansiReset, "")
	if got := strip.Replace(color.String()); got != plain.String() {
		t.Errorf("colour changed the layout:\n%s\nvs\n%s", got, plain.String())
	}
}

package testserver

import (
	"strings"
	"testing"
	"time"
)

// A preset sets the backend model of its generation, a flag given
// beside it wins, and an unknown name is refused with the known ones.
func TestPresets(t *testing.T) {
	t.Parallel()
	none := func(string) bool { return false }
	for _, c := range []struct {
		name  string
		given func(string) bool
		in    Input
		want  Options
	}{
		// The flags' default pool stays: no backend model uses it.
		{"cambria", none, Input{Options: Options{BackendPool: DefaultBackendPool}}, Options{Compat: CompatV72, BackendPool: DefaultBackendPool}},
		{"dmaap", none, Input{}, Options{Compat: CompatV72, PublishTime: DMaaPPublishTime, BackendPool: 16, BackendQueue: 32}},
		{"dmaap", func(f string) bool { return f == "publish-time" || f == "compat" },
			Input{Options: Options{PublishTime: 5 * time.Millisecond, Compat: CompatLegacy}},
			Options{Compat: CompatLegacy, PublishTime: 5 * time.Millisecond, BackendPool: 16, BackendQueue: 32}},
	} {
		p, err := LookupPreset(c.name)
		if err != nil {
			t.Fatal(err)
		}
		in := c.in
		p.Apply(&in, c.given)
		got := in.Options
		if got.Compat != c.want.Compat || got.PublishTime != c.want.PublishTime || got.BackendPool != c.want.BackendPool || got.BackendQueue != c.want.BackendQueue {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
		if _, err := in.Check(); err != nil {
			t.Errorf("%s: the preset's input does not check: %v", c.name, err)
		}
	}
	if _, err := LookupPreset("kafka"); err == nil || !strings.Contains(err.Error(), "want cambria or dmaap") {
		t.Errorf("an unknown preset: %v", err)
	}
}

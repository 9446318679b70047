package profiles

import "testing"

func TestEventsPerRequest(t *testing.T) {
	for _, c := range []struct {
		name    string
		batches []int
		want    int
		wantErr bool
	}{
		{"no requests", nil, 1, false},
		{"single events", []int{0}, 1, false},
		{"batch", []int{5}, 5, false},
		{"mix agrees", []int{0, 1}, 1, false},
		{"mix disagrees", []int{2, 3}, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &Profile{}
			for _, b := range c.batches {
				p.Requests = append(p.Requests, Request{Batch: b})
			}
			got, err := p.EventsPerRequest()
			if (err != nil) != c.wantErr || got != c.want {
				t.Errorf("EventsPerRequest() = %d, %v; want %d, error %v", got, err, c.want, c.wantErr)
			}
		})
	}
}

package publish

import (
	"encoding/json"
	"errors"
	"fmt"
)

// event is one event of a request, ready to publish.
type event struct {
	topic string // "" when the collector would not route it
	value []byte // {"event": …}, as the collector publishes it
}

// splitEvents cuts a request body into the records the collector
// publishes: one per event, each wrapped as {"event": …}. The values are
// copies: body may be reused after the call.
func splitEvents(body []byte, batch bool) ([]event, error) {
	var req struct {
		Event     json.RawMessage   `json:"event"`
		EventList []json.RawMessage `json:"eventList"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	raws := req.EventList
	if !batch {
		raws = []json.RawMessage{req.Event}
	}
	if len(raws) == 0 || len(raws[0]) == 0 {
		return nil, errors.New("read events: none in the body")
	}
	out := make([]event, len(raws))
	for i, raw := range raws {
		var hdr struct {
			Header struct {
				Domain    string `json:"domain"`
				Namespace string `json:"stndDefinedNamespace"`
			} `json:"commonEventHeader"`
		}
		if err := json.Unmarshal(raw, &hdr); err != nil {
			return nil, fmt.Errorf("read event %d: %w", i, err)
		}
		v := make([]byte, 0, len(raw)+10)
		v = append(append(append(v, `{"event":`...), raw...), '}')
		out[i] = event{topic: Topic(hdr.Header.Domain, hdr.Header.Namespace), value: v}
	}
	return out, nil
}

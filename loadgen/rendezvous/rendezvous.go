// Package rendezvous lets the shards of one run agree on their start
// instant at run time rather than when their manifests were written. As
// k6-operator's starter does, one shard (shard 0 of an Indexed Job,
// reachable through the headless Service) gathers a ready signal from
// every shard and then hands all of them the same instant, Lead ahead of
// the last arrival. A shard that never arrives fails the run: the
// coordinator gives up at its deadline and tells every shard waiting.
//
// The protocol is one HTTP request per shard: POST /ready with the
// shard's Ready as JSON, held open until the start is decided, answered
// with an Answer. Asking again is harmless and gets the same answer, so a
// shard whose connection broke simply asks again.
//
// A run may also wait for its delivery consumer (`vesload consume`
// beside the shards): the consumer arrives as one more member once it is
// reading the output topic, so that no event is sent before it reads,
// and its answer carries what the run plans to send (Answer.Follow),
// which shard 0 alone knows whole.
package rendezvous

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/vesload/vesload/internal/clock"
)

// Path is where the coordinator takes ready signals.
const Path = "/ready"

// DefaultLead is how far ahead of the last arrival the start instant
// lies: time for the answer to reach every shard and for each to wait on
// its own clock.
const DefaultLead = 3 * time.Second

// Ready is a shard's signal that it is ready to start, or the run's
// consumer's (Consumer: its Shard is not counted, and a Count of 0 is
// not checked).
type Ready struct {
	RunID    string `json:"run_id"`
	Shard    int    `json:"shard"`
	Count    int    `json:"count"`
	Consumer bool   `json:"consumer,omitempty"`
}

// Answer is the coordinator's reply: the start instant, or why there is
// none. A consumer's answer also carries Follow, the run's plan as the
// coordinator was given it (WaitForConsumer), opaque here.
type Answer struct {
	Start  time.Time       `json:"start,omitzero"`
	Follow json.RawMessage `json:"follow,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// Coordinator gathers the ready signals of one run's shards.
type Coordinator struct {
	runID string
	count int
	lead  time.Duration
	clock clock.Clock

	// consumer says the run waits for its consumer, which is handed
	// follow; consumed that it arrived.
	consumer bool
	follow   json.RawMessage

	mu       sync.Mutex
	arrived  map[int]bool
	consumed bool
	start    time.Time
	err      error
	decided  chan struct{} // closed once start or err is set
}

// NewCoordinator expects count shards of run runID and starts them lead
// after the last one is ready.
func NewCoordinator(runID string, count int, lead time.Duration, clk clock.Clock) *Coordinator {
	return &Coordinator{runID: runID, count: count, lead: lead, clock: clk,
		arrived: make(map[int]bool, count), decided: make(chan struct{})}
}

// WaitForConsumer makes the run wait for its delivery consumer as for
// one more shard, and hands it follow (the run's plan) with the start.
// It is called before the coordinator serves anyone.
func (c *Coordinator) WaitForConsumer(follow json.RawMessage) {
	c.consumer, c.follow = true, follow
}

// refusal is an arrival the coordinator will never accept: a shard of
// another run or of another count.
type refusal struct{ error }

// Arrive registers r and waits for the start instant: until every shard
// has arrived, the coordinator has failed, or ctx ends.
func (c *Coordinator) Arrive(ctx context.Context, r Ready) (time.Time, error) {
	switch {
	case r.RunID != c.runID:
		return time.Time{}, refusal{fmt.Errorf("%s is of run %q, the coordinator's is %q", who(r), r.RunID, c.runID)}
	case r.Consumer && !c.consumer:
		return time.Time{}, refusal{fmt.Errorf("run %s waits for no consumer: give its shards --with-consumer", c.runID)}
	case r.Consumer && r.Count != 0 && r.Count != c.count:
		return time.Time{}, refusal{fmt.Errorf("the consumer counts %d shards, the coordinator %d", r.Count, c.count)}
	case r.Consumer:
	case r.Count != c.count:
		return time.Time{}, refusal{fmt.Errorf("shard %d counts %d shards, the coordinator %d", r.Shard, r.Count, c.count)}
	case r.Shard < 0 || r.Shard >= c.count:
		return time.Time{}, refusal{fmt.Errorf("shard %d: want 0 to %d", r.Shard, c.count-1)}
	}
	c.mu.Lock()
	if r.Consumer {
		c.consumed = true
	} else {
		c.arrived[r.Shard] = true
	}
	if len(c.arrived) == c.count && (c.consumed || !c.consumer) && c.start.IsZero() && c.err == nil {
		c.start = c.clock.Now().Add(c.lead)
		close(c.decided)
	}
	c.mu.Unlock()
	select {
	case <-c.decided:
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.start, c.err
	case <-ctx.Done():
		return time.Time{}, fmt.Errorf("waiting for the other shards: %w", context.Cause(ctx))
	}
}

// who names an arrival in messages.
func who(r Ready) string {
	if r.Consumer {
		return "the consumer"
	}
	return fmt.Sprintf("shard %d", r.Shard)
}

// Missing lists the shards that have not arrived yet, for messages.
func (c *Coordinator) Missing() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	var m []int
	for i := range c.count {
		if !c.arrived[i] {
			m = append(m, i)
		}
	}
	return m
}

// missing says who has not arrived yet: shards, the consumer.
func (c *Coordinator) missing() string {
	var parts []string
	if m := c.Missing(); len(m) > 0 {
		parts = append(parts, fmt.Sprintf("shards %v", m))
	}
	c.mu.Lock()
	if c.consumer && !c.consumed {
		parts = append(parts, "the consumer")
	}
	c.mu.Unlock()
	return strings.Join(parts, " and ")
}

// Fail gives up on the run unless its start is already decided: every
// shard waiting, and every later one, gets err.
func (c *Coordinator) Fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil || !c.start.IsZero() {
		return
	}
	c.err = err
	close(c.decided)
}

// ServeHTTP answers POST /ready: 200 with the start, 409 for a shard
// that does not belong, 503 when the coordinator gave up.
func (c *Coordinator) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path != Path || req.Method != http.MethodPost {
		http.Error(w, "POST "+Path, http.StatusNotFound)
		return
	}
	var r Ready
	if err := json.NewDecoder(io.LimitReader(req.Body, 4<<10)).Decode(&r); err != nil {
		reply(w, http.StatusBadRequest, Answer{Error: "bad ready signal: " + err.Error()})
		return
	}
	start, err := c.Arrive(req.Context(), r)
	var ref refusal
	switch {
	case errors.As(err, &ref):
		reply(w, http.StatusConflict, Answer{Error: err.Error()})
	case err != nil:
		reply(w, http.StatusServiceUnavailable, Answer{Error: err.Error()})
	case r.Consumer:
		reply(w, http.StatusOK, Answer{Start: start, Follow: c.follow})
	default:
		reply(w, http.StatusOK, Answer{Start: start})
	}
}

func reply(w http.ResponseWriter, code int, a Answer) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(a) // the shard sees a broken answer and asks again
}

// Retry is how long a shard waits before asking again when the
// coordinator cannot be reached (not started yet, its name not yet in
// DNS).
const Retry = 250 * time.Millisecond

// Join sends r to the coordinator at url (http://host:port) and returns
// the start instant it hands out. It asks again while the coordinator
// cannot be reached or its answer breaks, until ctx ends; a refusal or a
// coordinator that gave up ends it at once.
func Join(ctx context.Context, client *http.Client, url string, r Ready, clk clock.Clock) (time.Time, error) {
	a, err := JoinAnswer(ctx, client, url, r, clk)
	return a.Start, err
}

// JoinAnswer is Join returning the whole answer: a consumer's carries
// the run's plan.
func JoinAnswer(ctx context.Context, client *http.Client, url string, r Ready, clk clock.Clock) (Answer, error) {
	body, err := json.Marshal(r)
	if err != nil {
		return Answer{}, err
	}
	var last error
	for {
		a, final, err := ask(ctx, client, url+Path, body)
		if err == nil || final {
			return a, err
		}
		last = err
		if !clock.Sleep(ctx, clk, Retry, nil) {
			return Answer{}, fmt.Errorf("no start from %s: %w (last: %v)", url, context.Cause(ctx), last)
		}
	}
}

// maxAnswer bounds an answer: a consumer's carries the run's plan, whose
// segments a long staged profile makes many.
const maxAnswer = 1 << 20

// ask makes one attempt; final says the answer will not change.
func ask(ctx context.Context, client *http.Client, url string, body []byte) (_ Answer, final bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return Answer{}, true, fmt.Errorf("rendezvous %s: %w", url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return Answer{}, false, err
	}
	defer resp.Body.Close()
	var a Answer
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAnswer)).Decode(&a); err != nil {
		return Answer{}, false, fmt.Errorf("answer %s: %w", resp.Status, err)
	}
	switch {
	case resp.StatusCode == http.StatusOK && !a.Start.IsZero():
		return a, true, nil
	case resp.StatusCode == http.StatusConflict || resp.StatusCode == http.StatusServiceUnavailable:
		return Answer{}, true, fmt.Errorf("the coordinator at %s: %s", url, a.Error)
	}
	return Answer{}, false, fmt.Errorf("answer %s: %s", resp.Status, a.Error)
}

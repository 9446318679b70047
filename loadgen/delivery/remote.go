package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/report/result"
)

// Message is one line of JSON between a run and its follower in a
// process of its own (`vesload consume` started by `vesload run` or `hv`,
// so that the generator's figures measure the generator alone). The run
// says Plan, then Start when its clock starts, then Finish; the follower
// answers Ready (or Error) to the plan, Delivered to Finish, and then the
// Delivery. Stop, from the run, ends the follower's wait early (Ctrl-C).
// The run's end of file tells the follower that the run is gone.
type Message struct {
	Plan      *Plan            `json:"plan,omitempty"`
	Ready     bool             `json:"ready,omitempty"`
	Error     string           `json:"error,omitempty"`
	Usage     bool             `json:"usage,omitempty"` // the error is the options' (exit 2)
	Start     time.Time        `json:"start,omitzero"`
	Finish    *Finish          `json:"finish,omitempty"`
	Delivered *int64           `json:"delivered,omitempty"`
	Stop      bool             `json:"stop,omitempty"`
	Delivery  *result.Delivery `json:"delivery,omitempty"`
}

// Finish is the run's end: the events expected (of the requests sent, or
// HV-VES messages written) and the Acceptance's bitmap.
type Finish struct {
	Expected int64  `json:"expected"`
	Accepted []byte `json:"accepted,omitempty"`
}

// LineReader reads the follower's lines: internal/child's Process.
type LineReader interface {
	ReadLine(timeout time.Duration) ([]byte, error)
}

// Remote is the run's side of a follower in another process: it tells
// the follower the plan and the start, keeps the accepted bitmap the
// engine's observer fills, and gets the delivery figures at the end.
type Remote struct {
	w      io.Writer
	r      LineReader
	accept *Acceptance
}

// Dial tells the follower the plan and waits, at most timeout, until it
// is connected and reading (before the run's clock starts).
func Dial(w io.Writer, r LineReader, p Plan, timeout time.Duration) (*Remote, error) {
	if err := send(w, Message{Plan: &p}); err != nil {
		return nil, err
	}
	m, err := receive(r, timeout)
	if err != nil {
		return nil, err
	}
	if !m.Ready {
		return nil, errors.New("the follower did not say it was ready")
	}
	return &Remote{w: w, r: r, accept: NewAcceptance(p.Events, p.Batch)}, nil
}

// Begin tells the follower the instant the run's clock started.
func (rm *Remote) Begin(t time.Time) error { return send(rm.w, Message{Start: t}) }

// Accept marks request seq as answered 2xx (the engine's observer; no
// allocation).
func (rm *Remote) Accept(seq int64) { rm.accept.Accept(seq) }

// Finish hands the follower the run's end and returns its figures once
// it has waited (expected events delivered, the grace passed, or ctx
// ended, which stops its wait and still returns the figures). waiting is
// told how many events were delivered when the wait began.
func (rm *Remote) Finish(ctx context.Context, expected int64, limit time.Duration, waiting func(delivered int64)) (*result.Delivery, error) {
	if err := send(rm.w, Message{Finish: &Finish{Expected: expected, Accepted: rm.accept.Bytes()}}); err != nil {
		return nil, err
	}
	m, err := receive(rm.r, limit)
	if err != nil {
		return nil, err
	}
	if m.Delivered != nil {
		waiting(*m.Delivered)
	}
	type answer struct {
		m   Message
		err error
	}
	got := make(chan answer, 1)
	go func() {
		m, err := receive(rm.r, limit)
		got <- answer{m, err}
	}()
	var a answer
	select {
	case a = <-got:
	case <-ctx.Done():
		// A follower that has just answered (and may be gone) still
		// delivered its figures: the answer decides, not this write.
		_ = send(rm.w, Message{Stop: true})
		a = <-got
	}
	if a.err != nil {
		return nil, a.err
	}
	if a.m.Delivery == nil {
		return nil, errors.New("the follower sent no figures")
	}
	return a.m.Delivery, nil
}

func send(w io.Writer, m Message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("tell the follower: %w", err)
	}
	return nil
}

// receive reads one message; an error message is returned as an error,
// a usage error when it is the options'.
func receive(r LineReader, timeout time.Duration) (Message, error) {
	var m Message
	line, err := r.ReadLine(timeout)
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(line, &m); err != nil {
		return m, fmt.Errorf("the follower said %q: %w", line, err)
	}
	if m.Error != "" {
		if m.Usage {
			return m, usage.Errorf("%s", m.Error)
		}
		return m, errors.New(m.Error)
	}
	return m, nil
}

// Serve is the follower's side of Remote: it reads the plan from in,
// opens the source for it (open connects and preflights; isUsage tells
// its errors that are the options'), says it is ready, follows until the
// run's Finish, waits out grace for the events still due and writes the
// figures to out. It returns when the figures are written, or with an
// error when the run is gone (end of file on in, or ctx ended) first.
func Serve(ctx context.Context, in io.Reader, out io.Writer, grace time.Duration,
	open func(Config) (Source, string, error), isUsage func(error) bool) error {
	dec := json.NewDecoder(in)
	var m Message
	if err := dec.Decode(&m); err != nil || m.Plan == nil {
		return fmt.Errorf("read the run's plan: %v", err)
	}
	start := NewStart()
	f, tally, err := FollowPlan(*m.Plan, start, open)
	if err != nil {
		_ = send(out, Message{Error: err.Error(), Usage: isUsage(err)})
		return err
	}
	defer f.Stop()
	// A start never told (the run failed first) must not hold the
	// reader in Due: it is set to now before the reader is stopped.
	defer start.Set(time.Now())
	if err := send(out, Message{Ready: true}); err != nil {
		return err
	}
	msgs := make(chan Message)
	go func() {
		defer close(msgs)
		for {
			var m Message
			if dec.Decode(&m) != nil {
				return
			}
			msgs <- m
		}
	}()
	for {
		var m Message
		var ok bool
		select {
		case m, ok = <-msgs:
		case <-ctx.Done():
			return ctx.Err()
		}
		switch {
		case !ok:
			return errors.New("the run is gone")
		case !m.Start.IsZero():
			start.Set(m.Start)
			tally.SetStart(m.Start)
		case m.Finish != nil:
			start.Set(time.Now()) // a run that ended before its clock started
			return finish(ctx, out, f, tally, m.Finish, grace, msgs)
		}
	}
}

// FollowPlan prepares the tally of plan p, whose due times count from
// start, opens its source (open connects and preflights it) and starts
// reading: the follower of `vesload consume`, in the run's process or
// beside it.
func FollowPlan(p Plan, start *Start, open func(Config) (Source, string, error)) (*Follower, *Tally, error) {
	cfg, err := p.Config(start)
	if err != nil {
		return nil, nil, err
	}
	tally, err := NewTally(cfg)
	if err != nil {
		return nil, nil, err
	}
	src, name, err := open(cfg)
	if err != nil {
		return nil, nil, err
	}
	return Follow(src, tally, name, time.Now), tally, nil
}

// finish waits for the events still due, until the run says Stop or is
// gone, and writes the figures.
func finish(ctx context.Context, out io.Writer, f *Follower, tally *Tally, fin *Finish, grace time.Duration, msgs <-chan Message) error {
	if len(fin.Accepted) > 0 {
		if err := tally.SetAccepted(fin.Accepted); err != nil {
			return err
		}
	}
	delivered := tally.Delivered()
	if err := send(out, Message{Delivered: &delivered}); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		for m := range msgs {
			if m.Stop {
				cancel()
			}
		}
		cancel() // the run is gone: nobody waits for the figures
	}()
	d, err := f.Finish(ctx, fin.Expected, grace)
	if err != nil {
		_ = send(out, Message{Error: err.Error()})
		return err
	}
	return send(out, Message{Delivery: d})
}

// Warnings are the result's warnings about a delivery: a template that
// does not carry the run's eventIds, and events answered 2xx that never
// arrived.
func Warnings(d *result.Delivery, expected int64, grace time.Duration) []string {
	var w []string
	if d.Delivered == 0 && d.Foreign > 0 && expected > 0 {
		w = append(w, fmt.Sprintf(
			"none of the %d records read from %s carried this run's eventIds (<run id>-<n>): a body template must use {{.EventID}}",
			d.Foreign, d.Source))
	}
	if d.LostThoughAccepted > 0 {
		w = append(w, fmt.Sprintf("%d events answered 2xx never reached %s within %v", d.LostThoughAccepted, d.Source, grace))
	}
	return w
}

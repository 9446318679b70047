package delivery

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DMaaP reads a DMaaP Message Router topic through its long-poll HTTP
// API: GET /events/TOPIC/GROUP/ID answers a JSON array of message
// strings. Records carry no timestamp and no partition: end-to-end
// latency is to the moment read, and order is judged over the topic.
type DMaaP struct {
	endpoint string // http(s)://HOST:PORT/events/TOPIC/GROUP/ID
	client   *http.Client
	user     string
	password string
	// PollTimeout is the long-poll time asked of the server.
	PollTimeout time.Duration
}

var _ Source = (*DMaaP)(nil)

// ParseDMaaPURL turns dmaap://HOST:PORT/events/TOPIC/GROUP/ID (dmaaps://
// for HTTPS) into the HTTP endpoint to poll.
func ParseDMaaPURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", errors.New("want dmaap://HOST:PORT/events/TOPIC/GROUP/ID")
	}
	scheme := map[string]string{"dmaap": "http", "dmaaps": "https"}[u.Scheme]
	if scheme == "" {
		return "", fmt.Errorf("want dmaap://HOST:PORT/events/TOPIC/GROUP/ID, got scheme %q", u.Scheme)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Host == "" || u.Port() == "" {
		return "", errors.New("want dmaap://HOST:PORT/events/TOPIC/GROUP/ID: a host with a port, no credentials or query")
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) != 4 || parts[0] != "events" || parts[1] == "" || parts[2] == "" || parts[3] == "" {
		return "", fmt.Errorf("path %q: want /events/TOPIC/GROUP/ID", u.Path)
	}
	return scheme + "://" + u.Host + "/" + strings.Join(parts, "/"), nil
}

// NewDMaaP polls endpoint (from ParseDMaaPURL) with basic auth when user
// is set, and the given TLS settings for dmaaps.
func NewDMaaP(endpoint, user, password string, tc *tls.Config) *DMaaP {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = tc
	return &DMaaP{endpoint: endpoint, client: &http.Client{Transport: tr}, user: user, password: password,
		PollTimeout: 5 * time.Second}
}

// Preflight polls once without waiting: it proves the server and topic,
// and registers the consumer group, which then starts at the topic's
// end. Messages it returns predate the run and are dropped.
func (d *DMaaP) Preflight(ctx context.Context) error {
	_, err := d.poll(ctx, 0)
	return err
}

// Run long-polls until ctx ends.
func (d *DMaaP) Run(ctx context.Context, t *Tally, now func() time.Time) error {
	for {
		msgs, err := d.poll(ctx, d.PollTimeout)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			// A failed poll is retried after a pause; lost time shows in
			// the latency, lost events in the counts.
			t.SourceError(err)
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(time.Second):
			}
			continue
		}
		at := now()
		for _, m := range msgs {
			t.Add(Record{Value: []byte(m), Lag: -1}, at)
		}
	}
}

// poll fetches one batch of messages.
func (d *DMaaP) poll(ctx context.Context, wait time.Duration) ([]string, error) {
	u := fmt.Sprintf("%s?timeout=%d&limit=10000", d.endpoint, wait.Milliseconds())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("dmaap %s: %w", d.endpoint, err)
	}
	if d.user != "" {
		req.SetBasicAuth(d.user, d.password)
	}
	resp, err := d.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("dmaap %s: %w", d.endpoint, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("dmaap %s: read: %w", d.endpoint, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("dmaap %s: HTTP %d", d.endpoint, resp.StatusCode)
	}
	var msgs []string
	if err := json.Unmarshal(body, &msgs); err != nil {
		return nil, fmt.Errorf("dmaap %s: want a JSON array of strings: %w", d.endpoint, err)
	}
	return msgs, nil
}

// Close releases idle connections.
func (d *DMaaP) Close() { d.client.CloseIdleConnections() }

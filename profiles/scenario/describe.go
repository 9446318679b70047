package scenario

import (
	"maps"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/report/result"
)

// describe is the redacted description of the run for the result.
func describe(p *profiles.Profile, pl *Plan, runID string) result.RunConfig {
	c, r := pl.Config, pl.REST
	rc := result.RunConfig{
		URL:        pl.URL,
		Method:     r.Method,
		DurationS:  p.Load.TotalDuration().Seconds(),
		Shape:      describeShape(p.Load),
		Pool:       c.Pool,
		PoolWaitS:  c.PoolWait.Seconds(),
		TimeoutS:   c.Timeout.Seconds(),
		KeepAlive:  r.KeepAlive,
		Profile:    p.Name,
		Headers:    redactHeaders(r.Headers),
		User:       r.User,
		Insecure:   r.TLS.Insecure,
		Thresholds: p.Thresholds,
		RunID:      runID,
		Labels:     maps.Clone(p.Labels),
	}
	rc.RPS = c.Load.MeanRate()
	rc.Auth = authMode(r)
	if !r.Expect.IsDefault() {
		rc.ExpectStatus = r.Expect.String()
	}
	if len(p.Requests) == 1 {
		r := p.Requests[0]
		rc.EventSize, rc.Batch, rc.BodyFile = r.Size, r.Batch, r.BodyFile
		if r.BodyFile == "" && r.Body == "" {
			rc.Event = r.Event
			if rc.Event == "" {
				rc.Event = "fault"
			}
		}
	}
	return rc
}

func redactHeaders(hs []transport.Header) map[string]string {
	if len(hs) == 0 {
		return nil
	}
	m := make(map[string]string, len(hs))
	for _, h := range hs {
		m[h.Name] = redact.Header(h.Name, h.Value)
	}
	return m
}

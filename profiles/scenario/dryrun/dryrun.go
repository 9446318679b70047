// Package dryrun shows what a compiled run would send, without
// connecting to anything (`vesload run --dry-run`): the target, the
// schedule's summary, the pool, and the first requests as the REST
// transport would send them (headers with credentials hidden, bodies
// rendered by loadgen/ves), each checked against the VES schema of its
// API version through testserver.Schemas, the emulator's own checks.
//
// It must not connect, start an emulator or run load.
package dryrun

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/loadgen/transport/rest"
	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/testserver"
)

// Redacted is how a credential is shown.
const Redacted = "<redacted>"

// Options say how much of the run to show.
type Options struct {
	// Requests is how many rendered requests to print.
	Requests int
	// SchemaDir holds the VES schemas the requests are checked against;
	// a missing folder is said once and the requests are not checked.
	SchemaDir string
	// Emulated says the target is the built-in emulator's stand-in URL,
	// which a dry run does not start.
	Emulated bool
	// Wire, when set, gives the headers of a request of the mix's kind
	// with body exactly as the transport writes them (the REST one's
	// WireHeaders); Print hides their credentials. Without it the
	// headers are those the configuration asks for (Headers).
	Wire func(kind int, body []byte) ([]transport.Header, error)
}

// Print writes what the run of plan would send to w and returns how many
// of the rendered requests are invalid against their schema.
func Print(w io.Writer, plan *scenario.Plan, o Options) (invalid int, err error) {
	if o.Requests < 0 {
		return 0, fmt.Errorf("want 0 or more requests, got %d", o.Requests)
	}
	cfg := &plan.Config
	total := summary(w, plan, o.Emulated)
	schemas, why := loadSchemas(o.SchemaDir)
	if why != "" {
		fmt.Fprintln(w, why)
	}
	n := int64(o.Requests)
	if total >= 0 && n > total {
		n = total
	}
	reqs, kinds := engine.Kinds(cfg), plan.REST.Kinds
	if len(kinds) != len(reqs) {
		return 0, fmt.Errorf("the plan has %d request kinds and %d targets", len(reqs), len(kinds))
	}
	order := engine.MixOrder(reqs)
	start := time.Now()
	var body []byte
	for seq := range n {
		kind := int(order[seq%int64(len(order))])
		r, k := reqs[kind], kinds[kind]
		due := start
		if s, ok := cfg.Load.(*engine.Schedule); ok {
			off, _ := s.Due(seq)
			due = start.Add(off)
		}
		if wb, ok := r.Body.(engine.WorkerBody); ok {
			body = wb.AppendBodyFor(body[:0], uint64(seq), uint64(seq)%uint64(max(cfg.Pool, 1)), due)
		} else {
			body = r.Body.AppendBody(body[:0], uint64(seq), due)
		}
		fmt.Fprintf(w, "\n--- request %d", seq+1)
		if r.Name != "" {
			fmt.Fprintf(w, " (%s)", r.Name)
		}
		fmt.Fprintln(w, " ---")
		fmt.Fprintf(w, "%s %s\n", plan.REST.Method, redact.URL(k.URL))
		hs := Headers(&plan.REST, k)
		if o.Wire != nil {
			if hs, err = o.Wire(kind, body); err != nil {
				return invalid, err
			}
			hs = hideCredentials(hs)
		}
		for _, h := range hs {
			fmt.Fprintf(w, "%s: %s\n", h.Name, h.Value)
		}
		fmt.Fprintf(w, "\n%s\n", body)
		if schemas == nil {
			continue
		}
		ver, batch := APIVersion(k.URL)
		if err := schemas.Check(body, ver, batch); err != nil {
			invalid++
			fmt.Fprintf(w, "INVALID against the %s schema: %v\n", ver, err)
		} else {
			fmt.Fprintf(w, "valid against the %s schema\n", ver)
		}
	}
	if invalid > 0 {
		fmt.Fprintf(w, "\n%d of %d rendered requests are invalid\n", invalid, n)
	}
	return invalid, nil
}

// summary prints the target, schedule, pool and warnings, and returns
// the schedule's request count (-1 for a closed model).
func summary(w io.Writer, plan *scenario.Plan, emulated bool) int64 {
	cfg, rc := &plan.Config, plan.RunConfig
	fmt.Fprintln(w, "dry run: nothing is sent")
	target := plan.URL
	if emulated {
		target += " (the built-in emulator, not started by a dry run)"
	}
	fmt.Fprintf(w, "target:   %s %s\n", plan.REST.Method, target)
	total := int64(-1)
	switch l := cfg.Load.(type) {
	case *engine.Schedule:
		total = l.Total()
		fmt.Fprintf(w, "schedule: %d requests in %s (mean %.4g/s)", total, l.Span(), rc.RPS)
	default:
		fmt.Fprintf(w, "schedule: closed model, %s (requests as fast as the target answers)", time.Duration(rc.DurationS*float64(time.Second)))
	}
	if rc.Shape != "" {
		fmt.Fprintf(w, ", shape %s", rc.Shape)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "pool:     %d connections, pool wait %s, timeout %s\n", cfg.Pool, cfg.PoolWait, cfg.Timeout)
	for _, wn := range plan.Warnings {
		fmt.Fprintln(w, "warning:  "+wn)
	}
	return total
}

// Headers are the headers a request of kind k carries, as the REST
// transport of o sets them, with credentials hidden.
func Headers(cfg *rest.Options, k rest.Kind) []transport.Header {
	hs := []transport.Header{{Name: "Content-Type", Value: "application/json"}}
	if cfg.UserAgent != "" {
		hs = append(hs, transport.Header{Name: "User-Agent", Value: cfg.UserAgent})
	}
	if cfg.User != "" {
		hs = append(hs, transport.Header{Name: "Authorization", Value: "Basic " + Redacted})
	}
	for _, h := range append(append([]transport.Header(nil), cfg.Headers...), k.Headers...) {
		v := h.Value
		if redact.SecretHeader(h.Name) {
			v = Redacted
		} else {
			v = redact.Header(h.Name, v)
		}
		hs = append(hs, transport.Header{Name: h.Name, Value: v})
	}
	if !cfg.KeepAlive {
		hs = append(hs, transport.Header{Name: "Connection", Value: "close"})
	}
	return hs
}

// hideCredentials hides the credentials of headers taken from the wire:
// basic auth shows its scheme, other secrets nothing.
func hideCredentials(hs []transport.Header) []transport.Header {
	out := make([]transport.Header, len(hs))
	for i, h := range hs {
		v := h.Value
		switch {
		case strings.EqualFold(h.Name, "Authorization") && strings.HasPrefix(v, "Basic "):
			v = "Basic " + Redacted
		case redact.SecretHeader(h.Name):
			v = Redacted
		default:
			v = redact.Header(h.Name, v)
		}
		out[i] = transport.Header{Name: h.Name, Value: v}
	}
	return out
}

// loadSchemas compiles the schemas of dir, or says once why the requests
// are not validated.
func loadSchemas(dir string) (*testserver.Schemas, string) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, "not validated: schemas not found at " + dir
	}
	s, err := testserver.LoadSchemas(dir)
	if err != nil {
		return nil, fmt.Sprintf("not validated: %v", err)
	}
	return s, ""
}

var apiVersionPath = regexp.MustCompile(`/eventListener/(v[0-9]+)(/eventBatch)?/?$`)

// APIVersion is the VES API version of a request URL ("v7" when the path
// names none) and whether it is a batch: which schema its body is
// checked against.
func APIVersion(u string) (string, bool) {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	m := apiVersionPath.FindStringSubmatch(u)
	if m == nil {
		return "v7", strings.HasSuffix(u, "/eventBatch")
	}
	return m[1], m[2] != ""
}

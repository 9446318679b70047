package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/testserver"
)

// dryRunOptions are the flags of a dry run: the run's own flags say what
// would be sent, these say how much of it to show.
type dryRunOptions struct {
	on       bool
	requests int
}

func addDryRunFlags(fs *pflag.FlagSet, d *dryRunOptions) {
	fs.BoolVar(&d.on, "dry-run", false, "send nothing: print the schedule and the first rendered requests, checked against the VES schemas (exit 2 when one is invalid)")
	fs.IntVar(&d.requests, "dry-run-requests", 3, "with --dry-run, how many rendered requests to print")
}

// dryRunTarget stands in for the built-in emulator's URL in a dry run,
// which starts no emulator.
const dryRunTarget = "http://127.0.0.1:8080/eventListener/v7"

// dryRunRedacted is how a credential is shown in a dry run.
const dryRunRedacted = "<redacted>"

// dryRun prints what a run with o would send, without connecting to
// anything: the schedule's summary and the first requests as rendered,
// each checked against the VES schema of its API version from schemaDir.
// It returns exitUsage when a rendered request is invalid.
func dryRun(o *runOptions, changed func(string) bool, runID, schemaDir string, stdout io.Writer) (int, error) {
	if o.dry.requests < 0 {
		return 0, usagef("--dry-run-requests %d: want 0 or more", o.dry.requests)
	}
	if err := checkNumbers(o); err != nil {
		return 0, err
	}
	sc, err := resolveScenario(o, changed)
	if err != nil {
		return 0, err
	}
	emulated := sc.Target.URL == ""
	if emulated {
		sc.Target.URL = dryRunTarget
	}
	plan, err := scenario.Compile(sc, scenario.Options{Version: version, NoPreflight: true, RunID: runID})
	if err != nil {
		return 0, usageError{err}
	}
	cfg, rc := &plan.Config, plan.RunConfig
	fmt.Fprintln(stdout, "dry run: nothing is sent")
	target := plan.URL
	if emulated {
		target += " (the built-in emulator, not started by a dry run)"
	}
	fmt.Fprintf(stdout, "target:   %s %s\n", cfg.Method, target)
	total := int64(-1)
	switch l := cfg.Load.(type) {
	case *loadgen.Schedule:
		total = l.Total()
		fmt.Fprintf(stdout, "schedule: %d requests in %s (mean %.4g/s)", total, l.Span(), rc.RPS)
	default:
		fmt.Fprintf(stdout, "schedule: closed model, %s (requests as fast as the target answers)", time.Duration(rc.DurationS*float64(time.Second)))
	}
	if rc.Shape != "" {
		fmt.Fprintf(stdout, ", shape %s", rc.Shape)
	}
	fmt.Fprintln(stdout)
	fmt.Fprintf(stdout, "pool:     %d connections, pool wait %s, timeout %s\n", cfg.Pool, cfg.PoolWait, cfg.Timeout)
	for _, w := range plan.Warnings {
		fmt.Fprintln(stdout, "warning:  "+w)
	}

	schemas, why := loadDryRunSchemas(schemaDir)
	if why != "" {
		fmt.Fprintln(stdout, why)
	}
	n := int64(o.dry.requests)
	if total >= 0 && n > total {
		n = total
	}
	reqs := cfg.Mix
	if len(reqs) == 0 {
		reqs = []loadgen.Request{{URL: cfg.URL, Body: cfg.Body, Weight: 1}}
	}
	order := loadgen.MixOrder(reqs)
	start := time.Now()
	invalid := 0
	var body []byte
	for seq := range n {
		r := reqs[order[seq%int64(len(order))]]
		due := start
		if s, ok := cfg.Load.(*loadgen.Schedule); ok {
			off, _ := s.Due(seq)
			due = start.Add(off)
		}
		if wb, ok := r.Body.(loadgen.WorkerBody); ok {
			body = wb.AppendBodyFor(body[:0], uint64(seq), uint64(seq)%uint64(max(cfg.Pool, 1)), due)
		} else {
			body = r.Body.AppendBody(body[:0], uint64(seq), due)
		}
		fmt.Fprintf(stdout, "\n--- request %d", seq+1)
		if r.Name != "" {
			fmt.Fprintf(stdout, " (%s)", r.Name)
		}
		fmt.Fprintln(stdout, " ---")
		fmt.Fprintf(stdout, "%s %s\n", cfg.Method, redact.URL(r.URL))
		for _, h := range dryRunHeaders(cfg, r) {
			fmt.Fprintf(stdout, "%s: %s\n", h.Name, h.Value)
		}
		fmt.Fprintf(stdout, "\n%s\n", body)
		if schemas == nil {
			continue
		}
		ver, batch := apiVersion(r.URL)
		if err := schemas.Check(body, ver, batch); err != nil {
			invalid++
			fmt.Fprintf(stdout, "INVALID against the %s schema: %v\n", ver, err)
		} else {
			fmt.Fprintf(stdout, "valid against the %s schema\n", ver)
		}
	}
	if invalid > 0 {
		fmt.Fprintf(stdout, "\n%d of %d rendered requests are invalid\n", invalid, n)
		return exitUsage, nil
	}
	return exitOK, nil
}

// dryRunHeaders are the headers a request of kind r carries, as the REST
// transport sets them, with credentials hidden.
func dryRunHeaders(cfg *loadgen.Config, r loadgen.Request) []loadgen.Header {
	hs := []loadgen.Header{{Name: "Content-Type", Value: "application/json"}}
	if cfg.UserAgent != "" {
		hs = append(hs, loadgen.Header{Name: "User-Agent", Value: cfg.UserAgent})
	}
	if cfg.User != "" {
		hs = append(hs, loadgen.Header{Name: "Authorization", Value: "Basic " + dryRunRedacted})
	}
	for _, h := range append(append([]loadgen.Header(nil), cfg.Headers...), r.Headers...) {
		v := h.Value
		if redact.SecretHeader(h.Name) {
			v = dryRunRedacted
		} else {
			v = redact.Header(h.Name, v)
		}
		hs = append(hs, loadgen.Header{Name: h.Name, Value: v})
	}
	if !cfg.KeepAlive {
		hs = append(hs, loadgen.Header{Name: "Connection", Value: "close"})
	}
	return hs
}

// loadDryRunSchemas compiles the schemas of dir, or says once why the
// requests are not validated.
func loadDryRunSchemas(dir string) (*testserver.Schemas, string) {
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

// apiVersion is the VES API version of a request URL ("v7" when the path
// names none) and whether it is a batch.
func apiVersion(u string) (string, bool) {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	m := apiVersionPath.FindStringSubmatch(u)
	if m == nil {
		return "v7", strings.HasSuffix(u, "/eventBatch")
	}
	return m[1], m[2] != ""
}

package sample

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"sync"
	"time"
)

// Series names the sampler recognises on a metrics endpoint.
const (
	seriesCPUSeconds = "process_cpu_seconds_total"     // client_golang, Prometheus Java client
	seriesCPUUsage   = "process_cpu_usage"             // Micrometer: 0..1 of the whole machine
	seriesCPUCount   = "system_cpu_count"              // Micrometer: available processors
	seriesSystemCPU  = "system_cpu_usage"              // Micrometer: 0..1, the whole machine
	seriesRSS        = "process_resident_memory_bytes" // client_golang, Prometheus Java client
	seriesVSZ        = "process_virtual_memory_bytes"
	seriesJVMUsed    = "jvm_memory_used_bytes"    // Micrometer, per memory pool
	seriesThreads    = "process_threads"          // Prometheus Java client
	seriesJVMThreads = "jvm_threads_live_threads" // Micrometer
	seriesGoThreads  = "go_threads"               // client_golang: OS threads
)

// Extra series names a metrics sampler fills.
const (
	// ExtraSystemCPUPct is the whole machine's CPU use in percent of all
	// its cores, from Micrometer's system_cpu_usage.
	ExtraSystemCPUPct = "system_cpu_pct"
	// ExtraJVMMemoryUsed is the JVM's used heap and non-heap memory, summed
	// over its pools.
	ExtraJVMMemoryUsed = "jvm_memory_used_bytes"
)

// metricsSampler scrapes a Prometheus or OpenMetrics endpoint.
type metricsSampler struct {
	client  *http.Client
	ep      endpoint
	display string // the URL without credentials
	source  string

	mu       sync.Mutex
	used     map[string]struct{} // recognised series found so far
	havePrev bool
	prevCPU  float64
	prevAt   time.Time
}

// NewMetrics samples a remote target through its metrics endpoint, such as
// the VES collector's /actuator/prometheus, once per Sample. It recognises
// process_cpu_seconds_total (a rate between scrapes), Micrometer's
// process_cpu_usage (a share of the whole machine, turned into percent of
// one core with system_cpu_count; without that gauge it is reported ×100,
// so 100 then means the whole machine), system_cpu_usage (Extra
// "system_cpu_pct"), process_resident_memory_bytes, and
// jvm_memory_used_bytes summed over pools (Extra "jvm_memory_used_bytes",
// and RSS when the endpoint has no resident-memory series). Series says
// which of them were found. The scrape asks as Prometheus does (see
// Accept) and reads protobuf, text and OpenMetrics alike.
func NewMetrics(rawURL string, opts HTTPOptions) (Sampler, error) {
	ep, err := parseEndpoint(rawURL, opts)
	if err != nil {
		return nil, fmt.Errorf("target metrics: %w", err)
	}
	t, err := newTransport(opts)
	if err != nil {
		return nil, fmt.Errorf("target metrics %s: %w", ep.url.String(), err)
	}
	return &metricsSampler{
		client:  &http.Client{Transport: ep.roundTripper(t), Timeout: timeout(opts)},
		ep:      ep,
		display: ep.url.String(),
		source:  "metrics:" + ep.url.String(),
		used:    make(map[string]struct{}),
	}, nil
}

// Source implements Sampler.
func (s *metricsSampler) Source() string { return s.source }

// Series implements Sampler: the recognised series found so far, sorted.
func (s *metricsSampler) Series() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.used))
	for name := range s.used {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// Sample implements Sampler.
func (s *metricsSampler) Sample(ctx context.Context, now time.Time) (Reading, error) {
	fams, err := s.scrape(ctx)
	if err != nil {
		return Reading{NoCPU: true}, scrub(err, s.ep.password)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.interpret(fams, now)
	if !ok {
		return Reading{NoCPU: true}, fmt.Errorf("scrape %s: none of the recognised series (%s, %s, %s, %s) found",
			s.display, seriesCPUSeconds, seriesCPUUsage, seriesRSS, seriesJVMUsed)
	}
	return r, nil
}

// scrape fetches and decodes the endpoint once.
func (s *metricsSampler) scrape(ctx context.Context) (families, error) {
	mfs, err := Scrape(ctx, s.client, s.ep.url.String())
	if err != nil {
		return nil, fmt.Errorf("scrape %s: %w", s.display, err)
	}
	return valuesOf(mfs), nil
}

// lookup reads recognised series from one scrape and remembers whether
// any was there.
type lookup struct {
	fams families
	s    *metricsSampler
	seen bool
}

// get returns the named series when the scrape has a usable value and
// records it as used.
func (l *lookup) get(name string) (float64, bool) {
	v, ok := l.fams.nonNegative(name)
	if ok {
		l.seen = true
		l.s.used[name] = struct{}{}
	}
	return v, ok
}

// interpret turns the recognised series into a reading; ok is false when
// none was found.
func (s *metricsSampler) interpret(fams families, now time.Time) (r Reading, ok bool) {
	l := &lookup{fams: fams, s: s}
	r.Extra = make(map[string]float64)
	r.NoCPU = !s.cpu(l, now, &r)
	if v, found := l.get(seriesSystemCPU); found {
		r.Extra[ExtraSystemCPUPct] = v * 100
	}
	jvm, haveJVM := l.get(seriesJVMUsed)
	if haveJVM {
		r.Extra[ExtraJVMMemoryUsed] = jvm
	}
	if v, found := l.get(seriesRSS); found {
		r.RSSBytes = toInt64(v)
	} else if haveJVM {
		r.RSSBytes = toInt64(jvm)
	}
	if v, found := l.get(seriesVSZ); found {
		r.VSZBytes = toInt64(v)
	}
	for _, name := range []string{seriesThreads, seriesJVMThreads, seriesGoThreads} {
		if v, found := l.get(name); found {
			r.Threads = int32(min(v, 1<<31-1))
			break
		}
	}
	if len(r.Extra) == 0 {
		r.Extra = nil
	}
	return r, l.seen
}

// cpu sets r's CPU from the counter rate when it can, else from
// Micrometer's gauge, and reports whether it did.
func (s *metricsSampler) cpu(l *lookup, now time.Time, r *Reading) bool {
	if v, found := l.get(seriesCPUSeconds); found {
		dt := now.Sub(s.prevAt).Seconds()
		rated := s.havePrev && dt > 0 && v >= s.prevCPU
		if rated {
			r.CPUPct = (v - s.prevCPU) / dt * 100
		}
		s.havePrev, s.prevCPU, s.prevAt = true, v, now
		if rated && finite(r.CPUPct) {
			return true
		}
	}
	usage, found := l.get(seriesCPUUsage)
	if !found {
		r.CPUPct = 0
		return false
	}
	cores := 1.0
	if n, ok := l.get(seriesCPUCount); ok && n >= 1 {
		cores = n
	}
	r.CPUPct = usage * cores * 100
	if !finite(r.CPUPct) {
		r.CPUPct = 0
		return false
	}
	return true
}

// toInt64 converts a byte count, saturating instead of overflowing.
func toInt64(v float64) int64 {
	if v >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(v)
}

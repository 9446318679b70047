package result

import (
	"strconv"
	"time"
)

// Schema identifies version 1 of the result document. Readers refuse other
// values so that a script never silently misreads a future layout.
const Schema = "vesload/result/v1"

// Result is the one JSON document a run produces (docs/ARCHITECTURE.md, "The result document"). Reports,
// comparisons, merges and CI gates read it, so its field names are a
// contract: fields may be added, never renamed.
type Result struct {
	Schema      string           `json:"schema"`
	Tool        Tool             `json:"tool"`
	Config      RunConfig        `json:"config"`
	Started     time.Time        `json:"started"`
	Ended       time.Time        `json:"ended"`
	DurationS   float64          `json:"duration_s"`
	Interrupted bool             `json:"interrupted"`
	Requests    Requests         `json:"requests"`
	Errors      map[string]int64 `json:"errors"`
	// MessageIDs counts the messageId of VES error bodies (SVC2000,
	// POL2000, …) so that a 400 for a schema failure is told apart from a
	// 400 for a mixed batch.
	MessageIDs map[string]int64 `json:"message_ids,omitempty"`
	RPS        Rate             `json:"rps"`
	Latency    Summary          `json:"latency_ms"`
	Service    Summary          `json:"service_ms"`
	Bytes      Bytes            `json:"bytes"`
	Target     *Target          `json:"target,omitempty"`
	Generator  Generator        `json:"generator"`
	Thresholds []Threshold      `json:"thresholds,omitempty"`
	Histograms Histograms       `json:"histograms"`
	Timeline   []Second         `json:"timeline"`
	// ByRequest breaks a run with a request mix down per request kind, in
	// the mix's order; a run of one kind of request has none.
	ByRequest []RequestStats `json:"by_request,omitempty"`
	// Steps summarises each step of a closed-model concurrency ramp.
	Steps []Step `json:"steps,omitempty"`
	// Delivery is what the consumer of the output topic saw (--consume).
	Delivery *Delivery `json:"delivery,omitempty"`
	// Shard is set when the run was one shard of several generators (or
	// started at a given instant); Merged when it merges several results.
	Shard  *ShardInfo `json:"shard,omitempty"`
	Merged *MergeInfo `json:"merged,omitempty"`
	// Warnings are the rolled-up notices of the run (one line each, never
	// one per request), shown by every renderer.
	Warnings []string `json:"warnings,omitempty"`
	// HV is the HV-VES part of a run with config.protocol "hv-ves".
	HV *HV `json:"hv,omitempty"`
	// Influx says what reached InfluxDB (--influx-url); write errors are
	// counted here and never fail the run.
	Influx *InfluxWrites `json:"influx,omitempty"`
	// Written says, for every other output that writes the run to a
	// store while it goes on (the table of outputs), what reached it, one
	// entry per output in the table's order; write errors are counted
	// here and never fail the run. InfluxDB keeps its own section, which
	// results written before this one carry.
	Written []OutputWrites `json:"written,omitempty"`
	// AbortedBy is the --abort-on-fail gate that stopped the run early;
	// Interrupted stays for signals, so a script tells the two apart.
	AbortedBy string `json:"aborted_by,omitempty"`
	// StoppedAtStart is why the start-of-run rule stopped the run (every
	// one of its first requests failed with one class), empty when it did
	// not: such a run did not complete, though no signal or gate of the
	// user's stopped it, and every rendering says so in these words.
	StoppedAtStart string `json:"stopped_at_start,omitempty"`
	// TargetExited says that the target's process, which the run started
	// (the built-in emulator), exited before the run's end and stopped
	// it, when and how; empty when it did not. Such a run is incomplete
	// (exit 1) whatever its gates say: what came after was never sent.
	TargetExited string `json:"target_exited,omitempty"`
	// Outputs names each output of the run that lost part of what it was
	// given (a slow or stuck output loses only itself); none when every
	// output is complete.
	Outputs []OutputLoss `json:"outputs_lost,omitempty"`
	// Preflight is the one real request sent before the schedule started,
	// outside every other figure of the result; absent when none was
	// (--no-preflight, HV-VES).
	Preflight *Preflight `json:"preflight,omitempty"`
}

// Preflight is the request a run sends before its schedule starts, to
// learn in a second that the target refuses every request. It is counted
// in none of the run's figures.
type Preflight struct {
	// Seq is the sequence the request was rendered with: its eventId is
	// "<run id>-<seq>".
	Seq       int64   `json:"seq"`
	Outcome   string  `json:"outcome"` // "ok" or the error class
	Code      int     `json:"code,omitempty"`
	MessageID string  `json:"message_id,omitempty"`
	ServiceMs float64 `json:"service_ms"`
}

// Summary is the preflight's request in one line, as the summary and the
// HTML page name it: a target's own count holds one request more than the
// run's, and this is the one.
func (p *Preflight) Summary() string {
	answer := p.Outcome
	if p.Code != 0 && p.Outcome != "ok" {
		answer += " (" + strconv.Itoa(p.Code) + ")"
	} else if p.Code != 0 {
		answer += " " + strconv.Itoa(p.Code)
	}
	if p.MessageID != "" {
		answer += " " + p.MessageID
	}
	return "1 request before the schedule, in none of these figures (the target counts it): " + answer +
		" in " + strconv.FormatFloat(p.ServiceMs, 'f', 2, 64) + " ms, sequence " + strconv.FormatInt(p.Seq, 10)
}

// InfluxWrites counts the batches of per-second points sent to InfluxDB.
type InfluxWrites struct {
	URL       string `json:"url"` // password hidden
	Batches   int64  `json:"batches"`
	Points    int64  `json:"points"`
	Failed    int64  `json:"failed"`
	Dropped   int64  `json:"dropped"`
	LastError string `json:"last_error,omitempty"`
}

// OutputWrites counts the batches one output sent to its store: the
// section any output of the table adds without a type of its own.
type OutputWrites struct {
	// Output names the output by its flag ("--remote-write-url").
	Output string `json:"output"`
	// URL is where it wrote, credentials hidden.
	URL string `json:"url"`
	// Batches counts the batches the store took, Samples the records
	// (samples, points) in them.
	Batches int64 `json:"batches"`
	Samples int64 `json:"samples"`
	// Failed counts the batches the store refused or that could not be
	// sent, Dropped those a full queue or the end of the run left out.
	Failed  int64 `json:"failed"`
	Dropped int64 `json:"dropped"`
	// LastError is the reason of the last failure.
	LastError string `json:"last_error,omitempty"`
}

// Tool names the build that produced the result.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// RunConfig is what the run was asked to do, with secrets redacted. It is
// what compare checks before it agrees that two runs are comparable.
type RunConfig struct {
	// Protocol is empty for the VES REST API and "hv-ves" for WTP frames.
	Protocol  string            `json:"protocol,omitempty"`
	URL       string            `json:"url"`
	Method    string            `json:"method"`
	RPS       float64           `json:"rps"`
	DurationS float64           `json:"duration_s"`
	Shape     string            `json:"shape,omitempty"`
	Pool      int               `json:"pool"`
	PoolWaitS float64           `json:"pool_wait_s"`
	TimeoutS  float64           `json:"timeout_s"`
	KeepAlive bool              `json:"keepalive"`
	Profile   string            `json:"profile,omitempty"`
	Event     string            `json:"event,omitempty"`
	EventSize int               `json:"event_size,omitempty"`
	Batch     int               `json:"batch,omitempty"`
	BodyFile  string            `json:"body_file,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
	User      string            `json:"user,omitempty"`
	Auth      string            `json:"auth,omitempty"`
	Insecure  bool              `json:"insecure,omitempty"`
	Emulator  bool              `json:"emulator,omitempty"`
	// EmulatorSeed is the seed the built-in emulator drew for its random
	// choices (error rate, jitter, publish drop): `vesload serve --seed`
	// repeats them.
	EmulatorSeed uint64 `json:"emulator_seed,omitempty"`
	// ExpectStatus is the set of statuses counted as success when it is
	// not the default 2xx, e.g. "202" (--expect-status).
	ExpectStatus string `json:"expect_status,omitempty"`
	// RunID prefixes every eventId the run sent, so that events seen at
	// the collector or downstream can be traced back to the run.
	RunID string `json:"run_id,omitempty"`
	// Digest identifies the scenario (everything the shards of one run
	// must agree on); merge refuses shards whose digests differ.
	Digest     string   `json:"digest,omitempty"`
	Thresholds []string `json:"thresholds,omitempty"`
	// AbortOnFail holds the --abort-on-fail gates, which are judged on
	// the whole run as well; AllowErrors records --allow-errors. With
	// Thresholds they let vesload merge judge the merged run as the run
	// itself would have been judged (package report/verdict).
	AbortOnFail []string `json:"abort_on_fail,omitempty"`
	AllowErrors bool     `json:"allow_errors,omitempty"`
	// Consumer says a lone delivery consumer (`vesload consume`) follows
	// the run beside its shards (--with-consumer): merge refuses the
	// shards' results without the consumer's, whose delivery figures
	// would otherwise be missing without a word.
	Consumer bool `json:"consumer,omitempty"`
	// Labels name what was tested (--label build=1.9.1, profile key
	// labels), so that a history of runs can be ordered and named by
	// build (vesload trend --by build).
	Labels map[string]string `json:"labels,omitempty"`
}

// Requests holds the request accounting. The invariant
// Scheduled == Sent + Errors["pool_exhausted"] + NotSent always holds: no
// request is dropped without being counted.
type Requests struct {
	Scheduled int64 `json:"scheduled"`
	Sent      int64 `json:"sent"`
	OK        int64 `json:"ok"`
	Errors    int64 `json:"errors"`
	NotSent   int64 `json:"not_sent"`

	// NotYetDue counts the requests of the schedule that were not yet
	// due when a checkpoint was taken, the run going on: they are in no
	// other count (Scheduled counts the requests due so far), so that a
	// live view does not call them not sent. A finished run has none.
	NotYetDue int64 `json:"not_yet_due,omitempty"`

	// InFlight counts sent requests still waiting for their answer when
	// a checkpoint was taken; they are in Sent but neither OK nor Errors.
	// A finished run has none.
	InFlight int64 `json:"in_flight,omitempty"`
}

// Rate compares the asked-for and the achieved request rate, per second.
type Rate struct {
	Target   float64 `json:"target"`
	Achieved float64 `json:"achieved"`
}

// Summary is a latency distribution in milliseconds, read off an HDR
// histogram. Count is the number of recorded values behind it.
type Summary struct {
	Count int64   `json:"count"`
	Min   float64 `json:"min"`
	Avg   float64 `json:"avg"`
	P50   float64 `json:"p50"`
	P90   float64 `json:"p90"`
	P95   float64 `json:"p95"`
	P99   float64 `json:"p99"`
	P999  float64 `json:"p999"`
	Max   float64 `json:"max"`
}

// Recorded tells a recorded distribution from an absent one (a result
// without requests, or one written before the figure existed).
func (s Summary) Recorded() bool { return s.Count > 0 || s.Max > 0 }

// Bytes counts the bytes that went out and came back on the wire, as
// JMeter's sentBytes and bytes do: for REST the whole HTTP exchange,
// headers included (of https, the HTTP bytes inside TLS); for HV-VES
// the frames written. Comparing them with an older result that counted
// bodies alone shows the headers' share.
type Bytes struct {
	Sent     int64 `json:"sent"`
	Received int64 `json:"received"`
}

// Target holds what was sampled of the system under test, when anything
// was. Source says where the figures came from (pid:1234,
// process:java, metrics:https://…/actuator/prometheus, …).
type Target struct {
	CPUAvgPct   float64 `json:"cpu_avg_pct"`
	CPUMaxPct   float64 `json:"cpu_max_pct"`
	RSSMaxBytes int64   `json:"rss_max_bytes"`
	Source      string  `json:"source"`
	// Series names the metric series a remote sampler used.
	Series []string `json:"series,omitempty"`
	// Extra holds named series such as PromQL queries, with avg and max.
	Extra map[string]SeriesStats `json:"extra,omitempty"`
	// SampleErrors counts samples that could not be taken; a sampler
	// failure never stops a run.
	SampleErrors int64  `json:"sample_errors,omitempty"`
	LastError    string `json:"last_error,omitempty"`
	Exited       bool   `json:"exited,omitempty"`
}

// SeriesStats summarises one sampled series over the run.
type SeriesStats struct {
	Avg     float64 `json:"avg"`
	Max     float64 `json:"max"`
	Samples int     `json:"samples"`
}

// Generator is vesload's own health: when it could not keep the schedule
// the latency figures are suspect and Saturated says so.
type Generator struct {
	CPUAvgPct   float64 `json:"cpu_avg_pct"`
	CPUMaxPct   float64 `json:"cpu_max_pct"`
	RSSMaxBytes int64   `json:"rss_max_bytes"`
	// RSSAnonMaxBytes is the highest anonymous resident memory (heap,
	// stacks): the memory a run grows, where RSS also counts the shared,
	// reclaimable pages of the binary. GoHeapMaxBytes is the highest Go
	// heap in use. Both are sampled once a second; 0 when not measured.
	RSSAnonMaxBytes  int64   `json:"rss_anon_max_bytes,omitempty"`
	GoHeapMaxBytes   int64   `json:"go_heap_max_bytes,omitempty"`
	DispatchLagP50Ms float64 `json:"dispatch_lag_p50_ms"`
	DispatchLagP99Ms float64 `json:"dispatch_lag_p99_ms"`
	DispatchLagMaxMs float64 `json:"dispatch_lag_max_ms"`
	Saturated        bool    `json:"saturated"`
	MaxInFlight      int64   `json:"max_in_flight"`
}

// Threshold is one CI gate and its outcome.
type Threshold struct {
	Expr  string  `json:"expr"`
	Value float64 `json:"value"`
	Pass  bool    `json:"pass"`
	// Unit is the unit of Value (ms, %, B, /s; empty for counts), so that
	// "p99<0.5s" measured at 312 is not read as 312 seconds.
	Unit string `json:"unit,omitempty"`
	// Reason says why a gate failed without a measurement (the metric is
	// missing from the result, e.g. the target was not sampled).
	Reason string `json:"reason,omitempty"`
	// Kind says who set the gate, so that every rendering (JUnit's
	// classname, the summary) names it alike: empty for a --threshold,
	// KindAbort, KindRule or KindBaseline.
	Kind string `json:"kind,omitempty"`
	// Undecided marks a baseline gate the figures could not decide; Pass
	// is then what --gate-undecided made of it.
	Undecided bool `json:"undecided,omitempty"`
	// Note is a baseline gate's verdict in one sentence: both figures,
	// the p-value and the tolerance.
	Note string `json:"note,omitempty"`
}

// The kinds of gate a run is judged by (Threshold.Kind).
const (
	// KindAbort is an --abort-on-fail gate, judged on the whole run too.
	KindAbort = "abort"
	// KindRule is a built-in rule the run broke (ok>0, hv.received>0, …).
	KindRule = "rule"
	// KindBaseline is a --gate against a stored result (run --baseline);
	// Value is the change in the gate's tolerance kind.
	KindBaseline = "baseline"
)

// Histograms carries the full distributions as base64 of HdrHistogram's
// V2 compressed encoding, so that results can be merged and re-rendered
// without losing precision.
type Histograms struct {
	Latency string `json:"latency"`
	Service string `json:"service"`
}

// RequestStats is one request kind's share of a mixed run.
type RequestStats struct {
	Name     string           `json:"name"`
	Weight   int              `json:"weight"`
	Requests Requests         `json:"requests"`
	Errors   map[string]int64 `json:"errors,omitempty"`
	Latency  Summary          `json:"latency_ms"`
	Service  Summary          `json:"service_ms"`
	// Histogram is this request kind's latency distribution, encoded as
	// Histograms.Latency is.
	Histogram string `json:"histogram,omitempty"`
}

// Step is one step of a closed-model run: Concurrency requests kept in
// flight for DurationS seconds.
type Step struct {
	Concurrency int     `json:"concurrency"`
	StartS      float64 `json:"start_s"`
	DurationS   float64 `json:"duration_s"`
	Sent        int64   `json:"sent"`
	OK          int64   `json:"ok"`
	Errors      int64   `json:"errors"`
	RPS         float64 `json:"rps"`
	Latency     Summary `json:"latency_ms"`
	// Histogram is the step's latency distribution, encoded as
	// Histograms.Latency is, so that shards' steps merge without loss.
	Histogram string `json:"histogram,omitempty"`
}

// Second is one entry of the per-second timeline. T counts seconds from
// the start of the run.
type Second struct {
	T             int64 `json:"t"`
	Scheduled     int64 `json:"scheduled"`
	Sent          int64 `json:"sent"`
	OK            int64 `json:"ok"`
	Errors        int64 `json:"errors"`
	PoolExhausted int64 `json:"pool_exhausted"`
	// ErrorsByClass breaks Errors down by class for charts of errors over
	// time; empty seconds carry no map.
	ErrorsByClass map[string]int64 `json:"errors_by_class,omitempty"`
	P50Ms         float64          `json:"p50_ms"`
	// P95Ms and AvgMs let a single run be gated on them against a
	// baseline (run --baseline --gate 'avg<+1ms'); AvgMs is the mean of
	// the second's latencies, which a merge weights by Sent exactly.
	P95Ms          float64 `json:"p95_ms,omitempty"`
	AvgMs          float64 `json:"avg_ms,omitempty"`
	P99Ms          float64 `json:"p99_ms"`
	MaxMs          float64 `json:"max_ms"`
	TargetCPUPct   float64 `json:"target_cpu_pct,omitempty"`
	TargetRSSBytes int64   `json:"target_rss_bytes,omitempty"`
	GenCPUPct      float64 `json:"generator_cpu_pct,omitempty"`
	// GenRSSBytes is vesload's own resident memory at the end of the
	// second, when it samples itself.
	GenRSSBytes int64 `json:"generator_rss_bytes,omitempty"`
	// GenSchedP99Ms is how long vesload's goroutines waited, runnable,
	// before they ran (p99 over the second, ms): a generator short of CPU
	// adds that wait to the latency it measures, even where its own CPU
	// reading is low (the core was another process's, or the hypervisor's).
	GenSchedP99Ms float64 `json:"generator_sched_p99_ms,omitempty"`
	// InFlight is the most requests on a connection at once during the
	// second: against the pool size it shows how close the run came to
	// pool exhaustion.
	InFlight int64 `json:"in_flight,omitempty"`
	// BytesSent is the bytes on the wire sent in this second (as Bytes), from which
	// data rates (MB/s) of high-volume runs are read.
	BytesSent int64 `json:"bytes_sent,omitempty"`
	// Concurrency is the closed-model step's concurrency in this second.
	Concurrency int `json:"concurrency,omitempty"`
}

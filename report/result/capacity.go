package result

import (
	"slices"
	"time"
)

// CapacitySchema identifies version 1 of the document `vesload capacity`
// writes: a document of its own, so that a reader of run results refuses
// it by its schema instead of misreading a search as one run.
const CapacitySchema = "vesload/capacity/v1"

// The causes a failing capacity step is laid to (Capacity.LimitedBy).
const (
	CauseTarget    = "target"
	CauseGenerator = "generator"
)

// CapacityDocument is the result of a capacity search: what was asked,
// when, and what the search found. Its field names are a contract, as a
// run result's are.
type CapacityDocument struct {
	Schema   string         `json:"schema"`
	Tool     Tool           `json:"tool"`
	Config   CapacityConfig `json:"config"`
	Started  time.Time      `json:"started"`
	Ended    time.Time      `json:"ended"`
	Capacity Capacity       `json:"capacity"`
	// Labels name what was tested (--label build=1.9.1), as a run
	// result's do: `vesload trend --by` orders searches by them.
	Labels map[string]string `json:"labels,omitempty"`
	// Warnings are the set-up's notices, one line each.
	Warnings []string `json:"warnings,omitempty"`
}

// CapacityConfig is what a capacity search was asked: the target (its
// password never), the range, the steps, the precision, the budget and
// the SLOs every step was judged by.
type CapacityConfig struct {
	URL string `json:"url"`
	// Protocol is ProtocolHV for a search of HV-VES message rates
	// (capacity hv), with its Producers and their messages' SizeBytes;
	// empty for REST.
	Protocol  string `json:"protocol,omitempty"`
	Producers int    `json:"producers,omitempty"`
	SizeBytes int    `json:"size_bytes,omitempty"`
	// Vary is VaryProducers when the search added producers, each sending
	// one message every IntervalS (Producers is then each step's own),
	// rather than the rate over a fixed number of them.
	Vary         string   `json:"vary,omitempty"`
	IntervalS    float64  `json:"interval_s,omitempty"`
	Emulator     bool     `json:"emulator,omitempty"`
	StartRPS     float64  `json:"start_rps"`
	MaxRPS       float64  `json:"max_rps"`
	StepS        float64  `json:"step_s"`
	WarmupS      float64  `json:"warmup_s"`
	PrecisionPct float64  `json:"precision_pct"`
	BudgetS      float64  `json:"budget_s"`
	SLOs         []string `json:"slos"`
	Pool         int      `json:"pool,omitempty"`
	TimeoutS     float64  `json:"timeout_s"`
	Profile      string   `json:"profile,omitempty"`
}

// Capacity is what a search found: the highest rate that held every SLO,
// the lowest that broke one and why, and every step.
type Capacity struct {
	// MaxRPS is the highest rate that held every SLO (0: none did).
	MaxRPS float64 `json:"max_rps"`
	// FailRPS is the lowest rate that broke one (0: none did), BrokenBy
	// the gate that broke it, with its figure, and LimitedBy who it is
	// laid to (CauseTarget, CauseGenerator).
	FailRPS float64 `json:"fail_rps,omitempty"`
	// MaxProducers and FailProducers are MaxRPS and FailRPS in producers,
	// when the search added producers (CapacityConfig.Vary).
	MaxProducers  int    `json:"max_producers,omitempty"`
	FailProducers int    `json:"fail_producers,omitempty"`
	BrokenBy      string `json:"broken_by,omitempty"`
	LimitedBy     string `json:"limited_by,omitempty"`
	// PrecisionPct is the gap between MaxRPS and FailRPS in percent of
	// MaxRPS; AskedPrecisionPct what was asked.
	PrecisionPct      float64 `json:"precision_pct,omitempty"`
	AskedPrecisionPct float64 `json:"asked_precision_pct"`
	// Confirmed says that the boundary's two rates kept their verdicts
	// when run again.
	Confirmed bool `json:"confirmed"`
	// Undecided says what the search could not decide, and why.
	Undecided string `json:"undecided,omitempty"`
	// Advice is the one line of a search laid to the generator.
	Advice  string         `json:"advice,omitempty"`
	SpentS  float64        `json:"spent_s"`
	BudgetS float64        `json:"budget_s"`
	Steps   []CapacityStep `json:"steps"`
}

// VaryProducers is CapacityConfig.Vary of a search that added HV-VES
// producers (capacity hv --vary producers).
const VaryProducers = "producers"

// CapacityStep is one step's figures over its measured seconds (after
// the warm-up) and its verdict.
type CapacityStep struct {
	N          int     `json:"n"`
	Phase      string  `json:"phase"`
	OfferedRPS float64 `json:"offered_rps"`
	// Producers is the step's producers when the search added producers
	// (CapacityConfig.Vary): OfferedRPS is theirs together.
	Producers    int     `json:"producers,omitempty"`
	AchievedRPS  float64 `json:"achieved_rps"`
	Requests     int64   `json:"requests"`
	P50Ms        float64 `json:"p50_ms"`
	P99Ms        float64 `json:"p99_ms"`
	ErrorRatePct float64 `json:"error_rate_pct"`
	// E2EP99Ms is the 99th percentile of the whole step's travel time
	// into Kafka, warm-up included, when its events were followed (an
	// HV-VES step's): the figure that shows a receiver falling behind.
	E2EP99Ms *float64 `json:"e2e_p99_ms,omitempty"`
	Pass     bool     `json:"pass"`
	// Decided is the figure that decided: the first SLO broken, or on a
	// pass the one nearest its limit.
	Decided string `json:"decided"`
	// Cause is who a failing step is laid to: target or generator.
	Cause        string      `json:"cause,omitempty"`
	StoppedEarly bool        `json:"stopped_early,omitempty"`
	Gates        []Threshold `json:"gates"`
	// TargetCPUMaxPct is the target's highest CPU, when sampled.
	TargetCPUMaxPct *float64 `json:"target_cpu_max_pct,omitempty"`
	// GeneratorSaturated, DispatchLagP99Ms, GeneratorSchedP99Ms (how long
	// its goroutines waited to run, p99 of the measured seconds) and
	// PoolExhausted are the generator's facts the cause was read from.
	GeneratorSaturated  bool    `json:"generator_saturated,omitempty"`
	DispatchLagP99Ms    float64 `json:"dispatch_lag_p99_ms"`
	GeneratorSchedP99Ms float64 `json:"generator_sched_p99_ms,omitempty"`
	PoolExhausted       int64   `json:"pool_exhausted,omitempty"`
	TookS               float64 `json:"took_s"`
	// SpentS is the budget spent once this step ended; BudgetS the whole.
	SpentS  float64 `json:"spent_s"`
	BudgetS float64 `json:"budget_s"`
	// Result is the file of the step's whole run result, warm-up
	// included, when the search kept them (--step-results).
	Result string `json:"result,omitempty"`
}

// Followed reports whether the step followed its events into Kafka (an
// HV-VES step's travel time, E2EP99Ms).
func (s CapacityStep) Followed() bool { return s.E2EP99Ms != nil }

// AnyFollowed reports whether some step followed its events: the
// renderings then add the travel time's column.
func AnyFollowed(steps []CapacityStep) bool { return slices.ContainsFunc(steps, CapacityStep.Followed) }

package testserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// Defaults of the emulator, chosen to match the collector where it has a
// setting and documented where it does not.
const (
	// DefaultAddr listens on a free loopback port, which is what tests want.
	DefaultAddr = "127.0.0.1:0"
	// DefaultBackendPool is the collector's downstream connection pool size.
	DefaultBackendPool = 16
	// DefaultMaxBodyBytes is the largest request body accepted; larger
	// bodies get 413. The VES specification limits a message to 2 MB
	// (taken as 2 MiB); the collector passes its downstream's 413 on.
	DefaultMaxBodyBytes = 2 << 20
	// DefaultDuplicateWindow is how many event IDs the duplicate detector
	// remembers at most (about 16 MiB at this size). It always remembers
	// at least the most recent half of that.
	DefaultDuplicateWindow = 1 << 20
	// DefaultCloseTimeout bounds how long Close waits for handlers.
	DefaultCloseTimeout = 5 * time.Second
)

// Compatibility modes, as the collector's collector.response.compatibility.
const (
	CompatV72    = "v7.2"   // success 202, publish failure 500 SVC2000 (the collector's default)
	CompatLegacy = "legacy" // success 200, publish failure 503 SVC2000 (the setting "None")
	// CompatKafka is the Kafka generation of the collector: v7.2 answers,
	// given before the broker acknowledges. It is a setting of a Stack
	// (Prepare), not of Options: the answer's timing is the publisher's.
	CompatKafka = "kafka"
)

// Options configure an emulator. The zero value is a collector with the
// default settings (v7.2 responses, no auth, validation on, no backend
// model) on a free loopback port.
type Options struct {
	// Addr is the listen address; empty means DefaultAddr.
	Addr string
	// Compat is CompatV72 (also the empty string) or CompatLegacy ("none"
	// is accepted too, as the collector's property spells it).
	Compat string
	// Auth is "USER:PASS": when set, event and healthcheck requests need
	// this HTTP basic auth, else they get 401 POL2000.
	Auth string
	// AuthCost, when set (4..MaxAuthCost), keeps only a BCrypt hash of
	// the Auth password made at this cost and verifies every basic-auth
	// request against it, as the collector does in certBasicAuth mode
	// (cost 10): the emulator then spends the collector's CPU per
	// request. Zero compares the password directly (cheap).
	AuthCost int
	// TLSCertFile and TLSKeyFile, both set, serve HTTPS.
	TLSCertFile, TLSKeyFile string
	// ClientCAFile (with TLS and Auth) asks clients for a certificate and
	// lets in, without basic auth, any that this PEM bundle verifies:
	// the collector's certBasicAuth mode.
	ClientCAFile string
	// HTTPAddr (with TLS and Auth) also listens for plain HTTP here, as
	// the collector's HTTP port: every request but /healthcheck gets 400
	// "Operation not permitted".
	HTTPAddr string

	// PublishTime is how long each accepted request holds a downstream
	// connection, as the collector's synchronous publish to DMaaP does.
	// Zero turns the backend model off: requests are accepted at once.
	PublishTime time.Duration
	// BackendPool is the number of downstream connections (default 16
	// when PublishTime > 0).
	BackendPool int
	// BackendQueue is how many requests may wait for a connection
	// (default 2*BackendPool); past that a request fails at once, as the
	// collector's client does with "Pending acquire queue has reached its
	// maximum size". A negative value means no queue: a request that
	// finds every connection busy fails at once.
	BackendQueue int

	// Publish, when set, is handed the body of every accepted request
	// (batch: an eventList) after the backend model, as the collector
	// hands its events to its publisher. A non-nil error is answered as
	// the collector's publish failure. body is only valid during the
	// call: copy what is kept. quit closes when the emulator closes.
	Publish func(body []byte, batch bool, quit <-chan struct{}) error

	// Latency is added to every response to an emulated collector route;
	// Jitter spreads it uniformly over [Latency-Jitter, Latency+Jitter],
	// never below zero.
	Latency, Jitter time.Duration
	// ErrorRate is the fraction (0..1) of valid event requests answered
	// with the publish-failure response, without using the backend.
	ErrorRate float64
	// Stall freezes the emulator once: from StallAt after Start for
	// Stall, every response waits until the stall ends.
	Stall, StallAt time.Duration
	// Seed makes the random choices (error injection, jitter)
	// reproducible; zero picks a random seed.
	Seed uint64

	// NoValidate turns off the schema checks, or without SchemaDir the
	// built-in header-field checks (the collector's
	// collector.schema.checkflag=-1). Parsing, the event/eventList shape,
	// the stndDefined data check, the batch checks and routing stay on.
	// The zero value validates.
	NoValidate bool
	// SchemaDir holds the collector's schema files, laid out as its etc/
	// directory (and ONAP's reference material): CommonEventFormat_27.2.json
	// (v1-v4), CommonEventFormat_28.4.1.json (v5),
	// CommonEventFormat_30.2.1_ONAP.json (v7) and, optionally,
	// externalRepo/schema-map.json with the 3GPP schemas it maps. They
	// are read and compiled once, on start. Empty, or a directory that
	// does not exist, leaves the emulator with its built-in header rules
	// (and says so through Logf); a directory with a missing or broken
	// schema file is an error.
	SchemaDir string
	// StrictJSON refuses any body that is not strict JSON (RFC 8259, no
	// duplicate keys) with 400 SVC0002 "Incorrect JSON payload". The zero
	// value parses as the collector does (org.json: lenient, and a 500
	// for what it throws on).
	StrictJSON bool
	// Streams is the collector's collector.dmaap.streamid setting
	// ("domain=stream|domain=stream|..."; a stndDefined event's domain is
	// its stndDefinedNamespace). An event whose domain has no stream gets
	// 400 SVC2000. Empty means DefaultStreams.
	Streams string
	// MaxBodyBytes is the largest accepted request body (default
	// DefaultMaxBodyBytes); larger bodies get 413.
	MaxBodyBytes int
	// DuplicateWindow is how many event IDs are remembered for
	// duplicate detection (default DefaultDuplicateWindow).
	DuplicateWindow int
	// RecordArrivals keeps the gaps between consecutive event requests'
	// arrivals (Stats.ArrivalGaps), to check that generators sharing a
	// schedule interleave rather than burst.
	RecordArrivals bool
	// CloseTimeout bounds Close (default DefaultCloseTimeout).
	CloseTimeout time.Duration
	// Logf receives the emulator's rare log lines (backend saturation,
	// server errors); nil discards them. Lines never contain secrets.
	Logf func(format string, args ...any)
}

// DefaultStreams is collector.dmaap.streamid of the collector's deployed
// default configuration (etc/ves_application_config.yaml), which routes
// every domain of CommonEventFormat 30.2.1 but perf3gpp.
const DefaultStreams = "fault=ves-fault|syslog=ves-syslog|heartbeat=ves-heartbeat|measurement=ves-measurement|" +
	"measurementsForVfScaling=ves-measurement|mobileFlow=ves-mobileflow|other=ves-other|stateChange=ves-statechange|" +
	"thresholdCrossingAlert=ves-thresholdCrossingAlert|voiceQuality=ves-voicequality|sipSignaling=ves-sipsignaling|" +
	"notification=ves-notification|pnfRegistration=ves-pnfRegistration|3GPP-FaultSupervision=ves-3gpp-fault-supervision|" +
	"3GPP-Heartbeat=ves-3gpp-heartbeat|3GPP-Provisioning=ves-3gpp-provisioning|" +
	"3GPP-PerformanceAssurance=ves-3gpp-performance-assurance"

// settings are Options after defaults and checks.
type settings struct {
	Options
	legacy   bool
	user     string
	password string
	schemas  *schemaSet          // nil: built-in header rules
	streams  map[string]struct{} // domains (and namespaces) with a stream
	notice   string              // what validation does, logged on start
}

// normalise applies defaults and rejects inconsistent options.
func (o Options) normalise() (settings, error) {
	s := settings{Options: o}
	if s.Addr == "" {
		s.Addr = DefaultAddr
	}
	switch strings.ToLower(s.Compat) {
	case "", CompatV72:
		s.Compat = CompatV72
	case CompatLegacy, "none":
		s.Compat, s.legacy = CompatLegacy, true
	default:
		return s, fmt.Errorf("compat %q: want %q or %q", o.Compat, CompatV72, CompatLegacy)
	}
	if err := s.parseAuth(); err != nil {
		return s, err
	}
	if err := s.checkTLS(); err != nil {
		return s, err
	}
	if err := s.checkDurations(); err != nil {
		return s, err
	}
	if !(s.ErrorRate >= 0 && s.ErrorRate <= 1) {
		return s, fmt.Errorf("error rate %v: want a fraction between 0 and 1", o.ErrorRate)
	}
	if err := s.validation(); err != nil {
		return s, err
	}
	return s, s.backendDefaults()
}

// validation parses the stream setting and loads the schema directory.
func (s *settings) validation() error {
	var err error
	if s.streams, err = parseStreams(s.Streams); err != nil {
		return err
	}
	if s.SchemaDir == "" {
		s.notice = "validation: no schema directory: commonEventHeader checked with built-in rules only (no full schema, format or stndDefined data checks)"
		return nil
	}
	if why := notSchemaDir(s.SchemaDir); why != "" {
		s.notice = "validation: schema directory " + s.SchemaDir + " " + why + ": commonEventHeader checked with built-in rules only (no full schema, format or stndDefined data checks)"
		return nil
	}
	if s.schemas, err = loadSchemas(s.SchemaDir); err != nil {
		return err
	}
	s.notice = s.schemas.describe()
	return nil
}

// notSchemaDir says why dir cannot be a schema directory ("not found",
// "is not a directory", the error reading it), or "" when it is a
// directory: /etc/passwd exists, and "not found" would send the user
// looking for it.
func notSchemaDir(dir string) string {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "not found"
	case err != nil:
		return "cannot be read (" + err.Error() + ")"
	case !st.IsDir():
		return "is not a directory"
	}
	return ""
}

// CheckStreams reports whether v is a valid Options.Streams value, so
// that a command can refuse a bad flag before starting anything.
func CheckStreams(v string) error {
	_, err := parseStreams(v)
	return err
}

// parseStreams reads collector.dmaap.streamid: "domain=stream" pairs
// separated by '|' (a stream list after '=' may hold several, comma
// separated). Only the domains matter to the emulator.
func parseStreams(v string) (map[string]struct{}, error) {
	if v == "" {
		v = DefaultStreams
	}
	m := map[string]struct{}{}
	for _, pair := range strings.Split(v, "|") {
		domain, stream, ok := strings.Cut(pair, "=")
		if !ok || strings.TrimSpace(domain) == "" || strings.TrimSpace(stream) == "" {
			return nil, fmt.Errorf("%q is not DOMAIN=STREAM", pair)
		}
		m[domain] = struct{}{}
	}
	return m, nil
}

func (s *settings) parseAuth() error {
	if s.Auth == "" {
		return nil
	}
	user, pass, ok := strings.Cut(s.Auth, ":")
	if !ok || user == "" {
		return errors.New("auth: want USER:PASS")
	}
	s.user, s.password = user, pass
	return nil
}

func (s *settings) checkTLS() error {
	if (s.TLSCertFile == "") != (s.TLSKeyFile == "") {
		return errors.New("TLS needs both a certificate and a key file")
	}
	if (s.ClientCAFile != "" || s.HTTPAddr != "") && (s.TLSCertFile == "" || s.user == "") {
		return errors.New("a client CA and a plain HTTP port need TLS and auth (the certBasicAuth setup)")
	}
	if s.AuthCost != 0 && (s.AuthCost < bcrypt.MinCost || s.AuthCost > MaxAuthCost) {
		return fmt.Errorf("auth cost %d: want %d..%d, or 0 for none", s.AuthCost, bcrypt.MinCost, MaxAuthCost)
	}
	return nil
}

func (s *settings) checkDurations() error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"publish time", s.PublishTime}, {"latency", s.Latency}, {"jitter", s.Jitter},
		{"stall", s.Stall}, {"stall start", s.StallAt}, {"close timeout", s.CloseTimeout},
	} {
		if d.v < 0 {
			return fmt.Errorf("%s %v: must not be negative", d.name, d.v)
		}
	}
	if s.CloseTimeout == 0 {
		s.CloseTimeout = DefaultCloseTimeout
	}
	if s.MaxBodyBytes < 0 || s.DuplicateWindow < 0 {
		return errors.New("max body bytes and duplicate window must not be negative")
	}
	if s.MaxBodyBytes == 0 {
		s.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if s.DuplicateWindow == 0 {
		s.DuplicateWindow = DefaultDuplicateWindow
	}
	return nil
}

func (s *settings) backendDefaults() error {
	if s.BackendPool < 0 {
		return errors.New("backend pool must not be negative")
	}
	if s.PublishTime == 0 {
		return nil
	}
	s.BackendPool, s.BackendQueue = s.backend()
	return nil
}

// backend is the backend model's connections and queue after defaults:
// a pool of 0 is DefaultBackendPool, a queue of 0 twice the pool, a
// negative queue none at all. Start and Describe both read it from here.
func (o Options) backend() (pool, queue int) {
	pool, queue = o.BackendPool, o.BackendQueue
	if pool == 0 {
		pool = DefaultBackendPool
	}
	switch {
	case queue == 0:
		queue = 2 * pool
	case queue < 0:
		queue = 0
	}
	return pool, queue
}

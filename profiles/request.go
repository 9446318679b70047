package profiles

import (
	"fmt"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vesload/vesload/internal/suggest"
)

// Request is one entry of the weighted request mix. A request sends either
// generated events (Event and Size, Batch events per request) or a body
// template (Body inline, or BodyFile); results are reported per Name.
type Request struct {
	// Name labels this request in the per-request report.
	Name string `yaml:"name,omitempty"`
	// Weight is the relative share of this request in the mix (≥ 1).
	Weight int `yaml:"weight,omitempty"`
	// Path replaces the path of the target URL, e.g. /eventListener/v7.
	Path string `yaml:"path,omitempty"`
	// Batch sends this many events per request as an eventList to the
	// batch endpoint; 0 sends single events.
	Batch int `yaml:"batch,omitempty"`
	// Event is the VES domain of generated events.
	Event string `yaml:"event,omitempty"`
	// Size pads generated events to about this many bytes (0: natural).
	Size int `yaml:"size,omitempty"`
	// Body is an inline body template (JMeter-style functions such as
	// ${__time()} and ${NAME} variables).
	Body string `yaml:"body,omitempty"`
	// BodyFile is a body template file, relative to the profile's folder.
	BodyFile string `yaml:"body_file,omitempty"`
	// Headers are added to this request only.
	Headers map[string]string `yaml:"headers,omitempty"`
	// RawBody sends a body template as written even when it does not
	// render to JSON (ONAP's stndDefined plans post such bodies on
	// purpose); the run still warns about it.
	RawBody bool `yaml:"raw_body,omitempty"`
}

// Domains are the VES event domains the generators know, in the order
// the documentation lists them.
var domains = []string{"fault", "measurement", "heartbeat", "notification", "pnfRegistration", "stndDefined"}

// Domains returns the VES event domains a request's Event may name.
func Domains() []string { return append([]string(nil), domains...) }

// DefaultRequest is the mix used when a profile lists no request: one
// generated fault event.
func DefaultRequest() Request {
	return Request{Name: "fault", Weight: 1, Event: "fault"}
}

// maxSize bounds generated event sizes and batch counts: a larger body is
// a mistake, and the collector refuses it anyway.
const (
	maxSize  = 16 << 20
	maxBatch = 100_000
)

// applyDefaults fills omitted request fields: weight 1, event fault when
// there is no body, and a name from the event or body.
func (r *Request) applyDefaults(i int, weightGiven bool) {
	if !weightGiven && r.Weight == 0 {
		r.Weight = 1
	}
	if r.Event == "" && r.Body == "" && r.BodyFile == "" {
		r.Event = "fault"
	}
	if r.Name != "" {
		return
	}
	switch {
	case r.Event != "":
		r.Name = r.Event
	case r.BodyFile != "":
		r.Name = strings.TrimSuffix(filepath.Base(r.BodyFile), filepath.Ext(r.BodyFile))
	default:
		r.Name = fmt.Sprintf("request-%d", i+1)
	}
}

func validateRequests(reqs []Request) error {
	seen := make(map[string]int, len(reqs))
	for i, r := range reqs {
		path := fmt.Sprintf("requests[%d]", i)
		if err := r.validate(path); err != nil {
			return err
		}
		if j, dup := seen[r.Name]; dup {
			return fieldErr(path+".name", "%q is also the name of requests[%d]: want unique names", r.Name, j)
		}
		seen[r.Name] = i
	}
	return nil
}

func (r *Request) validate(path string) error {
	switch {
	case r.Name == "":
		return fieldErr(path+".name", "missing: want a name for the per-request report")
	case r.Weight <= 0:
		return fieldErr(path+".weight", "%d: want a weight of at least 1", r.Weight)
	case r.Body != "" && r.BodyFile != "":
		return fieldErr(path, "both body and body_file: want one of them")
	case r.Event != "" && (r.Body != "" || r.BodyFile != ""):
		return fieldErr(path+".event", "set with a body template: want event (and size) or body/body_file, not both")
	case r.Event == "" && r.Body == "" && r.BodyFile == "":
		return fieldErr(path, "no event, body or body_file: want one of them")
	case r.Size < 0 || r.Size > maxSize:
		return fieldErr(path+".size", "want a size in bytes between 0 and %d", maxSize)
	case r.Size > 0 && r.Event == "":
		return fieldErr(path+".size", "applies to generated events only: set event, or size the body template")
	case r.Batch < 0 || r.Batch > maxBatch:
		return fieldErr(path+".batch", "want a number of events per request between 0 and %d", maxBatch)
	case r.Batch > 0 && r.Event == "":
		return fieldErr(path+".batch", "applies to generated events only: set event")
	case r.RawBody && r.Body == "" && r.BodyFile == "":
		return fieldErr(path+".raw_body", "applies to body templates only: set body or body_file")
	case r.Path != "" && !strings.HasPrefix(r.Path, "/") && !strings.HasPrefix(r.Path, "${"):
		return fieldErr(path+".path", "%q: want an absolute path such as /eventListener/v7", r.Path)
	}
	if r.Event != "" {
		if err := validateDomain(path+".event", r.Event); err != nil {
			return err
		}
	}
	return validateHeaders(path+".headers", r.Headers)
}

func validateDomain(path, d string) error {
	for _, k := range domains {
		if d == k {
			return nil
		}
	}
	msg := fmt.Sprintf("unknown VES domain %q: want one of %s", d, strings.Join(domains, ", "))
	if s := suggest.Nearest(d, domains); s != "" {
		msg = fmt.Sprintf("unknown VES domain %q: did you mean %q? (want one of %s)", d, s, strings.Join(domains, ", "))
	}
	return &FieldError{Path: path, Msg: msg}
}

// validateHeaders rejects malformed header names, credentials in clear
// (an Authorization header would put a secret in the profile), headers
// the transport would not send as written (CheckHeaderName) and a name
// given twice in two spellings, of which one only would be sent.
func validateHeaders(path string, h map[string]string) error {
	seen := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(h)) {
		if !validToken(name) {
			return fieldErr(path, "%q is not a valid header name", name)
		}
		switch http.CanonicalHeaderKey(name) {
		case "Authorization", "Proxy-Authorization":
			return fieldErr(path+"."+name, "credentials are not written in a profile: use target.auth with password_file or password_env")
		}
		if err := CheckHeaderName(name); err != nil {
			return fieldErr(path+"."+name, "%v", err)
		}
		if other, ok := seen[http.CanonicalHeaderKey(name)]; ok {
			return fieldErr(path+"."+name, "the same header as %s: give it once", other)
		}
		seen[http.CanonicalHeaderKey(name)] = name
		if strings.ContainsAny(h[name], "\r\n") {
			return fieldErr(path+"."+name, "header value spans lines: want one line")
		}
	}
	return nil
}

// CheckHeaderName refuses the headers that frame a request or concern one
// connection (Content-Length, Transfer-Encoding, Connection and the other
// hop-by-hop headers): the transport writes them from the body and
// --keep-alive, so one given would either not be sent, while the result
// recorded it, or break the request's framing. Every other header, Host
// included, is sent as written. It is the one rule of the command line's
// --header and a profile's headers.
func CheckHeaderName(name string) error {
	switch c := http.CanonicalHeaderKey(name); c {
	case "Content-Length", "Transfer-Encoding", "Trailer", "Te":
		return fmt.Errorf("%s is written by vesload from the body, never as given: leave it out", name)
	case "Connection", "Keep-Alive", "Proxy-Connection", "Upgrade":
		return fmt.Errorf("%s concerns the connection, which vesload manages (--keep-alive): leave it out", name)
	}
	return nil
}

// validToken reports whether s is an RFC 9110 token (a header name or
// method).
func validToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			continue
		}
		if !strings.ContainsRune("!#$%&'*+-.^_`|~", rune(c)) {
			return false
		}
	}
	return true
}

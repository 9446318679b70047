package testserver

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Describe says in a few words how an emulator with these options
// behaves (compatibility, auth, backend model, injected latency, errors
// and stalls), for the line it logs on start so that a reader of a run's
// log knows what the target did. It never includes the credentials.
func (o Options) Describe() string {
	parts := []string{"compat " + strings.ToLower(o.Compat)}
	switch {
	case o.Auth != "" && o.AuthCost > 0:
		parts = append(parts, fmt.Sprintf("basic auth (BCrypt cost %d)", o.AuthCost))
	case o.Auth != "":
		parts = append(parts, "basic auth")
	}
	if o.ClientCAFile != "" {
		parts = append(parts, "client certificates")
	}
	if o.HTTPAddr != "" {
		parts = append(parts, "HTTP port "+o.HTTPAddr+" refused")
	}
	if o.PublishTime > 0 {
		pool, queue := o.backend()
		parts = append(parts, fmt.Sprintf("backend %d connections + %d queued, publish %v", pool, queue, o.PublishTime))
	}
	if o.Latency > 0 || o.Jitter > 0 {
		parts = append(parts, fmt.Sprintf("latency %v±%v", o.Latency, o.Jitter))
	}
	if o.ErrorRate > 0 {
		parts = append(parts, fmt.Sprintf("error rate %g", o.ErrorRate))
	}
	if o.ErrorRate > 0 || o.Jitter > 0 {
		parts = append(parts, fmt.Sprintf("seed %d", o.Seed))
	}
	if o.Stall > 0 {
		parts = append(parts, fmt.Sprintf("stall %v at %v", o.Stall, o.StallAt))
	}
	if o.NoValidate {
		parts = append(parts, "no validation")
	}
	return strings.Join(parts, ", ")
}

// Summary is the one line an emulator logs when it stops after up: what
// it answered, by status, and how clients authenticated.
func (st Stats) Summary(up time.Duration) string {
	codes := make([]int, 0, len(st.ByStatus))
	for c := range st.ByStatus {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	var by strings.Builder
	for _, c := range codes {
		fmt.Fprintf(&by, " %d=%d", c, st.ByStatus[c])
	}
	auth := ""
	if st.AuthBasic+st.AuthCertificate > 0 {
		auth = fmt.Sprintf("; auth: %d basic, %d certificate", st.AuthBasic, st.AuthCertificate)
	}
	return fmt.Sprintf("stopped after %v: %d requests (%d accepted, %d rejected), %d events, "+
		"%d duplicate event ids, %d backend rejections, max %d in flight; by status:%s%s",
		up.Round(time.Millisecond), st.Requests, st.Accepted, st.Rejected, st.Events,
		st.DuplicateEventIDs, st.BackendRejected, st.MaxInFlight, by.String(), auth)
}

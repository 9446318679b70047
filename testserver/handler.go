package testserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"net"
	"time"

	"github.com/valyala/fasthttp"
)

const eventListenerPrefix = "/eventListener/"

// handle routes one request. /stats and /metrics belong to the emulator
// and are served at once; every other route is the collector's, gets the
// configured latency and is counted.
func (s *Server) handle(ctx *fasthttp.RequestCtx) {
	path := ctx.Path()
	switch string(path) {
	case "/stats":
		s.serveStats(ctx)
		return
	case "/metrics":
		s.metrics(ctx)
		return
	}
	eventRoute := ctx.IsPost() && bytes.HasPrefix(path, []byte(eventListenerPrefix))
	events := 0
	if eventRoute && s.arrivals != nil {
		s.arrivals.arrive(time.Now())
	}
	if eventRoute {
		s.counters.enter()
		defer s.counters.leave()
	}
	if s.plainPortRefused(ctx) {
		// answered below, like any collector route
	} else if rest, ok := bytes.CutPrefix(path, []byte(eventListenerPrefix)); ok {
		events = s.eventListener(ctx, rest)
	} else {
		s.page(ctx, path)
	}
	_ = s.sleep(s.responseDelay(time.Now()))
	s.counters.answered(ctx.Response.StatusCode(), eventRoute, events)
}

// page serves the collector's plain GET pages, or 404.
func (s *Server) page(ctx *fasthttp.RequestCtx, path []byte) {
	var body string
	switch string(path) {
	case "/healthcheck":
		body = healthBody
	case "/":
		body = welcomeBody
	default:
		s.springError(ctx, fasthttp.StatusNotFound, "Not Found")
		return
	}
	if ctx.IsOptions() {
		s.options(ctx, "GET,HEAD,OPTIONS")
		return
	}
	if !ctx.IsGet() && !ctx.IsHead() {
		ctx.Response.Header.Set("Allow", "GET,HEAD")
		s.springError(ctx, fasthttp.StatusMethodNotAllowed, "Method Not Allowed")
		return
	}
	if !s.authorized(ctx) {
		s.write(ctx, s.replies.unauthorized, "")
		return
	}
	ctx.SetStatusCode(fasthttp.StatusOK)
	ctx.SetContentType(contentText)
	ctx.SetBodyString(body)
}

// options answers OPTIONS for a mapped path as Spring does itself, after
// the auth check: the methods the path allows, or the refusal.
func (s *Server) options(ctx *fasthttp.RequestCtx, allow string) {
	if !s.authorized(ctx) {
		s.write(ctx, s.replies.unauthorized, "")
		return
	}
	ctx.Response.Header.Set("Allow", allow)
}

// eventListener serves /eventListener/{version}[/eventBatch] and returns
// the number of events in the request when they passed validation.
func (s *Server) eventListener(ctx *fasthttp.RequestCtx, rest []byte) int {
	// Spring matches a path with one trailing slash as the path without.
	version, tail, hasTail := bytes.Cut(bytes.TrimSuffix(rest, []byte("/")), []byte("/"))
	batch := hasTail && string(tail) == "eventBatch"
	if len(version) == 0 || (hasTail && !batch) {
		s.springError(ctx, fasthttp.StatusNotFound, "Not Found")
		return 0
	}
	if ctx.IsOptions() {
		s.options(ctx, "POST,OPTIONS")
		return 0
	}
	if !ctx.IsPost() {
		ctx.Response.Header.Set("Allow", "POST")
		s.springError(ctx, fasthttp.StatusMethodNotAllowed, "Method Not Allowed")
		return 0
	}
	if !isJSON(ctx.Request.Header.ContentType()) {
		s.springError(ctx, fasthttp.StatusUnsupportedMediaType, "Unsupported Media Type")
		return 0
	}
	if !s.authorized(ctx) {
		s.write(ctx, s.replies.unauthorized, "")
		return 0
	}
	rules := s.versions[string(version)]
	if rules == nil {
		ctx.SetStatusCode(fasthttp.StatusBadRequest)
		ctx.SetContentType(contentJSON)
		ctx.SetBody(unsupportedVersion(version))
		return 0
	}
	if !minorVersionOK(version, minorVersionSent(ctx.Request.Header.Peek(minorVersionHeader), ctx.Request.Header.RawHeaders())) {
		ctx.SetStatusCode(fasthttp.StatusBadRequest)
		ctx.SetContentType(errorContentType(ctx)) // a bare string, typed as Spring negotiates it
		ctx.Response.SetBodyString(invalidCustomHeaderBody)
		return 0
	}
	v := s.validate(ctx.PostBody(), rules, string(version), batch)
	if v.outcome != outcomeOK {
		s.counters.invalid.Add(1)
		s.refuse(ctx, v.outcome)
		return 0
	}
	r := s.publish(ctx.PostBody(), batch)
	ct := contentJSON
	if r.status != s.replies.success.status {
		ct = errorContentType(ctx)
	}
	s.write(ctx, r, ct)
	return v.events
}

// refuse answers a body the collector would not publish.
func (s *Server) refuse(ctx *fasthttp.RequestCtx, o outcome) {
	switch o {
	case outcomeEmptyBody:
		s.springError(ctx, fasthttp.StatusBadRequest, "Bad Request")
	case outcomeParseCrash:
		s.springError(ctx, fasthttp.StatusInternalServerError, "Internal Server Error")
	default:
		s.write(ctx, s.replies.forOutcome(o), errorContentType(ctx))
	}
}

// validate checks a body as the collector does (see collector.go) and,
// when it passes, counts its events and duplicate event IDs.
func (s *Server) validate(body []byte, rules *ruleset, version string, batch bool) verdict {
	c := s.checkers.Get().(*checker)
	defer s.checkers.Put(c)
	c.rules = rules
	v := s.judge(c, body, version, batch)
	if v.outcome != outcomeOK {
		return v
	}
	s.counters.events.Add(int64(v.events))
	var dups int64
	for _, h := range c.ids {
		if s.ids.seen(h) {
			dups++
		}
	}
	if dups > 0 {
		s.counters.duplicates.Add(dups)
	}
	return v
}

// publish models the collector's synchronous publish to DMaaP: an
// injected failure, a full pending-acquire queue, or a backend
// connection held for PublishTime; then hands the events to
// Options.Publish when one is set.
func (s *Server) publish(body []byte, batch bool) reply {
	if s.injectError() {
		s.counters.injected.Add(1)
		return s.replies.publishFailed
	}
	if r := s.holdBackend(); r.status != s.replies.success.status {
		return r
	}
	if s.opts.Publish != nil && s.opts.Publish(body, batch, s.quit) != nil {
		s.counters.publishFailed.Add(1)
		return s.replies.publishFailed
	}
	return s.replies.success
}

// holdBackend holds a backend connection for PublishTime when the
// backend model is on.
func (s *Server) holdBackend() reply {
	if s.backend == nil {
		return s.replies.success
	}
	switch s.backend.acquire(s.quit) {
	case queueFull:
		s.counters.backendRejected.Add(1)
		s.warnSaturated()
		return s.replies.queueFull
	case aborted:
		return s.replies.publishFailed
	}
	defer s.backend.release()
	if s.hooks.publish != nil {
		s.hooks.publish(s.quit)
	} else if s.sleep(s.opts.PublishTime) != nil {
		return s.replies.publishFailed
	}
	return s.replies.success
}

// write sends a canned reply; an empty content type sends none, as the
// collector's auth interceptor does.
func (s *Server) write(ctx *fasthttp.RequestCtx, r reply, contentType string) {
	ctx.SetStatusCode(r.status)
	if contentType != "" {
		ctx.SetContentType(contentType)
	}
	ctx.Response.SetBodyRaw(r.body)
}

// springError answers like Spring Boot's error page.
func (s *Server) springError(ctx *fasthttp.RequestCtx, status int, reason string) {
	ctx.SetStatusCode(status)
	ctx.SetContentType(contentJSON)
	ctx.SetBody(springError(time.Now(), status, reason, ctx.Path()))
}

// errorContentType is what Spring picks for the collector's error bodies,
// which are strings without a declared type: JSON when the client
// accepts it explicitly, else plain text.
func errorContentType(ctx *fasthttp.RequestCtx) string {
	if bytes.Contains(ctx.Request.Header.Peek("Accept"), []byte("application/json")) {
		return contentJSON
	}
	return contentText
}

// isJSON reports whether a Content-Type is application/json (with any
// parameters), the only type the collector's endpoints consume. A
// missing Content-Type does not match, as in Spring.
func isJSON(ct []byte) bool {
	if i := bytes.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return bytes.EqualFold(bytes.TrimSpace(ct), []byte(contentJSON))
}

// serveStats answers /stats with the Stats snapshot as JSON.
func (s *Server) serveStats(ctx *fasthttp.RequestCtx) {
	body, err := json.Marshal(s.Stats())
	if err != nil {
		ctx.Error("encode stats: "+err.Error(), fasthttp.StatusInternalServerError)
		return
	}
	ctx.SetContentType(contentJSON)
	ctx.SetBody(body)
}

// handleError answers requests fasthttp could not read: 413 with the
// collector's body when the body is over MaxBodyBytes, else what
// fasthttp would say.
func (s *Server) handleError(ctx *fasthttp.RequestCtx, err error) {
	var netErr net.Error
	var small *fasthttp.ErrSmallBuffer
	switch {
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		s.write(ctx, s.replies.tooLarge, contentJSON)
	case errors.As(err, &small):
		ctx.Error("Too big request header", fasthttp.StatusRequestHeaderFieldsTooLarge)
	case errors.As(err, &netErr) && netErr.Timeout():
		ctx.Error("Request timeout", fasthttp.StatusRequestTimeout)
	default:
		ctx.Error("Error when parsing request", fasthttp.StatusBadRequest)
	}
	eventRoute := ctx.IsPost() && bytes.HasPrefix(ctx.Path(), []byte(eventListenerPrefix))
	s.counters.answered(ctx.Response.StatusCode(), eventRoute, 0)
}

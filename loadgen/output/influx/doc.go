// Package influx writes a run's per-second figures to InfluxDB 1.x the
// way Apache JMeter's built-in InfluxDB Backend Listener does
// (InfluxdbBackendListenerClient with its HttpMetricsSender), so that the
// Grafana dashboards ONAP already points at JMeter's database show
// vesload runs unchanged:
//
//   - measurement "jmeter" (configurable), tags application, transaction
//     (the request label, and "all") and statut (ok, ko, all), fields
//     count, avg, min, max (ms), hit, sb, rb and one pct<P> per configured
//     percentile (pct99.0, pct95.0, pct90.0 by default); the "all" row adds
//     countError and, as JMeter does, takes avg/min/max from the
//     successful requests only;
//   - error rows: tags application, transaction, responseCode,
//     responseMessage, field count;
//   - the "internal" transaction: minAT, maxAT, meanAT, startedT, endedT,
//     where the active threads of an open-model run are its requests in
//     flight, started counts the requests sent and ended those finished;
//   - measurement "events": the test's start and end annotations (text
//     "<title> started", "<title> ended").
//
// Numbers are written as JMeter writes them, without the integer suffix,
// so vesload's points never conflict with the float fields JMeter
// already created in a shared database.
//
// The package owns the layout of one second's lines and their delivery,
// not the figures: it sees no request and builds no histogram, but reads
// each second of the timeline as the engine built it (its Tally, with the
// latency of the successes and of the failures apart and the failures by
// class and messageId), stamped with that second's start. A second's
// lines go to a bounded queue that one writer goroutine drains; a full
// queue drops the batch and counts it, a failed write is counted with its
// reason, and neither ever stops the run.
package influx

package html

import (
	_ "embed"
	"fmt"
	"io"
	"strings"

	"github.com/vesload/vesload/report/result"
)

//go:embed assets/live.js
var liveJS string

// LiveState is where a run watched live stands: it names the banner's
// look and tells the page's script whether more updates will come.
type LiveState string

// The states of a run watched live.
const (
	LiveRunning     LiveState = "running"
	LiveFinished    LiveState = "finished"
	LiveInterrupted LiveState = "interrupted"
)

// Live is what the live page shows above the report: the state and a
// line about it.
type Live struct {
	State  LiveState
	Status string
}

// Parts is a run's page cut in the two pieces a live update replaces:
// the content of the page's main element and the charts' data (a JSON
// array). Both are escaped as the static page escapes them, so Main can
// be set as HTML and Charts cannot end a script element.
type Parts struct {
	Main   string
	Charts string
}

// PageParts renders r as Report would and returns its parts; a nil r
// (no second of the run has been closed yet) is a page that says so. In
// state LiveRunning the verdicts are the gates as they stand so far, said
// to be provisional: a run that goes on has no verdict yet.
func PageParts(r *result.Result, state LiveState) (Parts, error) {
	p, err := livePage(r, state)
	if err != nil {
		return Parts{}, err
	}
	var b pageWriter
	b.mainContent(p)
	return Parts{Main: b.String(), Charts: chartsOrEmpty(p)}, nil
}

// LivePage writes the page a browser loads from the dashboard: r's page
// as Report writes it, with a status banner above it, a link to the
// finished report, and a script that follows the server's event stream
// (same directory, "events") and replaces the page's content with every
// update. The scripts are inlined as always: the page fetches nothing
// but its own updates.
func LivePage(w io.Writer, r *result.Result, l Live) error {
	p, err := livePage(r, l.State)
	if err != nil {
		return err
	}
	p.CSS = styles + liveStyles + uplotCSS
	var b pageWriter
	b.open(p, ` data-live-state="`, string(l.State), `"`)
	b.put(`<div class="live-bar"><span id="live-status" class="live `, string(l.State), `" role="status">`, l.Status, `</span>
<a id="live-save" href="report.html" download="vesload-report.html"`)
	if l.State == LiveRunning {
		b.WriteString(" hidden")
	}
	b.WriteString(`>Save the report</a></div>
<main>
`)
	b.mainContent(p)
	b.WriteString("</main>\n")
	b.WriteString(`<script type="application/json" id="vesload-charts">`)
	b.WriteString(chartsOrEmpty(p))
	b.WriteString("</script>\n")
	for _, s := range append(scripts(), liveJS) {
		b.WriteString("<script>")
		b.WriteString(s)
		b.WriteString("</script>\n")
	}
	b.WriteString("</body>\n</html>\n")
	_, err = w.Write(b.Bytes())
	return err
}

// livePage lays out r's page with its charts numbered, or the waiting
// page.
func livePage(r *result.Result, state LiveState) (*page, error) {
	if r == nil {
		return &page{
			Title: "vesload live", Heading: "vesload live",
			Meta:   []string{"Waiting for the first second of the run."},
			Footer: "Written by vesload.",
		}, nil
	}
	p, err := reportPage(r)
	if err != nil {
		return nil, err
	}
	if state == LiveRunning {
		for i := range p.Sections {
			if p.Sections[i].ID == "verdicts" {
				p.Sections[i] = provisional(p.Sections[i], r)
			}
		}
	}
	if err := p.layCharts(); err != nil {
		return nil, err
	}
	return p, nil
}

// provisional turns the verdicts of a run that goes on into what they
// are: the gates as they stand so far, the verdict and exit code to come
// at the run's end ("Verdict: PASSED" would read as the run's outcome).
func provisional(s section, r *result.Result) section {
	failed := 0
	for _, th := range r.Thresholds {
		if !th.Pass {
			failed++
		}
	}
	s.Title = "Verdicts so far"
	so := "so far no gate fails"
	switch {
	case len(r.Thresholds) == 0:
		so = "the built-in rules are judged then"
	case failed > 0:
		so = fmt.Sprintf("so far %d of %d gates fail", failed, len(r.Thresholds))
	}
	s.Paras = append([]string{"Provisional: the run goes on, and its verdict and exit code are given at its end; " + so + "."}, s.Paras[min(1, len(s.Paras)):]...)
	s.Badge = &badge{Text: "RUNNING: PASSING SO FAR", Class: "pass"}
	if failed > 0 {
		s.Badge = &badge{Text: fmt.Sprintf("RUNNING: FAILING SO FAR (%d of %d)", failed, len(r.Thresholds)), Class: "fail"}
	}
	return s
}

func chartsOrEmpty(p *page) string {
	if strings.TrimSpace(p.Charts) == "" {
		return "[]"
	}
	return p.Charts
}

// liveStyles keep the status banner in view while the report scrolls
// under it.
const liveStyles = `
.live-bar { position: sticky; top: 0; z-index: 10; display: flex; gap: 1rem; align-items: center;
  max-width: 62rem; margin: 0 auto; padding: .5rem 2rem; background: #fff; border-bottom: 1px solid #d5d9de; }
.live { font-weight: 600; padding-left: .6rem; border-left: 4px solid #6a737d; }
.live.running { border-color: #1f6feb; }
.live.finished { border-color: #0a6b2f; }
.live.interrupted, .live.gone { border-color: #b3261e; }
@media print { .live-bar { display: none; } }
`

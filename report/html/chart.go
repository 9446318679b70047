package html

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
)

// point is one (x, y) of a line.
type point struct{ X, Y float64 }

// series is one line of a chart.
type series struct {
	name   string
	color  color.RGBA
	dashed bool
	thin   bool
	// points draws the values as dots without a line (runs of a
	// history); span draws the line across the x values it has no point
	// at (a history's segment means, between the runs).
	points, span bool
	// dots draws a dot at every point of the line (the steps of a
	// capacity search).
	dots bool
	xy   []point
}

// chart is one figure: lines over a shared x axis, drawn in the browser
// by uPlot from the data the page carries.
type chart struct {
	title          string
	caption        string
	xLabel, yLabel string
	series         []series
	// spectrum switches the x axis to the percentile scale 1/(1-q).
	spectrum bool
	// runs switches the x axis to run indexes named by xNames, with
	// ticks at xTicks and marks drawn across the plot.
	runs *runAxis
	// rate switches the x axis to a rate (a capacity search's curve),
	// with marks drawn across the plot.
	rate  bool
	marks []chartMark
	// band fills the area between two of the series: the interval a
	// capacity lies in, between the highest pass and the lowest fail.
	band *chartBand
}

// chartBand names the series a band lies between, and its fill.
type chartBand struct {
	upper, lower string
	fill         string
}

// bandLook is a band as uPlot takes it: the indexes of its upper and
// lower series (1 is the first after x) and its fill.
type bandLook struct {
	Series [2]int `json:"series"`
	Fill   string `json:"fill"`
}

// runAxis is the x axis of a history: run i is at x = i.
type runAxis struct {
	names []string
	ticks []float64
	marks []chartMark
}

// chartMark is a vertical line across a chart with its label: a change
// point of a history, between two runs; a capacity search's highest
// pass, lowest fail or knee.
type chartMark struct {
	X     float64 `json:"x"`
	Label string  `json:"label"`
	Color string  `json:"color"`
}

// figure is what the page template shows for a chart: a container the
// page's script draws into, or the reason there is no chart.
type figure struct {
	Title   string
	Caption string
	// ID is the DOM id of the chart's container, set when the page is
	// assembled; empty when there is nothing to draw.
	ID    string
	Empty string
	data  *chartData
}

// chartData is what the page's script draws one chart from: uPlot's
// aligned columns (x first, then one column per series, null where a
// series has no point at that x) and the look of each series.
type chartData struct {
	ID     string       `json:"id"`
	Title  string       `json:"title"`
	Axis   string       `json:"axis"` // "seconds" or "spectrum"
	XLabel string       `json:"xLabel"`
	YLabel string       `json:"yLabel"`
	Series []seriesLook `json:"series"`
	Data   [][]jsonNum  `json:"data"`
	// XNames and XTicks are set on the "runs" axis only, Marks on the
	// "runs" and "rate" axes.
	XNames []string    `json:"xNames,omitempty"`
	XTicks []float64   `json:"xTicks,omitempty"`
	Marks  []chartMark `json:"marks,omitempty"`
	Bands  []bandLook  `json:"bands,omitempty"`
}

// seriesLook is how one series is drawn and named in the legend.
type seriesLook struct {
	Label  string  `json:"label"`
	Stroke string  `json:"stroke"`
	Width  float64 `json:"width"`
	Dash   []int   `json:"dash,omitempty"`
	Points bool    `json:"points,omitempty"`
	Span   bool    `json:"span,omitempty"`
	Dots   bool    `json:"dots,omitempty"`
}

// Axis kinds of chartData.
const (
	axisSeconds  = "seconds"
	axisSpectrum = "spectrum"
	axisRuns     = "runs"
	axisRate     = "rate"
)

// jsonNum is a chart value: rounded to 4 decimals, which keeps the page
// small and deterministic (µs resolution for ms values), and null when
// there is no value.
type jsonNum float64

// MarshalJSON implements json.Marshaler.
func (n jsonNum) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	r := math.Round(f*1e4) / 1e4
	if math.IsInf(r, 0) { // too large to scale: it has no decimals to round
		r = f
	}
	return strconv.AppendFloat(nil, r, 'f', -1, 64), nil
}

// Okabe-Ito colours: distinguishable with the common colour-vision
// deficiencies and in greyscale print.
var (
	colBlue      = color.RGBA{0x00, 0x72, 0xB2, 0xff}
	colOrange    = color.RGBA{0xE6, 0x9F, 0x00, 0xff}
	colGreen     = color.RGBA{0x00, 0x9E, 0x73, 0xff}
	colVermilion = color.RGBA{0xD5, 0x5E, 0x00, 0xff}
	colPurple    = color.RGBA{0xCC, 0x79, 0xA7, 0xff}
	colSky       = color.RGBA{0x56, 0xB4, 0xE9, 0xff}
	colGrey      = color.RGBA{0x77, 0x77, 0x77, 0xff}
	colBlack     = color.RGBA{0x22, 0x22, 0x22, 0xff}
)

// palette is the cycle for series without a fixed colour (error
// classes).
func palette() []color.RGBA {
	return []color.RGBA{colVermilion, colOrange, colPurple, colBlue, colGreen, colSky, colGrey, colBlack}
}

// figure lays the chart out for the page, or explains why there is
// nothing to draw: points a chart cannot place are dropped, and a chart
// without any line left shows the empty text instead.
func (c chart) figure(empty string) figure {
	f := figure{Title: c.title, Caption: c.caption}
	drawn := c.series[:0:0]
	for _, s := range c.series {
		s.xy = finite(s.xy)
		if len(s.xy) > 0 {
			drawn = append(drawn, s)
		}
	}
	if len(drawn) == 0 {
		f.Empty = empty
		return f
	}
	d := &chartData{Title: c.title, Axis: axisSeconds, XLabel: c.xLabel, YLabel: c.yLabel}
	if c.spectrum {
		d.Axis = axisSpectrum
	}
	if c.runs != nil {
		d.Axis, d.XNames, d.XTicks, d.Marks = axisRuns, c.runs.names, c.runs.ticks, c.runs.marks
	}
	if c.rate {
		d.Axis, d.Marks = axisRate, c.marks
	}
	xs := unionX(drawn)
	d.Data = append(d.Data, make([]jsonNum, len(xs)))
	for i, x := range xs {
		d.Data[0][i] = jsonNum(x)
	}
	for _, s := range drawn {
		d.Series = append(d.Series, s.look())
		d.Data = append(d.Data, aligned(s.xy, xs))
	}
	if b := c.band; b != nil {
		name := func(n string) func(series) bool { return func(s series) bool { return s.name == n } }
		up, lo := slices.IndexFunc(drawn, name(b.upper)), slices.IndexFunc(drawn, name(b.lower))
		if up >= 0 && lo >= 0 {
			d.Bands = []bandLook{{Series: [2]int{up + 1, lo + 1}, Fill: b.fill}}
		}
	}
	f.data = d
	return f
}

func (s series) look() seriesLook {
	l := seriesLook{Label: s.name, Stroke: hexColor(s.color), Width: 2, Points: s.points, Span: s.span, Dots: s.dots}
	if s.thin {
		l.Width = 1
	}
	if s.dashed {
		l.Dash = []int{6, 4}
	}
	return l
}

// unionX is every x of the series, sorted, each once: uPlot draws all
// series of a chart over one x column.
func unionX(ss []series) []float64 {
	var xs []float64
	for _, s := range ss {
		for _, p := range s.xy {
			xs = append(xs, p.X)
		}
	}
	slices.Sort(xs)
	return slices.Compact(xs)
}

// aligned places a series' points on the shared x column; an x the
// series has no point at is null, a gap in its line.
func aligned(xy []point, xs []float64) []jsonNum {
	out := make([]jsonNum, len(xs))
	for i := range out {
		out[i] = jsonNum(math.NaN())
	}
	for _, p := range xy {
		if i, ok := slices.BinarySearchFunc(xs, p.X, cmp.Compare[float64]); ok {
			out[i] = jsonNum(p.Y)
		}
	}
	return out
}

// finite drops points a chart cannot place.
func finite(xy []point) []point {
	out := xy[:0:0]
	for _, p := range xy {
		if !math.IsNaN(p.X) && !math.IsInf(p.X, 0) && !math.IsNaN(p.Y) && !math.IsInf(p.Y, 0) {
			out = append(out, p)
		}
	}
	return out
}

func hexColor(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// lighter mixes c with white, for the thin per-run lines behind a
// side's merged line.
func lighter(c color.RGBA) color.RGBA {
	mix := func(v uint8) uint8 { return uint8((int(v) + 2*255) / 3) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 0xff}
}

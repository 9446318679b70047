package html

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"regexp"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// series is one line of a chart.
type series struct {
	name   string
	color  color.RGBA
	dashed bool
	thin   bool
	// legend says whether the line gets its own legend entry; the thin
	// per-run lines of a comparison share their side's entry.
	legend bool
	xy     plotter.XYs
}

// chart is one figure: lines over a shared x axis.
type chart struct {
	title          string
	caption        string
	xLabel, yLabel string
	series         []series
	// spectrum switches the x axis to the percentile scale 1/(1-q).
	spectrum bool
}

// figure is what the page template shows for a chart: the SVG markup
// with its legend, or the reason there is no chart.
type figure struct {
	Title   string
	Caption string
	SVG     template.HTML
	Legend  []legendItem
	Empty   string
}

type legendItem struct {
	Name   string
	Color  string // CSS hex colour
	Dashed bool
}

// Chart geometry: wide and low, to read on a screen and fit a printed
// page's width.
const (
	chartWidth  = 8 * vg.Inch
	chartHeight = 3 * vg.Inch
)

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

// figure draws the chart, or explains why it cannot: a chart that fails
// to draw must not take the rest of the report with it.
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
	c.series = drawn
	svg, err := c.svg()
	if err != nil {
		f.Empty = "This chart could not be drawn: " + err.Error()
		return f
	}
	f.SVG = svg
	for _, s := range drawn {
		if s.legend {
			f.Legend = append(f.Legend, legendItem{Name: s.name, Color: hexColor(s.color), Dashed: s.dashed})
		}
	}
	return f
}

// svg draws the chart with gonum/plot and returns markup fit for
// inlining in HTML.
func (c chart) svg() (out template.HTML, err error) {
	// gonum/plot panics on some degenerate inputs (non-positive values
	// on a log axis, for one); the inputs are sanitised, and this turns
	// anything left into an error instead of a crash.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	p := plot.New()
	p.X.Label.Text, p.Y.Label.Text = c.xLabel, c.yLabel
	for _, f := range []*font.Font{&p.X.Label.TextStyle.Font, &p.Y.Label.TextStyle.Font, &p.X.Tick.Label.Font, &p.Y.Tick.Label.Font} {
		f.Variant = "Sans" // gonum/plot defaults to a serif face
		f.Size = vg.Points(10)
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = shortTicks{}, shortTicks{}
	p.Add(plotter.NewGrid())
	p.Y.Min = 0
	for _, s := range c.series {
		l, err := plotter.NewLine(s.xy)
		if err != nil {
			return "", err
		}
		l.LineStyle.Color = s.color
		l.LineStyle.Width = vg.Points(1.6)
		if s.thin {
			l.LineStyle.Width = vg.Points(0.7)
		}
		if s.dashed {
			l.LineStyle.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(l)
	}
	if c.spectrum {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = spectrumTicks()
		p.X.Min, p.X.Max = 1, spectrumMaxX
	} else if p.X.Min == p.X.Max {
		p.X.Max = p.X.Min + 1 // one second: give the axis some width
	}
	if p.Y.Max <= p.Y.Min {
		p.Y.Max = p.Y.Min + 1 // a flat zero line still gets an axis
	}
	p.Y.Max += (p.Y.Max - p.Y.Min) * 0.05 // keep a line at the top off the frame
	canvas := vgsvg.New(chartWidth, chartHeight)
	p.Draw(draw.New(canvas))
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return "", err
	}
	return inlineSVG(buf.String(), c.title), nil
}

var (
	svgSize  = regexp.MustCompile(`width="[^"]*" height="[^"]*"`)
	svgXMLNS = regexp.MustCompile(`\s+xmlns(:xlink)?="[^"]*"`)
)

// inlineSVG turns a standalone SVG document into an element for an HTML
// page: no XML prologue, no namespace URLs (the HTML parser supplies the
// namespace, and the page must not name any remote address), a width
// that follows the page, and a label for screen readers.
func inlineSVG(doc, label string) template.HTML {
	if i := bytes.Index([]byte(doc), []byte("<svg")); i > 0 {
		doc = doc[i:]
	}
	doc = svgXMLNS.ReplaceAllString(doc, "")
	attrs := `width="100%" role="img" aria-label="` + template.HTMLEscapeString(label) + `"`
	if loc := svgSize.FindStringIndex(doc); loc != nil {
		doc = doc[:loc[0]] + attrs + doc[loc[1]:]
	}
	return template.HTML(doc) // vgsvg escapes the text it draws
}

// shortTicks are gonum/plot's default ticks labelled as short as the
// value allows ("25", not "25.00").
type shortTicks struct{}

// Ticks implements plot.Ticker.
func (shortTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = strconv.FormatFloat(t.Value, 'f', -1, 64)
		}
	}
	return ticks
}

// finite drops points a chart cannot place.
func finite(xy plotter.XYs) plotter.XYs {
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

package html

import "bytes"

// pageWriter writes a page as HTML. It is written out by hand rather than
// with html/template: executing a template looks methods up by name
// through reflection, which keeps the linker from dropping any exported
// method of any type in the binary, and that made vesload's binary a
// fifth larger and its resident memory under load higher than its peers'
// (docs/ARCHITECTURE.md, "Footprint"). Every string from a result is
// escaped as html/template escapes text and quoted attribute values; CSS,
// scripts and the charts' JSON are vesload's own and written as they are.
type pageWriter struct {
	bytes.Buffer
}

// escapes is html/template's table for text and quoted attribute values.
var escapes = [...]string{
	0:    "\uFFFD",
	'"':  "&#34;",
	'&':  "&amp;",
	'\'': "&#39;",
	'+':  "&#43;",
	'<':  "&lt;",
	'>':  "&gt;",
}

// text writes s escaped.
func (w *pageWriter) text(s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if int(c) >= len(escapes) || escapes[c] == "" {
			continue
		}
		w.WriteString(s[last:i])
		w.WriteString(escapes[c])
		last = i + 1
	}
	w.WriteString(s[last:])
}

// put writes its arguments in turn: odd ones (the 2nd, 4th, …) are text
// to escape, even ones the markup around them.
func (w *pageWriter) put(parts ...string) {
	for i, s := range parts {
		if i%2 == 1 {
			w.text(s)
		} else {
			w.WriteString(s)
		}
	}
}

// classAttr writes ` class="c"`, or nothing for no class.
func (w *pageWriter) classAttr(c string) {
	if c != "" {
		w.put(` class="`, c, `"`)
	}
}

// open writes the document's start, up to and with <body>: the same head
// for the report and its live page, which adds attrs to <html>.
func (w *pageWriter) open(p *page, attrs ...string) {
	w.WriteString("<!DOCTYPE html>\n<html lang=\"en\"")
	w.put(attrs...)
	w.put(`>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="vesload">
<title>`, p.Title, `</title>
<style>`)
	w.WriteString(p.CSS)
	w.WriteString("</style>\n</head>\n<body>\n")
}

func (w *pageWriter) page(p *page) {
	w.open(p)
	w.WriteString("<main>\n")
	w.mainContent(p)
	w.WriteString("</main>\n")
	if p.Charts != "" {
		w.WriteString(`<script type="application/json" id="vesload-charts">`)
		w.WriteString(p.Charts)
		w.WriteString("</script>\n")
	}
	for _, s := range p.Scripts {
		w.WriteString("<script>")
		w.WriteString(s)
		w.WriteString("</script>\n")
	}
	w.WriteString("</body>\n</html>\n")
}

// mainContent writes what the page's main element holds: everything
// shown, without the chart data and the scripts.
func (w *pageWriter) mainContent(p *page) {
	w.put(`<header>
<h1>`, p.Heading, "</h1>\n")
	for _, m := range p.Meta {
		w.put(`<p class="meta">`, m, "</p>\n")
	}
	w.WriteString("</header>\n")
	if p.Charts != "" {
		w.WriteString(`<p class="banner" id="chart-error" hidden></p>
<noscript><p class="banner">The charts need JavaScript, which is off here; the tables hold the run&#39;s summary figures.</p></noscript>
`)
	}
	if p.Banner != "" {
		w.put(`<p class="banner">`, p.Banner, "</p>\n")
	}
	if len(p.Warnings) > 0 {
		w.WriteString("<section id=\"warnings\" class=\"warnings\">\n<h2>Warnings</h2>\n<ul>\n")
		for _, s := range p.Warnings {
			w.put("<li>", s, "</li>\n")
		}
		w.WriteString("</ul>\n</section>\n")
	}
	for i := range p.Sections {
		w.section(&p.Sections[i])
	}
	w.put("<footer>", p.Footer, "</footer>\n")
}

func (w *pageWriter) section(s *section) {
	w.put(`<section id="`, s.ID, "\">\n<h2>", s.Title)
	if b := s.Badge; b != nil {
		w.put(` <span class="badge `, b.Class, `">`, b.Text, "</span>")
	}
	w.WriteString("</h2>\n")
	for _, p := range s.Paras {
		w.put("<p>", p, "</p>\n")
	}
	for i := range s.Tables {
		w.table(&s.Tables[i])
	}
	for _, f := range s.Figures {
		w.put("<figure>\n<figcaption><strong>", f.Title, "</strong>")
		if f.Caption != "" {
			w.put(" ", f.Caption)
		}
		w.WriteString("</figcaption>\n")
		if f.ID != "" {
			w.put(`<div class="chart" id="`, f.ID, `" role="img" aria-label="`, f.Title, "\"></div>\n")
		} else {
			w.put(`<p class="empty">`, f.Empty, "</p>\n")
		}
		w.WriteString("</figure>\n")
	}
	if len(s.Notes) > 0 {
		w.WriteString("<ul class=\"notes\">\n")
		for _, n := range s.Notes {
			w.put("<li>", n, "</li>\n")
		}
		w.WriteString("</ul>\n")
	}
	w.WriteString("</section>\n")
}

func (w *pageWriter) table(t *table) {
	w.WriteString("<table>\n")
	if t.Caption != "" {
		w.put("<caption>", t.Caption, "</caption>\n")
	}
	if len(t.Head) > 0 {
		w.WriteString("<thead><tr>")
		for _, c := range t.Head {
			w.WriteString("<th")
			w.classAttr(c.Class)
			w.put(">", c.Text, "</th>")
		}
		w.WriteString("</tr></thead>\n")
	}
	w.WriteString("<tbody>\n")
	for _, row := range t.Rows {
		w.WriteString("<tr>")
		for _, c := range row {
			w.WriteString("<td")
			w.classAttr(c.Class)
			w.put(">", c.Text, "</td>")
		}
		w.WriteString("</tr>\n")
	}
	w.WriteString("</tbody>\n</table>\n")
}

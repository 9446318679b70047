package html

import (
	"bytes"
	"html/template"
	"testing"
)

// TestPageWriterMatchesTemplate: the hand-written page writer gives the
// same bytes as the html/template the page was first written with, for a
// page that uses every part and every character html/template escapes.
func TestPageWriterMatchesTemplate(t *testing.T) {
	nasty := `a<b>&"c'+d` + "\x00" + ` é ` + "\xff"
	full := page{
		Title: "run " + nasty, Heading: nasty, Meta: []string{"m1 " + nasty, "m2"},
		Banner: "interrupted " + nasty, Warnings: []string{"w1", nasty},
		Footer: "footer " + nasty, CSS: "body { color: #000; } /* <b> & */",
		Charts: `[{"id":"chart-1","x":[1,2]}]`, Scripts: []string{"var a = 1 < 2 && 3 > 2;", "f('x');"},
		Sections: []section{{
			ID: "s-" + nasty, Title: "Section " + nasty, Badge: &badge{Text: "PASS " + nasty, Class: "pass"},
			Paras:   []string{"p1 " + nasty, "p2"},
			Tables:  []table{{Caption: "cap " + nasty, Head: head(1, "k", "v "+nasty), Rows: [][]cell{{key("k1"), num("1")}, {txt(nasty), {Text: "x"}}}}, {Rows: [][]cell{{txt("only body")}}}},
			Figures: []figure{{Title: "fig " + nasty, Caption: "cap " + nasty, ID: "chart-1"}, {Title: "empty", Empty: "nothing " + nasty}},
			Notes:   []string{"n1 " + nasty},
		}, {ID: "bare", Title: "Bare"}},
	}
	for _, tc := range []struct {
		name string
		p    page
	}{
		{"every part", full},
		{"empty page", page{}},
		{"no charts, no badge", page{Title: "t", Sections: []section{{ID: "a", Title: "A", Paras: []string{"x"}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tpl := template.Must(template.New("page").Parse(pageTemplate))
			var want bytes.Buffer
			if err := tpl.Execute(&want, templatePage(&tc.p)); err != nil {
				t.Fatal(err)
			}
			var got pageWriter
			got.page(&tc.p)
			if got.String() != want.String() {
				t.Errorf("page writer and template differ:\n--- writer\n%s\n--- template\n%s", got.String(), want.String())
			}
		})
	}
}

// templatedPage is page with the trusted fields typed for html/template.
type templatedPage struct {
	page
	CSS     template.CSS
	Charts  template.JS
	Scripts []template.JS
}

func templatePage(p *page) templatedPage {
	tp := templatedPage{page: *p, CSS: template.CSS(p.CSS), Charts: template.JS(p.Charts)}
	for _, s := range p.Scripts {
		tp.Scripts = append(tp.Scripts, template.JS(s))
	}
	return tp
}

// pageTemplate is the html/template the page was written with before
// pageWriter; it stays here as the reference the writer must match.
const pageTemplate = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="vesload">
<title>{{.Title}}</title>
<style>{{.CSS}}</style>
</head>
<body>
<main>
<header>
<h1>{{.Heading}}</h1>
{{range .Meta}}<p class="meta">{{.}}</p>
{{end}}</header>
{{if .Charts}}<p class="banner" id="chart-error" hidden></p>
<noscript><p class="banner">The charts need JavaScript, which is off here; the tables hold the run&#39;s summary figures.</p></noscript>
{{end}}{{with .Banner}}<p class="banner">{{.}}</p>
{{end}}{{with .Warnings}}<section id="warnings" class="warnings">
<h2>Warnings</h2>
<ul>
{{range .}}<li>{{.}}</li>
{{end}}</ul>
</section>
{{end}}{{range .Sections}}<section id="{{.ID}}">
<h2>{{.Title}}{{with .Badge}} <span class="badge {{.Class}}">{{.Text}}</span>{{end}}</h2>
{{range .Paras}}<p>{{.}}</p>
{{end}}{{range .Tables}}<table>
{{with .Caption}}<caption>{{.}}</caption>
{{end}}{{with .Head}}<thead><tr>{{range .}}<th{{with .Class}} class="{{.}}"{{end}}>{{.Text}}</th>{{end}}</tr></thead>
{{end}}<tbody>
{{range .Rows}}<tr>{{range .}}<td{{with .Class}} class="{{.}}"{{end}}>{{.Text}}</td>{{end}}</tr>
{{end}}</tbody>
</table>
{{end}}{{range .Figures}}<figure>
<figcaption><strong>{{.Title}}</strong>{{with .Caption}} {{.}}{{end}}</figcaption>
{{if .ID}}<div class="chart" id="{{.ID}}" role="img" aria-label="{{.Title}}"></div>
{{else}}<p class="empty">{{.Empty}}</p>
{{end}}</figure>
{{end}}{{with .Notes}}<ul class="notes">
{{range .}}<li>{{.}}</li>
{{end}}</ul>
{{end}}</section>
{{end}}<footer>{{.Footer}}</footer>
</main>
{{with .Charts}}<script type="application/json" id="vesload-charts">{{.}}</script>
{{end}}{{range .Scripts}}<script>{{.}}</script>
{{end}}</body>
</html>
`

package jmx

import (
	"strings"

	"github.com/vesload/vesload/profiles"
)

// csvDataSet translates a CSV Data Set Config into the profile's data
// feed and reports whether it did. The run reads one file, so a second
// data set is reported.
func (imp *importer) csvDataSet(el *element) bool {
	file := strings.TrimSpace(el.str("filename"))
	if file == "" {
		return false
	}
	if imp.data != nil {
		imp.warn(el, "a run reads one CSV file: kept %s, not %s", imp.data.File, file)
		return true
	}
	d := &profiles.Data{File: imp.translateText(file, el, "filename"), Per: profiles.DataPerRequest}
	if names := strings.TrimSpace(el.str("variableNames")); names != "" {
		for _, n := range strings.Split(names, ",") {
			d.Columns = append(d.Columns, strings.TrimSpace(n))
		}
		d.SkipFirstLine = el.n.flag("ignoreFirstLine", false)
	}
	switch delim := el.str("delimiter"); delim {
	case "", ",":
	case `\t`:
		d.Delimiter = "\t"
	default:
		d.Delimiter = delim
	}
	switch strings.TrimSpace(el.str("shareMode")) {
	case "shareMode.thread":
		d.Per = profiles.DataPerWorker
	case "shareMode.group":
		imp.warn(el, "rows shared per thread group: vesload hands them out per request across the whole run")
	}
	if !el.n.flag("recycle", true) || el.n.flag("stopThread", false) {
		imp.warn(el, "vesload starts the file over at its end (JMeter's recycle on EOF) and never stops a run for it")
	}
	imp.warn(el, "CSV data set became data: %s, each row binding %s %s", file, variablesOf(d), perText(d.Per))
	imp.data = d
	return true
}

func variablesOf(d *profiles.Data) string {
	if len(d.Columns) == 0 {
		return "the variables its first line names"
	}
	return "${" + strings.Join(d.Columns, "}, ${") + "}"
}

func perText(per string) string {
	if per == profiles.DataPerWorker {
		return "for one worker each (per: worker)"
	}
	return "for one request in turn"
}

package jmx

import (
	"fmt"
	"html"
	"reflect"
	"strings"
	"testing"

	"github.com/vesload/vesload/profiles"
)

func responseAssertion(field string, typ int, values ...string) string {
	var b strings.Builder
	for i, v := range values {
		fmt.Fprintf(&b, `<stringProp name="%d">%s</stringProp>`, i, html.EscapeString(v))
	}
	return fmt.Sprintf(`<ResponseAssertion guiclass="AssertionGui" testclass="ResponseAssertion" testname="Response Assertion" enabled="true">
  <collectionProp name="Asserion.test_strings">%s</collectionProp>
  <stringProp name="Assertion.custom_message"></stringProp>
  <stringProp name="Assertion.test_field">%s</stringProp>
  <boolProp name="Assertion.assume_success">false</boolProp>
  <intProp name="Assertion.test_type">%d</intProp>
</ResponseAssertion>
<hashTree/>`, b.String(), field, typ)
}

func TestImportResponseCodeAssertions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		assertions []string
		want       []string
		warning    string
	}{
		{"equals 202", []string{responseAssertion("Assertion.response_code", assertEquals, "202")}, []string{"202"}, "became target.expect_status 202"},
		{"substring 202", []string{responseAssertion("Assertion.response_code", assertSubstring, "202")}, []string{"202"}, "became target.expect_status"},
		{"matches a class", []string{responseAssertion("Assertion.response_code", assertMatches, `2\d\d`)}, []string{"2xx"}, "2xx"},
		{"or of two codes", []string{responseAssertion("Assertion.response_code", assertEquals|assertOr, "200", "202")}, []string{"200", "202"}, "200,202"},
		{"and of two codes", []string{responseAssertion("Assertion.response_code", assertEquals, "200", "202")}, nil, "which no response can"},
		{"not", []string{responseAssertion("Assertion.response_code", assertEquals|assertNot, "500")}, nil, "NOT assertion"},
		{"other pattern", []string{responseAssertion("Assertion.response_code", assertMatches, "20[02]")}, nil, `pattern "20[02]" not translated`},
		{"two differing", []string{responseAssertion("Assertion.response_code", assertEquals, "202"), responseAssertion("Assertion.response_code", assertEquals, "200")},
			[]string{"202"}, "kept 202, not 200"},
		{"body assertion", []string{responseAssertion("Assertion.response_data", assertContains, "ok")}, nil, "assertion not translated: vesload checks the response code"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			jmx := plan(false, nil, threadGroup(tg{threads: "10", ramp: "1", loops: "1"}, append([]string{vesSampler("ves")}, tc.assertions...)...))
			p, warns := importString(t, jmx)
			if !reflect.DeepEqual(p.Target.ExpectStatus, tc.want) {
				t.Errorf("expect_status = %q, want %q", p.Target.ExpectStatus, tc.want)
			}
			if text := warningsText(warns); !strings.Contains(text, tc.warning) {
				t.Errorf("no warning contains %q:\n%s", tc.warning, text)
			}
		})
	}
}

func csvDataSet(props map[string]string) string {
	var b strings.Builder
	for k, v := range props {
		fmt.Fprintf(&b, `<stringProp name="%s">%s</stringProp>`, k, html.EscapeString(v))
	}
	return `<CSVDataSet guiclass="TestBeanGUI" testclass="CSVDataSet" testname="CSV Data Set Config" enabled="true">` + b.String() + `</CSVDataSet>
<hashTree/>`
}

func TestImportCSVDataSet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		props   map[string]string
		want    *profiles.Data
		warning string
	}{
		{"names and header", map[string]string{"filename": "pnfs.csv", "variableNames": "sourceName, ip", "ignoreFirstLine": "true",
			"delimiter": ";", "shareMode": "shareMode.all", "recycle": "true"},
			&profiles.Data{File: "pnfs.csv", Columns: []string{"sourceName", "ip"}, Delimiter: ";", SkipFirstLine: true, Per: "request"},
			"each row binding ${sourceName}, ${ip} for one request in turn"},
		{"header names the variables, per thread, tab", map[string]string{"filename": "rows.tsv", "delimiter": `\t`, "shareMode": "shareMode.thread"},
			&profiles.Data{File: "rows.tsv", Delimiter: "\t", Per: "worker"}, "the variables its first line names for one worker each"},
		{"no recycle", map[string]string{"filename": "a.csv", "recycle": "false", "stopThread": "true"},
			&profiles.Data{File: "a.csv", Per: "request"}, "starts the file over at its end"},
		{"no file", map[string]string{"variableNames": "a"}, nil, "CSV data set without a file name not translated"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			jmx := plan(false, nil, csvDataSet(tc.props), threadGroup(tg{threads: "10", ramp: "1", loops: "1"}, vesSampler("ves")))
			p, warns := importString(t, jmx)
			if !reflect.DeepEqual(p.Data, tc.want) {
				t.Errorf("data = %+v, want %+v", p.Data, tc.want)
			}
			if text := warningsText(warns); !strings.Contains(text, tc.warning) {
				t.Errorf("no warning contains %q:\n%s", tc.warning, text)
			}
		})
	}
}

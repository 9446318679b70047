// Package junit is the JUnit XML layout that CI test views read (Jenkins,
// GitLab, GitHub): one writer for every vesload output that lists gates
// as tests (a run's thresholds, a comparison's regression gates), so that
// both read the same in a CI and a fix to the layout reaches both.
package junit

import (
	"encoding/xml"
	"fmt"
	"io"
)

// Suite is one testsuite: its cases, the figures it carries as
// properties and free text for system-out. Tests and Failures are
// counted by Write.
type Suite struct {
	XMLName    xml.Name   `xml:"testsuite"`
	Name       string     `xml:"name,attr"`
	Tests      int        `xml:"tests,attr"`
	Failures   int        `xml:"failures,attr"`
	Errors     int        `xml:"errors,attr"`
	Skipped    int        `xml:"skipped,attr"`
	Time       string     `xml:"time,attr"` // seconds, as "12.345"
	Timestamp  string     `xml:"timestamp,attr,omitempty"`
	Properties []Property `xml:"properties>property"`
	Cases      []Case     `xml:"testcase"`
	SystemOut  string     `xml:"system-out,omitempty"`
}

// Property is one name=value figure of a suite.
type Property struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// Case is one test: a gate. A failed one has a Failure.
type Case struct {
	Name      string   `xml:"name,attr"`
	Classname string   `xml:"classname,attr"`
	Time      string   `xml:"time,attr"`
	Failure   *Failure `xml:"failure,omitempty"`
	SystemOut string   `xml:"system-out,omitempty"`
}

// Failure says why a case failed: Message is the one line a CI shows,
// Type the kind of failure, Text the details.
type Failure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// suites is the document: one testsuites element around the suite, with
// the same counts, as the CI readers expect.
type suites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Name     string   `xml:"name,attr"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Time     string   `xml:"time,attr"`
	Suite    Suite
}

// Write writes s as a JUnit XML document under a testsuites element named
// name, counting its tests and failures from its cases.
func Write(w io.Writer, name string, s Suite) error {
	s.Tests, s.Failures = len(s.Cases), 0
	for _, c := range s.Cases {
		if c.Failure != nil {
			s.Failures++
		}
	}
	doc := suites{Name: name, Tests: s.Tests, Failures: s.Failures, Time: s.Time, Suite: s}
	out, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	if _, err := fmt.Fprintf(w, "%s%s\n", xml.Header, out); err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	return nil
}

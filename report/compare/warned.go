package compare

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vesload/vesload/report/result"
)

// Warned is one input of a comparison or a history that carries run
// warnings (a saturated generator, a stalled machine, a pool that was the
// limit): its figures may show those rather than the build under test,
// so every rendering names it and a gate decided on it says so.
type Warned struct {
	// Run names the input as the renderings do (its file name).
	Run string `json:"run"`
	// Warnings are the run's own, as its result carries them.
	Warnings []string `json:"warnings"`
}

// WarnedRuns lists the runs of rs that carry a warning, in order, each
// named by names[i] (empty names fall back to "run i+1").
func WarnedRuns(rs []*result.Result, names []string) []Warned {
	var out []Warned
	for i, r := range rs {
		if r == nil || len(r.Warnings) == 0 {
			continue
		}
		name := "run " + strconv.Itoa(i+1)
		if i < len(names) && names[i] != "" {
			name = names[i]
		}
		out = append(out, Warned{Run: name, Warnings: r.Warnings})
	}
	return out
}

// WarnedNote is the note naming the inputs that carry a warning, each
// with the gist of its warnings; empty when none does.
func WarnedNote(ws []Warned) string {
	if len(ws) == 0 {
		return ""
	}
	parts := make([]string, len(ws))
	for i, w := range ws {
		gists := make([]string, len(w.Warnings))
		for j, text := range w.Warnings {
			gists[j] = gist(text)
		}
		parts[i] = w.Run + " (" + strings.Join(gists, "; ") + ")"
	}
	return "inputs that carry a warning of their run: " + strings.Join(parts, ", ") +
		"; their figures may show the generator, the machine or the target rather than the build"
}

// Warn marks the gates as decided on inputs that carry a warning: their
// lines, headline and JUnit cases say so.
func (s *GateSet) Warn(ws []Warned) {
	if s == nil || len(ws) == 0 {
		return
	}
	s.Warned = make([]string, len(ws))
	for i, w := range ws {
		s.Warned[i] = w.Run
	}
	s.Notes = append(s.Notes, s.WarnedLine())
}

// WarnedLine says which inputs the gates were decided on although they
// carry a warning; empty when none did.
func (s *GateSet) WarnedLine() string {
	if s == nil || len(s.Warned) == 0 {
		return ""
	}
	return "decided on inputs that carry a warning of their run: " + strings.Join(s.Warned, ", ")
}

// gist is the head of a warning (up to its first colon), at most 60
// characters, enough to tell "generator saturated" from "the pool was
// the limit".
func gist(w string) string {
	if head, _, ok := strings.Cut(w, ":"); ok && head != "" {
		w = head
	}
	if utf8.RuneCountInString(w) <= 60 {
		return w
	}
	r := []rune(w)
	return string(r[:59]) + "…"
}

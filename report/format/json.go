package format

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/vesload/vesload/report/table"
)

// WriteJSON writes v as indented JSON for a person's terminal as well as a
// script: URLs and messages stay readable (no \u0026 for '&'), and the C1
// controls and bidirectional marks that text from result files may carry
// are written as \u escapes (table.EscapeJSON), which decode to the same
// text. Every JSON rendering of a comparison or a history writes through
// it.
func WriteJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(table.EscapeJSON(buf.Bytes()))
	return err
}

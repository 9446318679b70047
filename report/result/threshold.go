package result

import (
	"bytes"
	"encoding/json"
)

// thresholdJSON is Threshold on the wire, with a value that can be null.
type thresholdJSON struct {
	Expr   string   `json:"expr"`
	Value  *float64 `json:"value"`
	Pass   bool     `json:"pass"`
	Unit   string   `json:"unit,omitempty"`
	Reason string   `json:"reason,omitempty"`
}

// MarshalJSON writes "value": null for a gate that failed without a
// measurement (Reason set), so that no reader takes a missing metric
// for a measured zero.
func (t Threshold) MarshalJSON() ([]byte, error) {
	w := thresholdJSON{Expr: t.Expr, Pass: t.Pass, Unit: t.Unit, Reason: t.Reason}
	if t.Reason == "" {
		w.Value = &t.Value
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the caller's encoder escapes, if it wants to
	if err := enc.Encode(w); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads a null value as no measurement (zero, with the
// reason saying why).
func (t *Threshold) UnmarshalJSON(b []byte) error {
	var w thresholdJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*t = Threshold{Expr: w.Expr, Pass: w.Pass, Unit: w.Unit, Reason: w.Reason}
	if w.Value != nil {
		t.Value = *w.Value
	}
	return nil
}

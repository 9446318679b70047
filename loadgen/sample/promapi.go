package sample

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// maxQueryResponse bounds an answer of the query API: the queries vesload
// samples return a number or a few series, and a query that selects far
// more is a mistake to report, not to read.
const maxQueryResponse = 8 << 20

// promAPI evaluates instant queries through Prometheus' HTTP API
// (/api/v1/query), with net/http and encoding/json. It is kept rather
// than client_golang's api/prometheus/v1 because it is the smaller of the
// two for one instant query: it bounds the answer it reads
// (maxQueryResponse), falls back from POST to GET, and keeps only a
// number per series.
type promAPI struct {
	endpoint string // the base URL with /api/v1/query appended
	client   *http.Client
}

func newPromAPI(base *url.URL, client *http.Client) *promAPI {
	u := *base
	u.Path = strings.TrimSuffix(u.Path, "/") + "/api/v1/query"
	u.RawPath = ""
	return &promAPI{endpoint: u.String(), client: client}
}

// queryResult is the data of a successful answer.
type queryResult struct {
	ResultType string          `json:"resultType"`
	Result     json.RawMessage `json:"result"`
}

// query evaluates expr at the server's current time. It posts the query
// as a form, as Prometheus' own clients do, and falls back to GET when a
// proxy in front of the server refuses POST.
func (a *promAPI) query(ctx context.Context, expr string) (*queryResult, error) {
	form := url.Values{"query": {expr}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.endpoint, strings.NewReader(form))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, status, err := a.do(req)
	if err != nil && (status == http.StatusMethodNotAllowed || status == http.StatusNotImplemented) {
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, a.endpoint+"?"+form, nil)
		if err != nil {
			return nil, err
		}
		res, _, err = a.do(req)
	}
	return res, err
}

// do sends req and reads the answer's envelope: {"status":"success",
// "data":…} or {"status":"error","errorType":…,"error":…}. It returns
// the HTTP status too, 0 when there was no answer.
func (a *promAPI) do(req *http.Request) (*queryResult, int, error) {
	resp, err := a.client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxQueryResponse+1))
	if err != nil {
		return nil, resp.StatusCode, fmt.Errorf("read answer: %w", err)
	}
	if len(body) > maxQueryResponse {
		return nil, resp.StatusCode, fmt.Errorf("answer larger than %d bytes", maxQueryResponse)
	}
	res, err := parseAnswer(resp.StatusCode, resp.Status, body)
	return res, resp.StatusCode, err
}

// parseAnswer reads the envelope of an answer with the given HTTP status.
func parseAnswer(code int, status string, body []byte) (*queryResult, error) {
	var env struct {
		Status    string       `json:"status"`
		Data      *queryResult `json:"data"`
		ErrorType string       `json:"errorType"`
		Error     string       `json:"error"`
	}
	jsonErr := json.Unmarshal(body, &env)
	switch {
	case jsonErr == nil && env.Status == "error":
		return nil, fmt.Errorf("HTTP %d: %s: %s", code, env.ErrorType, env.Error)
	case code/100 != 2:
		return nil, fmt.Errorf("HTTP %s: %s", status, clipBody(body))
	case jsonErr != nil:
		return nil, fmt.Errorf("answer is not the query API's JSON: %w", jsonErr)
	case env.Status != "success" || env.Data == nil:
		return nil, fmt.Errorf("answer has status %q and no data", env.Status)
	}
	return env.Data, nil
}

// number reduces a result to one number: a scalar as is, a vector as the
// sum of its series.
func (r *queryResult) number() (float64, error) {
	var v float64
	switch r.ResultType {
	case "scalar":
		var sample [2]json.RawMessage
		if err := json.Unmarshal(r.Result, &sample); err != nil {
			return 0, fmt.Errorf("scalar result: %w", err)
		}
		x, err := sampleValue(sample[1])
		if err != nil {
			return 0, err
		}
		v = x
	case "vector":
		var series []struct {
			Value     *[2]json.RawMessage `json:"value"`
			Histogram json.RawMessage     `json:"histogram"`
		}
		if err := json.Unmarshal(r.Result, &series); err != nil {
			return 0, fmt.Errorf("vector result: %w", err)
		}
		if len(series) == 0 {
			return 0, errors.New("no series in the result")
		}
		for _, s := range series {
			if s.Histogram != nil {
				return 0, errors.New("result is a native histogram, want a number (use histogram_quantile or histogram_count)")
			}
			if s.Value == nil {
				return 0, errors.New("vector result: a series without a value")
			}
			x, err := sampleValue(s.Value[1])
			if err != nil {
				return 0, err
			}
			v += x
		}
	case "":
		return 0, errors.New("result has no type")
	default:
		return 0, fmt.Errorf("result is a %s, want a scalar or an instant vector", r.ResultType)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("result is %v", v)
	}
	return v, nil
}

// sampleValue reads a sample's value, which the API writes as a string
// ("0.5", "NaN", "+Inf").
func sampleValue(raw json.RawMessage) (float64, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, fmt.Errorf("sample value %s: want a string", clipBody(raw))
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("sample value %q: not a number", s)
	}
	return v, nil
}

// clipBody shortens an answer quoted in an error message to one line.
func clipBody(b []byte) string {
	b = bytes.TrimSpace(b)
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

package sample

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestPromAPIAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		code   int
		body   string
		want   float64
		errHas string
	}{
		{"scalar", 200, `{"status":"success","data":{"resultType":"scalar","result":[1.5,"2.5"]}}`, 2.5, ""},
		{"vector sum", 200, `{"status":"success","data":{"resultType":"vector","result":[{"metric":{"a":"1"},"value":[1,"1e3"]},{"metric":{},"value":[1,"-0.5"]}]},"warnings":["w"]}`, 999.5, ""},
		{"error envelope", 422, `{"status":"error","errorType":"execution","error":"many-to-many matching not allowed"}`, 0, "HTTP 422: execution: many-to-many matching not allowed"},
		{"error envelope with 200", 200, `{"status":"error","errorType":"timeout","error":"query timed out"}`, 0, "timeout: query timed out"},
		{"proxy page", 502, "<html>\nBad Gateway</html>", 0, "HTTP 502 Bad Gateway: <html>"},
		{"not JSON", 200, "up 1", 0, "not the query API's JSON"},
		{"no data", 200, `{"status":"success"}`, 0, "no data"},
		{"matrix", 200, `{"status":"success","data":{"resultType":"matrix","result":[]}}`, 0, "result is a matrix"},
		{"string", 200, `{"status":"success","data":{"resultType":"string","result":[1,"x"]}}`, 0, "result is a string"},
		{"empty vector", 200, `{"status":"success","data":{"resultType":"vector","result":[]}}`, 0, "no series"},
		{"native histogram", 200, `{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"histogram":[1,{"count":"2"}]}]}}`, 0, "native histogram"},
		{"value not a string", 200, `{"status":"success","data":{"resultType":"scalar","result":[1,2]}}`, 0, "want a string"},
		{"value not a number", 200, `{"status":"success","data":{"resultType":"scalar","result":[1,"abc"]}}`, 0, "not a number"},
		{"infinite", 200, `{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"+Inf"]}]}}`, 0, "result is +Inf"},
		{"series without value", 200, `{"status":"success","data":{"resultType":"vector","result":[{"metric":{}}]}}`, 0, "without a value"},
	}
	for _, tt := range tests {
		res, err := parseAnswer(tt.code, fmt.Sprintf("%d %s", tt.code, http.StatusText(tt.code)), []byte(tt.body))
		var v float64
		if err == nil {
			v, err = res.number()
		}
		switch {
		case tt.errHas != "" && (err == nil || !strings.Contains(err.Error(), tt.errHas)):
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.errHas)
		case tt.errHas == "" && (err != nil || v != tt.want):
			t.Errorf("%s: %v, %v; want %v", tt.name, v, err, tt.want)
		}
	}
}

// TestPromAPIRequest checks what is sent: a POSTed form on the base
// URL's path, and a GET when a proxy refuses POST.
func TestPromAPIRequest(t *testing.T) {
	t.Parallel()
	for _, refusePost := range []bool{false, true} {
		var methods []string
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			methods = append(methods, r.Method)
			if refusePost && r.Method == http.MethodPost {
				http.Error(w, "POST not allowed", http.StatusMethodNotAllowed)
				return
			}
			if r.URL.Path != "/prom/api/v1/query" {
				http.NotFound(w, r)
				return
			}
			if err := r.ParseForm(); err != nil || r.Form.Get("query") != `sum(rate(x{a="b c"}[1m]))` {
				http.Error(w, "bad query", http.StatusBadRequest)
				return
			}
			fmt.Fprint(w, `{"status":"success","data":{"resultType":"scalar","result":[1,"7"]}}`)
		})
		base, err := url.Parse(srv.URL + "/prom/")
		if err != nil {
			t.Fatal(err)
		}
		api := newPromAPI(base, &http.Client{Timeout: 5 * time.Second})
		res, err := api.query(context.Background(), `sum(rate(x{a="b c"}[1m]))`)
		if err != nil {
			t.Fatalf("refuse POST %v: %v", refusePost, err)
		}
		if v, err := res.number(); err != nil || v != 7 {
			t.Errorf("refuse POST %v: %v, %v", refusePost, v, err)
		}
		want := "POST"
		if refusePost {
			want = "POST GET"
		}
		if got := strings.Join(methods, " "); got != want {
			t.Errorf("refuse POST %v: methods %s, want %s", refusePost, got, want)
		}
	}
}

func TestPromAPIAnswerTooLarge(t *testing.T) {
	t.Parallel()
	srv := serve(t, func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"status":"success","data":{"resultType":"vector","result":[`)
		for range maxQueryResponse / 20 {
			fmt.Fprint(w, `{"metric":{},"value":[1,"1"]},`)
		}
	})
	base, _ := url.Parse(srv.URL)
	_, err := newPromAPI(base, &http.Client{Timeout: 10 * time.Second}).query(context.Background(), "up")
	if err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("error %v, want the size limit", err)
	}
}

// FuzzPromAPIAnswer feeds arbitrary answers to the envelope and result
// readers: no panic, and a number only when it is finite.
func FuzzPromAPIAnswer(f *testing.F) {
	f.Add(200, []byte(`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"1"]}]}}`))
	f.Add(200, []byte(`{"status":"success","data":{"resultType":"scalar","result":[1,"NaN"]}}`))
	f.Add(400, []byte(`{"status":"error","errorType":"bad_data","error":"x"}`))
	f.Add(200, []byte(`{"status":"success","data":{"resultType":"vector","result":[{"histogram":[1,{}]}]}}`))
	f.Fuzz(func(t *testing.T, code int, body []byte) {
		res, err := parseAnswer(code, strconv.Itoa(code), body)
		if err != nil {
			return
		}
		v, err := res.number()
		if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
			t.Fatalf("number %v accepted", v)
		}
	})
}

package observe

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/output/jtl"
	"github.com/vesload/vesload/loadgen/transport/rest"
	"github.com/vesload/vesload/report/result"
)

// fixedBody is a request body that never changes.
type fixedBody struct{}

func (fixedBody) AppendBody(dst []byte, _ uint64, _ time.Time) []byte {
	return append(dst, `{"event":{}}`...)
}

// TestStalledJTLDoesNotStallTheRun: a run whose JTL file stops taking
// writes from the start (a hung disk) keeps its schedule: every request is
// sent and answered, the run ends on time, and the rows are written once
// the disk comes back (or counted as dropped).
func TestStalledJTLDoesNotStallTheRun(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusAccepted) }))
	defer srv.Close()
	disk := &stalled{release: make(chan struct{})}
	defer disk.open()
	w, err := jtl.NewWriter(disk, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	j := NewJTL(w, "fault", "--jtl r.jtl")
	// 1,000 rows of about 150 bytes overflow the writer's 64 KiB buffer:
	// written from the request path, the run would hang on the disk.
	s, err := engine.Constant(1000, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	target := srv.URL + "/eventListener/v7"
	tr, err := rest.New(rest.Options{URL: target, Kinds: []rest.Kind{{URL: target}}, Pool: 32, Timeout: 5 * time.Second, KeepAlive: true})
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(engine.Config{Load: s, Body: fixedBody{}, Pool: 32, PoolWait: 10 * time.Second,
		Timeout: 5 * time.Second, Observers: []engine.Observer{j}, Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	type outcome struct {
		res *result.Result
		err error
	}
	ran := make(chan outcome, 1)
	go func() {
		res, err := e.Run(context.Background())
		ran <- outcome{res, err}
	}()
	var o outcome
	select {
	case o = <-ran:
	case <-time.After(20 * time.Second):
		disk.open() // let the run end, for the leak check
		<-ran
		t.Fatal("the run waited for the JTL's stalled disk")
	}
	if o.err != nil {
		t.Fatal(o.err)
	}
	if o.res.Requests.OK != 1000 {
		t.Fatalf("requests %+v, want 1000 ok with the JTL's disk stalled", o.res.Requests)
	}
	disk.open()
	if r := j.Close(); r.Err != nil || r.Rows+r.Dropped != 1000 {
		t.Errorf("JTL report %+v, want 1000 rows written or dropped", r)
	}
}

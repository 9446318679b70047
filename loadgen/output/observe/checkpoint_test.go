package observe

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
)

func snapshot(sent int64) *result.Result {
	return &result.Result{
		Schema:      result.Schema,
		Interrupted: true,
		Requests:    result.Requests{Scheduled: 100, Sent: sent, OK: sent, NotSent: 100 - sent},
		Errors:      map[string]int64{},
		Timeline:    []result.Second{},
	}
}

func TestCheckpointerWritesEachSnapshot(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.json")
	fills := 0
	c := NewCheckpointer(path, func(r *result.Result) {
		fills++
		r.Tool = result.Tool{Name: "vesload", Version: "test"}
	})
	for _, sent := range []int64{10, 40, 70} {
		c.Checkpoint(snapshot(sent))
		got, err := resultfile.Read(path)
		if err != nil {
			t.Fatalf("after the checkpoint of %d: %v", sent, err)
		}
		if got.Requests.Sent != sent || got.Tool.Version != "test" || !got.Interrupted {
			t.Errorf("file holds sent %d tool %+v interrupted %v, want the snapshot of %d, filled", got.Requests.Sent, got.Tool, got.Interrupted, sent)
		}
	}
	if fills != 3 || c.Err() != nil {
		t.Errorf("fill called %d times, err %v; want 3 and none", fills, c.Err())
	}
}

func TestCheckpointerKeepsTheFirstError(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "missing", "run.json")
	c := NewCheckpointer(path, func(*result.Result) {})
	c.Checkpoint(snapshot(1))
	first := c.Err()
	c.Checkpoint(snapshot(2))
	if first == nil || c.Err() != first || !strings.Contains(first.Error(), "run.json") {
		t.Errorf("errors %v then %v, want the first one kept, naming the file", first, c.Err())
	}
}

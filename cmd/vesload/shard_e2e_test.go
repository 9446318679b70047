package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/waitfor"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
	"github.com/vesload/vesload/testserver"
	hvemu "github.com/vesload/vesload/testserver/hv"
)

// emulatorStats reads the emulator's /stats.
func emulatorStats(t *testing.T, base string) testserver.Stats {
	t.Helper()
	resp, err := http.Get(base + "/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st testserver.Stats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// shardProc is one shard's process, started as a pod of an Indexed Job
// is: the same arguments, JOB_COMPLETION_INDEX set to its index.
func shardProc(ctx context.Context, index int, args []string, log *bytes.Buffer) *exec.Cmd {
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", jobIndexEnv, index))
	cmd.Stdout, cmd.Stderr = log, log // one log per pod, as kubectl shows it
	return cmd
}

// runShards runs n shard processes of args, as the pods of an Indexed Job
// run, and returns each one's log. Every shard must exit 0: a shard's
// gates wait for the merge.
func runShards(t *testing.T, n int, args []string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	logs := make([]bytes.Buffer, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		cmd := shardProc(ctx, i, args, &logs[i])
		wg.Go(func() { errs[i] = cmd.Run() })
	}
	wg.Wait()
	out := make([]string, n)
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("shard %d: %v\n%s", i, errs[i], logs[i].String())
		}
		out[i] = logs[i].String()
	}
	return out
}

// TestShardsEndToEnd runs four shard processes of one 40/s schedule
// against one emulator and merges their logs as `kubectl logs | vesload
// merge -` does: the merged result must equal one generator's at 40/s
// (exact counts, every eventId once), and the arrivals at the emulator
// must interleave evenly rather than come in bursts of four. It does not
// run in parallel with the package's other tests, whose load would blur
// the arrival gaps it measures.
func TestShardsEndToEnd(t *testing.T) {
	base, stop := startServe(t, "--record-arrivals")
	defer stop()
	const rate, secs, shards = 40, 5, 4
	nominal := time.Second / rate
	at := time.Now().Add(4 * time.Second).UTC().Format(time.RFC3339Nano)
	args := []string{"-url", base + "/eventListener/v7", "-rps", fmt.Sprint(rate), "-duration", fmt.Sprintf("%ds", secs),
		"--shard", fmt.Sprintf("auto/%d", shards), "--run-id", "e2e-shards", "--start-at", at, "--start-tolerance", "3s",
		"--pool", "16", "-o", "-", "-q"}
	logs := runShards(t, shards, args)
	st := emulatorStats(t, base)

	want := int64(rate * secs)
	m := mergedLogs(t, strings.Join(logs, ""))
	if m.Requests != (result.Requests{Scheduled: want, Sent: want, OK: want}) || m.Latency.Count != want {
		t.Errorf("merged requests %+v (latency count %d), want %d scheduled, sent and ok", m.Requests, m.Latency.Count, want)
	}
	if m.Merged == nil || fmt.Sprint(m.Merged.Shards) != "[0 1 2 3]" || m.Config.RunID != "e2e-shards" || m.RPS.Target != rate {
		t.Errorf("merged info %+v run %q target rate %v", m.Merged, m.Config.RunID, m.RPS.Target)
	}
	if st.Accepted != want || st.Events != want || st.DuplicateEventIDs != 0 {
		t.Errorf("emulator accepted %d requests with %d events and %d duplicate eventIds, want %d, %d and none",
			st.Accepted, st.Events, st.DuplicateEventIDs, want, want)
	}

	// Even spacing: the gaps between arrivals stay near the nominal gap.
	// Shards that burst together would put 3 gaps in 4 near zero.
	g := st.ArrivalGaps
	if g == nil || g.Count != want-1 {
		t.Fatalf("arrival gaps %+v, want %d", g, want-1)
	}
	t.Logf("arrival gaps (nominal %v): p1 %dµs p10 %dµs p25 %dµs p50 %dµs p99 %dµs max %dµs; largest start offset %.3f ms",
		nominal, g.P1Us, g.P10Us, g.P25Us, g.P50Us, g.P99Us, g.MaxUs, m.Merged.StartOffsetMaxMs)
	nominalUs := nominal.Microseconds()
	// The p99 is the second-largest of 199 gaps: one stall of the machine
	// (other packages' tests run beside this one) shows there, so it is
	// held loosely; the burst check below is the tight one.
	if g.P99Us >= 8*nominalUs {
		t.Errorf("gap p99 %dµs, want under 8× the nominal %dµs", g.P99Us, nominalUs)
	}
	// Bursts of four would put three gaps in four near zero; interleaved
	// shards put the median at the nominal gap and few gaps near zero.
	if g.P25Us < nominalUs/4 || g.P50Us < nominalUs*3/4 {
		t.Errorf("gap p25 %dµs, p50 %dµs: a cluster of gaps near zero (nominal %dµs): the shards burst together", g.P25Us, g.P50Us, nominalUs)
	}

	// The same run from one generator schedules and sends the same.
	single := vesload(t, 60*time.Second, "-url", base+"/eventListener/v7", "-rps", fmt.Sprint(rate), "-duration", fmt.Sprintf("%ds", secs), "-o", "-", "-q")
	if single.code != exitOK {
		t.Fatalf("single generator: exit %d: %s", single.code, single.stderr)
	}
	one, err := resultfile.Decode(strings.NewReader(single.stdout), "single")
	if err != nil {
		t.Fatal(err)
	}
	if one.Requests != m.Requests || one.Latency.Count != m.Latency.Count {
		t.Errorf("one generator: requests %+v, latency count %d; merged shards: %+v, %d", one.Requests, one.Latency.Count, m.Requests, m.Latency.Count)
	}
}

// TestLateShardRefuses starts a shard after its start instant: it must
// not run, and say why (exit 1).
func TestLateShardRefuses(t *testing.T) {
	t.Parallel()
	base, stop := startServe(t)
	defer stop()
	at := time.Now().Add(-5 * time.Second).UTC().Format(time.RFC3339)
	o := vesload(t, 30*time.Second, "-url", base+"/eventListener/v7", "-rps", "10", "-duration", "1s",
		"--shard", "1/2", "--run-id", "late", "--start-at", at, "-q")
	if o.code != exitRun || !strings.Contains(o.stderr, "more than the start tolerance of 1s: not starting") {
		t.Fatalf("exit %d stderr %q, want exit 1 saying the shard is late", o.code, o.stderr)
	}
	if st := emulatorStats(t, base); st.EventRequests != 0 {
		t.Fatalf("a late shard sent %d requests", st.EventRequests)
	}
}

// TestHVShardsEndToEnd runs shard processes of one HV-VES producer run
// against one HV-VES emulator: each shard sends its producers' messages
// (p ≡ I mod N) through the engine with their run-wide numbers, so the
// merged result is the whole run, with every producer once under its
// run-wide name and exact counts, and every eventId arrives once.
func TestHVShardsEndToEnd(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		runID                       string
		producers, messages, shards int
		interval                    string
	}{
		{"hv-shards", 4, 25, 2, "40ms"},
		{"hv-three", 5, 20, 3, "20ms"},
	} {
		t.Run(c.runID, func(t *testing.T) {
			t.Parallel()
			emu, err := hvemu.Start(hvemu.Options{Addr: "127.0.0.1:0"})
			if err != nil {
				t.Fatal(err)
			}
			defer emu.Close()
			at := time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339Nano)
			args := []string{"hv", "--addr", emu.Addr(), "--producers", fmt.Sprint(c.producers), "--messages", fmt.Sprint(c.messages),
				"--interval", c.interval, "--size", "1024", "--shard", fmt.Sprintf("auto/%d", c.shards), "--run-id", c.runID,
				"--start-at", at, "--start-tolerance", "2s", "-o", "-", "-q"}
			m := mergedLogs(t, strings.Join(runShards(t, c.shards, args), ""))
			want := int64(c.producers * c.messages)
			if m.Requests.Scheduled != want || m.Requests.Sent != want || m.Requests.OK != want || m.HV == nil ||
				m.HV.Producers != c.producers || m.HV.Sent.Written != want || m.Merged.Count != c.shards {
				t.Fatalf("merged requests %+v hv %+v merged %+v", m.Requests, m.HV, m.Merged)
			}
			seen := map[string]int64{}
			for _, p := range m.HV.ByProducer {
				if _, dup := seen[p.Source]; dup {
					t.Errorf("producer %s twice", p.Source)
				}
				seen[p.Source] = p.Counts.Written
			}
			for p := range c.producers {
				if n := seen[fmt.Sprintf("vesload-hv-%d", p)]; n != int64(c.messages) {
					t.Errorf("producer %d wrote %d, want %d (by producer %v)", p, n, c.messages, seen)
				}
			}
			var st hvemu.Stats
			waitfor.True(5*time.Second, 20*time.Millisecond, func() bool { st = emu.Stats(); return st.Received >= want })
			if st.Received != want || st.DuplicateEventIDs != 0 || len(st.BySource) != c.producers {
				t.Errorf("emulator received %d, duplicates %d, sources %v; want %d and none from %d producers",
					st.Received, st.DuplicateEventIDs, st.BySource, want, c.producers)
			}
		})
	}
}

// TestShardWithoutDeliveryTally checks that a shard against the built-in
// emulator does not wait for the other shards' events, and that
// --consume, which cannot tell them apart yet, is refused.
func TestShardWithoutDeliveryTally(t *testing.T) {
	t.Parallel()
	at := time.Now().Add(time.Second).UTC().Format(time.RFC3339Nano)
	o := vesload(t, 20*time.Second, "-rps", "10", "-duration", "1s", "--shard", "0/2", "--run-id", "d", "--start-at", at, "-q", "-o", "-")
	if o.code != exitOK || o.elapsed > 10*time.Second {
		t.Fatalf("exit %d after %v: %s", o.code, o.elapsed, o.stderr)
	}
	o = vesload(t, 20*time.Second, "-rps", "10", "-duration", "1s", "--shard", "0/2", "--run-id", "d", "--start-at", at, "-q", "--consume", "kafka://127.0.0.1:1/t")
	if o.code != exitUsage || !strings.Contains(o.stderr, "--consume: not available with --shard") {
		t.Fatalf("--consume with --shard: exit %d: %s", o.code, o.stderr)
	}
}

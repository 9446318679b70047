package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report"
)

// TestKubeHVJobHarness renders an HV-VES run of 3 shards (`vesload kube
// hv`) and runs its pods locally, launched 0, 1 and 2 s apart, into
// `vesload serve --hv-listen`, with the emulator's counters as the
// collector's metrics: the shards agree on one start, each runs the
// producers p ≡ I mod 3, shard 0 alone follows the counters, and the
// merged result is the whole run: written = received, every producer
// once, no eventId twice at the emulator.
func TestKubeHVJobHarness(t *testing.T) {
	addr, mon := startServeHV(t)
	const producers, messages = 6, 100 // one message per producer every 10 ms: 1 s
	code, out, errs := kubeRender(t, time.Now(), "hv", "--shards", "3", "--addr", addr, "--producers", fmt.Sprint(producers),
		"--messages", fmt.Sprint(messages), "--size", "1024", "--interval", "10ms", "--target-metrics", mon+"/monitoring/prometheus",
		"--metrics-linger", "0s", "--ready-timeout", "20s", "--start-tolerance", "2s", "-q", "--run-id", "hvkube", "--threshold", "hv.lost==0")
	if code != exitOK {
		t.Fatalf("kube hv: exit %d: %s", code, errs)
	}
	h := newJobHarness(t, out)
	if h.args[0] != "hv" {
		t.Fatalf("the pods run %q, want vesload hv", h.args)
	}
	pods := h.run(t, []time.Duration{time.Second, 0, 2 * time.Second})
	var all strings.Builder
	for i, p := range pods {
		if p.err != nil {
			t.Fatalf("pod %d: %v\n%s", i, p.err, p.log.String())
		}
		fmt.Fprint(&all, p.log.String())
		rs, _, err := report.ScanResults(strings.NewReader(p.log.String()), "pod")
		if err != nil || len(rs) != 1 || rs[0].HV == nil {
			t.Fatalf("pod %d: %d results, %v", i, len(rs), err)
		}
		if viewed := rs[0].HV.Receiver != nil; viewed != (rs[0].Shard.Index == 0) {
			t.Errorf("pod %d (shard %d) has a receiver view: %v: want shard 0 alone to follow the collector's counters", i, rs[0].Shard.Index, viewed)
		}
	}
	code, stdout, errs := mergeStream(all.String(), "-")
	if code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	m, err := report.Decode(strings.NewReader(stdout), "merged")
	if err != nil {
		t.Fatal(err)
	}
	const want = producers * messages
	rc := m.HV.Receiver
	if m.Merged.Count != 3 || m.HV.Sent.Written != want || m.HV.Producers != producers || rc == nil || rc.Received != want || rc.Lost != 0 ||
		len(m.Thresholds) != 1 || !m.Thresholds[0].Pass {
		t.Fatalf("merged %+v, written %d by %d producers, receiver %+v, thresholds %+v: want %d written and received",
			m.Merged, m.HV.Sent.Written, m.HV.Producers, rc, m.Thresholds, want)
	}
	seen := map[string]int64{}
	for _, p := range m.HV.ByProducer {
		seen[p.Source] += p.Counts.Written
	}
	for p := range producers {
		if n := seen[fmt.Sprintf("vesload-hv-%d", p)]; n != messages {
			t.Errorf("producer %d wrote %d, want %d", p, n, messages)
		}
	}
	st := hvStats(t, mon, want)
	if st.Received != want || st.DuplicateEventIDs != 0 || len(st.BySource) != producers {
		t.Errorf("emulator received %d, duplicates %d, sources %d: want %d, none, %d", st.Received, st.DuplicateEventIDs, len(st.BySource), want, producers)
	}
	t.Logf("3 HV-VES shards launched 0-2 s apart: largest start offset %.3f ms", m.Merged.StartOffsetMaxMs)
	if m.Merged.StartOffsetMaxMs > 20 {
		t.Errorf("largest start offset %.3f ms: want the shards to start within a few ms of the agreed instant", m.Merged.StartOffsetMaxMs)
	}
}

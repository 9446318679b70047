package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vesload/vesload/report/resultfile"
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
		rs, _, err := resultfile.ScanResults(strings.NewReader(p.log.String()), "pod")
		if err != nil || len(rs) != 1 || rs[0].HV == nil {
			t.Fatalf("pod %d: %d results, %v", i, len(rs), err)
		}
		if viewed := rs[0].HV.Receiver != nil; viewed != (rs[0].Shard.Index == 0) {
			t.Errorf("pod %d (shard %d) has a receiver view: %v: want shard 0 alone to follow the collector's counters", i, rs[0].Shard.Index, viewed)
		}
	}
	m := mergedLogs(t, all.String())
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

// TestKubeConsumerJobHarness renders a REST run of 3 shards with
// --consume and runs its pods locally, the consumer's pod 5 s after the
// shards' and, again, 5 s before, through an emulator that drops 5% of
// what it accepted on the way to Kafka. The consumer is a member of the
// start agreement: either way the delivery section merged from the logs
// is exact, as kcat (a client sharing no code with vesload) counts the
// topic; the same files land in the results claim; and the shards'
// results alone are refused by merge (exit 1), unless --without-delivery.
func TestKubeConsumerJobHarness(t *testing.T) {
	t.Parallel()
	kcat := kcatPath(t)
	const topic, rate, secs = "unauthenticated.SEC_FAULT_OUTPUT", 50, 2
	for _, c := range []struct {
		name              string
		runID             string
		shards, consumer  time.Duration
		consumerWaitedFor bool
	}{
		{"consumer 5 s after the shards", "kc-after", 0, 5 * time.Second, true},
		{"consumer 5 s before the shards", "kc-before", 5 * time.Second, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			base, broker := startServeKafka(t, "--compat", "kafka", "--publish-drop", "0.05", "--seed", "7")
			code, out, errs := kubeRender(t, time.Now(), "--shards", "3", "-url", base+"/eventListener/v7", "-rps", fmt.Sprint(rate),
				"-duration", fmt.Sprintf("%ds", secs), "--consume", "kafka://"+broker+"/"+topic, "--consume-grace", "3s",
				"--metrics-linger", "0s", "--ready-timeout", "30s", "--results-claim", "results", "--run-id", c.runID, "-q")
			if code != exitOK {
				t.Fatalf("kube: exit %d: %s", code, errs)
			}
			h := newJobHarness(t, out)
			h.consumerDelay = c.consumer
			pods := h.run(t, []time.Duration{c.shards, c.shards, c.shards})
			var shards, all strings.Builder
			for i, p := range pods {
				if p.err != nil {
					t.Fatalf("pod %d: %v\n%s", i, p.err, p.log.String())
				}
				if i < 3 {
					shards.WriteString(p.log.String())
				}
				all.WriteString(p.log.String())
			}
			consumerLog := pods[3].log.String()
			if !strings.Contains(consumerLog, "joining the start of run "+c.runID) {
				t.Errorf("the consumer did not join the start:\n%s", consumerLog)
			}
			// The shards waited for the consumer when it came last.
			if c.consumerWaitedFor && pods[0].ended < c.consumer {
				t.Errorf("shard 0 ended after %v, before the consumer started at %v", pods[0].ended, c.consumer)
			}

			code, _, errs = mergeStream(shards.String(), "-")
			if code != exitRun || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "announces a delivery consumer (vesload consume) whose result is not among the inputs") {
				t.Errorf("merge without the consumer: exit %d, %q: want exit 1 and one line", code, errs)
			}
			if code, stdout, errs := mergeStream(shards.String(), "-", "--without-delivery"); code != exitOK || strings.Contains(stdout, `"delivery"`) {
				t.Errorf("merge --without-delivery: exit %d: %s", code, errs)
			}

			m := mergedLogs(t, all.String())
			const want = rate * secs
			d := m.Delivery
			if d == nil || !d.Consumer || m.Requests.OK != want || d.Expected != want || d.Accepted != want {
				t.Fatalf("merged requests %+v, delivery %+v: want %d sent and accepted, the consumer's delivery", m.Requests, d, want)
			}
			seen := kcatIDs(t, context.Background(), kcat, broker, topic, regexp.MustCompile(`"eventId":"`+c.runID+`-(\d+)"`))
			missing := int64(want - len(seen))
			t.Logf("kcat: %d of %d events on the topic; merged delivery: delivered %d, lost %d, duplicates %d, e2e p99 %.1f ms",
				len(seen), want, d.Delivered, d.Lost, d.Duplicates, d.E2E.P99)
			if missing < 1 || d.Delivered != int64(len(seen)) || d.Lost != missing || d.LostThoughAccepted != missing || d.E2E.Count != d.Delivered {
				t.Errorf("merged delivery: delivered %d, lost %d (%d though accepted), e2e %d; kcat: %d on the topic, %d missing",
					d.Delivered, d.Lost, d.LostThoughAccepted, d.E2E.Count, len(seen), missing)
			}

			// The results claim holds every pod's result beside its log.
			files, _ := filepath.Glob(filepath.Join(h.results, "vesload-"+c.runID+"-*.json"))
			o := vesload(t, 30*time.Second, append([]string{"merge", "-o", "-"}, files...)...)
			if len(files) != 4 || o.code != exitOK {
				t.Fatalf("results claim: %v, merge exit %d: %s", files, o.code, o.stderr)
			}
			fromClaim, err := resultfile.Decode(strings.NewReader(o.stdout), "claim")
			if err != nil || fromClaim.Delivery == nil || fromClaim.Delivery.Delivered != d.Delivered || fromClaim.Requests != m.Requests {
				t.Errorf("merged from the claim: %v, %+v, want the logs' figures", err, fromClaim.Requests)
			}
		})
	}
}

// TestKubeTempDirIsTheEmptyDir runs a rendered pod (1 shard) with its
// root read-only but for the emptyDir ($TMPDIR, a tmpfs) and a results
// claim that is full: the result still reaches the log, and the copy the
// claim could not take is saved in the emptyDir, which the pod can write.
func TestKubeTempDirIsTheEmptyDir(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		skipOrRequireMount(t, "a read-only root with an emptyDir", "mounting needs root")
	}
	root := t.TempDir()
	for _, d := range []string{"tmp", "results"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The root, read-only as the pod's is; the emptyDir on it, writable;
	// the claim, full.
	if err := syscall.Mount(root, root, "", syscall.MS_BIND, ""); err != nil {
		skipOrRequireMount(t, "a read-only root with an emptyDir", "bind mounts are not permitted here: "+err.Error())
	}
	t.Cleanup(func() { _ = syscall.Unmount(root, syscall.MNT_DETACH) })
	if err := syscall.Mount("", root, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, ""); err != nil {
		t.Fatalf("remount read-only: %v", err)
	}
	tmp, results := filepath.Join(root, "tmp"), filepath.Join(root, "results")
	if err := syscall.Mount("tmpfs", tmp, "tmpfs", 0, "size=1m"); err != nil {
		t.Fatalf("mount the emptyDir: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(tmp, syscall.MNT_DETACH) })
	if err := syscall.Mount("tmpfs", results, "tmpfs", 0, "size=4k"); err != nil {
		t.Fatalf("mount the claim: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(results, syscall.MNT_DETACH) })
	fill, err := os.Create(filepath.Join(results, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := fill.Write(make([]byte, 1024)); err != nil {
			break // full
		}
	}
	fill.Close()
	if err := os.WriteFile(filepath.Join(root, "x"), nil, 0o644); err == nil {
		t.Fatal("the root is writable")
	}

	base, stop := startServe(t)
	defer stop()
	code, out, errs := kubeRender(t, time.Now(), "--shards", "1", "-url", base+"/eventListener/v7", "-rps", "20", "-duration", "1s",
		"--metrics-linger", "0s", "--ready-timeout", "20s", "--results-claim", "results", "--run-id", "ro1", "-q")
	if code != exitOK {
		t.Fatalf("kube: exit %d: %s", code, errs)
	}
	_, job := kubeObjects(t, out)
	var tmpdir string
	for _, e := range job.Spec.Template.Spec.Containers[0].Env {
		if e.Name == "TMPDIR" {
			tmpdir = e.Value
		}
	}
	if tmpdir != "/tmp" {
		t.Fatalf("TMPDIR %q in the pod, want the emptyDir /tmp", tmpdir)
	}
	h := newJobHarness(t, out)
	for i, a := range h.args {
		if a == h.results {
			h.args[i] = results
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var log strings.Builder
	cmd := exec.CommandContext(ctx, binary, h.args...)
	cmd.Env = append(os.Environ(), jobIndexEnv+"=0", "TMPDIR="+tmp, "HOME="+root)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = &log, &log
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitRun {
		t.Fatalf("pod: %v, want exit 1 (the claim is full)\n%s", err, log.String())
	}
	saved, _ := filepath.Glob(filepath.Join(tmp, "vesload-result-ro1.json"))
	if len(saved) != 1 || !strings.Contains(log.String(), "saved to "+saved[0]) {
		t.Fatalf("saved %v; log:\n%s\nwant the result saved in the emptyDir %s", saved, log.String(), tmp)
	}
	res := readResult(t, saved[0])
	rs, _, err := resultfile.ScanResults(strings.NewReader(log.String()), "log")
	if err != nil || len(rs) != 1 || rs[0].Requests != res.Requests || res.Requests.OK != 20 {
		t.Errorf("log result %v (%v), saved %+v: want the same 20 requests in both", rs, err, res.Requests)
	}
}

// TestKubeHVConsumerJobHarness: an HV-VES run of 2 shards with
// --consume, its consumer's pod 2 s after the shards', through an
// emulator that drops 5% on the way to Kafka. The consumer learns the
// HV-VES plan from shard 0 (every message written is expected, none is
// accepted) and its delivered count is what kcat finds on the topic.
func TestKubeHVConsumerJobHarness(t *testing.T) {
	t.Parallel()
	kcat := kcatPath(t)
	args := []string{"serve", "--listen", "127.0.0.1:0", "--hv-listen", "127.0.0.1:0", "--hv-monitor", "127.0.0.1:0",
		"--kafka-embedded", "127.0.0.1:0", "--publish-drop", "0.05", "--seed", "9"}
	addr, broker := startServeLines(t, args, hvAddrLine, brokerLine)
	const topic, producers, messages = "HV_VES_PERF3GPP", 4, 50
	code, out, errs := kubeRender(t, time.Now(), "hv", "--shards", "2", "--addr", addr, "--producers", fmt.Sprint(producers),
		"--messages", fmt.Sprint(messages), "--size", "512", "--interval", "10ms", "--consume", "kafka://"+broker+"/"+topic,
		"--consume-grace", "2s", "--metrics-linger", "0s", "--ready-timeout", "20s", "--settle", "1s", "-q", "--run-id", "hvcons")
	if code != exitOK {
		t.Fatalf("kube hv: exit %d: %s", code, errs)
	}
	h := newJobHarness(t, out)
	h.consumerDelay = 2 * time.Second
	pods := h.run(t, []time.Duration{0, 0})
	var all strings.Builder
	for i, p := range pods {
		if p.err != nil {
			t.Fatalf("pod %d: %v\n%s", i, p.err, p.log.String())
		}
		all.WriteString(p.log.String())
	}
	m := mergedLogs(t, all.String())
	const want = producers * messages
	d := m.Delivery
	if d == nil || !d.Consumer || !d.NoAnswers || m.HV.Sent.Written != want || d.Expected != want || d.Accepted != 0 {
		t.Fatalf("written %d, delivery %+v: want the consumer's delivery of %d messages, none accepted", m.HV.Sent.Written, d, want)
	}
	seen := kcatIDs(t, context.Background(), kcat, broker, topic, regexp.MustCompile(`hvcons-(\d+)`))
	t.Logf("kcat: %d of %d messages on the topic; merged delivery: delivered %d, lost %d, e2e p99 %.1f ms", len(seen), want, d.Delivered, d.Lost, d.E2E.P99)
	if len(seen) == want || d.Delivered != int64(len(seen)) || d.Lost != int64(want-len(seen)) || d.E2E.Count != d.Delivered {
		t.Errorf("merged delivery: delivered %d, lost %d, e2e %d; kcat: %d of %d on the topic", d.Delivered, d.Lost, d.E2E.Count, len(seen), want)
	}
}

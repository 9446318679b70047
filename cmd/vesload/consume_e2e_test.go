package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConsumeBesideShards follows a sharded run's delivery with
// `vesload consume` on its own: four shards (one absolute --start-at)
// send through an emulator that drops 5% of what it acknowledged, and
// the merged delivery.lost must equal the events kcat, a client sharing
// no code with vesload, finds missing from the topic.
func TestConsumeBesideShards(t *testing.T) {
	t.Parallel()
	kcat := kcatPath(t)
	base, broker := startServeKafka(t, "--compat", "kafka", "--publish-drop", "0.05", "--seed", "5")
	const rate, secs, shards, runID = 100, 3, 4, "e2e-consume"
	const topic = "unauthenticated.SEC_FAULT_OUTPUT"
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	at := time.Now().Add(4 * time.Second).UTC().Format(time.RFC3339Nano)

	consumed := filepath.Join(dir, "delivery.json")
	consumer := exec.CommandContext(ctx, binary, "consume", "kafka://"+broker+"/"+topic, "--run-id", runID,
		"--start-at", at, "--duration", fmt.Sprintf("%ds", secs), "--rps", fmt.Sprint(rate), "--grace", "3s", "-o", consumed)
	var clog syncBuffer
	consumer.Stdout, consumer.Stderr = &clog, &clog
	if err := consumer.Start(); err != nil {
		t.Fatal(err)
	}
	consumerDone := make(chan error, 1)
	go func() { consumerDone <- consumer.Wait() }()
	waitLine(t, &clog, regexp.MustCompile(`following run `+runID))

	files := []string{consumed}
	var wg sync.WaitGroup
	errs := make([]error, shards)
	logs := make([]syncBuffer, shards)
	for i := range shards {
		out := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		files = append(files, out)
		cmd := exec.CommandContext(ctx, binary, "-url", base+"/eventListener/v7", "-rps", fmt.Sprint(rate),
			"-duration", fmt.Sprintf("%ds", secs), "--shard", fmt.Sprintf("%d/%d", i, shards), "--run-id", runID,
			"--start-at", at, "--start-tolerance", "3s", "-o", out, "-q")
		cmd.Stdout, cmd.Stderr = &logs[i], &logs[i]
		wg.Go(func() { errs[i] = cmd.Run() })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("shard %d: %v\n%s", i, err, logs[i].String())
		}
	}
	if err := <-consumerDone; err != nil {
		t.Fatalf("consume: %v\n%s", err, clog.String())
	}

	merged := filepath.Join(dir, "merged.json")
	o := vesload(t, 30*time.Second, append([]string{"merge", "-o", merged}, files...)...)
	if o.code != exitOK {
		t.Fatalf("merge: exit %d\n%s", o.code, o.stderr)
	}
	m := readResult(t, merged)
	d := m.Delivery
	const want = rate * secs
	if d == nil || !d.Consumer || m.Requests.OK != want || d.Expected != want || d.Accepted != want {
		t.Fatalf("merged requests %+v, delivery %+v: want %d sent and accepted, the consumer's delivery", m.Requests, d, want)
	}

	seen := kcatIDs(t, ctx, kcat, broker, topic, regexp.MustCompile(`"eventId":"`+runID+`-(\d+)"`))
	missing := int64(want - len(seen))
	t.Logf("kcat: %d of %d events on the topic; merged delivery: delivered %d, lost %d (%d though accepted), duplicates %d, e2e p99 %.1f ms",
		len(seen), want, d.Delivered, d.Lost, d.LostThoughAccepted, d.Duplicates, d.E2E.P99)
	if missing < 5 || missing > 30 {
		t.Errorf("kcat finds %d of %d missing: want about 5%% dropped by the emulator", missing, want)
	}
	if d.Lost != missing || d.LostThoughAccepted != missing || d.Delivered != int64(len(seen)) {
		t.Errorf("merged delivery: delivered %d, lost %d (%d though accepted); kcat: %d on the topic, %d missing",
			d.Delivered, d.Lost, d.LostThoughAccepted, len(seen), missing)
	}
	if d.E2E.Count != d.Delivered || d.TimestampType != "CreateTime" || len(d.Timeline) == 0 {
		t.Errorf("e2e %+v, timestamps %s, timeline %d seconds: want one end-to-end time per delivered event", d.E2E, d.TimestampType, len(d.Timeline))
	}
	if !strings.Contains(m.Config.Shape, "4 shards") {
		t.Errorf("merged shape %q: want the 4 shards' run", m.Config.Shape)
	}
}

// TestConsumeCommandBadFlags checks that bad input to `vesload consume`
// gets one line naming its flag and exit 2, and an unreachable broker
// exit 1, the password never shown.
func TestConsumeCommandBadFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pw := filepath.Join(dir, "pw")
	if err := os.WriteFile(pw, []byte("Kafka-S3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ok := []string{"kafka://127.0.0.1:1/t", "--run-id", "r1", "--duration", "1s"}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--run-id", "r1", "--duration", "1s"}, exitUsage, "want one URL"},
		{[]string{"http://k:9092/t", "--run-id", "r1", "--duration", "1s"}, exitUsage, "--consume"},
		{[]string{"kafka://k:9092/t", "--duration", "1s"}, exitUsage, "--run-id"},
		{[]string{"kafka://k:9092/t", "--run-id", "r1"}, exitUsage, "--duration"},
		{append(ok, "--rps", "-1"), exitUsage, "--rps"},
		{append(ok, "--batch", "0"), exitUsage, "--batch"},
		{append(ok, "--grace", "-1s"), exitUsage, "--grace"},
		{append(ok, "--start-at", "soon"), exitUsage, "--start-at"},
		{append(ok, "--kafka-mechanism", "GSSAPI"), exitUsage, "--kafka-mechanism"},
		{append(ok, "--kafka-password-file", pw), exitUsage, "--kafka-password-file"},
		{append(ok, "--kafka-user", "u", "--kafka-password-file", pw), exitRun, "preflight"},
		{append(ok, "--rendezvous", "h:9465"), exitUsage, "--duration with --rendezvous: shard 0 tells the consumer"},
		{[]string{"kafka://k:9092/t", "--run-id", "r1", "--rendezvous", "h:9465", "--rps", "5"}, exitUsage, "--rps with --rendezvous"},
		{[]string{"kafka://k:9092/t", "--run-id", "r1", "--rendezvous", "h"}, exitUsage, `--rendezvous "h": want HOST:PORT`},
		{[]string{"kafka://k:9092/t", "--run-id", "r1", "--rendezvous", "h:1", "--ready-timeout", "0s"}, exitUsage, "--ready-timeout 0s"},
		{append(ok, "--ready-timeout", "1m"), exitUsage, "--ready-timeout goes with --rendezvous"},
		{append(ok, "--result-dir", filepath.Join(dir, "none")), exitUsage, "--result-dir"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			code := runConsume(tt.args, &stdout, &stderr)
			msg := stderr.String()
			if code != tt.code || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tt.want) {
				t.Errorf("exit %d, stderr %q: want exit %d and one line with %s", code, msg, tt.code, tt.want)
			}
			if strings.Contains(msg+stdout.String(), "Kafka-S3cret") {
				t.Errorf("output %q shows the password", msg)
			}
		})
	}
}

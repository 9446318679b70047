package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/vesload/vesload/internal/waitfor"
)

// kcatPath returns Debian's kcat, or skips (fails when
// VESLOAD_REQUIRE_KCAT=1, as CI sets it).
func kcatPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"kcat", "kafkacat"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("VESLOAD_REQUIRE_KCAT") == "1" {
		t.Fatal("kcat is required (VESLOAD_REQUIRE_KCAT=1) but not installed: apt-get install kcat")
	}
	t.Skip("kcat not installed (apt-get install kcat); skipping the second-client check")
	return ""
}

// kcatIDs reads topic from the beginning with kcat, a second client
// beside the consumer under test, and returns the distinct first
// submatches of id (an event's number) in what it finds.
func kcatIDs(t *testing.T, ctx context.Context, kcat, broker, topic string, id *regexp.Regexp) map[string]bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, kcat, "-C", "-b", broker, "-t", topic, "-o", "beginning", "-e", "-q", "-f", "%s\n").CombinedOutput()
	if err != nil {
		t.Fatalf("kcat: %v: %s", err, out)
	}
	seen := map[string]bool{}
	for _, m := range id.FindAllStringSubmatch(string(out), -1) {
		seen[m[1]] = true
	}
	return seen
}

// waitLine polls a log for the first match of re, for up to 10 s.
func waitLine(t *testing.T, log *syncBuffer, re *regexp.Regexp) []string {
	t.Helper()
	var m []string
	if !waitfor.True(10*time.Second, 5*time.Millisecond, func() bool { m = re.FindStringSubmatch(log.String()); return m != nil }) {
		t.Fatalf("no line matching %s; log %q", re, log.String())
	}
	return m
}

func faultBody(id string) string {
	return `{"event":{"commonEventHeader":{"domain":"fault","eventId":"` + id + `","eventName":"n","sequence":1,` +
		`"priority":"High","reportingEntityName":"r","sourceName":"s","startEpochMicrosec":1,` +
		`"lastEpochMicrosec":1,"version":"4.1","vesEventListenerVersion":"7.2"}}}`
}

// TestServePublishesToKafka posts events to `vesload serve
// --kafka-embedded` and reads them back from the fault topic with
// franz-go and with kcat, a client that shares no code with it.
func TestServePublishesToKafka(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout bytes.Buffer
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- serve(ctx, []string{"--listen", "127.0.0.1:0", "--kafka-embedded", "127.0.0.1:0", "--compat", "kafka"}, &stdout, &stderr)
	}()
	base := waitLine(t, &stderr, regexp.MustCompile(`emulator on (http://127\.0\.0\.1:\d+)/eventListener/v7 `))[1]
	broker := waitLine(t, &stderr, regexp.MustCompile(`publishing to embedded Kafka at (127\.0\.0\.1:\d+), answer before`))[1]
	const n = 20
	var want []string
	client := &http.Client{Timeout: 10 * time.Second}
	for i := range n {
		id := fmt.Sprintf("kcat-%d", i)
		want = append(want, id)
		resp, err := client.Post(base+"/eventListener/v7", "application/json", strings.NewReader(faultBody(id)))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted {
			t.Fatalf("status %d, want 202", resp.StatusCode)
		}
	}
	sort.Strings(want)
	idRe := regexp.MustCompile(`"eventId":"(kcat-\d+)"`)
	got := franzIDs(t, broker, idRe, n)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("franz-go read %v, want %v", got, want)
	}
	kcat := kcatPath(t)
	tctx, tcancel := context.WithTimeout(ctx, 30*time.Second)
	defer tcancel()
	out, err := exec.CommandContext(tctx, kcat, "-C", "-b", broker, "-t", "unauthenticated.SEC_FAULT_OUTPUT",
		"-o", "beginning", "-e", "-q", "-f", "%p %o %s\n").CombinedOutput()
	if err != nil {
		t.Fatalf("kcat: %v: %s", err, out)
	}
	var byKcat []string
	for _, m := range idRe.FindAllStringSubmatch(string(out), -1) {
		byKcat = append(byKcat, m[1])
	}
	sort.Strings(byKcat)
	if strings.Join(byKcat, " ") != strings.Join(want, " ") {
		t.Errorf("kcat read %v, want %v; output %q", byKcat, want, out)
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("serve exit %d; stderr %q", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), fmt.Sprintf("kafka: %d events published, 0 dropped", n)) {
		t.Errorf("no publisher summary in %q", stderr.String())
	}
}

// franzIDs reads want records of the fault topic from the start and
// returns the event ids in them, sorted.
func franzIDs(t *testing.T, broker string, idRe *regexp.Regexp, want int) []string {
	t.Helper()
	c, err := kgo.NewClient(kgo.SeedBrokers(broker), kgo.ConsumeTopics("unauthenticated.SEC_FAULT_OUTPUT"),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var ids []string
	for len(ids) < want && ctx.Err() == nil {
		c.PollFetches(ctx).EachRecord(func(r *kgo.Record) {
			if m := idRe.FindSubmatch(r.Value); m != nil {
				ids = append(ids, string(m[1]))
			}
		})
	}
	sort.Strings(ids)
	return ids
}

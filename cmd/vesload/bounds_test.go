package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInputFilesBounded gives every kind of input file a device that never
// ends and a sparse file of 3 GiB: each is refused in one line naming the
// file, with exit 2, within seconds and well under a gigabyte of memory
// (internal/inputfile), where they used to grow the process without end.
func TestInputFilesBounded(t *testing.T) {
	sparse := filepath.Join(t.TempDir(), "sparse")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(3 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	const url = "https://127.0.0.1:1/eventListener/v7"
	cases := []struct {
		name string
		args func(file string) []string
	}{
		{"serve --auth-file", func(f string) []string { return []string{"serve", "--listen", "127.0.0.1:0", "--auth-file", f} }},
		{"report", func(f string) []string { return []string{"report", f} }},
		{"compare", func(f string) []string { return []string{"compare", f, "--vs", f} }},
		{"trend", func(f string) []string { return []string{"trend", f} }},
		{"merge", func(f string) []string { return []string{"merge", f} }},
		{"-profile", func(f string) []string { return []string{"-profile", f, "--dry-run"} }},
		{"profiles check", func(f string) []string { return []string{"profiles", "check", f} }},
		{"--password-file", func(f string) []string {
			return []string{"--url", url, "--user", "u", "--password-file", f, "--dry-run"}
		}},
		{"--cacert", func(f string) []string { return []string{"--url", url, "--cacert", f, "--dry-run"} }},
		{"--cert", func(f string) []string { return []string{"--url", url, "--cert", f, "--key", f, "--dry-run"} }},
		{"--body-file", func(f string) []string { return []string{"--body-file", f, "--dry-run"} }},
		{"--data-file", func(f string) []string { return []string{"--data-file", f, "--dry-run"} }},
		{"import-jmx", func(f string) []string { return []string{"import-jmx", f} }},
	}
	for _, c := range cases {
		for _, file := range []string{"/dev/zero", sparse} {
			t.Run(c.name+" "+filepath.Base(file), func(t *testing.T) {
				o := vesload(t, 30*time.Second, c.args(file)...)
				line := strings.TrimRight(o.stderr, "\n")
				if o.code != exitUsage || strings.Contains(line, "\n") || !strings.Contains(line, file) || !strings.Contains(line, "more than") {
					t.Errorf("exit %d, stderr %q: want exit 2 and one line naming %s and its limit", o.code, o.stderr, file)
				}
				if o.maxRSS == 0 || o.maxRSS >= 1<<30 {
					t.Errorf("peak memory %d MiB: want some, under 1 GiB", o.maxRSS>>20)
				}
				if o.elapsed > 10*time.Second {
					t.Errorf("refused after %v: want within seconds", o.elapsed)
				}
			})
		}
	}
}

// TestDeepProfileRefused is the profile of 20,000 nested "[" (40 KB) that
// reached 990 MB: run and profiles check refuse it with file:line and the
// limit, at once, in a few megabytes.
func TestDeepProfileRefused(t *testing.T) {
	deep := filepath.Join(t.TempDir(), "deep.yaml")
	if err := os.WriteFile(deep, []byte("load: "+strings.Repeat("[", 20000)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-profile", deep, "--dry-run"}, {"profiles", "check", deep}} {
		o := vesload(t, 30*time.Second, args...)
		line := strings.TrimRight(o.stderr, "\n")
		if o.code != exitUsage || strings.Contains(line, "\n") || !strings.Contains(line, deep+":1:") || !strings.Contains(line, "more than 100 levels") {
			t.Errorf("%v: exit %d, stderr %q: want exit 2 and one line with file:line and the limit", args, o.code, o.stderr)
		}
		if o.maxRSS == 0 || o.maxRSS >= 256<<20 || o.elapsed > 5*time.Second {
			t.Errorf("%v: refused in %v with a peak of %d MiB: want seconds and little memory", args, o.elapsed, o.maxRSS>>20)
		}
		t.Logf("%v: %v, %d MiB", args, o.elapsed, o.maxRSS>>20)
	}
}

// TestHVSchedulesBounded: HV-VES schedules that panicked, ran out of
// memory, took gigabytes before connecting or ran for another length than
// asked are refused as REST refuses them: one line, exit 2, at once.
func TestHVSchedulesBounded(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--producers", "1", "--messages", "5", "--interval", "1000000h"}, "--interval 1000000h: longer than 8784h"},
		{[]string{"--producers", "1", "--messages", "2", "--interval", "1000000h"}, "--interval 1000000h: longer than 8784h"},
		{[]string{"--interval", "10000h", "--messages", "3"}, "--interval 10000h: longer than 8784h"},
		{[]string{"--interval", "5000h", "--messages", "3"}, "the run would last 10000h, longer than 8784h"},
		{[]string{"--rate", "1e-9"}, "longer than 8784h"},
		{[]string{"--producers", "100000000"}, "--producers: want 1 to 100000"},
		{[]string{"--duration", "1000000h"}, "--duration 1000000h: longer than 8784h"},
		{[]string{"--producers", "2000", "--size", "1000000"}, "more than 256 MiB"},
	}
	for _, c := range cases {
		o := vesload(t, 30*time.Second, append([]string{"hv"}, c.args...)...)
		line := strings.TrimRight(o.stderr, "\n")
		if o.code != exitUsage || strings.Contains(line, "\n") || !strings.Contains(line, c.want) {
			t.Errorf("hv %v: exit %d, stderr %.300q: want exit 2 and one line with %q", c.args, o.code, o.stderr, c.want)
		}
		if o.maxRSS == 0 || o.maxRSS >= 256<<20 || o.elapsed > 5*time.Second {
			t.Errorf("hv %v: refused in %v with a peak of %d MiB: want seconds and little memory", c.args, o.elapsed, o.maxRSS>>20)
		}
	}
}

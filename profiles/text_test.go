package profiles

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestShapeDescribe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		shape Shape
		want  string
	}{
		{Shape{RPS: 100, Duration: 10 * time.Minute}, "60000 requests over 10m, mean 100 rps"},
		{Shape{Requests: 1000, Duration: 150 * time.Second}, "1000 requests over 2m30s, mean 6.67 rps"},
		{Shape{Stages: []Stage{{RPS: 10, Duration: 10 * time.Second}, {Duration: 5 * time.Second}}},
			"100 requests over 15s, mean 6.67 rps"},
		{Shape{Producers: &Producers{Count: 6, Messages: 100, Interval: 10 * time.Millisecond}},
			"600 requests over 1s, mean 600 rps"},
		{Shape{Closed: &Closed{Concurrency: []int{100, 200}, Step: 30 * time.Second}},
			"closed model, 2 concurrency steps of 30s (1m in all)"},
		{Shape{}, "no load shape (give --rps and --duration at run time)"},
	}
	for _, tt := range tests {
		if got := tt.shape.Describe(); got != tt.want {
			t.Errorf("Describe(%+v) = %q, want %q", tt.shape, got, tt.want)
		}
	}
}

func TestMissingAdviceAndSetAll(t *testing.T) {
	t.Parallel()
	const text = `name: t
target:
  url: http://${HOST}:${PORT}/eventListener/v7
  headers:
    X-Tenant: ${TENANT}
load:
  rps: 1
  duration: 1s
`
	parse := func() *Profile {
		p, err := Parse([]byte(text), "t.yaml")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := parse()
	if got, want := p.MissingAdvice(), "set HOST, PORT, TENANT with --url or --set HOST=… --set PORT=… --set TENANT=…"; got != want {
		t.Errorf("MissingAdvice:\n got %q\nwant %q", got, want)
	}
	if err := p.SetAll([]string{"HOST=collector", "PORT=8080"}); err != nil {
		t.Fatal(err)
	}
	if got, want := p.MissingAdvice(), "set TENANT with --set TENANT=…"; got != want {
		t.Errorf("MissingAdvice of a header variable: %q, want %q", got, want)
	}
	if err := p.SetAll([]string{"TENANT=onap"}); err != nil || p.MissingAdvice() != "" {
		t.Errorf("all set: %v, advice %q", err, p.MissingAdvice())
	}
	for _, tt := range []struct {
		sets []string
		want string
	}{
		{[]string{"HOST"}, `--set "HOST": want NAME=VALUE`},
		{[]string{"HOST=x y", "PORT=1", "TENANT=o"}, "--set: "},
	} {
		if err := parse().SetAll(tt.sets); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("SetAll(%q): %v, want %q", tt.sets, err, tt.want)
		}
	}
}

func TestWriteBuiltins(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteBuiltins(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	infos := Builtins()
	if len(lines) != len(infos) {
		t.Fatalf("%d lines for %d built-ins", len(lines), len(infos))
	}
	col := strings.Index(lines[0], infos[0].Description)
	for i, in := range infos {
		if !strings.HasPrefix(lines[i], in.Name+" ") || strings.Index(lines[i], in.Description) != col {
			t.Errorf("line %q: want %s, then its description in column %d", lines[i], in.Name, col)
		}
	}
	if names := BuiltinNames(); !strings.HasPrefix(names, infos[0].Name+", "+infos[1].Name+", ") {
		t.Errorf("BuiltinNames %q", names)
	}
}

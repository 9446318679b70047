package ves

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestReadData(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		opts     DataOptions
		want     *Data
	}{
		{"header names the columns", "sourceName, ip\npnf1,10.0.0.1\npnf2,10.0.0.2\n", DataOptions{},
			&Data{Columns: []string{"sourceName", "ip"}, Rows: [][]string{{"pnf1", "10.0.0.1"}, {"pnf2", "10.0.0.2"}}}},
		{"columns given, header skipped", "a;b\n1;2\n", DataOptions{Columns: []string{"x", "y"}, Delimiter: ';', SkipFirstLine: true},
			&Data{Columns: []string{"x", "y"}, Rows: [][]string{{"1", "2"}}}},
		{"columns given, no header", "1,2\n3,4", DataOptions{Columns: []string{"x", "y"}},
			&Data{Columns: []string{"x", "y"}, Rows: [][]string{{"1", "2"}, {"3", "4"}}}},
		{"quoted values", "name\n\"a, b\"\n", DataOptions{}, &Data{Columns: []string{"name"}, Rows: [][]string{{"a, b"}}}},
	}
	for _, tc := range tests {
		got, err := ReadData(strings.NewReader(tc.in), "d.csv", tc.opts)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestReadDataErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		opts DataOptions
		want string
	}{
		{"", DataOptions{}, "d.csv: no header line"},
		{"a,b\n", DataOptions{}, "d.csv: no data rows"},
		{"a,b\n1,2\n3\n", DataOptions{}, "d.csv:3: wrong number of columns"},
		{"a,9b\n1,2\n", DataOptions{}, `column 2 "9b" is not a variable name`},
		{"a,a\n1,2\n", DataOptions{}, `column "a" named twice`},
		{"a\n\"open\n", DataOptions{}, "d.csv:2:"},
		{"1,2\n", DataOptions{Columns: []string{"__x", "y"}}, `column 1 "__x"`},
	}
	for _, tc := range tests {
		_, err := ReadData(strings.NewReader(tc.in), "d.csv", tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ReadData(%q) = %v, want one line containing %q", tc.in, err, tc.want)
		}
	}
	big := "a\n" + strings.Repeat("x\n", maxDataRows+1)
	if _, err := ReadData(strings.NewReader(big), "d.csv", DataOptions{}); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("too many rows: %v", err)
	}
}

func TestTemplateDataRoundRobin(t *testing.T) {
	d := &Data{Columns: []string{"sourceName", "n"}, Rows: [][]string{{"pnf1", "1"}, {"pnf2", "2"}, {"pnf3", "3"}}}
	tpl, err := CompileTemplate([]byte(`{"sourceName":"${sourceName}","n":${n},"seq":{{.Seq}},"v":"${v}"}`),
		TemplateOptions{RunID: "r", Data: d, Vars: map[string]string{"v": "fixed", "sourceName": "loses"}})
	if err != nil {
		t.Fatal(err)
	}
	for seq := uint64(0); seq < 6; seq++ {
		row := d.Rows[seq%3]
		want := `{"sourceName":"` + row[0] + `","n":` + row[1] + `,"seq":` + strconv.FormatUint(seq, 10) + `,"v":"fixed"}`
		if got := string(tpl.AppendBody(nil, seq, time.Unix(0, 0))); got != want {
			t.Errorf("seq %d: %s, want %s", seq, got, want)
		}
	}
	buf := make([]byte, 0, 256)
	if n := testing.AllocsPerRun(100, func() { buf = tpl.AppendBody(buf[:0], 7, time.Unix(0, 0)) }); n != 0 {
		t.Errorf("AppendBody with data allocates %v times", n)
	}
}

func TestTemplateDataRowBreaksJSON(t *testing.T) {
	t.Parallel()
	d := &Data{Columns: []string{"name"}, Rows: [][]string{{"ok"}, {`bad"quote`}}}
	_, err := CompileTemplate([]byte(`{"name": "${name}"}`), TemplateOptions{Data: d})
	if err == nil || !strings.Contains(err.Error(), "data row 2") || !strings.Contains(err.Error(), "1:11") {
		t.Errorf("err = %v, want the second row named at the placeholder (1:11)", err)
	}
	if _, err := CompileTemplate([]byte(`{"name": "${name}"}`), TemplateOptions{Data: d, AllowInvalidJSON: true}); err != nil {
		t.Errorf("AllowInvalidJSON: %v", err)
	}
}

func FuzzReadData(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "a\n\"x\ny\"\n", "a;b\n1;2", "", "a,a\n1,1", "\xff,\n1,2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		d, err := ReadData(strings.NewReader(in), "f.csv", DataOptions{})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
			return
		}
		if len(d.Rows) == 0 || len(d.Columns) == 0 {
			t.Fatalf("accepted a table without rows or columns: %+v", d)
		}
		for _, r := range d.Rows {
			if len(r) != len(d.Columns) {
				t.Fatalf("row %q has %d values for %d columns", r, len(r), len(d.Columns))
			}
		}
	})
}

func TestTemplateDataPerWorker(t *testing.T) {
	t.Parallel()
	d := &Data{Columns: []string{"sourceName"}, Rows: [][]string{{"a"}, {"b"}, {"c"}}}
	src := []byte(`{"s":"${sourceName}","n":{{.Seq}}}`)
	per, err := CompileTemplate(src, TemplateOptions{Data: d, DataPerWorker: true})
	if err != nil {
		t.Fatal(err)
	}
	turn, err := CompileTemplate(src, TemplateOptions{Data: d})
	if err != nil {
		t.Fatal(err)
	}
	for seq := uint64(0); seq < 4; seq++ {
		for worker := uint64(0); worker < 4; worker++ {
			want := `{"s":"` + d.Rows[worker%3][0] + `","n":` + strconv.FormatUint(seq, 10) + `}`
			if got := string(per.AppendBodyFor(nil, seq, worker, time.Unix(0, 0))); got != want {
				t.Errorf("per worker: seq %d worker %d: %s, want %s", seq, worker, got, want)
			}
			want = `{"s":"` + d.Rows[seq%3][0] + `","n":` + strconv.FormatUint(seq, 10) + `}`
			if got := string(turn.AppendBodyFor(nil, seq, worker, time.Unix(0, 0))); got != want {
				t.Errorf("in turn: seq %d worker %d: %s, want %s", seq, worker, got, want)
			}
		}
	}
}

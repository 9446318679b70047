package profiles

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseDataAndExpectStatus(t *testing.T) {
	t.Parallel()
	in := "target:\n  expect_status: [\"202\", 2xx]\ndata:\n  file: pnfs.csv\n  columns: [sourceName, ip]\n  delimiter: \";\"\n  skip_first_line: true\n  per: worker\n"
	p, err := Parse([]byte(in), "dir/p.yaml")
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if !reflect.DeepEqual(p.Target.ExpectStatus, []string{"202", "2xx"}) {
		t.Errorf("expect_status = %q", p.Target.ExpectStatus)
	}
	want := &Data{File: "pnfs.csv", Columns: []string{"sourceName", "ip"}, Delimiter: ";", SkipFirstLine: true, Per: DataPerWorker}
	if !reflect.DeepEqual(p.Data, want) {
		t.Errorf("data = %+v, want %+v", p.Data, want)
	}
	out, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(out, "again.yaml")
	if err != nil || !reflect.DeepEqual(back.Data, p.Data) || !reflect.DeepEqual(back.Target.ExpectStatus, p.Target.ExpectStatus) {
		t.Errorf("marshal does not read back: %v\n%s", err, out)
	}
}

func TestDataFileRelativeToProfile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "p.yaml")
	if err := os.WriteFile(path, []byte("data:\n  file: rows.csv\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Load(path)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if p.Data.File != filepath.Join(dir, "rows.csv") {
		t.Errorf("data.file = %q, want it beside the profile", p.Data.File)
	}
}

func TestDataAndExpectStatusErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"data:\n  columns: [a]\n", "data.file"},
		{"data:\n  file: x.csv\n  columns: [\"9x\"]\n", "data.columns[0]"},
		{"data:\n  file: x.csv\n  delimiter: \";;\"\n", "data.delimiter"},
		{"data:\n  file: x.csv\n  delimiter: '\"'\n", "data.delimiter"},
		{"data:\n  file: x.csv\n  per: thread\n", "data.per"},
		{"data:\n  file: x.csv\n  skip_first_line: true\n", "data.skip_first_line"},
		{"target:\n  expect_status: [\"20x\"]\n", "target.expect_status"},
		{"target:\n  expect_status: [\"600\"]\n", "target.expect_status"},
	}
	for _, tc := range tests {
		_, err := Parse([]byte(tc.in), "p.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q) = %v, want one line naming %s", tc.in, err, tc.want)
		}
	}
}

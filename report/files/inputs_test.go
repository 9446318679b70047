package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckInputsAndStreams(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "r.json")
	if err := os.WriteFile(in, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.html")
	cases := []struct {
		name string
		ins  []string
		outs []Path
		want string // "" passes
	}{
		{"another file", []string{in}, []Path{{"-o", other}}, ""},
		{"stdin and stdout", []string{"-"}, []Path{{"-o", "-"}}, ""},
		{"the input as output", []string{in}, []Path{{"-o", in}}, "-o " + in + " is the input " + in},
		{"through a link", []string{link}, []Path{{"--html", other}, {"--junit", in}}, "--junit " + in + " is the input " + link},
		{"spelled relative", []string{in}, []Path{{"-o", filepath.Join(dir, ".", "r.json")}}, "is the input"},
	}
	for _, c := range cases {
		err := CheckInputs(c.ins, c.outs)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	streams := []struct {
		outs []Path
		want string
	}{
		{[]Path{{"-o", "-"}, {"--jtl", "/dev/stdout"}}, "-o - and --jtl /dev/stdout both write to the standard output"},
		{[]Path{{"--csv", "/dev/fd/1"}, {"--jtl", "/proc/self/fd/1"}}, "--csv /dev/fd/1 and --jtl /proc/self/fd/1 both write"},
		{[]Path{{"-o", "-"}, {"--jtl", other}}, ""},
	}
	for _, c := range streams {
		err := checkDistinct(c.outs)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%v: %v, want %q", c.outs, err, c.want)
		}
	}
}

func TestHistoryCountsAFileOnce(t *testing.T) {
	dir := t.TempDir()
	r := filepath.Join(dir, "r.json")
	if err := os.WriteFile(r, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{r, r}, {r, dir}, {filepath.Join(dir, "*.json"), r}} {
		if _, err := ExpandHistory(args); err == nil || !strings.Contains(err.Error(), "are one file: a history counts each run once") {
			t.Errorf("%v: %v, want the file refused once given twice", args, err)
		}
	}
	if paths, err := ExpandHistory([]string{dir}); err != nil || len(paths) != 1 {
		t.Errorf("a folder of one result: %v, %v", paths, err)
	}
}

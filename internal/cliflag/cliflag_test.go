package cliflag

import (
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args    []string
		rps     float64
		out     string
		err     string // "" for none
		helpErr bool
	}{
		{args: []string{"-rps", "100"}, rps: 100},
		{args: []string{"--rps=5", "-o", "x.json"}, rps: 5, out: "x.json"},
		{args: []string{"-rps=7"}, rps: 7},
		{args: []string{"-output", "r.json"}, rps: 1, out: "r.json"},
		{args: []string{"-h"}, helpErr: true},
		{args: []string{"-help"}, helpErr: true},
		{args: []string{"--help"}, helpErr: true},
		{args: []string{"-rpss", "1"}, err: "run: unknown flag: --rpss (did you mean --rps?)"},
		{args: []string{"--durationn", "1s"}, err: "(did you mean --duration?)"},
		{args: []string{"-rsp", "1"}, err: "run: unknown flag: --rsp (did you mean --rps?)"},
		{args: []string{"--ouptut", "x"}, err: "run: unknown flag: --ouptut (did you mean --output?)"},
		{args: []string{"--zzzzzzzz"}, err: "run: unknown flag: --zzzzzzzz"},
		{args: []string{"-ox"}, rps: 1, out: "x"},
		{args: []string{"--", "-rps", "9"}, rps: 1},
	}
	for _, tt := range tests {
		fs := New("run")
		rps := fs.Float64("rps", 1, "")
		fs.Duration("duration", time.Second, "")
		out := fs.StringP("output", "o", "", "")
		err := Parse(fs, tt.args)
		switch {
		case tt.helpErr:
			if !errors.Is(err, ErrHelp) {
				t.Errorf("Parse(%q) = %v, want ErrHelp", tt.args, err)
			}
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Parse(%q) = %v, want %q", tt.args, err, tt.err)
			}
			if err != nil && tt.err == "run: unknown flag: --zzzzzzzz" && strings.Contains(err.Error(), "did you mean") {
				t.Errorf("Parse(%q) = %v: no flag is near", tt.args, err)
			}
		case err != nil:
			t.Errorf("Parse(%q): %v", tt.args, err)
		case *rps != tt.rps || *out != tt.out:
			t.Errorf("Parse(%q): rps %v output %q, want %v %q", tt.args, *rps, *out, tt.rps, tt.out)
		}
	}
}

func TestUsage(t *testing.T) {
	t.Parallel()
	fs := New("x")
	fs.Int("pool", 64, "maximum connections")
	fs.Int("a", 1, "declared second")
	var b strings.Builder
	Usage(&b, "vesload x [flags]", fs)
	got := b.String()
	if !strings.HasPrefix(got, "Usage: vesload x [flags]\n\nFlags:\n") || strings.Index(got, "--pool") > strings.Index(got, "--a ") {
		t.Errorf("usage %q: want the synopsis, then the flags in declaration order", got)
	}
}

func TestLastValue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"-rps", "10"}, ""},
		{[]string{"-profile", "hv-6x60000-8k"}, "hv-6x60000-8k"},
		{[]string{"--profile=a.yaml", "-duration", "1s"}, "a.yaml"},
		{[]string{"-profile=a", "--profile", "b"}, "b"},
		{[]string{"-profile"}, ""},
		{[]string{"--", "-profile", "x"}, ""},
		{[]string{"--profiles", "x"}, ""},
	}
	for _, tt := range tests {
		if got := LastValue(tt.args, "profile"); got != tt.want {
			t.Errorf("LastValue(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

// TestSplitAt cuts arguments at a separator flag in each spelling, and
// refuses a missing or repeated one with an error naming it.
func TestSplitAt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args          []string
		before, after string
		err           string // "" when the split succeeds
	}{
		{[]string{"a", "--vs", "b", "c"}, "a", "b c", ""},
		{[]string{"a", "-vs", "b"}, "a", "b", ""},
		{[]string{"a", "--vs=b", "c"}, "a", "b c", ""},
		{[]string{"--name-a", "x", "a", "--vs", "b", "--format", "json"}, "--name-a x a", "b --format json", ""},
		{[]string{"--vs", "b"}, "", "b", ""},
		{[]string{"a", "--vs"}, "a", "", ""},
		{[]string{"a", "b"}, "", "", "no --vs"},
		{[]string{"a", "vs", "b"}, "", "", "no --vs"},
		{[]string{"a", "--", "--vs", "b"}, "", "", "no --vs"},
		{[]string{"a", "--vs", "b", "--vs", "c"}, "", "", "--vs given twice"},
		{[]string{"a", "--vs", "b", "-vs=c"}, "", "", "--vs given twice"},
	}
	for _, tc := range tests {
		before, after, err := SplitAt(tc.args, "vs")
		if tc.err != "" {
			var se *SeparatorError
			if !errors.As(err, &se) || se.Name != "vs" || err.Error() != tc.err {
				t.Errorf("SplitAt(%q) error %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil || strings.Join(before, " ") != tc.before || strings.Join(after, " ") != tc.after {
			t.Errorf("SplitAt(%q) = %q, %q, %v", tc.args, before, after, err)
		}
	}
}

// FuzzSplitAt cuts arbitrary argument lists: no panic, and on success
// the arguments before the separator are a prefix of the input and
// nothing is lost or invented.
func FuzzSplitAt(f *testing.F) {
	f.Add("a.json\x00--vs\x00b.json")
	f.Add("a.json\x00--vs=b.json\x00c.json")
	f.Add("--format\x00json\x00a\x00-vs\x00b\x00--vs\x00c")
	f.Add("a\x00--\x00--vs\x00b")
	f.Fuzz(func(t *testing.T, joined string) {
		args := strings.Split(joined, "\x00")
		before, after, err := SplitAt(args, "vs")
		if err != nil {
			return
		}
		if len(before) >= len(args) || strings.Join(before, "\x00") != strings.Join(args[:len(before)], "\x00") {
			t.Fatalf("before %q is not a proper prefix of %q", before, args)
		}
		sep := args[len(before)]
		n := len(before) + 1 + len(after)
		if strings.Contains(sep, "=") {
			n-- // --vs=FILE carries the first file
		}
		if n != len(args) {
			t.Fatalf("split %q into %q | %q", args, before, after)
		}
	})
}

// TestParseAt parses both halves with one flag set and answers help and
// bad flags before a missing separator, but a repeated separator before
// a bad flag.
func TestParseAt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		args          []string
		before, after string
		format        string
		err           string // "" when parsing succeeds
	}{
		{"flags on both sides", []string{"-format", "json", "a1", "a2", "--vs", "b1", "--name", "x"}, "a1 a2", "b1", "json", ""},
		{"flag after the separator", []string{"a", "--vs=b", "c", "--format", "md"}, "a", "b c", "md", ""},
		{"empty halves", []string{"--vs"}, "", "", "text", ""},
		{"missing", []string{"a", "b"}, "", "", "", "no --vs"},
		{"help without the separator", []string{"a", "--help"}, "", "", "", ErrHelp.Error()},
		{"bad flag without the separator", []string{"a", "--formt", "x"}, "", "", "", "compare: unknown flag: --formt (did you mean --format?)"},
		{"twice beats a bad flag", []string{"a", "--vs", "b", "--vs", "c", "--bad"}, "", "", "", "--vs given twice"},
		{"help in a half", []string{"a", "--vs", "b", "-h"}, "", "", "", ErrHelp.Error()},
		{"bad flag in a half", []string{"a", "--bad", "--vs", "b"}, "", "", "", "compare: unknown flag: --bad"},
	}
	for _, tc := range tests {
		fs := New("compare")
		format := fs.String("format", "text", "")
		fs.String("name", "", "")
		before, after, err := ParseAt(fs, tc.args, "vs")
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || strings.Join(before, " ") != tc.before || strings.Join(after, " ") != tc.after || *format != tc.format {
			t.Errorf("%s: %q | %q, format %q, %v; want %q | %q, format %q", tc.name, before, after, *format, err, tc.before, tc.after, tc.format)
		}
	}
}

// TestOneLine joins the lines of a text with single spaces, whatever the
// line ends.
func TestOneLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"one line", "one line"},
		{"a\nb", "a b"},
		{"a\r\nb\rc", "a b c"},
		{"\nlead and trail\n\n", "lead and trail"},
		{"", ""},
	} {
		if got := OneLine(c.in); got != c.want {
			t.Errorf("OneLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestUnknownCommand(t *testing.T) {
	t.Parallel()
	names := []string{"run", "serve", "compare", "import-jmx"}
	tests := []struct{ word, want string }{
		{"comapre", `unknown command "comapre" (did you mean compare?)`},
		{"serv", `unknown command "serv" (did you mean serve?)`},
		{"imprt-jmx", `unknown command "imprt-jmx" (did you mean import-jmx?)`},
		{"xyzzy", `unknown command "xyzzy"`},
	}
	for _, tt := range tests {
		if got := UnknownCommand(tt.word, names); got != tt.want {
			t.Errorf("UnknownCommand(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

// A value Go's number parser refuses is named in pflag's words, with no
// strconv in the line.
func TestValueErrorsInPlainWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--pid", "abc"}, `x: invalid argument "abc" for "--pid" flag: must be an integer`},
		{[]string{"--pid", "1", "--pid", "99999999999999999999"}, `x: invalid argument "99999999999999999999" for "--pid" flag: out of range`},
		{[]string{"--pids", "1,x"}, `x: invalid argument "1,x" for "--pids" flag: must be an integer`},
		{[]string{"--rates", "1,y"}, `x: invalid argument "1,y" for "--rates" flag: must be a number`},
		{[]string{"--n", "abc"}, `x: invalid argument "abc" for "--n" flag: must be an integer`},
	}
	for _, tt := range tests {
		fs := New("x")
		fs.Int32Slice("pid", nil, "")
		fs.Int32Slice("pids", nil, "")
		fs.Float64Slice("rates", nil, "")
		fs.Int("n", 0, "")
		err := Parse(fs, tt.args)
		if err == nil || err.Error() != tt.want || strings.Contains(err.Error(), "strconv") {
			t.Errorf("Parse(%q) = %v, want %q", tt.args, err, tt.want)
		}
	}
}

func TestCheckAddr(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"127.0.0.1:8080", ""},
		{":0", ""},
		{"[::1]:9465", ""},
		{"", ""},
		{"8080", `want HOST:PORT: ":8080" listens on every interface, "127.0.0.1:8080" on this machine only`},
		{"127.0.0.1:99999", "port 99999 out of range (want 0 to 65535)"},
		{"h:x", `port "x" is not a number`},
		{"nohost", "want HOST:PORT, such as 127.0.0.1:8080"},
	}
	for _, tt := range tests {
		err := CheckAddr(tt.in)
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("CheckAddr(%q) = %v, want %q", tt.in, err, tt.want)
		}
	}
	fs := New("serve")
	var addr string
	AddrVar(fs, &addr, "listen", "127.0.0.1:8080", "")
	if err := Parse(fs, []string{"--listen", "8080"}); err == nil || addr != "127.0.0.1:8080" {
		t.Errorf("--listen 8080: %v, value %q; want an error and the default kept", err, addr)
	}
	if err := Parse(fs, []string{"-listen", ":9"}); err != nil || addr != ":9" {
		t.Errorf("-listen :9: %v, value %q", err, addr)
	}
}

// FuzzCheckAddr: any text is accepted or refused in one line, and what is
// accepted is an address the network library can split.
func FuzzCheckAddr(f *testing.F) {
	for _, s := range []string{"127.0.0.1:8080", "8080", ":0", "[::1]:1", "h:x", "a:b:c", "[::1", "\n:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := CheckAddr(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("CheckAddr(%q): error on two lines: %v", s, err)
			}
			return
		}
		if s == "" {
			return
		}
		if _, _, serr := net.SplitHostPort(s); serr != nil {
			t.Errorf("CheckAddr(%q) accepted what SplitHostPort refuses: %v", s, serr)
		}
	})
}

func TestFlagOfOneValueGivenTwice(t *testing.T) {
	cases := []struct {
		args []string
		want string // "" parses
	}{
		{[]string{"--rps", "1"}, ""},
		{[]string{"--rps", "1", "--rps", "2"}, `run: --rps given twice ("1", then "2"): give it once`},
		{[]string{"-rps", "1", "--rps=2"}, `run: --rps given twice ("1", then "2")`},
		{[]string{"-o", "a", "--output", "b"}, `run: --output given twice ("a", then "b")`},
		{[]string{"-q", "-q"}, `run: --quiet given twice ("true", then "true")`},
		{[]string{"-H", "a: 1", "-H", "b: 2", "--set", "x=1", "--set", "y=2"}, ""},
	}
	for _, c := range cases {
		fs := New("run")
		fs.Float64("rps", 0, "")
		fs.StringP("output", "o", "", "")
		fs.BoolP("quiet", "q", false, "")
		fs.StringArrayP("header", "H", nil, "")
		fs.StringSlice("set", nil, "")
		err := Parse(fs, c.args)
		if c.want == "" {
			if err != nil {
				t.Errorf("%v: %v", c.args, err)
			}
		} else if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
		// The command may still set a flag itself after parsing.
		if err := fs.Set("rps", "3"); err != nil {
			t.Errorf("%v: a Set after Parse: %v", c.args, err)
		}
	}
}

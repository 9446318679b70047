package proc

import (
	"strings"
	"testing"
)

// initStat is a real /proc/1/stat line.
const initStat = "1 (process_api) S 0 0 0 0 -1 4194560 127662 433539544 0 48349 1103 4148 1142703 316309 10 -10 14 0 23 42913792 2660 18446744073709551615 1 1 0 0 0 0 0 4096 1256 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n"

// oddStat is a stat line whose comm holds spaces and parentheses, as a
// process may name itself (prctl PR_SET_NAME).
const oddStat = "42 (a) (b c) ) d) R 1 42 42 0 -1 4194560 5 0 6 0 7 8 0 0 20 0 9 0 10 11 12 18446744073709551615 1 1 0 0 0 0 0 4096 1256 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n"

const meminfo = "MemTotal:       24683584 kB\nMemFree:        21989004 kB\nMemAvailable:   24200564 kB\nBuffers:          123456 kB\n"

func TestParseStat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		line string
		want Stat
		err  string
	}{
		{"init", initStat, Stat{Comm: "process_api", State: 'S', MinFlt: 127662, MajFlt: 0, UTime: 1103, STime: 4148, Threads: 14, StartTime: 23, VSize: 42913792, RSS: 2660}, ""},
		{"comm with spaces and parentheses", oddStat,
			Stat{Comm: "a) (b c) ) d", State: 'R', MinFlt: 5, MajFlt: 6, UTime: 7, STime: 8, Threads: 9, StartTime: 10, VSize: 11, RSS: 12}, ""},
		{"zombie", "77 (defunct) Z 1 77 77 0 -1 4228172 0 0 0 0 3 1 0 0 20 0 1 0 1234 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
			Stat{Comm: "defunct", State: 'Z', UTime: 3, STime: 1, Threads: 1, StartTime: 1234}, ""},
		{"empty", "", Stat{}, "no (comm)"},
		{"no parentheses", "1 init S 0 0", Stat{}, "no (comm)"},
		{"closing before opening", "1 )init( S 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", Stat{}, "no (comm)"},
		{"cut short", "1 (x) S 0 0 0 0 -1 4194560 1 0 0 0 5 6 0 0 20 0 1 0 9 100", Stat{}, "21 fields after the comm"},
		{"state too long", strings.Replace(initStat, ") S ", ") SS ", 1), Stat{}, "not one letter"},
		{"utime not a number", strings.Replace(initStat, " 1103 ", " 11x3 ", 1), Stat{}, "stat field 14"},
		{"negative rss", strings.Replace(initStat, " 2660 ", " -2660 ", 1), Stat{}, "stat field 24"},
		{"negative threads", strings.Replace(initStat, " 14 0 23 ", " -14 0 23 ", 1), Stat{}, "stat field 20"},
		{"counter overflows 64 bits", strings.Replace(initStat, " 127662 ", " 18446744073709551616 ", 1), Stat{}, "stat field 10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseStat([]byte(tt.line))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("parseStat error = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("parseStat =\n %+v\nwant\n %+v", got, tt.want)
			}
		})
	}
}
func TestParseComm(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want, err string
	}{
		{"java\n", "java", ""},
		{"a) (b c) ) d\n", "a) (b c) ) d", ""},
		{"dcae-ves-collec\n", "dcae-ves-collec", ""},
		{"\n", "", "0 bytes"},
		{"", "", "no final newline"},
		{"java", "", "no final newline"},
		{"sixteen-chars-xx\n", "", "16 bytes"},
	}
	for _, tt := range tests {
		got, err := ParseComm([]byte(tt.in))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseComm(%q) error = %v, want one containing %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseComm(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestCmdlineName(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"/usr/lib/jvm/bin/java\x00-jar\x00/opt/app/ves.jar\x00", "java"},
		{"dcae-ves-collector\x00--port\x008080\x00", "dcae-ves-collector"},
		{"./vesload\x00serve\x00", "vesload"},
		{"nginx: worker process\x00\x00\x00", "nginx: worker process"},
		{"", ""},
		{"\x00", ""},
		{"/\x00", "/"},
	}
	for _, tt := range tests {
		if got := CmdlineName([]byte(tt.in)); got != tt.want {
			t.Errorf("CmdlineName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
func TestFieldKB(t *testing.T) {
	t.Parallel()
	status := []byte("Name:\tvesload\nVmPeak:\t  900 kB\nVmHWM:\t   23456 kB\nVmRSS:\t 20000 kB\n")
	tests := []struct {
		key  string
		want uint64
		ok   bool
	}{
		{"VmHWM", 23456 << 10, true},
		{"VmRSS", 20000 << 10, true},
		{"VmSwap", 0, false},
		{"Vm", 0, false}, // a prefix of a key is not the key
	}
	for _, tt := range tests {
		got, err := FieldKB(status, tt.key)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("FieldKB(%q) = %d, %v; want %d, ok %v", tt.key, got, err, tt.want, tt.ok)
		}
	}
}

func TestParseMemTotal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     uint64
		err      string
	}{
		{"real", meminfo, 24683584 << 10, ""},
		{"not first, no final newline", "MemFree: 1 kB\nMemTotal: 2048 kB", 2 << 20, ""},
		{"missing", "MemFree: 1 kB\n", 0, "no MemTotal"},
		{"empty", "", 0, "no MemTotal"},
		{"no unit", "MemTotal: 2048\n", 0, "want a number of kB"},
		{"other unit", "MemTotal: 2 MB\n", 0, "want a number of kB"},
		{"not a number", "MemTotal: lots kB\n", 0, `"lots"`},
		{"zero", "MemTotal: 0 kB\n", 0, `"0"`},
		{"overflows bytes", "MemTotal: 18446744073709551615 kB\n", 0, "MemTotal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseMemTotal([]byte(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("parseMemTotal error = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("parseMemTotal = %d, %v; want %d", got, err, tt.want)
			}
		})
	}
}

// fakeProc is a procfs tree in a temporary directory.
func TestExited(t *testing.T) {
	t.Parallel()
	for state, want := range map[byte]bool{'R': false, 'S': false, 'D': false, 'I': false, 'T': false, 'Z': true, 'X': true} {
		if got := (Stat{State: state}).Exited(); got != want {
			t.Errorf("state %c: Exited = %v, want %v", state, got, want)
		}
	}
}

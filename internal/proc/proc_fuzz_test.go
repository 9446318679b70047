package proc

import (
	"bytes"
	"testing"
)

// FuzzParseStat feeds arbitrary stat lines. Whatever the input, parsing
// must not panic, and a line it accepts must give the comm between the
// first '(' and the last ')', a state letter and no negative thread count.
func FuzzParseStat(f *testing.F) {
	f.Add([]byte(initStat))
	f.Add([]byte(oddStat))
	f.Add([]byte("77 (defunct) Z 1 77 77 0 -1 4228172 0 0 0 0 3 1 0 0 20 0 1 0 1234 0 0 18446744073709551615 0 0\n"))
	f.Add([]byte("1 (x) S 0 0 0 0 -1 4194560 1 0 0 0 5 6 0 0 20 0 1 0 9 100"))
	f.Add([]byte(")("))
	f.Add([]byte("1 (x) S 18446744073709551615 9223372036854775808 -1 +1 0x1 1e3 1 0 0 0 5 6 0 0 20 0 9223372036854775807 0 9 100 18446744073709551615"))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := ParseStat(b)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error text")
			}
			return
		}
		open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
		if st.Comm != string(b[open+1:end]) {
			t.Fatalf("comm %q from %q", st.Comm, b)
		}
		if st.Threads < 0 || st.State == ' ' {
			t.Fatalf("fields %+v from %q", st, b)
		}
	})
}

// FuzzParseComm feeds arbitrary comm files and command lines: an accepted
// comm is 1 to 15 bytes, and a command line's name never holds a NUL.
func FuzzParseComm(f *testing.F) {
	f.Add([]byte("java\n"), []byte("/usr/bin/java\x00-jar\x00"))
	f.Add([]byte("dcae-ves-collec\n"), []byte("/opt/app/dcae-ves-collector\x00"))
	f.Add([]byte("\n"), []byte("\x00"))
	f.Add([]byte("a) (b\n\n"), []byte("/"))
	f.Fuzz(func(t *testing.T, comm, cmdline []byte) {
		if name, err := ParseComm(comm); err == nil && (len(name) == 0 || len(name) > CommLen) {
			t.Fatalf("comm %q accepted as %q", comm, name)
		}
		if name := CmdlineName(cmdline); bytes.IndexByte([]byte(name), 0) >= 0 {
			t.Fatalf("name %q from %q holds a NUL", name, cmdline)
		}
	})
}

// FuzzParseMemTotal feeds arbitrary meminfo files: an accepted total is
// a positive whole number of KiB.
func FuzzParseMemTotal(f *testing.F) {
	f.Add([]byte(meminfo))
	f.Add([]byte("MemFree: 1 kB\nMemTotal: 2048 kB"))
	f.Add([]byte("MemTotal: 18446744073709551615 kB\n"))
	f.Add([]byte("MemTotal:\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := ParseMemTotal(b)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error text")
			}
			return
		}
		if n == 0 || n%1024 != 0 {
			t.Fatalf("MemTotal %d from %q", n, b)
		}
	})
}

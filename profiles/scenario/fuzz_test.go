package scenario

import (
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/vesload/vesload/profiles"
)

// FuzzCompile feeds arbitrary profiles and --set values through Resolve
// and Compile: whatever the input, the outcome is a plan or one error line
// that shows no password, never a panic. The environment is fixed, so the
// fuzzer explores the set and unset password variable alike.
func FuzzCompile(f *testing.F) {
	for _, b := range profiles.Builtins() {
		data, err := profiles.BuiltinYAML(b.Name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, "")
	}
	f.Add([]byte(mixProfile), "TENANT=onap")
	f.Add([]byte("target: {url: 'http://u:s3cr3tpw@127.0.0.1:1/x'}\nload: {rps: 1, duration: 1s}\n"), "")
	f.Add([]byte("target: {url: 'ftp://u:s3cr3tpw@h/x', auth: {user: u, password_env: PW}}\n"), "X=1")
	f.Add([]byte("vars: {H: ''}\ntarget: {url: 'https://${H}/x'}\nload: {rps: 0.5, duration: 1s}\n"), "H=u:s3cr3tpw@h")
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		p, err := profiles.Parse(data, "fuzz.yaml")
		if err != nil {
			return // FuzzParse covers the decoder
		}
		if p.Target.URL == "" {
			p.Target.URL = "http://127.0.0.1:9/eventListener/v7"
		}
		var sets []string
		if set != "" {
			sets = []string{set}
		}
		// The password may show only where it is written as something
		// else than the user info of a URL.
		text := string(data) + "\n" + set
		hidden := strings.Count(text, "s3cr3tpw") == strings.Count(text, ":s3cr3tpw@")
		check := func(err error) {
			msg := err.Error()
			if msg == "" || strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("error %q is not one line", msg)
			}
			if hidden && strings.Contains(msg, "s3cr3tpw") {
				t.Fatalf("error %q shows a password", msg)
			}
		}
		resolved, err := Resolve(p, sets)
		if err != nil {
			check(err)
			return
		}
		if _, err := Compile(resolved, Options{RunID: "fuzz", NoPreflight: true, LookupEnv: env("PW=pw")}); err != nil {
			check(err)
		}
	})
}

// FuzzCheckAddr: any --addr is accepted or refused in one line, never a
// panic, and an accepted one has a host and a port from 1 to 65535.
func FuzzCheckAddr(f *testing.F) {
	for _, s := range []string{"127.0.0.1:6061", "127.0.0.1:99999", "[::1]:6061", ":6061", "host", "h:0", "h:-1", "h:65535"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		err := CheckAddr(addr)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n") && !strings.ContainsAny(addr, "\n") {
				t.Fatalf("%q: a message of several lines: %v", addr, err)
			}
			return
		}
		host, port, serr := net.SplitHostPort(addr)
		n, perr := strconv.Atoi(port)
		if serr != nil || host == "" || perr != nil || n < 1 || n > 65535 {
			t.Fatalf("%q accepted", addr)
		}
	})
}

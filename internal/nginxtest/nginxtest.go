// Package nginxtest starts a private nginx on 127.0.0.1 for end-to-end
// tests against a real third-party HTTP server. It answers POSTs to any
// /eventListener path with 202, as a VES collector does, and stops with
// the test. StartConfig puts a rate limit in front of that answer, or pins
// nginx to a CPU, for tests of what a real server refuses or how fast it
// is beside the generator. Tests skip when nginx is not installed, unless
// VESLOAD_REQUIRE_NGINX=1 (as CI sets it) makes that a failure.
package nginxtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/process"
	"github.com/vesload/vesload/internal/proctest"
	"github.com/vesload/vesload/internal/waitfor"
)

// Config is what StartConfig's nginx does beyond Start's. The zero value
// is Start's nginx.
type Config struct {
	// Rate, when above 0, limits the requests to /eventListener/ to Rate a
	// second (limit_req, one key for every client); nginx answers 503 to
	// a request beyond the rate and its Burst.
	Rate int
	// Burst is how many requests above the rate the limit lets through at
	// once (limit_req's burst, nodelay): a steady load below the rate
	// whose requests the generator's timer bunches up is not refused.
	Burst int
	// CPUs, when set, are the CPUs nginx's one worker runs on
	// (worker_cpu_affinity), so that a test can keep it off the
	// generator's CPU.
	CPUs []int
}

// config is nginx's configuration: %[1]s the folder, %[2]s the worker's
// CPU affinity, %[3]s the servers (accept or limited).
const config = `daemon off;
master_process on;
worker_processes 1;
%[2]s
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    keepalive_requests 1000000;
%[3]s
}
`

// accept answers every POST at once, as Start's nginx does.
const accept = `    server {
        listen 127.0.0.1:%[1]d;
        location /eventListener/ { return 202 "Accepted"; }
        location / { return 404; }
    }`

// limited answers 202 behind limit_req. nginx runs a location's return in
// its rewrite phase, before limit_req's (preaccess), so a return in the
// limited location would answer every request unlimited: the answer comes
// from a content handler instead, a proxy to a second server of the same
// nginx on a Unix socket (no loopback port to find, no TIME_WAIT), over
// kept-alive connections as an ingress in front of a collector keeps them.
// One key ($server_port) for every client: the generator's connections
// share one budget, as the rate a collector can take is shared. Bodies up
// to 1 MiB are kept in memory: the worker, nobody when nginx is started as
// root, may not write to the test's private folder.
const limited = `    limit_req_zone $server_port zone=ves:1m rate=%[2]dr/s;
    upstream collector {
        server unix:%[3]s;
        keepalive 16;
    }
    server {
        listen unix:%[3]s;
        location / { return 202 "Accepted"; }
    }
    server {
        listen 127.0.0.1:%[1]d;
        location /eventListener/ {
            limit_req zone=ves burst=%[4]d nodelay;
            limit_req_status 503;
            client_body_buffer_size 1m;
            proxy_pass http://collector;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
        }
        location / { return 404; }
    }`

// maxSocketPath is the longest path a Unix socket's address holds
// (sun_path, 108 bytes with its NUL).
const maxSocketPath = 107

// Start runs nginx on a free loopback port and returns its base URL
// (http://127.0.0.1:PORT). It is stopped when the test ends.
func Start(tb testing.TB) string {
	tb.Helper()
	return StartConfig(tb, Config{}).URL
}

// Server is a running nginx.
type Server struct {
	// URL is its base URL, http://127.0.0.1:PORT.
	URL string
	// Worker is its one worker process's pid, so that a test can sample
	// the process that answers (vesload --target-pid): the master only
	// starts it. 0 when its children cannot be read.
	Worker int
}

// StartConfig is Start with a rate limit or a CPU for nginx's worker.
func StartConfig(tb testing.TB, c Config) Server {
	tb.Helper()
	bin := proctest.Need(tb, "nginx", "VESLOAD_REQUIRE_NGINX", "apt-get install nginx-light",
		"/usr/sbin/nginx", "/usr/local/sbin/nginx")
	if c.Rate < 0 || c.Burst < 0 || c.Burst > 0 && c.Rate == 0 {
		tb.Fatalf("nginxtest: rate %d/s, burst %d: want a rate above 0 for a burst, neither below 0", c.Rate, c.Burst)
	}
	for _, cpu := range c.CPUs {
		if cpu < 0 {
			tb.Fatalf("nginxtest: CPU %d: want CPUs numbered from 0", cpu)
		}
	}
	dir := tb.TempDir()
	port := proctest.FreePort(tb)
	server := fmt.Sprintf(accept, port)
	if c.Rate > 0 {
		server = fmt.Sprintf(limited, port, c.Rate, socket(tb), c.Burst)
	}
	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, config, dir, affinity(c.CPUs), server), 0o644); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", conf, "-e", filepath.Join(dir, "error.log"))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	proctest.Start(tb, cmd, 5*time.Second)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	var err error
	listens := waitfor.True(10*time.Second, 50*time.Millisecond, func() bool {
		var conn net.Conn
		if conn, err = net.DialTimeout("tcp", addr, time.Second); err == nil {
			conn.Close()
		}
		return err == nil
	})
	if !listens {
		log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
		tb.Fatalf("nginx did not listen on %s: %v\n%s", addr, err, log)
	}
	return Server{URL: "http://" + addr, Worker: worker(tb, cmd.Process.Pid)}
}

// worker is the pid of the master's one child, its worker process, which
// is started by the time nginx listens; 0 when it cannot be read.
func worker(tb testing.TB, master int) int {
	tb.Helper()
	var pid int32
	var err error
	found := waitfor.True(5*time.Second, 20*time.Millisecond, func() bool {
		var p *process.Process
		var children []*process.Process
		if p, err = process.NewProcess(int32(master)); err == nil {
			children, err = p.Children()
		}
		if len(children) != 1 {
			return false
		}
		pid = children[0].Pid
		return true
	})
	if !found {
		tb.Logf("nginx (pid %d): no one worker among its children (%v); its worker is not sampled", master, err)
		return 0
	}
	return int(pid)
}

// socket returns the path of the limited server's Unix socket, in a
// folder of its own that nginx's worker may pass through (0711): started
// as root, nginx serves as nobody, who could not reach it in the test's
// private folder (EACCES, a 502 for every request). The folder is short
// enough for a socket's address and removed when the test ends.
func socket(tb testing.TB) string {
	tb.Helper()
	dir, err := os.MkdirTemp("", "nginxtest-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o711); err != nil {
		tb.Fatal(err)
	}
	sock := filepath.Join(dir, "collector.sock")
	if len(sock) > maxSocketPath {
		tb.Fatalf("nginxtest: the socket path %s is longer than a Unix socket's %d bytes: set a shorter TMPDIR", sock, maxSocketPath)
	}
	return sock
}

// affinity is the worker_cpu_affinity line that keeps the worker on cpus
// (a mask, CPU 0 its rightmost bit), or none.
func affinity(cpus []int) string {
	if len(cpus) == 0 {
		return ""
	}
	mask := []byte(strings.Repeat("0", slices.Max(cpus)+1))
	for _, c := range cpus {
		mask[len(mask)-1-c] = '1'
	}
	return "worker_cpu_affinity " + string(mask) + ";"
}

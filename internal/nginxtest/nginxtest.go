// Package nginxtest starts a private nginx on 127.0.0.1 for end-to-end
// tests against a real third-party HTTP server. It answers POSTs to any
// /eventListener path with 202, as a VES collector does, and stops with
// the test. Tests skip when nginx is not installed, unless
// VESLOAD_REQUIRE_NGINX=1 (as CI sets it) makes that a failure.
package nginxtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/proctest"
)

const config = `daemon off;
master_process on;
worker_processes 1;
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
    server {
        listen 127.0.0.1:%[2]d;
        location /eventListener/ { return 202 "Accepted"; }
        location / { return 404; }
    }
}
`

// Start runs nginx on a free loopback port and returns its base URL
// (http://127.0.0.1:PORT). It is stopped when the test ends.
func Start(tb testing.TB) string {
	tb.Helper()
	bin := proctest.Need(tb, "nginx", "VESLOAD_REQUIRE_NGINX", "apt-get install nginx-light",
		"/usr/sbin/nginx", "/usr/local/sbin/nginx")
	dir := tb.TempDir()
	port := proctest.FreePort(tb)
	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, config, dir, port), 0o644); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", conf, "-e", filepath.Join(dir, "error.log"))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	proctest.Start(tb, cmd, 5*time.Second)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return "http://" + addr
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			tb.Fatalf("nginx did not listen on %s: %v\n%s", addr, err, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

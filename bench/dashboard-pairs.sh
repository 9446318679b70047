#!/usr/bin/env bash
# Alternated pairs: the same open-model run against a local nginx (return
# 202) with and without --dashboard, A B A B …, so that a slower machine
# slows both sides of a pair. Prints each run's pool_exhausted and
# dispatch lag p99 from its result, then the medians of each side.
#   RATE=20000 DURATION=10s PAIRS=5 bash bench/dashboard-pairs.sh
# Traffic goes to 127.0.0.1 only; nginx is started and stopped by its pid.
set -euo pipefail
cd "$(dirname "$0")/.."
RATE=${RATE:-20000} DURATION=${DURATION:-10s} PAIRS=${PAIRS:-5} POOL=${POOL:-64}
command -v nginx >/dev/null || { echo "dashboard-pairs: nginx is not installed (apt-get install nginx-light)" >&2; exit 2; }
command -v jq >/dev/null || { echo "dashboard-pairs: jq is not installed (apt-get install jq)" >&2; exit 2; }
make -s build
tmp=$(mktemp -d)
nginx_pid=
cleanup() {
	[[ -n $nginx_pid ]] && kill -TERM "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for ((port = 18280; port < 18380; port++)); do port_free "$port" && break; done
mkdir -p "$tmp/nginx/tmp"
cat >"$tmp/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid nginx.pid;
error_log error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 100000000;
  client_body_temp_path tmp;
  server { listen 127.0.0.1:$port; location / { return 202; } }
}
CONF
nginx -p "$tmp/nginx/" -c nginx.conf &
nginx_pid=$!
for ((i = 0; i < 50; i++)); do port_free "$port" || break; sleep 0.1; done
url=http://127.0.0.1:$port/eventListener/v7
run() { # run NAME EXTRA...: one run, its two figures
	local name=$1
	shift
	bin/vesload -rps "$RATE" -duration "$DURATION" -pool "$POOL" -url "$url" -q -o "$tmp/$name.json" "$@" >/dev/null 2>&1 || true
	jq -r '[.errors.pool_exhausted // 0, .generator.dispatch_lag_p99_ms] | @tsv' "$tmp/$name.json"
}
printf 'pair\tside\tpool_exhausted\tlag_p99_ms\n'
for ((p = 1; p <= PAIRS; p++)); do
	dport=$((port + 100 + p))
	printf '%d\tdashboard\t%s\n' "$p" "$(run "d$p" --dashboard "127.0.0.1:$dport" --dashboard-linger 0s)"
	printf '%d\tplain\t%s\n' "$p" "$(run "p$p")"
done

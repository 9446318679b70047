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
die() { echo "dashboard-pairs: $*" >&2; exit 1; }
# bench/lib.sh: free_port, start_nginx and the traps that stop nginx and remove
# $tmp on exit, also on Ctrl-C.
# shellcheck source=bench/lib.sh
. bench/lib.sh
make -s build
tmp=$(mktemp -d)
# Ports of its own (and 100 above for the dashboards), apart from peers.sh's
# and capacity.sh's.
free_port 18280 18379
start_nginx nginx "$tmp/nginx.log" "  server { listen 127.0.0.1:$port; location / { return 202; } }"
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

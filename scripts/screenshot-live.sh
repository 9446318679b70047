#!/usr/bin/env bash
# Renders docs/dashboard.png, the picture of the live page the README
# shows: a 40 s ramp against the VES collector emulator on 127.0.0.1
# (`vesload serve` with its downstream pool of 16 and a 40 ms publish
# time) watched with --dashboard; headless Chromium loads the page 20 s
# into the run. Run it through `make screenshot-live`.
set -euo pipefail
bin=${VESLOAD:-bin/vesload}
out=${OUT:-docs/dashboard.png}
at=${AT:-20}
chromium=${CHROMIUM:-chromium}
command -v "$chromium" >/dev/null || { echo "screenshot-live: $chromium not found (apt-get install chromium)" >&2; exit 1; }

work=$(mktemp -d)
serve= run=
cleanup() {
	for p in $run $serve; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT

# wait_for FILE PATTERN: the first match of PATTERN in FILE, within 10 s.
wait_for() {
	local m=
	for _ in $(seq 100); do
		m=$(grep -o "$2" "$1" | head -1 || true)
		[ -n "$m" ] && { echo "$m"; return; }
		sleep 0.1
	done
	echo "screenshot-live: nothing matching $2 in $1" >&2; cat "$1" >&2; exit 1
}

"$bin" serve --listen 127.0.0.1:0 --backend-pool 16 --publish-time 40ms 2>"$work/serve.log" &
serve=$!
url=$(wait_for "$work/serve.log" 'http://127\.0\.0\.1:[0-9]*')

cat >"$work/profile.yaml" <<'YAML'
name: dashboard-screenshot
description: a ramp past the emulator's capacity
load:
  stages:
    - ramp: {from: 50, to: 550, over: 30s}
    - {rps: 200, duration: 10s}
requests:
  - name: fault
    event: fault
YAML

"$bin" -profile "$work/profile.yaml" -url "$url/eventListener/v7" -pool 64 \
	--target-pid "$serve" --threshold 'p99<200ms' --threshold 'error_rate<1%' \
	--dashboard 127.0.0.1:0 -o "$work/result.json" >/dev/null 2>"$work/run.log" &
run=$!
page=$(wait_for "$work/run.log" 'http://127\.0\.0\.1:[0-9]*/')
sleep "$at"

# --timeout stops the page's event stream (it never ends while the run
# goes on) and takes the picture of the page as served.
"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$work/profile" --hide-scrollbars --timeout=5000 \
	--window-size=1280,"${HEIGHT:-2200}" --screenshot="$out" "$page" 2>/dev/null
echo "screenshot-live: $out"

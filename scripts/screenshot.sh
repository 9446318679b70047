#!/usr/bin/env bash
# Renders docs/report.png, the picture of an HTML report the README shows:
# a 30 s run against the VES collector emulator on 127.0.0.1 (`vesload
# serve` with its downstream pool of 16 and a 40 ms publish time, so that
# about 400 events/s saturate it), ramping from 50 to 550 events/s and
# back to 200, with the emulator's process sampled; then headless
# Chromium draws the page. Run it through `make screenshot`.
set -euo pipefail
bin=${VESLOAD:-bin/vesload}
out=${OUT:-docs/report.png}
chromium=${CHROMIUM:-chromium}
command -v "$chromium" >/dev/null || { echo "screenshot: $chromium not found (apt-get install chromium)" >&2; exit 1; }

work=$(mktemp -d)
serve=
cleanup() {
	if [ -n "$serve" ]; then kill "$serve" 2>/dev/null || true; wait "$serve" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

"$bin" serve --listen 127.0.0.1:0 --backend-pool 16 --publish-time 40ms 2>"$work/serve.log" &
serve=$!
url=
for _ in $(seq 100); do
	url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$work/serve.log" | head -1 || true)
	[ -n "$url" ] && break
	sleep 0.1
done
[ -n "$url" ] || { echo "screenshot: the emulator did not start" >&2; cat "$work/serve.log" >&2; exit 1; }

cat >"$work/profile.yaml" <<'YAML'
name: report-screenshot
description: a ramp past the emulator's capacity and back
load:
  stages:
    - ramp: {from: 50, to: 550, over: 20s}
    - {rps: 200, duration: 10s}
requests:
  - name: fault
    event: fault
YAML

"$bin" -profile "$work/profile.yaml" -url "$url/eventListener/v7" -pool 64 \
	--target-pid "$serve" --threshold 'p99<200ms' --threshold 'error_rate<1%' \
	-o "$work/result.json" --html "$work/report.html" -q >/dev/null || [ $? -eq 3 ]

"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$work/profile" --hide-scrollbars --virtual-time-budget=5000 \
	--window-size=1280,"${HEIGHT:-2900}" --screenshot="$out" "file://$work/report.html" 2>/dev/null
echo "screenshot: $out"

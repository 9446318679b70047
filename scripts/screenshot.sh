#!/usr/bin/env bash
# Renders the pictures the README shows, from a real run against the VES
# collector emulator on 127.0.0.1 (`vesload serve` with its downstream
# pool of 16 and a 40 ms publish time, so that about 400 events/s
# saturate it), ramping from 50 to 550 events/s and then holding 200/s,
# with the emulator's process sampled:
#   screenshot.sh report  docs/report.png, the HTML report of a 30 s run
#                         (`make screenshot`);
#   screenshot.sh live    docs/dashboard.png, the live page (--dashboard)
#                         of a 40 s run, loaded AT (20) seconds into it
#                         (`make screenshot-live`);
#   screenshot.sh trend   docs/trend.png, the page of `vesload trend` over
#                         a history of six builds, three 3 s runs each,
#                         whose emulator answers build 1.10.0 (and 1.10.1)
#                         in 100 ms instead of 5 ms, fixed in 1.11.0
#                         (`make screenshot-trend`);
#   screenshot.sh capacity docs/capacity.png, the page of `vesload capacity`
#                         against the emulator bounded to about 800/s
#                         (a downstream pool of 8, 10 ms publish time),
#                         its process sampled, 2 s steps after a 1 s
#                         warm-up to 10 % (`make screenshot-capacity`);
#   screenshot.sh capacity-compare docs/capacity-compare.png, the page of
#                         `vesload compare` over two such searches, build
#                         1.0 against the emulator's downstream pool of 8
#                         and 1.1 against one of 6, gated at -10 %
#                         (`make screenshot-capacity-compare`).
# Headless Chromium draws the page.
set -euo pipefail
mode=${1:-report}
case "$mode" in
report) out=${OUT:-docs/report.png} ramp=20s height=${HEIGHT:-2900} ;;
live) out=${OUT:-docs/dashboard.png} ramp=30s height=${HEIGHT:-2200} ;;
trend) out=${OUT:-docs/trend.png} height=${HEIGHT:-2300} ;;
capacity) out=${OUT:-docs/capacity.png} height=${HEIGHT:-3400} ;;
capacity-compare) out=${OUT:-docs/capacity-compare.png} height=${HEIGHT:-1800} ;;
*) echo "usage: screenshot.sh report|live|trend|capacity|capacity-compare" >&2; exit 2 ;;
esac
bin=${VESLOAD:-bin/vesload}
chromium=${CHROMIUM:-chromium}
command -v "$chromium" >/dev/null || { echo "screenshot: $chromium not found (apt-get install chromium)" >&2; exit 1; }

work=$(mktemp -d)
mkdir "$work/runs"
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
	echo "screenshot: nothing matching $2 in $1" >&2; cat "$1" >&2; exit 1
}

# shoot URL: the picture of the page at URL, as served.
shoot() {
	"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$work/profile" --hide-scrollbars "${@:2}" \
		--window-size=1280,"$height" --screenshot="$out" "$1" 2>/dev/null
}

if [ "$mode" = trend ]; then
	# build:latency of the emulator; three runs of each build.
	for b in 1.9.0:5ms 1.9.1:5ms 1.9.2:5ms 1.10.0:100ms 1.10.1:100ms 1.11.0:5ms; do
		"$bin" serve --listen 127.0.0.1:0 --latency "${b#*:}" --seed 1 2>"$work/serve.log" &
		serve=$!
		url=$(wait_for "$work/serve.log" 'http://127\.0\.0\.1:[0-9]*')
		for k in 1 2 3; do
			"$bin" -url "$url/eventListener/v7" -rps 200 -duration 3s -q --label "build=${b%%:*}" \
				-o "$work/runs/${b%%:*}-$k.json" >/dev/null
		done
		kill "$serve"; wait "$serve" 2>/dev/null || true; serve=
	done
	"$bin" trend "$work/runs" --by build --metric avg --metric p50 --metric p99 --metric rps --gate 'p50<+10%' --gate 'p99<+10%' \
		--html "$work/trend.html" >/dev/null
	shoot "file://$work/trend.html" --virtual-time-budget=5000
	echo "screenshot: $out"
	exit 0
fi

if [ "$mode" = capacity ]; then
	"$bin" serve --listen 127.0.0.1:0 --backend-pool 8 --publish-time 10ms 2>"$work/serve.log" &
	serve=$!
	url=$(wait_for "$work/serve.log" 'http://127\.0\.0\.1:[0-9]*')
	"$bin" capacity --url "$url/eventListener/v7" --target-pid "$serve" --step-duration 2s --warmup 1s --precision 10% \
		--slo 'p99<100ms' --slo 'error_rate<0.1%' --max 3200 --budget 90s -o "$work/capacity.json" --html "$work/capacity.html" \
		-q >/dev/null || [ $? -eq 3 ]
	shoot "file://$work/capacity.html" --virtual-time-budget=5000
	echo "screenshot: $out"
	exit 0
fi

if [ "$mode" = capacity-compare ]; then
	# build:downstream pool of the emulator; one search of each.
	for b in 1.0:8 1.1:6; do
		"$bin" serve --listen 127.0.0.1:0 --backend-pool "${b#*:}" --publish-time 10ms 2>"$work/serve.log" &
		serve=$!
		url=$(wait_for "$work/serve.log" 'http://127\.0\.0\.1:[0-9]*')
		"$bin" capacity --url "$url/eventListener/v7" --step-duration 2s --warmup 1s --precision 10% \
			--slo 'p99<100ms' --slo 'error_rate<0.1%' --max 3200 --budget 90s --label "build=${b%%:*}" \
			-o "$work/runs/${b%%:*}.json" -q >/dev/null || [ $? -eq 3 ]
		kill "$serve"; wait "$serve" 2>/dev/null || true; serve=
	done
	# From the work folder, so that the page names the files as runs/….
	abs=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
	(cd "$work" && "$abs" compare runs/1.0.json --vs runs/1.1.json --gate 'capacity>-10%' --html compare.html >/dev/null) ||
		[ $? -eq 3 ]
	shoot "file://$work/compare.html" --virtual-time-budget=5000
	echo "screenshot: $out"
	exit 0
fi

"$bin" serve --listen 127.0.0.1:0 --backend-pool 16 --publish-time 40ms 2>"$work/serve.log" &
serve=$!
url=$(wait_for "$work/serve.log" 'http://127\.0\.0\.1:[0-9]*')

cat >"$work/profile.yaml" <<YAML
name: screenshot
description: a ramp past the emulator's capacity, then a rate it keeps up with
load:
  stages:
    - ramp: {from: 50, to: 550, over: $ramp}
    - {rps: 200, duration: 10s}
requests:
  - name: fault
    event: fault
YAML
args=(-profile "$work/profile.yaml" -url "$url/eventListener/v7" -pool 64
	--target-pid "$serve" --threshold 'p99<200ms' --threshold 'error_rate<1%' -o "$work/result.json")

if [ "$mode" = report ]; then
	"$bin" "${args[@]}" --html "$work/report.html" -q >/dev/null || [ $? -eq 3 ]
	shoot "file://$work/report.html" --virtual-time-budget=5000
else
	"$bin" "${args[@]}" --dashboard 127.0.0.1:0 >/dev/null 2>"$work/run.log" &
	run=$!
	page=$(wait_for "$work/run.log" 'http://127\.0\.0\.1:[0-9]*/')
	sleep "${AT:-20}"
	# --timeout stops the page's event stream (it never ends while the run
	# goes on) and takes the picture of the page as served.
	shoot "$page" --timeout=5000
fi
echo "screenshot: $out"

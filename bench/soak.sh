#!/usr/bin/env bash
# bench/soak.sh: vesload at RATE requests per second for DURATION, sampling
# its own resident memory (VmRSS) every 10 s, to show that nothing grows with
# the length of a run. Prints the RSS after 1 minute and at the end, and their
# ratio (target ≤ 1.1). Exit 3 when the ratio is above 1.1.
#
# Environment (defaults in brackets):
#   DURATION [10m]  run length: Ns, Nm or Nh
#   RATE     [100]  requests per second
#   URL             target; default: `vesload serve` started on 127.0.0.1
#   VESLOAD         use this vesload binary instead of building one
#   INTERVAL [10]   seconds between RSS samples
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
out=$here/.out/soak

DURATION=${DURATION:-10m}
RATE=${RATE:-100}
INTERVAL=${INTERVAL:-10}
URL=${URL:-}

die() { echo "soak.sh: $*" >&2; exit 1; }
log() { echo "== $*" >&2; }

[[ $DURATION =~ ^([0-9]{1,6})([smh])$ ]] || die "DURATION must look like 90s, 10m or 1h, got '$DURATION'"
case ${BASH_REMATCH[2]} in
s) dur_s=$((10#${BASH_REMATCH[1]})) ;;
m) dur_s=$((10#${BASH_REMATCH[1]} * 60)) ;;
h) dur_s=$((10#${BASH_REMATCH[1]} * 3600)) ;;
esac
((dur_s > 0 && dur_s <= 86400)) || die "DURATION must be 1s..24h, got '$DURATION'"
[[ $RATE =~ ^[0-9]{1,6}$ ]] && ((RATE > 0)) || die "RATE must be a positive whole number, got '$RATE'"
[[ $INTERVAL =~ ^[0-9]{1,4}$ ]] && ((INTERVAL > 0)) || die "INTERVAL must be a positive whole number, got '$INTERVAL'"

. "$here/lib.sh"

mkdir -p "$out"
find "$out" -maxdepth 1 -type f -delete

if [[ -n ${VESLOAD:-} ]]; then
	vesload=$VESLOAD
else
	log "building vesload"
	# A binary of our own: bin/vesload may be rebuilt while we measure.
	vesload=$here/.bin/vesload
	mkdir -p "$(dirname "$vesload")"
	# One retry: a build racing another in the same tree can fail once.
	make -s -C "$root" build BIN="$vesload" >"$out/build.log" 2>&1 ||
		{ sleep 5 && make -s -C "$root" build BIN="$vesload" >>"$out/build.log" 2>&1; } ||
		die "make build failed: see $out/build.log"
fi
[[ -x $vesload ]] || die "no vesload binary at $vesload"

target_note=$URL
if [[ -z $URL ]]; then
	if "$vesload" serve --help >/dev/null 2>&1; then
		free_port 18280 18379
		"$vesload" serve --listen "127.0.0.1:$port" --quiet >"$out/serve.log" 2>&1 &
		server_pid=$!
		for ((i = 0; i < 100; i++)); do
			kill -0 "$server_pid" 2>/dev/null || die "vesload serve exited: $(cat "$out/serve.log")"
			port_free "$port" || break
			sleep 0.1
		done
		((i < 100)) || die "vesload serve does not listen on 127.0.0.1:$port after 10 s"
		URL=http://127.0.0.1:$port/eventListener/v7
		target_note="vesload serve on $URL (separate process)"
	else
		target_note="the built-in emulator (inside the measured process: no 'vesload serve')"
	fi
fi

args=(-rps "$RATE" -duration "${dur_s}s" -o "$out/result.json" -q)
[[ -n $URL ]] && args=(-url "$URL" "${args[@]}")
log "vesload at $RATE/s for ${dur_s}s against $target_note; RSS every ${INTERVAL}s"
"$vesload" "${args[@]}" >"$out/run.out" 2>"$out/run.err" &
cur_pid=$!

rss_kb() { awk '/^VmRSS:/{print $2}' "/proc/$1/status" 2>/dev/null || true; }

# The run ends DURATION after its start plus at most its drain (--timeout,
# 10 s by default); the loop stops well after that in any case.
start=$(date +%s)
deadline=$((start + dur_s + 60))
rss_1m='' rss_last='' rss_max=0 t_last=0
printf '%8s %10s\n' t_s rss_kib >"$out/samples.txt"
next=$start
while kill -0 "$cur_pid" 2>/dev/null; do
	now=$(date +%s)
	if ((now >= deadline)); then
		log "vesload still running $((now - start))s after start: stopping it"
		stop_pid "$cur_pid"
		break
	fi
	if ((now >= next)); then
		r=$(rss_kb "$cur_pid")
		if [[ -n $r ]]; then
			t=$((now - start))
			printf '%8d %10d\n' "$t" "$r" >>"$out/samples.txt"
			# Only samples taken while the schedule runs count as "the end".
			if ((t <= dur_s)); then
				rss_last=$r t_last=$t
			fi
			if [[ -z $rss_1m ]] && ((t >= 60 || t >= dur_s)); then
				rss_1m=$r t_1m=$t
			fi
			if ((r > rss_max)); then rss_max=$r; fi
		fi
		next=$((next + INTERVAL))
	fi
	sleep 1
done
rc=0
wait "$cur_pid" || rc=$?
cur_pid=

cat "$out/samples.txt"
[[ -n $rss_1m && -n $rss_last ]] || die "too few RSS samples (vesload exit $rc): see $out/run.err"
ratio=$(awk -v a="$rss_last" -v b="$rss_1m" 'BEGIN{printf "%.3f", a / b}')
echo
echo "vesload $RATE/s for ${dur_s}s against $target_note (exit $rc)"
echo "RSS at ${t_1m}s: $((rss_1m / 1024)) MiB ($rss_1m KiB)"
echo "RSS at ${t_last}s (end): $((rss_last / 1024)) MiB ($rss_last KiB)"
echo "RSS max while sampled: $((rss_max / 1024)) MiB ($rss_max KiB)"
if [[ -s $out/result.json ]] && command -v jq >/dev/null; then
	jq -r '"result: sent \(.requests.sent) of \(.requests.scheduled), ok \(.requests.ok), errors \(.requests.errors), generator rss_max \(.generator.rss_max_bytes / 1048576 * 10 | floor / 10) MiB, dispatch lag p99 \(.generator.dispatch_lag_p99_ms) ms"' \
		"$out/result.json"
fi
if awk -v r="$ratio" 'BEGIN{exit !(r <= 1.1)}'; then
	echo "end ÷ 1 min = $ratio (target ≤ 1.1): met"
else
	echo "end ÷ 1 min = $ratio (target ≤ 1.1): NOT met"
	exit 3
fi

#!/usr/bin/env bash
# bench/capacity.sh: the acceptance of `vesload capacity` (issue 39) as a user
# runs it, with 5 s steps and 5 % precision, each search checked against its band:
#   emulator-1, emulator-2  the built-in emulator bounded to about 800/s (8 backend
#                           connections held 10 ms each), twice in a row:
#                           720-800/s, laid to the target, confirmed
#   nginx-limit             nginx rate-limiting the listener (limit_req, 503 beyond
#                           RATE/s): within 10 % below RATE and no higher than its
#                           burst lets a step pass, laid to the target, confirmed
#   generator               vesload held to GEN_CPU against nginx (return 202) on
#                           SERVER_CPU: laid to the generator, with the advice to shard
#   hv-rate, hv-producers   capacity hv against the built-in HV-VES emulator that
#                           handles at most HV_LIMIT messages a second, by the
#                           message rate of 2 producers and by producers of 100/s
#                           each: within 10 % of HV_LIMIT, laid to the target, confirmed
# and every search over in under 4 minutes. Prints a markdown table (capacity,
# lowest fail, limited_by, confirmed, steps, wall time, the machine's load, band)
# and exits 1 when a search is outside its band. The bands hold on a quiet
# machine: other work on its two cores delays the generator and the emulator
# alike (a load average of 8 halved the emulator's capacity and had the
# generator miss its schedule at 600/s), so the load is printed beside each search. Traffic goes to 127.0.0.1 only; the script starts its
# own nginx in a temporary folder and stops it, and every vesload, by its pid.
#
# Environment (defaults in brackets):
#   STEP [5s]  WARMUP [2s]  PRECISION [5%]   the searches' --step-duration, --warmup, --precision
#   RATE [1000]  BURST [100]                 nginx's limit_req rate (r/s) and burst (nodelay)
#   GEN_START [2000]  GEN_MAX [100000]  GEN_POOL [1024]   the generator's search
#   SERVER_CPU [1]  GEN_CPU [0]
#   HV_LIMIT [1000]                           the HV-VES emulator's --hv-process-rate
#   SEARCHES [emulator-1 emulator-2 nginx-limit generator hv-rate hv-producers]
#   VESLOAD                                  use this vesload binary instead of building one
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")

STEP=${STEP:-5s}
WARMUP=${WARMUP:-2s}
PRECISION=${PRECISION:-5%}
RATE=${RATE:-1000}
BURST=${BURST:-100}
GEN_START=${GEN_START:-2000}
# GEN_MAX lies between what vesload keeps on one core (48,000-64,000/s on an
# idle machine of this kind) and what nginx answers on one (wrk's closed loop:
# 111,000/s in bench/RESULTS.md), so that the climb stops before nginx could
# become the limit.
GEN_MAX=${GEN_MAX:-100000}
GEN_POOL=${GEN_POOL:-1024}
SERVER_CPU=${SERVER_CPU:-1}
GEN_CPU=${GEN_CPU:-0}
HV_LIMIT=${HV_LIMIT:-1000}
SEARCHES=${SEARCHES:-"emulator-1 emulator-2 nginx-limit generator hv-rate hv-producers"}
# A search must end within this many seconds (the issue's 4 minutes); the
# script stops one at twice that.
LIMIT_S=240

out=$here/.out/capacity # each search's document, step results and output (gitignored)
path=/eventListener/v7

die() { echo "capacity.sh: $*" >&2; exit 1; }
log() { echo "== $*" >&2; }

[[ $STEP =~ ^[1-9][0-9]*s$ ]] || die "STEP must be whole seconds such as 5s, got '$STEP'"
[[ $WARMUP =~ ^[0-9]+s$ ]] || die "WARMUP must be whole seconds such as 2s, got '$WARMUP'"
[[ $PRECISION =~ ^[0-9.]+%$ ]] || die "PRECISION must be a percentage such as 5%, got '$PRECISION'"
for v in RATE BURST GEN_START GEN_MAX GEN_POOL SERVER_CPU GEN_CPU HV_LIMIT; do
	[[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a whole number, got '${!v}'"
done
((RATE > 0)) || die "RATE must be above 0"
for s in $SEARCHES; do
	case $s in emulator-1 | emulator-2 | nginx-limit | generator | hv-rate | hv-producers) ;; *) die "unknown search '$s' in SEARCHES" ;; esac
done
for cmd in jq nginx taskset; do
	command -v "$cmd" >/dev/null || die "$cmd is not installed (apt-get install jq nginx-light util-linux)"
done

# ------------------------------------------------------------ processes we own

# bench/lib.sh: stop_pid, port_free, free_port, start_nginx, stop_nginx and the
# traps that stop nginx and the running search and remove $tmp on exit.
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
nginx_cpu=$SERVER_CPU

# serve_nginx NAME SERVERS: nginx with one worker on SERVER_CPU, the http
# block's SERVERS given, listening on $port (free_port, before SERVERS is
# written); sets nginx_pid and url.
serve_nginx() {
	start_nginx "$1" "$out/$1-nginx.log" "$2"
	url=http://127.0.0.1:$port$path
}

# Ports of its own, apart from peers.sh's and dashboard-pairs.sh's.
capacity_port() { free_port 18480 18579; }

# nginx_plain: answers every POST with 202 at once (return runs in the rewrite phase).
nginx_plain() {
	capacity_port
	serve_nginx generator "  server { listen 127.0.0.1:$port; location $path { return 202 \"Accepted\"; } location / { return 404; } }"
}

# nginx_limited: 202 behind limit_req. A location's return runs before
# limit_req, so the answer comes from a content handler: a proxy to a second
# server of the same nginx on a Unix socket, over kept-alive connections. The
# burst (nodelay) lets through the requests a late timer bunches together, so
# that a steady load below RATE is not refused (a stall of BURST/RATE seconds,
# 100 ms at the defaults, would be); the folder is 0711 for nginx's worker,
# which runs as nobody when the script runs as root.
nginx_limited() {
	capacity_port
	chmod 711 "$tmp"
	local sock=$tmp/collector.sock
	serve_nginx nginx-limit "  limit_req_zone \$server_port zone=ves:1m rate=${RATE}r/s;
  upstream collector { server unix:$sock; keepalive 16; }
  server { listen unix:$sock; location / { return 202 \"Accepted\"; } }
  server {
    listen 127.0.0.1:$port;
    location /eventListener/ {
      limit_req zone=ves burst=$BURST nodelay;
      limit_req_status 503;
      client_body_buffer_size 1m;
      proxy_pass http://collector;
      proxy_http_version 1.1;
      proxy_set_header Connection \"\";
    }
    location / { return 404; }
  }"
}

# ------------------------------------------------------------------ searching

rows=
# search NAME BAND CMD...: runs one search (CMD, writing $out/NAME.json), at most
# 2 × LIMIT_S seconds, and records its figures and whether BAND (a jq test on
# .capacity, given $lo, $hi) holds. Sets failed when one does not.
failed=0
search() {
	local name=$1 band=$2 lo=$3 hi=$4 rc=0 start end wall
	shift 4
	rm -rf "${out:?}/$name-steps"
	mkdir -p "$out/$name-steps"
	log "$name: $*"
	start=$(date +%s.%N)
	timeout -k 5 $((2 * LIMIT_S)) "$@" -o "$out/$name.json" --step-results "$out/$name-steps" \
		>"$out/$name.out" 2>"$out/$name.err" &
	cur_pid=$!
	wait "$cur_pid" || rc=$?
	cur_pid=
	end=$(date +%s.%N)
	wall=$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.0f", b - a}')
	[[ -s $out/$name.json ]] || die "$name: no document (exit $rc): $(tail -n 3 "$out/$name.err")"
	local fig verdict=pass why=
	fig=$(jq -r '.capacity | [.max_rps, (.fail_rps // 0), (.limited_by // "–"), .confirmed, (.steps | length), (.spent_s | floor)] | @tsv' "$out/$name.json")
	if ! jq -e --argjson lo "$lo" --argjson hi "$hi" ".capacity | $band" "$out/$name.json" >/dev/null; then
		verdict=FAIL why="outside the band"
	fi
	if ((wall >= LIMIT_S)); then
		verdict=FAIL why="${why:+$why; }took ${wall}s, over $LIMIT_S s"
	fi
	[[ $verdict == pass ]] || failed=1
	local max fail limited confirmed steps spent
	IFS=$'\t' read -r max fail limited confirmed steps spent <<<"$fig"
	local load
	load=$(cut -d' ' -f1 /proc/loadavg)
	rows+="| $name | $max/s | $fail/s | $limited | $confirmed | $steps | ${spent} s | ${wall} s | $load | exit $rc | $verdict${why:+ ($why)} |"$'\n'
	log "$name: capacity $max/s, broke at $fail/s, limited by $limited, confirmed $confirmed, $steps steps, ${wall}s, load $load: $verdict${why:+ ($why)}"
}

# ----------------------------------------------------------------------- main

mkdir -p "$out"
vesload=${VESLOAD:-}
if [[ -z $vesload ]]; then
	log "building vesload"
	vesload=$here/.bin/vesload-capacity # our own: bin/vesload may be rebuilt while we measure
	mkdir -p "$(dirname "$vesload")"
	make -s -C "$root" build BIN="$vesload" >"$out/build.log" 2>&1 || die "make build failed: see $out/build.log"
fi
[[ -x $vesload ]] || die "no vesload binary at $vesload"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vesload-capacity.XXXXXX")
common=(--step-duration "$STEP" --warmup "$WARMUP" --precision "$PRECISION")
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
# The highest rate a step of W measured seconds can pass at against the
# limit: nginx accepts at most RATE·W + BURST of its requests, and
# error_rate<0.1% allows one in a thousand refused (see
# cmd/vesload/capacity_accept_test.go).
step_s=${STEP%s}
limit_hi=$(awk -v r="$RATE" -v b="$BURST" -v w="$step_s" 'BEGIN{printf "%.1f", (r + b / w) / 0.999}')
limit_lo=$(awk -v r="$RATE" 'BEGIN{printf "%.1f", 0.9 * r}')
hv_lo=$(awk -v r="$HV_LIMIT" 'BEGIN{printf "%.1f", 0.9 * r}')
hv_hi=$(awk -v r="$HV_LIMIT" 'BEGIN{printf "%.1f", 1.1 * r}')
target='.max_rps >= $lo and .max_rps <= $hi and .limited_by == "target" and .confirmed and (.undecided // "") == ""'

for s in $SEARCHES; do
	case $s in
	emulator-*)
		search "$s" "$target" 720 800 "$vesload" capacity --emulator-backend-pool 8 --emulator-publish-time 10ms \
			--slo 'p99<100ms' --slo 'error_rate<0.1%' "${common[@]}"
		;;
	nginx-limit)
		nginx_limited
		search "$s" "$target" "$limit_lo" "$limit_hi" "$vesload" capacity --url "$url" --slo 'error_rate<0.1%' "${common[@]}"
		stop_nginx
		;;
	hv-rate)
		search "$s" "$target" "$hv_lo" "$hv_hi" "$vesload" capacity hv --emulator-process-rate "$HV_LIMIT" \
			--start "$((HV_LIMIT / 4))" "${common[@]}"
		;;
	hv-producers)
		search "$s" "$target" "$hv_lo" "$hv_hi" "$vesload" capacity hv --emulator-process-rate "$HV_LIMIT" \
			--vary producers --interval 10ms "${common[@]}"
		;;
	generator)
		nginx_plain
		search "$s" '.limited_by == "generator" and (.advice // "" | contains("add shards"))' 0 0 \
			taskset -c "$GEN_CPU" "$vesload" capacity --url "$url" --start "$GEN_START" --max "$GEN_MAX" \
			--pool "$GEN_POOL" "${common[@]}"
		stop_nginx
		;;
	esac
done

model=$(lscpu 2>/dev/null | awk -F: '/^Model name/{gsub(/^[ \t]+/, "", $2); print $2; exit}')
echo "vesload $("$vesload" version 2>/dev/null | awk '{print $2}'), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs (${model:-unknown CPU})," \
	"nginx $(nginx -v 2>&1 | sed 's/.*nginx\///'), load average before / after: $load_before / $(cut -d' ' -f1-3 /proc/loadavg)"
echo "--step-duration $STEP --warmup $WARMUP --precision $PRECISION; limit_req rate=${RATE}r/s burst=$BURST nodelay" \
	"(band $limit_lo to $limit_hi/s); generator on CPU $GEN_CPU, nginx on CPU $SERVER_CPU; HV-VES emulator handling ${HV_LIMIT}/s (band $hv_lo to $hv_hi/s)"
echo
echo "| search | capacity | lowest fail | limited_by | confirmed | steps | spent (steps) | wall time | load (1 min) at its end | exit | band |"
echo "|---|---:|---:|---|---|---:|---:|---:|---:|---|---|"
printf '%s' "$rows"
exit "$failed"

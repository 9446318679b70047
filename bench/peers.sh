#!/usr/bin/env bash
# bench/peers.sh: vesload measured side by side with wrk, wrk2, ab, hey, vegeta, gofloor
# and JMeter against one local nginx that answers 202, server and generator
# pinned to one core each. Prints one markdown table and writes it to bench/RESULTS.md.
# See bench/README.md for the workloads and how the figures are computed.
#
# Environment (defaults in brackets):
#   REPEAT [1]          runs of every workload; the table shows medians
#   TOOLS  [wrk wrk2 ab hey vegeta jmeter gofloor vesload]
#   RATES  [1000 5000]  open-model rates (requests per second)
#   CLOSED_S [10]  OPEN_S [20]  SEARCH_S [8]  SEARCH_RUNS [8]  SEARCH_START [5000]
#   CONNS [50]          connections (closed loop, wrk2) and vegeta/vesload pool bound
#   POOL_WAIT [10ms]    vesload's --pool-wait
#   WRK2_SRC [../shared/peers/wrk2-src.tar.gz]  wrk2's source, built in bench/.bin
#   SERVER_CPU [1]  GEN_CPU [0]
#   INSTALL [1]         install missing tools (apt-get, go install)
#   VESLOAD             use this vesload binary instead of building one
#   RESULTS [bench/RESULTS.md]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")

REPEAT=${REPEAT:-1}
TOOLS=${TOOLS:-"wrk wrk2 ab hey vegeta jmeter gofloor vesload"}
RATES=${RATES:-"1000 5000"}
CONNS=${CONNS:-50}
CLOSED_S=${CLOSED_S:-10}
OPEN_S=${OPEN_S:-20}
SEARCH_S=${SEARCH_S:-8}
SEARCH_RUNS=${SEARCH_RUNS:-8}
SEARCH_START=${SEARCH_START:-5000}
SERVER_CPU=${SERVER_CPU:-1}
GEN_CPU=${GEN_CPU:-0}
INSTALL=${INSTALL:-1}
POOL_WAIT=${POOL_WAIT:-10ms}
WRK2_SRC=${WRK2_SRC:-$(dirname "$root")/shared/peers/wrk2-src.tar.gz}
RESULTS=${RESULTS:-$here/RESULTS.md}
VEGETA_VERSION=${VEGETA_VERSION:-v12.13.0}
HEY_VERSION=${HEY_VERSION:-v0.1.5}

bin=$here/.bin     # go-installed tools and the JMeter shim (gitignored)
out=$here/.out/peers # raw output of the last run, for inspection (gitignored)
body=$here/fault-1k.json
path=/eventListener/v7

die() { echo "peers.sh: $*" >&2; exit 1; }
log() { echo "== $*" >&2; }

for v in REPEAT CONNS CLOSED_S OPEN_S SEARCH_S SEARCH_RUNS SEARCH_START SERVER_CPU GEN_CPU; do
	[[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a whole number, got '${!v}'"
done
((REPEAT >= 1 && REPEAT <= 9)) || die "REPEAT must be 1..9, got $REPEAT"
((SEARCH_RUNS >= 1 && SEARCH_RUNS <= 16)) || die "SEARCH_RUNS must be 1..16, got $SEARCH_RUNS"
for r in $RATES; do [[ $r =~ ^[1-9][0-9]*$ ]] || die "RATES holds '$r', not a rate"; done
[[ $POOL_WAIT =~ ^[0-9]+(ms|s)$ ]] || die "POOL_WAIT must be a duration such as 10ms, got '$POOL_WAIT'"
[[ -f $body ]] || die "missing request body $body"

want() { [[ " $TOOLS " == *" $1 "* ]]; }

# ---------------------------------------------------------------- installing

apt_install() {
	local sudo=
	((EUID == 0)) || sudo=sudo
	# RUNLEVEL=1 keeps Debian's maintainer scripts from starting the system nginx.
	$sudo env DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 apt-get install -y -qq "$@" >"$out/apt.log" 2>&1
}

apt_updated=0
apt_update() {
	((apt_updated)) && return 0
	local sudo=
	((EUID == 0)) || sudo=sudo
	$sudo apt-get update -qq >"$out/apt-update.log" 2>&1 || true
	apt_updated=1
}

# go_tool NAME MODULE@VERSION: builds a Go peer into $bin the way vegeta's
# Makefile builds its releases and `make build` builds vesload (static,
# CGO_ENABLED=0, -s -w), so that no tool's RSS counts a C library another
# does without; an earlier build of another kind is replaced.
go_tool() {
	want "$1" || return 0
	if [[ -x $bin/$1 ]] && go version -m "$bin/$1" 2>/dev/null | grep -q 'CGO_ENABLED=0'; then
		return 0
	fi
	((INSTALL)) || die "missing a static $bin/$1 (INSTALL=0)"
	log "go install $2 (static)"
	GOBIN=$bin GOFLAGS=-mod=mod CGO_ENABLED=0 go install -trimpath -ldflags '-s -w' "$2" || die "go install $2 failed"
}

install_tools() {
	local missing=()
	command -v nginx >/dev/null || missing+=(nginx)
	command -v wrk >/dev/null || missing+=(wrk)
	command -v ab >/dev/null || missing+=(apache2-utils)
	command -v jq >/dev/null || missing+=(jq)
	command -v taskset >/dev/null || missing+=(util-linux)
	command -v curl >/dev/null || missing+=(curl)
	if ((${#missing[@]})); then
		((INSTALL)) || die "missing ${missing[*]} (INSTALL=0)"
		command -v apt-get >/dev/null || die "missing ${missing[*]} and no apt-get to install them"
		log "installing ${missing[*]}"
		apt_update
		if ! apt_install "${missing[@]}"; then
			# Older releases ship nginx as nginx-light only.
			missing=("${missing[@]/#nginx/nginx-light}")
			apt_install "${missing[@]}" || die "apt-get install ${missing[*]} failed: see $out/apt.log"
		fi
	fi
	mkdir -p "$bin"
	go_tool vegeta "github.com/tsenart/vegeta/v12@$VEGETA_VERSION"
	go_tool hey "github.com/rakyll/hey@$HEY_VERSION"
	if want jmeter; then
		if { ! command -v jmeter >/dev/null || ! command -v javac >/dev/null; } && ((INSTALL)) &&
			command -v apt-get >/dev/null; then
			log "installing jmeter (Debian) and a JDK for its shim"
			apt_update
			apt_install jmeter default-jdk-headless || true
		fi
		jmeter_setup || true
	fi
	wrk2_setup
}

# Debian's JMeter 2.13 cannot load any plan with Debian's XStream >= 1.4.18
# (ForbiddenClassException: org.apache.jmeter.save.ScriptWrapper): XStream now
# denies every type nobody allowed, and JMeter 2.13 allows none of its own. The
# shim (bench/jmeter/shim) replaces XStream's deny-all permission with one that
# also lets JMeter's own classes through, ahead of XStream on the class path.
jmeter_cp=
jmeter_problem="not installed (apt-get install jmeter failed or the package does not exist)"
jmeter_setup() {
	local jar=/usr/share/jmeter/bin/ApacheJMeter.jar xs=/usr/share/java/xstream.jar
	[[ -f $jar ]] || return 1
	if [[ -f $xs ]]; then
		local src=$here/jmeter/shim/com/thoughtworks/xstream/security/NoTypePermission.java
		local cls=$bin/jmeter-shim/com/thoughtworks/xstream/security/NoTypePermission.class
		if [[ ! -f $cls || $src -nt $cls ]]; then
			command -v javac >/dev/null || {
				jmeter_problem="cannot load plans: needs javac (default-jdk-headless) to build its XStream shim"
				return 1
			}
			javac -nowarn -source 8 -target 8 -cp "$xs" -d "$bin/jmeter-shim" "$src" >"$out/javac.log" 2>&1 ||
				javac -nowarn -cp "$xs" -d "$bin/jmeter-shim" "$src" >>"$out/javac.log" 2>&1 || {
				jmeter_problem="cannot load plans: building its XStream shim failed (see $out/javac.log)"
				return 1
			}
		fi
		jmeter_cp=$bin/jmeter-shim:$jar
	else
		jmeter_cp=$jar
	fi
	jmeter_problem=
}

# wrk2_setup: builds wrk2 (giltene/wrk2, in C) from WRK2_SRC into
# $bin/wrk2-build, which git ignores, once per source tarball: its code is
# never part of vesload. Sets wrk2 to the binary, or wrk2_problem to why
# its rows are missing (the source is absent: skipped with a message).
wrk2=
wrk2_problem=
wrk2_setup() {
	want wrk2 || return 0
	if [[ ! -f $WRK2_SRC ]]; then
		wrk2_problem="skipped: no source at $WRK2_SRC"
		log "wrk2 $wrk2_problem"
		return 0
	fi
	local dir=$bin/wrk2-build stamp
	stamp=$(sha256sum "$WRK2_SRC" | cut -c1-12)
	if [[ -x $dir/wrk2/wrk && $(cat "$dir/stamp" 2>/dev/null) == "$stamp" ]]; then
		wrk2=$dir/wrk2/wrk
		return 0
	fi
	local missing=()
	{ command -v make && command -v cc; } >/dev/null || missing+=(build-essential)
	[[ -f /usr/include/openssl/ssl.h ]] || missing+=(libssl-dev)
	[[ -f /usr/include/zlib.h ]] || missing+=(zlib1g-dev)
	if ((${#missing[@]})); then
		if ((!INSTALL)) || ! command -v apt-get >/dev/null; then
			wrk2_problem="cannot build: missing ${missing[*]}"
			return 0
		fi
		log "installing ${missing[*]} to build wrk2"
		apt_update
		apt_install "${missing[@]}" || {
			wrk2_problem="cannot build: apt-get install ${missing[*]} failed (see $out/apt.log)"
			return 0
		}
	fi
	log "building wrk2 from $WRK2_SRC in $dir"
	rm -rf "$dir"
	mkdir -p "$dir"
	if ! tar -xzf "$WRK2_SRC" -C "$dir" || ! make -C "$dir/wrk2" >"$out/wrk2-build.log" 2>&1; then
		wrk2_problem="cannot build: see $out/wrk2-build.log"
		return 0
	fi
	echo "$stamp" >"$dir/stamp"
	wrk2=$dir/wrk2/wrk
}

# ------------------------------------------------------------ processes we own

# bench/lib.sh: stop_pid, port_free, free_port, start_nginx, stop_nginx and the
# traps that stop nginx and the running tool and remove $tmp on exit. A tool
# runs as timeout -> cputime -> the tool, and timeout leads a process group of
# its own: stop_pid signals the group, so that the tool, which cputime forked,
# and whatever it forked in turn stop with it.
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
nginx_cpu=$SERVER_CPU
stop_group=1

# serve_nginx: nginx answering 202 on a free port of 18080..18179 (its own,
# apart from capacity.sh's and dashboard-pairs.sh's), pinned to SERVER_CPU;
# sets url and checks that a POST of the body gets its 202.
serve_nginx() {
	free_port 18080 18179
	start_nginx peers "$out/nginx.log" "  server {
    listen 127.0.0.1:$port;
    location / { return 202; }
  }"
	url=http://127.0.0.1:$port$path
	local code
	code=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
		--data-binary "@$body" "$url") || true
	[[ $code == 202 ]] || die "nginx on $url answered '$code', want 202"
}

# ------------------------------------------------------------------ measuring

# watch_anon PID FILE: writes to FILE the highest RssAnon (kB) seen, every
# 200 ms, of the tool PID runs (timeout -> cputime -> the tool, which taskset
# became): the anonymous memory (heap, stacks) a run grows, without the
# shared, clean pages of the binary that peak RSS also counts. Reads /proc
# with bash builtins only, so that the watch itself forks nothing but sleep.
watch_anon() {
	local pid=$1 file=$2 peak=0 mid kid k v f _
	while [[ -d /proc/$pid ]]; do
		mid='' kid=''
		read -r mid _ <"/proc/$pid/task/$pid/children" 2>/dev/null || true
		# cputime is a Go program: any of its threads may have started the tool.
		if [[ -n $mid ]]; then
			for f in /proc/"$mid"/task/*/children; do
				read -r kid _ <"$f" 2>/dev/null || true
				[[ -n $kid ]] && break
			done
		fi
		if [[ -n $kid ]]; then
			while read -r k v _; do
				[[ $k == RssAnon: && $v =~ ^[0-9]+$ ]] && ((v > peak)) && peak=$v
			done <"/proc/$kid/status" 2>/dev/null || true
		fi
		sleep 0.2
	done
	echo "$peak" >"$file"
}

# measure NAME LIMIT_S CMD...: runs CMD on GEN_CPU under bench/cputime
# (GNU time's figures, with CPU time to the microsecond instead of 10 ms),
# at most LIMIT_S seconds; stdout and stderr go to $out/NAME.{out,err}.
# Sets cpu_s (user+sys seconds), rss_kb (peak RSS), anon_kb (peak anonymous
# RSS, sampled every 200 ms) and run_rc.
measure() {
	local name=$1 limit=$2
	shift 2
	run_rc=0
	timeout -k 5 "$limit" "$cputime" -o "$out/$name.time" -- \
		taskset -c "$GEN_CPU" "$@" >"$out/$name.out" 2>"$out/$name.err" &
	cur_pid=$!
	watch_anon "$cur_pid" "$out/$name.anon" &
	local watch_pid=$!
	wait "$cur_pid" || run_rc=$?
	wait "$watch_pid" || true
	cur_pid=
	anon_kb=$(<"$out/$name.anon")
	[[ $anon_kb =~ ^[1-9][0-9]*$ ]] || anon_kb=
	local u='' s='' m=''
	read -r u s m < <(tail -n 1 "$out/$name.time" 2>/dev/null) || true
	if [[ $u =~ ^[0-9.]+$ && $s =~ ^[0-9.]+$ && $m =~ ^[0-9]+$ ]]; then
		cpu_s=$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.6f", u+s}')
		rss_kb=$m
	else
		cpu_s=
		rss_kb=
	fi
}

# per_req CPU_S N: CPU microseconds per request.
per_req() { awk -v c="$1" -v n="$2" 'BEGIN{ if (c == "" || n + 0 <= 0) print ""; else printf "%.1f", c * 1e6 / n }'; }

records=
# record TOOL WORKLOAD ACHIEVED CPU_US RSS_KB LAG NOTE [ANON_KB]: ANON_KB
# defaults to the last measure's.
record() {
	local anon=${8-${anon_kb:-}}
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "${3:-}" "${4:-}" "${5:-}" "${6:-}" "${7:-}" "$anon" >>"$records"
	log "$1 $2: rate ${3:-?}/s, ${4:-?} us/req, rss ${5:-?} kB, anon ${anon:-?} kB${6:+, lag p99 $6 ms}${7:+ ($7)}"
}

num() { [[ -n ${1:-} ]] && printf '%s' "$1" || printf '0'; }

# post_lua: the Lua script by which wrk and wrk2 post the 1 KiB event.
post_lua() {
	cat >"$tmp/post.lua" <<EOF
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = assert(io.open("$body", "rb"))
wrk.body = f:read("*a")
f:close()
EOF
}

# wrk_errors NAME: sets non2xx and sockerr from wrk's or wrk2's output.
wrk_errors() {
	non2xx=$(awk -F: '/Non-2xx/{gsub(/ /, "", $2); print $2}' "$out/$1.out")
	sockerr=$(awk '/Socket errors/{gsub(/,/, ""); print $4+$6+$8+$10}' "$out/$1.out")
}

run_wrk() { # run_wrk REP
	post_lua
	local n=wrk-closed-$1
	measure "$n" $((CLOSED_S + 30)) wrk -t1 -c"$CONNS" -d"${CLOSED_S}s" -s "$tmp/post.lua" "$url"
	local total non2xx sockerr rate ok
	total=$(awk '/ requests in /{print $1}' "$out/$n.out")
	wrk_errors "$n"
	rate=$(awk '/Requests\/sec/{printf "%.0f", $2}' "$out/$n.out")
	ok=$(($(num "$total") - $(num "$non2xx")))
	local note=
	(($(num "$non2xx") + $(num "$sockerr"))) && note="errors: non-2xx $(num "$non2xx"), socket $(num "$sockerr")"
	((run_rc)) && note="exit $run_rc${note:+; $note}"
	record wrk closed "$rate" "$(per_req "$cpu_s" "$ok")" "$rss_kb" "" "$note"
}

# wrk2_run NAME RATE DURATION_S: one open-model run of wrk2 with CONNS
# connections on one thread; sets w_ok w_rate w_due w_sent_pct w_p99 w_errs
# w_note.
# wrk2's latency runs from each request's due time (corrected for
# coordinated omission), so its p99 bounds from above how late it sent.
wrk2_run() {
	local n=$1 r=$2 d=$3
	post_lua
	measure "$n" $((d + 30)) "$wrk2" -t1 -c"$CONNS" -d"${d}s" -R"$r" --latency -s "$tmp/post.lua" "$url"
	local total non2xx sockerr
	total=$(awk '/ requests in /{print $1}' "$out/$n.out")
	wrk_errors "$n"
	w_errs=$(($(num "$non2xx") + $(num "$sockerr")))
	w_ok=$(($(num "$total") - $(num "$non2xx")))
	w_rate=$(awk '/Requests\/sec/{printf "%.0f", $2}' "$out/$n.out")
	# answered of what wrk2's schedule holds: it connects its connections
	# 5 ms apart and each paces R/CONNS from its own connect, so R × (D −
	# 5 ms × (CONNS − 1) / 2) requests are due before the run ends
	w_due=$(awk -v r="$r" -v d="$d" -v c="$CONNS" 'BEGIN{printf "%.0f", r * (d - 0.005 * (c - 1) / 2)}')
	w_sent_pct=$(awk -v t="$(num "$total")" -v due="$w_due" 'BEGIN{printf "%.2f", (due > 0 ? 100 * t / due : 0)}')
	# the first " 99.000%" line is of the latency distribution, in us, ms or s
	w_p99=$(awk '$1 == "99.000%" {v = $2; u = v; sub(/^[0-9.]+/, "", u); sub(/[a-z]+$/, "", v);
		f = (u == "us") ? 0.001 : (u == "ms") ? 1 : (u == "s") ? 1000 : (u == "m") ? 60000 : -1;
		if (f > 0) printf "%.3f", v * f; exit}' "$out/$n.out")
	w_note="latency p99 from due time ${w_p99:-?} ms, answered ${w_sent_pct}% of the $w_due due"
	((w_errs)) && w_note="$w_note; errors: non-2xx $(num "$non2xx"), socket $(num "$sockerr")"
	((run_rc)) && w_note="exit $run_rc; $w_note"
	[[ -n $total ]] || w_note="no result (exit $run_rc): $(head -c 160 "$out/$n.err" 2>/dev/null)"
	return 0
}

run_wrk2() { # run_wrk2 REP
	if [[ -z $wrk2 ]]; then
		record wrk2 all "" "" "" "" "$wrk2_problem"
		return
	fi
	local r
	for r in $RATES; do
		wrk2_run "wrk2-open$r-$1" "$r" "$OPEN_S"
		record wrk2 "open$r" "$w_rate" "$(per_req "$cpu_s" "$w_ok")" "$rss_kb" "" "$w_note"
		# The lowest rate's latency p99 is wrk2's own floor: its timer's
		# granularity and nginx's answer, with nothing behind schedule.
		[[ -z $wrk2_floor ]] && wrk2_floor=$(num "$w_p99")
	done
	ceiling wrk2 "$1"
}

# wrk2_try NAME RATE: one run of the ceiling search at RATE; sets s_pass,
# s_why and the s_* figures of the ceiling's row. wrk2 reports no dispatch
# lag, only latency from the due time (lag + answer), so a run passes when
# it answered at least 99.9 % of what was due, with no error, and its
# latency p99 is less than 1 ms above its own floor (wrk2_floor, the p99 of
# its run at the lowest of RATES): falling behind its schedule adds to that
# latency as it adds to vesload's lag.
wrk2_floor=
wrk2_try() {
	wrk2_run "$1" "$2" "$SEARCH_S"
	s_rate=$w_rate s_cpu=$(per_req "$cpu_s" "$w_ok") s_rss=$rss_kb s_lag='' s_anon=$anon_kb
	s_why="answered ${w_sent_pct}%, latency p99 ${w_p99:-?} ms"
	s_pass=0
	awk -v p="$(num "$w_p99")" -v f="$(num "$wrk2_floor")" -v s="$w_sent_pct" -v rc="$run_rc" -v e="$w_errs" \
		'BEGIN{ exit !(rc == 0 && e == 0 && p > 0 && p < f + 1 && s >= 99.9) }' && s_pass=1
	return 0
}

run_ab() { # run_ab REP
	local n=ab-closed-$1
	# -t sets -n to 50,000; the later -n lifts that cap. ab keeps a record per
	# request, so -n is kept near what it can send.
	measure "$n" $((CLOSED_S + 30)) ab -q -k -c "$CONNS" -t "$CLOSED_S" -n $((CLOSED_S * 100000)) \
		-p "$body" -T application/json "$url"
	local completed failed non2xx rate ok
	completed=$(awk -F: '/^Complete requests/{gsub(/ /, "", $2); print $2}' "$out/$n.out")
	failed=$(awk -F: '/^Failed requests/{gsub(/ /, "", $2); print $2}' "$out/$n.out")
	non2xx=$(awk -F: '/^Non-2xx responses/{gsub(/ /, "", $2); print $2}' "$out/$n.out")
	rate=$(awk '/^Requests per second/{printf "%.0f", $4}' "$out/$n.out")
	ok=$(($(num "$completed") - $(num "$failed") - $(num "$non2xx")))
	local note=
	(($(num "$failed") + $(num "$non2xx"))) && note="errors: failed $(num "$failed"), non-2xx $(num "$non2xx")"
	((run_rc)) && note="exit $run_rc${note:+; $note}"
	record ab closed "$rate" "$(per_req "$cpu_s" "$ok")" "$rss_kb" "" "$note"
}

# hey_parse NAME WORKLOAD NOTE
hey_parse() {
	local n=$1 ok errs rate
	ok=$(awk '/^[[:space:]]*\[2[0-9][0-9]\]/{s += $2} END{print s + 0}' "$out/$n.out")
	errs=$(awk '/^Error distribution/{e=1; next} e && /^[[:space:]]*\[[0-9]+\]/{gsub(/[][]/, "", $1); s += $1} END{print s + 0}' "$out/$n.out")
	rate=$(awk '/Requests\/sec:/{printf "%.0f", $2}' "$out/$n.out")
	local note=$3
	((errs)) && note="${note:+$note; }errors $errs"
	((run_rc)) && note="exit $run_rc${note:+; $note}"
	record hey "$2" "$rate" "$(per_req "$cpu_s" "$ok")" "$rss_kb" "" "$note"
}

run_hey() { # run_hey REP
	local n=hey-closed-$1
	measure "$n" $((CLOSED_S + 30)) "$bin/hey" -z "${CLOSED_S}s" -c "$CONNS" -m POST -D "$body" \
		-T application/json "$url"
	hey_parse "$n" closed ""
	local r
	for r in $RATES; do
		n=hey-open$r-$1
		# -q is per worker: 10 workers at r/10 each. A worker that falls
		# behind skips ticks, so this is not an open model.
		measure "$n" $((OPEN_S + 30)) "$bin/hey" -z "${OPEN_S}s" -c 10 -q $((r / 10)) -m POST -D "$body" \
			-T application/json "$url"
		hey_parse "$n" "open$r" "-c10 -q$((r / 10))"
	done
}

# vegeta_attack NAME LIMIT WORKLOAD NOTE ARGS...
vegeta_attack() {
	local n=$1 limit=$2 wl=$3 note=$4
	shift 4
	printf 'POST %s\n' "$url" >"$tmp/targets"
	measure "$n" "$limit" "$bin/vegeta" attack -targets="$tmp/targets" -body="$body" \
		-header="Content-Type: application/json" -max-workers="$CONNS" -output="$out/$n.bin" "$@"
	"$bin/vegeta" report -type=json "$out/$n.bin" >"$out/$n.json" 2>>"$out/$n.err" || true
	local ok total rate
	ok=$(jq -r '[.status_codes // {} | to_entries[] | select(.key | test("^2")) | .value] | add // 0' "$out/$n.json" 2>/dev/null || echo 0)
	total=$(jq -r '.requests // 0' "$out/$n.json" 2>/dev/null || echo 0)
	rate=$(jq -r '.throughput // 0 | floor' "$out/$n.json" 2>/dev/null || echo "")
	((total > ok)) && note="${note:+$note; }errors $((total - ok))"
	((run_rc)) && note="exit $run_rc${note:+; $note}"
	record vegeta "$wl" "$rate" "$(per_req "$cpu_s" "$ok")" "$rss_kb" "" "$note"
}

# run_gofloor REP: the Go runtime's own floor (bench/gofloor), open model
# at each of RATES, CONNS connections each paced at rate/CONNS as wrk2's.
run_gofloor() {
	if [[ ! -x $bin/gofloor ]]; then
		log "building bench/gofloor"
		(cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$bin/gofloor" ./bench/gofloor) >"$out/gofloor-build.log" 2>&1 ||
			die "go build ./bench/gofloor failed: see $out/gofloor-build.log"
	fi
	local r n ok note addr=${url#http://}
	addr=${addr%%/*}
	for r in $RATES; do
		n=gofloor-open$r-$1
		measure "$n" $((OPEN_S + 30)) "$bin/gofloor" --addr "$addr" --path "$path" --body "$body" \
			--rate "$r" --duration "${OPEN_S}s" --conns "$CONNS"
		ok=$(awk '$1 == "answered" {print $2}' "$out/$n.out")
		note=
		((run_rc)) && note="exit $run_rc: $(head -c 160 "$out/$n.err")"
		record gofloor "open$r" "$(awk -v n="$(num "$ok")" -v d="$OPEN_S" 'BEGIN{printf "%.0f", n / d}')" \
			"$(per_req "$cpu_s" "$ok")" "$rss_kb" "" "$note"
	done
}

run_vegeta() { # run_vegeta REP
	vegeta_attack "vegeta-closed-$1" $((CLOSED_S + 30)) closed "-rate=0" -rate=0 -duration="${CLOSED_S}s"
	local r
	for r in $RATES; do
		vegeta_attack "vegeta-open$r-$1" $((OPEN_S + 30)) "open$r" "" -rate="$r/s" -duration="${OPEN_S}s"
	done
}

# jmeter_run NAME WORKLOAD THREADS DURATION RATE
jmeter_run() {
	local n=$1 wl=$2 threads=$3 dur=$4 rate=$5
	local tpl esc hostport
	tpl=$(<"$here/jmeter/plan.jmx.in")
	esc=$(sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' "$body")
	hostport=${url#http://}
	hostport=${hostport%%/*}
	tpl=${tpl//@BODY@/"$esc"}
	tpl=${tpl//@HOST@/"${hostport%:*}"}
	tpl=${tpl//@PORT@/"${hostport##*:}"}
	tpl=${tpl//@PATH@/"$path"}
	tpl=${tpl//@THREADS@/"$threads"}
	tpl=${tpl//@DURATION@/"$dur"}
	if ((rate > 0)); then
		tpl=${tpl//@TIMER_ENABLED@/true}
		tpl=${tpl//@THROUGHPUT_PER_MIN@/"$((rate * 60)).0"}
	else
		tpl=${tpl//@TIMER_ENABLED@/false}
		tpl=${tpl//@THROUGHPUT_PER_MIN@/0.0}
	fi
	printf '%s\n' "$tpl" >"$out/$n.jmx"
	measure "$n" $((dur + 90)) java -cp "$jmeter_cp" -Djmeter.home=/usr/share/jmeter \
		org.apache.jmeter.NewDriver -n -t "$out/$n.jmx" -j "$out/$n.log"
	# Final line of JMeter's summariser:
	# summary =  12345 in  10.1s = 1222.3/s Avg: ... Err:     0 (0.00%)
	local line count achieved errs
	line=$(grep 'summary =' "$out/$n.out" | tail -n 1 || true)
	if [[ -z $line ]]; then
		local why
		why=$(grep -m1 -E 'Error|Exception' "$out/$n.out" "$out/$n.err" 2>/dev/null | head -c 160 || true)
		record jmeter "$wl" "" "" "$rss_kb" "" "cannot run: ${why:-no summary (exit $run_rc)}"
		return
	fi
	count=$(sed -E 's/.*summary = +([0-9]+) in.*/\1/' <<<"$line")
	achieved=$(sed -E 's/.* = +([0-9.]+)\/s.*/\1/' <<<"$line")
	errs=$(sed -E 's/.*Err: +([0-9]+).*/\1/' <<<"$line")
	local note="$threads threads"
	((rate > 0)) && note="$note, Constant Throughput Timer"
	((errs)) && note="$note; errors $errs"
	record jmeter "$wl" "$(printf '%.0f' "$achieved")" "$(per_req "$cpu_s" $((count - errs)))" "$rss_kb" "" \
		"$note; JVM start-up included"
}

run_jmeter() { # run_jmeter REP
	if [[ -n $jmeter_problem ]]; then
		record jmeter all "" "" "" "" "$jmeter_problem"
		return
	fi
	jmeter_run "jmeter-closed-$1" closed "$CONNS" "$CLOSED_S" 0
	local r
	for r in $RATES; do
		jmeter_run "jmeter-open$r-$1" "open$r" "$CONNS" "$OPEN_S" "$r"
	done
}

# vesload_run NAME RATE DURATION_S: runs vesload; sets v_ok v_rate v_lag
# v_pe v_sat v_sched v_sent v_cpu_us v_rss_kb v_note.
vesload_run() {
	local n=$1 rate=$2 dur=$3
	measure "$n" $((dur + 40)) "$vesload" -url "$url" -rps "$rate" -duration "${dur}s" -pool "$CONNS" \
		--pool-wait "$POOL_WAIT" --event-size 1024 -o "$out/$n.json" -q
	local j=$out/$n.json
	if [[ ! -s $j ]]; then
		v_ok=0 v_rate='' v_lag='' v_pe=0 v_sat='' v_sched=0 v_sent=0 v_cpu_us='' v_rss_kb=$rss_kb
		v_note="no result (exit $run_rc): $(head -c 160 "$out/$n.err" 2>/dev/null)"
		return
	fi
	read -r v_ok v_rate v_lag v_pe v_sat v_sched v_sent v_errs < <(jq -r '[.requests.ok // 0,
		(.rps.achieved // 0 | floor), (.generator.dispatch_lag_p99_ms // 0), (.errors.pool_exhausted // 0),
		(.generator.saturated // false), .requests.scheduled // 0, .requests.sent // 0,
		.requests.errors // 0] | @tsv' "$j" 2>/dev/null) || {
		v_ok=0 v_rate='' v_lag='' v_pe=0 v_sat='' v_sched=0 v_sent=0 v_cpu_us='' v_rss_kb=$rss_kb
		v_note="unreadable result $j (exit $run_rc)"
		return 0
	}
	v_cpu_us=$(per_req "$cpu_s" "$v_ok")
	v_rss_kb=$rss_kb
	v_note=
	((v_pe)) && v_note="pool_exhausted $v_pe"
	((v_errs > v_pe)) && v_note="${v_note:+$v_note; }errors $((v_errs - v_pe))"
	[[ $v_sat == true ]] && v_note="${v_note:+$v_note; }saturated"
	((run_rc)) && v_note="exit $run_rc${v_note:+; $v_note}"
	return 0
}

# vesload_try NAME RATE: one run of the ceiling search at RATE; sets s_pass,
# s_why and the s_* figures of the ceiling's row. A run passes when it sent
# at least 99.9 % of what was due and its dispatch lag p99 is under 1 ms.
vesload_try() {
	vesload_run "$1" "$2" "$SEARCH_S"
	s_rate=$v_rate s_cpu=$v_cpu_us s_rss=$v_rss_kb s_lag=$v_lag s_anon=$anon_kb
	s_why="lag $v_lag, pe $v_pe, sent $v_sent of $v_sched"
	s_pass=0
	awk -v lag="$(num "$v_lag")" -v sent="$v_sent" -v due="$v_sched" -v rc="$run_rc" \
		'BEGIN{ exit !(rc == 0 && lag < 1 && due > 0 && sent >= 0.999 * due) }' && s_pass=1
	return 0
}

# ceiling TOOL REP: the highest constant rate TOOL sends on time on one
# core (GEN_CPU), by TOOL_try. The rate doubles from SEARCH_START until a
# rate fails twice, then the bracket is bisected, SEARCH_RUNS rates at most,
# stopping when it is within 5 % or 200/s. Records the best passing run;
# sets c_best (empty when no rate passed).
ceiling() {
	local tool=$1 lo=0 hi=0 rate=$SEARCH_START runs=0 trail=''
	local b_rate='' b_cpu='' b_rss='' b_lag='' b_anon=''
	c_best=
	while ((runs < SEARCH_RUNS)); do
		runs=$((runs + 1))
		"${tool}_try" "$tool-search$runs-$2" "$rate"
		# A rate that fails is tried once more: one run on a shared machine
		# can miss by a hiccup, and the ceiling is the most the tool achieves.
		if ((!s_pass)); then
			local first=$s_why
			"${tool}_try" "$tool-search$runs-$2-again" "$rate"
			((s_pass)) || s_why="$first; again: $s_why"
		fi
		if ((s_pass)); then
			lo=$rate c_best=$rate b_rate=$s_rate b_cpu=$s_cpu b_rss=$s_rss b_lag=$s_lag b_anon=$s_anon
			trail="$trail $rate ok"
		else
			hi=$rate
			trail="$trail $rate no($s_why)"
		fi
		log "$tool search: $rate/s -> $( ((s_pass)) && echo pass || echo fail), bracket [$lo, $hi]"
		if ((hi == 0)); then
			rate=$((rate * 2))
		else
			((hi - lo <= hi / 20 || hi - lo <= 200)) && break
			rate=$(((lo + hi) / 2 / 100 * 100))
			((rate <= lo)) && break
		fi
	done
	if [[ -n $c_best ]]; then
		record "$tool" ceiling "$c_best" "$b_cpu" "$b_rss" "$b_lag" "ceiling $c_best/s (achieved ${b_rate:-?}/s) in $runs rates of ${SEARCH_S}s runs (a failing rate run twice):$trail" "$b_anon"
	else
		record "$tool" ceiling "" "" "" "" "no rate passed in $runs rates (each run twice):$trail"
	fi
}

run_vesload() { # run_vesload REP
	local r
	for r in $RATES; do
		vesload_run "vesload-open$r-$1" "$r" "$OPEN_S"
		record vesload "open$r" "$v_rate" "$v_cpu_us" "$v_rss_kb" "$v_lag" "$v_note"
	done
	ceiling vesload "$1"
	if [[ -n $c_best ]]; then
		# Past the ceiling: twice the rate must still run on a bounded pool.
		vesload_run "vesload-overload-$1" $((c_best * 2)) "$SEARCH_S"
		record vesload overload "$v_rate" "$v_cpu_us" "$v_rss_kb" "$v_lag" \
			"2x ceiling = $((c_best * 2))/s: sent $v_sent of $v_sched, saturated=$v_sat, pool_exhausted $v_pe"
	fi
}

# ------------------------------------------------------------------ reporting

version_of() {
	case $1 in
	wrk) { wrk -v 2>&1 || true; } | awk 'NR == 1 {print $2}' ;;
	wrk2) [[ -n $wrk2 ]] && printf '%s (src %s)' "$({ "$wrk2" -v 2>&1 || true; } | awk 'NR == 1 {print $2}')" \
		"$(cat "$bin/wrk2-build/stamp" 2>/dev/null)" ;;
	ab) { ab -V 2>&1 || true; } | awk -F'Version ' 'NR == 1 {split($2, a, " "); print a[1]}' ;;
	hey | vegeta) go version -m "$bin/$1" 2>/dev/null | awk '$1 == "mod" {print $3}' ;;
	gofloor) go version "$bin/gofloor" 2>/dev/null | awk '{print $2}' ;;
	jmeter) dpkg-query -W -f '${Version}' jmeter 2>/dev/null || echo "?" ;;
	vesload) "$vesload" version 2>/dev/null | awk '{print $2}' ;;
	esac
	return 0
}

workload_label() {
	case $1 in
	closed) echo "closed loop, $CONNS conns, ${CLOSED_S} s" ;;
	open*) printf 'open %s/s, %s s\n' "${1#open}" "$OPEN_S" ;;
	ceiling)
		if [[ $2 == wrk2 ]]; then
			echo "open-model ceiling on CPU $GEN_CPU (≥ 99.9 % answered, latency p99 < its floor ${wrk2_floor:-?} ms + 1 ms, ${SEARCH_S} s runs)"
		else
			echo "open-model ceiling on CPU $GEN_CPU (≥ 99.9 % sent, lag p99 < 1 ms, ${SEARCH_S} s runs)"
		fi
		;;
	overload) echo "2x ceiling, ${SEARCH_S} s" ;;
	all) echo "all" ;;
	esac
}

# median of the numeric arguments (empty when there are none)
median() {
	printf '%s\n' "$@" | awk 'NF && $1 ~ /^[0-9.]+$/' | sort -g |
		awk '{v[NR] = $1} END{ if (NR) { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 } }'
}

# agg TOOL WORKLOAD COLUMN: median of a column over the repetitions.
agg() {
	local vals
	mapfile -t vals < <(awk -F'\t' -v t="$1" -v w="$2" -v c="$3" '$1 == t && $2 == w {print $c}' "$records")
	((${#vals[@]})) && median "${vals[@]}"
	return 0
}

fmt_rate() { [[ -n $1 ]] && printf '%.0f/s' "$1" || printf '–'; }
fmt_us() { [[ -n $1 ]] && printf '%.1f' "$1" || printf '–'; }
fmt_mb() { [[ -n $1 ]] && awk -v k="$1" 'BEGIN{printf "%.1f MiB", k / 1024}' || printf '–'; }
fmt_size() { [[ -f $1 ]] && stat -c %s "$1" | awk '{printf "%.1f MiB", $1 / 1048576}' || printf '–'; }
fmt_lag() { [[ -n $1 ]] && printf '%.3f ms' "$1" || printf '–'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (a == "" || b == "" || b + 0 == 0) print "n/a"; else printf "%.2f", a / b }'; }

report() {
	local t w
	{
		echo "| tool | version | workload | achieved rate | CPU µs/request | CPU per request vs wrk2 | peak RSS | peak anonymous RSS | dispatch lag p99 | notes |"
		echo "|---|---|---|---:|---:|---:|---:|---:|---:|---|"
		for t in $TOOLS; do
			local v
			v=$(version_of "$t")
			for w in closed $(for r in $RATES; do echo "open$r"; done) ceiling overload all; do
				awk -F'\t' -v t="$t" -v w="$w" '$1 == t && $2 == w {f = 1} END{exit !f}' "$records" || continue
				local note
				note=$(awk -F'\t' -v t="$t" -v w="$w" '$1 == t && $2 == w {n = $7} END{print n}' "$records")
				note=${note//|/\\|}
				local lag='–'
				[[ $t == vesload ]] && lag=$(fmt_lag "$(agg "$t" "$w" 6)")
				local vs='–'
				[[ $w == open* ]] && vs=$(ratio "$(agg "$t" "$w" 4)" "$(agg wrk2 "$w" 4)")
				printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$t" "${v:-?}" "$(workload_label "$w" "$t")" \
					"$(fmt_rate "$(agg "$t" "$w" 3)")" "$(fmt_us "$(agg "$t" "$w" 4)")" "$vs" \
					"$(fmt_mb "$(agg "$t" "$w" 5)")" "$(fmt_mb "$(agg "$t" "$w" 8)")" "$lag" "$note"
			done
		done
	} >"$out/table.md"

	# Ratios against issue 6's targets, from the medians above.
	local wrk_rate wrk_us veg_rate ceil
	wrk_rate=$(agg wrk closed 3)
	wrk_us=$(agg wrk closed 4)
	veg_rate=$(agg vegeta closed 3)
	ceil=$(agg vesload ceiling 3)
	{
		echo "Ratios against the targets (vesload ÷ peer, same run):"
		echo
		echo "- open-model ceiling ÷ wrk closed loop: $(ratio "$ceil" "$wrk_rate") (target ≥ 0.80);" \
			"÷ vegeta closed loop: $(ratio "$ceil" "$veg_rate") (target ≥ 3);" \
			"÷ wrk2's open-model ceiling on the same core: $(ratio "$ceil" "$(agg wrk2 ceiling 3)") (target ≥ 0.8)"
		local r
		for r in $RATES; do
			local line
			line="- at $r/s: CPU/request ÷ wrk2's $(ratio "$(agg vesload "open$r" 4)" "$(agg wrk2 "open$r" 4)") (target ≤ 1.2)"
			line="$line; ÷ vegeta's $(ratio "$(agg vesload "open$r" 4)" "$(agg vegeta "open$r" 4)") (target ≤ 0.80)"
			line="$line; ÷ the Go floor's (gofloor) $(ratio "$(agg vesload "open$r" 4)" "$(agg gofloor "open$r" 4)") (reported)"
			if ((r >= 5000)); then
				line="$line; ÷ wrk's closed-loop floor $(ratio "$(agg vesload "open$r" 4)" "$wrk_us") (target ≤ 2)"
				line="$line; anonymous RSS ÷ vegeta's $(ratio "$(agg vesload "open$r" 8)" "$(agg vegeta "open$r" 8)") (target ≤ 1)"
				line="$line; peak RSS ÷ vegeta's $(ratio "$(agg vesload "open$r" 5)" "$(agg vegeta "open$r" 5)") (reported)"
			fi
			echo "$line"
		done
		echo "- binary size: vesload $(fmt_size "$vesload"), vegeta $(fmt_size "$bin/vegeta")"
		local sat
		sat=$(awk -F'\t' '$1 == "vesload" && $2 == "overload" {n = $7} END{print n}' "$records")
		if [[ -n $sat ]]; then
			echo "- past the ceiling: $sat (target: bounded pool, saturated=true, bounded RSS)"
		fi
	} >"$out/ratios.md"

	cat "$out/table.md"
	echo
	cat "$out/ratios.md"

	local model kernel os
	model=$(lscpu 2>/dev/null | awk -F: '/^Model name/{gsub(/^[ \t]+/, "", $2); print $2; exit}')
	kernel=$(uname -r)
	os=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")
	{
		echo "# bench/peers.sh results"
		echo
		echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
		echo "- machine: $(nproc) CPUs, ${model:-unknown CPU}, kernel $kernel${os:+, $os}"
		echo "- server: nginx $(nginx -v 2>&1 | sed 's/.*nginx\///') (\`return 202\`, 1 worker) on CPU $SERVER_CPU;" \
			"generators on CPU $GEN_CPU; body: 1 KiB VES fault event (bench/fault-1k.json)"
		echo "- load average before / after: $load_before / $(cut -d' ' -f1-3 /proc/loadavg)"
		echo "- REPEAT=$REPEAT (medians of $REPEAT), RATES=$RATES, CLOSED_S=$CLOSED_S, OPEN_S=$OPEN_S," \
			"SEARCH_S=$SEARCH_S, SEARCH_RUNS=$SEARCH_RUNS, CONNS=$CONNS, POOL_WAIT=$POOL_WAIT"
		echo
		echo "CPU µs/request = (user + sys CPU of the generator process, to the microsecond, from bench/cputime) ÷ 2xx responses."
		echo
		cat "$out/table.md"
		echo
		cat "$out/ratios.md"
	} >"$RESULTS"
	log "wrote $RESULTS"
}

# ----------------------------------------------------------------------- main

mkdir -p "$out"
find "$out" -maxdepth 1 -type f -delete
install_tools
[[ $(nproc) -ge 2 ]] || log "only $(nproc) CPU: server and generator share it, figures are not comparable"

# Every tool's CPU time is read by bench/cputime.
log "building bench/cputime"
cputime=$bin/cputime
mkdir -p "$bin"
(cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$cputime" ./bench/cputime) >"$out/cputime-build.log" 2>&1 ||
	die "go build ./bench/cputime failed: see $out/cputime-build.log"

vesload=
if want vesload; then
	if [[ -n ${VESLOAD:-} ]]; then
		vesload=$VESLOAD
	else
		log "building vesload"
		# A binary of our own: bin/vesload may be rebuilt while we measure.
		vesload=$bin/vesload
		mkdir -p "$(dirname "$vesload")"
		# One retry: a build racing another in the same tree can fail once.
		make -s -C "$root" build BIN="$vesload" >"$out/build.log" 2>&1 ||
			{ sleep 5 && make -s -C "$root" build BIN="$vesload" >>"$out/build.log" 2>&1; } ||
			die "make build failed: see $out/build.log"
	fi
	[[ -x $vesload ]] || die "no vesload binary at $vesload"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vesload-peers.XXXXXX")
records=$out/records.tsv
: >"$records"
serve_nginx
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
log "nginx on $url (CPU $SERVER_CPU), generators on CPU $GEN_CPU, load average $load_before"

for ((rep = 1; rep <= REPEAT; rep++)); do
	for t in $TOOLS; do
		case $t in
		wrk | wrk2 | ab | hey | vegeta | jmeter | gofloor | vesload) "run_$t" "$rep" ;;
		*) die "unknown tool '$t' in TOOLS" ;;
		esac
	done
done

report

#!/bin/sh
# Peak resident memory of a default HV-VES run against the built-in
# emulator: vesload and every descendant (the emulator, its embedded
# broker), summed and sampled every 100 ms from /proc; also the peak of
# the anonymous part (RssAnon: heaps and stacks, what grows with the work;
# the rest is the mapped program).
#
#   bench/emulator-rss.sh VESLOAD MESSAGES...   e.g. bench/emulator-rss.sh ./vesload 1000 4000
#
# The built-in emulator's broker deletes a record once the run's consumer
# has fetched past it (or 10 s after it was produced), so the peak should
# not grow with the number of messages (6 producers of 8 KiB
# messages every 10 ms).
set -eu
bin=$1
shift
tree_rss() { # $1: root pid; prints the summed VmRSS and RssAnon in kB of it and its descendants
	pids=$1 frontier=$1
	while [ -n "$frontier" ]; do
		next=""
		for p in $frontier; do
			for c in $(cat /proc/"$p"/task/*/children 2>/dev/null); do next="$next $c"; done
		done
		pids="$pids $next"
		frontier=$next
	done
	total=0 anon=0
	for p in $pids; do
		kb=$(awk '/^VmRSS:/ {r = $2} /^RssAnon:/ {a = $2} END {print r + 0, a + 0}' /proc/"$p"/status 2>/dev/null || true)
		kb=${kb:-0 0}
		total=$((total + ${kb%% *})) anon=$((anon + ${kb##* }))
	done
	echo "$total $anon"
}
for n in "$@"; do
	"$bin" hv --producers 6 --messages "$n" --size 8192 --quiet -o /dev/null >/dev/null 2>&1 &
	pid=$!
	peak=0 peakAnon=0
	while kill -0 "$pid" 2>/dev/null; do
		kb=$(tree_rss "$pid")
		[ "${kb%% *}" -gt "$peak" ] && peak=${kb%% *}
		[ "${kb##* }" -gt "$peakAnon" ] && peakAnon=${kb##* }
		sleep 0.1
	done
	wait "$pid" || echo "run of 6 x $n exited $?" >&2
	echo "6 x $n messages of 8 KiB: peak RSS of vesload and its children $((peak / 1024)) MiB (anonymous $((peakAnon / 1024)) MiB)"
done

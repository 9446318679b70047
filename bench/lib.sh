# bench/lib.sh: what bench/peers.sh, bench/capacity.sh, bench/dashboard-pairs.sh
# and bench/soak.sh share, sourced by each (`. "$here/lib.sh"`): a private nginx on a free port of
# 127.0.0.1, its configuration and files in the script's temporary folder, and
# the stopping of what the script started, by the pids it started, when it ends
# or is interrupted. It never stops a process by name.
#
# It offers:
#   stop_pid PID         TERM, then KILL after 5 s, and reaps PID; with
#                        stop_group=1 each signal goes to the process group -PID
#                        first (a tool under timeout, which leads a group of its
#                        own, is stopped with all it forked), to PID alone when
#                        PID leads none
#   port_free PORT       true when nothing accepts on 127.0.0.1:PORT
#   free_port FIRST LAST sets port to the first free one of FIRST..LAST, or dies
#   start_nginx NAME LOG SERVERS
#                        nginx with one worker, in the folder $tmp/NAME, its own
#                        output to the file LOG; SERVERS is the text of the http
#                        block's server (and upstream, limit_req_zone ...) lines,
#                        one of which listens on 127.0.0.1:$port. Waits until
#                        $port answers (dies after 5 s or when nginx exits) and
#                        sets nginx_pid. Runs under taskset -c $nginx_cpu when
#                        nginx_cpu is set, so its worker keeps to that CPU.
#   stop_nginx           stops it (if it runs) and clears nginx_pid
# and traps: on EXIT, cleanup stops cur_pid, server_pid and nginx_pid, removes $tmp and
# exits with the script's status; INT and TERM exit 130 through it, so that
# Ctrl-C cleans up too.
#
# The caller must, before sourcing it, define
#   die MESSAGE...       prints the message and exits non-zero
# and, before start_nginx, set
#   tmp                  its temporary folder (mktemp -d), removed on exit
# It may set, after sourcing it (which empties them):
#   cur_pid              the pid of what it runs in the background, while it runs
#   server_pid           the pid of a server of its own it started (vesload serve)
#   nginx_cpu            the CPU nginx runs on (empty: any)
#   stop_group           1: stop_pid signals process groups first (see above)

tmp=
nginx_pid=
cur_pid=
server_pid=
nginx_cpu=
stop_group=0

# signal_pid SIGNAL PID: to PID's process group first when stop_group=1.
signal_pid() {
	if ((stop_group)) && kill "-$1" -- "-$2" 2>/dev/null; then
		return 0
	fi
	kill "-$1" "$2" 2>/dev/null
}

stop_pid() { # stop_pid PID: TERM, then KILL after 5 s
	local pid=$1 i
	signal_pid TERM "$pid" || return 0
	for ((i = 0; i < 50; i++)); do
		kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
		sleep 0.1
	done
	signal_pid KILL "$pid" || true
	wait "$pid" 2>/dev/null || true
}

stop_nginx() {
	[[ -z $nginx_pid ]] || stop_pid "$nginx_pid"
	nginx_pid=
}

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	[[ -z $cur_pid ]] || stop_pid "$cur_pid"
	[[ -z $server_pid ]] || stop_pid "$server_pid"
	stop_nginx
	[[ -z $tmp ]] || rm -rf "$tmp"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

free_port() { # free_port FIRST LAST: sets port
	for ((port = $1; port <= $2; port++)); do port_free "$port" && return 0; done
	die "no free port in $1..$2 on 127.0.0.1"
}

start_nginx() { # start_nginx NAME LOG SERVERS: sets nginx_pid
	local name=$1 log=$2 servers=$3 dir i
	dir=${tmp:?start_nginx needs tmp}/$name
	mkdir -p "$dir/tmp"
	cat >"$dir/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid nginx.pid;
error_log error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 100000000;
  keepalive_timeout 75s;
  client_body_temp_path tmp;
  proxy_temp_path tmp;
  fastcgi_temp_path tmp;
  uwsgi_temp_path tmp;
  scgi_temp_path tmp;
$servers
}
EOF
	if [[ -n $nginx_cpu ]]; then
		taskset -c "$nginx_cpu" nginx -p "$dir/" -c nginx.conf >"$log" 2>&1 &
	else
		nginx -p "$dir/" -c nginx.conf >"$log" 2>&1 &
	fi
	nginx_pid=$!
	for ((i = 0; i < 50; i++)); do
		kill -0 "$nginx_pid" 2>/dev/null || die "nginx did not start: $(cat "$log" "$dir/error.log" 2>/dev/null)"
		port_free "$port" || break
		sleep 0.1
	done
	((i < 50)) || die "nginx does not listen on 127.0.0.1:$port after 5 s"
}

# scripts/dev/redis-servers.sh: sourced by scripts/demo.sh, bench/run.sh and
# bench/fpm.sh to run private redis-server processes on loopback.
#
#   start_redis_servers DIR N   starts N servers on free 127.0.0.1 ports, without
#                               persistence, each in DIR/srv-PORT; waits until
#                               all answer PING; leaves the ports in REDIS_PORTS.
#   stop_redis_servers DIR      stops every server started under DIR.
#   run_redis_servers NAME N    the same for the rest of the calling script:
#                               starts N servers under REDIS_RUNDIR
#                               (.run/NAME<pid>), and when the script exits
#                               (or is interrupted) calls its function on_exit
#                               if it has one, stops them and removes the
#                               directory.

# Prints N distinct TCP ports on 127.0.0.1 that nothing listens on (all are
# held open together while they are chosen, so none repeats).
free_ports() {
    php -n -r '
        $held = [];
        for ($i = 0; $i < (int) $argv[1]; $i++) {
            $held[] = $s = stream_socket_server("tcp://127.0.0.1:0");
            $name = stream_socket_get_name($s, false);
            echo substr($name, strrpos($name, ":") + 1), "\n";
        }' "$1"
}

start_redis_servers() {
    local dir=$1 n=$2 port i
    REDIS_PORTS=()
    mkdir -p "$dir"
    for port in $(free_ports "$n"); do
        mkdir -p "$dir/srv-$port"
        redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
            --dir "$dir/srv-$port" --daemonize yes --pidfile "$dir/srv-$port/redis.pid" \
            --logfile "$dir/srv-$port/redis.log"
        REDIS_PORTS+=("$port")
    done
    for port in "${REDIS_PORTS[@]}"; do
        for i in $(seq 1 200); do
            redis-cli -p "$port" ping >/dev/null 2>&1 && break
            sleep 0.05
        done
        if ! redis-cli -p "$port" ping >/dev/null 2>&1; then
            echo "redis-server on port $port did not come up (log: $dir/srv-$port/redis.log)" >&2
            return 1
        fi
    done
}

# True while process $1 runs (a zombie waiting to be reaped counts as gone).
process_alive() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    [ "${stat:0:1}" != Z ]
}

stop_redis_servers() {
    local dir=$1 f pid i pids=()
    for f in "$dir"/srv-*/redis.pid; do
        [ -f "$f" ] || continue
        pid=$(cat "$f")
        kill "$pid" 2>/dev/null && pids+=("$pid")
    done
    for pid in "${pids[@]}"; do
        for i in $(seq 1 100); do
            process_alive "$pid" || break
            sleep 0.02
        done
        process_alive "$pid" && kill -KILL "$pid" 2>/dev/null
    done
    return 0
}

run_redis_servers() {
    REDIS_RUNDIR="$PWD/.run/$1$$"
    trap _redis_servers_exit EXIT
    trap 'exit 130' INT TERM
    start_redis_servers "$REDIS_RUNDIR" "$2"
}

_redis_servers_exit() {
    if declare -F on_exit >/dev/null; then
        on_exit
    fi
    stop_redis_servers "$REDIS_RUNDIR"
    rm -rf "$REDIS_RUNDIR"
}

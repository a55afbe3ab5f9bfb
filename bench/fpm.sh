#!/usr/bin/env bash
# bench/fpm.sh
#
# A lock-protected endpoint served by php-fpm, under load: requests/s and
# latency percentiles for the same endpoint three ways, each served by its
# own static pool of REDISLOCK_BENCH_FPM_WORKERS (default 4) workers:
#
#   RedisLock persistent     bench/fpm_endpoint.php, redislock.persistent = 1
#   RedisLock persistent=0   bench/fpm_endpoint.php, redislock.persistent = 0
#   phpredis pconnect        bench/fpm_endpoint_phpredis.php: SET NX PX + EVALSHA
#   phpredis pconnect, no liveness check
#                            the same with redis.pconnect.echo_check_liveness = 0
#                            (phpredis's default, 1, sends an ECHO each time
#                            pconnect() hands out a pooled connection)
#
# Sets up the machine and builds the extension (scripts/build/setup.sh; skipped
# with REDISLOCK_NO_BUILD=1), starts a private redis-server on a free
# 127.0.0.1 port and a private php-fpm (Debian's php-fpm8.2, or $PHP_FPM)
# listening on unix sockets in its own directory, and drives it with
# bench/fpm_load.php (see there for the settings; about 70 s by default).
# Everything it started is stopped on exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

[ "${REDISLOCK_NO_BUILD:-0}" = 1 ] || bash scripts/build/setup.sh --bench

fpm_bin=${PHP_FPM:-php-fpm8.2}
if ! command -v "$fpm_bin" >/dev/null; then
    echo "bench/fpm.sh: $fpm_bin not found (apt-get install -y php8.2-fpm)" >&2
    exit 2
fi
workers=${REDISLOCK_BENCH_FPM_WORKERS:-4}
read -ra phpredis <<<"$(bash scripts/dev/phpredis-flags.sh)"

. scripts/dev/redis-servers.sh
fpm_pid=""
on_exit() {
    if [ -n "$fpm_pid" ]; then
        kill -TERM "$fpm_pid" 2>/dev/null || true
        for _ in $(seq 1 250); do
            process_alive "$fpm_pid" || break
            sleep 0.02
        done
        process_alive "$fpm_pid" && kill -KILL "$fpm_pid" 2>/dev/null
        wait "$fpm_pid" 2>/dev/null || true
    fi
}
run_redis_servers benchfpm 1
rundir=$REDIS_RUNDIR
port=${REDIS_PORTS[0]}

# The phpredis endpoint runs the extension's own release script, with the
# same keys.
release_sha=$(php -n -r 'echo sha1(file_get_contents("lua/release.lua"));')
release_keys=$(php -n -r 'require "bench/bench.inc"; echo count(bench_release_keys(file_get_contents("lua/release.lua"), "k"));')

pool() { # name, redislock.persistent, redis.pconnect.echo_check_liveness
    cat <<EOF

[$1]
listen = $rundir/$1.sock
pm = static
pm.max_children = $workers
php_admin_value[redislock.servers] = redis://127.0.0.1:$port
php_admin_value[redislock.prefix] = bench:fpm:$1:
php_admin_value[redislock.persistent] = $2
php_admin_value[redis.pconnect.echo_check_liveness] = $3
env[BENCH_REDIS_PORT] = $port
env[BENCH_RELEASE_SHA] = $release_sha
env[BENCH_RELEASE_KEYS] = $release_keys
EOF
}
{
    printf '[global]\npid = %s/fpm.pid\nerror_log = %s/fpm.log\ndaemonize = no\n' "$rundir" "$rundir"
    pool persistent 1 1
    pool nonpersistent 0 1
    pool phpredis 1 1
    pool phpredis_nocheck 1 0
} >"$rundir/fpm.conf"

fpm=("$fpm_bin" -n -F -y "$rundir/fpm.conf" -d opcache.enable=1 "${phpredis[@]}"
     -d "extension=$PWD/modules/redislock.so")
if php -n -d zend_extension=opcache -r 'exit(extension_loaded("Zend OPcache") ? 0 : 1);' 2>/dev/null; then
    fpm+=(-d zend_extension=opcache)
fi
[ "$(id -u)" = 0 ] && fpm+=(-R)
"${fpm[@]}" >"$rundir/fpm.out" 2>&1 &
fpm_pid=$!
for _ in $(seq 1 250); do
    [ -S "$rundir/persistent.sock" ] && [ -S "$rundir/nonpersistent.sock" ] && [ -S "$rundir/phpredis.sock" ] \
        && [ -S "$rundir/phpredis_nocheck.sock" ] && break
    process_alive "$fpm_pid" || break
    sleep 0.02
done
if ! [ -S "$rundir/phpredis_nocheck.sock" ]; then
    echo "php-fpm did not come up:" >&2
    cat "$rundir/fpm.log" "$rundir/fpm.out" >&2 || true
    exit 1
fi

echo "machine: $(nproc) CPUs, $(uname -sr)"
echo "$("$fpm_bin" -v | head -1), phpredis $(php -n "${phpredis[@]}" -r 'echo phpversion("redis");')," \
     "redislock $(php -n -d "extension=$PWD/modules/redislock.so" -r 'echo phpversion("redislock");')," \
     "$(redis-server --version | sed 's/ sha=.*//')"
echo "php-fpm: 4 static pools of $workers workers, opcache $(printf '%s' "${fpm[*]}" | grep -q zend_extension=opcache && echo on || echo off), redis-server on 127.0.0.1:$port"
echo
status=0
php -n bench/fpm_load.php \
    "RedisLock persistent=$rundir/persistent.sock=bench/fpm_endpoint.php" \
    "RedisLock persistent=0=$rundir/nonpersistent.sock=bench/fpm_endpoint.php" \
    "phpredis pconnect, no liveness check=$rundir/phpredis_nocheck.sock=bench/fpm_endpoint_phpredis.php" \
    "phpredis pconnect=$rundir/phpredis.sock=bench/fpm_endpoint_phpredis.php" || status=$?

echo
clients=$(redis-cli -p "$port" client list)
echo "connections on the server after the run: $(grep -c ' name=redislock:' <<<"$clients" || true) named redislock:<pid>" \
     "(the persistent pool's workers), $(grep -vc ' name=redislock:' <<<"$clients" || true) others"
echo "commands the server ran (calls): $(redis-cli -p "$port" info commandstats \
    | sed -n 's/^cmdstat_\([^:]*\):calls=\([0-9]*\),.*/\1 \2/p' | tr '\n' ',' | sed 's/,$//; s/,/, /g')"
if grep -q 'WARNING\|ERROR' "$rundir/fpm.log"; then
    echo "php-fpm log:"
    grep 'WARNING\|ERROR' "$rundir/fpm.log" | head -20
    status=1
fi
exit $status

#!/usr/bin/env bash
# scripts/test.sh [--memcheck] [TEST...]
#
# Sets up the machine (scripts/setup.sh), starts a redis-server on loopback,
# runs the phpt suite (or the given tests) against the freshly built
# extension and ends with the line
#     phpt: N passed, N failed, N skipped
# --memcheck runs every test under valgrind (USE_ZEND_ALLOC=0): a leak or an
# invalid access fails the test. REDISLOCK_NO_BUILD=1 skips setup and build.
# Exits non-zero on any failure, on any skip,
# or when no test ran.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

memcheck=""
if [ "${1:-}" = "--memcheck" ]; then
    memcheck="-m"
    shift
fi
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(tests)

# REDISLOCK_NO_BUILD=1 runs against the module already built.
[ "${REDISLOCK_NO_BUILD:-0}" = 1 ] || bash scripts/setup.sh

rundir="$PWD/.run/test$$"
mkdir -p "$rundir"
port=$(php -n -r '$s = stream_socket_server("tcp://127.0.0.1:0"); $n = stream_socket_get_name($s, false); echo substr($n, strrpos($n, ":") + 1);')
redis-server --port "$port" --bind 127.0.0.1 --unixsocket "$rundir/redis.sock" --unixsocketperm 700 \
    --save '' --appendonly no --dir "$rundir" --daemonize yes --pidfile "$rundir/redis.pid" \
    --logfile "$rundir/redis.log"
cleanup() {
    [ -f "$rundir/redis.pid" ] && kill "$(cat "$rundir/redis.pid")" 2>/dev/null || true
    # private servers a test left behind (a test killed by a timeout)
    for f in "$rundir"/srv-*/redis.pid; do
        [ -f "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null || true
    done
    rm -rf "$rundir"
}
trap cleanup EXIT
for _ in $(seq 1 200); do
    redis-cli -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.05
done
redis-cli -p "$port" ping >/dev/null

export REDISLOCK_TEST_HOST=127.0.0.1
export REDISLOCK_TEST_PORT="$port"
export REDISLOCK_TEST_SOCKET="$rundir/redis.sock"
export REDISLOCK_TEST_RUNDIR="$rundir"
export NO_INTERACTION=1
export TEST_PHP_EXECUTABLE
TEST_PHP_EXECUTABLE=$(command -v php)
jit=()
if [ -n "$memcheck" ]; then
    export USE_ZEND_ALLOC=0 ZEND_DONT_UNLOAD_MODULES=1
    # PCRE's JIT allocates in ways valgrind reports as leaks of PHP itself.
    jit=(-d pcre.jit=0)
    # Only PHP is under test: the servers and tools the tests start are not.
    export VALGRIND_OPTS="--trace-children-skip=*redis-server*,*redis-cli*,*php-fpm*,*cgi-fcgi*,*/sh,*/bash,*/kill"
fi

log="$rundir/run-tests.log"
set +e
php -n run-tests.php -n $memcheck -q --show-diff --no-color --no-progress \
    -d "extension=$PWD/modules/redislock.so" -d extension=posix "${jit[@]}" \
    "${tests[@]}" 2>&1 | tee "$log"
set -e

# run-tests.php's own summary; a leak or a borked test counts as a failure.
summary() {
    local v
    v=$(sed -n "s/^Tests $1 *: *\([0-9]*\).*/\1/p" "$log" | tail -1)
    echo "${v:-0}"
}
passed=$(summary passed)
skipped=$(summary skipped)
failed=$(( $(summary failed) + $(summary borked) + $(summary leaked) ))
if ! grep -q '^Tests passed' "$log"; then
    failed=$((failed + 1)) # run-tests.php itself failed
fi
echo "phpt: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$skipped" -eq 0 ] && [ "$passed" -gt 0 ]

#!/usr/bin/env bash
# bench/run.sh [single] [quorum] [frozen] [ratelimit] [atomic] [tls] [shared] [shared_cost] [semaphore] [server_calls] [contention]
#
# Sets up the machine and builds the extension (scripts/build/setup.sh; skipped
# with REDISLOCK_NO_BUILD=1), starts seven private redis-server processes on
# free 127.0.0.1 ports without persistence, and runs the benchmarks (both
# unless named) with RedisLock and phpredis loaded into the same `php -n`:
#
#   bench/single.php   one server: RedisLock against SET NX PX + EVALSHA by hand
#   bench/quorum.php   Redlock over 1, 3 and 5 servers against sequential phpredis,
#                      and against a C client that only fans out (bench/fanout.c, built here)
#   bench/frozen.php   Redlock with a frozen minority against healthy servers (run by name)
#   bench/ratelimit.php  RedisLock\RateLimiter::consume() against phpredis running
#                      the same script, and Laravel's and Symfony's rate limiters
#                      (run only when named; installs php-laravel-framework,
#                      php-symfony-rate-limiter and php-symfony-cache)
#   bench/atomic.php   8 forked workers incrementing one key: RedisLock\Atomic::update()
#                      against a phpredis WATCH/GET/MULTI/SET/EXEC loop (run only when named)
#   bench/tls.php      rediss:// against redis:// on one server of its own (run only when named)
#   bench/shared.php   acquireRead + release against acquire + release, and 8 forked workers
#                      (90% reads) against Symfony Lock's RedisStore shared locks over phpredis
#                      (run only when named)
#   bench/shared_cost.php  the same uncontended cycles with the spread of the ratio, the
#                      server's time per operation (INFO commandstats) and CPU per cycle
#                      (run only when named)
#   bench/semaphore.php  RedisLock\Semaphore's cycle against the lock's, and 8 forked workers
#                      against Symfony's Semaphore over phpredis (run only when named)
#   bench/server_calls.php  the commands and server time of one uncontended lock and
#                      Semaphore cycle (run only when named)
#
# Each prints a table of cycles/s per round with medians and the ratios of
# medians. Within a round the variants take turns, so that load from
# elsewhere on the machine falls on all of them alike. Length:
# REDISLOCK_BENCH_ROUNDS (default 5) rounds, in each of which every variant
# runs REDISLOCK_BENCH_ROUND_MS (default 2000) in turns of
# REDISLOCK_BENCH_SLICE_MS (default 50): about 4 minutes for single and quorum.
# The servers are stopped on exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

benches=("$@")
[ ${#benches[@]} -gt 0 ] || benches=(single quorum)
for b in "${benches[@]}"; do
    [ -f "bench/$b.php" ] || { echo "bench/run.sh: no benchmark named $b" >&2; exit 2; }
done

[ "${REDISLOCK_NO_BUILD:-0}" = 1 ] || bash scripts/build/setup.sh --bench
. bench/prepare.sh
bench_prepare "${benches[@]}"
php=(php -n "${phpredis[@]}" -d "extension=$PWD/modules/redislock.so")

. scripts/dev/redis-servers.sh
run_redis_servers bench 7

REDISLOCK_BENCH_PORTS=$(IFS=,; echo "${REDIS_PORTS[*]}")
export REDISLOCK_BENCH_PORTS

echo "machine: $(nproc) CPUs, $(uname -sr)"
echo "php $("${php[@]}" -r 'echo PHP_VERSION, ", phpredis ", phpversion("redis"), ", redislock ", phpversion("redislock");'),"\
     "$(redis-server --version | sed 's/ sha=.*//')"
echo "php command: ${php[*]}"
for b in "${benches[@]}"; do
    echo
    echo "== bench/$b.php"
    if [ "$b" = ratelimit ]; then
        # Laravel's date library needs mbstring, which `php -n` does not load.
        "${php[@]}" -d extension=mbstring "bench/$b.php"
    else
        "${php[@]}" "bench/$b.php"
    fi
done

# --- contention -------------------------------------------------------------
# bench/contention.php: W = 2, 8 and 32 forked workers contending for one lock,
# holding it 0 and 1 ms (RedisLock waiting, fair, and on quorums of 3, 5 and 7
# servers; a phpredis polling loop; a phpredis BLPOP ring, the hand-over
# floor; the same ring carrying a bare SET NX / compare-and-delete lock, the
# least a lock that hands over costs), about 3 to 5 minutes.
# Runs after the others when no benchmark is named; "bench/run.sh contention"
# runs it alone (through the loop above).
if [ $# -eq 0 ]; then
    echo
    echo "== bench/contention.php"
    "${php[@]}" bench/contention.php
fi

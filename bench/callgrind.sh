#!/usr/bin/env bash
# bench/callgrind.sh [N]
#
# The client's CPU cost of one uncontended acquire + release, in instructions
# counted by callgrind (which, unlike a clock, gives the same count every run,
# however busy the machine): each variant of bench/callgrind_cycle.php runs
# once with N cycles (default 2000) and once with 0, and the difference over
# N is printed, with the ratio to phpredis doing the same cycle by hand.
# Everything in the php process counts (PHP, the extension, hiredis or
# phpredis, libc); the server does not. Sets up and builds like bench/run.sh
# (REDISLOCK_NO_BUILD=1 skips that) and starts its own redis-server.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

n=${1:-2000}
[ "${REDISLOCK_NO_BUILD:-0}" = 1 ] || bash scripts/build/setup.sh --bench

read -ra phpredis <<<"$(bash scripts/dev/phpredis-flags.sh)"
php=(php -n "${phpredis[@]}" -d "extension=$PWD/modules/redislock.so")

. scripts/dev/redis-servers.sh
run_redis_servers callgrind 1
port=${REDIS_PORTS[0]}

# instructions VARIANT CYCLES: the total instruction count of one run.
instructions() {
    local out="$REDIS_RUNDIR/callgrind.$1.$2"
    valgrind --tool=callgrind --callgrind-out-file="$out" -q "${php[@]}" bench/callgrind_cycle.php "$1" "$2" "$port"
    sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out"
}

echo "client instructions per uncontended acquire + release (callgrind, $n cycles minus 0)"
declare -A per
for v in reused new shared semaphore phpredis; do
    full=$(instructions "$v" "$n")
    base=$(instructions "$v" 0)
    per[$v]=$(( (full - base) / n ))
    printf '  %-9s %8d\n' "$v" "${per[$v]}"
done
awk -v r="${per[reused]}" -v w="${per[new]}" -v s="${per[shared]}" -v m="${per[semaphore]}" -v p="${per[phpredis]}" 'BEGIN {
    printf "ratios to phpredis: reused object %.2f, new object per cycle %.2f\n", r / p, w / p
    printf "shared cycle (acquireRead + release) / exclusive cycle (reused object): %.2f\n", s / r
    printf "Semaphore cycle / RedisLock cycle (reused objects): %.2f\n", m / r }'

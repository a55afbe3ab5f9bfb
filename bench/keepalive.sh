#!/usr/bin/env bash
# bench/keepalive.sh [LOCKS] [SECONDS]
#
# What keepalive leases cost the client: the keepalive thread's CPU per
# renewal (LOCKS holds, default 10, renewed every 10 ms for SECONDS, default
# 5, read from /proc), and its CPU once nothing is held (none). Then
# callgrind's instruction count of the whole process for 1 s of renewals of
# one hold against 1 s of sleep without keepalive, per renewal. Sets up and
# builds like bench/run.sh (REDISLOCK_NO_BUILD=1 skips that) and starts its
# own redis-server.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

locks=${1:-10}
seconds=${2:-5}
[ "${REDISLOCK_NO_BUILD:-0}" = 1 ] || bash scripts/build/setup.sh --bench
php=(php -n -d "extension=$PWD/modules/redislock.so")

. scripts/dev/redis-servers.sh
run_redis_servers keepalive 1
port=${REDIS_PORTS[0]}

"${php[@]}" bench/keepalive.php "$port" "$locks" "$seconds"

if command -v valgrind >/dev/null; then
    # instructions KEEPALIVE: callgrind's total for one hold kept 1 s.
    instructions() {
        local out="$REDIS_RUNDIR/callgrind.keepalive.$1"
        valgrind --tool=callgrind --callgrind-out-file="$out" -q "${php[@]}" -r '
            $l = new RedisLock("bench:keepalive:cg", ["servers" => "redis://127.0.0.1:" . $argv[1], "ttl" => 30,
                "keepalive" => (bool) $argv[2]]);
            $l->acquire(); usleep(1000000);
            echo RedisLock::stats()["keepalive_renewals"], "\n"; $l->release();' "$port" "$1" >"$out.renewals"
        echo "$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out") $(cat "$out.renewals")"
    }
    read -r with renewals <<<"$(instructions 1)"
    read -r without _ <<<"$(instructions 0)"
    if [ "${renewals:-0}" -gt 0 ]; then
        echo "callgrind: $(( (with - without) / renewals )) client instructions per renewal ($renewals renewals; thread start and connection included)"
    fi
fi

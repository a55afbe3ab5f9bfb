#!/usr/bin/env bash
# bench/zookeeper.sh: RedisLock\ZooKeeperLock against kazoo's Lock recipe
# (Debian's python3-kazoo, installed when missing) on one private ZooKeeper
# server; see bench/zookeeper.php. Builds the extension first (scripts/build/setup.sh,
# --with-zookeeper; skipped with REDISLOCK_NO_BUILD=1). About 45 s with the
# defaults (REDISLOCK_BENCH_ROUNDS=5, REDISLOCK_BENCH_ROUND_MS=2000).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

. scripts/build/install-packages.sh
install_packages bench python3-kazoo
[ "${REDISLOCK_NO_BUILD:-0}" = 1 ] || bash scripts/build/setup.sh --bench

rundir=$(mktemp -d "${TMPDIR:-/tmp}/redislock-zkbench.XXXXXX")
cleanup() {
    for f in "$rundir"/zk-*/zk.pid; do
        [ -f "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null || true
    done
    rm -rf "$rundir"
}
trap cleanup EXIT
export REDISLOCK_TEST_RUNDIR="$rundir"
export REDISLOCK_BENCH_MODULE="$PWD/modules/redislock.so"
php -n -d "extension=$REDISLOCK_BENCH_MODULE" -d extension=posix bench/zookeeper.php

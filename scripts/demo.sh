#!/usr/bin/env bash
# scripts/demo.sh [--workers=N] [--seconds=N] [--no-lock]
#
# Installs what the demo needs and builds the extension (scripts/build/setup.sh
# --demo; skipped with REDISLOCK_NO_BUILD=1), starts a private redis-server on a free
# 127.0.0.1 port without persistence and runs demo/contend.php against it:
# worker processes update one counter under a RedisLock, and the run fails
# unless no update was lost. Options are passed to demo/contend.php
# (--no-lock drops the lock to show lost updates). The server is stopped on
# exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

[ "${REDISLOCK_NO_BUILD:-0}" = 1 ] || bash scripts/build/setup.sh --demo

read -ra phpredis <<<"$(bash scripts/dev/phpredis-flags.sh)"

. scripts/dev/redis-servers.sh
run_redis_servers demo 1

php -n "${phpredis[@]}" -d "extension=$PWD/modules/redislock.so" \
    demo/contend.php --port="${REDIS_PORTS[0]}" "$@"

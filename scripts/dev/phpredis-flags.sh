#!/usr/bin/env bash
# scripts/dev/phpredis-flags.sh: prints the php options that load phpredis under
# `php -n` (the benchmarks' baseline and the demo's data client), preceded by
# the serializer extensions the distribution built it against. Exits non-zero
# when phpredis cannot be loaded.
set -euo pipefail

dir=$(php -n -r 'echo ini_get("extension_dir");')
for deps in "" "igbinary" "igbinary msgpack"; do
    flags=()
    for d in $deps; do
        flags+=(-d "extension=$d")
    done
    flags+=(-d "extension=$dir/redis.so")
    if php -n "${flags[@]}" -r 'exit(extension_loaded("redis") ? 0 : 1);' >/dev/null 2>&1; then
        echo "${flags[*]}"
        exit 0
    fi
done
echo "phpredis-flags: cannot load $dir/redis.so (is php-redis installed?)" >&2
exit 1

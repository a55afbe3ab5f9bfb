#!/usr/bin/env bash
# scripts/build/server-src.sh valkey|redis8: builds a server from Debian's
# source tarball (Valkey 9 or Redis 8, with TLS, no modules), once, into a
# cache outside the clone, and prints the installation prefix. Its bin/ holds
# redis-server, redis-cli and redis-sentinel (for Valkey also its own
# valkey-* names), so that putting it first in PATH makes the suite and the
# tools it starts use that server.
#
# The cache is $REDISLOCK_CACHE_DIR (default ~/.cache/redislock). A build is
# reused when its version and build options are the same; an interrupted
# build is started again. Two runs at once wait for each other (flock).
# REDISLOCK_VALKEY_VERSION and REDISLOCK_REDIS8_VERSION pick other releases
# Debian has the source of.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

server=${1:-}
case "$server" in
    valkey)
        version=${REDISLOCK_VALKEY_VERSION:-9.1.2}
        url="http://deb.debian.org/debian/pool/main/v/valkey/valkey_$version.orig.tar.gz" ;;
    redis8)
        version=${REDISLOCK_REDIS8_VERSION:-8.0.6}
        url="http://deb.debian.org/debian/pool/main/r/redis/redis_$version.orig.tar.gz" ;;
    *) echo "usage: scripts/build/server-src.sh valkey|redis8" >&2; exit 2 ;;
esac
options=(BUILD_TLS=yes MALLOC=libc)
key=$(printf '%s\n' "$server" "$version" "${options[@]}" | sha256sum | cut -c1-10)
cache=${REDISLOCK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/redislock}
prefix="$cache/$server-$version-$key"
mkdir -p "$cache"

. scripts/build/install-packages.sh
install_packages server-src build-essential pkg-config curl libssl-dev >&2

exec 9>"$cache/$server-$version.lock"
flock 9
if [ -f "$prefix/.complete" ]; then
    echo "$prefix"
    exit 0
fi

tarball="$cache/${url##*/}"
if [ ! -f "$tarball" ]; then
    echo "server-src: fetching the $server $version source from Debian's archive" >&2
    curl -fsSL --retry 3 -o "$tarball.part" "$url"
    mv "$tarball.part" "$tarball"
fi
work="$cache/build-$server-$version"
rm -rf "$work" "$prefix"
mkdir -p "$work"
tar -xzf "$tarball" -C "$work" --strip-components=1
start=$SECONDS
echo "server-src: building $server $version into $prefix" >&2
(
    cd "$work"
    make -j"$(nproc)" "${options[@]}" >"$work/make.log" 2>&1 || { tail -40 "$work/make.log" >&2; exit 1; }
    make install PREFIX="$prefix" "${options[@]}" >"$work/install.log" 2>&1 \
        || { tail -20 "$work/install.log" >&2; exit 1; }
)
# Valkey installs valkey-*; the redis-* names are links to them (made here
# when its install did not).
for tool in server cli sentinel benchmark check-aof check-rdb; do
    if [ ! -e "$prefix/bin/redis-$tool" ] && [ -e "$prefix/bin/valkey-$tool" ]; then
        ln -s "valkey-$tool" "$prefix/bin/redis-$tool"
    fi
done
for tool in server cli sentinel; do
    [ -x "$prefix/bin/redis-$tool" ] || { echo "server-src: no bin/redis-$tool in $prefix" >&2; exit 1; }
done
rm -rf "$work"
touch "$prefix/.complete"
echo "server-src: $server $version built in $((SECONDS - start)) s" >&2
echo "$prefix"

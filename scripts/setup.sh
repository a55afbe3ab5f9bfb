#!/usr/bin/env bash
# scripts/setup.sh: installs what building and testing redislock needs on a
# Debian machine (when missing) and builds modules/redislock.so with warnings
# as errors. Sourced or run by scripts/test.sh, scripts/demo.sh and bench/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(
    php8.2-dev php8.2-cli php8.2-fpm     # headers, phpize, the CLI and FPM SAPIs
    libhiredis-dev pkg-config            # the Redis client library the extension links
    redis-server redis-tools             # real servers for tests, demo and benchmarks
    php-redis                            # phpredis: the benchmarks' baseline
    libfcgi-bin                          # cgi-fcgi: a FastCGI client for the FPM tests
    valgrind                             # the memory-checked test pass
    make gcc autoconf procps
)
missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    # Package scripts may start the system's own redis-server or php-fpm; the
    # project starts its own on other ports and needs neither.
    $sudo service redis-server stop >/dev/null 2>&1 || true
    $sudo service php8.2-fpm stop >/dev/null 2>&1 || true
fi

if [ ! -f Makefile ] || [ config.m4 -nt Makefile ] || [ Makefile.frag -nt Makefile ]; then
    echo "setup: configuring"
    phpize >/dev/null
    ./configure --enable-redislock --enable-redislock-dev >/dev/null
fi
echo "setup: building"
make -j"$(nproc)" >/dev/null
test -f modules/redislock.so
echo "setup: modules/redislock.so built"

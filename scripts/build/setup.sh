#!/usr/bin/env bash
# scripts/build/setup.sh: installs what building and testing redislock needs on a
# Debian machine (when missing) and builds modules/redislock.so with warnings
# as errors. Sourced or run by scripts/test/test.sh, scripts/dev/demo.sh and bench/.
# --asan builds instead, out of the tree in .run/asan/, the extension with
# AddressSanitizer and UBSan (for scripts/test/test.sh --asan), leaving the
# in-tree build alone.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

packages=(
    php8.2-dev php8.2-cli php8.2-fpm     # headers, phpize, the CLI and FPM SAPIs
    libhiredis-dev pkg-config            # the Redis client library the extension links
    libssl-dev openssl                   # TLS (rediss://), and certificates for the TLS tests
    libzookeeper-mt-dev                  # the ZooKeeper C client (built --with-zookeeper)
    zookeeper                            # a real ZooKeeper server (and Java) for the ZooKeeperLock tests
    redis-server redis-tools             # real servers for tests, demo and benchmarks
    redis-sentinel                       # Sentinels for the Sentinel tests
    php-redis                            # phpredis: the benchmarks' baseline
    libfcgi-bin                          # cgi-fcgi: a FastCGI client for the FPM tests
    valgrind                             # the memory-checked test pass
    libasan8 libubsan1                   # the ASan+UBSan test pass (gcc's sanitizer runtimes)
    php-symfony-lock php-laravel-framework # the frameworks the adapters (bridge/) are tested against,
    phpunit php8.2-xml php8.2-mbstring   # with PHPUnit and the extensions it needs
    make gcc autoconf procps
)
. scripts/build/install-packages.sh
install_packages setup "${packages[@]}"

if [ "${1:-}" = "--asan" ]; then
    # A fresh copy of the sources each time: the build takes seconds, and no
    # object of another build (or with other flags) can slip into it.
    asan="$PWD/.run/asan"
    rm -rf "$asan/build"
    mkdir -p "$asan/build/lua" "$asan/build/scripts/build"
    cp redislock.c php_redislock.h config.m4 Makefile.frag "$asan/build/"
    cp -r src "$asan/build/"
    cp lua/*.lua "$asan/build/lua/"
    cp scripts/build/lua2c.sh "$asan/build/scripts/build/"
    echo "setup: configuring (ASan+UBSan, in .run/asan)"
    (
        cd "$asan/build"
        phpize >/dev/null
        CFLAGS="-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
            LDFLAGS="-fsanitize=address,undefined" \
            ./configure --enable-redislock --enable-redislock-dev --with-zookeeper >/dev/null
        echo "setup: building (ASan+UBSan)"
        make -j"$(nproc)" >/dev/null
    )
    # A shim for php and php-fpm, preloaded before the ASan runtime (see
    # scripts/test/test.sh --asan).
    gcc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$asan/asanshim.so" scripts/test/asan-shim.c -ldl
    test -f "$asan/build/modules/redislock.so"
    echo "setup: .run/asan/build/modules/redislock.so built"
    exit 0
fi

if [ ! -f Makefile ] || [ config.m4 -nt Makefile ] || [ Makefile.frag -nt Makefile ] ||
    ! grep -q -- '--with-zookeeper' config.nice 2>/dev/null; then
    echo "setup: configuring"
    phpize >/dev/null
    ./configure --enable-redislock --enable-redislock-dev --with-zookeeper >/dev/null
fi
echo "setup: building"
make -j"$(nproc)" >/dev/null
test -f modules/redislock.so
echo "setup: modules/redislock.so built"

#!/usr/bin/env bash
# scripts/build/setup.sh [--demo | --test | --bench] [--asan | --php=nts|zts]: installs the Debian
# packages (when missing) that building redislock and one use of it need --
# --demo: the demo's server and data client; --test (the default): the servers,
# tools and frameworks of the test suite; --bench: those and the benchmarks'
# baselines -- and builds modules/redislock.so (with ZooKeeperLock when its
# client library is installed, with -Werror when REDISLOCK_WERROR=1, as CI
# sets). Run by scripts/demo.sh, scripts/test.sh and bench/. --asan builds instead, out of the tree in .run/asan/, the extension with
# AddressSanitizer and UBSan (for scripts/test.sh --asan), leaving the
# in-tree build alone. --php=nts or --php=zts builds it, out of the tree in
# .run/php-nts/ or .run/php-zts/, with the phpize of PHP 8.4's debug build of
# that kind (scripts/build/php-src.sh, cached; for scripts/test.sh with
# REDISLOCK_PHP=nts|zts).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# What each use needs, installed only when it is used:
build=(
    php8.2-dev php8.2-cli                # headers, phpize and the CLI
    libhiredis-dev pkg-config            # the Redis client library the extension links
    libssl-dev                           # TLS (rediss://)
    make gcc autoconf
)
demo=(
    redis-server redis-tools             # a real server for the demo
    php-redis                            # phpredis: the demo's data client (and the benchmarks' baseline)
)
test=(
    redis-server redis-tools             # real servers for the tests
    redis-sentinel                       # Sentinels for the Sentinel tests
    openssl                              # certificates for the TLS tests
    libzookeeper-mt-dev                  # the ZooKeeper C client (the build is --with-zookeeper)
    zookeeper                            # a real ZooKeeper server (and Java) for the ZooKeeperLock tests
    php8.2-fpm libfcgi-bin               # php-fpm, and cgi-fcgi as a FastCGI client, for the FPM tests
    php-symfony-lock php-symfony-semaphore php-laravel-framework # the frameworks the adapters (bridge/) are tested against,
    phpunit php8.2-xml php8.2-mbstring   # with PHPUnit and the extensions it needs
    procps
)
bench=(php-redis valgrind)               # phpredis: the baseline; callgrind counts instructions
asan_runtime=(libasan8 libubsan1)        # gcc's sanitizer runtimes

usage="usage: scripts/build/setup.sh [--demo | --test | --bench] [--asan | --php=nts|zts]"
profile=test
asan_build=0
php_build=""
for arg in "$@"; do
    case "$arg" in
        --demo | --test | --bench) profile=${arg#--} ;;
        --asan) asan_build=1 ;;
        --php=nts | --php=zts) php_build=${arg#--php=} ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
[ "$asan_build" = 1 ] && [ -n "$php_build" ] && { echo "$usage" >&2; exit 2; }
packages=("${build[@]}")
case "$profile" in
    demo) packages+=("${demo[@]}") ;;
    test) packages+=("${test[@]}") ;;
    bench) packages+=("${test[@]}" "${bench[@]}") ;;
esac
[ "$asan_build" = 0 ] || packages+=("${asan_runtime[@]}")
. scripts/build/install-packages.sh
install_packages setup "${packages[@]}"

# ZooKeeperLock is built when its client library is there (the tests install it;
# the demo does not need it). -Werror only where REDISLOCK_WERROR=1 asks for it
# (CI): a newer compiler's new warning must not stop a build on a user's machine.
configure_args=(--enable-redislock)
dpkg -s libzookeeper-mt-dev >/dev/null 2>&1 && configure_args+=(--with-zookeeper)
[ "${REDISLOCK_WERROR:-0}" = 1 ] && configure_args+=(--enable-redislock-dev)

# copy_sources DIR: a fresh copy of the sources (not the objects of the
# in-tree build beside them) into DIR, for a build out of the tree: it takes
# seconds, and no object of another build (or with other flags) can slip into it.
copy_sources() {
    rm -rf "$1"
    mkdir -p "$1/lua" "$1/scripts/build"
    cp redislock.c php_redislock.h config.m4 Makefile.frag "$1/"
    find src \( -name '*.c' -o -name '*.h' \) -exec cp --parents {} "$1/" \;
    cp lua/*.lua "$1/lua/"
    cp scripts/build/lua2c.sh "$1/scripts/build/"
}

if [ -n "$php_build" ]; then
    prefix=$(bash scripts/build/php-src.sh "$php_build")
    dir="$PWD/.run/php-$php_build"
    copy_sources "$dir/build"
    echo "$prefix" > "$dir/prefix"
    echo "setup: configuring (${configure_args[*]}, PHP $("$prefix/bin/php-config" --version) $php_build debug, in .run/php-$php_build)"
    (
        cd "$dir/build"
        "$prefix/bin/phpize" >/dev/null
        ./configure --with-php-config="$prefix/bin/php-config" "${configure_args[@]}" >/dev/null
        echo "setup: building"
        make -j"$(nproc)" >/dev/null
    )
    test -f "$dir/build/modules/redislock.so"
    echo "setup: .run/php-$php_build/build/modules/redislock.so built"
    exit 0
fi

if [ "$asan_build" = 1 ]; then
    asan="$PWD/.run/asan"
    copy_sources "$asan/build"
    echo "setup: configuring (ASan+UBSan, in .run/asan)"
    (
        cd "$asan/build"
        phpize >/dev/null
        CFLAGS="-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
            LDFLAGS="-fsanitize=address,undefined" \
            ./configure "${configure_args[@]}" >/dev/null
        echo "setup: building (ASan+UBSan)"
        make -j"$(nproc)" >/dev/null
    )
    # A shim for php and php-fpm, preloaded before the ASan runtime (see
    # scripts/test.sh --asan).
    gcc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$asan/asanshim.so" scripts/check/asan-shim.c -ldl
    test -f "$asan/build/modules/redislock.so"
    echo "setup: .run/asan/build/modules/redislock.so built"
    exit 0
fi

# Configured again when config.m4 changed or the options differ from the last run's.
if [ ! -f Makefile ] || [ config.m4 -nt Makefile ] || [ Makefile.frag -nt Makefile ] ||
    [ "$(sed -n "s/^'\\(--[^']*\\)' \\\\$/\\1/p" config.nice 2>/dev/null | tr '\n' ' ')" != "${configure_args[*]} " ]; then
    echo "setup: configuring (${configure_args[*]})"
    phpize >/dev/null
    ./configure "${configure_args[@]}" >/dev/null
fi
echo "setup: building"
make -j"$(nproc)" >/dev/null
test -f modules/redislock.so
echo "setup: modules/redislock.so built"

#!/usr/bin/env bash
# scripts/build/php-src.sh nts|zts: builds PHP from Debian's source tarball
# (debug build, CLI, php-fpm and the embed SAPI, with the extensions the suite
# and the adapters' tests use), once, into a cache outside the clone, and
# prints the installation prefix (its bin/php, bin/phpize, bin/php-config,
# sbin/php-fpm, lib/libphp.so).
#
# The cache is $REDISLOCK_CACHE_DIR (default ~/.cache/redislock). A build is
# reused when its version and configure options are the same; an interrupted
# build is started again. Two runs at once wait for each other (flock).
# REDISLOCK_PHP_VERSION picks another 8.x release Debian has the source of.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

variant=${1:-}
case "$variant" in
    nts) zts=() ;;
    zts) zts=(--enable-zts) ;;
    *) echo "usage: scripts/build/php-src.sh nts|zts" >&2; exit 2 ;;
esac
version=${REDISLOCK_PHP_VERSION:-8.4.16}
series=${version%.*}
options=(--enable-debug "${zts[@]}" --disable-all --enable-cli --enable-fpm --enable-embed
    --enable-pcntl --enable-posix --enable-sockets --with-openssl --with-zlib
    --enable-ctype --enable-tokenizer --enable-filter --enable-session --with-iconv
    --with-libxml --enable-dom --enable-xml --enable-xmlwriter --enable-xmlreader --enable-simplexml
    --enable-mbstring --enable-fileinfo --enable-pdo --with-pdo-sqlite --with-sqlite3
    --enable-phar --enable-opcache=no)
key=$(printf '%s\n' "$version" "${options[@]}" | sha256sum | cut -c1-10)
cache=${REDISLOCK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/redislock}
prefix="$cache/php-$version-$variant-debug-$key"
mkdir -p "$cache"

. scripts/build/install-packages.sh
install_packages php-src build-essential pkg-config curl xz-utils libxml2-dev libssl-dev \
    libsqlite3-dev zlib1g-dev libonig-dev >&2

exec 9>"$cache/php-$version-$variant.lock"
flock 9
if [ -f "$prefix/.complete" ]; then
    echo "$prefix"
    exit 0
fi

tarball="$cache/php${series}_$version.orig.tar.xz"
if [ ! -f "$tarball" ]; then
    echo "php-src: fetching the PHP $version source from Debian's archive" >&2
    curl -fsSL --retry 3 -o "$tarball.part" \
        "http://deb.debian.org/debian/pool/main/p/php$series/php${series}_$version.orig.tar.xz"
    mv "$tarball.part" "$tarball"
fi
work="$cache/build-php-$version-$variant"
rm -rf "$work" "$prefix"
mkdir -p "$work"
tar -xJf "$tarball" -C "$work" --strip-components=1
start=$SECONDS
echo "php-src: building PHP $version $variant debug into $prefix" >&2
(
    cd "$work"
    ./configure --prefix="$prefix" --with-config-file-scan-dir="$prefix/etc/conf.d" \
        "${options[@]}" >"$work/configure.log" 2>&1 || { tail -30 "$work/configure.log" >&2; exit 1; }
    make -j"$(nproc)" >"$work/make.log" 2>&1 || { tail -40 "$work/make.log" >&2; exit 1; }
    make install >"$work/install.log" 2>&1 || { tail -20 "$work/install.log" >&2; exit 1; }
)
mkdir -p "$prefix/etc/conf.d"
rm -rf "$work"
touch "$prefix/.complete"
echo "php-src: PHP $version $variant built in $((SECONDS - start)) s" >&2
echo "$prefix"

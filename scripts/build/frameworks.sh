#!/usr/bin/env bash
# scripts/build/frameworks.sh: installs the current framework versions the
# adapters in bridge/ are tested against (besides Debian's php-symfony-lock,
# php-symfony-semaphore and php-laravel-framework), once, into a cache outside
# the clone, and prints its directory: DIR/vendor/autoload.php loads them.
#
#   symfony/lock, symfony/semaphore  7.4.23   (the newest 7.x the registry serves)
#   laravel/framework                12.72.0  (the newest 12.x)
#   phpunit/phpunit                  9.6.38   (the suites' PHPUnit, as Debian's 9.6)
#
# The Composer registry serves no symfony/semaphore: it is taken from the
# src/Symfony/Component/Semaphore of the registry's symfony/symfony dist of the
# same version (the code the split package is made of), installed through a
# Composer path repository. Symfony's own store tests of symfony/lock come
# partly with its dist (Test/AbstractStoreTestCase.php, 7.4.23); the traits
# (Tests/Store/{Blocking,Expiring,SharedLock}StoreTestTrait.php) are left out
# of every dist and the registry gives no source: they are taken from Debian's
# source of Symfony 5.4.53 (the newest Debian's archive serves), whose test
# bodies are those of 7.x (7.x changed only the return types of their abstract
# methods). DIR/symfony-lock-tests holds them, autoloaded as
# Symfony\Component\Lock\Tests\.
#
# The cache is $REDISLOCK_CACHE_DIR (default ~/.cache/redislock), one directory
# per set of versions (a hash of them); an interrupted install starts again;
# two runs at once wait for each other (flock). Installs Composer (Debian's)
# when missing. Runs without input; needs the registry and Debian's archive.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

symfony=7.4.23
laravel=12.72.0
phpunit=9.6.38
# Debian's source of Symfony carrying symfony/lock's store test traits.
tests_tarball=symfony_5.4.53+dfsg.orig.tar.xz
tests_sha256=515820883adad6d72924de6414d2f51f8a4eea5d95d836075c89abd4ae6471f1
tests_url=http://deb.debian.org/debian/pool/main/s/symfony/$tests_tarball

key=$(printf '%s\n' "$symfony" "$laravel" "$phpunit" "$tests_sha256" | sha256sum | cut -c1-10)
cache=${REDISLOCK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/redislock}
dir="$cache/frameworks-$key"
mkdir -p "$cache"

. scripts/build/install-packages.sh
command -v composer >/dev/null || install_packages frameworks composer >&2
install_packages frameworks curl xz-utils unzip >&2

exec 9>"$cache/frameworks.lock"
flock 9
if [ -f "$dir/.complete" ]; then
    echo "$dir"
    exit 0
fi
start=$SECONDS
rm -rf "$dir"
mkdir -p "$dir"
export COMPOSER_NO_INTERACTION=1 COMPOSER_NO_AUDIT=1 COMPOSER_FUND=0

echo "frameworks: symfony/semaphore $symfony from the symfony/symfony dist" >&2
composer create-project -q --no-install --no-scripts --no-progress \
    symfony/symfony "$dir/symfony" "v$symfony" >&2
mv "$dir/symfony/src/Symfony/Component/Semaphore" "$dir/semaphore"
rm -rf "$dir/symfony"

echo "frameworks: symfony/lock's store test traits from Debian's $tests_tarball" >&2
curl -fsSL --retry 3 -o "$dir/$tests_tarball" "$tests_url"
echo "$tests_sha256  $dir/$tests_tarball" | sha256sum -c --quiet - >&2
mkdir -p "$dir/symfony-lock-tests/Store"
tar -xJf "$dir/$tests_tarball" -C "$dir/symfony-lock-tests/Store" --strip-components=7 \
    --wildcards '*/src/Symfony/Component/Lock/Tests/Store/*StoreTestTrait.php'
rm "$dir/$tests_tarball"

cat >"$dir/composer.json" <<EOF
{
    "require": {
        "laravel/framework": "$laravel",
        "phpunit/phpunit": "$phpunit",
        "symfony/lock": "$symfony",
        "symfony/semaphore": "$symfony"
    },
    "repositories": [
        {"type": "path", "url": "semaphore", "options": {"symlink": false, "versions": {"symfony/semaphore": "$symfony"}}}
    ],
    "autoload": {"psr-4": {"Symfony\\\\Component\\\\Lock\\\\Tests\\\\": "symfony-lock-tests/"}},
    "config": {"lock": false, "platform-check": false, "allow-plugins": false}
}
EOF
echo "frameworks: composer install (symfony/lock $symfony, laravel/framework $laravel, phpunit $phpunit)" >&2
composer --working-dir="$dir" update -q --no-progress --no-scripts >&2
touch "$dir/.complete"
echo "frameworks: installed in $((SECONDS - start)) s into $dir" >&2
echo "$dir"

# bench/prepare.sh: sourced by bench/run.sh and bench/compare.sh (from the
# repository's top) once they know which benchmarks run.
#
#   bench_prepare NAME...   installs the frameworks' rate limiters when
#                           ratelimit is among the names (Debian's packages,
#                           for context), builds bench/quorum.php's ceiling
#                           (bench/fanout.c: a C client with no lock logic)
#                           and exports its path; leaves phpredis's php flags
#                           in the array phpredis.
bench_prepare() {
    if [[ " $* " == *" ratelimit "* ]]; then
        . scripts/build/install-packages.sh
        install_packages bench php-laravel-framework php-symfony-rate-limiter php-symfony-cache php8.2-mbstring
    fi
    if [[ " $* " == *" semaphore "* ]]; then
        . scripts/build/install-packages.sh
        install_packages bench php-symfony-semaphore
    fi
    mkdir -p bench/.bin
    cc -O2 -Wall -Wextra -Werror -o bench/.bin/fanout bench/fanout.c
    export REDISLOCK_BENCH_FANOUT="$PWD/bench/.bin/fanout"
    read -ra phpredis <<<"$(bash scripts/dev/phpredis-flags.sh)"
}

#!/usr/bin/env bash
# scripts/test.sh [--memcheck | --asan] [TEST...]
#
# Sets up the machine (scripts/build/setup.sh), starts a redis-server on loopback,
# runs the phpt suite (or the given tests) against the freshly built
# extension, with the framework adapters' phpunit suites (bridge/tests/phpt:
# a phpt each, so they count in the summary and run in every pass), and
# ends with the line
#     phpt: N passed, N failed, N skipped
# --memcheck runs every test under valgrind (USE_ZEND_ALLOC=0): a leak or an
# invalid access fails the test. --asan runs every test against the
# extension built with AddressSanitizer and UBSan (scripts/build/setup.sh --asan,
# out of the tree): a report of either from any PHP process of the test (its
# forks, its php-fpm workers), or a leak other than PHP's own, fails the test.
# REDISLOCK_FRAMEWORKS=current runs the adapters' suites against the current
# Symfony and Laravel (scripts/build/frameworks.sh installs them, cached)
# instead of Debian's packages: e.g.
#     REDISLOCK_FRAMEWORKS=current bash scripts/test.sh bridge/tests/phpt
# REDISLOCK_PHP=nts or REDISLOCK_PHP=zts runs the suite on PHP 8.4's debug
# build of that kind instead of Debian's php (scripts/build/php-src.sh,
# cached; the extension built with its phpize by scripts/build/setup.sh
# --php=nts|zts, in .run/php-nts or .run/php-zts): every PHP process of a test
# (its php children, php-fpm, the adapters' phpunit suites) is that PHP, and
# a leak or an assertion failure it reports fails the test.
# REDISLOCK_SERVER=valkey or redis8 runs it all against Valkey 9 or Redis 8
# built from source (scripts/build/server-src.sh): their bin/ goes first in
# PATH, so the suite's server, the private servers, the Sentinels and the
# cluster tests all use it (default: Debian's redis-server).
# REDISLOCK_NO_BUILD=1 skips setup and build. REDISLOCK_TEST_ARGS adds
# options of run-tests.php's own (e.g. "--show-slow 5000" names the tests
# that took longer than 5 s).
# Exits non-zero on any failure, on any skip,
# or when no test ran.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

memcheck=""
asan=""
if [ "${1:-}" = "--memcheck" ]; then
    memcheck="-m"
    shift
elif [ "${1:-}" = "--asan" ]; then
    asan="$PWD/.run/asan"
    shift
fi
php_kind=${REDISLOCK_PHP:-}
case "$php_kind" in
    "" | nts | zts) ;;
    *) echo "scripts/test.sh: REDISLOCK_PHP is nts, zts or unset (Debian's php), not '$php_kind'" >&2; exit 2 ;;
esac
if [ -n "$php_kind" ] && [ -n "$asan" ]; then
    echo "scripts/test.sh: --asan runs Debian's php; REDISLOCK_PHP=$php_kind cannot go with it" >&2
    exit 2
fi
tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
    tests=(tests)
    [ -d bridge/tests/phpt ] && tests+=(bridge/tests/phpt) # not in the PECL package
fi

# REDISLOCK_NO_BUILD=1 runs against the module already built.
[ "${REDISLOCK_NO_BUILD:-0}" = 1 ] || bash scripts/build/setup.sh ${asan:+--asan} ${php_kind:+--php=$php_kind}
case "${REDISLOCK_FRAMEWORKS:-debian}" in
    debian) unset REDISLOCK_BRIDGE_VENDOR ;;
    current) REDISLOCK_BRIDGE_VENDOR="$(bash scripts/build/frameworks.sh)/vendor"; export REDISLOCK_BRIDGE_VENDOR ;;
    *) echo "REDISLOCK_FRAMEWORKS: debian or current, not '$REDISLOCK_FRAMEWORKS'" >&2; exit 2 ;;
esac
if [ -n "$memcheck" ]; then
    . scripts/build/install-packages.sh
    install_packages test valgrind
fi
case "${REDISLOCK_SERVER:-}" in
    "" | debian) ;;
    valkey | redis8) PATH="$(bash scripts/build/server-src.sh "$REDISLOCK_SERVER")/bin:$PATH"; export PATH ;;
    *) echo "test: REDISLOCK_SERVER must be valkey, redis8 or debian" >&2; exit 2 ;;
esac
echo "test: server $(redis-server --version)"
module="$PWD/modules/redislock.so"
runtests=run-tests.php
if [ -n "$asan" ]; then
    module="$asan/build/modules/redislock.so"
    runtests="$asan/build/run-tests.php"
fi
php=$(command -v php)
# Loaded by -d where it is a module of its own (Debian's), built in elsewhere.
posix=(-d extension=posix)
include_path=()
if [ -n "$php_kind" ]; then
    build="$PWD/.run/php-$php_kind"
    [ -f "$build/prefix" ] || bash scripts/build/setup.sh --php="$php_kind"
    php="$(cat "$build/prefix")/bin/php"
    module="$build/build/modules/redislock.so"
    runtests="$build/build/run-tests.php"
    "$php" -n -r 'exit(extension_loaded("posix") ? 0 : 1);' && posix=()
    # Debian's PHPUnit and frameworks, for the adapters' suites.
    include_path=(-d include_path=.:/usr/share/php)
    echo "test.sh: $("$php" -n -r 'echo "PHP ", PHP_VERSION, PHP_ZTS ? " ZTS" : " NTS", PHP_DEBUG ? " debug" : "", " (", PHP_BINARY, ")";')"
fi

rundir="$PWD/.run/test$$"
mkdir -p "$rundir"
port=$(php -n -r '$s = stream_socket_server("tcp://127.0.0.1:0"); $n = stream_socket_get_name($s, false); echo substr($n, strrpos($n, ":") + 1);')
redis-server --port "$port" --bind 127.0.0.1 --unixsocket "$rundir/redis.sock" --unixsocketperm 700 \
    --save '' --appendonly no --dir "$rundir" --daemonize yes --pidfile "$rundir/redis.pid" \
    --logfile "$rundir/redis.log"
cleanup() {
    local pid=""
    [ -f "$rundir/redis.pid" ] && pid=$(cat "$rundir/redis.pid") && kill "$pid" 2>/dev/null || true
    # private servers, Sentinels and ZooKeepers a test left behind (a test killed by a timeout)
    for f in "$rundir"/srv-*/redis.pid "$rundir"/sentinel-*/sentinel.pid "$rundir"/zk-*/zk.pid; do
        [ -f "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null || true
    done
    # The server writes its log until it has exited: its directory goes after (5 s at most).
    for _ in $(seq 1 50); do
        [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    rm -rf "$rundir" 2>/dev/null || { sleep 0.5; rm -rf "$rundir"; } || true
}
trap cleanup EXIT
for _ in $(seq 1 200); do
    redis-cli -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.05
done
redis-cli -p "$port" ping >/dev/null

export REDISLOCK_TEST_HOST=127.0.0.1
export REDISLOCK_TEST_PORT="$port"
export REDISLOCK_TEST_SOCKET="$rundir/redis.sock"
export REDISLOCK_TEST_RUNDIR="$rundir"
export NO_INTERACTION=1
export TEST_PHP_EXECUTABLE
TEST_PHP_EXECUTABLE=$php
jit=()
if [ -n "$memcheck" ]; then
    export USE_ZEND_ALLOC=0 ZEND_DONT_UNLOAD_MODULES=1
    # PCRE's JIT allocates in ways valgrind reports as leaks of PHP itself.
    jit=(-d pcre.jit=0)
    # Only PHP is under test: the servers and tools the tests start are not.
    export VALGRIND_OPTS="--trace-children-skip=*redis-server*,*redis-cli*,*php-fpm*,*cgi-fcgi*,*/java,*/sh,*/bash,*/kill"
fi
if [ -n "$asan" ]; then
    # Tests run php through this wrapper. It preloads the shim setup.sh
    # --asan builds (its dlopen() drops the RTLD_DEEPBIND the ASan runtime
    # refuses) and after it the ASan runtime, hence verify_asan_link_order=0.
    # Every process of the test (forks, php children, php-fpm and its
    # workers) inherits that and writes its reports into a directory of this
    # run of php; the wrapper then prints them, so that the test's output no
    # longer matches, and fails. A leak counts only when the extension
    # allocated a directly leaked block (a frame of its build in the stack):
    # PHP itself leaks at exit after exit(), a fatal error or with an object
    # cycle, and php-fpm its pool settings, in stacks without the symbols a
    # suppression could name. Hence exitcode=0 (leaks alone leave the exit
    # status to PHP; tests check it) and abort_on_error=1 (an error still ends
    # the process). USE_ZEND_ALLOC=0 hands every emalloc() to ASan, and
    # ZEND_DONT_UNLOAD_MODULES=1 keeps the extension mapped at exit for the
    # leak check (the shim sets how stacks are unwound).
    {
        echo '#!/usr/bin/env bash'
        printf 'preload=%q\nbuild=%q\nphp=%q\n' "$asan/asanshim.so $(readlink -f "$(gcc -print-file-name=libasan.so)")" \
            "$asan/build/" "$php"
        cat <<'EOF'
logs=$(mktemp -d "${0%/*}/asan.XXXXXX")
export USE_ZEND_ALLOC=0 ZEND_DONT_UNLOAD_MODULES=1
export ASAN_OPTIONS="verify_asan_link_order=0:exitcode=0:abort_on_error=1:log_path=$logs/asan:log_exe_name=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path=$logs/ubsan:log_exe_name=1"
LD_PRELOAD="$preload" "$php" "$@"
rc=$?
for f in "$logs"/*; do
    [ -f "$f" ] || continue
    # LSan's note in a child forked from a process with threads (the
    # ZooKeeper client's, which do not exist in the child): not a finding.
    if ! grep -qv 'Running thread [0-9]* was not suspended\. False leaks are possible\.$' "$f"; then
        continue
    fi
    # In a process forked from one where the ZooKeeper client's threads ran
    # (LSan's note above is in its report), a block the client library
    # allocated itself (frame #1 in the library) may be referenced only from
    # the stack of one of those threads, which does not exist in the child
    # and is not scanned: the request record the parent's completion thread
    # had taken off its queue, to call its completion and free it, at the
    # moment of fork(). The child cannot free it (nothing it can reach points
    # to it) nor close the inherited handle (that would end the parent's
    # session over the shared socket and join threads that are not there).
    # In any other process such a block is a leak like any other.
    forked=0
    grep -q 'Running thread [0-9]* was not suspended' "$f" && forked=1
    if grep -q 'ERROR: LeakSanitizer' "$f" && ! awk -v build="$build" -v forked="$forked" '
        /^Direct leak/ { direct = 1; library = 0 } /^(Indirect leak|SUMMARY)/ { direct = 0 }
        forked && direct && /^ *#1 / && /libzookeeper_mt/ { library = 1 }
        direct && !library && (index($0, build) || /redislock\.so\+0x/) { found = 1 } END { exit !found }' "$f"; then
        continue # PHP's own
    fi
    echo "== ${f##*/}" >&2
    cat "$f" >&2
    rc=1
done
rm -rf "$logs"
exit $rc
EOF
    } > "$rundir/php"
    chmod +x "$rundir/php"
    TEST_PHP_EXECUTABLE="$rundir/php"
fi

# run-tests.php retries a test whose output looks like a timeout, and keeps
# only the retry's output: a copy of it records the first attempt's output
# in $rundir/retried.log, printed below, so that a flaky test can be looked
# into. (The copy is run-tests.php itself where its retry is not found.)
sed 's|^\( *\)\$retried = true;$|\1$retried = true; file_put_contents(getenv("REDISLOCK_RETRY_LOG"), "== $shortname, first attempt:\\n$output\\n", FILE_APPEND);|' \
    "$runtests" > "$rundir/run-tests.php"
export REDISLOCK_RETRY_LOG="$rundir/retried.log"
log="$rundir/run-tests.log"
set +e
read -ra extra <<<"${REDISLOCK_TEST_ARGS:-}"
php -n "$rundir/run-tests.php" -n $memcheck -q --show-diff --no-color --no-progress "${extra[@]}" \
    -d "extension=$module" "${posix[@]}" "${include_path[@]}" "${jit[@]}" \
    "${tests[@]}" 2>&1 | tee "$log"
set -e

# run-tests.php's own summary; a leak or a borked test counts as a failure.
summary() {
    local v
    v=$(sed -n "s/^Tests $1 *: *\([0-9]*\).*/\1/p" "$log" | tail -1)
    echo "${v:-0}"
}
# A test that failed and then passed when run-tests.php retried it (its
# output looked like a timeout) is "warned": it counts as passed, and is
# named above in the WARNED TEST SUMMARY.
retried=$(summary warned)
passed=$(( $(summary passed) + retried ))
skipped=$(summary skipped)
failed=$(( $(summary failed) + $(summary borked) + $(summary leaked) ))
if ! grep -q '^Tests passed' "$log"; then
    failed=$((failed + 1)) # run-tests.php itself failed
fi
if [ "$retried" -ne 0 ]; then
    echo "phpt: $retried of the passed passed on a retry (see WARNED TEST SUMMARY); their first attempts:"
    cat "$rundir/retried.log" 2>/dev/null || true
fi
echo "phpt: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$skipped" -eq 0 ] && [ "$passed" -gt 0 ]

#!/usr/bin/env bash
# scripts/check/threads.sh: the extension under threads. Builds PHP 8.4 ZTS
# (debug, with the embed SAPI; cached by scripts/build/php-src.sh), the
# extension against it out of the tree (.run/zts/build, and a ThreadSanitizer
# build in .run/zts/tsan), and tests/threads/harness.c against its libphp;
# starts its own redis-servers on loopback (plain, TLS with certificates made
# here, three more for a quorum), then runs tests/threads/work.php on
# RL_THREADS threads at once, RL_REQUESTS requests each, in RL_PROCS fresh
# processes, each process ending with tests/threads/check.php (exact sums: no
# lost update, the rate limiter's limit kept). Last, one process of the
# ThreadSanitizer build: any report with a frame in redislock.so fails.
#
# Exits non-zero on any failure and prints one summary line. Bounded: each
# process has 120 s (timeout), a few minutes in all.
#   RL_PROCS (100), RL_THREADS (4), RL_REQUESTS (3), RL_ITER (4): the sizes.
#   REDISLOCK_THREADS_SRC=DIR: build the extension from DIR's sources instead
#   (another checkout, to see the harness catch what it should).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$PWD
procs=${RL_PROCS:-100}
export RL_THREADS=${RL_THREADS:-4} RL_REQUESTS=${RL_REQUESTS:-3} RL_ITER=${RL_ITER:-4}
src=${REDISLOCK_THREADS_SRC:-$root}
out=$root/.run/zts

prefix=$(bash scripts/build/php-src.sh zts)
php_config=$prefix/bin/php-config
configure_args=(--enable-redislock --with-php-config="$php_config")
dpkg -s libzookeeper-mt-dev >/dev/null 2>&1 && configure_args+=(--with-zookeeper) # built, not run here

# The extension from src, in out/NAME, with CFLAGS.
build_ext() {
    local dir=$out/$1 cflags=$2
    rm -rf "$dir"
    mkdir -p "$dir/lua" "$dir/scripts/build"
    (cd "$src" && cp redislock.c php_redislock.h config.m4 Makefile.frag "$dir/" &&
        find src \( -name '*.c' -o -name '*.h' \) -exec cp --parents {} "$dir/" \; &&
        cp lua/*.lua "$dir/lua/" && cp scripts/build/lua2c.sh "$dir/scripts/build/")
    (
        cd "$dir"
        "$prefix/bin/phpize" >/dev/null 2>&1
        CFLAGS="$cflags" LDFLAGS="${cflags//-O1/}" ./configure "${configure_args[@]}" >/dev/null
        make -j"$(nproc)" >/dev/null 2>"$dir/make.err" || { cat "$dir/make.err" >&2; exit 1; }
    )
    test -f "$dir/modules/redislock.so"
}

echo "threads: building the extension against $prefix" >&2
build_ext build "-g -O2"
build_ext tsan "-g -O1 -fsanitize=thread"
read -ra includes <<<"$("$php_config" --includes)"
harness_cc=(gcc -g -O1 -Wall -Wextra -Werror -Wno-unused-parameter "${includes[@]}" tests/threads/harness.c
    -L"$prefix/lib" -Wl,-rpath,"$prefix/lib" -lphp -pthread)
"${harness_cc[@]}" -o "$out/harness"
"${harness_cc[@]}" -fsanitize=thread -o "$out/harness-tsan"

. scripts/dev/redis-servers.sh
run_redis_servers zts-servers 4
tls=$REDIS_RUNDIR/tls
mkdir -p "$tls" "$REDIS_RUNDIR/srv-tls"
(
    cd "$tls"
    openssl ecparam -name prime256v1 -genkey -noout -out ca.key
    openssl req -x509 -new -key ca.key -days 2 -subj /CN=redislock-threads-ca -out ca.pem
    openssl ecparam -name prime256v1 -genkey -noout -out server.key
    openssl req -new -key server.key -subj /CN=localhost -out server.csr
    echo 'subjectAltName=DNS:localhost,IP:127.0.0.1' >server.ext
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile server.ext \
        -out server.pem
) >/dev/null 2>&1
tls_port=$(free_ports 1)
redis-server --port 0 --tls-port "$tls_port" --bind 127.0.0.1 --tls-cert-file "$tls/server.pem" \
    --tls-key-file "$tls/server.key" --tls-ca-cert-file "$tls/ca.pem" --tls-auth-clients no --save '' \
    --appendonly no --dir "$REDIS_RUNDIR/srv-tls" --daemonize yes --pidfile "$REDIS_RUNDIR/srv-tls/redis.pid" \
    --logfile "$REDIS_RUNDIR/srv-tls/redis.log"
for i in $(seq 1 100); do
    redis-cli --tls --cacert "$tls/ca.pem" -p "$tls_port" ping >/dev/null 2>&1 && break
    sleep 0.05
done
p=("${REDIS_PORTS[@]}")
export RL_TCP="redis://127.0.0.1:${p[0]}" RL_TLS="rediss://127.0.0.1:$tls_port" RL_TLS_CA="$tls/ca.pem"
export RL_QUORUM="redis://127.0.0.1:${p[1]},redis://127.0.0.1:${p[2]},redis://127.0.0.1:${p[3]}"

# A php.ini for each build of the extension.
for b in build tsan; do
    printf 'extension=%s\nredislock.persistent=1\n' "$out/$b/modules/redislock.so" >"$out/$b.ini"
done

logs=$REDIS_RUNDIR/logs
mkdir -p "$logs"
ok=0 crashed=0 failed=0
for i in $(seq 1 "$procs"); do
    rc=0
    RL_HARNESS_INI=$out/build.ini timeout -s KILL 120 "$out/harness" "$RL_THREADS" "$RL_REQUESTS" \
        tests/threads/work.php tests/threads/check.php >"$logs/$i.out" 2>&1 || rc=$?
    if [ "$rc" = 0 ]; then
        ok=$((ok + 1))
    elif [ "$rc" -ge 128 ]; then
        crashed=$((crashed + 1))
        echo "threads: process $i died of signal $((rc - 128)):" >&2
        tail -5 "$logs/$i.out" >&2
    else
        failed=$((failed + 1))
        echo "threads: process $i exited $rc:" >&2
        grep -v '^check: ' "$logs/$i.out" | tail -5 >&2
    fi
done

# ThreadSanitizer: one process. Only the extension and the harness are
# instrumented (PHP and the libraries are not, so nothing of theirs is
# reported); a report counts when one of its frames is in redislock.so,
# less the races inside OpenSSL that tests/threads/tsan.supp names (its own
# locking is not instrumented).
rc=0
TSAN_OPTIONS="halt_on_error=0 exitcode=0 log_path=$logs/tsan report_signal_unsafe=0 suppressions=$PWD/tests/threads/tsan.supp" \
    RL_REQUESTS=2 RL_HARNESS_INI=$out/tsan.ini timeout -s KILL 300 "$out/harness-tsan" "$RL_THREADS" 2 \
    tests/threads/work.php tests/threads/check.php >"$logs/tsan.out" 2>&1 || rc=$?
races=$( (cat "$logs"/tsan.* 2>/dev/null || true) | awk '/^WARNING: ThreadSanitizer/ { n++; mine[n] = 0 } /redislock\.so/ { mine[n] = 1 }
    END { c = 0; for (i in mine) c += mine[i]; print c }')
if [ "$races" != 0 ]; then
    (grep -h -A30 '^WARNING: ThreadSanitizer' "$logs"/tsan.* || true) | head -80 >&2 || true
fi
[ "$rc" = 0 ] || echo "threads: the ThreadSanitizer process exited $rc" >&2
tsan_rc=$rc
rm -rf "$out/last"
if [ "$ok" != "$procs" ] || [ "$races" != 0 ] || [ "$tsan_rc" != 0 ]; then
    cp -r "$logs" "$out/last" # kept for a look: the servers' directory goes at exit
fi

summary="threads: $ok of $procs processes passed ($RL_THREADS threads x $RL_REQUESTS requests, plain/TLS/quorum locks, rate limiter, atomics), $crashed crashed, $failed failed; ThreadSanitizer: $races reports in redislock"
echo "$summary"
[ "$ok" = "$procs" ] && [ "$races" = 0 ] && [ "$tsan_rc" = 0 ]

#!/usr/bin/env bash
# scripts/check/fuzz.sh [SECONDS]
#
# Builds the libFuzzer targets in fuzz/ (clang, ASan, UBSan) under
# .run/fuzz/, never in the source tree, and runs both at once, each for
# SECONDS (default 60), over a fresh copy of its committed seed corpus
# (fuzz/corpus/NAME/, which never grows). Prints one line per target:
#     fuzz: dsn: ok, 1234567 runs in 60 s, coverage 357, 409 inputs
# Exits non-zero when a target finds a crash, a leak, undefined behaviour or
# a broken invariant; the input is then in .run/fuzz/NAME/artifacts/ (replay
# it with .run/fuzz/bin/fuzz_NAME FILE) and the log in .run/fuzz/NAME/log.
#
# fuzz_dsn links src/config/dsn.c (with servers.c) against Debian's PHP embed library
# (libphp8.2.so) for Zend's allocator and smart_str; fuzz_reply links
# src/client/reply.c against hiredis only.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

seconds=${1:-60}
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: scripts/check/fuzz.sh [SECONDS]" >&2
    exit 2
fi

packages=(
    clang-14 libclang-rt-14-dev   # the compiler, libFuzzer and the sanitizers' runtimes
    php8.2-dev libphp8.2-embed    # PHP's headers and php-config; PHP as a library
    libhiredis-dev                # the Redis client library the reply path builds on
)
. scripts/build/install-packages.sh
install_packages fuzz "${packages[@]}"

out=.run/fuzz
rm -rf "$out"
mkdir -p "$out/bin"

echo "fuzz: building in $out/bin"
# shellcheck disable=SC2054 # the commas are -fsanitize's list, not array elements
cflags=(-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
    -Wall -Wextra -Wno-unused-parameter -I. -Isrc)
read -r -a php_includes <<<"$(php-config --includes)"
clang-14 "${cflags[@]}" "${php_includes[@]}" fuzz/fuzz_dsn.c src/config/dsn.c src/config/servers.c -lphp8.2 -o "$out/bin/fuzz_dsn"
clang-14 "${cflags[@]}" fuzz/fuzz_reply.c src/client/reply.c -lhiredis -o "$out/bin/fuzz_reply"

export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# run NAME MAX_LEN: fuzzes one target in the background.
pids=()
run() {
    local name=$1 max_len=$2 dir="$out/$1"
    mkdir -p "$dir/corpus" "$dir/artifacts"
    cp fuzz/corpus/"$name"/* "$dir/corpus/"
    timeout --kill-after=10 $((seconds + 60)) "$out/bin/fuzz_$name" \
        -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -dict="fuzz/$name.dict" -artifact_prefix="$dir/artifacts/" \
        "$dir/corpus" >"$dir/log" 2>&1 &
    pids+=($!)
}

echo "fuzz: running each target for ${seconds} s"
run dsn 2048
run reply 4096

failed=0
i=0
for name in dsn reply; do
    dir="$out/$name"
    rc=0
    wait "${pids[$i]}" || rc=$?
    i=$((i + 1))
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log")
    cov=$(grep -a -o 'DONE *cov: [0-9]*' "$dir/log" | grep -o '[0-9]*$' || true)
    inputs=$(find "$dir/corpus" -type f | wc -l)
    # a sanitizer report fails the run even if the exit status did not say so
    if [ "$rc" -eq 0 ] && ! grep -a -q -E '^(==[0-9]+==ERROR|SUMMARY: )|runtime error:' "$dir/log"; then
        echo "fuzz: $name: ok, ${runs:-?} runs in ${seconds} s, coverage ${cov:-?}, $inputs inputs"
        continue
    fi
    failed=1
    why=$(grep -a -m1 -E '^fuzz_[a-z]+: |runtime error:|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)' "$dir/log" || true)
    echo "fuzz: $name: FAILED (exit $rc) after ${runs:-?} runs: ${why:-see the log}"
    for f in "$dir"/artifacts/*; do
        [ -f "$f" ] && echo "fuzz: $name: input $f (replay: $out/bin/fuzz_$name $f)"
    done
    echo "fuzz: $name: log $dir/log; its end:"
    tail -n 40 "$dir/log" | sed 's/^/    /'
done
exit $failed

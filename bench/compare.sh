#!/usr/bin/env bash
# bench/compare.sh REV [ROUNDS] [BENCH...]
#
# Compares the extension as built from REV (a commit, tag or branch) with the
# one built from the working tree, in the same run: for a change that must
# not make anything slower (a refactoring), or to show what one gains.
#
# Builds REV in .run/compare/REV (a git worktree of its own, kept for the
# next run) and the working tree (scripts/build/setup.sh; REDISLOCK_NO_BUILD=1
# skips that), starts seven private redis-server processes, then runs each
# benchmark (default: single quorum ratelimit atomic tls; any of
# bench/run.sh's but contention and frozen) ROUNDS times (default 5) with each
# build, the two builds taking turns (which one goes first alternates), one
# round of REDISLOCK_BENCH_ROUND_MS (default 2000) each time. Every figure it
# compares is a ratio a benchmark prints against its baseline measured in the
# same process (phpredis doing the same work, or the same client on fewer
# servers), so that load from elsewhere on the machine cancels out. Prints,
# for each ratio, the median and the range over the rounds for REV and for
# the working tree, and their quotient (1.00: the same).
#
# Then the client's CPU per uncontended acquire + release, in instructions
# counted by callgrind for both builds (bench/callgrind.sh's method; not
# noisy, so one run each).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

rev=${1:?usage: bench/compare.sh REV [ROUNDS] [BENCH...]}
shift
rounds=5
if [[ ${1:-} =~ ^[1-9][0-9]*$ ]]; then
    rounds=$1
    shift
fi
benches=("$@")
[ ${#benches[@]} -gt 0 ] || benches=(single quorum ratelimit atomic tls)
for b in "${benches[@]}"; do
    case "$b" in contention | frozen) echo "bench/compare.sh: $b prints no ratio to compare" >&2; exit 2 ;; esac
    [ -f "bench/$b.php" ] || { echo "bench/compare.sh: no benchmark named $b" >&2; exit 2; }
done

[ "${REDISLOCK_NO_BUILD:-0}" = 1 ] || bash scripts/build/setup.sh --bench
commit=$(git rev-parse --verify "$rev^{commit}")
old="$PWD/.run/compare/${commit:0:12}"
if [ ! -f "$old/modules/redislock.so" ]; then
    rm -rf "$old"
    git worktree prune
    git worktree add --detach "$old" "$commit" >/dev/null
    setup=scripts/build/setup.sh
    [ -f "$old/$setup" ] || setup=scripts/setup.sh # the layout before src/
    (cd "$old" && bash "$setup") | sed 's/^/compare: building '"$rev"': /'
fi
modules=("$old/modules/redislock.so" "$PWD/modules/redislock.so")
labels=("$rev" "working tree")

. bench/prepare.sh
bench_prepare "${benches[@]}"

. scripts/dev/redis-servers.sh
run_redis_servers compare 7
REDISLOCK_BENCH_PORTS=$(IFS=,; echo "${REDIS_PORTS[*]}")
export REDISLOCK_BENCH_PORTS REDISLOCK_BENCH_ROUNDS=1

out="$REDIS_RUNDIR/ratios"
: > "$out"
echo "machine: $(nproc) CPUs, $(uname -sr); $rounds rounds of each benchmark with each build, taking turns"
for r in $(seq 1 "$rounds"); do
    for b in "${benches[@]}"; do
        for k in 0 1; do
            i=$(( (k + r) % 2 ))
            # Every ratio line (bench_ratio()): "  LABEL   RATIO[  (target ...)]".
            php -n "${phpredis[@]}" -d "extension=${modules[$i]}" -d extension=mbstring "bench/$b.php" 2>&1 |
                sed -n '/^ratios/,$p' |
                sed -n 's/^  \([^ ].*[^ ]\) \{1,\}\([0-9][0-9]*\.[0-9][0-9]\)\(  (target .*)\)\{0,1\}$/\1\t\2/p' |
                while IFS=$'\t' read -r label ratio; do
                    printf '%s\t%s\t%s\n' "$b: $label" "$i" "$ratio"
                done >> "$out"
        done
    done
    echo "compare: round $r of $rounds done"
done

php -n -r '
    $rows = [];
    foreach (file($argv[1], FILE_IGNORE_NEW_LINES) as $line) {
        [$label, $i, $ratio] = explode("\t", $line);
        $rows[$label][(int) $i][] = (float) $ratio;
    }
    $median = function (array $v) { sort($v); $n = count($v);
        return $n % 2 ? $v[intdiv($n, 2)] : ($v[$n / 2 - 1] + $v[$n / 2]) / 2; };
    $cell = fn(array $v) => sprintf("%5.2f (%4.2f-%4.2f)", $median($v), min($v), max($v));
    printf("\n%-58s %-20s %-20s %s\n", "ratio (median of rounds, range)", $argv[2], $argv[3], "quotient");
    foreach ($rows as $label => $by) {
        if (!isset($by[0], $by[1])) { continue; }
        printf("%-58s %-20s %-20s %5.2f\n", $label, $cell($by[0]), $cell($by[1]), $median($by[1]) / $median($by[0]));
    }' "$out" "${labels[0]}" "${labels[1]}"

# The client CPU of one uncontended acquire + release, for each build.
port=${REDIS_PORTS[0]}
instructions() {
    local module=$1 variant=$2 n=$3 f="$REDIS_RUNDIR/callgrind.$RANDOM"
    valgrind --tool=callgrind --callgrind-out-file="$f" -q php -n "${phpredis[@]}" -d "extension=$module" \
        bench/callgrind_cycle.php "$variant" "$n" "$port"
    sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$f"
}
echo
echo "client instructions per uncontended acquire + release (callgrind, 2000 cycles minus 0)"
for v in reused new semaphore; do
    line="  $v:"
    for i in 0 1; do
        per=$(( ($(instructions "${modules[$i]}" "$v" 2000) - $(instructions "${modules[$i]}" "$v" 0)) / 2000 ))
        line+=" ${labels[$i]} $per,"
    done
    echo "${line%,}"
done

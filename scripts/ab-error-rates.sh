#!/bin/sh
# ab-error-rates.sh BUILD_DIR [RUNS]
#
# chronoscope-ab's error rates, measured on the machine it runs on, with the
# 20-entry suite examples/ab_suite.c (meson builds it and its variants):
#   same      the same module loaded twice (two copies of one file)
#   moved     two builds of one source, one with an unrelated function added
#   slow1/3/10  a planted 1%, 3%, 10% slowdown in five entries
#   same-t1, slow1-t1   same and slow1 again with --threshold=1 (1% sensitivity)
# Each pair runs RUNS times (default 10) with chronoscope-ab's defaults; the
# script prints, per pair, how many entry-runs were called slower / faster /
# inconclusive (planted entries and the others apart), the inconclusive share,
# the gate's wall time (median and max, and the median a compared entry) and
# the load average around the runs.  With Google Benchmark (libbenchmark and
# its compare.py, python3 with numpy and scipy) the same pairs also run as two
# separate processes with --benchmark_repetitions=9 and go through compare.py
# (U test): called slower there = p < 0.05 and the median more than the same
# threshold slower.  GB_RUNS (default 5) bounds those runs, GB_PAIRS (default
# "same moved slow3") which pairs; GB_RUNS=0 skips them.  PAIRS picks the
# chronoscope-ab pairs (default all seven; none: no pair).  AB_FLAGS adds flags
# to every chronoscope-ab run.  SPREAD_RUNS=N (default 0: none) also runs the
# same module twice N times in single processes (--processes=1) with
# --copies=1 and --copies=4 in turn, and prints for each entry the spread of
# those processes' ratios (interquartile, and the median of their own 95%
# intervals' widths): what loading each module 4 times a process buys.  Not a test: it takes the machine for minutes
# (10-25 s a chronoscope-ab run of 20 entries, ~1 min a Google Benchmark pair,
# at load 5-15 on a 2-vCPU VM).
set -u
if [ $# -lt 1 ]; then echo "usage: $0 BUILD_DIR [RUNS]" >&2; exit 2; fi
build=$(cd "$1" && pwd) || exit 2
runs=${2:-10}
src=$(cd "$(dirname "$0")/.." && pwd)
tool=$build/tools/chronoscope-ab
ex=$build/examples
for f in "$tool" "$ex/ab_suite.so" "$ex/ab_suite_moved.so" "$ex/ab_suite_slow1.so" "$ex/ab_suite_slow3.so" "$ex/ab_suite_slow10.so"; do
    [ -e "$f" ] || { echo "$0: $f is missing (meson compile -C $1)" >&2; exit 2; }
done
out=$(mktemp -d "${TMPDIR:-/tmp}/ab-rates.XXXXXX") || exit 2
trap 'rm -rf "$out"' EXIT
cp "$ex/ab_suite.so" "$out/base.so" && cp "$ex/ab_suite.so" "$out/same.so" || exit 2   # two files: two copies
pair_head() {
    case ${1%-t1} in
        same) echo "$out/same.so" ;;
        moved) echo "$ex/ab_suite_moved.so" ;;
        *) echo "$ex/ab_suite_${1%-t1}.so" ;;
    esac
}
pair_flags() {   # a pair's own flags: NAME-t1 runs with --threshold=1
    case $1 in *-t1) echo "--threshold=1" ;; esac
}

echo "# chronoscope-ab $("$tool" --version 2>/dev/null | sed 's/.*chronoscope //;s/)//'), $runs runs a pair, flags: ${AB_FLAGS:-(defaults)}"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
for pair in ${PAIRS:-same moved slow1 slow3 slow10 same-t1 slow1-t1}; do
    [ "$pair" = none ] && continue   # PAIRS=none: the spread alone (SPREAD_RUNS)
    head=$(pair_head $pair)
    r=1
    while [ "$r" -le "$runs" ]; do
        load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo nan)
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086
        "$tool" "$out/base.so" "$head" $(pair_flags $pair) ${AB_FLAGS:-} --format=json --out="$out/$pair-$r.json" \
            >"$out/$pair-$r.txt" 2>"$out/$pair-$r.err"
        rc=$?
        t1=$(date +%s.%N)
        echo "$pair $r $rc $t0 $t1 $load" >>"$out/runs.txt"
        r=$((r + 1))
    done
    echo "# $pair done, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" >&2
done

# Single processes, one placement against four (SPREAD_RUNS)
r=1
while [ "$r" -le "${SPREAD_RUNS:-0}" ]; do
    for k in 1 4; do
        "$tool" "$out/base.so" "$out/same.so" --processes=1 --copies=$k ${AB_FLAGS:-} --format=json \
            --out="$out/spread-c$k-$r.json" >/dev/null 2>&1
    done
    r=$((r + 1))
done
[ "${SPREAD_RUNS:-0}" -gt 0 ] && echo "# spread done, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" >&2

# Google Benchmark: the same pairs, each side its own process, compare.py's U test.
gb_runs=${GB_RUNS:-5}
compare=${COMPARE_PY:-/usr/share/benchmark/compare.py}
gbpy=""
for cand in /usr/bin/python3 python3; do
    if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import numpy, scipy' >/dev/null 2>&1; then gbpy=$cand; break; fi
done
gb=""
if [ "$gb_runs" -gt 0 ] && [ -f "$compare" ] && [ -n "$gbpy" ] &&
   ${CXX:-c++} -O2 -std=c++11 -I"$src/include" "$src/scripts/ab-gbench.cc" -o "$out/ab-gbench" -lbenchmark -lpthread -ldl \
       >"$out/gbench-build.log" 2>&1; then
    gb=$out/ab-gbench
    for pair in ${GB_PAIRS:-same moved slow3}; do
        head=$(pair_head $pair)
        r=1
        while [ "$r" -le "$gb_runs" ]; do
            for side in a b; do
                m=$out/base.so; [ $side = b ] && m=$head
                "$gb" "$m" --benchmark_repetitions=9 --benchmark_min_time=0.05 --benchmark_format=json \
                    >"$out/gb-$pair-$r-$side.json" 2>/dev/null
            done
            "$gbpy" "$compare" -d "$out/gb-$pair-$r.diff.json" benchmarks "$out/gb-$pair-$r-a.json" "$out/gb-$pair-$r-b.json" \
                >/dev/null 2>&1
            r=$((r + 1))
        done
        echo "# google benchmark $pair done, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" >&2
    done
else
    echo "# Google Benchmark side skipped (GB_RUNS=0, or no libbenchmark, compare.py, numpy/scipy)"
fi
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
python3 "$src/scripts/ab_rates.py" "$out" "$runs" "$gb_runs" "${GB_PAIRS:-same moved slow3}" "$([ -n "$gb" ] && echo 1 || echo 0)"

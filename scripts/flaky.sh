#!/bin/sh
# scripts/flaky.sh N [LOAD] — is the test suite one that fails only with a fault?
#
# Clones this repository's HEAD (committed work only) into a temporary folder,
# builds it as the README's first command does (meson setup build; meson
# compile), then runs the README's test command (`meson test -C build`) N times
# and tallies, per test, how often it failed and how often a check in it
# skipped for want of a quiet machine.  LOAD, on the other CPU(s) meanwhile:
#   quiet   nothing (the default)
#   busy    one shell busy loop (like `stress --cpu 1`)
#   build   a compiler build: this project rebuilt from clean with `ninja -j1`
#           over and over, in a second clone
# Environment: FLAKY_MESON_ARGS (extra `meson setup` arguments, e.g.
# -Db_sanitize=address for the ASan leg), FLAKY_TEST_ARGS (extra `meson test`
# arguments, e.g. --wrapper=valgrind), FLAKY_KEEP=1 keeps the folder.
# Prints one line a run and a table at the end; exit 0 when every run passed,
# 1 when one failed, 2 on bad usage or a build that failed.
set -u
n=${1:-}
load=${2:-quiet}
case $n in ''|*[!0-9]*) echo "usage: $0 N [quiet|busy|build] (N: how many suite runs, got '$n')" >&2; exit 2 ;; esac
case $load in quiet|busy|build) ;; *) echo "$0: LOAD must be quiet, busy or build, not '$load'" >&2; exit 2 ;; esac
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/chrono-flaky.XXXXXX") || exit 2
loader='' runner=''
# shellcheck disable=SC2317  # run by the trap
cleanup() {
    [ -n "$runner" ] && kill "$runner" 2>/dev/null && wait "$runner" 2>/dev/null
    if [ -n "$loader" ]; then   # the load's own process and the ninja it waits on, by their ids
        kill "$loader" 2>/dev/null
        pkill -TERM -P "$loader" 2>/dev/null
        wait "$loader" 2>/dev/null
    fi
    if [ "${FLAKY_KEEP:-0}" = 1 ]; then echo "flaky: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 2' INT TERM

git clone -q "$repo" "$work/tree" || exit 2
head=$(git -C "$work/tree" rev-parse --short HEAD)
# shellcheck disable=SC2086
if ! (cd "$work/tree" && meson setup build ${FLAKY_MESON_ARGS:-} >"$work/setup.log" 2>&1 &&
      meson compile -C build >"$work/build.log" 2>&1); then
    echo "flaky: the build failed (log: $work/build.log)" >&2
    tail -20 "$work/setup.log" "$work/build.log" >&2
    FLAKY_KEEP=1
    exit 2
fi

case $load in
busy)  ( trap 'exit 0' TERM; while :; do :; done ) & loader=$! ;;
build) git clone -q "$repo" "$work/load" && (cd "$work/load" && meson setup lb >/dev/null 2>&1) || exit 2
       ( trap 'exit 0' TERM
         while :; do ninja -C "$work/load/lb" -t clean >/dev/null 2>&1; ninja -C "$work/load/lb" -j1 >/dev/null 2>&1; done ) &
       loader=$! ;;
esac

: >"$work/tally"
i=0 failed_runs=0
while [ "$i" -lt "$n" ]; do
    i=$((i + 1))
    t0=$(date +%s)
    # shellcheck disable=SC2086
    (cd "$work/tree" && exec meson test -C build --no-rebuild ${FLAKY_TEST_ARGS:-} >"$work/run$i.log" 2>&1) &
    runner=$!
    wait "$runner"   # in the background, so that a signal ends the script at once
    rc=$?
    runner=
    line=$(python3 - "$work/tree/build/meson-logs/testlog.json" "$work/tally" "$i" <<'EOF'
import json, sys
log, tally, run = sys.argv[1:4]
bad, quiet, counts = [], 0, {}
for ln in open(log):
    t = json.loads(ln)
    counts[t["result"]] = counts.get(t["result"], 0) + 1
    if t["result"] in ("FAIL", "ERROR", "TIMEOUT", "UNEXPECTEDPASS"):
        bad.append(t["name"])
    q = (t.get("stdout") or "").count("# SKIP needs a quiet machine")
    quiet += q
    with open(tally, "a") as f:
        if t["result"] in ("FAIL", "ERROR", "TIMEOUT", "UNEXPECTEDPASS"):
            f.write("fail\t%s\t%s\n" % (t["name"], run))
        if q:
            f.write("quiet\t%s\t%s\n" % (t["name"], run))
print("%s; %d checks skipped for a busy machine%s" % (", ".join("%d %s" % (v, k) for k, v in sorted(counts.items())),
      quiet, "; failed: " + ", ".join(bad) if bad else ""))
EOF
)
    if [ "$rc" -ne 0 ]; then
        failed_runs=$((failed_runs + 1))
        mkdir -p "$work/keep" && cp "$work/tree/build/meson-logs/testlog.txt" "$work/keep/run$i.txt"
    fi
    echo "flaky: run $i of $n ($load, $head): $([ "$rc" -eq 0 ] && echo pass || echo FAIL) in $(( $(date +%s) - t0 )) s," \
         "load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?): $line"
done

echo
echo "flaky: $((n - failed_runs)) of $n runs passed ($load load, commit $head, $(nproc 2>/dev/null || echo ?) CPUs)"
if [ -s "$work/tally" ]; then
    echo "test                                      failed  quiet-skips  (runs)"
    python3 - "$work/tally" <<'EOF'
import sys
rows = {}
for ln in open(sys.argv[1]):
    kind, name, run = ln.rstrip("\n").split("\t")
    r = rows.setdefault(name, {"fail": [], "quiet": []})
    r[kind].append(run)
for name, r in sorted(rows.items()):
    print("%-42s %6d  %11d  (%s)" % (name, len(r["fail"]), len(r["quiet"]), " ".join(r["fail"] or r["quiet"])))
EOF
fi
if [ "$failed_runs" -ne 0 ]; then
    FLAKY_KEEP=1
    echo "flaky: the failing runs' logs are in $work/keep" >&2
    exit 1
fi
exit 0

#!/bin/sh
# test_compare_py.sh PROGRAM [ARGS...] — Google Benchmark's compare.py reads our
# JSON unchanged: PROGRAM runs twice with --format=json (once into --out, once
# to stdout), then `compare.py benchmarks a.json b.json` must exit 0 and print
# a comparison row for every benchmark.
# Exit 0 pass, 1 fail, 77 skip (compare.py or its python modules missing:
# Debian packages libbenchmark-tools, python3-numpy, python3-scipy).
# CHRONO_COMPARE_PY and CHRONO_PYTHON override where they are looked for.
set -u
if [ $# -lt 1 ]; then echo "usage: $0 PROGRAM [ARGS...]" >&2; exit 99; fi
compare=${CHRONO_COMPARE_PY:-/usr/share/benchmark/compare.py}
if [ ! -f "$compare" ]; then echo "SKIP: $compare not found (Debian: libbenchmark-tools)"; exit 77; fi
py=""
for cand in ${CHRONO_PYTHON:-} /usr/bin/python3 python3; do
    if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import numpy, scipy' >/dev/null 2>&1; then py=$cand; break; fi
done
if [ -z "$py" ]; then echo "SKIP: no python3 with numpy and scipy (Debian: python3-numpy python3-scipy)"; exit 77; fi

dir=$(mktemp -d) || exit 99
trap 'rm -rf "$dir"' EXIT
prog=$1
shift
"$prog" "$@" --format=json --out="$dir/a.json" || { echo "FAIL: $prog $* --format=json --out=... exited $?"; exit 1; }
"$prog" "$@" --format=json > "$dir/b.json" || { echo "FAIL: $prog $* --format=json exited $?"; exit 1; }
"$py" "$compare" benchmarks "$dir/a.json" "$dir/b.json" > "$dir/out.txt" 2>&1
rc=$?
cat "$dir/out.txt"
if [ $rc -ne 0 ]; then echo "FAIL: compare.py exited $rc"; exit 1; fi

# Every benchmark (first line of its name) has a row with two times old and new.
"$py" - "$dir/a.json" "$dir/out.txt" <<'PYEOF'
import json, re, sys
names = [b["name"] for b in json.load(open(sys.argv[1], encoding="utf-8"))["benchmarks"]]
out = re.sub(r"\x1b\[[0-9;]*m", "", open(sys.argv[2], encoding="utf-8").read())
rows = [l for l in out.splitlines() if re.search(r"[+-]\d+\.\d{4}\s+[+-]\d+\.\d{4}\s+\d", l)]
# a name holding a newline: compare.py prints it as is, its row starts with the last line
missing = [n for n in names if not any(l.startswith(n.split("\n")[-1].split("\t")[0]) for l in rows)]
if not out.startswith("Comparing ") or not names or len(rows) < len(names) or missing:
    print("FAIL: comparison rows: %d for %d benchmarks; missing %r" % (len(rows), len(names), missing))
    sys.exit(1)
# unique names: compare.py must not take two entries for repetitions of one
if len(set(names)) != len(names) or "Repetitions" in out:
    print("FAIL: duplicate names %r, or compare.py saw repetitions" % sorted({n for n in names if names.count(n) > 1}))
    sys.exit(1)
if not any("bytes_per_second" in b for b in json.load(open(sys.argv[1], encoding="utf-8"))["benchmarks"]):
    print("FAIL: no bytes_per_second in the JSON (quickstart says what its sums process)")
    sys.exit(1)
print("PASS: compare.py compared %d benchmarks" % len(names))
PYEOF

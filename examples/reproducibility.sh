#!/bin/sh
# reproducibility.sh — run a chronoscope program in N fresh processes and say
# how much its figures move from one process to the next: per benchmark the
# coefficient of variation (CV) of the median ns/op and of the estimated
# cycles/op, and per comparison the range of the ratio.  Where a comparison's
# truth is known (TRUTHS, by the name of its A side; selfcheck's are the
# default for a program named selfcheck) it counts the processes whose interval
# contains the truth (within 0.05%, the loops' own overhead), the misses the
# library flagged (the comparison carried a warning) and the unflagged ones
# (the promise broken), how many were flagged at all, and how many resolved
# a ratio above 1 (the CI's low end above 1).
#
# Usage: examples/reproducibility.sh PROGRAM [N] [program flags...]
#        examples/reproducibility.sh build/examples/selfcheck 10
#        TRUTHS="imul1000=3,add2000=2,add1001=1.001" examples/reproducibility.sh PROG 20
set -eu
prog=${1:?usage: reproducibility.sh PROGRAM [N] [flags...]}
shift
n=10
case ${1-} in ''|*[!0-9]*) ;; *) n=$1; shift ;; esac
[ "$n" -ge 2 ] || { echo "reproducibility.sh: N must be at least 2, got '$n'" >&2; exit 2; }
case $(basename "$prog") in
  selfcheck*) truths=${TRUTHS-imul1000=3,add2000=2,add1001=1.001} ;;
  *) truths=${TRUTHS-} ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=1
while [ "$i" -le "$n" ]; do
  "$prog" --format=csv "$@" >"$tmp/run$i.csv" 2>/dev/null
  i=$((i + 1))
done
# Columns by name from the header, so the script follows the CSV writer.
awk -F, -v n="$n" -v truths="$truths" '
BEGIN { nt = split(truths, tp, ","); for (i = 1; i <= nt; i++) { split(tp[i], kv, "="); truth[kv[1]] = kv[2] } }
FNR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; sub(/\r$/, "", $NF); col[$NF] = NF; next }
{
  name = $col["name"]; kind = $col["kind"]
  if (kind == "run") {
    if (!(name in cnt)) order[++k] = name
    cnt[name]++; ns = $col["median_ns"]; cy = $col["cycles_per_iteration"]
    s[name] += ns; ss[name] += ns * ns
    if (cy != "") { cs[name] += cy; css[name] += cy * cy; cc[name]++ }
  } else if (kind == "compare" && index($col["group"], name " vs ") == 1) {
    key = $col["group"]; r = $col["ratio"]
    if (!(key in rn)) { corder[++m] = key; rmin[key] = r; rmax[key] = r }
    rn[key]++; if (r < rmin[key]) rmin[key] = r; if (r > rmax[key]) rmax[key] = r
    w = ("warnings" in col) ? $col["warnings"] : ""; sub(/\r$/, "", w)
    if (w != "") flagged[key]++
    if ($col["ratio_ci_low"] > 1) above1[key]++
    if (name in truth) {
      t = truth[name]; known[key] = t
      if ($col["ratio_ci_low"] <= t * 1.0005 && $col["ratio_ci_high"] >= t * 0.9995) hit[key]++
      else if (w != "") fmiss[key]++
      else umiss[key]++
    }
  }
}
function cv(sum, sq, c,   mean, var) {
  if (c < 2) return "-"
  mean = sum / c; var = (sq - c * mean * mean) / (c - 1); if (var < 0) var = 0
  return sprintf("%.3f%%", 100 * sqrt(var) / mean)
}
END {
  printf "%d fresh processes\n%-28s %14s %10s %14s %10s\n", n, "benchmark", "mean ns/op", "CV ns", "mean ~cycles", "CV cycles"
  for (i = 1; i <= k; i++) {
    x = order[i]
    printf "%-28s %14.4f %10s %14s %10s\n", x, s[x] / cnt[x], cv(s[x], ss[x], cnt[x]),
      cc[x] ? sprintf("%.3f", cs[x] / cc[x]) : "-", cv(cs[x], css[x], cc[x])
  }
  for (i = 1; i <= m; i++) {
    x = corder[i]; printf "%-40s ratio %.4f .. %.4f, flagged %d of %d, CI above 1 in %d", x, rmin[x], rmax[x], flagged[x], rn[x], above1[x]
    if (x in known) {
      printf ", truth %s: CI contains it %d, missed flagged %d, missed unflagged %d", known[x], hit[x], fmiss[x], umiss[x]
      th += hit[x]; tf += fmiss[x]; tu += umiss[x]; tn += rn[x]
    }
    printf "\n"
  }
  if (tn) printf "all comparisons with a truth: %d; CI contains it %d, missed flagged %d, missed unflagged %d\n", tn, th, tf, tu
}' "$tmp"/run*.csv

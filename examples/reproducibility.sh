#!/bin/sh
# reproducibility.sh — run a chronoscope program in N fresh processes and say
# how much its figures move from one process to the next: per benchmark the
# coefficient of variation (CV) of the median ns/op and of the estimated
# cycles/op, and per comparison the range of the ratio.
#
# Usage: examples/reproducibility.sh PROGRAM [N] [program flags...]
#        examples/reproducibility.sh build/examples/selfcheck 10
set -eu
prog=${1:?usage: reproducibility.sh PROGRAM [N] [flags...]}
shift
n=10
case ${1-} in ''|*[!0-9]*) ;; *) n=$1; shift ;; esac
[ "$n" -ge 2 ] || { echo "reproducibility.sh: N must be at least 2, got '$n'" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=1
while [ "$i" -le "$n" ]; do
  "$prog" --format=csv "$@" >"$tmp/run$i.csv" 2>/dev/null
  i=$((i + 1))
done
# Columns by name from the header, so the script follows the CSV writer.
awk -F, -v n="$n" '
FNR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next }
{
  name = $col["name"]; kind = $col["kind"]
  if (kind == "run") {
    if (!(name in cnt)) order[++k] = name
    cnt[name]++; ns = $col["median_ns"]; cy = $col["cycles_median"]
    s[name] += ns; ss[name] += ns * ns
    if (cy != "") { cs[name] += cy; css[name] += cy * cy; cc[name]++ }
  } else if (kind == "compare" && index($col["group"], name " vs ") == 1) {
    key = $col["group"]; r = $col["ratio"]
    if (!(key in rn)) { corder[++m] = key; rmin[key] = r; rmax[key] = r }
    rn[key]++; if (r < rmin[key]) rmin[key] = r; if (r > rmax[key]) rmax[key] = r
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
  for (i = 1; i <= m; i++) { x = corder[i]; printf "%-40s ratio %.4f .. %.4f\n", x, rmin[x], rmax[x] }
}' "$tmp"/run*.csv

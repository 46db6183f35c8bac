"""ab_rates.py DIR RUNS GB_RUNS GB_PAIRS HAVE_GB — the tally of ab-error-rates.sh."""
import glob
import json
import os
import statistics
import sys

out, runs, gb_runs, gb_pairs, have_gb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split(), sys.argv[5] == "1"
PLANTED = ("add_chain/", "mul_chain/", "xorshift/", "fnv1a/", "crc32_bitwise/")
THRESHOLD = 0.02


def planted(name):
    return name.startswith(PLANTED)


times, loads, codes = {}, {}, {}
runs_txt = os.path.join(out, "runs.txt")
for line in open(runs_txt) if os.path.exists(runs_txt) else []:   # none with PAIRS=none
    pair, r, rc, t0, t1, load = line.split()
    times.setdefault(pair, []).append(float(t1) - float(t0))
    loads.setdefault(pair, []).append(float(load))
    codes.setdefault(pair, []).append(int(rc))

print("\nchronoscope-ab (interleaved in one process, pooled over the processes of its adaptive looks):")
print("%-8s %-9s %14s %8s %18s %7s   %s" % ("pair", "entries", "called slower", "faster", "inconclusive", "errors",
                                            "wall s (median, max; median a compared entry), load (min-max), exit codes"))
for pair in [p for p in ("same", "moved", "slow1", "slow3", "slow10", "same-t1", "slow1-t1") if p in times]:
    tally = {True: [0, 0, 0, 0], False: [0, 0, 0, 0]}   # slower, faster, inconclusive, rows
    errors, per_entry, undecided = 0, [], {}
    for r in range(1, runs + 1):
        try:
            doc = json.load(open(os.path.join(out, "%s-%d.json" % (pair, r))))
        except (OSError, ValueError):
            errors += 1
            continue
        compared = [row for row in doc.get("ab", []) if not row["verdict"].startswith("only in")]
        if compared and r <= len(times.get(pair, [])):
            per_entry.append(times[pair][r - 1] / len(compared))
        for row in doc.get("ab", []):
            if row["verdict"].startswith("only in"):
                continue
            t = tally[pair.startswith("slow") and planted(row["entry"])]
            t[0] += row["verdict"] == "slower"
            t[1] += row["verdict"] == "faster"
            t[2] += row["verdict"] == "inconclusive"
            t[3] += 1
            if row["verdict"] in ("inconclusive", "slower", "faster") and not (pair.startswith("slow") and planted(row["entry"])):
                undecided.setdefault(row["entry"], []).append(row["verdict"][0])
    wall = times.get(pair, [float("nan")])
    load = loads.get(pair, [float("nan")])
    for key, label in ((True, "planted"), (False, "others" if pair.startswith("slow") else "all")):
        t = tally[key]
        if not t[3]:
            continue
        print("%-8s %-9s %9d / %-3d %8d %7d (%4.1f%%) %7d   %.1f, %.1f; %.2f; %.2f-%.2f; %s" % (
            pair, label, t[0], t[3], t[1], t[2], 100.0 * t[2] / t[3], errors, statistics.median(wall), max(wall),
            statistics.median(per_entry) if per_entry else float("nan"), min(load), max(load),
            ",".join(str(c) for c in codes.get(pair, []))))
    if undecided:   # which entries (not planted) were not "no clear difference": i inconclusive, s slower, f faster
        print("%-8s   not 'no clear difference': %s" % (pair, ", ".join(
            "%s %s" % (e, "".join(sorted(v))) for e, v in sorted(undecided.items(), key=lambda kv: -len(kv[1])))))

spread = {k: {} for k in (1, 4)}   # SPREAD_RUNS: per entry, the single processes' ratios and interval widths
for k in spread:
    for f in glob.glob(os.path.join(out, "spread-c%d-*.json" % k)):
        try:
            rows = json.load(open(f)).get("ab", [])
        except (OSError, ValueError):
            continue
        for row in rows:
            if row.get("head/base") and row.get("ci_low") and row.get("ci_high"):
                spread[k].setdefault(row["entry"], []).append((row["head/base"], row["ci_high"] - row["ci_low"]))


def iqr_pct(v):
    q = statistics.quantiles(v, n=4)
    return 100 * (q[2] - q[0])


if spread[1] and spread[4]:
    print("\nthe same module twice in single processes (--processes=1): the spread of their head/base")
    print("%-20s %4s   %-30s %-30s" % ("entry", "runs", "--copies=1: IQR %, CI width %", "--copies=4: IQR %, CI width %"))
    for e in sorted(spread[1]):
        cells = []
        for k in (1, 4):
            v = spread[k].get(e, [])
            cells.append("%6.2f %6.2f" % (iqr_pct([x[0] for x in v]), 100 * statistics.median(x[1] for x in v))
                         if len(v) >= 4 else "n/a")
        print("%-20s %4d   %-30s %-30s" % (e, len(spread[1][e]), cells[0], cells[1]))

if have_gb:
    print("\nGoogle Benchmark 1.x, compare.py (two separate processes, --benchmark_repetitions=9, U test):")
    print("%-7s %-9s %14s %16s %22s" % ("pair", "entries", "called slower", "U-test p<0.05", "|median change| > 2%"))
    for pair in gb_pairs:
        tally = {True: [0, 0, 0, 0], False: [0, 0, 0, 0]}   # slower, p<0.05, |median| > threshold, n
        for r in range(1, gb_runs + 1):
            try:
                diff = json.load(open(os.path.join(out, "gb-%s-%d.diff.json" % (pair, r))))
            except (OSError, ValueError):
                continue
            med = {d["name"][:-len("_median")]: d["measurements"][0]["time"] for d in diff
                   if d.get("aggregate_name") == "median" or d["name"].endswith("_median")}
            for d in diff:
                if d.get("run_type") == "aggregate" or d["name"].endswith(("_mean", "_median", "_stddev", "_cv")):
                    continue
                p = d.get("utest", {}).get("time_pvalue")
                change = med.get(d["name"])
                if p is None or change is None:
                    continue
                t = tally[pair.startswith("slow") and planted(d["name"])]
                t[0] += p < 0.05 and change > THRESHOLD
                t[1] += p < 0.05
                t[2] += abs(change) > THRESHOLD
                t[3] += 1
        for key, label in ((True, "planted"), (False, "others" if pair.startswith("slow") else "all")):
            t = tally[key]
            if t[3]:
                print("%-7s %-9s %9d / %-3d %10d / %-3d %16d / %-3d" % (pair, label, t[0], t[3], t[1], t[3], t[2], t[3]))

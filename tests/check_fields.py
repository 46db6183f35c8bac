#!/usr/bin/env python3
"""check_fields.py FIXTURE -- every field of every JSON entry and CSV row of
report_fixture --fixed against the result it came from.

report_fixture fills each result from its median m and core clock g
(tests/report_fixture.c, fixture_result/fixture_stats, spread s = m / 300):
CI m -+ s/2 at 0.95, mean 1.01 m, min m - 2s, max m + 60s, stddev 2s, MAD s,
q1/q3 m -+ s, cycles the same figures times g, 1000 iterations x 101 samples
(57 for the truncated one) of 106 taken, outliers 1 low 3 high 1 severe,
rejected 2 migrated 1 preempted 3 contended, CPU 2, 250 ms wall, 50 ms
warm-up, CPU time 0.75 m, every sample's mean 1.02 m.  So each figure is
checked on each entry (not only the first), and the CSV row against the JSON
entry of the same result, field by field.  Where the two formats name a
field differently (before issue 24's one field list) both names are tried.
TAP on stdout."""
import csv
import io
import json
import math
import subprocess
import sys

from tap import done, ok

FIXTURE = sys.argv[1] if len(sys.argv) > 1 else "./report_fixture"
# the results in report order with their medians (ns) and core GHz (None: no cycles)
MEDIANS = [1500, 0.285, 2.5e6, 12e9, 10, 20, 40, None, 3001, 1000, 1001, 1000]
GHZ = [3.5, None, 3.5, 3.5, 3.5, 3.5, 3.5, None, 3.5, 3.5, 3.5, 3.5]
SAMPLES = [101, 101, 57, 101, 101, 101, 101, 0, 101, 101, 101, 101]


def keys(*names):
    return names


# (JSON name candidates, CSV name candidates, expected value from (m, g, n))
FIELDS = [
    (keys("median_ns", "real_time"), keys("median_ns"), lambda m, g, n: m),
    (keys("ci_low_ns"), keys("ci_low_ns"), lambda m, g, n: m - m / 600),
    (keys("ci_high_ns"), keys("ci_high_ns"), lambda m, g, n: m + m / 600),
    (keys("ci_level"), keys("ci_level"), lambda m, g, n: 0.95),
    (keys("mean_ns"), keys("mean_ns"), lambda m, g, n: 1.01 * m),
    (keys("min_ns"), keys("min_ns"), lambda m, g, n: m - 2 * m / 300),
    (keys("max_ns"), keys("max_ns"), lambda m, g, n: m + 60 * m / 300),
    (keys("stddev_ns"), keys("stddev_ns"), lambda m, g, n: 2 * m / 300),
    (keys("mad_ns"), keys("mad_ns"), lambda m, g, n: m / 300),
    (keys("cv"), keys("cv"), lambda m, g, n: (2 * m / 300) / (1.01 * m)),
    (keys("q1_ns"), keys("q1_ns"), lambda m, g, n: m - m / 300),
    (keys("q3_ns"), keys("q3_ns"), lambda m, g, n: m + m / 300),
    (keys("p99_ns"), keys("p99_ns"), lambda m, g, n: m + 30 * m / 300),
    (keys("mean_every_sample_ns"), keys("mean_every_sample_ns"), lambda m, g, n: 1.02 * m),
    (keys("cycles_per_iteration", "cycles_median"), keys("cycles_per_iteration", "cycles_median"),
     lambda m, g, n: m * g if g else None),
    (keys("cycles_ci_low"), keys("cycles_ci_low"), lambda m, g, n: m * g - m * g / 600 if g else None),
    (keys("cycles_ci_high"), keys("cycles_ci_high"), lambda m, g, n: m * g + m * g / 600 if g else None),
    (keys("cycles_min"), keys("cycles_min"), lambda m, g, n: m * g - 2 * m * g / 300 if g else None),
    (keys("core_ghz"), keys("core_ghz"), lambda m, g, n: g),
    (keys("iterations_per_sample", "iters_per_sample"), keys("iterations_per_sample", "iters_per_sample"),
     lambda m, g, n: 1000),
    (keys("samples"), keys("samples"), lambda m, g, n: n),
    (keys("iterations"), (), lambda m, g, n: 1000 * n),
    (keys("samples_taken"), keys("samples_taken"), lambda m, g, n: 106),
    (keys("outliers_low"), keys("outliers_low"), lambda m, g, n: 1),
    (keys("outliers_high"), keys("outliers_high"), lambda m, g, n: 3),
    (keys("outliers_severe"), keys("outliers_severe"), lambda m, g, n: 1),
    (keys("outliers"), (), lambda m, g, n: 4),
    (keys("rejected_migrated"), keys("rejected_migrated"), lambda m, g, n: 2),
    (keys("rejected_preempted"), keys("rejected_preempted"), lambda m, g, n: 1),
    (keys("rejected_backwards"), keys("rejected_backwards"), lambda m, g, n: 0),
    (keys("rejected_reference"), keys("rejected_reference"), lambda m, g, n: 0),
    (keys("rejected_contended"), keys("rejected_contended"), lambda m, g, n: 3),
    (keys("rejected_port_contended"), keys("rejected_port_contended"), lambda m, g, n: 0),
    (keys("cpu"), keys("cpu"), lambda m, g, n: 2),
    (keys("wall_ms"), keys("wall_ms"), lambda m, g, n: 250),
    (keys("warmup_ms"), keys("warmup_ms"), lambda m, g, n: 50),
]


def run(fmt):
    p = subprocess.run([FIXTURE, "--fixed", "--format=" + fmt], stdout=subprocess.PIPE, timeout=120)
    ok(p.returncode == 0, "report_fixture --fixed --format=%s exits 0 (%d)" % (fmt, p.returncode))
    return p.stdout.decode("utf-8")


def pick(row, names):
    for k in names:
        if k in row:
            return k, row[k]
    return None, None


def number(v):
    if v is None or v == "":
        return None
    if isinstance(v, bool):
        return None
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def same(got, want):
    if want is None:
        return got is None
    if got is None:
        return False
    return math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-12)


def main():
    doc = json.loads(run("json"))
    table = list(csv.reader(io.StringIO(run("csv"), newline="")))
    head, rows = table[0], [r for r in table[1:] if r]
    rows = rows[:len(doc["benchmarks"])]   # the benchmarks' rows (extra tables follow a blank line)
    csv_rows = [dict(zip(head, r)) for r in rows]
    runs = doc["benchmarks"]
    ok(len(runs) == len(MEDIANS) == len(csv_rows), "%d JSON entries and %d CSV rows for the %d results" %
       (len(runs), len(csv_rows), len(MEDIANS)))
    for i, (b, c) in enumerate(zip(runs, csv_rows)):
        m, g, n = MEDIANS[i], GHZ[i], SAMPLES[i]
        bad_json, bad_csv, missing = [], [], []
        for jnames, cnames, f in FIELDS:
            want = f(m, g, n) if m is not None else None
            if m is None and not (jnames[0].endswith("_ns") or jnames[0].startswith("cycles") or jnames[0] == "cv"):
                continue   # the result without samples: its figures are unknown, the rest is as filled
            k, v = pick(b, jnames)
            if k is None:
                missing.append(jnames[0])
            elif not same(number(v), want):
                bad_json.append("%s %r (want %r)" % (k, v, want))
            if cnames:
                k, v = pick(c, cnames)
                if k is None:
                    missing.append("csv " + cnames[0])
                elif not same(number(v), want):
                    bad_csv.append("%s %r (want %r)" % (k, v, want))
        ok(not bad_json and not missing, "JSON entry %d (%s): every figure from its median %s%s" %
           (i, b.get("name", "?")[:30].encode("unicode_escape").decode(), m,
            "".join("; " + x for x in bad_json + ["missing " + x for x in missing])))
        ok(not bad_csv, "CSV row %d (%s): every figure from its median %s%s" %
           (i, c.get("name", "?")[:30].encode("unicode_escape").decode(), m, "".join("; " + x for x in bad_csv)))
        # JSON's own cross-field relations: real_time is the median, cpu_time 0.75 of it (CPU time known)
        if m is not None:
            ok(same(number(b.get("real_time")), m) and (i == 1 or same(number(b.get("cpu_time")), 0.75 * m)),
               "JSON entry %d: real_time %r = the median, cpu_time %r = 0.75 x it" % (i, b.get("real_time"), b.get("cpu_time")))
    # the pooled entry (the first: 3 processes, medians 1450..1570 ns): the spread between
    # them over its own median, and the CSV row's bounds the JSON entry's
    pooled = [(b, c) for b, c in zip(runs, csv_rows) if b.get("processes", 1) > 1]
    ok(len(pooled) == 1 and all(
        same(number(b.get("between_processes_min_ns")), 1450) and same(number(b.get("between_processes_max_ns")), 1570) and
        same(number(b.get("between_processes_spread")), (1570 - 1450) / number(b["median_ns"])) and
        same(number(c.get("between_processes_min_ns")), 1450) and same(number(c.get("between_processes_max_ns")), 1570)
        for b, c in pooled),
       "pooled entry: between processes 1450..1570 ns, spread (max - min) / median = %r (%s)" %
       ((1570 - 1450) / 1500, [(b.get("between_processes_min_ns"), b.get("between_processes_max_ns"),
                                b.get("between_processes_spread")) for b, _ in pooled]))
    check_comparisons(doc, runs, csv_rows)
    done()


def check_comparisons(doc, runs, csv_rows):
    """Each comparison against its two sides: ratio = a's median / b's, the
    faster side the one with the lower median when the interval leaves out 1,
    its speedup the ratio taken >= 1; each side's entry and row name the other
    side and carry the same ratio."""
    by = {b["name"]: (b, c) for b, c in zip(runs, csv_rows)}
    for c in doc.get("comparisons", []):
        ea, ca = by.get(c["name"] + "/" + c["a"], ({}, {}))
        eb, cb = by.get(c["name"] + "/" + c["b"], ({}, {}))
        ma, mb = number(ea.get("median_ns")), number(eb.get("median_ns"))
        clear = c["ci_low"] > 1 or c["ci_high"] < 1
        want_faster = (c["a"] if ma < mb else c["b"]) if clear and ma and mb else None
        want_speedup = (max(ma, mb) / min(ma, mb)) if want_faster else None
        ok(ma and mb and same(c["ratio"], ma / mb) and c["ci_low"] <= c["ratio"] <= c["ci_high"] and
           same(number(c.get("cycles_ratio")), c["ratio"]) and c.get("rounds") == 101,
           "comparison %s: ratio %r = a's median / b's (%r / %r), inside [%r, %r], cycles_ratio %r, rounds %r" %
           (c["name"], c["ratio"], ma, mb, c["ci_low"], c["ci_high"], c.get("cycles_ratio"), c.get("rounds")))
        ok(c.get("faster") == want_faster and same(number(c.get("speedup")), want_speedup),
           "comparison %s: faster %r (want %r), speedup %r (want %r)" %
           (c["name"], c.get("faster"), want_faster, c.get("speedup"), want_speedup))
        # a's own ratio is a/b; b's is b/a, its interval [1/hi, 1/lo]
        sides = [(ea, ca, c["b"], "a", (c["ratio"], c["ci_low"], c["ci_high"])),
                 (eb, cb, c["a"], "b", (1 / c["ratio"], 1 / c["ci_high"], 1 / c["ci_low"]))]
        for e, row, other, side, (r, lo, hi) in sides:
            got = [(number(x.get("ratio")), number(x.get("ratio_ci_low")), number(x.get("ratio_ci_high"))) for x in (e, row)]
            ok(e.get("vs") == other and row.get("vs") == other and e.get("side") == side and row.get("side") == side and
               all(same(g[0], r) and same(g[1], lo) and same(g[2], hi) for g in got),
               "comparison %s, side %s: JSON entry and CSV row say vs %s, ratio %.6g [%.6g, %.6g] (%s)" %
               (c["name"], side, other, r, lo, hi, got))


if __name__ == "__main__":
    main()

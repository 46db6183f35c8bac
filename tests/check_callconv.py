#!/usr/bin/env python3
"""callconv --quick states only what repeats: Part 1 pooled over 6 fresh
processes (each child runs Part 1 only: the entries of the call that started
it), Part 2 in the program's own process, every Part 1
verdict consistent with its processes and its interval, Part 3's spread from
the paired deltas of Part 1, durations as a person reads them.  Linux only
(Part 1 needs /dev/zero and fork).  TAP on stdout."""
import json, re, subprocess, sys

from tap import done, ok

exe = sys.argv[1]

if not sys.platform.startswith("linux"):
    print("1..0 # SKIP Part 1 needs Linux")
    sys.exit(0)

# a busy host can make a child's entry fail (every sample rejected): up to three tries
for attempt in range(3):
    r = subprocess.run([exe, "--quick", "--format=json"], capture_output=True, text=True, timeout=600)
    try:
        d = json.loads(r.stdout)
        if r.returncode == 0 and all(p["status"] == "ok" for p in d.get("processes", [])):
            break
    except ValueError:
        d = {"benchmarks": [], "comparisons": [], "part1_replica": [], "then_vs_now": []}
    print("# try %d: exit %d (%s)" % (attempt + 1, r.returncode, r.stderr.strip()[-300:]))
ok(r.returncode == 0, "callconv --quick --format=json exits 0 (%d; %s)" % (r.returncode, r.stderr.strip()[-300:]))
bs = {b["name"]: b for b in d["benchmarks"]}
p1 = [b for name, b in bs.items() if name.startswith("p1/")]
p2 = [b for name, b in bs.items() if name.startswith("p2/")]
ok(p1 and all(b["processes"] == 6 for b in p1), "Part 1: every result pooled over 6 processes (%s)" % [b["processes"] for b in p1])
ok(p2 and all(b["processes"] == 1 for b in p2), "Part 2: every result from this process (%s)" % sorted({b["processes"] for b in p2}))
procs = d.get("processes", [])
ncomp = len([c for c in d["comparisons"] if c["a"].startswith("p1/")])
ok(len(procs) == 6 and all(p["status"] == "ok" and p["results"] == ncomp + 1 for p in procs),
   "each child ran Part 1 only: %d comparisons and the baseline run (%s)" % (ncomp, [p["results"] for p in procs]))

rows = [x for x in d["part1_replica"] if "baseline" not in x["verdict"]]
good = []
for x in rows:
    lo, hi, mn, mx = x["delta_ci_low"], x["delta_ci_high"], x["delta_lowest_process"], x["delta_highest_process"]
    level = [c["ci_level"] for c in d["comparisons"] if c["a"] == x["variant"]]
    if x["verdict"] == "resolved":
        # The JSON's figures are rounded: a bound just above 0 reads 0 (ms_abi_shim: [+0, +189.3],
        # processes +36.76..+189.3, rightly resolved), so a bound at 0 counts with the other's sign.
        pos, neg = lo >= 0 and hi > 0, hi <= 0 and lo < 0
        good.append(x["processes"] == 6 and (pos or neg) and (mn > 0 or mx < 0) and (mn > 0) == pos and
                    level and level[0] >= 0.95)
    elif x["verdict"].startswith("not repeated"):
        good.append(mn <= 0 <= mx and not lo <= 0 <= hi)
    elif x["verdict"].startswith("no verdict"):
        good.append(not lo <= 0 <= hi and not mn <= 0 <= mx and level and level[0] < 0.95)
    else:
        good.append(x["verdict"].startswith("below noise") and lo <= 0 <= hi)
ok(rows and all(good), "Part 1: resolved only when the interval and every process agree on the sign (%s)" %
   ["%s %s [%+g, %+g] processes %+g..%+g" % (x["variant"], x["verdict"], x["delta_ci_low"], x["delta_ci_high"],
                                            x["delta_lowest_process"], x["delta_highest_process"]) for x in rows])

# Part 3: the spread row is the difference of two Part 1 deltas, with their interval
tn = d["then_vs_now"]
spread = [t for t in tn if t["now"].startswith("slowest - fastest shim")]
ok(len(spread) == 1, "Part 3: one spread row")
m = re.match(r"(\S+) - (\S+): \[([-+][0-9.]+), ([-+][0-9.]+)\] ns \(two ([0-9]+)% CIs\), (resolved|below noise)$",
             spread[0]["note"] if spread else "")
delta = {x["variant"][3:]: x for x in rows}
if ok(m is not None and m.group(1) in delta and m.group(2) in delta, "Part 3: the spread names two shims and an interval (%s)" %
      (spread[0]["note"] if spread else None)):
    s, f = delta[m.group(1)], delta[m.group(2)]
    lo, hi = float(m.group(3)), float(m.group(4))
    shims = [x for x in rows if not re.search("readv|syscall", x["variant"])]
    ok(abs(lo - (s["delta_ci_low"] - f["delta_ci_high"])) < 0.051 and abs(hi - (s["delta_ci_high"] - f["delta_ci_low"])) < 0.051
       and s["delta_ns_vs_libc"] == max(x["delta_ns_vs_libc"] for x in shims)
       and f["delta_ns_vs_libc"] == min(x["delta_ns_vs_libc"] for x in shims)
       and (m.group(6) == "resolved") == (lo > 0 or hi < 0),
       "Part 3: slowest - fastest shim by their paired deltas, interval [s.low - f.high, s.high - f.low]")
# durations as a person reads them: a number and a unit, never raw nanoseconds
unit = re.compile(r"^-?[0-9]+(\.[0-9]+)? (ns|\u00b5s|ms|s)$")
cells = [t["then_per_op"] for t in tn] + [t["now_per_op"] for t in tn if t["now_per_op"] is not None]
ok(cells and all(isinstance(c, str) and unit.match(c) for c in cells), "Part 3: per-op durations with their unit (%s)" % cells[:4])
done()

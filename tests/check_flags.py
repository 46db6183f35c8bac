#!/usr/bin/env python3
"""check_flags.py QUICKSTART UNIT_TEST -- every common flag of a program table
(program.h) does what it says or exits 2 naming the value: --baseline and
--filter that name nothing, --out with an unknown extension, --out that
cannot be written (named), --cpu with --no-pin (as typed); with --baseline
every text row shows its ratio, with three significant figures, equal to
the JSON's relative_to_baseline; the progress line names the entry; a
check program (check.h) refuses --processes and leaves it out of --help.
TAP on stdout."""
import json
import os
import re
import subprocess
import sys
import tempfile

from tap import done, ok, pty_output, skip

QS, UT = sys.argv[1], sys.argv[2]


def run(exe, *args):
    return subprocess.run([exe] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)


def refused(p, what, needles, status=2):
    err = p.stderr.decode("utf-8", "replace")
    first = err.splitlines()[0] if err else "(nothing)"
    ok(p.returncode == status, "%s: exit status %d (got %d)" % (what, status, p.returncode))
    ok(all(n in first for n in needles), "%s: the message names %s: %s" % (what, needles, first))
    return first


# ---- bad values: exit 2, one line naming the value, nothing run or printed --------------------
p = run(QS, "--quick", "--baseline=nosuch")
refused(p, "--baseline=nosuch", ["--baseline", "'nosuch'", "not the name of a benchmark"])
ok(p.stdout == b"", "--baseline=nosuch: nothing on stdout (no benchmark ran)")
p = run(QS, "--quick", "--filter=nomatch")
refused(p, "--filter=nomatch", ["--filter", "'nomatch'", "matches no benchmark"])
ok(p.stdout == b"", "--filter=nomatch: nothing on stdout, not even an empty table")
p = run(QS, "--list", "--filter=nomatch")
refused(p, "--list --filter=nomatch", ["--filter", "'nomatch'"])
# regular expressions (cli.h): what each selects, by --list; a pattern that does not compile exits 2
if os.name != "nt":
    for flt, names in ((["--filter=^sum_.*64$"], ["sum_stride_64"]),
                       (["--filter=-stride"], ["sum_in_order"]),
                       (["--filter=stride", "--filter=-^in_order"], ["sum_stride_64"]),
                       (["--filter=-sum", "--filter=-vs"], None)):
        p = run(QS, "--list", *flt)
        got = p.stdout.decode().split("\n")[:-1]
        if names is None:
            refused(p, "--list %s" % " ".join(flt), ["--filter", "other --filter flags select no benchmark"])
        else:
            ok(p.returncode == 0 and got == names, "--list %s: %s, exit 0 (got %s, %d)" % (" ".join(flt), names, got, p.returncode))
    p = run(QS, "--quick", "--filter=(")
    refused(p, "--filter='('", ["--filter", "'('", "not a valid extended regular expression"])
    ok(p.stdout == b"", "--filter='(': nothing on stdout")
p = run(QS, "--quick", "--filter=in_order", "--baseline=sum_stride_64")
refused(p, "--baseline outside --filter", ["--baseline", "'sum_stride_64'", "--filter='in_order'"])
ok(p.stdout == b"", "--baseline outside --filter: nothing ran")
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "r.xyz")
    p = run(QS, "--quick", "--out=" + path)
    refused(p, "--out=r.xyz", ["--out", path, "'.xyz'", "unknown extension"])
    ok(not os.path.exists(path) and p.stdout == b"", "--out=r.xyz: no file made, nothing ran")
cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
if cpus:
    p = run(QS, "--quick", "--cpu=%d" % cpus[-1], "--no-pin")
    refused(p, "--cpu=%d --no-pin" % cpus[-1], ["--no-pin", "--cpu=%d" % cpus[-1]])
else:
    skip("no affinity mask to pick a CPU from")
if os.path.exists("/dev/full"):
    p = run(QS, "--quick", "--filter=sum_in_order", "--out=/dev/full")
    err = p.stderr.decode("utf-8", "replace")
    ok(p.returncode == 1 and "'/dev/full'" in err and "--out" in err,
       "--out=/dev/full: exit 1, the failed write names the file (%d: %s)" % (p.returncode, err.strip()[-200:]))
else:
    skip("no /dev/full here")

# ---- --baseline: every row, three significant figures, as in the JSON -----------------------------
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "r.json")
    p = run(QS, "--quick", "--baseline=sum_stride_64", "--out=" + path)
    ok(p.returncode == 0, "--baseline=sum_stride_64 --out=r.json: exit 0 (%d: %s)" % (p.returncode, p.stderr[-200:]))
    text = p.stdout.decode("utf-8")
    bench = json.load(open(path))["benchmarks"] if os.path.exists(path) else []
lines = text.splitlines()
head = [i for i, l in enumerate(lines) if l.startswith("name ")]
rows = []
if head:
    for l in lines[head[0] + 1:]:
        if not l.strip() or l.startswith("rejected"):
            break
        rows.append(l)
figs = [re.search(r"  (\S+)x sum_stride_64$", r) for r in rows]
ok(len(rows) == 4 and all(figs), "--baseline: every one of the %d rows ends in 'Nx sum_stride_64'" % len(rows))
ok(rows and rows[0].startswith("sum_stride_64") and figs[0] and figs[0].group(1) == "1.00",
   "--baseline: the baseline runs and prints first, reading 1.00x (%s)" % (rows[0] if rows else "no rows"))
ok(len(bench) == len(rows) and all("relative_to_baseline" in b for b in bench),
   "--baseline: every JSON entry has relative_to_baseline (%d entries, %d rows)" % (len(bench), len(rows)))
same = []
for r, m, b in zip(rows, figs, bench):
    if not m or "relative_to_baseline" not in b:
        same.append(False)
        continue
    rel = b["relative_to_baseline"]
    want = "%.0f" % rel if abs(rel) >= 99.95 else "%#.3g" % rel
    base = next((x["real_time"] for x in bench if x["name"] == "sum_stride_64"), float("nan"))
    same.append(m.group(1) == want and abs(rel - b["real_time"] / base) < 1e-9 * rel)
ok(same and all(same), "--baseline: each text figure is the JSON's relative_to_baseline (median / the baseline's) "
   "to three significant figures (%s vs %s)" % ([m.group(1) if m else None for m in figs],
                                                 [b.get("relative_to_baseline") for b in bench]))

# ---- the progress line names the entry (only on a terminal) -----------------------------------------
try:
    err = pty_output([QS, "--quick", "--filter=sum_in_order"], "stderr")
    ok(b"running sum_in_order ..." in err and b"running  ..." not in err,
       "the progress line on a terminal names the entry (%r)" % err[:120])
except ImportError:
    skip("no pty module")

# ---- a check program refuses --processes ----------------------------------------------------------
p = run(UT, "--processes=2")
refused(p, "unit_test --processes=2", ["--processes", "not supported"])
ok(not p.stdout, "unit_test --processes=2: no TAP, nothing ran")
h = run(UT, "--help").stdout.decode("utf-8")
ok("--processes" not in h and "--filter" in h, "unit_test --help: no --processes among its flags")
ok("--processes" in run(QS, "--help").stdout.decode("utf-8"), "quickstart --help: --processes listed (program.h pools)")
done()

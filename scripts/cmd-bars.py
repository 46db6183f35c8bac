#!/usr/bin/env python3
"""cmd-bars.py TOOL [TRIALS] — chronoscope-cmd's error rates beside hyperfine's,
on the same pairs in the same minutes (docs/commands.md has the figures).

Pairs: `sleep 0.01` twice; a short `cc -c` twice; `sleep 0.01` against a
sleep made 10% longer in wall time (0.01 s + 10% of the first's median, measured
first).  Each trial runs chronoscope-cmd (defaults: rounds by a 2 s budget) and
then hyperfine (defaults; --export-json) on the pair.  chronoscope-cmd calls
two commands different when its verdict is faster or slower; hyperfine when
its ratio of means differs from 1 by more than the uncertainty it prints
(hyperfine names one of the two faster every time).  A busy loop on another
CPU is the caller's to start (the doc says how it was run)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

tool = os.path.abspath(sys.argv[1])
trials = int(sys.argv[2]) if len(sys.argv) > 2 else 20
work = tempfile.mkdtemp(prefix="cmd-bars-")
src = os.path.join(work, "small.c")
with open(src, "w") as f:
    for i in range(40):
        f.write("int f%d(const int *v, int n) { int s = %d; for (int i = 0; i < n; i++) s += v[i] * %d; return s; }\n"
                % (i, i, i + 1))


def cmd_run(a, b):
    out = subprocess.run([tool, a, b, "--format=json"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         universal_newlines=True, cwd=work).stdout
    ab = json.loads(out)["ab"][0]
    return ab["verdict"], float(ab["ratio"]), ab["ci_low"], ab["ci_high"]


def hf_run(a, b):
    exp = os.path.join(work, "hf.json")
    subprocess.run(["hyperfine", "--style=none", a, b, "--export-json", exp],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work)
    with open(exp) as f:
        r = json.load(f)["results"]
    ma, sa, mb, sb = r[0]["mean"], r[0]["stddev"] or 0, r[1]["mean"], r[1]["stddev"] or 0
    ratio = mb / ma
    unc = ratio * ((sa / ma) ** 2 + (sb / mb) ** 2) ** 0.5   # hyperfine's propagation
    return ratio, unc


def median_of(cmd):
    out = subprocess.run([tool, cmd, "--format=json"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         universal_newlines=True, cwd=work).stdout
    return float(json.loads(out)["commands"][0]["median_ms"]) / 1e3


slow = 0.01 + 0.1 * median_of("sleep 0.01")
pairs = [("sleep, identical", "sleep 0.01", "sleep 0.01"),
         ("cc -c, identical", "cc -c %s -o a.o" % src, "cc -c %s -o b.o" % src),
         ("sleep, B 10%% slower (sleep %.4f)" % slow, "sleep 0.01", "sleep %.4f" % slow)]
print("# load before: %s" % open("/proc/loadavg").read().strip())
for name, a, b in pairs:
    cd = hd = 0
    cr, hr = [], []
    for t in range(trials):
        v, r, lo, hi = cmd_run(a, b)
        hratio, hunc = hf_run(a, b)
        cd += v in ("faster", "slower")
        hd += abs(hratio - 1) > hunc
        cr.append(r)
        hr.append(hratio)
        print("%s\ttrial %d\tcmd %s %.3f [%s, %s]\thyperfine %.3f +- %.3f" % (name, t + 1, v, r, lo, hi, hratio, hunc))
        sys.stdout.flush()
    print("## %s: chronoscope-cmd called them different %d/%d (ratios %.3f..%.3f); hyperfine %d/%d (%.3f..%.3f)"
          % (name, cd, trials, min(cr), max(cr), hd, trials, min(hr), max(hr)))
    sys.stdout.flush()
print("# load after: %s" % open("/proc/loadavg").read().strip())
shutil.rmtree(work, ignore_errors=True)

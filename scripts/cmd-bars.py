#!/usr/bin/env python3
"""cmd-bars.py TOOL [TRIALS [PAIR ...]] — chronoscope-cmd's error rates beside
hyperfine's, on the same pairs in the same minutes (docs/commands.md has the
figures).  cmd-bars.py --baseline BASELINE_PROG [TRIALS]: the named baselines'
bar instead (below).

Pairs: `sleep 0.01` twice; a short `cc -c` twice; `sleep 0.01` against a
sleep made 10% longer in wall time (0.01 s + 10% of the first's median, measured
first).  Each trial runs chronoscope-cmd (defaults: 3 s a command, the budget
doubled while undecided, up to 3 looks) and then hyperfine (defaults;
--export-json) on the pair; each line has both tools' rounds and seconds.  chronoscope-cmd calls
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
import time



def baseline_bars(prog, trials):
    """Each trial: --save=base (tests/baseline_prog.c, body and fixed of the same work), then
    --compare=base --fail-above=5 unchanged and with the body made 20% slower (CHRONO_TEST_WORK=12
    chains, not 10); each line has both exit codes, now/baseline as measured (the drift in) and
    with the drift taken out, and the drift the calibration read."""
    import re
    work = tempfile.mkdtemp(prefix="baseline-bars-")
    counts = {"unchanged": [], "slower": []}
    print("# load before: %s" % open("/proc/loadavg").read().strip())
    for t in range(trials):
        subprocess.run([prog, "--save=base"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work)
        line = []
        for what, work_n in (("unchanged", "10"), ("slower", "12")):
            env = dict(os.environ, CHRONO_TEST_WORK=work_n)
            p = subprocess.run([prog, "--compare=base", "--fail-above=5", "--format=json"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True, cwd=work, env=env)
            rows = json.loads(p.stdout)["baseline"]
            rows = rows.get("rows", rows) if isinstance(rows, dict) else rows
            body = [r for r in rows if r["entry"] == "body"][0]
            m = re.search(r"drift ([0-9.]+) \[([0-9.]+), ([0-9.]+)\]", body["why"])
            raw = float(body["now/baseline"]) * (float(m.group(1)) if m else 1.0)   # the drift put back
            counts[what].append(p.returncode)
            line.append("%s exit %d %s raw %.3f corrected %.3f [%s, %s] drift %s" % (
                what, p.returncode, body["verdict"], raw, float(body["now/baseline"]), body["ci_low"],
                body["ci_high"], "%s [%s, %s]" % m.groups() if m else "none"))
        print("trial %d\t%s\tload %s" % (t + 1, "\t".join(line), open("/proc/loadavg").read().split()[0]))
        sys.stdout.flush()
    for what, codes in counts.items():
        print("## %s: exit 0 %d/%d, exit 1 %d/%d, other %d" % (what, codes.count(0), trials, codes.count(1), trials,
                                                              len(codes) - codes.count(0) - codes.count(1)))
    print("# load after: %s" % open("/proc/loadavg").read().strip())
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(0)


if sys.argv[1] == "--baseline":
    baseline_bars(os.path.abspath(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 20)
tool = os.path.abspath(sys.argv[1])
trials = int(sys.argv[2]) if len(sys.argv) > 2 else 20
work = tempfile.mkdtemp(prefix="cmd-bars-")
src = os.path.join(work, "small.c")
with open(src, "w") as f:
    for i in range(40):
        f.write("int f%d(const int *v, int n) { int s = %d; for (int i = 0; i < n; i++) s += v[i] * %d; return s; }\n"
                % (i, i, i + 1))


def cmd_run(a, b):
    t0 = time.time()
    out = subprocess.run([tool, a, b, "--format=json"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         universal_newlines=True, cwd=work).stdout
    doc = json.loads(out)
    ab = doc["ab"][0]
    return ab["verdict"], float(ab["ratio"]), ab["ci_low"], ab["ci_high"], doc["commands"][0]["runs"], time.time() - t0


def hf_run(a, b):
    exp = os.path.join(work, "hf.json")
    t0 = time.time()
    subprocess.run(["hyperfine", "--style=none", a, b, "--export-json", exp],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work)
    with open(exp) as f:
        r = json.load(f)["results"]
    ma, sa, mb, sb = r[0]["mean"], r[0]["stddev"] or 0, r[1]["mean"], r[1]["stddev"] or 0
    ratio = mb / ma
    unc = ratio * ((sa / ma) ** 2 + (sb / mb) ** 2) ** 0.5   # hyperfine's propagation
    return ratio, unc, len(r[0]["times"]), time.time() - t0


def median_of(cmd):
    out = subprocess.run([tool, cmd, "--format=json"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         universal_newlines=True, cwd=work).stdout
    return float(json.loads(out)["commands"][0]["median_ms"]) / 1e3


slow = 0.01 + 0.1 * median_of("sleep 0.01")
pairs = [("sleep, identical", "sleep 0.01", "sleep 0.01"),
         ("cc -c, identical", "cc -c %s -o a.o" % src, "cc -c %s -o b.o" % src),
         ("sleep, B 10%% slower (sleep %.4f)" % slow, "sleep 0.01", "sleep %.4f" % slow)]
print("# load before: %s" % open("/proc/loadavg").read().strip())
only = sys.argv[3:]   # pair numbers (1 2 3) to run; all by default
for i, (name, a, b) in enumerate(pairs):
    if only and str(i + 1) not in only:
        continue
    cd = hd = 0
    cr, hr = [], []
    for t in range(trials):
        v, r, lo, hi, rounds, secs = cmd_run(a, b)
        hratio, hunc, hruns, hsecs = hf_run(a, b)
        cd += v in ("faster", "slower")
        hd += abs(hratio - 1) > hunc
        cr.append(r)
        hr.append(hratio)
        print("%s\ttrial %d\tcmd %s %.3f [%s, %s] %d rounds %.0f s\thyperfine %.3f +- %.3f %d runs %.0f s\tload %s"
              % (name, t + 1, v, r, lo, hi, rounds, secs, hratio, hunc, hruns, hsecs,
                 open("/proc/loadavg").read().split()[0]))
        sys.stdout.flush()
    print("## %s: chronoscope-cmd called them different %d/%d (ratios %.3f..%.3f); hyperfine %d/%d (%.3f..%.3f)"
          % (name, cd, trials, min(cr), max(cr), hd, trials, min(hr), max(hr)))
    sys.stdout.flush()
print("# load after: %s" % open("/proc/loadavg").read().strip())
shutil.rmtree(work, ignore_errors=True)

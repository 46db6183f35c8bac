"""check_cmd.py CHRONOSCOPE-CMD CMD_SPIN BASELINE_PROG
chronoscope-cmd (tools/) on commands of known work (tests/cmd_spin.c: N
million dependent adds): two identical commands are not called different, one
with twice the work is called slower with a ratio near 2; hyperfine's JSON
export has its fields, consistent with the runs and with the report; the
--prepare command runs before every run; a failing command stops the runs
(exit 1) unless -i; bad input exits 2 naming the value; the export's temp file
is gone after SIGINT.  Then --save / --compare (program.h, baseline.h) on
tests/baseline_prog.c: unchanged exit 0, a body 3x slower exit 1 naming it (50% allowed),
a missing or malformed baseline exit 2 naming the file."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import ok, done  # noqa: E402

tool, spin, prog = [os.path.abspath(a) for a in sys.argv[1:4]]
work = tempfile.mkdtemp(prefix="check_cmd-")
NOT_DIFFERENT = ("no clear difference", "inconclusive")


def run(args, cmd=None, env=None, cwd=work):
    p = subprocess.run((cmd or [tool]) + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=240, env=env, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def report(args):
    """The JSON report's tables (--format=json), the exit status and stderr."""
    rc, out, err = run(list(args) + ["--format=json"])
    try:
        doc = json.loads(out)
    except ValueError:
        doc = {}
    return rc, doc, err


def rows(doc, key):
    t = doc.get(key)
    if isinstance(t, dict):
        t = t.get("rows", [])
    return t if isinstance(t, list) else []


def cell(row, col):
    v = row.get(col) if isinstance(row, dict) else None
    return float(v) if isinstance(v, (int, float)) or (isinstance(v, str) and v.replace(".", "", 1).isdigit()) else v


# ---- two identical commands: not called different ------------------------------------------
a, b = "%s 150" % spin, "%s 150 0" % spin
rc, doc, err = report([a, b, "--runs=15", "--warmup=1", "--threshold=10"])
ab = rows(doc, "ab")
ok(rc == 0 and len(ab) == 1 and ab[0].get("verdict") in NOT_DIFFERENT,
   "identical commands: not called different (%s, exit %d, %r)" % (ab[0].get("verdict") if ab else None, rc, err[-300:]))
r = cell(ab[0], "ratio") if ab else None
ok(isinstance(r, float) and 0.8 < r < 1.25, "identical commands: ratio %r within 0.8..1.25" % r)

# ---- twice the work: slower, ratio near 2 -------------------------------------------------------
rc, doc, err = report(["%s 300" % spin, "%s 600" % spin, "--runs=12"])
ab = rows(doc, "ab")
r = cell(ab[0], "ratio") if ab else None
ok(rc == 0 and ab and ab[0].get("verdict") == "slower", "twice the work: called slower (%s)" % (ab[0] if ab else err[-300:]))
# each run's fork, exec and wait (tens of ms under load) is in both: the ratio reads below 2
ok(isinstance(r, float) and 1.4 < r < 2.3, "twice the work: ratio %r within 1.4..2.3" % r)
lo, hi = (cell(ab[0], "ci_low"), cell(ab[0], "ci_high")) if ab else (None, None)
ok(isinstance(lo, float) and isinstance(hi, float) and lo <= r <= hi and lo > 1,
   "twice the work: interval [%r, %r] holds the ratio and lies above 1" % (lo, hi))

# ---- the looks: without --runs, the rounds go on while undecided, each look at its level ----------
# 3 looks at 95%: 98.75% at looks 1 and 2, 97.5% at look 3 (chrono_command_look_level).
import re  # noqa: E402
for what, pair in (("twice the work", ["%s 100" % spin, "%s 200" % spin]),
                   ("identical", ["%s 100" % spin, "%s 100 0" % spin])):
    rc, out, err = run(pair + ["--max-ms=150"])
    m = re.search(r"signed-rank interval at ([0-9.]+)%", out)
    k = re.search(r"look (\d) of 3", out)
    rounds = re.search(r"(\d+) rounds interleaved", out)
    want = {"1": "98.75", "2": "98.75", "3": "97.5"}.get(k.group(1) if k else None)
    ok(rc == 0 and m and k and want == m.group(1) and int(rounds.group(1)) >= 10,
       "%s, --max-ms=150: look %s of 3, its interval at %s%% (want %s%%), %s rounds (%r)"
       % (what, k.group(1) if k else None, m.group(1) if m else None, want, rounds.group(1) if rounds else None,
          err[-200:]))
    if what == "twice the work":
        ok("slower" in out, "twice the work, looks: called slower")

# ---- hyperfine's JSON export, against the runs and the report ------------------------------------
exp = os.path.join(work, "export.json")
log = os.path.join(work, "prepare.log")
rc, doc, err = report(["%s 20" % spin, "%s 40" % spin, "-r", "8", "-w", "2", "--prepare", "echo x >> %s" % log,
                       "--export-json=%s" % exp])
try:
    with open(exp) as f:
        hf = json.load(f)
except (OSError, ValueError):
    hf = {}
res = hf.get("results", [])
keys = ("command", "mean", "stddev", "median", "user", "system", "min", "max", "times", "exit_codes")
ok(rc == 0 and len(res) == 2 and all(all(k in x for k in keys) for x in res),
   "export: 2 results with every field of hyperfine's (exit %d, %r)" % (rc, err[-200:]))
good = True
for x in res:
    t = x["times"]
    good &= len(t) == 8 and x["exit_codes"] == [0] * 8
    good &= abs(x["mean"] - sum(t) / len(t)) <= 1e-6 * max(1.0, x["mean"]) + 1e-9
    good &= x["min"] == min(t) and x["max"] == max(t) and x["min"] <= x["median"] <= x["max"]
    good &= x["user"] >= 0 and x["system"] >= 0 and x["stddev"] >= 0
ok(res and good, "export: 8 times and exit codes 0 each; mean, min, max from the times; min <= median <= max")
cmds = rows(doc, "commands")
same = len(cmds) == 2 and all(abs(cell(c, "median_ms") - x["median"] * 1e3) < 6e-4 and
                              abs(cell(c, "mean_ms") - x["mean"] * 1e3) < 6e-4 and cell(c, "runs") == 8 and
                              c.get("command") == x["command"] for c, x in zip(cmds, res))
ok(same, "the report's 'commands' table has the export's medians and means (ms, 4 decimals)")
try:
    with open(log) as f:
        lines = len(f.read().splitlines())
except OSError:
    lines = -1
ok(lines == 2 * (8 + 2), "--prepare ran before every run, warm-ups included: %d lines for 20 runs" % lines)
ok(not os.path.exists(exp + ".tmp"), "export: no temp file left beside it")

# ---- -P: a parameter scan ----------------------------------------------------------------------
exp2 = os.path.join(work, "scan.json")
rc, out, err = run(["%s {n}0" % spin, "-P", "n", "1", "3", "--runs=3", "--export-json=%s" % exp2])
try:
    with open(exp2) as f:
        res = json.load(f)["results"]
except (OSError, ValueError, KeyError):
    res = []
ok(rc == 0 and [x.get("command") for x in res] == ["%s %d0" % (spin, n) for n in (1, 2, 3)] and
   [x.get("parameters") for x in res] == [{"n": str(n)} for n in (1, 2, 3)],
   "-P n 1 3: three commands with {n} replaced, their parameters exported (exit %d)" % rc)

# ---- failures ----------------------------------------------------------------------------------
rc, out, err = run(["%s 1 3" % spin, "--runs=3"])
ok(rc == 1 and "status 3" in err and spin in err, "a command exiting 3: exit 1, named with its status (%r)" % err.strip())
rc, doc, err = report(["%s 1 3" % spin, "-i", "--runs=3", "--export-json=%s" % exp])
with open(exp) as f:
    codes = json.load(f)["results"][0]["exit_codes"]
ok(rc == 0 and codes == [3, 3, 3], "-i: the runs recorded with exit codes %r, exit %d" % (codes, rc))

# ---- bad input: exit 2, the value named --------------------------------------------------------
for what, args, word in [("a scan bound that is not a number", ["true", "-P", "n", "x", "3"], "'x'"),
                         ("a scan range backwards", ["true", "-P", "n", "5", "3"], "5..3"),
                         ("--runs=0", ["true", "--runs=0"], "'0'"),
                         ("no command", ["--runs=3"], "no command"),
                         ("an empty command", ["true", ""], "empty"),
                         ("an export into a missing directory", ["true", "--export-json=/nonexistent/d/x.json"],
                          "/nonexistent/d/x.json"),
                         ("--threshold=-1", ["true", "--threshold=-1"], "'-1'"),
                         ("--looks=0", ["true", "true", "--looks=0"], "'0'"),
                         ("--looks=11", ["true", "true", "--looks=11"], "'11'")]:
    rc, out, err = run(args)
    ok(rc == 2 and word in err, "%s: exit 2 (got %d) naming %s (%r)" % (what, rc, word, err.strip()[:200]))

# ---- SIGINT: the export's temp file removed, the child stopped ------------------------------------
exp3 = os.path.join(work, "interrupted.json")
p = subprocess.Popen([tool, "%s 100000" % spin, "--runs=3", "--export-json=%s" % exp3], cwd=work,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(1.5)
seen = os.path.exists(exp3 + ".tmp")
p.send_signal(signal.SIGINT)
p.wait(timeout=30)
ok(seen and not os.path.exists(exp3 + ".tmp") and not os.path.exists(exp3) and p.returncode == -signal.SIGINT,
   "SIGINT: the temp file (there: %s) removed, no export, died of SIGINT (%d)" % (seen, p.returncode))

# ---- named baselines: --save, --compare ---------------------------------------------------------
env = dict(os.environ)
flags = ["--samples=31", "--max-ms=3000"]
rc, out, err = run(flags + ["--save=base"], cmd=[prog], env=env)
saved = os.path.join(work, ".chronoscope", "base.json")
ok(rc == 0 and os.path.exists(saved) and not os.path.exists(saved + ".tmp"),
   "--save=base: exit %d, .chronoscope/base.json written (%r)" % (rc, err[-200:]))
# A baseline is a separate run: the machine's drift between two runs is in its ratios (here,
# under load 12-15, the same body read 0.87-1.03 of its baseline, another 0.64 once; a 5%
# threshold failed an unchanged body 1 suite run in 5).  So the checks hold the flags to what
# they promise with a margin no drift reaches: a 50% threshold, a body 3x slower; and each
# has three tries, the baseline saved again just before each.  (The 20% / 5% figures of
# docs/commands.md are measurements, not this test.)
def tries(work_env, want_rc, extra=()):
    got = None
    for attempt in range(3):
        run(flags + ["--save=base"], cmd=[prog], env=dict(os.environ))
        got = run(flags + ["--compare=base", "--fail-above=50"] + list(extra), cmd=[prog], env=work_env)
        if got[0] == want_rc:
            break
    return attempt + 1, got


n, (rc, out, err) = tries(env, 0)
ok(rc == 0 and "drift" in out and "baseline" in out, "unchanged: exit 0 (try %d; %r)" % (n, err[-300:]))
# The calibration (baseline.h): three runs of a fixed body saved with the baseline and run again
# by --compare; their now/saved is taken out of every row, the range it allows in the interval.
with open(saved) as f:
    names = [b.get("name") for b in json.load(f).get("benchmarks", [])]
ok(names.count("body") == 1 and all(("chrono:calibration %d" % k) in names for k in (1, 2, 3)),
   "the baseline holds body and three calibration runs (%r)" % names)
drifts = re.findall(r"drift ([0-9.]+) \[([0-9.]+), ([0-9.]+)\] taken out", out)
ok(len(drifts) == 2 and all(float(lo) <= float(d) <= float(hi) for d, lo, hi in drifts),
   "each row names the drift taken out, within its range (%r)" % drifts)
with open(saved) as f:
    doc = json.load(f)
doc["benchmarks"] = [b for b in doc["benchmarks"] if not b["name"].startswith("chrono:calibration")]
old_base = os.path.join(work, "old.json")
with open(old_base, "w") as f:
    json.dump(doc, f)
rc, out, err = run(flags + ["--compare=%s" % old_base, "--fail-above=50"], cmd=[prog], env=env)
ok(rc in (0, 1) and out.count("no calibration in the baseline") == 2,
   "a baseline without calibration runs: compared as it is (exit %d: the drift is in), each row says so" % rc)
env["CHRONO_TEST_WORK"] = "30"
n, (rc, out, err) = tries(env, 1, ["--format=json"])
try:
    table = rows(json.loads(out), "baseline")
except ValueError:
    table = []
verdicts = dict((r.get("entry"), r.get("verdict")) for r in table)
ok(rc == 1 and "body" in err, "body 3x slower, 50%% allowed: exit 1 (got %d, try %d) naming body (%r)" % (rc, n, err.strip()))
ok(verdicts.get("body") == "slower", "the JSON 'baseline' table: a verdict a row (%r)" % verdicts)
body = [r for r in table if r.get("entry") == "body"]
q = cell(body[0], "now/baseline") if body else None
# near 3: a body's median can read 1.6x its usual in one run and not the next (load spells of a
# few hundred ms, seen at load 8-10 beside a busy vCPU), which no calibration run sees
ok(isinstance(q, float) and 1.5 < q < 6, "body: now/baseline %r near 3 (1.5..6)" % q)
del env["CHRONO_TEST_WORK"]
rc, out, err = run(flags + ["--compare=nope"], cmd=[prog], env=env)
ok(rc == 2 and ".chronoscope/nope.json" in err, "a missing baseline: exit 2 naming the file (%r)" % err.strip())
bad = os.path.join(work, "bad.json")
with open(bad, "w") as f:
    f.write('{"context": {}, "benchmarks": [{"name": "body", "median')
rc, out, err = run(flags + ["--compare=%s" % bad], cmd=[prog], env=env)
ok(rc == 2 and bad in err, "a malformed baseline: exit 2 naming the file (%r)" % err.strip())
rc, out, err = run(["--compare=base", "--fail-above=x"], cmd=[prog], env=env)
ok(rc == 2 and "--fail-above" in err and "'x'" in err, "--fail-above=x: exit 2 naming it (%r)" % err.strip()[:200])
done()

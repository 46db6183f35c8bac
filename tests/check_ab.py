"""check_ab.py TOOL BASE.so HEAD.so DISJOINT.so OLDVERSION.so PLAINLIB.so PROGRAM
chronoscope-ab (tools/): bad input exits 2 with a message naming the file;
a real A/B of two builds of tests/ab_module.c, whose "add" does 3x the work in
HEAD, calls it slower and the identical "same" not; exit status 1; the "ab"
table's figures checked against the comparisons they came from, in JSON and
in the text on the console, and BMF's against JSON's rules."""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import ok, skip, done  # noqa: E402

SHORT = ("too few pairs or processes", "(too few processes)")   # chrono_change_decide's words

tool, base, head, disjoint, old, plainlib, program = sys.argv[1:8]


def run(*args, **kw):
    p = subprocess.run([tool] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=240, env=kw.get("env"))
    return p.returncode, p.stdout, p.stderr


# ---- bad input: exit 2, the file named ---------------------------------------------------
missing = os.path.join(tempfile.gettempdir(), "no-such-module-%d.so" % os.getpid())
for what, args, path, words in [
        ("a missing file", [missing, head], missing, "No such file"),
        ("a plain program", [base, program], program, "cannot be loaded"),
        ("a shared library that is no module", [plainlib, head], plainlib, "is not a benchmark module"),
        ("a module of another header version", [base, old], old, "built with chronoscope 0.1.0"),
        ("two modules without an entry in common", [base, disjoint], disjoint, "no entry in common")]:
    rc, out, err = run(*(args + ["--quick", "--processes=1"]))
    ok(rc == 2 and path in err and words in err and err.count("\n") == 1,
       "%s: exit 2 (got %d), one line naming '%s' (%r)" % (what, rc, os.path.basename(path), err.strip()[:300]))
rc, out, err = run(base)
ok(rc == 2 and "two modules" in err, "one module only: exit 2 (got %d, %r)" % (rc, err.strip()))
rc, out, err = run(base, head, "--threshold=-1")
ok(rc == 2 and "--threshold" in err, "--threshold=-1: exit 2 naming the flag (got %d)" % rc)
rc, out, err = run("--help")
ok(rc == 0 and "entirely above 1" in out and "1 + threshold/2" in out and "--threshold" in out,
   "--help states the rule and the flag")

# ---- a real A/B: "add" 3x slower in HEAD, "same" identical --------------------------------
with tempfile.TemporaryDirectory() as d:
    js = os.path.join(d, "ab.json")
    # --threshold=10: "same" is identical code, and must stay within 10% however busy the machine;
    # 21 samples and a 5 s budget, not --quick's 11 and 300 ms: under load 16-24 the
    # budget ran out now and then before the pairs reached a 95% interval
    # (inconclusive, exit 0)
    # Run again (three runs at most) while "add" comes out inconclusive for want of
    # samples: on a busy machine the rejected ones can use up a run's attempts before
    # the pairs reach a 95% interval (issue 31: 1 of 32 suite runs); then a skip.
    # Run again, once, when the identical "same" is called slower or faster: the rule's
    # interval (a sign test, 97.3% for 21 pairs) calls a change that is not there in up
    # to 1.35% of runs a side, and a host spell that toggles the core between two speeds
    # (pairs at 0.88, 1 and 1.14) gets it there: "slower, 1.1259 [1.0003, 1.1371]" once in
    # some 200 runs of this check (issue 31, a gcc leg; 150 runs in such a spell read 146
    # no clear difference and 4 inconclusive).  Called in two runs is a fault.
    called, shorts = [], 0   # the runs that called identical code slower or faster; add short
    while True:
        rc, out, err = run(base, head, "--quick", "--samples=21", "--max-ms=5000", "--processes=1", "--threshold=10",
                           "--out=" + js)
        doc = json.load(open(js)) if rc in (0, 1) else {}
        got = {r["entry"]: r for r in doc.get("ab", [])}
        add, same = got.get("add") or {}, got.get("same") or {}
        short = add.get("verdict") == "inconclusive" and any(w in (add.get("why") or "") for w in SHORT)
        shorts += short
        call = same.get("verdict") in ("slower", "faster")
        if call:
            called.append("%s %s" % (same["verdict"], same.get("why")))
        if (short and shorts < 3) or (call and len(called) == 1):
            print("# run again: %s" % ("identical code called " + called[-1] if call else
                                       "add inconclusive for want of samples: %r" % add.get("why")))
            continue
        break
    if short:
        skip("an entry slower: three runs inconclusive for want of samples on a busy machine (%r)" % add.get("why"))
    else:
        ok(rc == 1, "an entry slower: exit 1 (got %d; stderr %r)" % (rc, err[-300:]))
    doc = json.load(open(js))
    rows = {r["entry"]: r for r in doc.get("ab", [])}
    cmps = {c["a"]: c for c in doc.get("comparisons", [])}
    add, same = rows.get("add"), rows.get("same")
    # Under AddressSanitizer the instrumented loop's step is not one speed: the
    # asan leg read 3.64 for 3x the steps (its CI run failed on it): wider there.
    lo, hi = (2.0, 4.5) if os.environ.get("CHRONO_TEST_ASAN") == "1" else (2.5, 3.6)
    # Inconclusive for want of samples (skipped above), the few pairs' figure can stray: its
    # interval, where it has one, must still reach into the bounds (3 pairs read 3.69 once)
    near = add is not None and (lo < add["head/base"] < hi or short and (
        add["ci_low"] is None or (add["ci_low"] < hi and add["ci_high"] > lo)))
    ok(add is not None and (add["verdict"] == "slower" or short) and near,
       "add (3x the adds): slower, head/base %s [%s, %s] (within %g..%g%s)" % (
           add and add["head/base"], add and add["ci_low"], add and add["ci_high"], lo, hi,
           "; inconclusive for want of samples: its interval reaches into them" if short else ""))
    # Identical code: never called slower (or faster).  What the rule promises of its
    # figure: "no clear difference" only with head/base and its interval within 1 +- 10%;
    # a figure beyond that is called inconclusive (the interval reaches beyond the
    # threshold).  Under AddressSanitizer the two copies' instrumented loops read 0.84
    # in CI's asan leg, and under load once outside 0.9..1.1 (issue 31): inconclusive.
    asan = os.environ.get("CHRONO_TEST_ASAN") == "1"
    ok(same is not None and same["verdict"] in ("no clear difference", "inconclusive") and
       (same["verdict"] == "inconclusive" or 0.9 < same["ci_low"] <= same["head/base"] <= same["ci_high"] < 1.1)
       and len(called) <= 1,
       "same (identical code): not slower nor faster, within 1 +- 10%% unless inconclusive (%s, %s [%s, %s]%s%s)" %
       (same and same["verdict"], same and same["head/base"], same and same["ci_low"], same and same["ci_high"],
        ", under ASan" if asan else "",
        "; %d run(s) called it so: %s" % (len(called), "; ".join(called))
        if called else ""))
    for name in ("add", "same"):
        c, r = cmps.get("base/" + name), rows.get(name)
        good = c is not None and r is not None and c["b"] == "head/" + name
        inv = lambda v: None if v is None else 1 / v   # a figure the run has not (null): null in both
        for key, want in (("head/base", inv(c["ratio"])), ("ci_low", inv(c["ci_high"])), ("ci_high", inv(c["ci_low"])),
                          ("cycles head/base", inv(c["cycles_ratio"]))) if good else ():
            good = good and ((want is None and r[key] is None) or
                             (want is not None and r[key] is not None and abs(r[key] - want) <= 0.00005 + 1e-9))
        ok(good, "%s: the ab row's head/base, interval and cycles are 1 / the comparison's (A = base)%s" %
           (name, "" if good else ": row %r, comparison %r" % (r, c and {k: c.get(k) for k in (
               "ratio", "ci_low", "ci_high", "cycles_ratio")})))
    ok(rows.get("only_base", {}).get("verdict") == "only in base" and rows["only_base"]["head/base"] is None and
       rows.get("only_head", {}).get("verdict") == "only in head",
       "entries of one module only: listed, not compared")
    heads = [b for b in doc["benchmarks"] if b.get("side") == "b" and b.get("vs") == "base/add"]
    ok(len(heads) == 1 and abs(heads[0]["ratio"] - add["head/base"]) <= 0.00005 and
       any(b.get("side") == "a" and b.get("vs") == "head/add" for b in doc["benchmarks"]),
       "Google Benchmark JSON holds both sides, the head's ratio being head/base")
    # The console against the JSON of the same run: its verdicts, whichever they are (a
    # run that stayed inconclusive for want of samples, skipped above, says so in both)
    line = [ln for ln in out.splitlines() if ln.startswith("add ")]
    ok(len(line) == 1 and ("%.4f" % add["head/base"]) in line[0] and add["verdict"] in line[0] and
       (short or "slower" in line[0]),
       "the console's ab row reads as JSON's (%s): %r" % (add["verdict"], line[:1]))
    told = [r["verdict"] for r in (add, same)]
    summary = "2 compared: %d slower, %d faster, %d no clear difference, %d inconclusive" % tuple(
        told.count(v) for v in ("slower", "faster", "no clear difference", "inconclusive"))
    ok(summary in out and "entirely above 1" in out and "above 1.05, half --threshold=10%" in out,
       "the summary counts the verdicts as JSON has them (%r) and the title states the rule" % summary)

    # BMF: the same entries; head's ratio is head/base, base's its inverse, with the intervals
    for attempt in range(3):   # as above: again while inconclusive, the note on stderr says so
        rc, out, err = run(base, head, "--quick", "--samples=21", "--max-ms=5000", "--processes=1", "--threshold=10",
                           "--format=bmf", "--filter=add")
        short = rc == 0 and "1 compared: 0 slower, 0 faster, 0 no clear difference, 1 inconclusive" in err
        if not short:
            break
        print("# bmf: add inconclusive, run again")
    # The ratio is the pairs' (as "add" above: 2.5..3.6); each side's latency is that
    # side's own median, which a host spell toggling the core between speeds moves on its
    # own: 3.64 for 3x the adds beside a paired 3.22 (base's median at the low end of
    # [1087, 1498] ns; issue 31, 1 of 10 suite runs).  The latencies must still say which
    # side is slower, and by about what: beyond 1.5 (swapped sides read 0.33) and below 6.
    doc = json.loads(out) if rc in (0, 1) else {}
    h, b = doc.get("head/add", {}), doc.get("base/add", {})
    good = rc == 1 and set(doc) == {"base/add", "head/add"} and "ratio" in h and "latency" in b
    if good:
        r, lat = h["ratio"], h["latency"]
        good = (2.5 < r["value"] < 3.6 and r["lower_value"] <= r["value"] <= r["upper_value"] and
                abs(b["ratio"]["value"] * r["value"] - 1) < 1e-9 and
                abs(b["ratio"]["lower_value"] * r["upper_value"] - 1) < 1e-9 and
                lat["lower_value"] <= lat["value"] <= lat["upper_value"] and
                1.5 < lat["value"] / b["latency"]["value"] < 6)
    if short and not good:
        skip("--format=bmf: three runs inconclusive on a busy machine")
    else:
        ok(good, "--format=bmf: latency and ratio per side with their intervals, exit 1 (got %d): %r" % (rc, out[:400]))

    # ---- the default: the adaptive gate, looks at fresh processes ------------------------
    # 8 processes at the first look, each entry pooled over them (the median of their
    # ratios, its sign-test interval); the threshold 10% as above, identical code within it
    rc, out, err = run(base, head, "--threshold=10", "--out=" + js)
    doc = json.load(open(js)) if rc in (0, 1) else {}
    rows = {r["entry"]: r for r in doc.get("ab", [])}
    add, same = rows.get("add") or {}, rows.get("same") or {}
    gate = [ln for ln in out.splitlines() if ln.startswith("gate: ")]
    ok(rc == 1 and add.get("verdict") == "slower" and 2.5 < add.get("head/base", 0) < 3.6 and
       add["ci_low"] <= add["head/base"] <= add["ci_high"],
       "the gate: add slower, exit 1 (got %d, %s %s [%s, %s])" % (rc, add.get("verdict"), add.get("head/base"),
                                                                   add.get("ci_low"), add.get("ci_high")))
    ok(same.get("verdict") in ("no clear difference", "inconclusive") and
       (same.get("verdict") == "inconclusive" or 0.9 <= same["ci_low"] <= same["ci_high"] <= 1.1),
       "the gate: same (identical code) neither slower nor faster (%s %s [%s, %s])" % (
           same.get("verdict"), same.get("head/base"), same.get("ci_low"), same.get("ci_high")))
    ok(len(gate) == 1 and " processes (8 at the first" in gate[0] and "for 2 entries" in gate[0],
       "the gate says its looks, processes and time: %r" % (gate[:1],))
    cmps = {c["a"]: c for c in doc.get("comparisons", [])}
    ok("base/add" in cmps and "base/same" in cmps,
       "the gate's report holds each pair's comparison pooled over its processes (%s)" % sorted(cmps))
    # --filter reaches the children: only add runs
    rc, out, err = run(base, head, "--threshold=10", "--filter=add")
    ok(rc == 1 and "1 compared: 1 slower" in out and "\nsame " not in out,
       "the gate with --filter=add: add alone, slower, exit 1 (got %d: %r)" % (rc, err.strip()[-200:]))
    rc, out, err = run(base, head, "--threshold=10", "--filter=nothing-like-it")
    ok(rc == 2 and "--filter" in err, "the gate with a --filter that selects nothing: exit 2 (got %d: %r)" % (rc, err.strip()))
    rc, out, err = run(base, head, "--only=7")
    ok(rc == 2 and "--only=7" in err, "--only=7 (no such pair): exit 2 naming it (got %d: %r)" % (rc, err.strip()))

# ---- placement copies: each module loaded --copies times a process, from temp copies -------
def left(d):
    """What a run left under d (its copies' directory and files, if any)."""
    return [os.path.join(r, n) for r, ds, fs in os.walk(d) for n in ds + fs]


with tempfile.TemporaryDirectory() as d:
    env = dict(os.environ, TMPDIR=d)
    rc, out, err = run(base, head, "--quick", "--processes=1", "--threshold=10", "--filter=add", env=env)
    notes = dict(re.findall(r"placement: (base|head) module loaded 4 times, its descriptor at ((?:0x[0-9a-f]+ ?)+)", out + err))
    addrs = {k: v.split() for k, v in notes.items()}
    ok(rc in (0, 1) and len(addrs) == 2 and all(len(set(a)) == 4 for a in addrs.values()) and
       not set(addrs["base"]) & set(addrs["head"]),
       "--copies=4 (the default): each module loaded 4 times, at 4 different addresses (%r)" % (addrs,))
    turns = dict(re.findall(r"placement: (base|head)'s turns a copy, add: ([0-9 ]+)", out + err))
    turns = {k: [int(x) for x in v.split()] for k, v in turns.items()}
    ok(len(turns) == 2 and all(len(t) == 4 and min(t) > 0 and max(t) - min(t) <= 1 for t in turns.values()),
       "each side of a pair turns among its 4 copies, call by call (turns a copy: %r)" % (turns,))
    ok(not left(d), "--processes=1: the placement copies removed after the run (%r)" % (left(d),))
    rc, out, err = run(base, head, "--quick", "--processes=1", "--copies=1", "--threshold=10", "--filter=add", env=env)
    ok(rc in (0, 1) and "placement:" not in out + err and not left(d), "--copies=1: no copies, no note (got %d)" % rc)
    rc, out, err = run(base, head, "--threshold=10", env=env)   # the budget's later looks: a process may fail under load
    gate = [ln for ln in out.splitlines() if ln.startswith("gate: ")]
    ok(rc == 1 and "2 compared: 1 slower" in out and len(gate) == 1 and "4 placements of each module" in gate[0],
       "the gate's children load the parent's copies: add slower, exit 1 (got %d: %r)" % (rc, gate[:1]))
    ok(not left(d), "the gate: the placement copies removed after the run (%r)" % (left(d),))
    rc, out, err = run(base, head, "--copies=9", env=env)
    ok(rc == 2 and "--copies" in err and not left(d), "--copies=9: exit 2 naming the flag (got %d: %r)" % (rc, err.strip()))
    # Ctrl-C while the gate runs (SIGINT to its process group, as a terminal sends it): the copies go with it
    p = subprocess.Popen([tool, base, head, "--budget-s=60", "--processes=32", "--samples=101", "--max-ms=2000"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    seen, t0 = [], time.time()
    while time.time() - t0 < 60 and len(seen) < 7 and p.poll() is None:   # the directory and its 6 copies
        time.sleep(0.05)
        seen = left(d)
    os.killpg(p.pid, signal.SIGINT)
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    ok(len(seen) == 7 and p.returncode == -signal.SIGINT and not left(d),
       "Ctrl-C during the gate: it dies of SIGINT (got %s) with its 6 copies seen before and none left after (%r)"
       % (p.returncode, left(d)))
rc, out, err = run(base, head, "--processes=1", "--copy-dir=/no-such-dir-for-chronoscope-ab")
ok(rc == 2 and "/no-such-dir-for-chronoscope-ab/base-1.so" in err,
   "a process whose copies are missing: exit 2 naming the copy (got %d: %r)" % (rc, err.strip()))
rc, out, err = run(base, head, "--processes=1", env=dict(os.environ, TMPDIR="/no-such-dir-for-chronoscope-ab"))
ok(rc == 2 and "/no-such-dir-for-chronoscope-ab" in err and "--copies=1" in err,
   "no directory for the copies: exit 2 naming it (got %d: %r)" % (rc, err.strip()))
done()

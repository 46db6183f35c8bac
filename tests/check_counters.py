"""examples/counters with --counters: the kernel's software events per
iteration in text, CSV and JSON (a 50 us sleep is ~1 context switch, a fresh
page ~1 page fault, within 10%), CPU time beside real time (a sleeping body's
is a small share of it), an entry's own counters (in the streamed
header too), a hardware counter this
machine lacks said once and never printed, and an unknown name refused."""
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import ok, done, skip  # noqa: E402

exe = sys.argv[1]
SW = "--counters=context-switches,page-faults,task-clock"


def run(*args):
    p = subprocess.run([exe, "--quick"] + list(args), capture_output=True, text=True, timeout=240)
    return p.returncode, p.stdout, p.stderr


def near1(v):
    return v is not None and 0.9 <= v <= 1.1


# Under AddressSanitizer a fresh page's shadow (one byte per 8) is a fresh page
# per 8 more: 1.125 faults per touched page (the asan leg read 1.17).  The figure
# is the median over samples of a few iterations each (1-3 under ASan), so a
# sample holding the shadow's fault reads 1.5 at 2 a sample, and the median of
# 7 samples kept of 19 did once (issue 31): up to 1.5 there.
ASAN = os.environ.get("CHRONO_TEST_ASAN") == "1"
SHADOW = 0.125 if ASAN else 0.0


def near1_faults(v):
    return v is not None and 0.9 <= v <= (1.5 if ASAN else 1.1)


def by_name(rows, key="name"):
    return {r[key]: r for r in rows}


rc, out, err = run(SW, "--format=json")
if rc != 0 and "open: none" in out:
    skip("no perf_event_open here")
    done()
ok(rc == 0, "json run exits 0 (%d) %s" % (rc, err.strip()[:200]))
doc = json.loads(out)
b = by_name(doc["benchmarks"])
sl, fp = b["sleep_50us"], b["fresh_page"]
ok("open: task-clock, context-switches, page-faults" in doc["context"].get("counters", ""),
   "json context says which counters are open: %r" % doc["context"].get("counters"))
ok(near1(sl.get("context-switches")), "json: sleep_50us %s context switches per iteration (0.9..1.1)" % sl.get("context-switches"))
ok(near1_faults(fp.get("page-faults")), "json: fresh_page %s page faults per iteration (0.9..%.3g)" % (fp.get("page-faults"), 1.5 if ASAN else 1.1))
mem = fp.get("page_faults_minor_per_iteration")
# getrusage also counts the engine's own first touches, and under ASan their shadow
# too (the asan leg read 1.214 once): twice the shadow's share there.
ok(mem is not None and 0.95 <= mem <= 1.05 + 2 * SHADOW,
   "json: fresh_page's memory figure (getrusage over the sampling) %s faults an iteration agrees with the counter "
   "(0.95..%.3g; the engine's own first touches of its columns once read 1.10 here)" % (mem, 1.05 + 2 * SHADOW))
ok(sl.get("page-faults", 1) < 0.1 and fp.get("context-switches", 1) < 0.1,
   "json: no faults in the sleep (%s), no switches in the touch (%s)" % (sl.get("page-faults"), fp.get("context-switches")))
ok(sl["cpu_time"] < 0.5 * sl["real_time"] and sl["task-clock"] < 0.5 * sl["real_time"],
   "json: the sleep's CPU time %.0f ns and task-clock %.0f ns are under half its real time %.0f ns"
   % (sl["cpu_time"], sl["task-clock"], sl["real_time"]))
ok(fp["cpu_time"] > 0.5 * fp["real_time"], "json: the touch's CPU time %.0f ns is most of its real time %.0f ns"
   % (fp["cpu_time"], fp["real_time"]))
# A blocking body's CPU figures are its samples' own, read around each: CPU time per
# iteration = CPU share x the mean sample (exact where no sample migrated or went
# backwards, none capped); the whole sampling's, with the engine's work between samples
# in, read 2.5-5.6% more here, and once 0.755 of the real time where the samples' own was 0.2.
exact = (sl["rejected_migrated"] == 0 and sl["rejected_backwards"] == 0 and sl["cpu_time"] < sl["real_time"]
         and sl["cpu_share"] < 1)
own = sl["cpu_share"] * sl["mean_every_sample_ns"]
ok(not exact or abs(sl["cpu_time"] / own - 1) <= 1e-6,
   "json: the sleep's CPU time %.1f ns is its samples' own: CPU share %.4f x mean sample %.1f ns (%.1f)%s"
   % (sl["cpu_time"], sl["cpu_share"], sl["mean_every_sample_ns"], own,
      "" if exact else "; a sample migrated or a figure capped: not comparable"))
ok("instructions" not in sl and "ipc" not in sl, "json: no field for a counter not asked for")

rc, out, err = run(SW, "--format=csv")
rows = list(csv.DictReader(io.StringIO(out)))
c = by_name(rows)
ok(rc == 0 and near1(float(c["sleep_50us"]["context-switches"] or 0)) and near1_faults(float(c["fresh_page"]["page-faults"] or 0)),
   "csv: %s switches per sleep, %s faults per fresh page" % (c["sleep_50us"]["context-switches"], c["fresh_page"]["page-faults"]))
ok(c["sleep_50us"]["instructions"] == "" and c["sleep_50us"]["ipc"] == "", "csv: counters not asked for are empty")
ok(float(c["sleep_50us"]["cpu_time"]) < 0.5 * float(c["sleep_50us"]["median_ns"]), "csv: cpu_time beside median_ns")

rc, out, err = run(SW)
lines = out.splitlines()
per = {}
for i, line in enumerate(lines):
    if line.startswith("  per iteration:"):
        name = lines[i - 1].split()[0]
        per[name] = line
m_sw = re.search(r"ctx-sw (\S+) \[(\S+), (\S+)\]", per.get("sleep_50us", ""))
m_pf = re.search(r"faults (\S+) ", per.get("fresh_page", ""))
ok(rc == 0 and m_sw and near1(float(m_sw.group(1))) and m_pf and near1_faults(float(m_pf.group(1))),
   "text: %r / %r" % (per.get("sleep_50us"), per.get("fresh_page")))
ok(m_sw and float(m_sw.group(2)) <= float(m_sw.group(1)) <= float(m_sw.group(3)), "text: the median's interval brackets it")
ok(sum(1 for l in lines if l.startswith("counters ")) == 1, "text: one counters line in the header")

# an entry's own counter, without --counters
rc, out, err = run("--format=json")
b = by_name(json.loads(out)["benchmarks"])
ok(rc == 0 and b["add_chain"].get("task-clock", 0) > 0 and "context-switches" not in b["sleep_50us"],
   "an entry's own counter (add_chain: task-clock %s ns), none on the others" % b["add_chain"].get("task-clock"))
rc, out, err = run("--filter=add_chain")
head = [l for l in out.split("\n") if l.startswith("counters ")]
ok(rc == 0 and len(head) == 1 and "task-clock" in head[0],
   "text: the streamed header names an entry's own counters too (%s)" % head)

# a hardware counter: where there is no PMU, said once and never printed
rc, out, err = run("--counters=instructions")
header = [l for l in out.splitlines() if l.startswith("counters ")]
if header and "unavailable: instructions" in header[0]:
    ok(rc == 0 and out.count("unavailable: instructions") == 1 and "instr " not in out
       and all("per iteration: task-ns" in l for l in out.splitlines() if "per iteration:" in l),
       "--counters=instructions without a PMU: exit 0, said once (%s), no figure" % header[0])
    rc, out, err = run("--counters=instructions", "--format=json")
    doc = json.loads(out)
    ok(rc == 0 and all("instructions" not in x for x in doc["benchmarks"]) and
       "unavailable: instructions" in doc["context"]["counters"], "json: no instructions field, the reason in context")
else:
    ok(rc == 0 and "instr " in out, "a PMU: instructions counted: %s" % header)

rc, out, err = run("--counters=cycles,instrs")
ok(rc == 2 and "instrs" in err and err.count("\n") <= 3, "an unknown counter exits 2 naming it: %r" % err.strip())
done()

#!/usr/bin/env python3
"""--processes=N: quickstart pools five fresh processes (a processes field per
benchmark, a CI at least as wide as the five medians' spread), and a child
killed with SIGKILL is reported while the other four's results are kept.
Linux only (it finds the children in /proc).  TAP on stdout."""
import json, os, signal, subprocess, sys, time

exe = sys.argv[1]
n = 0
def ok(cond, what):
    global n
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, what))
    return cond

if not sys.platform.startswith("linux"):
    print("1..0 # SKIP needs Linux's /proc to find the children")
    sys.exit(0)

# 1. five processes, pooled; a busy host can make a child's entry fail (every
#    sample rejected): up to three tries
for attempt in range(3):
    r = subprocess.run([exe, "--processes=5", "--quick", "--format=json"], capture_output=True, text=True, timeout=300)
    try:
        if all(b.get("processes") == 5 for b in json.loads(r.stdout)["benchmarks"]):
            break
    except (ValueError, KeyError):
        pass
    print("# try %d: not every benchmark from five processes (%s)" % (attempt + 1, r.stderr.strip()[:300]))
ok(r.returncode == 0, "quickstart --processes=5 --quick --format=json exits 0 (%d; stderr: %s)" % (r.returncode, r.stderr.strip()[:200]))
try:
    d = json.loads(r.stdout)
except ValueError as e:
    d = {"benchmarks": []}
    ok(False, "the JSON parses (%s)" % e)
bs = d["benchmarks"]
ok(bs and all(b.get("processes") == 5 for b in bs), "every benchmark says processes: 5 (%s)" % [b.get("processes") for b in bs])
wide = [b["ci_high_ns"] - b["ci_low_ns"] >= b["between_processes_max_ns"] - b["between_processes_min_ns"] for b in bs]
ok(bs and all(wide), "each CI is at least as wide as the spread of the five medians (%s)" %
   ["%.1f..%.1f vs %.1f..%.1f" % (b["ci_low_ns"], b["ci_high_ns"], b["between_processes_min_ns"], b["between_processes_max_ns"]) for b in bs])
procs = d.get("processes", [])
ok(len(procs) == 5 and all(p["status"].startswith(("ok", "exit status 1 (an entry failed")) for p in procs),
   "a processes table: five rows (%s)" % [p["status"] for p in procs])

# 2. one child killed
p = subprocess.Popen([exe, "--processes=5", "--quick", "--samples=101", "--format=json"], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True)
seen, victim, deadline = [], None, time.time() + 120
while victim is None and time.time() < deadline and p.poll() is None:
    try:
        with open("/proc/%d/task/%d/children" % (p.pid, p.pid)) as f:
            kids = [int(x) for x in f.read().split()]
    except OSError:
        kids = []
    for k in kids:
        if k not in seen:
            seen.append(k)
    if len(seen) >= 2:
        victim = seen[1]
        time.sleep(0.05)
        try:
            os.kill(victim, signal.SIGKILL)
        except OSError:
            victim = None
    time.sleep(0.005)
out, err = p.communicate(timeout=300)
if victim is None:
    ok(False, "found the second child to kill")
else:
    ok(p.returncode == 1, "a killed child makes the exit status 1 (%d)" % p.returncode)
    ok("process 2 of 5" in err and "SIGKILL" in err, "stderr names the process and the signal: %s" % err.strip()[:200])
    d = json.loads(out)
    procs = d.get("processes", [])
    ok(len(procs) == 5 and sum(p_["status"] != "ok" for p_ in procs) == 1 and "SIGKILL" in procs[1]["status"],
       "the processes table marks process 2 killed (%s)" % [p_["status"] for p_ in procs])
    ok(d["benchmarks"] and all(b.get("processes") == 4 for b in d["benchmarks"]),
       "the other four's results are kept: processes: 4 (%s)" % [b.get("processes") for b in d["benchmarks"]])
print("1..%d" % n)

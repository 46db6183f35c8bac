#!/usr/bin/env python3
"""check_register.py PROGRAM -- a program of three CHRONO_BENCHMARK lines and
CHRONO_MAIN() (registered_main): --list names the three in source order,
--filter selects among them, a run measures each (JSON), a bad flag exits 2.
TAP on stdout."""
import json
import subprocess
import sys

from tap import done, ok

PROG = sys.argv[1]
NAMES = ["zeta_add", "alpha_mul", "mid_xor"]


def run(*args):
    return subprocess.run([PROG] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)


p = run("--list")
got = p.stdout.decode().splitlines()
ok(p.returncode == 0 and got == NAMES, "--list: %s in source order, exit 0 (got %s, %d)" % (NAMES, got, p.returncode))
p = run("--list", "--filter=-alpha")
got = p.stdout.decode().splitlines()
ok(p.returncode == 0 and got == ["zeta_add", "mid_xor"], "--list --filter=-alpha: the other two (got %s)" % got)
p = run("--quick", "--samples=5", "--format=json")
try:
    doc = json.loads(p.stdout.decode())
    names = [b.get("name") for b in doc.get("benchmarks", [])]
    medians = [b.get("real_time") for b in doc.get("benchmarks", [])]
    shapes = [(b.get("iterations_per_sample"), b.get("warnings")) for b in doc.get("benchmarks", [])]
except ValueError as e:
    names, medians, shapes = ["(not JSON: %s)" % e], [], []
ok(p.returncode == 0 and names == NAMES, "a run: the three measured, in order, exit 0 (got %s, %d)" % (names, p.returncode))
ok(len(medians) == 3 and all(isinstance(m, (int, float)) and m > 0 for m in medians),
   "each has a positive median (%s; iterations a sample and warnings: %s)" % (medians, shapes))
p = run("--filter=(")
ok(p.returncode == 2 and b"--filter" in p.stderr, "--filter='(': exit 2 (got %d)" % p.returncode)
done()

#!/usr/bin/env python3
"""check_examples.py QUICKSTART CALLCONV -- the examples' reports read back
end to end: callconv's JSON writes every number as a JSON number (a signed
delta "+84.73" included).  TAP on stdout."""
import json
import re
import subprocess
import sys

from tap import done, ok

QUICKSTART, CALLCONV = sys.argv[1], sys.argv[2]
NUMBER = re.compile(r"^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$")


def run(*args):
    p = subprocess.run(list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    if p.returncode != 0:
        print("# %s exited %d: %s" % (" ".join(args), p.returncode, p.stderr.decode("utf-8", "replace").strip()[:300]))
    return p


def number_strings(x, path=""):
    """The paths of strings that read as a number."""
    if isinstance(x, dict):
        return [p for k, v in x.items() for p in number_strings(v, path + "/" + k)]
    if isinstance(x, list):
        return [p for i, v in enumerate(x) for p in number_strings(v, "%s/%d" % (path, i))]
    return [path + "=" + repr(x)] if isinstance(x, str) and NUMBER.match(x) else []


def check_callconv_numbers():
    p = run(CALLCONV, "--quick", "--format=json")
    try:
        doc = json.loads(p.stdout.decode("utf-8"))
    except ValueError as e:
        ok(False, "callconv --quick --format=json parses: %s" % e)
        return
    ok(p.returncode == 0, "callconv --quick --format=json: exit 0")
    bad = number_strings(doc)
    ok(not bad, "callconv json: no number written as a string (%s)" % ", ".join(bad[:5]))
    rows = doc.get("part1_replica", [])
    ok(rows and all(r.get("delta_ns_vs_libc") is None or isinstance(r["delta_ns_vs_libc"], (int, float)) for r in rows) and
       any(isinstance(r.get("delta_ns_vs_libc"), (int, float)) for r in rows),
       "callconv json: part1_replica's delta_ns_vs_libc are numbers (or null), whatever their sign")


check_callconv_numbers()
done()

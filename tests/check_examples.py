#!/usr/bin/env python3
"""check_examples.py QUICKSTART CALLCONV -- the examples' reports read back
end to end: callconv's JSON writes every number as a JSON number (a signed
delta "+84.73" included); quickstart with --samples=1 and --samples=3, in
every format, never shows an interval as a 95% one when it is not: its real
level beside it, n/a for a single sample, the row and the comparison marked
(LOW_LEVEL), no verdict.  TAP on stdout."""
import csv
import html
import io
import json
import re
import subprocess
import sys

from tap import done, ok

MARKED = re.compile(r" !\d+(,\d+)*$")   # a row's flags: " !17", " !9,10"

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


def level(n):
    """Coverage of [min, max] as the median's interval, n values: 1 - 2 / 2^n."""
    return 1 - 2.0 ** (1 - n)


def ci_ok(cell, n):
    """A CI cell for a row of n samples under a 95% header."""
    if n == 1:
        return cell == "n/a"
    if n <= 5:
        return cell.startswith("[") and cell.endswith(" %d%%" % round(100 * level(n)))
    return cell.startswith("[") and not cell.endswith("%")


def rows_ok(rows, what):
    """rows: (name cell, CI cell, samples) of a table; every CI cell says its level, every short one is marked."""
    bad = [r for r in rows if not ci_ok(r[1], r[2]) or (r[2] <= 5 and not MARKED.search(r[0]))]
    ok(rows and not bad, "%s: %d rows, each CI cell n/a (1 sample) or with its level (2-5), the row marked !%s" %
       (what, len(rows), (": " + repr(bad[:2])) if bad else ""))


VERDICT = re.compile(r"\bno verdict: (\d+) pairs? (?:gives no interval|give a (\d+)% interval, not 95%)")


FULL_VERDICT = re.compile(r"x \[[-\d.]+, [-\d.]+\] \u2014 (?:\S+ is [\d.]+x faster|no clear difference: the \d+% interval)")


def verdict_ok(line, what):
    """Few pairs: no verdict, the real level or none; enough pairs (the runner
    may take 6 or more when it replaces contended ones): a verdict at 95%."""
    m = VERDICT.search(line)
    pairs = int(m.group(1)) if m else 0
    good = m and pairs <= 5 and (pairs == 1) == (m.group(2) is None) and \
        (pairs == 1 and "[n/a]" in line or pairs > 1 and m.group(2) == "%d" % round(100 * level(pairs)))
    if not m:
        good = FULL_VERDICT.search(line) is not None
    ok(good, "%s: the comparison gives no verdict and says why, unless it has 6 pairs or more (%r)" % (what, line.strip()[:160]))


def text_rows(out):
    lines = out.split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("name "))
    rows = []
    for l in lines[start + 1:]:
        if not l.strip():
            break
        f = re.split(r"\s{2,}", l.strip())
        if len(f) >= 7 and "\u00d7" in f[6]:
            rows.append((f[0], f[2], int(f[6].split("\u00d7")[1].strip().rstrip("*"))))
    return rows


def check_quickstart(samples):
    flag = "--samples=%d" % samples
    what = "quickstart %s" % flag
    p = run(QUICKSTART, flag)
    out = p.stdout.decode("utf-8")
    rows = text_rows(out)
    rows_ok(rows, what + " text")
    cmp = [l for l in out.split("\n") if l.startswith("in_order vs stride_64: ")]
    ok(p.returncode == 0 and len(cmp) == 1 and (MARKED.search(cmp[0]) or "no verdict" not in cmp[0]) and
       "!17 LOW_LEVEL: " in out, what + " text: the comparison line marked ! (when it has too few pairs), the LOW_LEVEL footnote")
    if cmp:
        verdict_ok(cmp[0], what + " text")
    ok(samples > 1 or "(none with 1 sample)" in out, what + " text: the run line says one sample gives no interval")

    p = run(QUICKSTART, flag, "--format=md")
    out = p.stdout.decode("utf-8")
    cells = [[c.strip() for c in l.split("|")[1:-1]] for l in out.split("\n") if l.startswith("| ")]
    cells = [c for c in cells if len(c) > 6 and "\u00d7 " in c[6] and c[0] != "name"]
    rows_ok([(c[0], c[2], int(c[6].split("\u00d7")[1].strip().rstrip("*"))) for c in cells], what + " md")
    cmp = [l for l in out.split("\n") if l.startswith("- in_order vs stride_64: ")]
    ok(len(cmp) == 1 and (MARKED.search(cmp[0]) or "no verdict" not in cmp[0]),
       what + " md: the comparison marked ! (when it has too few pairs)")
    if cmp:
        verdict_ok(cmp[0], what + " md")

    p = run(QUICKSTART, flag, "--format=csv")
    recs = list(csv.DictReader(io.StringIO(p.stdout.decode("utf-8"), newline="")))
    bad = [r["name"] for r in recs if (r["ci_low_ns"] == "") != (r["samples"] == "1") or
           abs(float(r["ci_level"]) - min(level(int(r["samples"])), 0.95)) > 0.05 or
           ("LOW_LEVEL" in r["warnings"].split("|")) != (int(r["samples"]) <= 5)]
    ok(recs and not bad, what + " csv: ci_low_ns empty for one sample, ci_level the real level, LOW_LEVEL on short rows %s" % bad)

    p = run(QUICKSTART, flag, "--format=json")
    doc = json.loads(p.stdout.decode("utf-8"))
    runs = doc["benchmarks"]
    bad = [b["name"] for b in runs if (b["ci_low_ns"] is None) != (b["samples"] == 1) or
           (b["ci_high_ns"] is None) != (b["samples"] == 1) or
           (b["samples"] <= 5 and abs(b["ci_level"] - level(b["samples"])) > 1e-12) or
           ("LOW_LEVEL" in b["warnings"]) != (b["samples"] <= 5)]
    ok(runs and not bad, what + " json: ci_low_ns/ci_high_ns null for one sample, ci_level the real level, LOW_LEVEL %s" % bad)
    c = doc["comparisons"][0] if doc["comparisons"] else {}
    rounds = c.get("rounds", 0)
    ok(c and ("LOW_LEVEL" in c["warnings"]) == (rounds <= 5) and (c["ci_low"] is None) == (rounds == 1) and
       (rounds > 5 or (c["faster"] is None and c["speedup"] is None and abs(c["ci_level"] - level(rounds)) < 1e-12)),
       what + " json: the comparison of %d pairs: below 6, no verdict (faster, speedup null), LOW_LEVEL, its level, "
       "no interval from one pair" % rounds)

    p = run(QUICKSTART, flag, "--format=html")
    page = p.stdout.decode("utf-8")
    table = page[page.index('<table class="sum">'):page.index("</table>")]
    cells = [[html.unescape(c) for c in re.findall(r"<td>(.*?)</td>", tr)] for tr in re.findall(r"<tr>(.*?)</tr>", table)]
    cells = [c for c in cells if c]
    rows_ok([(c[0], c[2], int(c[6].split("\u00d7")[1].strip().rstrip("*"))) for c in cells], what + " html")
    verdict_ok(html.unescape(re.sub(r"<[^>]+>", "", page[page.index("<h2>Summary</h2>"):page.index("<h2>Runs</h2>")])),
               what + " html")


def check_pooled():
    """--processes=3: the pooled interval's level is over 3 processes (75%): the rows and the comparison say so."""
    if not sys.platform.startswith("linux"):
        return
    p = run(QUICKSTART, "--processes=3", "--quick", "--format=json")
    try:
        doc = json.loads(p.stdout.decode("utf-8"))
    except ValueError as e:
        ok(False, "quickstart --processes=3 json parses: %s" % e)
        return
    runs = [b for b in doc["benchmarks"] if b.get("processes") == 3]
    bad = [b["name"] for b in runs if abs(b["ci_level"] - 0.75) > 1e-12 or "LOW_LEVEL" not in b["warnings"]]
    c = doc["comparisons"][0] if doc["comparisons"] else {}
    ok(len(runs) == 4 and not bad and abs(c.get("ci_level", 0) - 0.75) < 1e-12 and "LOW_LEVEL" in c.get("warnings", []) and
       c.get("faster", 1) is None, "quickstart --processes=3: every pooled row and the comparison at 75%%, LOW_LEVEL, no verdict %s" % bad)


check_callconv_numbers()
check_pooled()
check_quickstart(1)
check_quickstart(3)
done()

#!/usr/bin/env python3
"""check_report.py FIXTURE -- read the reports of report_fixture back with
independent parsers (python's json and csv modules) and check the values:
names with '"', '\\', tab, newline, comma, non-ASCII and invalid UTF-8
survive; the JSON has Google Benchmark's schema and no NaN; the CSV is
rectangular; the markdown table has the same cells on every row; the text
has colour only on a terminal without NO_COLOR.  TAP on stdout."""
import csv
import html.parser
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from tap import done, ok, pty_output, skip

FIXTURE = sys.argv[1] if len(sys.argv) > 1 else "./report_fixture"

QUOTE = b'quote"back\\slash'
CTRL = b"tab\there, new\nline"
UTF8 = "\u00fcn\u00ef \u2713 \u8a08\u6642 \u2014 \u00b5s".encode()
BAD = b"bad\xff|\xe2\x82|\xed\xa0\x80|\xc0\xaf|\xf0\x9f\x98\x80|\r"
FIXED = [QUOTE, CTRL, UTF8, BAD, b"copy/1", b"copy/2", b"copy/4", b"no_samples",
         b"imul1000", b"add1000", b"same_a", b"same_b"]
# invalid UTF-8 becomes U+FFFD, one per maximal subpart, as Python decodes it
FIXED_NAMES = [n.decode("utf-8", "replace") for n in FIXED]
# the rows of text, markdown and HTML label a comparison's sides "a: " and "b: "
SIDES = ["", "", "", "", "", "", "", "", "a", "b", "a", "b"]
ROW_NAMES = [(s + ": " if s else "") + n for s, n in zip(SIDES, FIXED_NAMES)]
MEASURED_NAMES = [n.decode() for n in (QUOTE, CTRL, UTF8)] + ["copy/8", "copy/16", "copy/32", "mul", "add"]


def json_names(runs):
    """The names as written, with a comparison side's unique "a vs b/a" taken
    back to its own name (checked once, in json_unique_names)."""
    return [b["name"][len(b["group"]) + 1:] if b.get("kind") == "compare" else b["name"] for b in runs]


def json_unique_names(runs, what):
    names = [b["name"] for b in runs]
    sides = [b for b in runs if b.get("kind") == "compare"]
    ok(len(set(names)) == len(names) and sides and
       all(b["name"] == b["group"] + "/" + b["name"][len(b["group"]) + 1:] for b in sides),
       "%s: names are unique; a comparison side is named \"a vs b/side\"" % what)


def run(*args, env=None):
    p = subprocess.run([FIXTURE] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=300)
    if p.returncode != 0:
        print("# %s exited %d: %s" % (" ".join(args), p.returncode, p.stderr.decode("utf-8", "replace").strip()))
    return p


def reject_constant(name):
    raise ValueError("non-JSON constant " + name)


def load_json(data):
    return json.loads(data.decode("utf-8"), parse_constant=reject_constant)


# ---- JSON ---------------------------------------------------------------------------
GB_CONTEXT = {"date": str, "host_name": str, "executable": str, "num_cpus": int, "mhz_per_cpu": int,
              "cpu_scaling_enabled": bool, "caches": list, "load_avg": list, "library_build_type": str}
GB_RUN = {"name": str, "family_index": int, "per_family_instance_index": int, "run_name": str, "run_type": str,
          "repetitions": int, "repetition_index": int, "threads": int, "iterations": int,
          "real_time": (int, float), "cpu_time": (int, float), "time_unit": str}


def check_schema(doc, label):
    ctx = doc.get("context", {})
    ok(all(isinstance(ctx.get(k), t) and not (t is int and isinstance(ctx.get(k), bool)) for k, t in GB_CONTEXT.items()),
       "%s: context has Google Benchmark's fields with their types" % label)
    ok(re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$", ctx.get("date", "")) is not None,
       "%s: context date is ISO 8601 with offset" % label)
    ok(all(set(c) == {"type", "level", "size", "num_sharing"} for c in ctx.get("caches", [])), "%s: caches" % label)
    runs = doc.get("benchmarks", [])
    ok(all(isinstance(b.get(k), t) for b in runs for k, t in GB_RUN.items()),
       "%s: every benchmark has Google Benchmark's run fields" % label)
    ok(all(b["run_type"] == "iteration" and b["time_unit"] == "ns" and b["run_name"] == b["name"] and
           b["repetitions"] == 1 and b["repetition_index"] == 0 and
           b["threads"] == (1 if "slowest_thread_ns" not in b else b["threads"]) >= 1 for b in runs),
       "%s: run_type iteration, time_unit ns, one repetition, one thread (a threaded run: its threads)" % label)
    keys = list(runs[0].keys()) if runs else []
    ok(keys[:12] == list(GB_RUN.keys()), "%s: Google Benchmark's field order first" % label)
    return ctx, runs


def check_json_fixed():
    p = run("--fixed", "--format=json")
    try:
        doc = load_json(p.stdout)
    except ValueError as e:
        ok(False, "fixed json parses: %s" % e)
        return
    ok(p.returncode == 0, "fixed json: exit 0")
    ok(set(doc) == {"context", "benchmarks", "comparisons", "sweeps"}, "fixed json: top-level keys")
    ctx, runs = check_schema(doc, "fixed json")
    ok(ctx["host_name"] == "fixture-host" and ctx["num_cpus"] == 8 and ctx["mhz_per_cpu"] == 3500 and
       ctx["cpu_scaling_enabled"] is False and ctx["library_build_type"] == "release" and ctx["load_avg"] == [0.25],
       "fixed json: context values")
    ok(ctx["caches"] == [{"type": "Data", "level": 1, "size": 32768, "num_sharing": 2},
                         {"type": "Unified", "level": 2, "size": 1048576, "num_sharing": 2}], "fixed json: caches")
    ok(ctx["pinned_cpu"] == 2 and ctx["clock"] == "tsc" and ctx["clock_hz"] == 3e9 and ctx["vm"] is True and
       ctx["core_ghz"] == 3.5 and ctx["compiler"] == "gcc 12.2.0" and len(ctx["warnings"]) == 2,
       "fixed json: our context fields")
    names = json_names(runs)
    json_unique_names(runs, "fixed json")
    ok(names == FIXED_NAMES, "fixed json: every name survives (quote, backslash, tab, newline, comma, UTF-8, U+FFFD)")
    by = dict(zip(names, runs))
    q = by.get(FIXED_NAMES[0], {})
    ok(q.get("real_time") == 1500 and q.get("cpu_time") == 1125 and q.get("cpu_share") == 0.75 and q.get("median_ns") == 1500 and
       q.get("ci_low_ns") == 1497.5 and q.get("ci_high_ns") == 1502.5 and q.get("mad_ns") == 5 and
       q.get("cycles_per_iteration") == 5250 and q.get("iterations") == 101000 and q.get("samples") == 101 and
       q.get("outliers") == 4 and q.get("cv") == 10 / 1515 and q.get("rejected_migrated") == 2 and
       q.get("rejected_preempted") == 1 and q.get("rejected_contended") == 3,
       "fixed json: statistics of the first result")
    c = by.get(FIXED_NAMES[1], {})
    ok(c.get("real_time") == 0.285 and c.get("cycles_per_iteration", 1) is None and c.get("core_ghz", 1) is None,
       "fixed json: unknown cycles are null")
    ok(q.get("controls") == 25 and q.get("controls_slow") == 3 and q.get("control_reading") == 1.0025 and
       c.get("controls") == 0 and c.get("controls_slow") == 0 and c.get("control_reading", 1) is None,
       "fixed json: controls, controls_slow and control_reading (null without controls)")
    ok(c.get("cpu_time") == 0.285 and c.get("cpu_share", 1) is None and by.get("copy/2", {}).get("cpu_time") == 15,
       "fixed json: cpu_time is the CPU time per iteration (0.75 x 20 ns), the real time where it is unknown")
    t, one = by.get("copy/4", {}), by.get("copy/2", {})
    ok(t.get("threads") == 4 and t.get("slowest_thread_ns") == 50 and t.get("iterations_per_second_all_threads") == 8e7 and
       one.get("threads") == 1 and "slowest_thread_ns" not in one and "iterations_per_second_all_threads" not in one,
       "fixed json: a threaded run's threads, slowest_thread_ns and iterations_per_second_all_threads (absent when not threaded)")
    n = by.get("no_samples", {})
    ok(n.get("error_occurred") is True and n.get("real_time") == 0 and n.get("median_ns", 1) is None,
       "fixed json: a result without samples is an error run with null statistics")
    ok(by.get(FIXED_NAMES[2], {}).get("truncated") is True, "fixed json: truncated flag")
    fam = [(b["family_index"], b["per_family_instance_index"]) for b in runs]
    ok(fam[4:7] == [(4, 0), (4, 1), (4, 2)] and fam[7] == (5, 0), "fixed json: a sweep's points share one family")
    ok(fam[8:12] == [(6, 0), (6, 1), (7, 0), (7, 1)], "fixed json: a comparison's sides share one family")
    ok(len({f for f, _ in fam}) == 8, "fixed json: families numbered")
    ok(by.get(FIXED_NAMES[0], {}).get("mean_every_sample_ns") == 1530 and n.get("mean_every_sample_ns", 1) is None,
       "fixed json: the mean of every whole sample (1.02 x the median here), null without samples")
    ok(q.get("bytes_per_second") == 2e9 and "items_per_second" not in q and
       by.get("copy/2", {}).get("items_per_second") == 2e8 and "bytes_per_second" not in by.get("copy/2", {}),
       "fixed json: bytes_per_second and items_per_second where the run set them")
    ok([b.get("side", "") for b in runs] == SIDES, "fixed json: side a / b on a comparison's entries only")
    a = by.get("imul1000", {})
    ok(a.get("vs") == "add1000" and a.get("ratio") == 3.001 and by.get("add1000", {}).get("vs") == "imul1000",
       "fixed json: comparison sides name each other")
    cmp = doc["comparisons"]
    ok(len(cmp) == 2 and cmp[0]["name"] == "imul1000 vs add1000" and cmp[0]["ratio"] == 3.001 and
       cmp[0]["ci_low"] == 2.999 and cmp[0]["ci_high"] == 3.003 and cmp[0]["faster"] == "add1000" and
       cmp[1]["faster"] is None and cmp[1]["speedup"] is None, "fixed json: comparisons")
    sw = doc["sweeps"]
    ok(len(sw) == 1 and sw[0]["name"] == "copy" and sw[0]["points"] == 3 and sw[0]["per_unit_ns"] == 10 and
       sw[0]["r2"] == 1 and sw[0]["first_result"] == 4, "fixed json: sweeps")
    raw = p.stdout
    ok(b"NaN" not in raw and b"Infinity" not in raw, "fixed json: no NaN or Infinity tokens")
    ok(b"\xf0\x9f\x98\x80" in raw and "\u8a08\u6642".encode() in raw, "fixed json: valid UTF-8 passed through unescaped")


# ---- CSV -----------------------------------------------------------------------------
def parse_csv(data):
    return list(csv.reader(io.StringIO(data.decode("utf-8"), newline=""), strict=True))


def check_csv_fixed():
    p = run("--fixed", "--format=csv")
    try:
        rows = parse_csv(p.stdout)
    except (ValueError, csv.Error) as e:
        ok(False, "fixed csv parses: %s" % e)
        return
    head, body = rows[0], rows[1:]
    ok(p.returncode == 0 and head[:3] == ["name", "kind", "group"], "fixed csv: header row")
    ok(all(len(r) == len(head) for r in rows), "fixed csv: rectangular (%d columns)" % len(head))
    ok([r[0] for r in body] == FIXED_NAMES, "fixed csv: every name survives")
    col = {k: i for i, k in enumerate(head)}
    first = body[0]
    ok(float(first[col["median_ns"]]) == 1500 and float(first[col["ci_low_ns"]]) == 1497.5 and
       first[col["samples"]] == "101" and first[col["kind"]] == "run" and first[col["rejected_preempted"]] == "1" and
       first[col["rejected_contended"]] == "3" and float(first[col["mean_every_sample_ns"]]) == 1530,
       "fixed csv: values of the first result")
    ok(float(first[col["cpu_time"]]) == 1125 and float(first[col["cpu_share"]]) == 0.75 and
       float(body[1][col["cpu_time"]]) == 0.285 and body[1][col["cpu_share"]] == "" and float(body[5][col["cpu_time"]]) == 15 and
       body[7][col["cpu_time"]] == "",
       "fixed csv: cpu_time (the median where the OS does not say, empty without a median) and cpu_share (empty where unknown)")
    ok(first[col["controls"]] == "25" and first[col["controls_slow"]] == "3" and float(first[col["control_reading"]]) == 1.0025 and
       body[1][col["controls"]] == "0" and body[1][col["control_reading"]] == "",
       "fixed csv: controls, controls_slow, control_reading (empty without controls)")
    ok(body[6][col["threads"]] == "4" and float(body[6][col["slowest_thread_ns"]]) == 50 and
       float(body[6][col["iterations_per_second_all_threads"]]) == 8e7 and first[col["threads"]] == "1" and
       first[col["slowest_thread_ns"]] == "",
       "fixed csv: threads (1 when not threaded), slowest_thread_ns and iterations_per_second_all_threads (empty then)")
    ok(body[1][col["cycles_per_iteration"]] == "" and body[7][col["median_ns"]] == "", "fixed csv: unknown values are empty")
    ok([r[col["kind"]] for r in body[4:7]] == ["sweep"] * 3 and body[4][col["group"]] == "copy", "fixed csv: sweep points")
    ok([r[col["side"]] for r in body] == SIDES, "fixed csv: side a / b on a comparison's rows, empty elsewhere")
    ok(float(first[col["bytes_per_second"]]) == 2e9 and float(body[5][col["items_per_second"]]) == 2e8 and
       first[col["items_per_second"]] == "" and all(r[col["bytes_per_second"]] == "" for r in body[1:]),
       "fixed csv: bytes_per_second and items_per_second where the run set them, else empty")
    ok(body[8][col["vs"]] == "add1000" and float(body[8][col["ratio"]]) == 3.001 and
       abs(float(body[9][col["ratio"]]) - 1 / 3.001) < 1e-9 and body[9][col["group"]] == "imul1000 vs add1000",
       "fixed csv: comparison sides with their ratio")
    ok(p.stdout.endswith(b"\r\n") and p.stdout.count(b"\r\n") == len(rows), "fixed csv: CRLF record ends")


def csv_as_json(key, cell, entry):
    """A CSV cell in the JSON member's terms: "" is null, numbers are numbers,
    warnings "A|B" a list, truncated 0/1 a bool."""
    if key == "warnings":
        return cell.split("|") if cell else []
    if key == "truncated":
        return cell == "1"
    if cell == "":
        return 0 if key == "cpu_time" and entry.get("error_occurred") else None   # Google Benchmark's 0
    if isinstance(entry.get(key), str):
        return cell
    return float(cell)


def check_csv_json_same():
    """One field list: every CSV column that is also a JSON member has the same
    name, and the same value, row by row (the run it came from)."""
    rows = parse_csv(run("--fixed", "--format=csv").stdout)
    doc = load_json(run("--fixed", "--format=json").stdout)
    head, body, runs = rows[0], rows[1:], doc["benchmarks"]
    ok(not {"cycles_median", "iters_per_sample", "cpu_time_ns"} & set(head) and
       {"cycles_per_iteration", "iterations_per_sample", "cpu_time"} <= set(head),
       "csv and json: one name per field (cycles_per_iteration, iterations_per_sample, cpu_time)")
    shared = [k for k in head if any(k in b for b in runs)]
    ok(len(shared) >= len(head) - 1 and "name" in shared and "median_ns" in shared,
       "csv and json: every CSV column but none is a JSON member too (%d of %d)" % (len(shared), len(head)))
    bad = []
    for r, b in zip(body, runs):
        for k in shared:
            if k == "name" or k not in b:   # JSON's name of a comparison side is "a vs b/side"; absent: not applicable
                continue
            want, got = b[k], csv_as_json(k, r[head.index(k)], b)
            if isinstance(want, float) and isinstance(got, float) and abs(want - got) <= 1e-9 * max(1.0, abs(want)):
                continue
            if want != got:
                bad.append("%s.%s: csv %r json %r" % (b["name"], k, r[head.index(k)], want))
    ok(len(body) == len(runs) and not bad, "csv and json: each shared field has the same value in both, row by row %s" % bad[:3])


# ---- markdown ---------------------------------------------------------------------------
PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def md_cells(line):
    cells, cur, i = [], "", 0
    while i < len(line):
        ch = line[i]
        # CommonMark: a backslash escapes ASCII punctuation only
        if ch == "\\" and i + 1 < len(line) and line[i + 1] in PUNCT:
            cur += line[i + 1]
            i += 2
            continue
        if ch == "|":
            cells.append(cur)
            cur = ""
        else:
            cur += ch
        i += 1
    cells.append(cur)
    return [c.strip() for c in cells[1:-1]]


def display(name):
    out = ""
    for ch in name:
        if ch == "\n":
            out += "\\n"
        elif ch == "\t":
            out += "\\t"
        elif ch == "\r":
            out += "\\r"
        elif ord(ch) < 0x20 or ord(ch) == 0x7f:
            out += "\\x%02X" % ord(ch)
        else:
            out += ch
    return out


def check_markdown_fixed():
    p = run("--fixed", "--format=md")
    lines = [l for l in p.stdout.decode("utf-8").split("\n") if l.startswith("|")]
    cells = [md_cells(l) for l in lines]
    ok(p.returncode == 0 and len(lines) == 2 + len(FIXED_NAMES), "md: title, separator, one row per result")
    ok(len({len(c) for c in cells}) == 1 and len(cells[0]) == 10, "md: every table row has the same 10 cells")
    ok(all(re.match(r"^:?-{3,}:?$", c) for c in cells[1]), "md: separator row")
    ok(cells[0][:2] == ["name", "median"], "md: title row")
    ok([c[0] for c in cells[2:]] == [display(n) for n in ROW_NAMES],
       "md: names unescape to what they show, a comparison's sides labelled a: and b:")
    ok(cells[2][1] == "1.500 \u00b5s" and cells[2][2] == "[1.498, 1.502] \u00b5s", "md: median and CI with units")
    ok(cells[0][8] == "cpu time" and cells[2][8] == "1.12 \u00b5s" and cells[3][8] == "n/a" and cells[5][8] == "9.00 s",
       "md: the CPU time per iteration beside the real time (0.75 x the median; n/a where unknown) (%s)" %
       [c[8] for c in cells[2:6]])
    ok("\n\nrejected and replaced samples: 24 migrated, 12 preempted, 0 clock went backwards, "
       "0 reference chains disagreed, 36 front end contended, 0 execution ports contended\n" in p.stdout.decode("utf-8"),
       "md: rejected samples summed by cause, after the table")


class TableParser(html.parser.HTMLParser):
    """Rows of cell texts of the first <table> in HTML."""

    def __init__(self):
        super().__init__()
        self.rows, self.cell, self.done = [], None, False

    def handle_starttag(self, tag, attrs):
        if self.done:
            return
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None and not self.done:
            self.rows[-1].append(self.cell)
            self.cell = None
        elif tag == "table":
            self.done = True

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def check_markdown_rendered():
    """What GitHub's renderer (cmark-gfm, Debian package cmark-gfm) makes of it."""
    cmark = shutil.which("cmark-gfm")
    if not cmark:
        skip("cmark-gfm not installed: markdown not rendered")
        return
    md = run("--fixed", "--format=md").stdout
    r = subprocess.run([cmark, "-e", "table"], input=md, stdout=subprocess.PIPE, timeout=60)
    t = TableParser()
    t.feed(r.stdout.decode("utf-8"))
    ok(r.returncode == 0 and len(t.rows) == 1 + len(FIXED_NAMES) and all(len(row) == 10 for row in t.rows),
       "md rendered by cmark-gfm: a table of 10 columns, one row per result")
    ok([row[0] for row in t.rows[1:]] == [display(n) for n in ROW_NAMES], "md rendered: names shown as in the text report")
    ok(t.rows[0][0] == "name" and t.rows[1][1] == "1.500 \u00b5s", "md rendered: header and values")


# ---- text and colour -----------------------------------------------------------------------
def run_pty(args, env):
    return pty_output([FIXTURE] + args, "stdout", env)


def check_text():
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    p = run("--fixed", env=env)
    t = p.stdout.decode("utf-8")
    ok(p.returncode == 0 and "1.500 \u00b5s" in t and "2.500 ms" in t and "12.00 s" in t, "text: units scale")
    ok("\x1b[" not in t, "text: no colour into a pipe")
    ok("add1000 is 3.00x faster" in t, "text: comparison says which side is faster")
    rows = [l.split("  ")[0].strip() for l in t.split("\n") if l.startswith(("a: ", "b: "))]
    ok(rows == ["a: imul1000", "b: add1000", "a: same_a", "b: same_b"], "text: a comparison's sides labelled a: and b:")
    ok('memory quote"back\\slash: 2 minor + 0 major page faults an iteration, peak RSS +1024 KiB' in t and
       t.count("page faults an iteration") == 1, "text: a memory footnote for the one run with memory figures")
    ok('between processes quote"back\\slash: medians 1.45 \u00b5s .. 1.57 \u00b5s across 3 processes (spread 8.00%)' in t,
       "text: a pooled run's spread between processes")
    if not sys.platform.startswith("linux"):
        skip("terminal colour (pty) is checked on Linux only")
        return
    ok(b"\x1b[" in run_pty(["--fixed"], env), "text: colour on a terminal")
    env["NO_COLOR"] = "1"
    ok(b"\x1b[" not in run_pty(["--fixed"], env), "text: no colour on a terminal with NO_COLOR set")
    env["NO_COLOR"] = ""
    ok(b"\x1b[" not in run_pty(["--fixed"], env), "text: no colour with NO_COLOR set but empty")
    ok(b"\x1b[" not in run_pty(["--fixed", "--format=json"], env), "json: no colour on a terminal")


# ---- the program's flags -----------------------------------------------------------------------
def check_out_list():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.csv")
        p = run("--fixed", "--format=csv", "--out=" + path)
        same = run("--fixed", "--format=csv").stdout
        with open(path, "rb") as f:
            ok(p.returncode == 0 and p.stdout == b"" and f.read() == same, "--out=FILE: the report in the file, nothing on stdout")
        p = run("--fixed", "--format=json", "--out", os.path.join(d, "none", "r.json"))
        ok(p.returncode == 1 and b"--out" in p.stderr, "--out into a missing directory: exit 1 with a message")
    p = run("--fixed", "--list")
    ok(p.returncode == 0 and p.stdout == b"".join(n + b"\n" for n in FIXED[:8]), "--list: the names, no report")
    p = run("--fixed", "--list", "--filter=copy")
    ok(p.returncode == 0 and p.stdout == b"copy/1\ncopy/2\ncopy/4\n", "--list --filter=copy: only matching names")


# ---- a measured run ------------------------------------------------------------------------------
def check_measured():
    p = run("--quick", "--format=json")
    try:
        doc = load_json(p.stdout)
    except ValueError as e:
        ok(False, "measured json parses: %s" % e)
        return
    ok(p.returncode == 0, "measured json: exit 0")
    _, runs = check_schema(doc, "measured json")
    ok(json_names(runs) == MEASURED_NAMES, "measured json: names survive the round trip")
    ok(all(b["real_time"] > 0 and b["iterations"] > 0 and b["samples"] >= 1 for b in runs), "measured json: positive times")
    ok(len(doc["comparisons"]) == 1 and len(doc["sweeps"]) == 1, "measured json: comparison and sweep")
    p = run("--quick", "--format=csv", "--filter=e")
    rows = parse_csv(p.stdout)
    ok(p.returncode == 0 and all(len(r) == len(rows[0]) for r in rows), "measured csv: rectangular")
    ok([r[0] for r in rows[1:]] == [n for n in MEASURED_NAMES[:3] if "e" in n],
       "measured csv: --filter=e runs the matching names; names survive")
    p = run("--quick", "--format=md", "--samples=5")
    lines = [l for l in p.stdout.decode("utf-8").split("\n") if l.startswith("|")]
    ok(p.returncode == 0 and len({len(md_cells(l)) for l in lines}) == 1 and len(lines) == 2 + len(MEASURED_NAMES),
       "measured md: a table with one row per result")


check_json_fixed()
check_csv_fixed()
check_csv_json_same()
check_markdown_fixed()
check_markdown_rendered()
check_text()
check_out_list()
check_measured()
done()

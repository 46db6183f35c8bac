#!/usr/bin/env python3
"""check_plots.py FIXTURE -- every plotted position of the HTML report against
the figure it stands for.  FIXTURE (report_fixture) writes its hand-filled
session (--fixed) as HTML and as JSON; each plot's axes are read back from
their tick marks and labels (value -> pixel), and then
  - in each strip plot, each row's median line sits at that run's median_ns
    and its band spans [ci_low_ns, ci_high_ns] (the band is drawn 1 px wider
    on each side);
  - in each paired-ratio plot, the black line sits at the comparison's ratio
    and the band spans its [ci_low, ci_high];
  - in each sweep plot, each point's diamond sits at (parameter, median_ns),
    its bar spans [ci_low_ns, ci_high_ns], and every vertex of the dashed fit
    line lies on fixed_ns + per_unit_ns x parameter.
Positions are written to 0.1 px: a point is right when it is within 0.15 px of
where the axis puts its value.  TAP on stdout."""
import html
import json
import re
import subprocess
import sys

from tap import done, ok

FIXTURE = sys.argv[1] if len(sys.argv) > 1 else "./report_fixture"
TOL = 0.15
NUM = r"(-?[0-9.]+)"
UNITS = {"ns": 1.0, "\u00b5s": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9, "\u00d7": 1.0}


def run(fmt):
    p = subprocess.run([FIXTURE, "--fixed", "--format=" + fmt], stdout=subprocess.PIPE, timeout=120)
    ok(p.returncode == 0, "report_fixture --fixed --format=%s exits 0 (%d)" % (fmt, p.returncode))
    return p.stdout.decode("utf-8")


class Axis:
    """value -> pixel from an axis's ticks (linear, or logarithmic when the
    labels grow by a constant factor)."""

    def __init__(self, ticks, unit):
        self.div = unit
        pts = [(float(v.replace(",", "")), px) for px, v in ticks]
        self.log = len(pts) >= 3 and all(v > 0 for v, _ in pts) and self._fit(pts, True)[2] < self._fit(pts, False)[2]
        self.a, self.b, self.err = self._fit(pts, self.log)
        self.n = len(pts)

    @staticmethod
    def _fit(pts, log):
        import math
        xs = [math.log10(v) if log else v for v, _ in pts]
        ys = [px for _, px in pts]
        n = len(xs)
        mx, my = sum(xs) / n, sum(ys) / n
        sxx = sum((x - mx) ** 2 for x in xs)
        if sxx == 0:
            return 0.0, my, float("inf")
        a = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
        b = my - a * mx
        return a, b, max(abs(a * x + b - y) for x, y in zip(xs, ys))

    def px(self, value):
        import math
        v = value / self.div
        return self.a * (math.log10(v) if self.log else v) + self.b


def axis_unit(label):
    m = re.search(r"\(([^()]*)\)\s*$", html.unescape(label))
    return UNITS.get(m.group(1), 1.0) if m else 1.0


def axes(svg):
    """(horizontal, vertical) axes of a plot: Axis or None.  Tick marks are
    4 px strokes out of the plot (v4 below it, h-4 left of it), each followed
    by its label; the axis title follows the group."""
    h = re.findall(r'<path d="M' + NUM + r' ' + NUM + r'v4" stroke="#000"/><text[^>]*>([^<]*)</text>', svg)
    v = re.findall(r'<path d="M' + NUM + r' ' + NUM + r'h-4" stroke="#000"/><text[^>]*>([^<]*)</text>', svg)
    titles = re.findall(r'</g><text[^>]*>([^<]*)</text>', svg)
    hx = Axis([(float(x), lab) for x, _, lab in h], axis_unit(titles[0]) if titles else 1.0) if len(h) >= 2 else None
    vy = None
    if len(v) >= 2:
        vt = [t for t in titles if "median" in t or "ratio" in t]
        vy = Axis([(float(y), lab) for _, y, lab in v], axis_unit(vt[-1] if vt else titles[-1]))
    return hx, vy


def display(name):
    """A name as the HTML report shows it: control characters escaped."""
    out = []
    for ch in name:
        if ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\x%02x" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


def close(got, want):
    return abs(got - want) <= TOL


def check_strip(svg, label, runs, comparisons):
    hx, _ = axes(svg)
    bands = re.findall(r'<rect x="' + NUM + r'" y="' + NUM + r'" width="' + NUM + r'" height="' + NUM +
                       r'" fill="#56B4E9" fill-opacity="0.45"/>', svg)
    bands = [b for b in bands if float(b[3]) > 10]          # not the legend's swatch
    medians = re.findall(r'<path d="M' + NUM + r' ' + NUM + r'v' + NUM + r'" stroke="#000" stroke-width="2"/>', svg)
    name = html.unescape(label)
    if name in comparisons and len(medians) == 2:            # both sides in one plot: rows a, b
        c = comparisons[name]
        rows = [runs.get(c["name"] + "/" + c["a"]), runs.get(c["name"] + "/" + c["b"])]
    else:   # a run of its own, or one side of a comparison ("a vs b/side")
        shown = {display(k): r for k, r in runs.items()}
        rows = [shown.get(name) or next((r for k, r in shown.items() if r.get("kind") == "compare" and
                                          k.endswith("/" + name)), None)]
    if not ok(hx is not None and hx.err < TOL and all(rows) and len(medians) == len(rows) == len(bands),
              "strip plot of %s: an axis from %d ticks, %d rows, %d medians, %d bands" % (
                  name, hx.n if hx else 0, len(rows), len(medians), len(bands))):
        return
    for r, (mx, _, _), (bx, _, bw, _) in zip(rows, medians, bands):
        want = (hx.px(r["median_ns"]), hx.px(r["ci_low_ns"]) - 1, hx.px(r["ci_high_ns"]) + 1)
        got = (float(mx), float(bx), float(bx) + float(bw))
        ok(all(close(g, w) for g, w in zip(got, want)),
           "strip plot of %s, row %s: median %g ns at x %.1f (want %.2f), band %g..%g ns at x %.1f..%.1f (want %.2f..%.2f)"
           % (name, display(r["name"]), r["median_ns"], got[0], want[0], r["ci_low_ns"], r["ci_high_ns"], got[1], got[2],
              want[1], want[2]))


def check_drift(svg, label, comparisons):
    _, vy = axes(svg)
    c = comparisons.get(html.unescape(label))
    line = re.findall(r'<path d="M' + NUM + r' ' + NUM + r'H' + NUM + r'" stroke="#000" stroke-width="2"/>', svg)
    band = re.findall(r'<rect x="' + NUM + r'" y="' + NUM + r'" width="' + NUM + r'" height="' + NUM +
                      r'" fill="#56B4E9" fill-opacity="0.45"/>', svg)
    if not ok(c is not None and vy is not None and vy.err < TOL and len(line) == 1 and len(band) == 1,
              "paired-ratio plot of %s: an axis, one ratio line, one band" % html.unescape(label)):
        return
    y = float(line[0][1])
    top, height = float(band[0][1]), float(band[0][3])
    want = (vy.px(c["ratio"]), vy.px(c["ci_high"]) - 1, vy.px(c["ci_low"]) + 1)
    ok(close(y, want[0]) and close(top, want[1]) and close(top + height, want[2]),
       "paired-ratio plot of %s: ratio %g at y %.1f (want %.2f), band [%g, %g] at y %.1f..%.1f (want %.2f..%.2f)"
       % (c["name"], c["ratio"], y, want[0], c["ci_low"], c["ci_high"], top, top + height, want[1], want[2]))


def check_sweep(svg, label, runs, sweeps):
    hx, vy = axes(svg)
    sw = sweeps.get(html.unescape(label))
    if not ok(sw is not None and hx is not None and vy is not None and hx.err < TOL and vy.err < TOL,
              "sweep plot of %s: both axes from their ticks" % html.unescape(label)):
        return
    points = sorted(((float(k.rsplit("/", 1)[1]), r) for k, r in runs.items() if k.startswith(sw["name"] + "/")),
                    key=lambda p: p[0])
    diamonds = [(float(x), float(y) + 5) for x, y in re.findall(r'<path d="M' + NUM + r' ' + NUM + r'l5 5l-5 5l-5 -5z"', svg)]
    bars = [(float(x), float(a), float(b)) for x, a, b in
            re.findall(r'<path d="M' + NUM + r' ' + NUM + r'V' + NUM + r'm-4 0h8m-8 -?[0-9.]+h8" stroke="#000"/>', svg)]
    if not ok(len(points) == sw["points"] == len(diamonds) == len(bars),
              "sweep plot of %s: %d points, %d diamonds, %d bars" % (sw["name"], len(points), len(diamonds), len(bars))):
        return
    for (p, r), (dx, dy), (bx, blo, bhi) in zip(points, diamonds, bars):
        want = (hx.px(p), vy.px(r["median_ns"]), vy.px(r["ci_low_ns"]), vy.px(r["ci_high_ns"]))
        ok(close(dx, want[0]) and close(dy, want[1]) and close(bx, want[0]) and close(blo, want[2]) and close(bhi, want[3]),
           "sweep %s, point %g: diamond at (%.1f, %.1f) (want %.2f, %.2f), bar %.1f..%.1f (want %.2f..%.2f)"
           % (sw["name"], p, dx, dy, want[0], want[1], blo, bhi, want[2], want[3]))
    fit = re.search(r'stroke-dasharray="8 4" d="([^"]*)"', svg)
    verts = [(float(x), float(y)) for x, y in re.findall(NUM + r" " + NUM, fit.group(1))] if fit else []
    # each vertex back from pixels to a parameter, then the line's value there to pixels
    bad = []
    for x, y in verts:
        import math
        t = (x - hx.b) / hx.a
        param = 10 ** t if hx.log else t
        want = vy.px(sw["fixed_ns"] + sw["per_unit_ns"] * param)
        if abs(y - want) > 0.3:
            bad.append("(%.1f, %.1f) want y %.2f" % (x, y, want))
    ok(len(verts) >= 2 and not bad, "sweep %s: the %d vertices of the fit line lie on %g + %g x (%s)"
       % (sw["name"], len(verts), sw["fixed_ns"], sw["per_unit_ns"], "; ".join(bad[:3]) or "all"))


def main():
    page = run("html")
    doc = json.loads(run("json"))
    runs = {b["name"]: b for b in doc["benchmarks"] if b.get("median_ns") is not None}
    comparisons = {c["name"]: c for c in doc.get("comparisons", [])}
    sweeps = {s["name"]: s for s in doc.get("sweeps", [])}
    kinds = {"strip": 0, "drift": 0, "sweep": 0}
    for svg in re.findall(r"<svg.*?</svg>", page, re.S):
        m = re.search(r'aria-label="([^"]*)"', svg)
        label = m.group(1) if m else ""
        if label.startswith("strip plot of the samples of "):
            kinds["strip"] += 1
            check_strip(svg, label[len("strip plot of the samples of "):], runs, comparisons)
        elif label.startswith("paired ratios in the order taken of "):
            kinds["drift"] += 1
            check_drift(svg, label[len("paired ratios in the order taken of "):], comparisons)
        elif label.startswith("sweep "):
            kinds["sweep"] += 1
            check_sweep(svg, label[len("sweep "):], runs, sweeps)
    ok(kinds["strip"] >= 4 and kinds["drift"] == len(comparisons) and kinds["sweep"] == len(sweeps),
       "the page has %d strip plots, %d paired-ratio plots (comparisons: %d), %d sweep plots (sweeps: %d)"
       % (kinds["strip"], kinds["drift"], len(comparisons), kinds["sweep"], len(sweeps)))
    done()


if __name__ == "__main__":
    main()

/* chronoscope/html.h — a session as one self-contained HTML page with SVG
   plots: no JavaScript, no external fonts, scripts or styles; readable
   offline, printable, attachable to a CI run.

   Usage:

       chrono_session s;                      // opened, benchmarks run (bench.h)
       ...
       FILE *f = fopen("report.html", "wb");
       if (!f || chrono_report_html(&s, f, NULL) < 0) return 1;
       fclose(f);

   Programs on cli.h or program.h get it with --format=html (standard
   output) or --out=report.html (the extension is enough with chrono_main).

   The page:
     - the environment header and its warnings, as in the text report;
     - a summary table (the markdown report's columns; a comparison's sides
       labelled a: and b:) that fits a 1200 px window, its throughput after
       the sparkline, wrapping below it in a narrower one; the comparisons'
       verdicts and the sweeps' fits in words;
     - each run outside a sweep: a strip plot of its accepted samples (ns per
       iteration, jittered vertically) with the median (a black line), the
       confidence interval of the median (a blue band), the outliers (Tukey's
       1.5 IQR fences) as orange crosses and the ones past the axis (beyond
       q3 + 3 IQR) counted at its right end; estimated core cycles on a second
       axis at the top where known; the rejected samples, by cause;
     - each comparison: both sides' strips (on one axis where they overlap,
       else one plot each), and the paired
       ratios a/b in the order they were taken (drift shows as a slope) with
       their median, its CI, the line at 1.0 and their distribution at the right;
     - each sweep: the medians with their CIs against the parameter, the
       fitted line with its equation and R²; log axes when the parameter spans
       more than two decades;
     - the program's own tables (chrono_report_options.tables).
   Axes carry their units and ticks at round values (1, 2, 5 x 10^k; powers of
   ten on log axes).  Colours are the Okabe-Ito palette (safe for colour-blind
   readers) and every mark differs by shape too, so a grey print reads.

   Size: a run draws each kept sample as one dot (about 14 bytes); above 2000
   samples every k-th sample is drawn (outliers always), so a run's plot stays
   under ~40 KB whatever .samples is.  Samples come from chrono_result.sample_ns
   (bench.h); a result without them (filled by hand) gets its median and CI only.

   Text (names, environment, table cells) is escaped: & < > " ' as entities,
   control characters as \n \t \xNN, invalid UTF-8 as U+FFFD; numbers use '.'
   whatever the locale.

   Functions:
     chrono_report_html(s, out, opt)   the whole page; opt may be NULL (its
                                       .tables are drawn as HTML tables)
     chrono_table_html(out, t)         one chrono_table as HTML
   Returns 0, CHRONO_EINVAL (NULL, a closed session, a malformed table) or
   CHRONO_EIO (the stream reported an error). */
#ifndef CHRONOSCOPE_HTML_H
#define CHRONOSCOPE_HTML_H

#include "summary.h"

CHRONO__EXTERN_C_BEGIN
/* The session as one HTML5 page with inline SVG plots (see above). */
CHRONO_API int chrono_report_html(const chrono_session *s, FILE *out,
                                  const chrono_report_options *opt);

/* One table alone as HTML: its title as a heading, then a <table> of its
   cells, each escaped (table.h's chrono_table_write writes the other formats). */
CHRONO_API int chrono_table_html(FILE *out, const chrono_table *t);
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_HTML_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_HTML_IMPL)
#define CHRONOSCOPE_HTML_IMPL

CHRONO__EXTERN_C_BEGIN

/* Okabe-Ito: blue, sky blue, vermillion, orange, bluish green, grey. */
#define CHRONO__C_DOT "#0072B2"
#define CHRONO__C_BAND "#56B4E9"
#define CHRONO__C_FIT "#D55E00"
#define CHRONO__C_OUT "#E69F00"
#define CHRONO__C_GRID "#DDDDDD"
#define CHRONO__C_ONE "#666666"
#define CHRONO__HTML_DOTS 2000   /* dots drawn per row at most */
#define CHRONO__HTML_W 760       /* width of every plot, px */

/* ---- text ------------------------------------------------------------------------- */
/* <tag>escaped text</tag> */
CHRONO__PRIVATE void chrono__html_el(FILE *out, const char *tag, const char *text)
{
    fprintf(out, "<%s>", tag);
    (void)chrono_escape(out, text, CHRONO_FORMAT_HTML);
    fprintf(out, "</%s>", tag);
}

/* A coordinate: one decimal, '.' whatever the locale. */
CHRONO__PRIVATE const char *chrono__px(char *buf, double v)
{
    long t;
    char *p = buf;
    if (!(v > -1e7)) v = -1e7;   /* NaN too: off the page, but well-formed */
    if (v > 1e7) v = 1e7;
    t = (long)(v * 10 + (v < 0 ? -0.5 : 0.5));
    if (t < 0) { *p++ = '-'; t = -t; }
    p += chrono__bprintf(p, 24, "%ld", t / 10);
    if (t % 10) { *p++ = '.'; *p++ = (char)('0' + t % 10); *p = '\0'; }
    return buf;
}

/* ---- scales and axes ------------------------------------------------------------ */
typedef struct chrono__scale {
    double lo, hi;      /* data range */
    double p0, p1;      /* pixels: lo maps to p0, hi to p1 */
    int log;
} chrono__scale;

CHRONO__PRIVATE double chrono__map(const chrono__scale *sc, double v)
{
    double t;
    if (sc->log) t = (log10(v) - log10(sc->lo)) / (log10(sc->hi) - log10(sc->lo));
    else t = (v - sc->lo) / (sc->hi - sc->lo);
    return sc->p0 + t * (sc->p1 - sc->p0);
}

/* Range lo..hi widened by `pad` of its span on each side (log: in decades);
   a single value gets a span of its own. */
CHRONO__PRIVATE void chrono__scale_fit(chrono__scale *sc, double lo, double hi, double pad, int lg,
                                       double p0, double p1)
{
    sc->log = lg && lo > 0;
    sc->p0 = p0; sc->p1 = p1;
    if (sc->log) {
        double a = log10(lo), b = log10(hi), d = b - a > 0 ? b - a : 1;
        sc->lo = pow(10, a - pad * d); sc->hi = pow(10, b + pad * d);
        return;
    }
    if (!(hi > lo)) { double d = lo != 0 ? fabs(lo) * 0.05 : 1; lo -= d; hi += d; }
    sc->lo = lo - pad * (hi - lo);
    sc->hi = hi + pad * (hi - lo);
}

/* 1, 2 or 5 x 10^k near span/want. */
CHRONO__PRIVATE double chrono__nice_step(double span, int want)
{
    double raw = span / want, mag = pow(10, floor(log10(raw))), m = raw / mag;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * mag;
}

/* Tick values of a scale (in data units; `div` is the display unit):
   round values in the display unit, or powers of ten (and 2, 5 between
   when there are few) on a log scale.  Returns how many (at most max). */
CHRONO__PRIVATE int chrono__ticks(const chrono__scale *sc, double div, double *t, int max,
                                  double *step)
{
    int n = 0;
    double v;
    if (sc->log) {
        int decades = (int)(floor(log10(sc->hi)) - ceil(log10(sc->lo)));
        double e;
        *step = 0;
        for (e = floor(log10(sc->lo)); e <= ceil(log10(sc->hi)) && n < max; e++) {
            static const double m[3] = { 1, 2, 5 };
            int k;
            for (k = 0; k < (decades < 2 ? 3 : 1) && n < max; k++) {
                v = m[k] * pow(10, e);
                if (v >= sc->lo && v <= sc->hi) t[n++] = v;
            }
        }
        return n;
    }
    *step = chrono__nice_step((sc->hi - sc->lo) / div, 6);
    for (v = ceil(sc->lo / div / *step) * *step; v <= sc->hi / div + *step * 1e-9 && n < max;
         v += *step)
        t[n++] = (fabs(v) < *step * 1e-9 ? 0 : v) * div;
    return n;
}

/* A tick label: v/div with the decimals the step needs ("%g" on log scales). */
CHRONO__PRIVATE const char *chrono__tick_label(char *buf, size_t n, double v, double step)
{
    char fmt[16];
    int d = step > 0 ? (int)ceil(-log10(step) - 1e-9) : 0;
    if (step <= 0) return chrono__num(buf, n, "%g", v);
    (void)chrono__bprintf(fmt, sizeof fmt, "%%.%df", d < 0 ? 0 : d > 9 ? 9 : d);
    return chrono__num(buf, n, fmt, v);
}

typedef struct chrono__axis {
    const chrono__scale *sc;
    double div;          /* data per display unit (1e3: µs on an ns scale) */
    int vertical;        /* 0: an x axis (ticks along it), 1: a y axis */
    double at;           /* the axis line: y of an x axis, x of a y axis */
    double dir;          /* ticks and labels go this way: +1 down/right, -1 up/left */
    double grid0, grid1; /* grid lines across the plot (no grid when equal) */
    const char *label;   /* units included */
} chrono__axis;

CHRONO__PRIVATE void chrono__axis_draw(FILE *out, const chrono__axis *a)
{
    double t[64], step;
    int n = chrono__ticks(a->sc, a->div, t, 64, &step), i;
    char x[24], y[24], g0[24], g1[24], lab[48];
    const char *anchor = a->vertical ? (a->dir < 0 ? "end" : "start") : "middle";
    chrono__px(g0, a->grid0); chrono__px(g1, a->grid1);
    fprintf(out, "<g font-size=\"11\" text-anchor=\"%s\">", anchor);
    for (i = 0; i < n; i++) {
        double p = chrono__map(a->sc, t[i]);
        chrono__tick_label(lab, sizeof lab, t[i] / a->div, step);
        if (a->vertical) {
            chrono__px(y, p);
            if (a->grid0 != a->grid1)
                fprintf(out, "<path d=\"M%s %sH%s\" stroke=\"" CHRONO__C_GRID "\"/>", g0, y, g1);
            fprintf(out, "<path d=\"M%s %sh%s\" stroke=\"#000\"/>", chrono__px(x, a->at), y,
                    a->dir < 0 ? "-4" : "4");
            fprintf(out, "<text x=\"%s\" y=\"%s\">%s</text>", chrono__px(x, a->at + a->dir * 6),
                    chrono__px(y, p + 4), lab);
        } else {
            chrono__px(x, p);
            if (a->grid0 != a->grid1)
                fprintf(out, "<path d=\"M%s %sV%s\" stroke=\"" CHRONO__C_GRID "\"/>", x, g0, g1);
            fprintf(out, "<path d=\"M%s %sv%s\" stroke=\"#000\"/>", x, chrono__px(y, a->at),
                    a->dir < 0 ? "-4" : "4");
            fprintf(out, "<text x=\"%s\" y=\"%s\">%s</text>", x,
                    chrono__px(y, a->at + (a->dir < 0 ? -7 : 16)), lab);
        }
    }
    fputs("</g>", out);
}

/* The axis label, centred along the axis (rotated on a y axis). */
CHRONO__PRIVATE void chrono__axis_label(FILE *out, const chrono__axis *a, double off)
{
    char x[24], y[24];
    double mid = (a->sc->p0 + a->sc->p1) / 2;
    if (a->vertical) {
        chrono__px(x, a->at + a->dir * off); chrono__px(y, mid);
        fprintf(out,
                "<text x=\"%s\" y=\"%s\" text-anchor=\"middle\" transform=\"rotate(-90 %s %s)\">",
                x, y, x, y);
    } else {
        fprintf(out, "<text x=\"%s\" y=\"%s\" text-anchor=\"middle\">", chrono__px(x, mid),
                chrono__px(y, a->at + a->dir * off));
    }
    (void)chrono_escape(out, a->label, CHRONO_FORMAT_HTML);
    fputs("</text>", out);
}

CHRONO__PRIVATE void chrono__svg_open(FILE *out, double w, double h, const char *what,
                                      const char *name)
{
    char sw[24], sh[24];
    chrono__px(sw, w); chrono__px(sh, h);
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %s %s\" width=\"%s\" "
            "height=\"%s\" "
            "font-family=\"sans-serif\" font-size=\"12\" role=\"img\" aria-label=\"%s ",
            sw, sh, sw, sh, what);
    (void)chrono_escape(out, name, CHRONO_FORMAT_HTML);
    fputs("\">\n", out);
}

/* A duration axis's unit: the one chrono_report_duration picks for `ns`. */
CHRONO__PRIVATE void chrono__time_unit(double ns, double *div, char *label, size_t n,
                                       const char *what)
{
    int u = chrono__unit(ns);
    *div = chrono__unit_div(u);
    (void)chrono__bprintf(label, n, "%s per iteration (%s)", what, chrono__unit_name(u));
}

/* ---- strip plots of runs ------------------------------------------------------------- */
/* Where row k's samples go: the range of the axis (min .. q3 + 3 IQR, at most max). */
CHRONO__PRIVATE int chrono__strip_range(const chrono_result *const *r, size_t nrows, double *lo,
                                        double *hi)
{
    size_t k;
    *lo = INFINITY; *hi = -INFINITY;
    for (k = 0; k < nrows; k++) {
        const chrono_stats *st = &r[k]->ns;
        double top = chrono__sketch_top(st);
        if (r[k]->samples == 0 || !chrono__finite(st->min) || !chrono__finite(top)) continue;
        if (st->min < *lo) *lo = st->min;
        if (top > *hi) *hi = top;
        if (st->ci_low < *lo) *lo = st->ci_low;
        if (st->ci_high > *hi) *hi = st->ci_high;
    }
    return *lo <= *hi;
}

/* Deterministic jitter in [-0.5, 0.5) for sample i. */
CHRONO__PRIVATE double chrono__jitter(size_t i)
{
    uint32_t h = (uint32_t)i * 2654435761u;
    h ^= h >> 15; h *= 2246822519u; h ^= h >> 13;
    return (double)(h % 1000) / 1000.0 - 0.5;
}

/* The samples of one row: dots (every k-th above CHRONO__HTML_DOTS),
   outliers as crosses, those past the axis counted at its right end. */
CHRONO__PRIVATE void chrono__strip_dots(FILE *out, const chrono__scale *sc, const chrono_result *r,
                                        double yc, double h)
{
    const chrono_stats *st = &r->ns;
    double flo, fhi;
    size_t i, n = r->nsample_ns,
              stride = n > CHRONO__HTML_DOTS ? (n + CHRONO__HTML_DOTS - 1) / CHRONO__HTML_DOTS : 1;
    size_t beyond = 0, pass;
    char x[24], y[24], num[24], num2[24];
    chrono__fences(st, 1.5, &flo, &fhi);   /* past them: outliers, drawn as crosses */
    for (pass = 0; pass < 2; pass++) {   /* 0: dots, 1: outliers */
        fputs(pass ? "<path fill=\"none\" stroke=\"" CHRONO__C_OUT "\" stroke-width=\"1.6\" d=\""
                   : "<path fill=\"none\" stroke=\"" CHRONO__C_DOT
                     "\" stroke-opacity=\"0.6\" stroke-width=\"5\" "
                     "stroke-linecap=\"round\" d=\"",
              out);
        for (i = 0; i < n; i++) {
            double v = r->sample_ns[i];
            int outlier = v < flo || v > fhi;
            if (!chrono__finite(v) || outlier != (int)pass || (!outlier && i % stride)) continue;
            if (v > sc->hi) { beyond += pass; continue; }
            chrono__px(x, chrono__map(sc, v)); chrono__px(y, yc + chrono__jitter(i) * h);
            if (pass) fprintf(out, "M%s %sm-3 -3l6 6m0 -6l-6 6", x, y);
            else fprintf(out, "M%s %sh0", x, y);
        }
        fputs("\"/>\n", out);
    }
    if (beyond) {   /* a triangle at the right end, the count above it */
        fprintf(out, "<path d=\"M%s %sl-7 -5v10z\" fill=\"" CHRONO__C_OUT "\"/>",
                chrono__px(x, sc->p1 + 8), chrono__px(y, yc));
        fprintf(out,
                "<text x=\"%s\" y=\"%s\" font-size=\"11\" text-anchor=\"end\">%s beyond the "
                "axis</text>\n",
                chrono__px(x, sc->p1 + 8), chrono__px(y, yc - h / 2 - 2),
                chrono__u64(num, (uint64_t)beyond));
    }
    if (stride > 1)
        fprintf(out,
                "<text x=\"%s\" y=\"%s\" font-size=\"10\">every %s. of %s samples drawn</text>\n",
                chrono__px(x, sc->p0 + 2), chrono__px(y, yc + h / 2 + 10),
                chrono__u64(num, (uint64_t)stride), chrono__u64(num2, (uint64_t)n));
}

/* One row: the CI band, the samples, the median; its label at the left. */
CHRONO__PRIVATE void chrono__strip_row(FILE *out, const chrono__scale *sc, const chrono_result *r,
                                       const char *label, double top, double h)
{
    const chrono_stats *st = &r->ns;
    char a[24], b[24], c[24], d[24];
    if (label) {
        fprintf(out, "<text x=\"8\" y=\"%s\" font-weight=\"bold\">",
                chrono__px(a, top + h / 2 + 4));
        (void)chrono_escape(out, label, CHRONO_FORMAT_HTML);
        fputs("</text>\n", out);
    }
    if (r->samples == 0 || !chrono__finite(st->median)) {
        fprintf(out, "<text x=\"%s\" y=\"%s\">no samples</text>\n", chrono__px(a, sc->p0 + 8),
                chrono__px(b, top + h / 2));
        return;
    }
    if (chrono__finite(st->ci_low) && chrono__finite(st->ci_high)) {
        double x0 = chrono__map(sc, st->ci_low), x1 = chrono__map(sc, st->ci_high);
        fprintf(out,
                "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"" CHRONO__C_BAND
                "\" fill-opacity=\"0.45\"/>\n",
                chrono__px(a, x0 - 1), chrono__px(b, top), chrono__px(c, x1 - x0 + 2),
                chrono__px(d, h));
    }
    if (r->sample_ns) chrono__strip_dots(out, sc, r, top + h / 2, h * 0.7);
    else
        fprintf(out,
                "<text x=\"%s\" y=\"%s\" font-size=\"10\">samples not kept: median and CI "
                "only</text>\n",
                chrono__px(a, sc->p0 + 4), chrono__px(b, top + 11));
    fprintf(out, "<path d=\"M%s %sv%s\" stroke=\"#000\" stroke-width=\"2\"/>\n",
            chrono__px(a, chrono__map(sc, st->median)), chrono__px(b, top - 2),
            chrono__px(c, h + 4));
}

/* The legend line at the top left of a plot. */
/* conf: the level of the band (the lowest a row reaches where it falls short
   of the confidence asked); 0: no band at all (a single sample). */
CHRONO__PRIVATE void chrono__strip_legend(FILE *out, double y, double conf)
{
    char pct[48], num[24], yy[24], ym[24];
    chrono__px(yy, y); chrono__px(ym, y - 4);
    if (conf == 0) (void)chrono__bprintf(pct, sizeof pct, "no");
    else
        (void)chrono__bprintf(pct, sizeof pct, "%s%%",
                              chrono__num(num, sizeof num, "%.0f",
                                          100 * (chrono__finite(conf) && conf > 0 ? conf : 0.95)));
    fprintf(
        out,
        "<g font-size=\"11\"><path d=\"M12 %sh0\" stroke=\"" CHRONO__C_DOT
        "\" stroke-width=\"5\" stroke-linecap=\"round\"/>"
        "<text x=\"20\" y=\"%s\">sample</text>"
        "<path d=\"M72 %sm-3 -3l6 6m0 -6l-6 6\" stroke=\"" CHRONO__C_OUT "\" stroke-width=\"1.6\"/>"
        "<text x=\"80\" y=\"%s\">outlier</text>"
        "<path d=\"M132 %sv-10\" stroke=\"#000\" stroke-width=\"2\" transform=\"translate(0 5)\"/>"
        "<text x=\"138\" y=\"%s\">median</text>"
        "<rect x=\"192\" y=\"%s\" width=\"14\" height=\"9\" fill=\"" CHRONO__C_BAND
        "\" fill-opacity=\"0.45\"/>"
        "<text x=\"210\" y=\"%s\">%s CI of the median</text></g>\n",
        ym, yy, ym, yy, ym, yy, chrono__px(ym, y - 8.5), yy, pct);
}

/* Strips of nrows results on one axis (two for a comparison); estimated
   cycles on a top axis where the first row has them. */
CHRONO__PRIVATE void chrono__html_strips(FILE *out, const chrono_session *s,
                                         const chrono_result *const *r, const char *const *labels,
                                         size_t nrows, const char *name)
{
    double lo, hi, div, rowh = 56, left = labels ? 90 : 16, top, h, k = NAN;
    char label[96], clabel[96];
    chrono__scale sc, cs;
    chrono__axis ax;
    size_t i;
    if (!chrono__strip_range(r, nrows, &lo, &hi)) {
        fputs("<p class=\"note\">no samples to plot</p>\n", out);
        return;
    }
    top = r[0]->has_cycles && r[0]->ns.median > 0 && r[0]->cycles.median > 0 ? 62 : 30;
    h = top + (double)nrows * rowh + 46;
    chrono__scale_fit(&sc, lo, hi, 0.04, 0, left, CHRONO__HTML_W - 24);
    chrono__time_unit(hi, &div, label, sizeof label, "time");
    chrono__svg_open(out, CHRONO__HTML_W, h, "strip plot of the samples of", name);
    /* the band's real level: the lowest where one falls short */
    for (i = 0, k = s->cfg.confidence; i < nrows; i++)
        if (chrono_stats_level_short(r[i]->ns.ci_level, s->cfg.confidence) && r[i]->ns.ci_level < k)
            k = r[i]->ns.ci_level;
    chrono__strip_legend(out, 16, k);
    k = NAN;
    memset(&ax, 0, sizeof ax);
    ax.sc = &sc; ax.div = div; ax.at = top + (double)nrows * rowh + 4; ax.dir = 1; ax.label = label;
    ax.grid0 = top - 4; ax.grid1 = ax.at;
    chrono__axis_draw(out, &ax);
    chrono__axis_label(out, &ax, 36);
    if (r[0]->has_cycles && r[0]->ns.median > 0) k = r[0]->cycles.median / r[0]->ns.median;
    if (chrono__finite(k) && k > 0) {   /* the same range in estimated cycles */
        double cdiv = 1;
        static const char *const mult[4] = { "", " (thousands)", " (millions)", " (billions)" };
        int m = 0;
        cs = sc; cs.lo = sc.lo * k; cs.hi = sc.hi * k;
        while (cs.hi / cdiv >= 99999.5 && m < 3) { cdiv *= 1000; m++; }
        (void)chrono__bprintf(clabel, sizeof clabel, "estimated core cycles per iteration%s",
                              mult[m]);
        ax.sc = &cs;
        ax.div = cdiv;
        ax.at = top - 4;
        ax.dir = -1;
        ax.label = clabel;
        ax.grid0 = ax.grid1 = 0;
        chrono__axis_draw(out, &ax);
        chrono__axis_label(out, &ax, 22);
    }
    for (i = 0; i < nrows; i++)
        chrono__strip_row(out, &sc, r[i], labels ? labels[i] : NULL, top + (double)i * rowh + 4,
                          rowh - 8);
    fputs("</svg>\n", out);
}

/* ---- comparisons: the paired ratios in order ----------------------------------------- */
/* The ratio axis's range: the ratios (to q3 + 3 IQR) and the CI; 1.0 when it
   does not squeeze the data into less than a third of the height. */
CHRONO__PRIVATE void chrono__drift_range(const chrono_comparison *c, double *lo, double *hi,
                                         int *with_one)
{
    size_t i;
    chrono_stats st;
    double flo = -INFINITY, fhi = INFINITY;
    if (chrono_stats_compute(c->pair_ratios, c->npair_ratios, 0.95, NULL, &st) == 0)
        chrono__fences(&st, 3.0, &flo, &fhi);   /* far ratios are counted, not drawn */
    *lo = c->ci_low; *hi = c->ci_high;
    for (i = 0; i < c->npair_ratios; i++) {
        double v = c->pair_ratios[i];
        if (!chrono__finite(v) || v < flo || v > fhi) continue;
        if (v < *lo) *lo = v;
        if (v > *hi) *hi = v;
    }
    *with_one = 0;
    if (!(*hi > *lo)) return;
    if ((*hi - *lo) * 3 >= (*hi > 1 ? *hi : 1) - (*lo < 1 ? *lo : 1)) {
        *with_one = 1;
        if (*lo > 1) *lo = 1;
        if (*hi < 1) *hi = 1;
    }
}

/* The distribution of the ratios, as horizontal bars right of the plot. */
CHRONO__PRIVATE void chrono__drift_hist(FILE *out, const chrono__scale *ys,
                                        const chrono_comparison *c, double x0, double w)
{
    unsigned bins[24];
    unsigned max = 0;
    size_t i, nb = sizeof bins / sizeof bins[0];
    double bh = (ys->p0 - ys->p1) / (double)nb;
    char a[24], b[24], d[24], e[24];
    chrono_stats_histogram(c->pair_ratios, c->npair_ratios, ys->lo, ys->hi, bins, nb);
    for (i = 0; i < nb; i++) if (bins[i] > max) max = bins[i];
    if (!max) return;
    fprintf(out, "<g fill=\"" CHRONO__C_DOT "\" fill-opacity=\"0.7\">");
    for (i = 0; i < nb; i++)
        if (bins[i])
            fprintf(out, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"/>", chrono__px(a, x0),
                    chrono__px(b, ys->p0 - (double)(i + 1) * bh + 0.5),
                    chrono__px(d, w * bins[i] / max), chrono__px(e, bh - 1));
    fputs("</g>\n", out);
    fprintf(out, "<text x=\"%s\" y=\"%s\" font-size=\"11\">distribution</text>\n",
            chrono__px(a, x0), chrono__px(b, ys->p1 - 6));
}

/* The drift plot's axes: the pairs in the order taken along x, their ratios up y, gridded. */
CHRONO__PRIVATE void chrono__drift_axes(FILE *out, const chrono__scale *xs, const chrono__scale *ys,
                                        double px0, double px1, double bottom)
{
    chrono__axis ax;
    char ylabel[128];
    memset(&ax, 0, sizeof ax);
    ax.sc = xs; ax.div = 1; ax.at = bottom; ax.dir = 1; ax.label = "pair, in the order taken";
    chrono__axis_draw(out, &ax);
    chrono__axis_label(out, &ax, 36);
    (void)chrono__bprintf(ylabel, sizeof ylabel, "ratio a/b of ns per iteration (\xC3\x97)");
    ax.sc = ys; ax.vertical = 1; ax.at = px0; ax.dir = -1; ax.label = ylabel;
    ax.grid0 = px0; ax.grid1 = px1;
    chrono__axis_draw(out, &ax);
    chrono__axis_label(out, &ax, 48);
}

CHRONO__PRIVATE void chrono__html_drift(FILE *out, const chrono_comparison *c, const char *name)
{
    double lo, hi, h = 280, px0 = 64, px1 = 600, top = 30, bottom = 230;
    int with_one;
    chrono__scale xs, ys;
    size_t i, off = 0;
    char a[24], b[24], d[24], e[24], f[24];
    if (c->npair_ratios == 0 || !chrono__finite(c->ratio)) {
        fputs("<p class=\"note\">no paired ratios to plot</p>\n", out);
        return;
    }
    chrono__drift_range(c, &lo, &hi, &with_one);
    chrono__scale_fit(&xs, 1, (double)c->npair_ratios, 0.02, 0, px0, px1);
    chrono__scale_fit(&ys, lo, hi, 0.06, 0, bottom, top);
    chrono__svg_open(out, CHRONO__HTML_W, h, "paired ratios in the order taken of", name);
    chrono__drift_axes(out, &xs, &ys, px0, px1, bottom);
    if (chrono__finite(c->ci_low) && chrono__finite(c->ci_high)) {
        double y0 = chrono__map(&ys, c->ci_high), y1 = chrono__map(&ys, c->ci_low);
        fprintf(out,
                "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"" CHRONO__C_BAND
                "\" fill-opacity=\"0.45\"/>\n",
                chrono__px(a, px0), chrono__px(b, y0 - 1), chrono__px(d, px1 - px0),
                chrono__px(e, y1 - y0 + 2));
    }
    if (with_one)
        fprintf(out,
                "<path d=\"M%s %sH%s\" stroke=\"" CHRONO__C_ONE
                "\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>"
                "<text x=\"%s\" y=\"%s\" font-size=\"11\" text-anchor=\"end\">1.0: equal</text>\n",
                chrono__px(a, px0), chrono__px(b, chrono__map(&ys, 1)), chrono__px(d, px1),
                chrono__px(e, px1 - 4), chrono__px(f, chrono__map(&ys, 1) - 4));
    else
        fprintf(out,
                "<text x=\"%s\" y=\"%s\" font-size=\"11\">the line at 1.0 is off the scale "
                "(%s)</text>\n",
                chrono__px(a, px0 + 4), chrono__px(b, top - 8), hi < 1 ? "above" : "below");
    fputs("<path fill=\"none\" stroke=\"" CHRONO__C_DOT
          "\" stroke-opacity=\"0.6\" stroke-width=\"5\" stroke-linecap=\"round\" d=\"",
          out);
    for (i = 0; i < c->npair_ratios; i++) {
        double v = c->pair_ratios[i];
        if (!chrono__finite(v)) continue;
        if (v < ys.lo || v > ys.hi) { off++; continue; }
        if (c->npair_ratios <= CHRONO__HTML_DOTS ||
            i % (c->npair_ratios / CHRONO__HTML_DOTS + 1) == 0)
            fprintf(out, "M%s %sh0", chrono__px(a, chrono__map(&xs, (double)(i + 1))),
                    chrono__px(b, chrono__map(&ys, v)));
    }
    fputs("\"/>\n", out);
    if (off)
        fprintf(out,
                "<text x=\"%s\" y=\"%s\" font-size=\"11\" text-anchor=\"end\">%s far ratios beyond "
                "the axis</text>\n",
                chrono__px(a, px1), chrono__px(b, top - 8), chrono__u64(d, (uint64_t)off));
    fprintf(out, "<path d=\"M%s %sH%s\" stroke=\"#000\" stroke-width=\"2\"/>\n", chrono__px(a, px0),
            chrono__px(b, chrono__map(&ys, c->ratio)), chrono__px(d, px1));
    chrono__drift_hist(out, &ys, c, px1 + 24, CHRONO__HTML_W - px1 - 40);
    fputs("</svg>\n", out);
}

/* ---- sweeps ------------------------------------------------------------------------ */
typedef struct chrono__sweep_view {
    const chrono_session *s;
    const chrono_sweep_result *sw;
    chrono__scale xs, ys;
    double div;
} chrono__sweep_view;

/* A point's parameter: the number after the last '/' of its name. */
CHRONO__PRIVATE double chrono__sweep_param(const chrono_result *r)
{
    const char *slash = strrchr(r->name, '/');
    return slash ? strtod(slash + 1, NULL) : NAN;
}

/* Ranges; log axes when the parameter spans more than two decades. */
CHRONO__PRIVATE int chrono__sweep_fit_view(chrono__sweep_view *v, double px0, double px1,
                                           double top, double bottom)
{
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    size_t i;
    for (i = 0; i < v->sw->points && v->sw->first_result + i < v->s->nresults; i++) {
        const chrono_result *r = &v->s->results[v->sw->first_result + i];
        double x = chrono__sweep_param(r), l = r->ns.ci_low, h = r->ns.ci_high;
        if (!chrono__finite(x) || !chrono__finite(r->ns.median)) continue;
        if (!chrono__finite(l)) l = r->ns.median;
        if (!chrono__finite(h)) h = r->ns.median;
        if (x < xlo) xlo = x;
        if (x > xhi) xhi = x;
        if (l < ylo) ylo = l;
        if (h > yhi) yhi = h;
    }
    if (!(xlo <= xhi)) return 0;
    {
        int lg = xlo > 0 && xhi / xlo > 100 && ylo > 0;
        chrono__scale_fit(&v->xs, xlo, xhi, 0.04, lg, px0, px1);
        chrono__scale_fit(&v->ys, lg ? ylo : (ylo > 0 ? 0 : ylo), yhi, lg ? 0.04 : 0.06, lg, bottom,
                          top);
    }
    v->div = chrono__unit_div(chrono__unit(v->ys.hi));
    return 1;
}

/* The fitted line, sampled so it bends on log axes, clipped to the plot. */
CHRONO__PRIVATE void chrono__sweep_line(FILE *out, const chrono__sweep_view *v)
{
    int i, pen = 0;
    char a[24], b[24];
    if (!chrono__finite(v->sw->per_unit_ns) || !chrono__finite(v->sw->fixed_ns)) return;
    fputs("<path fill=\"none\" stroke=\"" CHRONO__C_FIT
          "\" stroke-width=\"2\" stroke-dasharray=\"8 4\" d=\"",
          out);
    for (i = 0; i <= 80; i++) {
        double t = i / 80.0,
               x = v->xs.log ? pow(10, log10(v->xs.lo) + t * (log10(v->xs.hi) - log10(v->xs.lo)))
                             : v->xs.lo + t * (v->xs.hi - v->xs.lo);
        double y = v->sw->fixed_ns + v->sw->per_unit_ns * x;
        if (!(y >= v->ys.lo && y <= v->ys.hi)) { pen = 0; continue; }
        fprintf(out, "%s%s %s", pen ? "L" : "M", chrono__px(a, chrono__map(&v->xs, x)),
                chrono__px(b, chrono__map(&v->ys, y)));
        pen = 1;
    }
    fputs("\"/>\n", out);
}

/* The medians as diamonds with their CIs as bars. */
CHRONO__PRIVATE void chrono__sweep_points(FILE *out, const chrono__sweep_view *v)
{
    size_t i;
    char a[24], b[24], c[24], d[24];
    for (i = 0; i < v->sw->points && v->sw->first_result + i < v->s->nresults; i++) {
        const chrono_result *r = &v->s->results[v->sw->first_result + i];
        double x = chrono__sweep_param(r), px;
        if (!chrono__finite(x) || !chrono__finite(r->ns.median)) continue;
        px = chrono__map(&v->xs, x);
        if (chrono__finite(r->ns.ci_low) && chrono__finite(r->ns.ci_high))
            fprintf(out, "<path d=\"M%s %sV%sm-4 0h8m-8 %sh8\" stroke=\"#000\"/>",
                    chrono__px(a, px), chrono__px(b, chrono__map(&v->ys, r->ns.ci_low)),
                    chrono__px(c, chrono__map(&v->ys, r->ns.ci_high)),
                    chrono__px(d, chrono__map(&v->ys, r->ns.ci_low) -
                                      chrono__map(&v->ys, r->ns.ci_high)));
        fprintf(out, "<path d=\"M%s %sl5 5l-5 5l-5 -5z\" fill=\"" CHRONO__C_DOT "\"/>\n",
                chrono__px(a, px), chrono__px(b, chrono__map(&v->ys, r->ns.median) - 5));
    }
}

CHRONO__PRIVATE void chrono__html_sweep(FILE *out, const chrono_session *s,
                                        const chrono_sweep_result *sw)
{
    chrono__sweep_view v;
    chrono__axis ax;
    double px0 = 76, px1 = CHRONO__HTML_W - 24, top = 40, bottom = 300;
    char ylabel[96], words[1024], xlabel[64];
    v.s = s; v.sw = sw;
    if (!chrono__sweep_fit_view(&v, px0, px1, top, bottom)) {
        fputs("<p class=\"note\">no points to plot</p>\n", out);
        return;
    }
    chrono__time_unit(v.ys.hi, &v.div, ylabel, sizeof ylabel, "median time");
    (void)chrono__bprintf(xlabel, sizeof xlabel, "parameter (the sweep's unit)%s",
                          v.xs.log ? ", log scale" : "");
    if (v.ys.log)
        (void)chrono__bprintf(ylabel + strlen(ylabel), sizeof ylabel - strlen(ylabel),
                              ", log scale");
    chrono__svg_open(out, CHRONO__HTML_W, bottom + 50, "sweep", sw->name);
    memset(&ax, 0, sizeof ax);
    ax.sc = &v.xs;
    ax.div = 1;
    ax.at = bottom;
    ax.dir = 1;
    ax.label = xlabel;
    ax.grid0 = top;
    ax.grid1 = bottom;
    chrono__axis_draw(out, &ax);
    chrono__axis_label(out, &ax, 36);
    ax.sc = &v.ys;
    ax.div = v.div;
    ax.vertical = 1;
    ax.at = px0;
    ax.dir = -1;
    ax.label = ylabel;
    ax.grid0 = px0;
    ax.grid1 = px1;
    chrono__axis_draw(out, &ax);
    chrono__axis_label(out, &ax, 56);
    chrono__sweep_line(out, &v);
    chrono__sweep_points(out, &v);
    chrono__sweep_words(words, sizeof words, sw);
    fputs("<text x=\"84\" y=\"20\" font-size=\"11\"><tspan fill=\"" CHRONO__C_FIT
          "\">- - fit</tspan> ",
          out);
    (void)chrono_escape(out, words, CHRONO_FORMAT_HTML);
    fputs("</text>\n</svg>\n", out);
}

/* ---- the page's text parts ----------------------------------------------------------- */
static const char chrono__html_css[] =
    "body{font:14px/1.45 system-ui,sans-serif;color:#111;background:#fff;max-width:80em;"
    "margin:1.5em auto;padding:0 1em}h1{font-size:1.4em}"
    "h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}"
    "h3{font-size:1.05em;margin:1.2em 0 .3em}"
    "dl.env{display:grid;grid-template-columns:max-content auto;gap:.1em 1em}dt{font-weight:bold}"
    "dd{margin:0}.warn{color:#8a3b00;font-weight:bold}"
    ".note{color:#555;font-size:.92em;margin:.2em 0}"
    "table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:.5em 0}"
    "th,td{padding:.2em .45em;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap;"
    "font-size:.95em}th:first-child,td:first-child{text-align:left;white-space:normal}"
    "table.sum td:last-child,table.sum th:last-child{text-align:left;white-space:normal}"
    "table.sum th{white-space:normal}.spark,.tp{white-space:pre}.tp{font-weight:bold}"
    ".thr{white-space:normal}.wide{overflow-x:auto}"
    "svg{display:block;max-width:100%;height:auto;margin:.4em 0}section{break-inside:avoid}"
    "@media print{body{max-width:none}}";

CHRONO__PRIVATE void chrono__html_head(FILE *out, const chrono_session *s)
{
    chrono__env_head h;
    unsigned bit = 0;
    int i;
    chrono__env_head_read(s, &h);
    fprintf(out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<title>chronoscope report</title>\n<style>%s</style>\n</head>\n<body>\n"
            "<h1>chronoscope %s <small>%s</small></h1>\n<dl class=\"env\">\n",
            chrono__html_css, CHRONO_VERSION_STRING, h.date);
    for (i = 0; i < CHRONO__ENV_LINES; i++) {
        chrono__html_el(out, "dt", h.lines[i].label);
        chrono__html_el(out, "dd", h.lines[i].text);
        fputc('\n', out);
    }
    fputs("</dl>\n", out);
    while ((bit = chrono__next_warning(s->warnings, bit)) != 0) {
        fputs("<p class=\"warn\">warning: ", out);
        (void)chrono_escape(out, chrono_env_warning(bit), CHRONO_FORMAT_HTML);
        fputs("</p>\n", out);
    }
}

/* " <span class="CLS">TEXT</span>", leading spaces dropped; nothing when
   TEXT is empty.  "tp" keeps a figure whole; "tp thr" (a threaded run's
   words, ~45 characters) may wrap, so the summary still fits 1200 px. */
CHRONO__PRIVATE void chrono__html_tp(FILE *out, const char *text, const char *cls)
{
    while (*text == ' ') text++;
    if (!*text) return;
    fprintf(out, " <span class=\"%s\">", cls);
    (void)chrono_escape(out, text, CHRONO_FORMAT_HTML);
    fputs("</span>", out);
}

/* One row of the summary table (the markdown report's cells).  With r (a
   result's row), the last cell is its sparkline and its throughput, each kept
   whole: a narrow window wraps between the two instead of hiding the
   throughput behind a scrollbar. */
CHRONO__PRIVATE void chrono__html_row(FILE *out, const chrono__row *row, const char *cell,
                                      const chrono_result *r)
{
    char spark[CHRONO__CELL], tp[CHRONO__CELL];
    int i;
    fputs("<tr>", out);
    for (i = 0; i < CHRONO__COLS; i++)
        if (!r || i != CHRONO__COL_DIST) chrono__html_el(out, cell, row->cell[i]);
    if (r) {
        chrono__sparkline(spark, sizeof spark, r->hist, CHRONO_HIST_BINS, " ");
        fputs("<td><span class=\"spark\">", out);
        (void)chrono_escape(out, spark, CHRONO_FORMAT_HTML);
        fputs("</span>", out);
        tp[0] = '\0';
        chrono__throughput_append(tp, sizeof tp, r);
        chrono__html_tp(out, tp, "tp");
        tp[0] = '\0';
        chrono__threads_append(tp, sizeof tp, r);
        chrono__html_tp(out, tp, "tp thr");   /* a span of its own: the cell may wrap between the
                                                 two */
        fputs("</td>", out);
    }
    fputs("</tr>\n", out);
}

CHRONO__PRIVATE void chrono__html_summary(FILE *out, const chrono_session *s)
{
    chrono__row row;
    char words[1024];
    size_t i;
    fputs("<h2>Summary</h2>\n<div class=\"wide\"><table class=\"sum\">\n<thead>", out);
    chrono__row_title(&row, s);
    chrono__html_row(out, &row, "th", NULL);
    fputs("</thead>\n<tbody>\n", out);
    for (i = 0; i < s->nresults; i++) {
        chrono__row_fill(&row, &s->results[i], CHRONO_FORMAT_TEXT, s->cfg.confidence);
        chrono__html_row(out, &row, "td", &s->results[i]);
    }
    for (i = 0; i < s->ncomparisons; i++) {
        chrono__row_fill(&row, &s->comparisons[i].a, CHRONO_FORMAT_TEXT, s->cfg.confidence);
        chrono__row_label(row.cell[CHRONO__COL_NAME], CHRONO__CELL, "a");
        chrono__html_row(out, &row, "td", &s->comparisons[i].a);
        chrono__row_fill(&row, &s->comparisons[i].b, CHRONO_FORMAT_TEXT, s->cfg.confidence);
        chrono__row_label(row.cell[CHRONO__COL_NAME], CHRONO__CELL, "b");
        chrono__html_row(out, &row, "td", &s->comparisons[i].b);
    }
    fputs("</tbody>\n</table></div>\n", out);
    for (i = 0; i < s->ncomparisons; i++) {
        const chrono_comparison *c = &s->comparisons[i];
        (void)chrono__verdict(words, sizeof words, c, CHRONO_FORMAT_TEXT, s->cfg.confidence);
        fputs("<p>", out);
        chrono__html_el(out, "b", c->a.name);
        fputs(" vs ", out);
        chrono__html_el(out, "b", c->b.name);
        fputs(": ", out);
        (void)chrono_escape(out, words, CHRONO_FORMAT_HTML);
        fputs("</p>\n", out);
    }
    for (i = 0; i < s->nsweeps; i++) {
        chrono__sweep_words(words, sizeof words, &s->sweeps[i]);
        fputs("<p>sweep ", out);
        chrono__html_el(out, "b", s->sweeps[i].name);
        fputc(' ', out);
        (void)chrono_escape(out, words, CHRONO_FORMAT_HTML);
        fputs("</p>\n", out);
    }
}

/* "rejected and replaced: 2 migrated, 1 preempted" for one result, or nothing. */
CHRONO__PRIVATE void chrono__html_rejected(FILE *out, const chrono_result *r, const char *side)
{
    size_t k = 0, any = 0, v[CHRONO__NREJECTIONS];
    char num[24], num2[24];
    static const char *const cause[CHRONO__NREJECTIONS] = { CHRONO__REJECTIONS(
        CHRONO__REJECTION_WORD) };
#define CHRONO__REJECTION_VAL(field, words, key) v[k++] = r->field;
    CHRONO__REJECTIONS(CHRONO__REJECTION_VAL)
#undef CHRONO__REJECTION_VAL
    for (k = 0; k < CHRONO__NREJECTIONS; k++) any += v[k];
    fputs("<p class=\"note\">", out);
    if (side) { (void)chrono_escape(out, side, CHRONO_FORMAT_HTML); fputs(": ", out); }
    fprintf(out, "%s samples taken, %s accepted", chrono__u64(num, (uint64_t)r->samples_taken),
            chrono__u64(num2, (uint64_t)r->samples));
    if (any) {
        fputs("; rejected and replaced, by cause:", out);
        for (k = 0; k < CHRONO__NREJECTIONS; k++)
            if (v[k]) fprintf(out, " %s %s;", chrono__u64(num, (uint64_t)v[k]), cause[k]);
    } else {
        fputs("; none rejected", out);
    }
    if (r->truncated) fputs(" (the run reached its time budget before taking every sample)", out);
    fputs("</p>\n", out);
}

/* A run's memory figures, its spread between processes, its threads and its
   counters per iteration, where it has them. */
CHRONO__PRIVATE void chrono__html_more(FILE *out, const chrono_result *r, const char *side)
{
    static const char *const what[4] = { "memory: ", "between processes: ", "threads: ",
                                         "per iteration: " };
    char line[640];
    int k;
    for (k = 0; k < 4; k++) {
        const char *t = line;
        line[0] = '\0';
        if (k == 0 && !chrono__memory_line(line, sizeof line, r)) continue;
        if (k == 1 && !chrono__processes_line(line, sizeof line, r)) continue;
        if (k == 2) chrono__threads_append(line, sizeof line, r);
        if (k == 3 && (r->counters || r->nuser)) (void)chrono__counters_cell(line, sizeof line, r);
        while (*t == ' ') t++;
        if (!*t) continue;
        fputs("<p class=\"note\">", out);
        if (side) { (void)chrono_escape(out, side, CHRONO_FORMAT_HTML); fputs(": ", out); }
        fputs(what[k], out);
        (void)chrono_escape(out, t, CHRONO_FORMAT_HTML);
        fputs("</p>\n", out);
    }
}

/* A run's heading and figures in words. */
CHRONO__PRIVATE void chrono__html_run_head(FILE *out, const chrono_session *s,
                                           const chrono_result *r)
{
    /* the row's cells (text report's columns) each after its words; cycles only where known */
    static const char *const words[] = { "<p>median <b>", "</b>, CI ", ", MAD ", ", ~", " cycles, ",
                                         " iterations \xC3\x97 samples, outliers ", ", CPU time " };
    static const int cells[] = { 1, 2, 4, 5, 6, 7, 8 };
    chrono__row row;
    int i;
    chrono__row_fill(&row, r, CHRONO_FORMAT_TEXT, s->cfg.confidence);
    fputs("<section>\n", out);
    chrono__html_el(out, "h3", r->name);
    for (i = 0; i < 7; i++) {
        if (cells[i] == 5 && !r->has_cycles) continue;
        fputs(cells[i] == 6 && !r->has_cycles ? ", " : words[i], out);
        (void)chrono_escape(out, row.cell[cells[i]], CHRONO_FORMAT_HTML);
    }
    if (r->cpu_share == r->cpu_share)
        fprintf(out, " an iteration (on a CPU %.0f%% of the time)", 100.0 * r->cpu_share);
    fputs("</p>\n", out);
}

CHRONO_API int chrono_table_html(FILE *out, const chrono_table *t)
{
    size_t r, c;
    if (!out || !chrono__table_ok(t)) return CHRONO_EINVAL;
    chrono__html_el(out, "h2", t->title ? t->title : t->key);
    fputs("\n<div class=\"wide\"><table>\n<thead><tr>", out);
    for (c = 0; c < t->ncols; c++) chrono__html_el(out, "th", t->cols[c]);
    fputs("</tr></thead>\n<tbody>\n", out);
    for (r = 0; r < t->nrows; r++) {
        fputs("<tr>", out);
        for (c = 0; c < t->ncols; c++) chrono__html_el(out, "td", t->cells[r * t->ncols + c]);
        fputs("</tr>\n", out);
    }
    fputs("</tbody>\n</table></div>\n", out);
    return chrono__io(out);
}

/* ---- the page -------------------------------------------------------------------------- */
CHRONO__PRIVATE void chrono__html_runs(FILE *out, const chrono_session *s)
{
    size_t i, n = 0;
    for (i = 0; i < s->nresults; i++) n += chrono__sweep_of(s, i) == NULL;
    if (n) fputs("<h2>Runs</h2>\n", out);
    for (i = 0; i < s->nresults; i++) {
        const chrono_result *r = &s->results[i];
        if (chrono__sweep_of(s, i)) continue;
        chrono__html_run_head(out, s, r);
        chrono__html_strips(out, s, &r, NULL, 1, r->name);
        chrono__html_rejected(out, r, NULL);
        chrono__html_more(out, r, NULL);
        fputs("</section>\n", out);
    }
}

/* Do both sides of a comparison fit one axis?  When together they span no
   more than 3 times the wider one alone. */
CHRONO__PRIVATE int chrono__strips_share(const chrono_result *const *rows)
{
    double lo[2], hi[2], wide;
    if (!chrono__strip_range(rows, 1, &lo[0], &hi[0]) ||
        !chrono__strip_range(rows + 1, 1, &lo[1], &hi[1]))
        return 1;
    wide = hi[0] - lo[0] > hi[1] - lo[1] ? hi[0] - lo[0] : hi[1] - lo[1];
    return (hi[0] > hi[1] ? hi[0] : hi[1]) - (lo[0] < lo[1] ? lo[0] : lo[1]) <= 3 * wide;
}

CHRONO__PRIVATE void chrono__html_comparisons(FILE *out, const chrono_session *s)
{
    char words[1024], name[2 * CHRONO_NAME_MAX + 8];
    size_t i;
    if (s->ncomparisons) fputs("<h2>Comparisons</h2>\n", out);
    for (i = 0; i < s->ncomparisons; i++) {
        const chrono_comparison *c = &s->comparisons[i];
        const chrono_result *rows[2];
        const char *labels[2] = { "a", "b" };
        rows[0] = &c->a; rows[1] = &c->b;
        (void)chrono__bprintf(name, sizeof name, "%s vs %s", c->a.name, c->b.name);
        fputs("<section>\n", out);
        chrono__html_el(out, "h3", name);
        (void)chrono__verdict(words, sizeof words, c, CHRONO_FORMAT_TEXT, s->cfg.confidence);
        fputs("<p>a = ", out); chrono__html_el(out, "b", c->a.name);
        fputs(", b = ", out); chrono__html_el(out, "b", c->b.name);
        fputs("; a/b ", out); (void)chrono_escape(out, words, CHRONO_FORMAT_HTML);
        fputs("</p>\n", out);
        chrono__html_drift(out, c, name);
        if (chrono__strips_share(rows)) {
            chrono__html_strips(out, s, rows, labels, 2, name);
        } else {   /* far apart: one axis each, or both would be squeezed to a line */
            chrono__html_strips(out, s, rows, labels, 1, c->a.name);
            chrono__html_strips(out, s, rows + 1, labels + 1, 1, c->b.name);
        }
        chrono__html_rejected(out, &c->a, "a");
        chrono__html_rejected(out, &c->b, "b");
        chrono__html_more(out, &c->a, "a");
        chrono__html_more(out, &c->b, "b");
        fputs("</section>\n", out);
    }
}

CHRONO_API int chrono_report_html(const chrono_session *s, FILE *out,
                                  const chrono_report_options *opt)
{
    size_t i, ntables = opt && opt->tables ? opt->ntables : 0;
    if (!s || !s->is_open || !out) return CHRONO_EINVAL;
    for (i = 0; i < ntables; i++) if (!chrono__table_ok(&opt->tables[i])) return CHRONO_EINVAL;
    chrono__html_head(out, s);
    chrono__html_summary(out, s);
    chrono__html_runs(out, s);
    chrono__html_comparisons(out, s);
    if (s->nsweeps) fputs("<h2>Sweeps</h2>\n", out);
    for (i = 0; i < s->nsweeps; i++) {
        fputs("<section>\n", out);
        chrono__html_el(out, "h3", s->sweeps[i].name);
        chrono__html_sweep(out, s, &s->sweeps[i]);
        fputs("</section>\n", out);
    }
    for (i = 0; i < ntables; i++) (void)chrono_table_html(out, &opt->tables[i]);
    fputs("<p class=\"note\">Made by chronoscope " CHRONO_VERSION_STRING
          ": one file, no scripts.</p>\n</body>\n</html>\n",
          out);
    if (fflush(out) != 0) return CHRONO_EIO;
    return chrono__io(out);
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_HTML_IMPL */

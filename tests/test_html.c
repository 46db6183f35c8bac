/* test_html — the HTML page (html.h) on the hand-filled session of
   report_fixture.c: the entry points and their errors, escaping of names
   holding < & " ' and emoji, the number of plots, the figures the page states,
   and the cost of a run of 1000 samples (time to write, bytes added).  The
   parsers (html.parser, xml.etree) run in check_html.py. */
#include <chronoscope.h>
#define CHRONO_FIXTURE_NO_MAIN
#include "report_fixture.c"
#include "tap.h"

typedef struct page { char *text; size_t len; int rc; } page;

static FILE *scratch(void)
{
    FILE *f = tmpfile();
    if (!f) f = fopen("test_html.tmp", "w+b");
    return f;
}

static page html_of(const chrono_session *s, const chrono_report_options *opt)
{
    page p = { NULL, 0, 0 };
    FILE *f = scratch();
    long n;
    if (!f) { p.rc = -1000; return p; }
    p.rc = chrono_report_html(s, f, opt);
    n = ftell(f);
    if (n >= 0 && (p.text = (char *)malloc((size_t)n + 1)) != NULL) {
        rewind(f);
        p.len = fread(p.text, 1, (size_t)n, f);
        p.text[p.len] = '\0';
    }
    fclose(f);
    return p;
}

static size_t count(const page *p, const char *needle)
{
    size_t n = 0, k = strlen(needle);
    const char *q = p->text;
    while (q && (q = strstr(q, needle)) != NULL) { n++; q += k; }
    return n;
}

static int has(const page *p, const char *needle) { return count(p, needle) > 0; }

static void test_entry_points(fixture *fx)
{
    chrono_format f = CHRONO_FORMAT_TEXT;
    chrono_report_writer w;
    chrono_session closed;
    FILE *sink = scratch();
    tap_ok(chrono_format_parse("html", &f) == 0 && f == CHRONO_FORMAT_HTML, "format 'html' parses");
    tap_ok(!strcmp(chrono_format_name(CHRONO_FORMAT_HTML), "html"), "format name of HTML is 'html'");
    tap_ok(chrono_format_parse("HTML", &f) == CHRONO_EINVAL, "'HTML' refused (names are case-sensitive)");
    if (!sink) { tap_skip("no temporary file"); return; }
    tap_ok(chrono_report(&fx->s, sink, CHRONO_FORMAT_HTML) == CHRONO_EINVAL, "chrono_report refuses HTML (report.h stays below html.h)");
    tap_ok(chrono_report_begin(&w, &fx->s, sink, CHRONO_FORMAT_HTML, NULL) == CHRONO_EINVAL, "chrono_report_begin refuses HTML");
    tap_ok(chrono_report_html(NULL, sink, NULL) == CHRONO_EINVAL, "chrono_report_html(NULL session)");
    tap_ok(chrono_report_html(&fx->s, NULL, NULL) == CHRONO_EINVAL, "chrono_report_html(NULL stream)");
    memset(&closed, 0, sizeof closed);
    tap_ok(chrono_report_html(&closed, sink, NULL) == CHRONO_EINVAL, "chrono_report_html(closed session)");
    {
        chrono_report_options ro;
        chrono_table t;
        memset(&ro, 0, sizeof ro);
        memset(&t, 0, sizeof t);
        t.key = "bad"; t.ncols = 1; t.nrows = 1;   /* no columns, no cells */
        ro.tables = &t; ro.ntables = 1;
        tap_ok(chrono_report_html(&fx->s, sink, &ro) == CHRONO_EINVAL, "a malformed table is refused");
    }
    fclose(sink);
    sink = fopen("test_html.ro.tmp", "wb");
    if (sink) fclose(sink);
    sink = fopen("test_html.ro.tmp", "rb");
    if (sink) {
        tap_ok(chrono_report_html(&fx->s, sink, NULL) == CHRONO_EIO, "a stream that cannot be written: CHRONO_EIO");
        fclose(sink);
    }
    remove("test_html.ro.tmp");
}

#define NASTY "<b>x</b> & \"q\" 'a' \xF0\x9F\x98\x80 \xE2\x9C\x93"

static void test_page(fixture *fx)
{
    chrono_report_options ro;
    chrono_table t;
    static const char *const cols[2] = { "what <col>", "ns & more" };
    static const char *const cells[4] = { "a \"b\"", "1.5", "\xF0\x9F\x9A\x80 c<d", "n/a" };
    page p;
    memset(&ro, 0, sizeof ro);
    memset(&t, 0, sizeof t);
    t.key = "then_vs_now"; t.title = "then & now"; t.ncols = 2; t.nrows = 2; t.cols = cols; t.cells = cells;
    ro.tables = &t; ro.ntables = 1;
    strcpy(fx->results[7].name, NASTY);       /* the no-samples result */
    strcpy(fx->comparisons[1].b.name, "b<&>\"" "\xF0\x9F\x98\x80");
    p = html_of(&fx->s, &ro);
    tap_ok(p.rc == 0 && p.text, "chrono_report_html on the fixture: 0 (%d bytes)", (int)p.len);
    if (!p.text) return;
    tap_ok(!strncmp(p.text, "<!DOCTYPE html>\n<html lang=\"en\">", 32), "starts with the HTML5 doctype");
    tap_ok(has(&p, "<meta charset=\"utf-8\">") && has(&p, "</html>\n"), "declares UTF-8 and ends with </html>");
    /* 4 runs with samples outside the sweep (the fifth has none), imul1000 vs add1000: drift + a strip each (3x apart), same_a vs same_b: drift + shared strips, 1 sweep */
    tap_ok(count(&p, "<svg ") == 10 && count(&p, "</svg>") == 10, "10 SVGs (%d opened, %d closed)", (int)count(&p, "<svg "),
           (int)count(&p, "</svg>"));
    tap_ok(!has(&p, "<script") && !has(&p, "<link") && !has(&p, "src=") && !has(&p, "href="), "no script, link, src or href");
    tap_ok(has(&p, "&lt;b&gt;x&lt;/b&gt; &amp; &quot;q&quot; &#39;a&#39; \xF0\x9F\x98\x80 \xE2\x9C\x93"),
           "a name with < > & \" ' and emoji is escaped, the emoji kept");
    tap_ok(!has(&p, "<b>x</b>") && !has(&p, "\"q\""), "the name's markup does not reach the page raw");
    tap_ok(has(&p, "b&lt;&amp;&gt;&quot;\xF0\x9F\x98\x80"), "a comparison side's name is escaped too");
    tap_ok(has(&p, "quote&quot;back\\slash") && has(&p, "tab\\there, new\\nline"), "quotes escaped, control characters shown as \\t \\n");
    tap_ok(has(&p, "bad\xEF\xBF\xBD|") && has(&p, "\xF0\x9F\x98\x80|\\r"), "invalid UTF-8 as U+FFFD, the valid emoji kept, CR as \\r");
    tap_ok(has(&p, "<h3>\xC3\xBCn\xC3\xAF \xE2\x9C\x93 \xE8\xA8\x88\xE6\x99\x82 \xE2\x80\x94 \xC2\xB5s</h3>"), "a UTF-8 name passes through");
    tap_ok(has(&p, "<h3>copy</h3>") && has(&p, "<td>copy/1</td>") && has(&p, "<td>copy/4</td>"), "the sweep and its points");
    tap_ok(has(&p, "<h3>imul1000 vs add1000</h3>") && has(&p, "<td>a: same_a</td>") && has(&p, "<td>b: imul1000</td>") == 0 &&
           has(&p, "<td>a: imul1000</td>") && has(&p, "<td>b: add1000</td>"),
           "the comparisons and their sides, labelled a: and b: in the summary table");
    tap_ok(has(&p, "<dd>Test CPU @ 3.00GHz (GenuineIntel), 8 online CPUs, SMT on</dd>"), "the environment header");
    tap_ok(has(&p, "<p class=\"warn\">warning: "), "the warnings");
    tap_ok(has(&p, "<td>1.500 \xC2\xB5s</td>"), "the summary table states the median of quote (1.500 µs, the digits its CI needs)");
    tap_ok(has(&p, "3.001x [2.999, 3.003]") && has(&p, "add1000 is 3.00x faster"), "the verdict of imul1000 vs add1000");
    tap_ok(has(&p, "the line at 1.0 is off the scale (below)"), "a ratio of 3: the line at 1.0 is off the scale, and it says so");
    tap_ok(has(&p, ">1.0: equal</text>"), "a ratio of 1.001: the line at 1.0 is drawn");
    tap_ok(has(&p, "10.0 ns [9.90 ns, 10.1 ns] per byte") && has(&p, "R\xC2\xB2 1.0000"), "the sweep's fit in words: per unit, R²");
    tap_ok(has(&p, "2 migrated; 1 preempted; 3 front end contended;"), "rejected samples counted by cause");
    tap_ok(has(&p, "estimated core cycles per iteration") && has(&p, "time per iteration (\xC2\xB5s)"),
           "a run's axes: time in its unit, estimated cycles on top");
    tap_ok(has(&p, "<h2>then &amp; now</h2>") && has(&p, "<th>what &lt;col&gt;</th>") && has(&p, "<td>\xF0\x9F\x9A\x80 c&lt;d</td>"),
           "the program's table, escaped");
    tap_ok(has(&p, "beyond the axis"), "a far sample is counted at the axis's end");
    tap_ok(has(&p, "no samples to plot"), "a result without samples says so instead of a plot");
    free(p.text);
}

/* A session of one run of n samples (stats computed from them). */
static void one_run(fixture *fx, double *v, size_t n)
{
    size_t i;
    fixture_fill(fx);
    for (i = 0; i < n; i++) v[i] = 100 + 3 * sin((double)i * 0.7) + (i % 97 == 0 ? 40 : 0) + (double)(i % 13) * 0.1;
    fx->results[0].samples = n;
    fx->results[0].sample_ns = v;
    fx->results[0].nsample_ns = n;
    (void)chrono_stats_compute(v, n, 0.95, NULL, &fx->results[0].ns);
    fx->s.nresults = n ? 1 : 0;
    fx->s.ncomparisons = 0;
    fx->s.nsweeps = 0;
}

static double write_ms(const chrono_session *s, const chrono_clock *clk, size_t *bytes)
{
    double best = INFINITY;
    int k;
    for (k = 0; k < 7; k++) {
        FILE *f = scratch();
        uint64_t t0, t1;
        if (!f) return NAN;
        t0 = chrono_clock_start(clk);
        (void)chrono_report_html(s, f, NULL);
        t1 = chrono_clock_stop(clk);
        *bytes = (size_t)ftell(f);
        fclose(f);
        if (chrono_clock_ns(clk, t1 - t0) / 1e6 < best) best = chrono_clock_ns(clk, t1 - t0) / 1e6;
    }
    return best;
}

static void test_cost(void)
{
    static fixture fx;
    static double v[100000];
    chrono_clock clk;
    size_t empty = 0, b1000 = 0, b100k = 0;
    double ms0, ms, ms100k;
    if (chrono_clock_open(&clk, CHRONO_CLOCK_AUTO) < 0) { tap_skip("no clock"); return; }
    one_run(&fx, v, 0);
    ms0 = write_ms(&fx.s, &clk, &empty);
    one_run(&fx, v, 1000);
    ms = write_ms(&fx.s, &clk, &b1000);
    one_run(&fx, v, 100000);
    ms100k = write_ms(&fx.s, &clk, &b100k);
    tap_diag("page without runs: %.3f ms, %lu bytes; one run of 1000 samples: %.3f ms, %lu bytes (+%lu); of 100000: %.3f ms, %lu bytes",
             ms0, (unsigned long)empty, ms, (unsigned long)b1000, (unsigned long)(b1000 - empty), ms100k, (unsigned long)b100k);
    tap_ok(b1000 > empty && b1000 - empty <= 1000000, "a run of 1000 samples adds at most 1 MB (%lu bytes)", (unsigned long)(b1000 - empty));
    tap_ok(b100k - empty <= 1000000, "a run of 100000 samples adds at most 1 MB too: every k-th drawn (%lu bytes)",
           (unsigned long)(b100k - empty));
    if (tap_emulated()) tap_skip("emulated: no time bound");
    else tap_ok(ms <= 10.0, "the page for a run of 1000 samples is written in at most 10 ms (best of 7: %.3f ms)", ms);
}

/* What a writer puts on a fresh stream, the dates ("...T12:00:00+00:00") blanked. */
static page written(int (*write)(const chrono_session *, FILE *, chrono_format, const chrono_report_options *),
                    const chrono_session *s, chrono_format fmt, const chrono_report_options *opt)
{
    page p = { NULL, 0, 0 };
    FILE *f = scratch();
    long n;
    char *d;
    if (!f) { p.rc = -1000; return p; }
    p.rc = write(s, f, fmt, opt);
    n = ftell(f);
    if (n >= 0 && (p.text = (char *)malloc((size_t)n + 1)) != NULL) {
        rewind(f);
        p.len = fread(p.text, 1, (size_t)n, f);
        p.text[p.len] = '\0';
        for (d = p.text; (d = strstr(d, "+00:00")) != NULL; d += 6)
            if (d - p.text >= 19) memset(d - 19, '#', 19);
    }
    fclose(f);
    return p;
}

static int html_only(const chrono_session *s, FILE *f, chrono_format fmt, const chrono_report_options *opt)
{
    (void)fmt;
    return chrono_report_html(s, f, opt);
}

/* chrono_report_write: the one entry for every format (cli.h and program.h
   write through it): HTML as chrono_report_html, the others as chrono_report_ex. */
static void test_write_any(fixture *fx)
{
    static const char *const cols[] = { "a<b", "n" };
    static const char *const cells[] = { "x & y", "n/a" };
    chrono_table t = { "tab", "T & co", 2, 1, cols, cells };
    chrono_report_options opt;
    chrono_format fmt;
    page a, b;
    memset(&opt, 0, sizeof opt);
    opt.tables = &t;
    opt.ntables = 1;
    opt.executable = "test_html";
    a = written(chrono_report_write, &fx->s, CHRONO_FORMAT_HTML, &opt);
    b = written(html_only, &fx->s, CHRONO_FORMAT_HTML, &opt);
    tap_ok(a.rc == 0 && a.text && b.text && a.len > 1000 && !strcmp(a.text, b.text),
           "chrono_report_write(HTML): the page chrono_report_html writes, byte for byte");
    tap_ok(has(&a, "<h2>T &amp; co</h2>") && has(&a, "<th>a&lt;b</th>") && has(&a, "<td>x &amp; y</td><td>n/a</td>"),
           "chrono_report_write(HTML): the program's table, escaped, n/a kept");
    free(a.text); free(b.text);
    for (fmt = CHRONO_FORMAT_TEXT; fmt <= CHRONO_FORMAT_JSON; fmt = (chrono_format)(fmt + 1)) {
        opt.color = CHRONO_COLOR_NEVER;
        a = written(chrono_report_write, &fx->s, fmt, &opt);
        b = written(chrono_report_ex, &fx->s, fmt, &opt);
        tap_ok(a.rc == 0 && a.text && b.text && a.len > 100 && !strcmp(a.text, b.text),
               "chrono_report_write(%s): what chrono_report_ex writes", chrono_format_name(fmt));
        free(a.text); free(b.text);
    }
    tap_ok(chrono_report_write(&fx->s, stdout, (chrono_format)99, NULL) == CHRONO_EINVAL && chrono_report_write(NULL, stdout, CHRONO_FORMAT_HTML, NULL) == CHRONO_EINVAL,
           "chrono_report_write: an unknown format or no session is CHRONO_EINVAL");
    {
        FILE *f = scratch();
        page p = { NULL, 0, 0 };
        long n;
        if (f) {
            p.rc = chrono_table_html(f, &t);
            n = ftell(f);
            if (n >= 0 && (p.text = (char *)malloc((size_t)n + 1)) != NULL) { rewind(f); p.len = fread(p.text, 1, (size_t)n, f); p.text[p.len] = '\0'; }
            fclose(f);
        }
        tap_ok(p.rc == 0 && p.text && !strcmp(p.text, "<h2>T &amp; co</h2>\n<div class=\"wide\"><table>\n<thead><tr><th>a&lt;b</th><th>n</th></tr></thead>\n"
                                                     "<tbody>\n<tr><td>x &amp; y</td><td>n/a</td></tr>\n</tbody>\n</table></div>\n") &&
                   chrono_table_html(stdout, NULL) == CHRONO_EINVAL,
               "chrono_table_html: heading, header row, cells escaped; NULL is CHRONO_EINVAL");
        free(p.text);
    }
}

/* The x of every "M x y" move in the path of `stroke` (the first path of that
   colour after the start of text): how many, at most cap, into xs. */
static size_t path_xs(const char *text, const char *stroke, double *xs, size_t cap)
{
    const char *p = text ? strstr(text, stroke) : NULL, *end;
    size_t n = 0;
    if (!p || !(p = strstr(p, " d=\"")) || !(end = strchr(p + 4, '"'))) return 0;
    for (p += 4; (p = strchr(p, 'M')) != NULL && p < end && n < cap; p++) xs[n++] = strtod(p + 1, NULL);
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Which samples a strip plot marks as outliers (chrono__strip_dots): those
   beyond Tukey's 1.5 IQR fences, the mild ones (between 1.5 and 3 IQR) too.
   100..119 and 80, 140, 170: q1 104.5, q3 115.5 (type 7; IQR 11), fences 88
   and 132 at 1.5 IQR, 71.5 and 148.5 at 3: 80 and 140 are mild, 170 severe.  On an
   axis of 0..1000 over 1000 px a value is its own x. */
static void test_outlier_marks(void)
{
    double v[23], xs[32], dots[32];
    chrono_result r;
    chrono__scale sc = { 0, 1000, 0, 1000, 0 };
    page p = { NULL, 0, 0 };
    FILE *f = scratch();
    size_t i, n = 0, nd = 0;
    long len;
    memset(&r, 0, sizeof r);
    for (i = 0; i < 20; i++) v[i] = 100 + (double)i;
    v[20] = 80; v[21] = 140; v[22] = 170;
    r.sample_ns = v;
    r.nsample_ns = r.samples = 23;
    if (!f || chrono_stats_compute(v, 23, 0.95, NULL, &r.ns) < 0) {
        tap_ok(0, "outlier marks: a scratch file and the stats");
        if (f) fclose(f);
        return;
    }
    chrono__strip_dots(f, &sc, &r, 50, 20);
    len = ftell(f);
    if (len > 0 && (p.text = (char *)malloc((size_t)len + 1)) != NULL) {
        rewind(f);
        p.len = fread(p.text, 1, (size_t)len, f);
        p.text[p.len] = '\0';
    }
    fclose(f);
    n = path_xs(p.text, "stroke=\"" CHRONO__C_OUT "\"", xs, 32);
    nd = path_xs(p.text, "stroke=\"" CHRONO__C_DOT "\"", dots, 32);
    qsort(xs, n, sizeof *xs, cmp_double);
    tap_ok(fabs(r.ns.q1 - 104.5) < 1e-9 && fabs(r.ns.q3 - 115.5) < 1e-9 && n == 3 && xs[0] == 80 && xs[1] == 140 &&
               xs[2] == 170 && nd == 20,
           "strip plot: crosses at 80, 140 (mild: 1.5..3 IQR) and 170 (severe), the 20 others dots "
           "(q1 %g, q3 %g; %zu crosses%s%g, %zu dots)   [strip plot: crosses only past 3 IQR]", r.ns.q1, r.ns.q3, n,
           n ? " from " : "", n ? xs[0] : 0.0, nd);
    free(p.text);
}

int main(void)
{
    static fixture fx;
    fixture_fill(&fx);
    test_entry_points(&fx);
    test_page(&fx);
    test_write_any(&fx);
    test_cost();
    test_outlier_marks();
    return tap_done();
}

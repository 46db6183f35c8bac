/* chronoscope/summary.h — what every report a person reads shares (text,
   markdown and HTML): the environment header's lines, the summary table's
   columns and cells, a comparison's verdict and a sweep's fit in words, a
   run's memory and processes lines.  No public function of its own: report.h
   (text, markdown, CSV, JSON, BMF) and html.h (the page) draw from it, each
   in its own markup, and html.h sits below report.h, whose any-format writer
   (chrono_report_write) calls it down.

   Types:
     chrono_report_options               how a report is written (colour, executable,
                                         the program's tables, baseline); zero means defaults
     CHRONO_COLOR_AUTO, _ALWAYS, _NEVER  its colour modes

   Interface for the modules above
     chrono__row, CHRONO__COLS, CHRONO__CELL   a summary row (text, markdown, html.h's markup):
                                         CHRONO__COLS cells of CHRONO__CELL bytes
     CHRONO__COL_NAME, CHRONO__COL_MEDIAN, CHRONO__COL_DIST   the name's, the median's and the
                                         last (distribution) cell
     chrono__cols                        each column's title, text width and alignment
     chrono__row_title, chrono__row_fill, chrono__row_label   its header, a result's cells, its name
     chrono__mark_text                   a row's warning marks ("!1!3")
     chrono__warning_number, chrono__warning_list   a warning's footnote number, a list of them
     chrono__next_warning(bits, &b)      the warning bits one by one
     chrono__verdict(buf, n, cmp, fmt, want)   a comparison in words ("3.001x [...] - b is 3.00x
                                         faster")
     chrono__sweep_of, chrono__sweep_words   a sweep's results and its fit in words
     chrono__sparkline, chrono__counters_cell   a result's sparkline and counters
     chrono__per_second, chrono__user_value, chrono__user_cell   throughput and the body's
                                         own counters
     chrono__throughput_append, chrono__threads_append   a row's throughput and threads words
     chrono__memory_line, chrono__processes_line   the memory and processes lines
     chrono__env_head, chrono__env_head_read, CHRONO__ENV_LINES   the environment header's lines
     chrono__date, chrono__or            the date (UTC), a default for an empty string
     CHRONO__SIDE_LABEL                  the width of "a: " before a comparison side's name */
#ifndef CHRONOSCOPE_SUMMARY_H
#define CHRONOSCOPE_SUMMARY_H

#include "types.h"
#include "table.h"

/* ---- types ---------------------------------------------------------------- */
enum { CHRONO_COLOR_AUTO = 0, CHRONO_COLOR_ALWAYS, CHRONO_COLOR_NEVER };

/* Zero-initialised means defaults. */
typedef struct chrono_report_options {
    int color;               /* CHRONO_COLOR_AUTO: a terminal and NO_COLOR unset (text only) */
    const char *executable;  /* JSON context "executable"; NULL: the running program, where the OS
                                says */
    const chrono_table *tables;  /* written after the benchmarks (see chrono_table) */
    size_t ntables;
    int name_width;          /* streaming: the widest name to come (text, markdown), 0: the
                                session's */
    const char *baseline;    /* a result's name: every row also shows its median relative to it */
} chrono_report_options;

#endif /* CHRONOSCOPE_SUMMARY_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_SUMMARY_IMPL)
#define CHRONOSCOPE_SUMMARY_IMPL

#include <stdlib.h>
#include <time.h>

CHRONO__EXTERN_C_BEGIN
/* ---- small helpers ---------------------------------------------------------- */
#define CHRONO__CELL 640     /* one sanitised name: 127 bytes, each up to 4 on output */

/* ---- facts shared by the formats ------------------------------------------------- */
/* "2025-06-01T12:00:00+00:00" (UTC) from time(NULL), without localtime's
   static buffer: days since the epoch to a civil date. */
CHRONO__PRIVATE void chrono__date(char *buf, size_t n)
{
    long long t = (long long)time(NULL), days, secs, z, era, doe, yoe, y, doy, mp, d, m;
    if (t < 0) t = 0;
    days = t / 86400; secs = t % 86400;
    z = days + 719468;
    era = z / 146097;
    doe = z - era * 146097;
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    y = yoe + era * 400;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    if (m <= 2) y++;
    (void)chrono__bprintf(buf, n, "%04d-%02d-%02dT%02d:%02d:%02d+00:00", (int)y, (int)m, (int)d,
                   (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60));
}

/* "2.995 GHz" / "24.000 MHz" / "1000000000 Hz". */
CHRONO__PRIVATE const char *chrono__hz(char *buf, size_t n, double hz)
{
    char num[48];
    if (!chrono__finite(hz) || hz <= 0) { (void)chrono__bprintf(buf, n, "unknown"); return buf; }
    if (hz >= 1e9)
        (void)chrono__bprintf(buf, n, "%s GHz", chrono__num(num, sizeof num, "%.3f", hz / 1e9));
    else if (hz >= 1e6)
        (void)chrono__bprintf(buf, n, "%s MHz", chrono__num(num, sizeof num, "%.3f", hz / 1e6));
    else (void)chrono__bprintf(buf, n, "%s Hz", chrono__num(num, sizeof num, "%.0f", hz));
    return buf;
}

CHRONO__PRIVATE const char *chrono__tri(int v, const char *yes, const char *no)
{
    return v > 0 ? yes : v == 0 ? no : "unknown";
}

CHRONO__PRIVATE const char *chrono__or(const char *s, const char *dflt)
{
    return s && s[0] ? s : dflt;
}

/* The environment as labelled lines, for the text and markdown headers. */
typedef struct chrono__env_line { const char *label; char text[256]; } chrono__env_line;
#define CHRONO__ENV_LINES 8

CHRONO__PRIVATE void chrono__env_cpu(const chrono_session *s, char *buf, size_t n)
{
    const chrono_env *e = &s->env;
    char cpus[24];
    if (e->online_cpus >= 1) (void)chrono__bprintf(cpus, sizeof cpus, "%d", e->online_cpus);
    else (void)chrono__bprintf(cpus, sizeof cpus, "unknown");
    (void)chrono__bprintf(buf, n, "%s%s%s%s, %s online CPUs, SMT %s",
                          chrono__or(e->cpu_brand, "unknown CPU"), e->cpu_vendor[0] ? " (" : "",
                          e->cpu_vendor, e->cpu_vendor[0] ? ")" : "", cpus,
                          chrono__tri(e->smt, "on", "off"));
}

CHRONO__PRIVATE void chrono__env_pin(const chrono_session *s, char *buf, size_t n)
{
    if (s->pin.pinned)
        (void)chrono__bprintf(buf, n, "cpu %d%s%s", s->pin.cpu, s->pin.topology[0] ? ", " : "",
                              s->pin.topology);
    else
        (void)chrono__bprintf(buf, n, "no: the scheduler may move the thread");
}

CHRONO__PRIVATE void chrono__env_clock(const chrono_session *s, char *buf, size_t n)
{
    const chrono_clock *c = &s->clock;
    char hz[48], ovh[48], spread[64], num[48];
    double ovh_ns = c->hz > 0 ? (double)c->overhead_ticks * 1e9 / c->hz : NAN;
    chrono_report_duration(ovh, sizeof ovh, ovh_ns);
    spread[0] = '\0';
    if (c->hz_calibrated > 0)
        (void)chrono__bprintf(spread, sizeof spread, ", calibration spread %s%%",
                       chrono__num(num, sizeof num, "%.3f", 100.0 * c->calib_spread));
    (void)chrono__bprintf(buf, n, "%s at %s (%s%s), overhead %s%s",
                          chrono__or(c->name, "unknown clock"), chrono__hz(hz, sizeof hz, c->hz),
                          chrono_clock_hz_method_name(c->hz_method), spread, ovh,
                          c->source == CHRONO_CLOCK_TSC
                              ? (c->invariant_tsc ? ", invariant TSC" : ", TSC not invariant")
                              : "");
}

CHRONO__PRIVATE void chrono__env_core(const chrono_session *s, char *buf, size_t n)
{
    const chrono_env *e = &s->env;
    char ghz[48];
    if (chrono__finite(s->core_ghz) && s->core_ghz > 0)
        (void)chrono__bprintf(buf, n, "%s GHz measured by reference chains; governor %s, boost %s",
                              chrono__num(ghz, sizeof ghz, "%.3f", s->core_ghz),
                              chrono__or(e->governor, "unknown"),
                              chrono__tri(e->boost, "on", "off"));
    else
        (void)chrono__bprintf(buf, n, "%s; governor %s, boost %s",
                              s->warnings & CHRONO_WARN_EMULATED ? "not estimated: emulated"
                                                                 : "unknown (no cycle estimates)",
                              chrono__or(e->governor, "unknown"),
                              chrono__tri(e->boost, "on", "off"));
}

CHRONO__PRIVATE void chrono__env_machine(const chrono_session *s, char *buf, size_t n)
{
    const chrono_env *e = &s->env;
    char load[48];
    if (e->loadavg1 >= 0) chrono__num(load, sizeof load, "%.2f", e->loadavg1);
    else (void)chrono__bprintf(load, sizeof load, "unknown");
    (void)chrono__bprintf(
        buf, n, "%s, %s%s%s%s%s, load %s, host %s", chrono__or(e->kernel, "unknown OS"),
        e->in_vm == 1 ? "virtual machine" : "bare metal", e->hypervisor[0] ? " " : "",
        e->hypervisor, e->emulator[0] ? ", emulated by " : "", e->emulator, load,
        chrono__or(e->hostname, "unknown"));
}

/* Page-table isolation and the CPU bugs' mitigations (cpu.h reads them). */
CHRONO__PRIVATE void chrono__env_security(const chrono_session *s, char *buf, size_t n)
{
    const chrono_env *e = &s->env;
    if (e->pti < 0)
        (void)chrono__bprintf(
            buf, n, "PTI and mitigations unknown (no /sys/devices/system/cpu/vulnerabilities)");
    else
        (void)chrono__bprintf(buf, n, "PTI %s; mitigations:%s",
                              e->pti ? "on: every system call switches page tables" : "off",
                              e->mitigations[0] ? e->mitigations : " none");
}

CHRONO__PRIVATE void chrono__env_build(const chrono_session *s, char *buf, size_t n)
{
    const chrono_env *e = &s->env;
    (void)chrono__bprintf(buf, n, "%s, %s, assertions %s",
                          chrono__or(e->compiler, "unknown compiler"),
                          e->optimized > 0    ? "optimised"
                          : e->optimized == 0 ? "NOT optimised"
                                              : "optimisation unknown",
                          e->asserts ? "on" : "off");
}

CHRONO__PRIVATE void chrono__env_run(const chrono_session *s, char *buf, size_t n)
{
    const chrono_config *c = &s->cfg;
    char w[48], m[48], conf[48], real[48], samples[24];
    size_t lo, hi;
    double level = NAN;
    int len;
    (void)chrono_stats_median_ci((size_t)(c->samples > 0 ? c->samples : 0), c->confidence, &lo, &hi,
                                 &level);
    len = chrono__bprintf(buf, n,
                          "%s samples, warmup %s, budget %s per run, %s%% confidence intervals",
                          chrono__u64(samples, (uint64_t)(c->samples > 0 ? c->samples : 0)),
                          chrono_report_duration(w, sizeof w, c->warmup_ms * 1e6),
                          chrono_report_duration(m, sizeof m, c->max_ms * 1e6),
                          chrono__num(conf, sizeof conf, "%.0f", 100.0 * c->confidence));
    /* order statistics cannot hit the level exactly: say what it is */
    if (len > 0 && (size_t)len < n && chrono_stats_level_short(level, c->confidence) == 2)
        (void)chrono__bprintf(buf + len, n - (size_t)len, " (none with %s sample%s)", samples,
                              c->samples == 1 ? "" : "s");
    else if (len > 0 && (size_t)len < n && chrono__finite(level) &&
             fabs(level - c->confidence) >= 0.0005)
        (void)chrono__bprintf(buf + len, n - (size_t)len, " (%s%% with %s samples)",
                              chrono__num(real, sizeof real, "%.1f", 100.0 * level), samples);
}

CHRONO__PRIVATE void chrono__env_lines(const chrono_session *s, chrono__env_line *l)
{
    l[0].label = "cpu";     chrono__env_cpu(s, l[0].text, sizeof l[0].text);
    l[1].label = "pinned";  chrono__env_pin(s, l[1].text, sizeof l[1].text);
    l[2].label = "clock";   chrono__env_clock(s, l[2].text, sizeof l[2].text);
    l[3].label = "core";    chrono__env_core(s, l[3].text, sizeof l[3].text);
    l[4].label = "machine"; chrono__env_machine(s, l[4].text, sizeof l[4].text);
    l[5].label = "security"; chrono__env_security(s, l[5].text, sizeof l[5].text);
    l[6].label = "build";   chrono__env_build(s, l[6].text, sizeof l[6].text);
    l[7].label = "run";     chrono__env_run(s, l[7].text, sizeof l[7].text);
}

/* What a report's header starts with (text, markdown, HTML): the date and the environment's lines. */
typedef struct chrono__env_head {
    char date[48];
    chrono__env_line lines[CHRONO__ENV_LINES];
} chrono__env_head;

CHRONO__PRIVATE void chrono__env_head_read(const chrono_session *s, chrono__env_head *h)
{
    chrono__date(h->date, sizeof h->date);
    chrono__env_lines(s, h->lines);
}

/* Next CHRONO_WARN_* bit set in w after `bit` (0 to start); 0 when none is left. */
CHRONO__PRIVATE unsigned chrono__next_warning(unsigned w, unsigned bit)
{
    unsigned b = bit ? bit << 1 : 1u;
    for (; b; b <<= 1)
        if (w & b) return b;
    return 0;
}

/* ---- the table's cells ----------------------------------------------------------- */
/* The summary table's columns (text, markdown and HTML), one list:
   X(ID, title, width in the text report, right-aligned in text and markdown).
   The name column is as wide as the widest name; the last one is written
   unpadded.  outliers: "12 (3 severe)"; cpu time: the thread's CPU time per
   iteration beside the median (real time); distribution: the sparkline, then
   throughput and threads (chrono__row_fill). */
#define CHRONO__SUMMARY_COLS(X)                     \
    X(NAME,     "name",                      4, 0) \
    X(MEDIAN,   "median",                    9, 1) \
    X(CI,       "CI",                       21, 1) \
    X(MIN,      "min",                       9, 1) \
    X(MAD,      "MAD",                      10, 1) \
    X(CYCLES,   "~cycles",                   8, 1) \
    X(ITERS,    "iters \xC3\x97 samples",   16, 1) \
    X(OUTLIERS, "outliers",                 12, 1) \
    X(CPU_TIME, "cpu time",                  9, 1) \
    X(DIST,     "distribution",             16, 0)
#define CHRONO__COL_ID(id, title, width, right) CHRONO__COL_##id,
enum { CHRONO__SUMMARY_COLS(CHRONO__COL_ID) CHRONO__COLS };
#undef CHRONO__COL_ID
typedef struct chrono__row { char cell[CHRONO__COLS][CHRONO__CELL]; } chrono__row;
typedef struct chrono__col { const char *title; unsigned char width, right; } chrono__col;
#define CHRONO__COL_ROW(id, title, width, right) { title, width, right },
static const chrono__col chrono__cols[CHRONO__COLS] = { CHRONO__SUMMARY_COLS(CHRONO__COL_ROW) };
#undef CHRONO__COL_ROW

/* A sparkline of the histogram: one block character per bin (▁ to █), `zero`
   for an empty bin, "-" when there is no sample. */
CHRONO__PRIVATE const char *chrono__sparkline(char *buf, size_t n, const unsigned *hist,
                                              size_t bins, const char *zero)
{
    static const char *const blocks[8] = {
        "\xE2\x96\x81", "\xE2\x96\x82", "\xE2\x96\x83", "\xE2\x96\x84",
        "\xE2\x96\x85", "\xE2\x96\x86", "\xE2\x96\x87", "\xE2\x96\x88"
    };
    unsigned max = 0;
    size_t i, w = 0;
    for (i = 0; i < bins; i++) if (hist[i] > max) max = hist[i];
    if (max == 0) { (void)chrono__bprintf(buf, n, "-"); return buf; }
    buf[0] = '\0';
    for (i = 0; i < bins; i++) {
        const char *piece = zero;
        size_t plen;
        if (hist[i]) {
            int level = (int)(7.0 * (double)hist[i] / (double)max);
            piece = blocks[level < 0 ? 0 : level > 7 ? 7 : level];
        }
        plen = strlen(piece);
        if (w + plen >= n) break;
        memcpy(buf + w, piece, plen + 1);
        w += plen;
    }
    return buf;
}

/* The CI "[1.497, 1.503] µs" in the unit of the median, with as many more
   decimals (up to 3) as it takes to tell its two ends apart; below the
   confidence asked (`want`) with the level it reaches ("[4.30, 4.42] µs 75%"),
   and "n/a" when there is no interval (one sample).  Returns the extra
   decimals. */
CHRONO__PRIVATE int chrono__ci_cell(char *buf, size_t n, const chrono_stats *st, double want)
{
    char lo[48], hi[48], level[48];
    int u = chrono__unit(st->median), extra = 0,
        shortfall = chrono_stats_level_short(st->ci_level, want);
    double div = chrono__unit_div(u);
    if (!chrono__finite(st->ci_low) || !chrono__finite(st->ci_high) ||
        !chrono__finite(st->median)) {
        (void)chrono__bprintf(buf, n, "-");
        return 0;
    }
    if (shortfall == 2) { (void)chrono__bprintf(buf, n, "n/a"); return 0; }
    level[0] = '\0';
    if (shortfall) {
        char num[32];
        (void)chrono__bprintf(level, sizeof level, " %s%%",
                              chrono__num(num, sizeof num, "%.0f", 100.0 * st->ci_level));
    }
    do {
        if (u == 0 && fabs(st->median) < 0.9995) {
            char fmt[16];
            (void)chrono__bprintf(fmt, sizeof fmt, "%%.%dg", 3 + extra);
            chrono__num(lo, sizeof lo, fmt, st->ci_low);
            chrono__num(hi, sizeof hi, fmt, st->ci_high);
        } else {
            chrono__fmt_extra(lo, sizeof lo, st->ci_low / div, extra);
            chrono__fmt_extra(hi, sizeof hi, st->ci_high / div, extra);
        }
    } while (!strcmp(lo, hi) && st->ci_low != st->ci_high && ++extra <= 3);
    (void)chrono__bprintf(buf, n, "[%s, %s] %s%s", lo, hi, chrono__unit_name(u), level);
    return extra > 3 ? 3 : extra;
}

/* The median with as many decimals as its CI needed: "101.60 ns", not "102 ns"
   beside [101.58, 101.62]. */
CHRONO__PRIVATE void chrono__median_cell(char *buf, size_t n, const chrono_stats *st, int extra)
{
    int u = chrono__unit(st->median);
    char num[48];
    if (!extra || !chrono__finite(st->median) || (u == 0 && fabs(st->median) < 0.9995)) {
        chrono_report_duration(buf, n, st->median);
        return;
    }
    chrono__fmt_extra(num, sizeof num, st->median / chrono__unit_div(u), extra);
    (void)chrono__bprintf(buf, n, "%s %s", num, chrono__unit_name(u));
}

/* Estimated cycles: plain up to 99999, then 875k, 8.75M, 42.0G; "-" when unknown. */
CHRONO__PRIVATE const char *chrono__cycles_cell(char *buf, size_t n, double c)
{
    char num[48];
    static const char *const suffix[] = { "k", "M", "G", "T" };
    int i = -1;
    if (!chrono__finite(c)) { (void)chrono__bprintf(buf, n, "-"); return buf; }
    if (fabs(c) < 99999.5) return chrono__fmt3(buf, n, c);
    while (fabs(c) >= 999.5 && i < 3) { c /= 1000; i++; }
    (void)chrono__bprintf(buf, n, "%s%s", chrono__fmt3(num, sizeof num, c), suffix[i]);
    return buf;
}

/* Bytes or items a second at the median, from what an iteration processes
   (chrono_result.bytes_per_iter / items_per_iter); NAN when not set or no
   median.  Every format's throughput comes from here. */
CHRONO__PRIVATE double chrono__per_second(const chrono_result *r, double per_iter)
{
    if (!(per_iter > 0) || !(r->ns.median > 0) || !chrono__finite(r->ns.median)) return NAN;
    return per_iter * 1e9 / r->ns.median;
}

/* The body's own count k as reported: per iteration, or per second of the
   median iteration (CHRONO_PER_SECOND; NAN without a median). */
CHRONO__PRIVATE double chrono__user_value(const chrono_result *r, int k)
{
    if (r->user[k].rate != CHRONO_PER_SECOND) return r->user[k].per_iter;
    return r->ns.median > 0 && chrono__finite(r->ns.median)
               ? r->user[k].per_iter * 1e9 / r->ns.median
               : NAN;
}

/* "hits 3.00  bytes 1.50e+09/s" (text, markdown, HTML); "hits=3;bytes/s=1.5e+09"
   (CSV, `csv`); "" for none. */
CHRONO__PRIVATE const char *chrono__user_cell(char *buf, size_t n, const chrono_result *r, int csv)
{
    char num[48], item[96];
    int k;
    buf[0] = '\0';
    for (k = 0; k < r->nuser && k < CHRONO_USER_COUNTERS_MAX; k++) {
        double v = chrono__user_value(r, k);
        const char *rate = r->user[k].rate == CHRONO_PER_SECOND ? "/s" : "";
        if (csv) chrono__num(num, sizeof num, "%.10g", v);
        else if (fabs(v) >= 1e5) chrono__num(num, sizeof num, "%.3g", v);
        else chrono__sig3(num, sizeof num, v);
        if (csv)
            (void)chrono__bprintf(item, sizeof item, "%s%s%s=%s", buf[0] ? ";" : "",
                                  r->user[k].name, rate, num);
        else
            (void)chrono__bprintf(item, sizeof item, "%s%s %s%s", buf[0] ? "  " : "",
                                  r->user[k].name, num, rate);
        chrono__str_append(buf, n, item);
    }
    return buf;
}

/* "  1.52 GB/s" (and/or "  3.1 M items/s") after the distribution, where the
   program said what an iteration processes (median-based). */
CHRONO__PRIVATE void chrono__throughput_append(char *cell, size_t n, const chrono_result *r)
{
    static const char *const unit[] = { "", " k", " M", " G", " T" };
    char num[48];
    size_t len = strlen(cell);
    double per_s = chrono__per_second(r, r->bytes_per_iter);
    int u = 0;
    if (chrono__finite(per_s)) {
        if (per_s >= 1e9)
            (void)chrono__bprintf(cell + len, n - len, "  %s GB/s",
                                  chrono__fmt3(num, sizeof num, per_s / 1e9));
        else
            (void)chrono__bprintf(cell + len, n - len, "  %s MB/s",
                                  chrono__fmt3(num, sizeof num, per_s / 1e6));
        len = strlen(cell);
    }
    per_s = chrono__per_second(r, r->items_per_iter);
    if (chrono__finite(per_s)) {
        while (per_s >= 999.5 && u < 4) { per_s /= 1000; u++; }
        (void)chrono__bprintf(cell + len, n - len, "  %s%s items/s",
                              chrono__fmt3(num, sizeof num, per_s), unit[u]);
    }
}

/* A threaded run (threads.h): "  2 threads: slowest 0.327 ns, 6.11 G/s
   together" after the distribution: the slowest thread's time per iteration
   and the iterations of all threads per second. */
CHRONO__PRIVATE void chrono__threads_append(char *cell, size_t n, const chrono_result *r)
{
    static const char *const unit[] = { "", " k", " M", " G", " T" };
    char d[48], num[48];
    size_t len = strlen(cell);
    double per_s = r->threads_per_second;
    int u = 0;
    if (r->threads < 1) return;
    while (chrono__finite(per_s) && per_s >= 999.5 && u < 4) { per_s /= 1000; u++; }
    chrono_report_duration(d, sizeof d, r->thread_slowest_ns);
    (void)chrono__bprintf(cell + len, n - len, "  %d thread%s: slowest %s, %s%s/s together",
                          r->threads, r->threads == 1 ? "" : "s", d,
                          chrono__finite(per_s) ? chrono__fmt3(num, sizeof num, per_s) : "n/a",
                          unit[u]);
}

/* Per-run warnings: " !" and the numbers of the flags that apply after the
   name on the row concerned (" !3", " !3,4": a flag's number is its place in
   the list of CHRONO_WARN_* bits, so it reads the same in every report), and
   a footnote line per flag that some row carries ("!3 SHARED_CORE: ..."). */
CHRONO__PRIVATE unsigned chrono__warning_number(unsigned bit)
{
    unsigned k = 1;
    while (bit > 1) { bit >>= 1; k++; }
    return k;
}

/* The flags of `warnings` one after another into buf: `lead` first, then each
   flag's number (numbers 1) or name, `sep` between ("SHARED_CORE|EMPTY_BODY"
   for CSV, " !9,10" for a row's mark); "" for none.  Its length. */
CHRONO__PRIVATE size_t chrono__warning_list(char *buf, size_t n, unsigned warnings,
                                            const char *lead, const char *sep, int numbers)
{
    unsigned bit = 0;
    size_t len = 0;
    buf[0] = '\0';
    while ((bit = chrono__next_warning(warnings, bit)) != 0 && len < n) {
        char num[16];
        int k;
        (void)chrono__bprintf(num, sizeof num, "%u", chrono__warning_number(bit));
        k = chrono__bprintf(buf + len, n - len, "%s%s", len ? sep : lead,
                            numbers ? num : chrono_env_warning_name(bit));
        if (k < 0) break;
        len += (size_t)k;
    }
    return len < n ? len : n - 1;
}

/* " !3,4" for warnings, "" for none; its length. */
CHRONO__PRIVATE size_t chrono__mark_text(char *buf, size_t n, unsigned warnings)
{
    return chrono__warning_list(buf, n, warnings, " !", ",", 1);
}

CHRONO__PRIVATE void chrono__mark(char *cell, size_t n, unsigned warnings)
{
    char mark[64];
    size_t len = strlen(cell), m = chrono__mark_text(mark, sizeof mark, warnings);
    if (m && len + m < n) memcpy(cell + len, mark, m + 1);
}

/* "a: " / "b: " before a comparison side's name in the rows of text, markdown
   and HTML (CSV and JSON say it in their "side" field); side "" adds nothing. */
#define CHRONO__SIDE_LABEL 3   /* "a: " */
CHRONO__PRIVATE void chrono__row_label(char *cell, size_t n, const char *side)
{
    char tmp[CHRONO__CELL];
    if (!side[0]) return;
    (void)chrono__bprintf(tmp, sizeof tmp, "%s: %s", side, cell);
    (void)chrono__bprintf(cell, n, "%s", tmp);
}

/* The cells of one result; want: the confidence the CI column's title says. */
CHRONO__PRIVATE void chrono__row_fill(chrono__row *row, const chrono_result *r, chrono_format mode,
                                      double want)
{
    char a[24], b[24];
    size_t out = r->ns.outliers_low + r->ns.outliers_high;
    char (*c)[CHRONO__CELL] = row->cell;
    chrono_escape_buf(c[CHRONO__COL_NAME], CHRONO__CELL, r->name, mode);
    chrono__mark(c[CHRONO__COL_NAME], CHRONO__CELL, r->warnings);
    chrono__median_cell(c[CHRONO__COL_MEDIAN], CHRONO__CELL, &r->ns,
                        chrono__ci_cell(c[CHRONO__COL_CI], CHRONO__CELL, &r->ns, want));
    chrono_report_duration(c[CHRONO__COL_MIN], CHRONO__CELL, r->ns.min);
    chrono_report_duration(c[CHRONO__COL_MAD], CHRONO__CELL, r->ns.mad);
    chrono__cycles_cell(c[CHRONO__COL_CYCLES], CHRONO__CELL,
                        r->has_cycles ? r->cycles.median : NAN);
    (void)chrono__bprintf(c[CHRONO__COL_ITERS], CHRONO__CELL, "%s \xC3\x97 %s%s",
                          chrono__u64(a, r->iters_per_sample), chrono__u64(b, (uint64_t)r->samples),
                          r->truncated ? "*" : "");
    if (r->ns.outliers_severe)
        (void)chrono__bprintf(c[CHRONO__COL_OUTLIERS], CHRONO__CELL, "%s (%s severe)",
                              chrono__u64(a, (uint64_t)out),
                              chrono__u64(b, (uint64_t)r->ns.outliers_severe));
    else
        (void)chrono__bprintf(c[CHRONO__COL_OUTLIERS], CHRONO__CELL, "%s",
                              chrono__u64(a, (uint64_t)out));
    /* the thread's CPU time per iteration (chrono_result.cpu_ns_per_iter): n/a where the OS
       does not say */
    if (chrono__finite(r->cpu_ns_per_iter) && chrono__finite(r->ns.median))
        chrono_report_duration(c[CHRONO__COL_CPU_TIME], CHRONO__CELL, r->cpu_ns_per_iter);
    else (void)chrono__bprintf(c[CHRONO__COL_CPU_TIME], CHRONO__CELL, "n/a");
    /* markdown collapses runs of spaces: an empty bin is a figure space there */
    chrono__sparkline(c[CHRONO__COL_DIST], CHRONO__CELL, r->hist, CHRONO_HIST_BINS,
                      mode == CHRONO_FORMAT_MARKDOWN ? "\xE2\x80\x87" : " ");
    chrono__throughput_append(c[CHRONO__COL_DIST], CHRONO__CELL, r);
    chrono__threads_append(c[CHRONO__COL_DIST], CHRONO__CELL, r);
}

CHRONO__PRIVATE void chrono__row_title(chrono__row *row, const chrono_session *s)
{
    int i;
    for (i = 0; i < CHRONO__COLS; i++)
        (void)chrono__bprintf(row->cell[i], CHRONO__CELL, "%s", chrono__cols[i].title);
    if (chrono__finite(s->cfg.confidence) && s->cfg.confidence > 0) {
        char pct[32];
        (void)chrono__bprintf(row->cell[CHRONO__COL_CI], CHRONO__CELL, "%s%% CI",
                              chrono__num(pct, sizeof pct, "%.0f", 100.0 * s->cfg.confidence));
    }
}

/* ---- comparisons and sweeps in words ------------------------------------------------ */
/* A ratio as a number a reader can use whatever its size: three decimals
   from 0.01 to 1000 ("3.001"), three significant figures below ("0.00435",
   "2.49e-05": never "0.000"), whole above ("4017"). */
CHRONO__PRIVATE const char *chrono__ratio_num(char *buf, size_t n, double v)
{
    double a = fabs(v);
    return chrono__num(buf, n, a > 0 && a < 0.01 ? "%.3g" : a >= 1000 ? "%.0f" : "%.3f", v);
}

/* "3.001x [2.999, 3.003] — add1000 is 3.00x faster (~cycles 3.000x)".
   Below the confidence asked (`want`: few pairs) no side is called faster:
   "0.910x [0.905, 0.915] 75% — no verdict: 3 pairs give a 75% interval, not
   95%", and with one pair "0.910x [n/a] — no verdict: 1 pair gives no
   interval".  Returns 1 when one side is faster with the stated confidence. */
CHRONO__PRIVATE int chrono__verdict(char *buf, size_t n, const chrono_comparison *c,
                                    chrono_format mode, double want)
{
    char r[48], lo[48], hi[48], f[48], cr[48], name[CHRONO__CELL], level[24], asked[24], pairs[24];
    double conf = chrono__finite(c->ci_level) && c->ci_level > 0 ? c->ci_level : 0.95;
    int a_faster = c->ratio < 1, clear = c->ci_high < 1 || c->ci_low > 1;
    int shortfall = chrono_stats_level_short(c->ci_level, want);
    uint64_t units;
    if (!chrono__finite(c->ratio) || c->ratio <= 0) {
        (void)chrono__bprintf(buf, n, "-");
        return 0;
    }
    chrono__ratio_num(r, sizeof r, c->ratio);
    chrono__ratio_num(lo, sizeof lo, c->ci_low);
    chrono__ratio_num(hi, sizeof hi, c->ci_high);
    chrono__num(f, sizeof f, "%.2f", a_faster ? 1.0 / c->ratio : c->ratio);
    chrono__num(level, sizeof level, "%.0f", 100.0 * conf);
    cr[0] = '\0';
    if (chrono__finite(c->cycles_ratio)) {
        char num[48];
        (void)chrono__bprintf(cr, sizeof cr, " (~cycles %sx)",
                              chrono__ratio_num(num, sizeof num, c->cycles_ratio));
    }
    chrono_escape_buf(name, sizeof name, a_faster ? c->a.name : c->b.name, mode);
    chrono__num(asked, sizeof asked, "%.0f", 100.0 * want);
    /* the units of the interval: the pairs, or the processes a pooled ratio comes from */
    units = c->a.processes > 1 ? (uint64_t)c->a.processes : (uint64_t)c->rounds;
    chrono__u64(pairs, units);
    if (shortfall == 2)
        (void)chrono__bprintf(buf, n, "%sx [n/a] \xE2\x80\x94 no verdict: %s %s no interval%s", r,
                              pairs,
                              c->a.processes > 1 ? "processes give"
                              : units == 1       ? "pair gives"
                                                 : "pairs give",
                              cr);
    else if (shortfall)
        (void)chrono__bprintf(
            buf, n,
            "%sx [%s, %s] %s%% \xE2\x80\x94 no verdict: %s %s give a %s%% interval, not %s%%%s", r,
            lo, hi, level, pairs, c->a.processes > 1 ? "processes" : "pairs", level, asked, cr);
    else if (clear)
        (void)chrono__bprintf(buf, n, "%sx [%s, %s] \xE2\x80\x94 %s is %sx faster%s", r, lo, hi,
                              name, f, cr);
    else
        (void)chrono__bprintf(
            buf, n, "%sx [%s, %s] \xE2\x80\x94 no clear difference: the %s%% interval includes 1%s",
            r, lo, hi, level, cr);
    return clear && !shortfall;
}

/* " [a, b]" for an interval of durations, "" when it is unknown. */
CHRONO__PRIVATE const char *chrono__duration_ci(char *buf, size_t n, const double ci[2])
{
    char lo[48], hi[48];
    if (!chrono__finite(ci[0]) || !chrono__finite(ci[1])) { buf[0] = '\0'; return buf; }
    (void)chrono__bprintf(buf, n, " [%s, %s]", chrono_report_duration(lo, sizeof lo, ci[0]),
                          chrono_report_duration(hi, sizeof hi, ci[1]));
    return buf;
}

CHRONO__PRIVATE void chrono__sweep_words(char *buf, size_t n, const chrono_sweep_result *sw)
{
    char pu[48], fx[48], r2[48], pc[48], fc[48], r2c[48], pts[24], puci[112], fxci[112], tp[64],
        cpc[112];
    const char *sign = sw->fixed_ns < 0 ? "-" : "+", *csign = sw->fixed_cycles < 0 ? "-" : "+";
    char unit[sizeof sw->unit];   /* singular: "per byte" */
    size_t ulen;
    chrono__str_copy(unit, sizeof unit, sw->unit[0] ? sw->unit : "unit");
    ulen = strlen(unit);
    if (ulen > 1 && unit[ulen - 1] == 's') unit[ulen - 1] = '\0';
    chrono_report_duration(pu, sizeof pu, sw->per_unit_ns);
    chrono_report_duration(fx, sizeof fx, fabs(sw->fixed_ns));
    chrono__duration_ci(puci, sizeof puci, sw->per_unit_ci);
    chrono__duration_ci(fxci, sizeof fxci, sw->fixed_ci);
    chrono__num(r2, sizeof r2, "%.4f", sw->r2);
    chrono__u64(pts, (uint64_t)sw->points);
    tp[0] = '\0';
    /* the per-unit cost as a throughput too */
    if (!strcmp(sw->unit, "bytes") && sw->per_unit_ns > 0) {
        char g[48];
        (void)chrono__bprintf(tp, sizeof tp, " = %s GB/s",
                              chrono__fmt3(g, sizeof g, 1.0 / sw->per_unit_ns));
    }
    cpc[0] = '\0';
    if (chrono__finite(sw->per_unit_cycles))
        (void)chrono__bprintf(cpc, sizeof cpc,
                              "; %s cycles per %s %s %s cycles fixed (R\xC2\xB2 %s)",
                              chrono__plain(pc, sizeof pc, sw->per_unit_cycles), unit, csign,
                              chrono__plain(fc, sizeof fc, fabs(sw->fixed_cycles)),
                              chrono__num(r2c, sizeof r2c, "%.4f", sw->r2_cycles));
    (void)chrono__bprintf(buf, n, "(%s points): %s%s per %s%s %s %s%s fixed (R\xC2\xB2 %s)%s", pts,
                          pu, puci, unit, tp, sign, fx, fxci, r2, cpc);
}

/* ---- memory: a footnote line per run that faulted, grew the peak RSS or allocated ---- */
CHRONO__PRIVATE int chrono__memory_line(char *buf, size_t n, const chrono_result *r)
{
    char a[48], b[48], c[48], d[48], rss[48];
    int faults = r->faults_minor_per_iter >= 0.5 || r->faults_major_per_iter >= 0.01;
    int grew = r->max_rss_growth_bytes >= 65536;
    int hook = r->allocs_per_iter == r->allocs_per_iter;
    if (!faults && !grew && !hook) return 0;
    (void)chrono__bprintf(rss, sizeof rss, "%s KiB",
                          chrono__num(c, sizeof c, "%.0f", r->max_rss_growth_bytes / 1024));
    (void)chrono__bprintf(
        buf, n, "%s minor + %s major page faults an iteration, peak RSS +%s%s%s%s%s%s",
        chrono__num(a, sizeof a, "%.4g", r->faults_minor_per_iter),
        chrono__num(b, sizeof b, "%.4g", r->faults_major_per_iter),
        r->max_rss_growth_bytes == r->max_rss_growth_bytes ? rss : "?", hook ? ", " : "",
        hook ? chrono__num(d, sizeof d, "%.4g", r->allocs_per_iter) : "",
        hook ? " allocations and " : "",
        hook ? chrono__num(c, sizeof c, "%.4g", r->alloc_bytes_per_iter) : "",
        hook ? " bytes an iteration" : "");
    return 1;
}

/* "medians 1.2 us .. 1.3 us across 5 processes (spread 8.00%)" for a result
   pooled from several processes; 0 (and nothing written) for one process. */
CHRONO__PRIVATE int chrono__processes_line(char *buf, size_t n, const chrono_result *r)
{
    char a[48], b[48], c[48], d[48];
    if (r->processes <= 1) return 0;
    /* the interval's level is the processes' (program.h): 75% for three, whatever the header says */
    (void)chrono__bprintf(
        buf, n,
        "medians %s .. %s across %d processes (spread %s%%); its interval's level over them %s%%",
        chrono_report_duration(a, sizeof a, r->process_min_ns),
        chrono_report_duration(b, sizeof b, r->process_max_ns), r->processes,
        chrono__num(c, sizeof c, "%.2f",
                    100.0 * (r->process_max_ns - r->process_min_ns) / r->ns.median),
        chrono__num(d, sizeof d, "%.3g", 100.0 * r->ns.ci_level));
    return 1;
}

/* One result's counters, per iteration with their interval, and IPC:
   "ctx-sw 1.00 [0.990, 1.01]  faults 1.00 [1.00, 1.00]"; "" without any. */
CHRONO__PRIVATE const char *chrono__counters_cell(char *buf, size_t n, const chrono_result *r)
{
    char a[32], b[32], c[32], item[128];
    int i;
    buf[0] = '\0';
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++) {
        const chrono_stats *st = &r->counter[i];
        if (!(r->counters & CHRONO_COUNTER_BIT(i))) continue;
        (void)chrono__bprintf(item, sizeof item, "%s%s %s [%s, %s]", buf[0] ? "  " : "",
                              chrono_counter_label(i), chrono__sig3(a, sizeof a, st->median),
                              chrono__sig3(b, sizeof b, st->ci_low),
                              chrono__sig3(c, sizeof c, st->ci_high));
        chrono__str_append(buf, n, item);
    }
    if (chrono__finite(r->ipc)) {
        (void)chrono__bprintf(item, sizeof item, "  IPC %s", chrono__sig3(a, sizeof a, r->ipc));
        chrono__str_append(buf, n, item);
    }
    if (r->nuser) {   /* the body's own counts */
        char user[CHRONO_USER_COUNTERS_MAX * 96];
        if (buf[0]) chrono__str_append(buf, n, "  ");
        chrono__str_append(buf, n, chrono__user_cell(user, sizeof user, r, 0));
    }
    return buf;
}

/* The sweep holding result i, or NULL. */
CHRONO__PRIVATE const chrono_sweep_result *chrono__sweep_of(const chrono_session *s, size_t i)
{
    size_t k;
    for (k = 0; k < s->nsweeps; k++)
        if (i >= s->sweeps[k].first_result && i - s->sweeps[k].first_result < s->sweeps[k].points)
            return &s->sweeps[k];
    return NULL;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_SUMMARY_IMPL */

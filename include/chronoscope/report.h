/* chronoscope/report.h — reports of a session: an aligned text table for the
   terminal, markdown for pull requests, CSV for spreadsheets and JSON in
   Google Benchmark's schema for the tools that already read it (compare.py,
   CI dashboards).

   Usage:

       chrono_session s;                      // opened, benchmarks run (bench.h)
       ...
       if (chrono_report(&s, stdout, CHRONO_FORMAT_TEXT) < 0) return 1;

       // streaming: one row/entry as each result arrives
       chrono_report_writer w;
       chrono_result r;
       chrono_report_begin(&w, &s, stdout, CHRONO_FORMAT_JSON, NULL);
       if (chrono_run(&s, "sum", sum, NULL, &r) == 0) chrono_report_result(&w, &r);
       chrono_report_end(&w);                 // comparisons, sweeps, closing brackets

   Formats:
     CHRONO_FORMAT_TEXT      environment header (CPU, pinned CPU, clock and its
                             frequency, core clock, VM, PTI and the CPU bugs'
                             mitigations, compiler, optimisation,
                             every warning), then one aligned row per result:
                             name, median, its CI, min, MAD, ~cycles (estimated
                             core cycles per iteration), iterations x samples,
                             outliers, cpu time (the thread's CPU time per
                             iteration beside the median, which is real time:
                             far below it for a body that sleeps or blocks;
                             n/a where the OS does not say) and a sparkline of the samples
                             (▁▂▃▄▅▆▇█ over chrono_result.hist).  Durations
                             scale per value: ns, µs, ms, s.  Then one line per
                             comparison ("a vs b: 3.001x [2.999, 3.003] — b is
                             3.00x faster") and per sweep (per-unit and fixed
                             cost, R²).  Colour only when `out` is a terminal
                             and NO_COLOR is not set (chrono_report_options
                             can force it on or off).
     CHRONO_FORMAT_MARKDOWN  the same content: a list for the environment, a
                             GitHub table for the results.
     CHRONO_FORMAT_CSV       a header row and one row per result (comparison
                             sides and sweep points included), RFC 4180
                             quoting, CRLF line ends; an unknown value is an
                             empty field.  Its columns are JSON's members of
                             the same names (one field list, CHRONO__FIELDS).
     CHRONO_FORMAT_JSON      Google Benchmark's layout: "context" (date,
                             host_name, executable, num_cpus, mhz_per_cpu,
                             cpu_scaling_enabled, caches, load_avg,
                             library_build_type ("debug" when assertions are
                             on or optimisation off, else "release"), then
                             ours: cpu_brand,
                             pinned_cpu, clock, clock_hz, warnings, ...) and
                             "benchmarks" (name, family_index,
                             per_family_instance_index, run_name, run_type
                             "iteration", repetitions, repetition_index,
                             threads, iterations, real_time, cpu_time,
                             time_unit "ns", then ours: median_ns, ci_low_ns,
                             ci_high_ns, mad_ns, cv, cycles_per_iteration,
                             samples, outliers, ...).  real_time is the median
                             ns per iteration; cpu_time the thread's CPU time
                             per iteration over the sampling, at most the
                             median (chrono_result.cpu_ns_per_iter; the median
                             where the OS does not say), also CSV's
                             cpu_time, and cpu_share the CPU time over the
                             time elapsed;
                             iterations is iterations per sample x samples.
                             Top-level "comparisons" and "sweeps" arrays
                             follow.  NaN and infinities are written as null.
     CHRONO_FORMAT_BMF       Bencher's metric format (bencher.dev, "bmf"): one
                             object, a member per result named as it is, with
                             "latency" {value: the median ns per iteration,
                             lower_value / upper_value: its interval} and, for a
                             comparison's side, "ratio" (this side / the other,
                             as JSON's ratio fields); a bound is left out when
                             unknown, a result without a median altogether.
                             No environment, no tables.

   Functions:
     chrono_report(s, out, fmt)          the whole session
     chrono_report_ex(s, out, fmt, opt)  the same with options (colour, executable)
     chrono_report_write(s, out, fmt, opt)   any format, HTML (html.h's page) included
     chrono_report_begin(w, s, out, fmt, opt)   streaming: header
     chrono_report_result(w, r)          streaming: one result
     chrono_report_comparison(w, c)      streaming: both sides of a comparison
     chrono_report_end(w)                streaming: comparisons, sweeps, footer
     chrono_report_environment(s, out, prefix)  the text header alone, each line after prefix
     chrono_report_duration(buf, n, ns)  "1.50 µs": the unit scaling of the text
     chrono_json_escape(out, str)        str as the inside of a JSON string
     chrono_csv_field(out, str)          str as one RFC 4180 field
     chrono_format_name(fmt) / chrono_format_parse(name, &fmt)

   Strings: names pass through as UTF-8.  JSON escapes '"', '\\' and control
   characters (\n, \t, \u00XX); CSV quotes fields holding ',', '"', CR or LF
   and doubles quotes; text and markdown show control characters as \n, \t,
   \xNN so a row stays one line (markdown also escapes its own punctuation).
   Invalid UTF-8 becomes U+FFFD everywhere.  Numbers are written with '.'
   whatever the C locale.

   The library never prints on its own: these functions write only to `out`.
   Every function returning int returns 0, CHRONO_EINVAL (NULL, closed
   session, unknown format) or CHRONO_EIO (the stream reported an error).

   Interface for the modules above
     CHRONO__FIELDS(X)                   every field of a result, one list (check.h's saved reader)
     CHRONO__ISATTY(f)                   whether a stream is a terminal (program.h, processes.h)
     chrono__read_file(path)             a whole file, NUL-terminated, to CHRONO_FREE (a saved run:
                                         check.h's saved claims, baseline.h's --compare) */
#ifndef CHRONOSCOPE_REPORT_H
#define CHRONOSCOPE_REPORT_H

#include "summary.h"
#include "html.h"

/* ---- types ---------------------------------------------------------------- */
/* The program's own tables (table.h's chrono_table) are written after the
   benchmarks in every format: text a title line and aligned columns, markdown
   a GitHub table, CSV a blank line then the header and rows, JSON a top-level
   array `key` of objects keyed by column name (Google Benchmark's readers
   ignore the extra array). */


/* Streaming state; fill it with chrono_report_begin. */
typedef struct chrono_report_writer {
    const chrono_session *session;
    FILE *out;
    chrono_format fmt;
    int color;               /* escape sequences in the text format */
    int name_width;          /* text/markdown name column, in characters */
    size_t written;          /* rows / entries written */
    size_t families;         /* next JSON family_index */
    int any_truncated;       /* a result hit max_ms: the text footer says so */
    size_t rejected[CHRONO__NREJECTIONS];  /* samples rejected, in CHRONO__REJECTIONS' order */
    unsigned row_warnings;   /* union of the written rows' warnings: the footnote lists them */
    const char *executable;
    const chrono_table *tables;
    size_t ntables;
    const char *baseline;
} chrono_report_writer;

/* ---- the field list ------------------------------------------------------------
   One list drives the CSV header, the CSV record, the JSON entry (after
   Google Benchmark's own members) and check.h's reader of a saved JSON
   report, so a field has one name everywhere (Google Benchmark's where it has
   one).  X(key, kind, where, value, json_when, saved):
     kind       how a value is written: str, num (NaN: empty CSV field, JSON
                null), count (an unsigned integer), flag (CSV 0/1, JSON
                true/false), cpu (-1: empty in CSV), warnings (CSV "A|B",
                JSON an array of names)
     where      CHRONO__F_CSV, CHRONO__F_JSON or both (CHRONO__F_ALL)
     value      of `f` (a const chrono__fctx *: .r the result, .x its place
                in the session, .none 1 when it has no interval, .cyc 1 when
                it has cycles, .base the baseline's median)
     json_when  JSON writes the member only when this holds
     saved      CHRONO__SAVED(member): a member of chrono_saved (generated from
                this column), which chrono_saved_find (below) reads;
                CHRONO__UNSAVED: not read back
   Rejection causes come from CHRONO__REJECTIONS between the two halves
   (CHRONO__FIELDS(X, XR): XR(field, words, key) adapts its rows). */
#define CHRONO__F_CSV 1
#define CHRONO__F_JSON 2
#define CHRONO__F_ALL 3
#define CHRONO__FIELDS_RUN(X) \
    X("name",                 str,   CHRONO__F_CSV, f->r->name, 1, CHRONO__UNSAVED) \
    X("kind",                 str,   CHRONO__F_ALL, f->x->kind, 1, CHRONO__UNSAVED) \
    X("group",                str,   CHRONO__F_ALL, f->x->group, f->x->group[0], CHRONO__UNSAVED) \
    X("vs",                   str,   CHRONO__F_ALL, f->x->vs, f->x->vs[0], CHRONO__UNSAVED) \
    X("ratio",                num,   CHRONO__F_ALL, f->x->ratio, f->x->vs[0], CHRONO__UNSAVED) \
    X("ratio_ci_low",         num,   CHRONO__F_ALL, f->x->ratio_lo, f->x->vs[0], CHRONO__UNSAVED) \
    X("ratio_ci_high",        num,   CHRONO__F_ALL, f->x->ratio_hi, f->x->vs[0], CHRONO__UNSAVED) \
    X("median_ns",            num,   CHRONO__F_ALL, f->r->ns.median, 1, CHRONO__SAVED(median_ns)) \
    X("ci_low_ns",            num,   CHRONO__F_ALL, \
      f->none ? NAN : f->r->ns.ci_low, 1, CHRONO__SAVED(ci_low_ns)) \
    X("ci_high_ns",           num,   CHRONO__F_ALL, \
      f->none ? NAN : f->r->ns.ci_high, 1, CHRONO__SAVED(ci_high_ns)) \
    X("ci_level",             num,   CHRONO__F_ALL, f->r->ns.ci_level, 1, CHRONO__SAVED(ci_level)) \
    X("mean_ns",              num,   CHRONO__F_ALL, f->r->ns.mean, 1, CHRONO__UNSAVED) \
    X("min_ns",               num,   CHRONO__F_ALL, f->r->ns.min, 1, CHRONO__UNSAVED) \
    X("max_ns",               num,   CHRONO__F_ALL, f->r->ns.max, 1, CHRONO__UNSAVED) \
    X("stddev_ns",            num,   CHRONO__F_ALL, f->r->ns.stddev, 1, CHRONO__UNSAVED) \
    X("mad_ns",               num,   CHRONO__F_ALL, f->r->ns.mad, 1, CHRONO__UNSAVED) \
    X("cv",                   num,   CHRONO__F_ALL, f->r->ns.cv, 1, CHRONO__UNSAVED) \
    X("q1_ns",                num,   CHRONO__F_ALL, f->r->ns.q1, 1, CHRONO__UNSAVED) \
    X("q3_ns",                num,   CHRONO__F_ALL, f->r->ns.q3, 1, CHRONO__UNSAVED) \
    X("p99_ns",               num,   CHRONO__F_ALL, f->r->ns.p99, 1, CHRONO__SAVED(p99_ns)) \
    X("cycles_per_iteration", num,   CHRONO__F_ALL, \
      f->cyc ? f->r->cycles.median : NAN, 1, CHRONO__UNSAVED) \
    X("cycles_ci_low",        num,   CHRONO__F_ALL, \
      f->cyc ? f->r->cycles.ci_low : NAN, 1, CHRONO__UNSAVED) \
    X("cycles_ci_high",       num,   CHRONO__F_ALL, \
      f->cyc ? f->r->cycles.ci_high : NAN, 1, CHRONO__UNSAVED) \
    X("cycles_min",           num,   CHRONO__F_ALL, \
      f->cyc ? f->r->cycles.min : NAN, 1, CHRONO__UNSAVED) \
    X("core_ghz",             num,   CHRONO__F_ALL, f->r->core_ghz, 1, CHRONO__UNSAVED) \
    X("iterations_per_sample", count, CHRONO__F_ALL, f->r->iters_per_sample, 1, CHRONO__UNSAVED) \
    X("samples",              count, CHRONO__F_ALL, f->r->samples, 1, CHRONO__SAVED(samples)) \
    X("samples_taken",        count, CHRONO__F_ALL, f->r->samples_taken, 1, CHRONO__UNSAVED) \
    X("outliers",             count, CHRONO__F_JSON, \
      f->r->ns.outliers_low + f->r->ns.outliers_high, 1, CHRONO__UNSAVED) \
    X("outliers_low",         count, CHRONO__F_ALL, f->r->ns.outliers_low, 1, CHRONO__UNSAVED) \
    X("outliers_high",        count, CHRONO__F_ALL, f->r->ns.outliers_high, 1, CHRONO__UNSAVED) \
    X("outliers_severe",      count, CHRONO__F_ALL, f->r->ns.outliers_severe, 1, CHRONO__UNSAVED)
#define CHRONO__FIELDS_MORE(X) \
    X("truncated",            flag,  CHRONO__F_ALL, f->r->truncated != 0, 1, CHRONO__UNSAVED) \
    X("cpu",                  cpu,   CHRONO__F_ALL, f->r->cpu, 1, CHRONO__UNSAVED) \
    X("wall_ms",              num,   CHRONO__F_ALL, f->r->wall_ms, 1, CHRONO__UNSAVED) \
    X("warmup_ms",            num,   CHRONO__F_ALL, f->r->warmup_ms, 1, CHRONO__UNSAVED) \
    X("warnings",             warnings, CHRONO__F_ALL, f->r->warnings, 1, CHRONO__UNSAVED) \
    X("page_faults_minor_per_iteration", num, CHRONO__F_ALL, \
      f->r->faults_minor_per_iter, 1, CHRONO__UNSAVED) \
    X("page_faults_major_per_iteration", num, CHRONO__F_ALL, \
      f->r->faults_major_per_iter, 1, CHRONO__UNSAVED) \
    X("max_rss_growth_bytes", num,   CHRONO__F_ALL, \
      f->r->max_rss_growth_bytes, 1, CHRONO__UNSAVED) \
    X("allocs_per_iteration", num,   CHRONO__F_ALL, f->r->allocs_per_iter, 1, CHRONO__UNSAVED) \
    X("alloc_bytes_per_iteration", num, CHRONO__F_ALL, \
      f->r->alloc_bytes_per_iter, 1, CHRONO__UNSAVED) \
    X("processes",            count, CHRONO__F_ALL, \
      f->r->processes > 1 ? f->r->processes : 1, 1, CHRONO__UNSAVED) \
    X("between_processes_min_ns", num, CHRONO__F_ALL, \
      f->r->process_min_ns, f->r->processes > 1, CHRONO__UNSAVED) \
    X("between_processes_max_ns", num, CHRONO__F_ALL, \
      f->r->process_max_ns, f->r->processes > 1, CHRONO__UNSAVED) \
    X("between_processes_spread", num, CHRONO__F_JSON, \
      f->r->ns.median > 0 ? (f->r->process_max_ns - f->r->process_min_ns) / f->r->ns.median : NAN, \
      f->r->processes > 1, CHRONO__UNSAVED) \
    X("mean_every_sample_ns", num,   CHRONO__F_ALL, \
      f->r->all_n ? f->r->all_ns_mean : NAN, 1, CHRONO__UNSAVED) \
    X("bytes_per_second",     num,   CHRONO__F_ALL, \
      chrono__per_second(f->r, f->r->bytes_per_iter), \
      chrono__finite(chrono__per_second(f->r, f->r->bytes_per_iter)), CHRONO__UNSAVED) \
    X("items_per_second",     num,   CHRONO__F_ALL, \
      chrono__per_second(f->r, f->r->items_per_iter), \
      chrono__finite(chrono__per_second(f->r, f->r->items_per_iter)), CHRONO__UNSAVED) \
    X("side",                 str,   CHRONO__F_ALL, f->x->side, f->x->side[0], CHRONO__UNSAVED) \
    X("cpu_time",             num,   CHRONO__F_CSV, chrono__cpu_time(f->r), 1, CHRONO__UNSAVED) \
    X("cpu_share",            num,   CHRONO__F_ALL, f->r->cpu_share, 1, CHRONO__UNSAVED) \
    X("threads",              count, CHRONO__F_CSV, \
      f->r->threads > 1 ? f->r->threads : 1, 1, CHRONO__UNSAVED) \
    X("slowest_thread_ns",    num,   CHRONO__F_ALL, \
      f->r->threads > 0 ? f->r->thread_slowest_ns : NAN, f->r->threads > 0, CHRONO__UNSAVED) \
    X("iterations_per_second_all_threads", num, CHRONO__F_ALL, \
      f->r->threads > 0 ? f->r->threads_per_second : NAN, f->r->threads > 0, CHRONO__UNSAVED) \
    X("controls",             count, CHRONO__F_ALL, f->r->controls, 1, CHRONO__UNSAVED) \
    X("controls_slow",        count, CHRONO__F_ALL, f->r->controls_slow, 1, CHRONO__UNSAVED) \
    X("control_reading",      num,   CHRONO__F_ALL, f->r->control_reading, 1, CHRONO__UNSAVED) \
    X("relative_to_baseline", num,   CHRONO__F_JSON, \
      f->r->ns.median / f->base, f->base > 0 && chrono__finite(f->r->ns.median), CHRONO__UNSAVED)
/* Counters per iteration (medians), as Google Benchmark's: extra numeric
   members of a benchmark, only those counted; CSV leaves the others empty.
   The body's own counts (chrono_user_counter) likewise: in JSON a member
   each, named as the program named it ("hits": 3, per iteration or per
   second as it asked, as Google Benchmark's state.counters); in CSV one
   column, "user_counters", "hits=3;bytes/s=1.5e+09".
   One field a counter, generated from CHRONO__COUNTERS (counters.h), in its order. */
#define CHRONO__FIELD_COUNTER(X, ID, key) \
    X(key, num, CHRONO__F_ALL, chrono__counter_value(f->r, CHRONO_COUNTER_##ID), \
      (f->r->counters & CHRONO_COUNTER_BIT(CHRONO_COUNTER_##ID)) != 0, CHRONO__UNSAVED)
#define CHRONO__FIELD_COUNTER_OF(X, ID, key, label, type, config, kernel) \
    CHRONO__FIELD_COUNTER(X, ID, key)
#define CHRONO__FIELDS_COUNTERS(X) \
    CHRONO__COUNTERS_P(CHRONO__FIELD_COUNTER_OF, X) \
    X("ipc", num, CHRONO__F_ALL, f->r->ipc, chrono__finite(f->r->ipc), CHRONO__UNSAVED) \
    X("user_counters", user, CHRONO__F_ALL, f->r, f->r->nuser > 0, CHRONO__UNSAVED)
#define CHRONO__FIELDS(X, XR) \
    CHRONO__FIELDS_RUN(X) CHRONO__REJECTIONS(XR) CHRONO__FIELDS_MORE(X) CHRONO__FIELDS_COUNTERS(X)

/* ---- functions ------------------------------------------------------------ */
CHRONO__EXTERN_C_BEGIN
/* Start a report: the header (text, markdown), the header row (CSV) or the
   context and the opening of "benchmarks" (JSON).  opt may be NULL. */
CHRONO_API int chrono_report_begin(chrono_report_writer *w, const chrono_session *s, FILE *out,
                                   chrono_format fmt, const chrono_report_options *opt);

/* Stream one result (a row, a CSV record, a JSON entry of its own family). */
CHRONO_API int chrono_report_result(chrono_report_writer *w, const chrono_result *r);

/* Stream both sides of a comparison; its ratio line comes with chrono_report_end
   (from the session's comparisons). */
CHRONO_API int chrono_report_comparison(chrono_report_writer *w, const chrono_comparison *c);

/* Finish: text and markdown get the notes, the comparisons' verdicts and the
   sweeps' fits; JSON its "comparisons" and "sweeps" arrays and the closing
   brace.  Flushes `out`. */
CHRONO_API int chrono_report_end(chrono_report_writer *w);

/* The whole session: results in order (a sweep's points share a JSON family),
   then both sides of each comparison, then the footer. */
CHRONO_API int chrono_report_ex(const chrono_session *s, FILE *out, chrono_format fmt,
                                const chrono_report_options *opt);

/* The whole session in one format, colour decided automatically. */
CHRONO_API int chrono_report(const chrono_session *s, FILE *out, chrono_format fmt);

/* The session in any format, HTML included: each format's writer from the
   formats' one list (chrono_report_ex for text, markdown, CSV, JSON and BMF;
   html.h's chrono_report_html for HTML).  The one entry programs write their
   report through (cli.h, program.h). */
CHRONO_API int chrono_report_write(const chrono_session *s, FILE *out, chrono_format fmt,
                                   const chrono_report_options *opt);

/* The text report's header alone: "chronoscope VERSION  DATE", the
   environment (cpu, pinned, clock, core, machine, security, build, run) and one line
   per warning of the session, each line after `prefix` ("# " makes them TAP
   comments: check.h's chrono_checker_tap); no colour.  prefix may be NULL.
   0, CHRONO_EINVAL (NULL, closed session) or CHRONO_EIO. */
CHRONO_API int chrono_report_environment(const chrono_session *s, FILE *out, const char *prefix);

/* One table of the program's own, alone, in fmt (JSON: one object holding the
   array).  CHRONO_EINVAL for a NULL or malformed table, CHRONO_EIO. */
CHRONO_API int chrono_report_table(FILE *out, chrono_format fmt, const chrono_table *t);

/* A saved result: one entry of a JSON report (CHRONO__FIELDS' members marked
   CHRONO__SAVED), read back by chrono_saved_find. */
#define CHRONO__SAVED(member) double member;
#define CHRONO__UNSAVED
#define CHRONO__SAVED_MEMBER(key, kind, where, value, when, saved) saved
#define CHRONO__SAVED_NO_REJECTION(field, words, key)
typedef struct chrono_saved {   /* median_ns, ci_low_ns, ci_high_ns, ci_level, p99_ns, samples: NAN
                                   when absent */
    CHRONO__FIELDS(CHRONO__SAVED_MEMBER, CHRONO__SAVED_NO_REJECTION)
} chrono_saved;
#undef CHRONO__SAVED_MEMBER
#undef CHRONO__SAVED_NO_REJECTION
#undef CHRONO__SAVED
#undef CHRONO__UNSAVED
#define CHRONO__UNSAVED 0   /* elsewhere: a field that is not read back */

/* The entry called `name` in the "benchmarks" array of a JSON report that
   chrono_report(..., CHRONO_FORMAT_JSON) wrote: 0, or CHRONO_EINVAL (NULL,
   not JSON, no such entry, or one without median_ns). */
CHRONO_API int chrono_saved_find(const char *json, const char *name, chrono_saved *out);

CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_REPORT_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_REPORT_IMPL)
#define CHRONOSCOPE_REPORT_IMPL

#include <stdlib.h>
#include <time.h>
#include <locale.h>
/* Is a FILE a terminal?  Only for the colour decision: where the platform
   cannot say, the answer is "no" and the report has no colour. */
#if CHRONO__OS_WINDOWS
#  include <io.h>
#  define CHRONO__ISATTY(f) (_isatty(_fileno(f)) != 0)
#elif CHRONO__OS_LINUX || CHRONO__OS_POSIX
#  include <unistd.h>
#  define CHRONO__ISATTY(f) (isatty(fileno(f)) != 0)
#else
#  define CHRONO__ISATTY(f) 0
#endif

CHRONO__EXTERN_C_BEGIN

/* Path of the running program where the OS says, else "". */
CHRONO__PRIVATE void chrono__executable(char *buf, size_t n)
{
    buf[0] = '\0';
#if CHRONO__OS_LINUX
    {
        ssize_t len = readlink("/proc/self/exe", buf, n - 1);
        buf[len > 0 ? (size_t)len : 0] = '\0';
    }
#elif CHRONO__OS_WINDOWS
    {
        DWORD len = GetModuleFileNameA(NULL, buf, (DWORD)n);
        if (len == 0 || len >= (DWORD)n) buf[0] = '\0';
    }
#endif
}

CHRONO__PRIVATE int chrono__want_color(FILE *out, int mode)
{
    if (mode == CHRONO_COLOR_ALWAYS) return 1;
    if (mode != CHRONO_COLOR_AUTO) return 0;
    return getenv("NO_COLOR") == NULL && CHRONO__ISATTY(out);
}

CHRONO__PRIVATE void chrono__mark_footnote(const chrono_report_writer *w, const char *bullet,
                                           chrono_format mode)
{
    char line[CHRONO__CELL];
    unsigned bit = 0;
    while ((bit = chrono__next_warning(w->row_warnings, bit)) != 0)
        fprintf(w->out, "%s!%u %s: %s\n", bullet, chrono__warning_number(bit),
                chrono_env_warning_name(bit),
                chrono_escape_buf(line, sizeof line, chrono_env_warning(bit), mode));
}

/* "SHARED_CORE|EMPTY_BODY" for CSV; "" for none. */
CHRONO__PRIVATE void chrono__warning_names(char *buf, size_t n, unsigned warnings)
{
    (void)chrono__warning_list(buf, n, warnings, "", "|", 0);
}

#define CHRONO__BOLD "\033[1m"
#define CHRONO__DIM "\033[2m"
#define CHRONO__YELLOW "\033[33m"
#define CHRONO__GREEN "\033[32m"
#define CHRONO__RESET "\033[0m"

CHRONO__PRIVATE void chrono__color(const chrono_report_writer *w, const char *code)
{
    if (w->color) fputs(code, w->out);
}

/* "N migrated, N preempted, ..." for the samples the runs rejected and
   replaced, by cause (the order of w->rejected); 0 when there were none. */
CHRONO__PRIVATE int chrono__rejected_words(char *buf, size_t n, const chrono_report_writer *w)
{
    static const char *const cause[CHRONO__NREJECTIONS] = { CHRONO__REJECTIONS(
        CHRONO__REJECTION_WORD) };
    char num[24];
    size_t i, len = 0, any = 0;
    for (i = 0; i < CHRONO__NREJECTIONS; i++) any += w->rejected[i];
    buf[0] = '\0';
    for (i = 0; any && i < CHRONO__NREJECTIONS && len < n; i++) {
        int k = chrono__bprintf(buf + len, n - len, "%s%s %s", i ? ", " : "",
                                chrono__u64(num, (uint64_t)w->rejected[i]), cause[i]);
        if (k < 0) break;
        len += (size_t)k;
    }
    return any != 0;
}

/* The runs' own lines (memory, processes) after the comparisons and sweeps:
   a section of their own, "**Runs**" in markdown (not items under
   "**Comparisons**"), after a blank line in text. */
CHRONO__PRIVATE void chrono__runs_title(const chrono_report_writer *w, int *titled)
{
    const chrono_session *s = w->session;
    if (*titled) return;
    *titled = 1;
    if (w->fmt == CHRONO_FORMAT_MARKDOWN) fputs("\n**Runs**\n\n", w->out);
    else if (s->ncomparisons || s->nsweeps) fputc('\n', w->out);
}

CHRONO__PRIVATE void chrono__memory_footnotes(const chrono_report_writer *w, const char *bullet,
                                              chrono_format mode)
{
    const chrono_session *s = w->session;
    char line[512], name[CHRONO__CELL];
    size_t i;
    int titled = 0;
    for (i = 0; i < s->nresults; i++)
        if (chrono__memory_line(line, sizeof line, &s->results[i])) {
            chrono__runs_title(w, &titled);
            fprintf(w->out, "%smemory %s: %s\n", bullet,
                    chrono_escape_buf(name, sizeof name, s->results[i].name, mode), line);
        }
    for (i = 0; i < s->nresults; i++)
        if (chrono__processes_line(line, sizeof line, &s->results[i])) {
            chrono__runs_title(w, &titled);
            fprintf(w->out, "%sbetween processes %s: %s\n", bullet,
                    chrono_escape_buf(name, sizeof name, s->results[i].name, mode), line);
        }
}

/* ---- text ------------------------------------------------------------------------- */
CHRONO__PRIVATE void chrono__text_row(chrono_report_writer *w, const chrono__row *row, int title)
{
    int i;
    for (i = 0; i < CHRONO__COLS; i++) {
        size_t width = i == CHRONO__COL_NAME ? (size_t)w->name_width : chrono__cols[i].width;
        if (i > 0) fputs("  ", w->out);
        if (i == CHRONO__COL_MEDIAN && !title) chrono__color(w, CHRONO__BOLD);
        if (i == CHRONO__COLS - 1) fputs(row->cell[i], w->out);   /* no trailing blanks */
        else chrono__pad(w->out, row->cell[i], width, chrono__cols[i].right);
        if (i == CHRONO__COL_MEDIAN && !title) chrono__color(w, CHRONO__RESET);
    }
    fputc('\n', w->out);
}

/* The counters asked for (counters.h): those that count, then, once, those
   that do not and why ("open: task-clock; unavailable: instructions: no PMU ..."). */
CHRONO__PRIVATE const char *chrono__counters_env(char *buf, size_t n, const chrono_counters *c)
{
    char why[400];
    int i, any = 0;
    chrono__str_copy(buf, n, "open: ");
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++)
        if (c->open & CHRONO_COUNTER_BIT(i)) {
            if (any++) chrono__str_append(buf, n, ", ");
            chrono__str_append(buf, n, chrono_counter_name(i));
        }
    if (!any) chrono__str_append(buf, n, "none");
    if (chrono_counters_unavailable(c, why, sizeof why)) {
        chrono__str_append(buf, n, "; unavailable: ");
        chrono__str_append(buf, n, why);
    }
    return buf;
}

/* One labelled line of the header: text "label    text" after `prefix`
   (coloured by `code` where not NULL), markdown "- **label**: text". */
CHRONO__PRIVATE void chrono__env_item(FILE *out, chrono_format fmt, const char *prefix,
                                      const char *label, const char *text, const char *code)
{
    char line[CHRONO__CELL];
    chrono_escape_buf(line, sizeof line, text, fmt);
    if (fmt == CHRONO_FORMAT_MARKDOWN) { fprintf(out, "- **%s**: %s\n", label, line); return; }
    fprintf(out, "%s%s%-8s %s%s\n", prefix, code ? code : "", label, line,
            code ? CHRONO__RESET : "");
}

/* The header of the text and markdown reports (and chrono_report_environment):
   version and date, the environment's lines, one line per warning. */
CHRONO__PRIVATE void chrono__env_write(const chrono_session *s, FILE *out, chrono_format fmt,
                                       const char *prefix, int color)
{
    chrono__env_head h;
    unsigned bit = 0;
    int i;
    chrono__env_head_read(s, &h);
    if (fmt == CHRONO_FORMAT_MARKDOWN)
        fprintf(out, "#### chronoscope %s, %s\n\n", CHRONO_VERSION_STRING, h.date);
    else
        fprintf(out, "%s%schronoscope %s%s  %s\n", prefix, color ? CHRONO__BOLD : "",
                CHRONO_VERSION_STRING, color ? CHRONO__RESET : "", h.date);
    for (i = 0; i < CHRONO__ENV_LINES; i++)
        chrono__env_item(out, fmt, prefix, h.lines[i].label, h.lines[i].text, NULL);
    if (s->counters.asked) {   /* which counters count, and once why the others do not */
        char line[CHRONO__CELL];
        chrono__env_item(out, fmt, prefix, "counters",
                         chrono__counters_env(line, sizeof line, &s->counters), NULL);
    }
    while ((bit = chrono__next_warning(s->warnings, bit)) != 0)
        chrono__env_item(out, fmt, prefix, "warning", chrono_env_warning(bit),
                         color ? CHRONO__YELLOW : NULL);
}

CHRONO_API int chrono_report_environment(const chrono_session *s, FILE *out, const char *prefix)
{
    if (!s || !s->is_open || !out) return CHRONO_EINVAL;
    chrono__env_write(s, out, CHRONO_FORMAT_TEXT, prefix ? prefix : "", 0);
    return chrono__io(out);
}

/* The text and markdown reports' end: the footnotes under the table (a
   budget reached, rejected samples), each comparison and sweep in words, the
   memory and mark footnotes.  Markdown puts them in "- " items under bold
   titles; text in plain lines, a clear verdict in green. */
CHRONO__PRIVATE void chrono__rows_end(chrono_report_writer *w)
{
    const chrono_session *s = w->session;
    const int md = w->fmt == CHRONO_FORMAT_MARKDOWN;
    const char *item = md ? "- " : "";
    char words[1024], a[CHRONO__CELL], b[CHRONO__CELL];
    size_t i;
    if (w->any_truncated)
        fputs(md ? "\n\\* the run reached its time budget before taking every sample\n"
                 : "* the run reached its time budget (max_ms) before taking every sample\n",
              w->out);
    if (chrono__rejected_words(words, sizeof words, w))
        fprintf(w->out, "%srejected and replaced samples: %s\n", md ? "\n" : "", words);
    if (s->ncomparisons) fputs(md ? "\n**Comparisons**\n\n" : "\n", w->out);
    for (i = 0; i < s->ncomparisons; i++) {
        const chrono_comparison *c = &s->comparisons[i];
        int clear = chrono__verdict(words, sizeof words, c, w->fmt, s->cfg.confidence);
        fprintf(w->out, "%s%s vs %s: ", item, chrono_escape_buf(a, sizeof a, c->a.name, w->fmt),
                chrono_escape_buf(b, sizeof b, c->b.name, w->fmt));
        chrono__color(w, clear ? CHRONO__GREEN : CHRONO__DIM);
        fputs(words, w->out);
        chrono__color(w, CHRONO__RESET);
        (void)chrono__mark_text(words, sizeof words, c->warnings);
        fprintf(w->out, "%s\n", words);
        w->row_warnings |= c->warnings;
    }
    if (s->nsweeps) fputs(md ? "\n**Sweeps**\n\n" : "\n", w->out);
    for (i = 0; i < s->nsweeps; i++) {
        chrono__sweep_words(words, sizeof words, &s->sweeps[i]);
        fprintf(w->out, "%s%s %s\n", md ? "- " : "sweep ",
                chrono_escape_buf(a, sizeof a, s->sweeps[i].name, w->fmt), words);
    }
    chrono__memory_footnotes(w, item, w->fmt);
    if (w->row_warnings) fputc('\n', w->out);
    chrono__mark_footnote(w, item, w->fmt);
}

/* ---- markdown -------------------------------------------------------------------- */
CHRONO__PRIVATE void chrono__md_row(chrono_report_writer *w, const chrono__row *row)
{
    int i;
    fputc('|', w->out);
    for (i = 0; i < CHRONO__COLS; i++) {
        fputc(' ', w->out);
        chrono__pad(w->out, row->cell[i], i == CHRONO__COL_NAME ? (size_t)w->name_width : 0, 0);
        fputs(" |", w->out);
    }
    fputc('\n', w->out);
}

/* The text and markdown reports' start: the header, then the table's title
   row (text: bold; markdown: and its alignment row). */
CHRONO__PRIVATE void chrono__rows_begin(chrono_report_writer *w)
{
    chrono__row title;
    int i;
    chrono__env_write(w->session, w->out, w->fmt, "", w->color);
    fputc('\n', w->out);
    chrono__row_title(&title, w->session);
    if (w->fmt == CHRONO_FORMAT_TEXT) {
        chrono__color(w, CHRONO__BOLD);
        chrono__text_row(w, &title, 1);
        chrono__color(w, CHRONO__RESET);
        return;
    }
    chrono__md_row(w, &title);
    fputc('|', w->out);
    for (i = 0; i < CHRONO__COLS; i++)
        fputs(chrono__cols[i].right ? " ---: |" : " :--- |", w->out);
    fputc('\n', w->out);
}

/* ---- CSV -------------------------------------------------------------------------- */
/* How a row relates to the rest of the session. */
typedef struct chrono__row_ctx {
    const char *kind;        /* "run", "sweep", "compare" */
    const char *group;       /* sweep name, or "a vs b" */
    const char *vs;          /* the other side of a comparison */
    const char *side;        /* "a" or "b" for a comparison's sides, else "" */
    double ratio, ratio_lo, ratio_hi;   /* this side / the other */
    size_t family, instance; /* JSON family_index, per_family_instance_index */
} chrono__row_ctx;

/* What the field list's values are read from (CHRONO__FIELDS). */
typedef struct chrono__fctx {
    const chrono_result *r;
    const chrono__row_ctx *x;
    int none;                /* no interval: one sample */
    int cyc;                 /* cycles known */
    double base;             /* the baseline's median, NAN without one */
} chrono__fctx;

/* Google Benchmark's cpu_time: the thread's CPU time per iteration, the
   median where the OS does not say; NAN without a median. */
CHRONO__PRIVATE double chrono__cpu_time(const chrono_result *r)
{
    if (!chrono__finite(r->ns.median)) return NAN;
    return chrono__finite(r->cpu_ns_per_iter) ? r->cpu_ns_per_iter : r->ns.median;
}

/* A counter's median per iteration; NAN where it was not counted (never a 0). */
CHRONO__PRIVATE double chrono__counter_value(const chrono_result *r, int id)
{
    return r->counters & CHRONO_COUNTER_BIT(id) ? r->counter[id].median : NAN;
}

CHRONO__PRIVATE void chrono__csv_str(FILE *out, const char *v)
{
    (void)chrono_escape(out, v, CHRONO_FORMAT_CSV);
}

CHRONO__PRIVATE void chrono__csv_num(FILE *out, double v)
{
    char buf[48];
    if (chrono__finite(v)) fputs(chrono__num(buf, sizeof buf, "%.10g", v), out);
}

CHRONO__PRIVATE void chrono__csv_count(FILE *out, uint64_t v)
{
    char buf[24];
    fputs(chrono__u64(buf, v), out);
}

CHRONO__PRIVATE void chrono__csv_flag(FILE *out, int v) { fputc(v ? '1' : '0', out); }
CHRONO__PRIVATE void chrono__csv_user(FILE *out, const chrono_result *r)
{
    char buf[CHRONO_USER_COUNTERS_MAX * 96];
    chrono__csv_str(out, chrono__user_cell(buf, sizeof buf, r, 1));
}
CHRONO__PRIVATE void chrono__csv_cpu(FILE *out, int cpu) { if (cpu >= 0) fprintf(out, "%d", cpu); }

CHRONO__PRIVATE void chrono__csv_warnings(FILE *out, unsigned warnings)
{
    char names[512];
    chrono__warning_names(names, sizeof names, warnings);
    chrono__csv_str(out, names);
}

#define CHRONO__CSV_KEY(key, kind, where, value, when, saved) \
    if ((where) & CHRONO__F_CSV) { if (n++) fputc(',', o); fputs(key, o); }
#define CHRONO__CSV_REJECTION_KEY(field, words, key) \
    CHRONO__CSV_KEY(key, count, CHRONO__F_ALL, 0, 1, 0)
CHRONO__PRIVATE void chrono__csv_begin(chrono_report_writer *w)
{
    FILE *o = w->out;
    int n = 0;
    CHRONO__FIELDS(CHRONO__CSV_KEY, CHRONO__CSV_REJECTION_KEY)
    fputs("\r\n", o);
}

/* The field list's context of one row. */
CHRONO__PRIVATE chrono__fctx chrono__fctx_of(const chrono_report_writer *w, const chrono_result *r,
                                             const chrono__row_ctx *x);

#define CHRONO__CSV_VALUE(key, kind, where, value, when, saved) \
    if ((where) & CHRONO__F_CSV) { if (n++) fputc(',', o); chrono__csv_##kind(o, value); }
#define CHRONO__CSV_REJECTION(field, words, key) \
    CHRONO__CSV_VALUE(key, count, CHRONO__F_ALL, f->r->field, 1, 0)
CHRONO__PRIVATE void chrono__csv_row(chrono_report_writer *w, const chrono_result *r,
                                     const chrono__row_ctx *x)
{
    FILE *o = w->out;
    chrono__fctx fc = chrono__fctx_of(w, r, x);
    const chrono__fctx *f = &fc;
    int n = 0;
    CHRONO__FIELDS(CHRONO__CSV_VALUE, CHRONO__CSV_REJECTION)
    fputs("\r\n", o);
}

/* ---- JSON ------------------------------------------------------------------------- */
/* Members of one object, Google Benchmark's layout: one per line, indented. */
typedef struct chrono__jobj { FILE *f; int n, indent; } chrono__jobj;

CHRONO__PRIVATE chrono__jobj chrono__jopen(FILE *f, int indent)
{
    chrono__jobj o;
    o.f = f; o.n = 0; o.indent = indent;
    fputs("{\n", f);
    return o;
}

CHRONO__PRIVATE void chrono__jclose(chrono__jobj *o)
{
    fprintf(o->f, "\n%*s}", o->indent - 2, "");
}

CHRONO__PRIVATE void chrono__jkey(chrono__jobj *o, const char *key)
{
    if (o->n++) fputs(",\n", o->f);
    fprintf(o->f, "%*s\"%s\": ", o->indent, "", key);
}

CHRONO__PRIVATE void chrono__jstr(chrono__jobj *o, const char *key, const char *v)
{
    chrono__jkey(o, key);
    chrono__json_str(o->f, v);
}

CHRONO__PRIVATE void chrono__jnum(chrono__jobj *o, const char *key, double v)
{
    chrono__jkey(o, key);
    chrono__jnum_value(o->f, v);
}

CHRONO__PRIVATE void chrono__jint(chrono__jobj *o, const char *key, long long v)
{
    char buf[24];
    chrono__jkey(o, key);
    if (v < 0) { fputc('-', o->f); v = -v; }
    fputs(chrono__u64(buf, (uint64_t)v), o->f);
}

CHRONO__PRIVATE void chrono__jbool(chrono__jobj *o, const char *key, int v)
{
    chrono__jkey(o, key);
    fputs(v > 0 ? "true" : v == 0 ? "false" : "null", o->f);
}

CHRONO__PRIVATE void chrono__json_caches(chrono__jobj *o, const chrono_env *e)
{
    int i;
    chrono__jkey(o, "caches");
    fputc('[', o->f);
    for (i = 0; i < e->ncaches && i < 8; i++) {
        chrono__jobj c;
        fprintf(o->f, "%s\n%*s", i ? "," : "", o->indent + 2, "");
        c = chrono__jopen(o->f, o->indent + 4);
        chrono__jstr(&c, "type", e->caches[i].type);
        chrono__jint(&c, "level", e->caches[i].level);
        chrono__jint(&c, "size", e->caches[i].size);
        chrono__jint(&c, "num_sharing", e->caches[i].num_sharing);
        chrono__jclose(&c);
    }
    if (i) fprintf(o->f, "\n%*s", o->indent, "");
    fputc(']', o->f);
}

/* `"warnings": [...]` of the bits: their texts (the context) or their names
   ("SHARED_CORE": a run's or a comparison's). */
CHRONO__PRIVATE void chrono__json_warning_list(chrono__jobj *o, unsigned warnings,
                                               const char *(*text)(unsigned))
{
    unsigned bit = 0;
    int n = 0;
    chrono__jkey(o, "warnings");
    fputc('[', o->f);
    while ((bit = chrono__next_warning(warnings, bit)) != 0) {
        fputs(n++ ? ", " : "", o->f);
        chrono__json_str(o->f, text(bit));
    }
    fputc(']', o->f);
}

/* The context's clock members: the tick source, its rate and cost, the core's clock. */
CHRONO__PRIVATE void chrono__json_clock(chrono__jobj *o, const chrono_session *s)
{
    const chrono_clock *c = &s->clock;
    chrono__jstr(o, "clock", chrono__or(c->name, "unknown"));
    chrono__jnum(o, "clock_hz", c->hz);
    chrono__jstr(o, "clock_hz_method", chrono_clock_hz_method_name(c->hz_method));
    chrono__jnum(o, "clock_calibration_spread", c->calib_spread);
    chrono__jnum(o, "clock_overhead_ns", c->hz > 0 ? (double)c->overhead_ticks * 1e9 / c->hz : NAN);
    chrono__jbool(o, "invariant_tsc", c->source == CHRONO_CLOCK_TSC ? c->invariant_tsc != 0 : -1);
    chrono__jnum(o, "core_ghz", s->core_ghz);
    chrono__jbool(o, "has_cycles", s->has_cycles != 0);
}

/* Google Benchmark's context members, then ours. */
CHRONO__PRIVATE void chrono__json_context(chrono_report_writer *w, chrono__jobj *o)
{
    const chrono_session *s = w->session;
    const chrono_env *e = &s->env;
    const chrono_clock *c = &s->clock;
    char buf[512];
    double mhz = chrono__finite(s->core_ghz) && s->core_ghz > 0 ? s->core_ghz * 1e3
               : c->source == CHRONO_CLOCK_TSC ? c->hz / 1e6 : 0;
    chrono__date(buf, sizeof buf);
    chrono__jstr(o, "date", buf);
    chrono__jstr(o, "host_name", e->hostname);
    if (w->executable) chrono__jstr(o, "executable", w->executable);
    else { chrono__executable(buf, sizeof buf); chrono__jstr(o, "executable", buf); }
    chrono__jint(o, "num_cpus", e->online_cpus > 0 ? e->online_cpus : 0);
    chrono__jint(o, "mhz_per_cpu", (long long)(mhz + 0.5));
    chrono__jbool(o, "cpu_scaling_enabled", (s->warnings & CHRONO_WARN_FREQ_SCALING) != 0);
    if (s->counters.asked) {
        char line[640];
        chrono__jstr(o, "counters", chrono__counters_env(line, sizeof line, &s->counters));
    }
    chrono__json_caches(o, e);
    chrono__jkey(o, "load_avg");
    fputc('[', o->f);
    if (e->loadavg1 >= 0) chrono__jnum_value(o->f, e->loadavg1);
    fputc(']', o->f);
    /* "release" only when nothing says otherwise: optimised (or the compiler does not say) and
       NDEBUG defined; "debug" with assertions on or optimisation off (the same facts as
       "optimized" and "asserts" below, so the three never disagree) */
    chrono__jstr(o, "library_build_type", e->optimized == 0 || e->asserts ? "debug" : "release");
    chrono__jstr(o, "chronoscope_version", CHRONO_VERSION_STRING);
    chrono__jstr(o, "cpu_brand", e->cpu_brand);
    chrono__jstr(o, "cpu_vendor", e->cpu_vendor);
    chrono__jkey(o, "pinned_cpu");
    if (s->pin.pinned) fprintf(o->f, "%d", s->pin.cpu); else fputs("null", o->f);
    chrono__jstr(o, "cpu_topology", s->pin.topology);
    chrono__jbool(o, "smt", e->smt);
    chrono__jstr(o, "governor", e->governor);
    chrono__jbool(o, "boost", e->boost);
    chrono__jbool(o, "vm", e->in_vm == 1);
    chrono__jstr(o, "hypervisor", e->hypervisor);
    chrono__jstr(o, "emulator", e->emulator);
    chrono__jstr(o, "kernel", e->kernel);
    chrono__jbool(o, "pti", e->pti);
    chrono__jstr(o, "mitigations", e->mitigations);
    chrono__jstr(o, "clocksource", e->clocksource);
    chrono__json_clock(o, s);
    chrono__jstr(o, "compiler", e->compiler);
    chrono__jbool(o, "optimized", e->optimized);
    chrono__jbool(o, "asserts", e->asserts != 0);
    chrono__jint(o, "samples_per_run", s->cfg.samples);
    chrono__jnum(o, "warmup_ms", s->cfg.warmup_ms);
    chrono__jnum(o, "max_ms", s->cfg.max_ms);
    chrono__jnum(o, "min_sample_us", s->cfg.min_sample_us);
    chrono__jnum(o, "confidence", s->cfg.confidence);
    chrono__json_warning_list(o, s->warnings, chrono_env_warning);
}

CHRONO__PRIVATE void chrono__json_begin(chrono_report_writer *w)
{
    chrono__jobj ctx;
    fputs("{\n  \"context\": ", w->out);
    ctx = chrono__jopen(w->out, 4);
    chrono__json_context(w, &ctx);
    chrono__jclose(&ctx);
    fputs(",\n  \"benchmarks\": [", w->out);
}

CHRONO__PRIVATE double chrono__baseline_ns(const chrono_report_writer *w);

CHRONO__PRIVATE void chrono__jfield_str(chrono__jobj *o, const char *key, const char *v)
{
    chrono__jstr(o, key, v);
}
CHRONO__PRIVATE void chrono__jfield_num(chrono__jobj *o, const char *key, double v)
{
    chrono__jnum(o, key, v);
}
CHRONO__PRIVATE void chrono__jfield_flag(chrono__jobj *o, const char *key, int v)
{
    chrono__jbool(o, key, v);
}
CHRONO__PRIVATE void chrono__jfield_cpu(chrono__jobj *o, const char *key, int v)
{
    chrono__jint(o, key, v);
}
/* The body's own counts: a member each, named by the program (key unused). */
CHRONO__PRIVATE void chrono__jfield_user(chrono__jobj *o, const char *key, const chrono_result *r)
{
    int k;
    (void)key;
    for (k = 0; k < r->nuser && k < CHRONO_USER_COUNTERS_MAX; k++)
        chrono__jnum(o, r->user[k].name, chrono__user_value(r, k));
}

CHRONO__PRIVATE void chrono__jfield_count(chrono__jobj *o, const char *key, uint64_t v)
{
    char buf[24];
    chrono__jkey(o, key);
    fputs(chrono__u64(buf, v), o->f);
}

CHRONO__PRIVATE void chrono__jfield_warnings(chrono__jobj *o, const char *key, unsigned v)
{
    (void)key;   /* "warnings" */
    chrono__json_warning_list(o, v, chrono_env_warning_name);
}

/* Google Benchmark's run members: name (a comparison side's "a vs b/a",
   unique, so tools do not take the sides for repetitions), indices, the
   error where there is no median, iterations, real_time and cpu_time. */
CHRONO__PRIVATE void chrono__json_gbench(chrono__jobj *o, const chrono_result *r,
                                         const chrono__row_ctx *x)
{
    char unique[3 * CHRONO_NAME_MAX + 16], buf[24];
    int ok = chrono__finite(r->ns.median);
    if (!strcmp(x->kind, "compare"))
        (void)chrono__bprintf(unique, sizeof unique, "%s/%s", x->group, r->name);
    else chrono__str_copy(unique, sizeof unique, r->name);
    chrono__jstr(o, "name", unique);
    chrono__jint(o, "family_index", (long long)x->family);
    chrono__jint(o, "per_family_instance_index", (long long)x->instance);
    chrono__jstr(o, "run_name", unique);
    chrono__jstr(o, "run_type", "iteration");
    chrono__jint(o, "repetitions", 1);
    chrono__jint(o, "repetition_index", 0);
    chrono__jint(o, "threads", r->threads > 1 ? r->threads : 1);
    if (!ok) {
        chrono__jbool(o, "error_occurred", 1);
        chrono__jstr(o, "error_message", "no accepted samples");
    }
    chrono__jkey(o, "iterations");
    fputs(chrono__u64(buf, r->iters_per_sample * (uint64_t)r->samples), o->f);
    chrono__jnum(o, "real_time", ok ? r->ns.median : 0.0);
    chrono__jnum(o, "cpu_time", ok ? chrono__cpu_time(r) : 0.0);
    chrono__jstr(o, "time_unit", "ns");
}

/* One entry of "benchmarks": Google Benchmark's members, then the field list. */
#define CHRONO__JSON_VALUE(key, kind, where, value, when, saved) \
    if (((where) & CHRONO__F_JSON) && (when)) chrono__jfield_##kind(&o, key, value);
#define CHRONO__JSON_REJECTION(field, words, key) \
    CHRONO__JSON_VALUE(key, count, CHRONO__F_ALL, f->r->field, 1, 0)
CHRONO__PRIVATE void chrono__json_entry(chrono_report_writer *w, const chrono_result *r,
                                        const chrono__row_ctx *x)
{
    chrono__jobj o;
    chrono__fctx fc = chrono__fctx_of(w, r, x);
    const chrono__fctx *f = &fc;
    fputs(w->written ? ",\n    " : "\n    ", w->out);
    o = chrono__jopen(w->out, 6);
    chrono__json_gbench(&o, r, x);
    CHRONO__FIELDS(CHRONO__JSON_VALUE, CHRONO__JSON_REJECTION)
    chrono__jclose(&o);
}

/* ---- the program's own tables ----------------------------------------------------- */
/* The writer's tables in the text formats (JSON writes them in chrono__json_end). */
/* ---- BMF: Bencher's metric format --------------------------------------------------------- */
/* One measure: "key": {"value": v, "lower_value": lo, "upper_value": hi},
   the bounds left out when unknown; nothing when v is unknown. */
CHRONO__PRIVATE void chrono__bmf_measure(FILE *o, int *first, const char *key, double v, double lo,
                                         double hi)
{
    if (!chrono__finite(v)) return;
    fprintf(o, "%s\n    \"%s\": {\"value\": ", *first ? "" : ",", key);
    chrono__jnum_value(o, v);
    if (chrono__finite(lo) && chrono__finite(hi)) {
        fputs(", \"lower_value\": ", o); chrono__jnum_value(o, lo);
        fputs(", \"upper_value\": ", o); chrono__jnum_value(o, hi);
    }
    fputc('}', o);
    *first = 0;
}

/* A result as a BMF benchmark named as it is: "latency" (the median ns per
   iteration and its interval, Bencher's built-in measure in ns) and, for a
   comparison's side, "ratio" (this side / the other, with its interval, as
   JSON's ratio fields).  The document is one object: begin writes "{", end "}". */
CHRONO__PRIVATE void chrono__bmf_row(chrono_report_writer *w, const chrono_result *r,
                                     const chrono__row_ctx *x)
{
    FILE *o = w->out;
    int first = 1, none = chrono_stats_level_short(r->ns.ci_level, w->session->cfg.confidence) == 2;
    if (!chrono__finite(r->ns.median)) return;
    fputs(w->written ? ",\n  \"" : "\n  \"", o);
    (void)chrono_json_escape(o, r->name);
    fputs("\": {", o);
    chrono__bmf_measure(o, &first, "latency", r->ns.median, none ? NAN : r->ns.ci_low,
                        none ? NAN : r->ns.ci_high);
    chrono__bmf_measure(o, &first, "ratio", x->ratio, x->ratio_lo, x->ratio_hi);
    fputs("\n  }", o);
}

CHRONO__PRIVATE void chrono__tables_end(chrono_report_writer *w)
{
    size_t i;
    if (w->fmt == CHRONO_FORMAT_BMF) return;   /* metrics only */
    for (i = 0; i < w->ntables; i++)
        if (w->fmt != CHRONO_FORMAT_JSON)
            (void)chrono__table_body(w->out, w->fmt, &w->tables[i], 0);
}

CHRONO__PRIVATE void chrono__json_end(chrono_report_writer *w)
{
    const chrono_session *s = w->session;
    size_t i;
    fputs("\n  ],\n  \"comparisons\": [", w->out);
    for (i = 0; i < s->ncomparisons; i++) {
        const chrono_comparison *c = &s->comparisons[i];
        int shortfall = chrono_stats_level_short(c->ci_level, s->cfg.confidence);
        int clear = chrono__finite(c->ratio) && (c->ci_high < 1 || c->ci_low > 1) && !shortfall;
        char group[2 * CHRONO_NAME_MAX + 8];
        chrono__jobj o;
        (void)chrono__bprintf(group, sizeof group, "%s vs %s", c->a.name, c->b.name);
        fputs(i ? ",\n    " : "\n    ", w->out);
        o = chrono__jopen(w->out, 6);
        chrono__jstr(&o, "name", group);
        chrono__jstr(&o, "a", c->a.name);
        chrono__jstr(&o, "b", c->b.name);
        chrono__jnum(&o, "ratio", c->ratio);
        chrono__jnum(&o, "ci_low", shortfall == 2 ? NAN : c->ci_low);   /* one pair: no interval */
        chrono__jnum(&o, "ci_high", shortfall == 2 ? NAN : c->ci_high);
        chrono__jnum(&o, "ci_level", c->ci_level);
        chrono__jnum(&o, "cycles_ratio", c->cycles_ratio);
        chrono__jint(&o, "rounds", (long long)c->rounds);
        chrono__jkey(&o, "faster");
        if (clear) chrono__json_str(w->out, c->ratio < 1 ? c->a.name : c->b.name);
        else fputs("null", w->out);
        chrono__jnum(&o, "speedup", clear ? (c->ratio < 1 ? 1.0 / c->ratio : c->ratio) : NAN);
        chrono__json_warning_list(&o, c->warnings, chrono_env_warning_name);
        chrono__jclose(&o);
    }
    fputs(s->ncomparisons ? "\n  ],\n  \"sweeps\": [" : "],\n  \"sweeps\": [", w->out);
    for (i = 0; i < s->nsweeps; i++) {
        const chrono_sweep_result *sw = &s->sweeps[i];
        chrono__jobj o;
        fputs(i ? ",\n    " : "\n    ", w->out);
        o = chrono__jopen(w->out, 6);
        chrono__jstr(&o, "name", sw->name);
        chrono__jint(&o, "points", (long long)sw->points);
        chrono__jstr(&o, "unit", sw->unit);
        chrono__jnum(&o, "per_unit_ns", sw->per_unit_ns);
        chrono__jnum(&o, "per_unit_ci_low_ns", sw->per_unit_ci[0]);
        chrono__jnum(&o, "per_unit_ci_high_ns", sw->per_unit_ci[1]);
        chrono__jnum(&o, "fixed_ns", sw->fixed_ns);
        chrono__jnum(&o, "fixed_ci_low_ns", sw->fixed_ci[0]);
        chrono__jnum(&o, "fixed_ci_high_ns", sw->fixed_ci[1]);
        chrono__jnum(&o, "r2", sw->r2);
        chrono__jnum(&o, "per_unit_cycles", sw->per_unit_cycles);
        chrono__jnum(&o, "fixed_cycles", sw->fixed_cycles);
        chrono__jnum(&o, "r2_cycles", sw->r2_cycles);
        chrono__jint(&o, "first_result", (long long)sw->first_result);
        chrono__jclose(&o);
    }
    fputs(s->nsweeps ? "\n  ]" : "]", w->out);
    for (i = 0; i < w->ntables; i++) {
        fputs(",\n", w->out);
        (void)chrono__table_body(w->out, CHRONO_FORMAT_JSON, &w->tables[i], 2);
    }
    fputs("\n}\n", w->out);
}

/* ---- the writer --------------------------------------------------------------------- */
CHRONO__PRIVATE size_t chrono__name_width(const chrono_session *s, chrono_format mode)
{
    char buf[CHRONO__CELL];
    size_t w = 4, i, n;
    char mark[64];   /* a marked row's name is longer */
    for (i = 0; i < s->nresults; i++)
        if ((n = chrono__width(chrono_escape_buf(buf, sizeof buf, s->results[i].name, mode)) +
                 chrono__mark_text(mark, sizeof mark, s->results[i].warnings)) > w) w = n;
    for (i = 0; i < s->ncomparisons; i++) {
        if ((n = chrono__width(chrono_escape_buf(buf, sizeof buf, s->comparisons[i].a.name, mode)) +
                 CHRONO__SIDE_LABEL +
                 chrono__mark_text(mark, sizeof mark, s->comparisons[i].a.warnings)) > w)
            w = n;
        if ((n = chrono__width(chrono_escape_buf(buf, sizeof buf, s->comparisons[i].b.name, mode)) +
                 CHRONO__SIDE_LABEL +
                 chrono__mark_text(mark, sizeof mark, s->comparisons[i].b.warnings)) > w)
            w = n;
    }
    return w;
}

CHRONO_API int chrono_report_begin(chrono_report_writer *w, const chrono_session *s, FILE *out,
                                   chrono_format fmt, const chrono_report_options *opt)
{
    if (!w) return CHRONO_EINVAL;
    memset(w, 0, sizeof *w);
    if (!s || !s->is_open || !out) return CHRONO_EINVAL;
    if ((int)fmt < CHRONO_FORMAT_TEXT ||
        ((int)fmt > CHRONO_FORMAT_JSON && fmt != CHRONO_FORMAT_BMF))
        return CHRONO_EINVAL;
    w->session = s;
    w->out = out;
    w->fmt = fmt;
    w->color = fmt == CHRONO_FORMAT_TEXT &&
               chrono__want_color(out, opt ? opt->color : CHRONO_COLOR_AUTO);
    w->executable = opt ? opt->executable : NULL;
    w->tables = opt ? opt->tables : NULL;
    w->baseline = opt ? opt->baseline : NULL;
    w->ntables = opt && opt->tables ? opt->ntables : 0;
    w->name_width = (int)chrono__name_width(
        s, fmt == CHRONO_FORMAT_MARKDOWN ? CHRONO_FORMAT_MARKDOWN : CHRONO_FORMAT_TEXT);
    if (opt && opt->name_width > w->name_width) w->name_width = opt->name_width;
    switch (fmt) {
    case CHRONO_FORMAT_TEXT:
    case CHRONO_FORMAT_MARKDOWN: chrono__rows_begin(w); break;
    case CHRONO_FORMAT_CSV:      chrono__csv_begin(w); break;
    case CHRONO_FORMAT_JSON:     chrono__json_begin(w); break;
    case CHRONO_FORMAT_BMF:      fputc('{', out); break;
    default:                     break;   /* HTML: refused above (html.h) */
    }
    return chrono__io(out);
}

CHRONO__PRIVATE int chrono__writer_ok(const chrono_report_writer *w)
{
    return w && w->session && w->out ? 0 : CHRONO_EINVAL;
}

/* The baseline's median: the last result of that name, NAN when none. */
CHRONO__PRIVATE double chrono__baseline_ns(const chrono_report_writer *w)
{
    const chrono_session *s = w->session;
    size_t i;
    if (!w->baseline) return NAN;
    for (i = s->nresults; i-- > 0;)
        if (!strcmp(s->results[i].name, w->baseline)) return s->results[i].ns.median;
    for (i = s->ncomparisons; i-- > 0;) {
        if (!strcmp(s->comparisons[i].a.name, w->baseline)) return s->comparisons[i].a.ns.median;
        if (!strcmp(s->comparisons[i].b.name, w->baseline)) return s->comparisons[i].b.ns.median;
    }
    return NAN;
}

CHRONO__PRIVATE chrono__fctx chrono__fctx_of(const chrono_report_writer *w, const chrono_result *r,
                                             const chrono__row_ctx *x)
{
    chrono__fctx f;
    f.r = r;
    f.x = x;
    f.none = chrono_stats_level_short(r->ns.ci_level, w->session->cfg.confidence) == 2;
    f.cyc = r->has_cycles;
    f.base = chrono__baseline_ns(w);
    return f;
}

/* What a row adds to the cells: "a: " / "b: " before a comparison side's
   name, and "1.52x NAME" against the baseline. */
CHRONO__PRIVATE void chrono__row_extras(const chrono_report_writer *w, chrono__row *row,
                                        const chrono_result *r, const chrono__row_ctx *x)
{
    double base = chrono__baseline_ns(w);
    char num[48];
    chrono__row_label(row->cell[CHRONO__COL_NAME], CHRONO__CELL, x->side);
    if (chrono__finite(base) && base > 0 && chrono__finite(r->ns.median)) {
        size_t len = strlen(row->cell[CHRONO__COL_DIST]);
        (void)chrono__bprintf(row->cell[CHRONO__COL_DIST] + len, CHRONO__CELL - len, "  %sx %s",
                              chrono__sig3(num, sizeof num, r->ns.median / base), w->baseline);
    }
}

/* One result in its context (kind, group, comparison ratio, JSON family). */
CHRONO__PRIVATE int chrono__report_row(chrono_report_writer *w, const chrono_result *r,
                                       const chrono__row_ctx *x)
{
    int rc = chrono__writer_ok(w);
    chrono__row row;
    char cnt[640];   /* the counters' line under a text or markdown row */
    if (rc < 0) return rc;
    if (!r) return CHRONO_EINVAL;
    if (r->truncated) w->any_truncated = 1;
    w->row_warnings |= r->warnings;
    {
        size_t k = 0;
#define CHRONO__REJECTION_TALLY(field, words, key) w->rejected[k++] += r->field;
        CHRONO__REJECTIONS(CHRONO__REJECTION_TALLY)
#undef CHRONO__REJECTION_TALLY
    }
    switch (w->fmt) {
    case CHRONO_FORMAT_TEXT:
        chrono__row_fill(&row, r, CHRONO_FORMAT_TEXT, w->session->cfg.confidence);
        chrono__row_extras(w, &row, r, x);
        chrono__text_row(w, &row, 0);
        if (r->counters || r->nuser)
            fprintf(w->out, "  per iteration: %s\n", chrono__counters_cell(cnt, sizeof cnt, r));
        break;
    case CHRONO_FORMAT_MARKDOWN:
        chrono__row_fill(&row, r, CHRONO_FORMAT_MARKDOWN, w->session->cfg.confidence);
        chrono__row_extras(w, &row, r, x);
        if (r->counters || r->nuser) {   /* a table row stays one line: the counters end its last
                                            cell */
            chrono__str_append(row.cell[CHRONO__COL_DIST], CHRONO__CELL, "  per iteration: ");
            chrono__str_append(row.cell[CHRONO__COL_DIST], CHRONO__CELL,
                               chrono__counters_cell(cnt, sizeof cnt, r));
        }
        chrono__md_row(w, &row);
        break;
    case CHRONO_FORMAT_CSV:  chrono__csv_row(w, r, x); break;
    case CHRONO_FORMAT_JSON: chrono__json_entry(w, r, x); break;
    case CHRONO_FORMAT_BMF:  if (!chrono__finite(r->ns.median)) return chrono__io(w->out);
                             chrono__bmf_row(w, r, x); break;
    default:                 break;
    }
    w->written++;
    return chrono__io(w->out);
}

CHRONO__PRIVATE chrono__row_ctx chrono__ctx_run(size_t family)
{
    chrono__row_ctx x;
    x.kind = "run"; x.group = ""; x.vs = ""; x.side = "";
    x.ratio = x.ratio_lo = x.ratio_hi = NAN;
    x.family = family; x.instance = 0;
    return x;
}

CHRONO_API int chrono_report_result(chrono_report_writer *w, const chrono_result *r)
{
    chrono__row_ctx x;
    int rc = chrono__writer_ok(w);
    if (rc < 0) return rc;
    x = chrono__ctx_run(w->families++);
    return chrono__report_row(w, r, &x);
}

CHRONO_API int chrono_report_comparison(chrono_report_writer *w, const chrono_comparison *c)
{
    char group[2 * CHRONO_NAME_MAX + 8];
    chrono__row_ctx x;
    int rc = chrono__writer_ok(w), none;
    if (rc < 0) return rc;
    if (!c) return CHRONO_EINVAL;
    (void)chrono__bprintf(group, sizeof group, "%s vs %s", c->a.name, c->b.name);
    x = chrono__ctx_run(w->families++);
    x.kind = "compare"; x.group = group; x.side = "a";
    /* one pair: no interval */
    none = chrono_stats_level_short(c->ci_level, w->session->cfg.confidence) == 2;
    x.vs = c->b.name; x.ratio = c->ratio;
    x.ratio_lo = none ? NAN : c->ci_low;
    x.ratio_hi = none ? NAN : c->ci_high;
    rc = chrono__report_row(w, &c->a, &x);
    x.vs = c->a.name; x.instance = 1; x.side = "b";
    x.ratio = c->ratio > 0 ? 1.0 / c->ratio : NAN;
    x.ratio_lo = !none && c->ci_high > 0 ? 1.0 / c->ci_high : NAN;
    x.ratio_hi = !none && c->ci_low > 0 ? 1.0 / c->ci_low : NAN;
    if (rc == 0) rc = chrono__report_row(w, &c->b, &x);
    return rc;
}

CHRONO_API int chrono_report_end(chrono_report_writer *w)
{
    int rc = chrono__writer_ok(w);
    if (rc < 0) return rc;
    switch (w->fmt) {
    case CHRONO_FORMAT_TEXT:
    case CHRONO_FORMAT_MARKDOWN: chrono__rows_end(w); break;
    case CHRONO_FORMAT_CSV:      break;
    case CHRONO_FORMAT_JSON:     chrono__json_end(w); break;
    case CHRONO_FORMAT_BMF:      fputs(w->written ? "\n}\n" : "}\n", w->out); break;
    default:                     break;
    }
    chrono__tables_end(w);
    if (fflush(w->out) != 0) return CHRONO_EIO;
    return chrono__io(w->out);
}

CHRONO_API int chrono_report_ex(const chrono_session *s, FILE *out, chrono_format fmt,
                                const chrono_report_options *opt)
{
    chrono_report_writer w;
    size_t i;
    int rc = chrono_report_begin(&w, s, out, fmt, opt);
    for (i = 0; rc == 0 && i < s->nresults; i++) {
        const chrono_sweep_result *sw = chrono__sweep_of(s, i);
        chrono__row_ctx x = chrono__ctx_run(w.families);
        if (sw) {
            x.kind = "sweep"; x.group = sw->name;
            x.instance = i - sw->first_result;
            if (x.instance + 1 == sw->points || i + 1 == s->nresults) w.families++;
        } else {
            w.families++;
        }
        rc = chrono__report_row(&w, &s->results[i], &x);
    }
    for (i = 0; rc == 0 && i < s->ncomparisons; i++)
        rc = chrono_report_comparison(&w, &s->comparisons[i]);
    if (rc == 0) rc = chrono_report_end(&w);
    return rc;
}

CHRONO_API int chrono_report(const chrono_session *s, FILE *out, chrono_format fmt)
{
    return chrono_report_ex(s, out, fmt, NULL);
}

CHRONO_API int chrono_report_table(FILE *out, chrono_format fmt, const chrono_table *t)
{
    return chrono_table_write(out, fmt, t);
}

/* ---- the saved-run reader: the JSON writer's partner ---------------------------------------- */
/* A minimal JSON reader: enough to walk a report and read numbers and
   strings.  Every function takes the text at p and returns where the value
   ends, or NULL when it is not valid JSON (or nests deeper than 64). */
CHRONO__PRIVATE const char *chrono__json_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

/* A string: its decoded bytes (\uXXXX outside ASCII as '?') into buf when
   buf is not NULL, truncated to n. */
CHRONO__PRIVATE const char *chrono__json_string(const char *p, char *buf, size_t n)
{
    size_t k = 0;
    if (*p != '"') return NULL;
    for (p++; *p != '"'; p++) {
        char c = *p;
        if (!c || (unsigned char)c < 0x20) return NULL;
        if (c == '\\') {
            int i;
            switch (*++p) {
            case '"': case '\\': case '/': c = *p; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'u':
                for (i = 1; i <= 4; i++)
                    if (!p[i] || !strchr("0123456789abcdefABCDEF", p[i])) return NULL;
                c = '?';
                if (p[1] == '0' && p[2] == '0' && p[3] >= '0' && p[3] <= '7')
                    c = (char)((p[3] - '0') * 16 +
                               (p[4] <= '9' ? p[4] - '0' : (p[4] | 0x20) - 'a' + 10));
                p += 4;
                break;
            default: return NULL;
            }
        }
        if (buf && k + 1 < n) buf[k++] = c;
    }
    if (buf && n) buf[k] = '\0';
    return p + 1;
}

CHRONO__PRIVATE const char *chrono__json_value(const char *p, int depth);

CHRONO__PRIVATE const char *chrono__json_number(const char *p, double *out)
{
    char *end;
    const char *q = p;
    if (*q == '-') q++;
    if (!(*q >= '0' && *q <= '9')) return NULL;
    if (out) *out = strtod(p, &end);
    else (void)strtod(p, &end);
    return end > p ? end : NULL;
}

/* An array or object: skip it. */
CHRONO__PRIVATE const char *chrono__json_container(const char *p, int depth)
{
    char close = *p == '[' ? ']' : '}';
    int first = 1;
    if (depth > 64) return NULL;
    p = chrono__json_ws(p + 1);
    while (*p != close) {
        if (!first) { if (*p != ',') return NULL; p = chrono__json_ws(p + 1); }
        first = 0;
        if (close == '}') {
            if (!(p = chrono__json_string(p, NULL, 0))) return NULL;
            p = chrono__json_ws(p);
            if (*p != ':') return NULL;
            p = chrono__json_ws(p + 1);
        }
        if (!(p = chrono__json_value(p, depth + 1))) return NULL;
        p = chrono__json_ws(p);
    }
    return p + 1;
}

CHRONO__PRIVATE const char *chrono__json_value(const char *p, int depth)
{
    p = chrono__json_ws(p);
    if (*p == '"') return chrono__json_string(p, NULL, 0);
    if (*p == '{' || *p == '[') return chrono__json_container(p, depth);
    if (!strncmp(p, "true", 4)) return p + 4;
    if (!strncmp(p, "false", 5)) return p + 5;
    if (!strncmp(p, "null", 4)) return p + 4;
    return chrono__json_number(p, NULL);
}

/* Where a saved entry's member `key` goes: the field list's (report.h's
   CHRONO__FIELDS) members marked CHRONO__SAVED; NULL for the others. */
#define CHRONO__SAVED(member) (offsetof(chrono_saved, member) + 1)
#define CHRONO__SAVED_SLOT(key, kind, where, value, when, saved) \
    if ((saved) && !strcmp(name, key)) return (double *)(void *)((char *)sv + (saved) - 1);
#define CHRONO__SAVED_NONE(field, words, key)
#define CHRONO__SAVED_CLEAR(key, kind, where, value, when, saved) \
    if (saved) *(double *)(void *)((char *)sv + (saved) - 1) = NAN;
CHRONO__PRIVATE double *chrono__saved_slot(chrono_saved *sv, const char *name)
{
    CHRONO__FIELDS(CHRONO__SAVED_SLOT, CHRONO__SAVED_NONE)
    return NULL;
}

/* Every member NAN: absent until read. */
CHRONO__PRIVATE void chrono__saved_clear(chrono_saved *sv)
{
    CHRONO__FIELDS(CHRONO__SAVED_CLEAR, CHRONO__SAVED_NONE)
}
#undef CHRONO__SAVED_SLOT
#undef CHRONO__SAVED_CLEAR
#undef CHRONO__SAVED_NONE

/* The next member of the JSON object whose members start at *pp (just after
   its '{', or after the previous member's value; *first 1 before the first):
   its key into key (n bytes), *pp at its value, 1; 0 at the object's end
   (*pp after its '}'); -1 when malformed. */
CHRONO__PRIVATE int chrono__json_member(const char **pp, int *first, char *key, size_t n)
{
    const char *p = chrono__json_ws(*pp);
    if (*p == '}') { *pp = p + 1; return 0; }
    if (!*first) { if (*p != ',') return -1; p = chrono__json_ws(p + 1); }
    *first = 0;
    if (!(p = chrono__json_string(p, key, n))) return -1;
    p = chrono__json_ws(p);
    if (*p != ':') return -1;
    *pp = chrono__json_ws(p + 1);
    return 1;
}

/* One object of "benchmarks": its name and the figures we read. */
CHRONO__PRIVATE const char *chrono__json_entry_read(const char *p, char *name, size_t n,
                                                    chrono_saved *sv)
{
    char key[32];
    int first = 1, m;
    name[0] = '\0';
    chrono__saved_clear(sv);
    if (*p != '{') return chrono__json_value(p, 1);
    p++;
    while ((m = chrono__json_member(&p, &first, key, sizeof key)) > 0) {
        double *num = chrono__saved_slot(sv, key);
        if (!strcmp(key, "name") && *p == '"') p = chrono__json_string(p, name, n);
        else if (num && (*p == '-' || (*p >= '0' && *p <= '9'))) p = chrono__json_number(p, num);
        else p = chrono__json_value(p, 2);
        if (!p) return NULL;
    }
    return m < 0 ? NULL : p;
}

/* The entry called `name` in the "benchmarks" array of a JSON report.
   0; CHRONO_EINVAL (NULL, not JSON, no such entry, or without median_ns). */
CHRONO_API int chrono_saved_find(const char *json, const char *name, chrono_saved *out)
{
    const char *p;
    char key[16];
    int first = 1;
    if (!json || !name || !out) return CHRONO_EINVAL;
    p = chrono__json_ws(json);
    if (*p != '{') return CHRONO_EINVAL;
    p++;
    while (chrono__json_member(&p, &first, key, sizeof key) > 0) {
        if (!strcmp(key, "benchmarks") && *p == '[') {
            p = chrono__json_ws(p + 1);
            while (*p && *p != ']') {
                char nm[CHRONO_NAME_MAX];
                chrono_saved sv;
                if (!(p = chrono__json_entry_read(p, nm, sizeof nm, &sv))) return CHRONO_EINVAL;
                if (!strcmp(nm, name) && sv.median_ns > 0 && sv.median_ns < 1e300) {
                    *out = sv;
                    return 0;
                }
                p = chrono__json_ws(p);
                if (*p == ',') p = chrono__json_ws(p + 1);
                else if (*p != ']') return CHRONO_EINVAL;
            }
            return CHRONO_EINVAL;
        }
        if (!(p = chrono__json_value(p, 1))) return CHRONO_EINVAL;
    }
    return CHRONO_EINVAL;
}

/* The whole file, NUL-terminated (CHRONO_FREE it); NULL when it cannot be read. */
CHRONO__PRIVATE char *chrono__read_file(const char *path)
{
    FILE *f = path ? fopen(path, "rb") : NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    if (!f) return NULL;
    for (;;) {
        size_t got;
        if (len + 4097 > cap) {
            char *nb;
            size_t ncap = cap ? cap * 2 : 65536;
            if (ncap > ((size_t)1 << 28) || !(nb = (char *)CHRONO_MALLOC(ncap))) {
                CHRONO_FREE(buf);
                fclose(f);
                return NULL;
            }
            if (buf) { memcpy(nb, buf, len); CHRONO_FREE(buf); }
            buf = nb; cap = ncap;
        }
        got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) break;
    }
    if (ferror(f)) { CHRONO_FREE(buf); buf = NULL; }
    else buf[len] = '\0';
    fclose(f);
    return buf;
}


/* ---- any format ------------------------------------------------------------------ */
/* A whole report in one format; each format's, by the formats' list (table.h):
   a format added there without a writer here does not compile. */
typedef int (*chrono__report_fn)(const chrono_session *s, FILE *out, chrono_format fmt,
                                 const chrono_report_options *opt);
CHRONO__PRIVATE int chrono__report_page(const chrono_session *s, FILE *out, chrono_format fmt,
                                        const chrono_report_options *opt)
{
    (void)fmt;
    return chrono_report_html(s, out, opt);
}
#define CHRONO__WRITER_TEXT chrono_report_ex
#define CHRONO__WRITER_MARKDOWN chrono_report_ex
#define CHRONO__WRITER_CSV chrono_report_ex
#define CHRONO__WRITER_JSON chrono_report_ex
#define CHRONO__WRITER_HTML chrono__report_page
#define CHRONO__WRITER_BMF chrono_report_ex
#define CHRONO__WRITER_OF(id, name, alias, ext, ext2) CHRONO__WRITER_##id,
static const chrono__report_fn chrono__report_writers[CHRONO__NFORMATS] = {
    CHRONO__FORMATS(CHRONO__WRITER_OF)
};
#undef CHRONO__WRITER_OF

CHRONO_API int chrono_report_write(const chrono_session *s, FILE *out, chrono_format fmt,
                                   const chrono_report_options *opt)
{
    if ((int)fmt < 0 || (int)fmt >= CHRONO__NFORMATS) return CHRONO_EINVAL;
    return chrono__report_writers[fmt](s, out, fmt, opt);
}
CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_REPORT_IMPL */

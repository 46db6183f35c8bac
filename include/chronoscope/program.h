/* chronoscope/program.h — a benchmark program is a table and one call.

   Usage:

       static void sum(void *ctx, uint64_t iters) { ... }        // the loop is yours
       int main(int argc, char **argv)
       {
           static char buf[4096];
           chrono_entry table[3];
           table[0] = chrono_with_bytes(chrono_bench("sum/4KiB", sum, buf), 4096);
           table[1] = chrono_bench("copy", copy, buf);
           table[2] = chrono_versus("sum", sum, buf, "copy", copy, buf);
           return chrono_main(argc, argv, table, 3);   // 0, 1 (an entry failed) or 2 (bad flags)
       }

   Every common flag of cli.h then works without wiring: --list prints the
   names and runs nothing (no session is opened), --filter runs the entries
   whose name holds the text, --format / --out choose the report.  With --out,
   the console keeps the text report and the file gets the format --format
   names, or else the one its extension says (.json, .csv, .md, .html, .txt; another
   extension is refused, exit 2); a --out that cannot be opened is refused
   before the first benchmark runs, and one that fails later (a full disk,
   /dev/full) is named on stderr at the end (exit 1).  A --filter that
   selects no entry, or a --baseline that names none, is refused (exit 2)
   before anything runs.  With --baseline the baseline entry runs (and is
   printed) first, whatever its place in the table, so that every row shows
   its median against it ("0.0207x NAME", three significant figures).  Each text
   row is printed as its benchmark finishes; on a terminal a one-line
   "running NAME ..." on stderr shows what runs now, and is erased after it.

   Programs that need more (flags of their own, tables of their own, results
   to compute with) use the three steps chrono_main is made of:

       chrono_program p;
       int rc = chrono_program_begin(&p, argc, argv, flags, nflags);
       if (rc != 1) return chrono_program_end(&p);   // --help, --version, bad flags
       chrono_program_run(&p, table, n);              // p.session holds the results
       chrono_program_table(&p, &my_table);           // an extra table (report.h)
       return chrono_program_end(&p);                 // report, close, exit status

   An entry may set its own samples and time budget (chrono_with_samples,
   chrono_with_budget): a 25 ns body and a 2 s body sit in one program.  An
   entry whose body is meant to cost nothing (an "empty call" row) says so
   with chrono_with_empty_body, and then shows no CHRONO_WARN_EMPTY_BODY.  An
   entry whose body blocks by design (a pipe ping-pong with another process,
   fork and wait for a compiler) says so with chrono_with_blocking: its
   voluntary context switches are its work, and only involuntary ones reject
   a sample (bench.h, chrono_config.blocking); it is timed without core-cycle
   estimates (the reference chains would bracket a sleep).  An
   entry that fails is reported on stderr with its name and the reason, the
   others still run, and the exit status is 1.

   Functions:
     chrono_bench(name, fn, ctx)                   a run
     chrono_versus(na, a, ca, nb, b, cb)           an interleaved comparison
     chrono_sweep_entry(name, fn, ctx, params, n)  a sweep
     chrono_with_bytes / _items / _samples / _budget / _warmup / _unit (entry, value)
     chrono_with_empty_body(entry)                 its body is meant to be empty: no EMPTY_BODY
     chrono_with_blocking(entry)                   the body blocks by design
     chrono_with_setup(entry, setup)               setup(ctx) untimed before every call (chrono_run_setup)
     chrono_program_run_processes(p, e, n, nproc)  the entries in nproc fresh processes, pooled (--processes)
     chrono_program_child(p)                       0, or in a child of those processes its number (from 1)
     chrono_main(argc, argv, entries, n)           the whole program (a macro)
     chrono_program_begin / _run / _table / _end   the same in steps
     chrono_program_finish(p)                      the report written, the session still open
     chrono_program_find(p, name)                  a result by name, NULL if none
     chrono_program_compared(p, name_a)            a comparison by A's name, NULL if none
     chrono_program_note(p, fmt, ...)              a line of the program's own on the console */
#ifndef CHRONOSCOPE_PROGRAM_H
#define CHRONOSCOPE_PROGRAM_H

#include "bench.h"
#include "cli.h"

typedef enum chrono_entry_kind {
    CHRONO_ENTRY_RUN = 1,
    CHRONO_ENTRY_COMPARE,
    CHRONO_ENTRY_SWEEP
} chrono_entry_kind;

typedef struct chrono_entry {
    chrono_entry_kind kind;
    const char *name;            /* run, sweep: its name; comparison: A's name */
    chrono_fn fn;                /* run; comparison: A */
    void *ctx;
    const char *name_b;          /* comparison: B */
    chrono_fn fn_b;
    void *ctx_b;
    chrono_sweep_fn sweep_fn;    /* sweep */
    const uint64_t *params;
    size_t nparams;
    double bytes, items;         /* processed by one iteration; 0: none */
    const char *unit;            /* sweep: what the parameter counts ("bytes": the report shows GB/s too) */
    int samples;                 /* 0: the program's */
    double max_ms;               /* 0: the program's */
    double warmup_ms;            /* 0: the program's */
    int expect_empty;            /* the body is meant to cost nothing (an "empty call" row): no
                                    CHRONO_WARN_EMPTY_BODY */
    chrono_setup_fn setup;       /* run: untimed setup before every call (chrono_run_setup); NULL: none */
    int blocking;                /* 1: the body blocks by design (chrono_config.blocking) */
} chrono_entry;

#define CHRONO_PROGRAM_TABLES_MAX 8

typedef struct chrono_program {
    chrono_cli cli;
    chrono_config cfg;
    chrono_session session;
    size_t failed;               /* entries that failed */
    int status;                  /* exit status so far: 0, 1, 2 */
    /* private */
    int chrono__open;
    int chrono__reported;        /* chrono_program_finish ran */
    chrono_report_writer chrono__console;
    FILE *chrono__file;
    chrono_format chrono__file_fmt;
    chrono_table chrono__tables[CHRONO_PROGRAM_TABLES_MAX];
    size_t chrono__ntables;
    double process_timeout_s;    /* --processes: a child still running after this is killed; 0: from the entries */
    int chrono__child;           /* in a child of --processes: its index + 1, else 0 */
    int chrono__child_fd;        /* its pipe to the parent */
    int chrono__call;            /* calls of chrono_program_run / _run_processes so far */
    int chrono__child_call;      /* in a child: the call whose entries it runs (the others are skipped), -1 all */
    char **chrono__argv;         /* argv with the private flag taken out (children), else NULL */
    char **chrono__parent_argv;  /* the argv children are started with */
    int chrono__parent_argc;
    char *chrono__proc_cells;    /* the "processes" table's cells, freed at the end */
    const char **chrono__proc_ptrs;   /* and its cell pointers (5 a process) */
    size_t chrono__wanted;       /* entries --filter selected, over every chrono_program_run */
    int chrono__file_errno;      /* why writing the --out file failed (errno), 0: it did not */
} chrono_program;

CHRONO__EXTERN_C_BEGIN
CHRONO_API chrono_entry chrono_bench(const char *name, chrono_fn fn, void *ctx);
CHRONO_API chrono_entry chrono_versus(const char *name_a, chrono_fn a, void *ctx_a,
                                      const char *name_b, chrono_fn b, void *ctx_b);
CHRONO_API chrono_entry chrono_sweep_entry(const char *name, chrono_sweep_fn fn, void *ctx,
                                           const uint64_t *params, size_t nparams);
CHRONO_API chrono_entry chrono_with_bytes(chrono_entry e, double bytes);
CHRONO_API chrono_entry chrono_with_items(chrono_entry e, double items);
CHRONO_API chrono_entry chrono_with_samples(chrono_entry e, int samples);
CHRONO_API chrono_entry chrono_with_budget(chrono_entry e, double max_ms);
CHRONO_API chrono_entry chrono_with_warmup(chrono_entry e, double warmup_ms);
CHRONO_API chrono_entry chrono_with_unit(chrono_entry e, const char *unit);
CHRONO_API chrono_entry chrono_with_empty_body(chrono_entry e);
/* A run whose setup(ctx) runs untimed before every call of fn(ctx, 1) (chrono_run_setup). */
CHRONO_API chrono_entry chrono_with_setup(chrono_entry e, chrono_setup_fn setup);
CHRONO_API chrono_entry chrono_with_blocking(chrono_entry e);

/* Parse the flags (the program's own in flags[0..nflags)), print --help or
   --version, open --out and, unless --list, the session.  1: go on and run;
   0: nothing to run (help, version); CHRONO_EINVAL: bad flags (printed; the
   exit status is 2); another negative code: the session could not open. */
CHRONO_API int chrono_program_begin_at(chrono_program *p, int argc, char **argv, const chrono_cli_flag *flags,
                                       size_t nflags, unsigned long caller);
#define chrono_program_begin(p, argc, argv, flags, nflags) \
    chrono_program_begin_at((p), (argc), (argv), (flags), (nflags), CHRONO__CALLER)

/* Run (or, under --list, name) the entries --filter selects, printing each
   text row as it finishes.  0, or CHRONO_EINVAL for a malformed entry (the
   others still run); failures are counted in p->failed. */
CHRONO_API int chrono_program_run(chrono_program *p, const chrono_entry *entries, size_t n);

/* Print a table of the program's own now and keep it for the --out file.
   The table and its strings must live until chrono_program_end. */
CHRONO_API int chrono_program_table(chrono_program *p, const chrono_table *t);

/* Run the entries in nproc fresh processes, one after another: the program
   re-executes itself (Linux /proc/self/exe, elsewhere argv[0]) with a private
   flag; each child runs the entries in its own shuffled order (seeded from
   .seed and its index) and hands its results back through a pipe, its
   samples included.  The results are pooled per benchmark (stats.h's
   chrono_stats_pool), the processes the units of variation: the median of
   the processes' medians; the order-statistic interval of that median over
   the processes (the lowest to the highest median when they are too few for
   .confidence), never narrower than a typical process's own interval and
   always within the pooled [min, max], its real level in .ci_level (0.75
   for three processes, 0.5 for two); min, max, MAD, quartiles, outliers and
   the histogram over all the processes' samples; the spread between the
   medians (chrono_result.processes, .process_min_ns, .process_max_ns).  A
   comparison's ratio pools the processes' ratios the same way.  A child that
   crashes, exits non-zero or runs past .process_timeout_s is named on stderr
   and in a "processes" table of the report (a row for every process); the
   others' results are kept.
   chrono_program_run does this when --processes=N (N > 1) was given.  0, or
   CHRONO_ENOTSUP (Windows: not yet), CHRONO_EINVAL, CHRONO_ENOMEM.
   A program may mix the two: some entries here (chrono_program_run), others
   pooled.  A child runs the program again from main with the same flags, and
   the calls of chrono_program_run and chrono_program_run_processes are
   counted alike in both: a child runs the entries of the call that started
   it, here, and skips the other calls. */
CHRONO_API int chrono_program_run_processes(chrono_program *p, const chrono_entry *entries, size_t n, int nproc);

/* 0 in the program the user started; in a child of --processes (or of
   chrono_program_run_processes) its number, from 1.  Work whose results do
   not travel back to the parent (the session's results do) is wasted there:
   a program skips it in a child. */
CHRONO_API int chrono_program_child(const chrono_program *p);

/* The result named `name` (the last one), NULL if none. */
CHRONO_API const chrono_result *chrono_program_find(const chrono_program *p, const char *name);

/* The comparison whose A side is named `name_a` (the last one), NULL if none. */
CHRONO_API const chrono_comparison *chrono_program_compared(const chrono_program *p, const char *name_a);

/* A line of the program's own (a note, a skipped part) on the console: on
   stdout beside a text report, on stderr when stdout carries JSON, CSV or
   markdown; nothing under --list.  A newline is added. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
CHRONO_API void chrono_program_note(const chrono_program *p, const char *fmt, ...);

/* Finish the report (console and --out), close the session; the exit status:
   0, 1 when an entry failed or a report could not be written, 2 for bad flags.
   A program that finds a value of its own flags bad after begin (a --dir that
   does not exist) says why on stderr, sets p->status = 2 and calls end: the
   session is closed without a report. */
CHRONO_API int chrono_program_end(chrono_program *p);

/* Finish the report (console and --out) but keep the session open, for a
   program that checks its results after the report (selfcheck); then
   chrono_program_end.  0 or the error writing the report. */
CHRONO_API int chrono_program_finish(chrono_program *p);

CHRONO_API int chrono_main_at(int argc, char **argv, const chrono_entry *entries, size_t n, unsigned long caller);
#define chrono_main(argc, argv, entries, n) chrono_main_at((argc), (argv), (entries), (n), CHRONO__CALLER)
CHRONO__EXTERN_C_END

/* ---- benchmark modules (chronoscope-ab) -------------------------------------------------- */
/* A benchmark module is a program table compiled as a shared object, so that
   tools/chronoscope-ab can load two builds of it (the base commit's and the
   change's) into one process and compare them entry by entry:

       static size_t suite(const chrono_entry **table)
       {
           static char buf[4096];
           static chrono_entry t[2];
           t[0] = chrono_bench("sum/4KiB", sum, buf);
           t[1] = chrono_bench("copy", copy, buf);
           *table = t;
           return 2;
       }
       CHRONO_MODULE(suite)

   CHRONO_MODULE(fn) exports one symbol, chrono_module_v1 (CHRONO_MODULE_SYMBOL):
   a chrono_module holding fn and the version of the header the module was
   built with, which a loader checks (chrono_module_check) before it calls fn.
   Unless CHRONO_MODULE_NO_MAIN is defined it also defines main(), which runs
   the table with chrono_main: the same file builds as an ordinary program.
   With meson (the module carries its own copy of the library, linked in):

       shared_module('suite', 'suite.c', dependencies: chronoscope_dep, name_prefix: '')   # suite.so
       executable('suite', 'suite.c', dependencies: chronoscope_dep)                       # the program

   The symbol's name carries the layout of chrono_module ("v1"); its first
   three members (magic, version, version_string) keep their place in every
   later layout, so that a module of another header version is recognised and
   named, not misread. */
#define CHRONO_MODULE_SYMBOL "chrono_module_v1"
#define CHRONO_MODULE_MAGIC 0x43684d31ul   /* "ChM1" */

typedef size_t (*chrono_module_fn)(const chrono_entry **table);

typedef struct chrono_module {
    unsigned long magic;          /* CHRONO_MODULE_MAGIC */
    unsigned long version;        /* CHRONO_VERSION_NUM of the header it was built with */
    const char *version_string;   /* its CHRONO_VERSION_STRING */
    unsigned long entry_size;     /* sizeof(chrono_entry) there */
    chrono_module_fn table;       /* the program table: *table = its entries, returns how many */
} chrono_module;

#if defined(_WIN32)
#  define CHRONO__MODULE_EXPORT __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#  define CHRONO__MODULE_EXPORT __attribute__((visibility("default")))
#else
#  define CHRONO__MODULE_EXPORT
#endif
#ifdef __cplusplus
#  define CHRONO__MODULE_LINKAGE extern "C"
#else
#  define CHRONO__MODULE_LINKAGE
#endif

#ifdef CHRONO_MODULE_NO_MAIN
#  define CHRONO__MODULE_MAIN(fn)
#else
#  define CHRONO__MODULE_MAIN(fn)                                                  \
    int main(int argc, char **argv)                                                \
    {                                                                              \
        const chrono_entry *chrono__table = NULL;                                  \
        size_t chrono__n = fn(&chrono__table);                                     \
        return chrono_main(argc, argv, chrono__table, chrono__n);                  \
    }
#endif

#define CHRONO_MODULE(fn)                                                          \
    CHRONO__MODULE_LINKAGE CHRONO__MODULE_EXPORT const chrono_module chrono_module_v1; \
    CHRONO__MODULE_LINKAGE CHRONO__MODULE_EXPORT const chrono_module chrono_module_v1 = { \
        CHRONO_MODULE_MAGIC, CHRONO_VERSION_NUM, CHRONO_VERSION_STRING,            \
        (unsigned long)sizeof(chrono_entry), fn };                                 \
    CHRONO__MODULE_MAIN(fn)

/* What an A/B comparison of two builds found for one entry. */
typedef enum chrono_change {
    CHRONO_CHANGE_NONE = 0,       /* no clear difference */
    CHRONO_CHANGE_FASTER,
    CHRONO_CHANGE_SLOWER,         /* a regression: the gate fails */
    CHRONO_CHANGE_INCONCLUSIVE    /* the interval cannot decide (why says) */
} chrono_change;

typedef struct chrono_change_verdict {
    chrono_change change;
    double ratio, ci_low, ci_high;   /* head/base and its interval */
    double cycles_ratio;             /* head/base in estimated cycles, NAN if unknown */
    char why[160];                   /* one line: the figures against the rule */
} chrono_change_verdict;

CHRONO__EXTERN_C_BEGIN
/* 0 when m is a module this header can use; else CHRONO_EVERSION (built with
   another header version: why names both versions) or CHRONO_EINVAL (not a
   module descriptor).  why may be NULL. */
CHRONO_API int chrono_module_check(const chrono_module *m, char *why, size_t n);

/* The rule of chronoscope-ab, on a comparison whose A is the base and B the
   head (chrono_compare, pooled or not): head/base = 1 / c->ratio with the
   interval [1 / c->ci_high, 1 / c->ci_low].
     SLOWER        the interval lies entirely above 1 and head/base > 1 + threshold;
     FASTER        the interval lies entirely below 1 and head/base < 1 - threshold;
     INCONCLUSIVE  no interval (a NaN, one pair), an interval whose level falls
                   short of `confidence` (too few processes), or else one that
                   reaches beyond 1 +- threshold (too wide to tell such a change
                   from none);
     NONE          otherwise: the interval lies within 1 +- threshold (it holds
                   1, or the change is real but within the threshold).
   threshold: a fraction (0.02 for 2%), 0..10; confidence 0 means 0.95.
   0, or CHRONO_EINVAL (NULL, a threshold out of range). */
CHRONO_API int chrono_change_decide(const chrono_comparison *c, double threshold, double confidence,
                                    chrono_change_verdict *out);
/* "faster", "slower", "no clear difference", "inconclusive". */
CHRONO_API const char *chrono_change_name(chrono_change change);
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_PROGRAM_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_PROGRAM_IMPL)
#define CHRONOSCOPE_PROGRAM_IMPL

#if CHRONO__OS_LINUX || CHRONO__OS_POSIX
#  include <fcntl.h>
#  include <poll.h>
#  include <signal.h>
#  include <sys/types.h>
#  include <sys/wait.h>
#  include <unistd.h>
#  if defined(__GLIBC__) && !defined(__USE_POSIX)
int kill(pid_t pid, int sig);   /* glibc declares it only with POSIX features on (strict -std=c99) */
#  endif
#endif

CHRONO__EXTERN_C_BEGIN

CHRONO_API chrono_entry chrono_bench(const char *name, chrono_fn fn, void *ctx)
{
    chrono_entry e;
    memset(&e, 0, sizeof e);
    e.kind = CHRONO_ENTRY_RUN;
    e.name = name; e.fn = fn; e.ctx = ctx;
    return e;
}

CHRONO_API chrono_entry chrono_versus(const char *name_a, chrono_fn a, void *ctx_a,
                                      const char *name_b, chrono_fn b, void *ctx_b)
{
    chrono_entry e = chrono_bench(name_a, a, ctx_a);
    e.kind = CHRONO_ENTRY_COMPARE;
    e.name_b = name_b; e.fn_b = b; e.ctx_b = ctx_b;
    return e;
}

CHRONO_API chrono_entry chrono_sweep_entry(const char *name, chrono_sweep_fn fn, void *ctx,
                                           const uint64_t *params, size_t nparams)
{
    chrono_entry e = chrono_bench(name, NULL, ctx);
    e.kind = CHRONO_ENTRY_SWEEP;
    e.sweep_fn = fn; e.params = params; e.nparams = nparams;
    return e;
}

CHRONO_API chrono_entry chrono_with_bytes(chrono_entry e, double bytes) { e.bytes = bytes; return e; }
CHRONO_API chrono_entry chrono_with_items(chrono_entry e, double items) { e.items = items; return e; }
CHRONO_API chrono_entry chrono_with_samples(chrono_entry e, int samples) { e.samples = samples; return e; }
CHRONO_API chrono_entry chrono_with_empty_body(chrono_entry e) { e.expect_empty = 1; return e; }
CHRONO_API chrono_entry chrono_with_budget(chrono_entry e, double max_ms) { e.max_ms = max_ms; return e; }
CHRONO_API chrono_entry chrono_with_warmup(chrono_entry e, double warmup_ms) { e.warmup_ms = warmup_ms; return e; }
CHRONO_API chrono_entry chrono_with_unit(chrono_entry e, const char *unit) { e.unit = unit; return e; }
CHRONO_API chrono_entry chrono_with_setup(chrono_entry e, chrono_setup_fn setup) { e.setup = setup; return e; }
CHRONO_API chrono_entry chrono_with_blocking(chrono_entry e) { e.blocking = 1; return e; }

/* --format=html without an --out file: the page goes to stdout at the end. */
CHRONO__PRIVATE int chrono__program_html_stdout(const chrono_program *p)
{
    return !p->chrono__file && p->cli.format == CHRONO_FORMAT_HTML;
}

/* The console: text beside an --out file or before an HTML page on stdout (then
   on stderr), else the format asked for, on stdout. */
CHRONO__PRIVATE chrono_format chrono__console_format(const chrono_program *p)
{
    return p->chrono__file || chrono__program_html_stdout(p) ? CHRONO_FORMAT_TEXT : p->cli.format;
}

CHRONO__PRIVATE FILE *chrono__console_stream(const chrono_program *p)
{
    return chrono__program_html_stdout(p) ? stderr : stdout;
}

CHRONO__PRIVATE int chrono__program_fail(chrono_program *p, int rc)
{
    if (rc == CHRONO_EINVAL) { p->status = chrono_cli_fail(&p->cli, p->cli.prog); return rc; }
    fprintf(stderr, "%s: %s\n", p->cli.prog ? p->cli.prog : "chronoscope", chrono_strerror(rc));
    p->status = 1;
    return rc;
}

/* ---- runs across processes ------------------------------------------------------------- */
#define CHRONO__CHILD_FLAG "--chrono-child="

/* The seed of child k's order: .seed and its index, mixed. */
CHRONO__PRIVATE uint64_t chrono__child_seed(uint64_t seed, int k)
{
    uint64_t x = seed + 0x9E3779B97F4A7C15ull * (uint64_t)(k + 1);
    x ^= x >> 30; x *= 0xBF58476D1CE4E5B9ull; x ^= x >> 27; x *= 0x94D049BB133111EBull; x ^= x >> 31;
    return x;
}

/* Children: take "--chrono-child=I:FD:CALL" out of argv (a copy), remember I, FD and CALL. */
CHRONO__PRIVATE int chrono__child_args(chrono_program *p, int *argc, char ***argv)
{
    int i, k = 0, found = 0;
    char **v;
    if (*argc <= 0 || !*argv) return 0;
    for (i = 1; i < *argc && (*argv)[i]; i++) found |= !strncmp((*argv)[i], CHRONO__CHILD_FLAG, strlen(CHRONO__CHILD_FLAG));
    if (!found) return 0;
    if (!(v = (char **)CHRONO_MALLOC((size_t)(*argc + 1) * sizeof *v))) return CHRONO_ENOMEM;
    for (i = 0; i < *argc && (*argv)[i]; i++) {
        const char *a = (*argv)[i];
        if (i > 0 && !strncmp(a, CHRONO__CHILD_FLAG, strlen(CHRONO__CHILD_FLAG))) {
            long idx = strtol(a + strlen(CHRONO__CHILD_FLAG), NULL, 10);
            const char *colon = strchr(a, ':'), *call = colon ? strchr(colon + 1, ':') : NULL;
            p->chrono__child = (int)idx + 1;
            p->chrono__child_fd = colon ? (int)strtol(colon + 1, NULL, 10) : -1;
            p->chrono__child_call = call ? (int)strtol(call + 1, NULL, 10) : -1;
            continue;
        }
        v[k++] = (*argv)[i];
    }
    v[k] = NULL;
    p->chrono__argv = v;
    *argc = k;
    *argv = v;
    return 0;
}

CHRONO__PRIVATE void chrono__hex_put(char *dst, const void *src, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    const unsigned char *b = (const unsigned char *)src;
    size_t i;
    for (i = 0; i < n; i++) { dst[2 * i] = digits[b[i] >> 4]; dst[2 * i + 1] = digits[b[i] & 15]; }
}

CHRONO__PRIVATE int chrono__hex_get(void *dst, const char *src, size_t n)
{
    unsigned char *b = (unsigned char *)dst;
    size_t i;
    for (i = 0; i < 2 * n; i++) {
        char c = src[i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (v < 0) return -1;
        if (i & 1) b[i / 2] = (unsigned char)(b[i / 2] | v); else b[i / 2] = (unsigned char)(v << 4);
    }
    return 0;
}

/* One record: a type letter, the struct's bytes in hex (the child is the same
   executable: the same layout), a newline. */
CHRONO__PRIVATE int chrono__child_put(FILE *f, char type, const void *obj, size_t n)
{
    char *line = (char *)CHRONO_MALLOC(2 * n + 3);
    int rc;
    if (!line) return CHRONO_ENOMEM;
    line[0] = type; line[1] = ' ';
    chrono__hex_put(line + 2, obj, n);
    line[2 * n + 2] = '\n';
    rc = fwrite(line, 1, 2 * n + 3, f) == 2 * n + 3 ? 0 : CHRONO_EIO;
    CHRONO_FREE(line);
    return rc;
}

/* A child's report: every result, comparison and sweep of its session, then "E". */
CHRONO__PRIVATE int chrono__child_report(chrono_program *p)
{
#if CHRONO__OS_LINUX || CHRONO__OS_POSIX
    const chrono_session *s = &p->session;
    FILE *f = fdopen(p->chrono__child_fd, "wb");
    size_t i;
    int rc = 0;
    if (!f) return CHRONO_EIO;
    for (i = 0; rc == 0 && i < s->nresults; i++) {
        chrono_result r = s->results[i];
        r.sample_ns = NULL; r.nsample_ns = 0;
        rc = chrono__child_put(f, 'R', &r, sizeof r);
        if (rc == 0 && s->results[i].nsample_ns)   /* its samples: the parent pools them */
            rc = chrono__child_put(f, 'N', s->results[i].sample_ns, s->results[i].nsample_ns * sizeof(double));
    }
    for (i = 0; rc == 0 && i < s->ncomparisons; i++) {
        const chrono_comparison *sc = &s->comparisons[i];
        chrono_comparison c = *sc;
        c.a.sample_ns = c.b.sample_ns = c.pair_ratios = NULL;
        c.a.nsample_ns = c.b.nsample_ns = c.npair_ratios = 0;
        rc = chrono__child_put(f, 'C', &c, sizeof c);
        if (rc == 0 && sc->a.nsample_ns) rc = chrono__child_put(f, 'A', sc->a.sample_ns, sc->a.nsample_ns * sizeof(double));
        if (rc == 0 && sc->b.nsample_ns) rc = chrono__child_put(f, 'B', sc->b.sample_ns, sc->b.nsample_ns * sizeof(double));
    }
    for (i = 0; rc == 0 && i < s->nsweeps; i++) rc = chrono__child_put(f, 'S', &s->sweeps[i], sizeof s->sweeps[i]);
    if (rc == 0 && fputs("E\n", f) < 0) rc = CHRONO_EIO;
    if (fclose(f) != 0 && rc == 0) rc = CHRONO_EIO;
    return rc;
#else
    (void)p;
    return CHRONO_ENOTSUP;
#endif
}

/* What one child handed back. */
typedef struct chrono__child_out {
    chrono_result *r; size_t nr;
    chrono_comparison *c; size_t nc;
    chrono_sweep_result *sw; size_t nsw;
    int complete;            /* its "E" arrived */
    char last;               /* the last record kept: 'R', 'C' (its samples follow), else 0 */
    char why[128];           /* "" or how it failed */
    long pid;
} chrono__child_out;

CHRONO__PRIVATE void chrono__child_free(chrono__child_out *o)
{
    size_t i;   /* the samples hung on the records by chrono__child_samples */
    for (i = 0; i < o->nr; i++) CHRONO_FREE((void *)o->r[i].sample_ns);
    for (i = 0; i < o->nc; i++) { CHRONO_FREE((void *)o->c[i].a.sample_ns); CHRONO_FREE((void *)o->c[i].b.sample_ns); }
    CHRONO_FREE(o->r); CHRONO_FREE(o->c); CHRONO_FREE(o->sw);
    o->r = NULL; o->c = NULL; o->sw = NULL;
}

/* One more record of `size` bytes at the end of *arr (*n records), decoded
   from hex; 0 (nothing) when memory runs out or the hex is malformed. */
CHRONO__PRIVATE int chrono__append_hex(void **arr, size_t *n, size_t size, const char *hex)
{
    char *p = (char *)CHRONO_MALLOC((*n + 1) * size);
    if (!p) return 0;
    if (*n) memcpy(p, *arr, *n * size);
    CHRONO_FREE(*arr);
    *arr = p;
    if (chrono__hex_get(p + *n * size, hex, size) != 0) return 0;
    (*n)++;
    return 1;
}

/* A record of samples ('N' after an 'R', 'A' / 'B' after a 'C'): hung on
   that record's .sample_ns (freed by chrono__child_free). */
CHRONO__PRIVATE void chrono__child_samples(chrono__child_out *o, char type, const char *hex, size_t count)
{
    const double **dst = NULL;
    size_t *ndst = NULL;
    double *v;
    if (type == 'N' && o->last == 'R') { dst = &o->r[o->nr - 1].sample_ns; ndst = &o->r[o->nr - 1].nsample_ns; }
    if (type == 'A' && o->last == 'C') { dst = &o->c[o->nc - 1].a.sample_ns; ndst = &o->c[o->nc - 1].a.nsample_ns; }
    if (type == 'B' && o->last == 'C') { dst = &o->c[o->nc - 1].b.sample_ns; ndst = &o->c[o->nc - 1].b.nsample_ns; }
    if (!dst || *dst || !count || !(v = (double *)CHRONO_MALLOC(count * sizeof *v))) return;
    if (chrono__hex_get(v, hex, count * sizeof *v) != 0) { CHRONO_FREE(v); return; }
    *dst = v;
    *ndst = count;
}

/* Parse a child's records (lines), keeping what is whole. */
CHRONO__PRIVATE void chrono__child_parse(chrono__child_out *o, const char *buf, size_t len)
{
    size_t i = 0;
    while (i < len) {
        const char *line = buf + i, *nl = (const char *)memchr(line, '\n', len - i);
        size_t n;
        if (!nl) break;
        n = (size_t)(nl - line);
        i += n + 1;
        if (n == 1 && line[0] == 'E') { o->complete = 1; continue; }
        if (n < 2) continue;
        if (line[0] == 'R' && n - 2 == 2 * sizeof(chrono_result))
            o->last = chrono__append_hex((void **)&o->r, &o->nr, sizeof(chrono_result), line + 2) ? 'R' : 0;
        else if (line[0] == 'C' && n - 2 == 2 * sizeof(chrono_comparison))
            o->last = chrono__append_hex((void **)&o->c, &o->nc, sizeof(chrono_comparison), line + 2) ? 'C' : 0;
        else if (line[0] == 'S' && n - 2 == 2 * sizeof(chrono_sweep_result))
            (void)chrono__append_hex((void **)&o->sw, &o->nsw, sizeof(chrono_sweep_result), line + 2);
        else if ((line[0] == 'N' || line[0] == 'A' || line[0] == 'B') && (n - 2) % (2 * sizeof(double)) == 0)
            chrono__child_samples(o, line[0], line + 2, (n - 2) / (2 * sizeof(double)));
    }
}


CHRONO_API int chrono_program_begin_at(chrono_program *p, int argc, char **argv, const chrono_cli_flag *flags,
                                       size_t nflags, unsigned long caller)
{
    int rc;
    if (!p) return CHRONO_EINVAL;
    memset(p, 0, sizeof *p);
    p->cfg = chrono_config_default();
    p->chrono__parent_argv = argv;
    p->chrono__parent_argc = argc;
    if ((rc = chrono__child_args(p, &argc, &argv)) < 0) return chrono__program_fail(p, rc);
    if ((rc = chrono_cli_parse_ex(&p->cfg, &p->cli, argc, argv, flags, nflags)) < 0) return chrono__program_fail(p, rc);
    if (chrono_cli_handle_info(&p->cli, p->cli.prog)) return 0;
    if (p->cli.out_path && strcmp(p->cli.out_path, "-") != 0 && !p->cli.list && !p->chrono__child) {
        p->chrono__file = fopen(p->cli.out_path, "wb");
        if (!p->chrono__file) {
            fprintf(stderr, "%s: --out: cannot write '%s': %s\n", p->cli.prog, p->cli.out_path, strerror(errno));
            p->status = 2;
            return CHRONO_EINVAL;
        }
        p->chrono__file_fmt = p->cli.out_format;   /* --format, else the extension's (cli.h) */
    }
    if (p->cli.list) return 1;
    if ((rc = chrono_session_open_at(&p->session, &p->cfg, caller)) < 0) return chrono__program_fail(p, rc);
    p->chrono__open = 1;
    return 1;
}

CHRONO__PRIVATE int chrono__entry_ok(const chrono_entry *e)
{
    if (!e->name || !e->name[0]) return 0;
    switch (e->kind) {
    case CHRONO_ENTRY_RUN:     return e->fn != NULL;
    case CHRONO_ENTRY_COMPARE: return e->fn && e->fn_b && e->name_b && e->name_b[0];
    case CHRONO_ENTRY_SWEEP:   return e->sweep_fn && e->params && e->nparams;
    }
    return 0;
}

/* A comparison's name for --filter and --list: "a vs b". */
CHRONO__PRIVATE const char *chrono__entry_name(char *buf, size_t n, const chrono_entry *e)
{
    if (e->kind != CHRONO_ENTRY_COMPARE) return e->name;
    (void)chrono__bprintf(buf, n, "%s vs %s", e->name, e->name_b);
    return buf;
}

/* Throughput travels with the stored result, so every report shows it. */
CHRONO__PRIVATE void chrono__set_throughput(chrono_result *r, const chrono_entry *e)
{
    r->bytes_per_iter = e->bytes;
    r->items_per_iter = e->items;
}

CHRONO__PRIVATE int chrono__run_entry(chrono_program *p, const chrono_entry *e)
{
    chrono_session *s = &p->session;
    chrono_config saved = s->cfg;
    int has_cycles = s->has_cycles;
    size_t first = s->nresults;
    int rc = 0;
    if (e->samples > 0) s->cfg.samples = e->samples;
    if (e->max_ms > 0) s->cfg.max_ms = e->max_ms;
    if (e->warmup_ms > 0) s->cfg.warmup_ms = e->warmup_ms;
    if (e->expect_empty) s->cfg.expect_empty = 1;
    /* A blocking body is timed without core-cycle estimates: the reference
       chains around it bracket a sleep (another process's work, an idle
       CPU) and would disagree, rejecting the sample. */
    if (e->blocking) { s->cfg.blocking = 1; s->has_cycles = 0; }
    switch (e->kind) {
    case CHRONO_ENTRY_RUN:
        rc = e->setup ? chrono_run_setup(s, e->name, e->setup, e->fn, e->ctx, NULL)
                      : chrono_run(s, e->name, e->fn, e->ctx, NULL);
        if (rc == 0) chrono__set_throughput(&s->results[s->nresults - 1], e);
        if (rc == 0) rc = chrono_report_result(&p->chrono__console, &s->results[s->nresults - 1]);
        break;
    case CHRONO_ENTRY_COMPARE:
        rc = chrono_compare(s, e->name, e->fn, e->ctx, e->name_b, e->fn_b, e->ctx_b, NULL);
        if (rc == 0) {
            chrono_comparison *c = &s->comparisons[s->ncomparisons - 1];
            chrono__set_throughput(&c->a, e);
            chrono__set_throughput(&c->b, e);
            rc = chrono_report_comparison(&p->chrono__console, c);
        }
        break;
    case CHRONO_ENTRY_SWEEP:
        rc = chrono_sweep(s, e->name, e->sweep_fn, e->ctx, e->params, e->nparams, NULL);
        if (rc == 0 && e->unit) chrono__str_copy(s->sweeps[s->nsweeps - 1].unit, sizeof s->sweeps[0].unit, e->unit);
        for (; rc == 0 && first < s->nresults; first++) {
            chrono__set_throughput(&s->results[first], e);
            rc = chrono_report_result(&p->chrono__console, &s->results[first]);
        }
        break;
    }
    s->cfg = saved;
    s->has_cycles = has_cycles;
    fflush(stdout);
    return rc;
}

/* 1 when the entry makes a result called `name`: a run's name, either side
   of a comparison, a sweep's point "NAME/PARAM". */
CHRONO__PRIVATE int chrono__entry_makes(const chrono_entry *e, const char *name)
{
    size_t i, len;
    if (!chrono__entry_ok(e)) return 0;
    switch (e->kind) {
    case CHRONO_ENTRY_RUN:     return !strcmp(e->name, name);
    case CHRONO_ENTRY_COMPARE: return !strcmp(e->name, name) || !strcmp(e->name_b, name);
    case CHRONO_ENTRY_SWEEP:
        len = strlen(e->name);
        if (strncmp(name, e->name, len) != 0 || name[len] != '/') return 0;
        for (i = 0; i < e->nparams; i++) {
            char num[32];
            (void)chrono__bprintf(num, sizeof num, "%llu", (unsigned long long)e->params[i]);
            if (!strcmp(name + len + 1, num)) return 1;
        }
        return 0;
    }
    return 0;
}

/* 1 when --filter selects the entry (its name, or "a vs b"). */
CHRONO__PRIVATE int chrono__entry_selected(const chrono_program *p, const chrono_entry *e)
{
    char name[2 * CHRONO_NAME_MAX + 8];
    return chrono__entry_ok(e) && chrono_cli_match(&p->cli, chrono__entry_name(name, sizeof name, e));
}

/* 1 when the session already holds a result called `name` (a run, a sweep's point, a comparison's side). */
CHRONO__PRIVATE int chrono__program_has(const chrono_program *p, const char *name)
{
    size_t i;
    if (chrono_program_find(p, name)) return 1;
    for (i = 0; i < p->session.ncomparisons; i++)
        if (!strcmp(p->session.comparisons[i].a.name, name) || !strcmp(p->session.comparisons[i].b.name, name)) return 1;
    return 0;
}

/* --baseline against the entries, before any of them runs: *first is the
   entry that measures it (it runs first, so that every row printed after it
   can show its ratio), n when none needs to (no --baseline, or it ran in an
   earlier chrono_program_run).  CHRONO_EINVAL, with .error, when no entry
   that --filter selects measures it. */
CHRONO__PRIVATE int chrono__program_baseline(chrono_program *p, const chrono_entry *entries, size_t n, size_t *first)
{
    const char *b = p->cli.baseline;
    size_t i;
    *first = n;
    /* a child runs one call's entries and prints nothing: its parent checks */
    if (!b || p->cli.list || p->chrono__child || (p->chrono__open && chrono__program_has(p, b))) return 0;
    for (i = 0; i < n; i++) {
        char what[160], q[52];
        size_t k;
        if (!chrono__entry_makes(&entries[i], b)) continue;
        if (chrono__entry_selected(p, &entries[i])) { *first = i; return 0; }
        for (k = 0; p->cli.filter[k] && k < 48; k++) q[k] = p->cli.filter[k];
        q[k] = '\0';
        (void)chrono__bprintf(what, sizeof what, "is not among the benchmarks that --filter='%s' selects", q);
        return chrono_cli_reject(&p->cli, "--baseline", b, what);
    }
    return chrono_cli_reject(&p->cli, "--baseline", b, "is not the name of a benchmark of this program (--list shows them)");
}

/* A --filter that selected no entry of any chrono_program_run: bad input
   (exit 2), said once. */
CHRONO__PRIVATE int chrono__program_filter_check(chrono_program *p)
{
    if (!p->cli.filter || p->chrono__wanted || p->status == 2 || p->chrono__child) return 0;
    (void)chrono_cli_reject(&p->cli, "--filter", p->cli.filter,
                            p->cli.nfilters > 1 ? "and the other --filter flags select no benchmark of this program (--list shows them)"
                                                : "matches no benchmark of this program (--list shows them)");
    return chrono__program_fail(p, CHRONO_EINVAL);
}

/* The order this process runs the entries in: a child of --processes its
   own shuffle (Fisher-Yates, from its seed); otherwise the table's, with the
   --baseline entry (first < n) moved to the front.  NULL: the table's order
   (also when memory runs out). */
CHRONO__PRIVATE size_t *chrono__run_order(const chrono_program *p, size_t n, size_t first)
{
    size_t *order, a;
    if (n < 2 || (!p->chrono__child && first >= n)) return NULL;
    if (!(order = (size_t *)CHRONO_MALLOC(n * sizeof *order))) return NULL;
    for (a = 0; a < n; a++) order[a] = a;
    if (p->chrono__child) {
        uint64_t x = chrono__child_seed(p->cfg.seed, p->chrono__child - 1);
        for (a = n - 1; a > 0; a--) {
            size_t b, t;
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            b = (size_t)(x % (a + 1));
            t = order[a]; order[a] = order[b]; order[b] = t;
        }
    } else {
        for (a = first; a > 0; a--) order[a] = a - 1;
        order[0] = first;
    }
    return order;
}

/* On a terminal, "running NAME ..." on stderr while an entry runs, erased
   afterwards (name NULL): nothing reaches a pipe or a file. */
CHRONO__PRIVATE void chrono__progress(const chrono_program *p, const char *name)
{
    if (p->cli.list || !CHRONO__ISATTY(stderr)) return;
    if (name) fprintf(stderr, "\r\033[K  running %s ...", name);
    else fputs("\r\033[K", stderr);
    fflush(stderr);
}

/* Start child k, read its records until it closes the pipe or the timeout,
   then reap it; o->why says how it failed ("" when it did not). */
CHRONO__PRIVATE void chrono__child_run(chrono_program *p, int k, double timeout_s, chrono__child_out *o)
{
#if CHRONO__OS_LINUX || CHRONO__OS_POSIX
    int fds[2], status = 0, timed_out = 0, argc = p->chrono__parent_argc, i;
    char flag[64], **argv;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    pid_t pid;
    uint64_t t0 = chrono__now(&p->session);
    o->why[0] = '\0';
    if (pipe(fds) != 0) { (void)chrono__bprintf(o->why, sizeof o->why, "pipe failed: %s", strerror(errno)); return; }
    if (!(argv = (char **)CHRONO_MALLOC((size_t)(argc + 2) * sizeof *argv))) {
        close(fds[0]); close(fds[1]);
        (void)chrono__bprintf(o->why, sizeof o->why, "out of memory");
        return;
    }
    (void)chrono__bprintf(flag, sizeof flag, CHRONO__CHILD_FLAG "%d:%d:%d", k, fds[1], p->chrono__call - 1);
    for (i = 0; i < argc; i++) argv[i] = p->chrono__parent_argv[i];
    argv[argc] = flag;
    argv[argc + 1] = NULL;
    fflush(stdout); fflush(stderr);
    pid = fork();
    if (pid == 0) {   /* the child: its console goes nowhere, its records through the pipe */
        int dn = open("/dev/null", O_WRONLY);
        close(fds[0]);
        if (dn >= 0) { dup2(dn, 1); close(dn); }
#  if CHRONO__OS_LINUX
        execv("/proc/self/exe", argv);
#  endif
        execvp(argv[0], argv);
        _exit(127);
    }
    CHRONO_FREE(argv);
    close(fds[1]);
    if (pid < 0) { close(fds[0]); (void)chrono__bprintf(o->why, sizeof o->why, "fork failed: %s", strerror(errno)); return; }
    o->pid = (long)pid;
    for (;;) {
        struct pollfd pf;
        double left_ms = timeout_s * 1e3 - chrono__elapsed_ms(&p->session, t0);
        ssize_t got;
        if (left_ms <= 0) { timed_out = 1; break; }
        pf.fd = fds[0]; pf.events = POLLIN; pf.revents = 0;
        if (poll(&pf, 1, left_ms > 1e9 ? 1000000000 : (int)left_ms + 1) <= 0) {
            if (errno == EINTR) continue;
            continue;   /* the timeout is checked at the top */
        }
        if (len + 65536 > cap) {
            char *nb = (char *)CHRONO_MALLOC(cap ? 2 * cap + 65536 : 262144);
            if (!nb) break;
            if (len) memcpy(nb, buf, len);
            CHRONO_FREE(buf);
            buf = nb;
            cap = cap ? 2 * cap + 65536 : 262144;
        }
        got = read(fds[0], buf + len, cap - len);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        len += (size_t)got;
    }
    close(fds[0]);
    if (timed_out) kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    chrono__child_parse(o, buf ? buf : "", len);
    CHRONO_FREE(buf);
    if (timed_out)
        (void)chrono__bprintf(o->why, sizeof o->why, "timed out after %.0f s (killed)", timeout_s);
    else if (WIFSIGNALED(status))
        (void)chrono__bprintf(o->why, sizeof o->why, "killed by signal %d%s", WTERMSIG(status),
                              WTERMSIG(status) == SIGKILL ? " (SIGKILL)" : WTERMSIG(status) == SIGSEGV ? " (SIGSEGV)" :
                              WTERMSIG(status) == SIGABRT ? " (SIGABRT)" : "");
    else if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !o->complete)
        (void)chrono__bprintf(o->why, sizeof o->why, "could not be started (exec failed)");
    else if (!o->complete)
        (void)chrono__bprintf(o->why, sizeof o->why, "exited (status %d) without handing back its results",
                              WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        (void)chrono__bprintf(o->why, sizeof o->why, "exit status %d (an entry failed; its results are kept)", WEXITSTATUS(status));
#else
    (void)p; (void)k; (void)timeout_s;
    (void)chrono__bprintf(o->why, sizeof o->why, "not supported on this platform");
#endif
}

/* The median of v[0..n) (sorted in place). */
CHRONO__PRIVATE double chrono__median_of(double *v, size_t n)
{
    chrono_stats_sort(v, n);
    return n ? (n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : NAN;
}

/* The all_* figures of k processes' results as one: counts added, means
   weighted by them, the spread within and between processes in the sd. */
CHRONO__PRIVATE void chrono__pool_all(const chrono_result *const *rs, size_t k, chrono_result *out)
{
    double n = 0, sum = 0, ss = 0;
    size_t i;
    for (i = 0; i < k; i++)
        if (rs[i]->all_n) { n += (double)rs[i]->all_n; sum += (double)rs[i]->all_n * rs[i]->all_ns_mean; }
    out->all_n = (size_t)n;
    out->all_ns_mean = out->all_ns_stddev = NAN;
    if (n == 0) return;
    out->all_ns_mean = sum / n;
    for (i = 0; i < k; i++) {
        double d, v;
        if (!rs[i]->all_n) continue;
        d = rs[i]->all_ns_mean - out->all_ns_mean;
        v = rs[i]->all_n > 1 && rs[i]->all_ns_stddev == rs[i]->all_ns_stddev ? rs[i]->all_ns_stddev : 0.0;
        ss += (double)(rs[i]->all_n - 1) * v * v + (double)rs[i]->all_n * d * d;
    }
    if (n > 1) out->all_ns_stddev = sqrt(ss / (n - 1));
}

/* Statistics of k processes from their summaries alone: counts, extremes,
   the mean and the standard deviation (within and between processes) exact;
   the median and its interval over the processes (chrono_stats_pool_median);
   what needs the samples themselves (MAD, quartiles, outliers) unknown. */
CHRONO__PRIVATE void chrono__pool_summaries(const chrono_stats *const *st, size_t k, double conf, chrono_stats *out)
{
    double med[1000], lo[1000], hi[1000], n = 0, sum = 0, ss = 0, nan = NAN;
    size_t i;
    if (k == 1) { *out = *st[0]; return; }   /* one process: its own figures */
    out->n = 0; out->min = out->max = st[0]->min;
    for (i = 0; i < k; i++) {
        med[i] = st[i]->median; lo[i] = st[i]->ci_low; hi[i] = st[i]->ci_high;
        out->n += st[i]->n;
        if (st[i]->min < out->min) out->min = st[i]->min;
        if (st[i]->max > out->max) out->max = st[i]->max;
        n += (double)st[i]->n; sum += (double)st[i]->n * st[i]->mean;
    }
    out->mean = n > 0 ? sum / n : nan;
    for (i = 0; i < k; i++) {
        double d = st[i]->mean - out->mean, v = st[i]->n > 1 && st[i]->stddev == st[i]->stddev ? st[i]->stddev : 0.0;
        ss += (double)(st[i]->n ? st[i]->n - 1 : 0) * v * v + (double)st[i]->n * d * d;
    }
    out->stddev = n > 1 ? sqrt(ss / (n - 1)) : nan;
    out->cv = n > 1 && out->mean != 0 ? out->stddev / out->mean : nan;
    out->mad = out->q1 = out->q3 = nan;
    out->outliers_low = out->outliers_high = out->outliers_severe = 0;
    out->median = out->ci_low = out->ci_high = out->ci_level = nan;
    if (chrono_stats_pool_median(med, lo, hi, k, conf, NULL, out) < 0) return;
    if (out->ci_low < out->min) out->ci_low = out->min;
    if (out->ci_high > out->max) out->ci_high = out->max;
}

/* src with every figure in another unit (times f); counts and levels as they are. */
CHRONO__PRIVATE void chrono__stats_scaled(const chrono_stats *src, double f, chrono_stats *dst)
{
    *dst = *src;
    dst->min *= f; dst->max *= f; dst->mean *= f; dst->stddev *= f; dst->median *= f; dst->mad *= f;
    dst->q1 *= f; dst->q3 *= f; dst->ci_low *= f; dst->ci_high *= f;
}

/* The median of the k ratios a/b (NAN when one is not finite). */
CHRONO__PRIVATE double chrono__median_ratio(const chrono_stats *const *a, const chrono_stats *const *b, size_t k)
{
    double r[1000];
    size_t i;
    for (i = 0; i < k; i++) {
        r[i] = a[i]->median / b[i]->median;
        if (!chrono__finite(r[i])) return NAN;
    }
    return chrono__median_of(r, k);
}

/* The pooled ns figures from every process's samples (chrono_stats_pool:
   the processes are the units of the interval; MAD, quartiles, outliers and
   the histogram over all the samples, which the session keeps for the plots).
   0, or a negative code when a process handed back no samples. */
CHRONO__PRIVATE int chrono__pool_samples(chrono_session *s, const chrono_result *const *rs, size_t k, double conf,
                                         chrono_result *out)
{
    const double *xs[1000];
    size_t ns[1000], i, total = 0, at = 0;
    double *all, iqr;
    int rc;
    for (i = 0; i < k; i++) {
        xs[i] = rs[i]->sample_ns; ns[i] = rs[i]->nsample_ns;
        if (!xs[i] || !ns[i]) return CHRONO_ENOSAMPLES;
        total += ns[i];
    }
    if ((rc = chrono_stats_pool(xs, ns, k, conf, &out->ns)) < 0) return rc;
    if (!(all = (double *)CHRONO_MALLOC(total * sizeof *all))) return 0;   /* figures kept, no plot */
    for (i = 0; i < k; i++) { memcpy(all + at, xs[i], ns[i] * sizeof *all); at += ns[i]; }
    iqr = out->ns.q3 - out->ns.q1;   /* the sketch spans min .. q3 + 3 IQR, as one process's (bench.h) */
    out->hist_lo = out->ns.min;
    out->hist_hi = out->ns.q3 + 3 * iqr < out->ns.max ? out->ns.q3 + 3 * iqr : out->ns.max;
    chrono_stats_histogram(all, total, out->hist_lo, out->hist_hi, out->hist, CHRONO_HIST_BINS);
    chrono__keep_samples(s, all, total, &out->sample_ns, &out->nsample_ns);
    CHRONO_FREE(all);
    return 0;
}

/* Pool k results of one benchmark into *out.  ns: over the processes'
   samples (chrono__pool_samples), or their summaries when one sent none;
   ticks: the ns figures in ticks (one clock); cycles: extremes, mean and
   interval from the processes' own cycle figures, the spread figures (MAD,
   quartiles) the ns ones at the pooled core clock. */
CHRONO__PRIVATE void chrono__pool(chrono_session *s, const chrono_result *const *rs, size_t k, double conf, chrono_result *out)
{
    const chrono_stats *st[1000], *sn[1000];
    double med[1000], f;
    size_t i, pick = 0;
    if (k > 1000) k = 1000;
    {   /* the process whose median is the pooled one (or next to it) lends the rest */
        double md;
        for (i = 0; i < k; i++) med[i] = rs[i]->ns.median;
        md = chrono__median_of(med, k);
        for (i = 1; i < k; i++) if (fabs(rs[i]->ns.median - md) < fabs(rs[pick]->ns.median - md)) pick = i;
    }
    *out = *rs[pick];
    out->sample_ns = NULL; out->nsample_ns = 0;
    out->samples = out->samples_taken = 0;
    out->migrated = out->backwards = out->ref_rejected = out->preempted = out->contended = out->port_contended = 0;
    out->wall_ms = out->warmup_ms = 0;
    out->warnings = 0;
    out->truncated = 0;
    chrono__pool_all(rs, k, out);
    for (i = 0; i < k; i++) {
        out->samples += rs[i]->samples; out->samples_taken += rs[i]->samples_taken;
        out->migrated += rs[i]->migrated; out->backwards += rs[i]->backwards; out->ref_rejected += rs[i]->ref_rejected;
        out->preempted += rs[i]->preempted; out->contended += rs[i]->contended; out->port_contended += rs[i]->port_contended;
        out->wall_ms += rs[i]->wall_ms; out->warmup_ms += rs[i]->warmup_ms;
        out->warnings |= rs[i]->warnings;
        out->truncated |= rs[i]->truncated;
        out->has_cycles &= rs[i]->has_cycles;
        st[i] = &rs[i]->cycles; sn[i] = &rs[i]->ns;
    }
    if (chrono__pool_samples(s, rs, k, conf, out) < 0) {
        chrono__pool_summaries(sn, k, conf, &out->ns);
        out->sample_ns = NULL; out->nsample_ns = 0;
    }
    out->warnings &= ~(unsigned)CHRONO_WARN_LOW_LEVEL;   /* the pooled interval's level, not a process's */
    if (chrono_stats_level_short(out->ns.ci_level, conf)) out->warnings |= CHRONO_WARN_LOW_LEVEL;
    f = rs[pick]->ns.median > 0 ? rs[pick]->ticks.median / rs[pick]->ns.median : NAN;
    chrono__stats_scaled(&out->ns, f, &out->ticks);
    if (!out->has_cycles) {
        chrono__stats_nan(&out->cycles, out->ns.n);
    } else if (k > 1) {
        chrono_stats c;
        chrono__pool_summaries(st, k, conf, &c);
        f = chrono__median_ratio(st, sn, k);   /* cycles per ns: the core clock, GHz */
        c.mad = out->ns.mad * f; c.q1 = out->ns.q1 * f; c.q3 = out->ns.q3 * f;
        c.outliers_low = out->ns.outliers_low; c.outliers_high = out->ns.outliers_high;
        c.outliers_severe = out->ns.outliers_severe;
        out->cycles = c;
    }
    for (i = 0; i < k; i++) med[i] = rs[i]->ns.median;
    chrono_stats_sort(med, k);
    out->processes = (int)k;
    out->process_min_ns = med[0];
    out->process_max_ns = med[k - 1];
}

/* Each child's result named `name` (the last of its session's), into rs; how many. */
CHRONO__PRIVATE size_t chrono__gather(const chrono__child_out *outs, int nproc, const char *name, const chrono_result **rs)
{
    size_t k = 0, i;
    int c;
    for (c = 0; c < nproc; c++)
        for (i = outs[c].nr; i-- > 0;)
            if (!strcmp(outs[c].r[i].name, name)) { rs[k++] = &outs[c].r[i]; break; }
    return k;
}

/* The default time limit of one child: generous against what its entries may take. */
CHRONO__PRIVATE double chrono__child_timeout(const chrono_program *p, const chrono_entry *entries, size_t n)
{
    double runs = 0, per = (p->cfg.max_ms + 4 * p->cfg.warmup_ms) / 1e3;
    size_t i;
    if (p->process_timeout_s > 0) return p->process_timeout_s;
    for (i = 0; i < n; i++) {
        double ms = entries[i].max_ms > 0 ? (entries[i].max_ms + 4 * p->cfg.warmup_ms) / 1e3 : per;
        runs += ms * (entries[i].kind == CHRONO_ENTRY_SWEEP ? (double)entries[i].nparams : entries[i].kind == CHRONO_ENTRY_COMPARE ? 2 : 1);
    }
    return 30 + 3 * runs;
}

CHRONO__PRIVATE int chrono__keep_pooled(chrono_program *p, const chrono_entry *e, const chrono_result *pooled)
{
    chrono_session *s = &p->session;
    int rc = chrono__keep_result(s, pooled);
    if (rc == 0) {
        chrono__set_throughput(&s->results[s->nresults - 1], e);
        rc = chrono_report_result(&p->chrono__console, &s->results[s->nresults - 1]);
    }
    return rc;
}

/* Pool one entry from the children's results and report it. */
CHRONO__PRIVATE int chrono__pool_entry(chrono_program *p, const chrono_entry *e, const chrono__child_out *outs, int nproc)
{
    chrono_session *s = &p->session;
    const chrono_result *rs[1000];
    chrono_result pooled;
    char name[CHRONO_NAME_MAX + 32];
    size_t k, i;
    int c, rc = 0;
    double conf = s->cfg.confidence;
    switch (e->kind) {
    case CHRONO_ENTRY_RUN:
        if (!(k = chrono__gather(outs, nproc, e->name, rs))) return CHRONO_ENOSAMPLES;
        chrono__pool(s, rs, k, conf, &pooled);
        return chrono__keep_pooled(p, e, &pooled);
    case CHRONO_ENTRY_SWEEP: {
        chrono_sweep_result sw;
        const chrono_sweep_result *first = NULL;
        double pu[1000], fx[1000];
        size_t nsw = 0;
        for (c = 0; c < nproc; c++)
            for (i = outs[c].nsw; i-- > 0;)
                if (!strcmp(outs[c].sw[i].name, e->name)) {
                    if (!first) first = &outs[c].sw[i];
                    if (nsw < 1000) { pu[nsw] = outs[c].sw[i].per_unit_ns; fx[nsw] = outs[c].sw[i].fixed_ns; nsw++; }
                    break;
                }
        if (!first) return CHRONO_ENOSAMPLES;
        sw = *first;
        sw.first_result = s->nresults;
        sw.per_unit_ns = chrono__median_of(pu, nsw);
        sw.fixed_ns = chrono__median_of(fx, nsw);
        for (i = 0; rc == 0 && i < e->nparams; i++) {
            (void)chrono__bprintf(name, sizeof name, "%s/%llu", e->name, (unsigned long long)e->params[i]);
            if (!(k = chrono__gather(outs, nproc, name, rs))) return CHRONO_ENOSAMPLES;
            chrono__pool(s, rs, k, conf, &pooled);
            rc = chrono__keep_pooled(p, e, &pooled);
        }
        if (rc == 0) rc = chrono__grow((void **)&s->sweeps, &s->cap_sweeps, s->nsweeps + 1, sizeof sw);
        if (rc == 0) s->sweeps[s->nsweeps++] = sw;
        return rc;
    }
    case CHRONO_ENTRY_COMPARE: {
        const chrono_comparison *cs[1000];
        const chrono_result *ra[1000], *rb[1000];
        double rat[1000], lo[1000], hi[1000];
        chrono_comparison cmp;
        k = 0;
        for (c = 0; c < nproc; c++)
            for (i = outs[c].nc; i-- > 0;)
                if (!strcmp(outs[c].c[i].a.name, e->name) && !strcmp(outs[c].c[i].b.name, e->name_b)) {
                    cs[k] = &outs[c].c[i]; ra[k] = &cs[k]->a; rb[k] = &cs[k]->b;
                    rat[k] = cs[k]->ratio; lo[k] = cs[k]->ci_low; hi[k] = cs[k]->ci_high;
                    k++;
                    break;
                }
        if (!k) return CHRONO_ENOSAMPLES;
        cmp = *cs[0];
        cmp.pair_ratios = NULL; cmp.npair_ratios = 0;
        chrono__pool(s, ra, k, conf, &cmp.a);
        chrono__pool(s, rb, k, conf, &cmp.b);
        chrono__set_throughput(&cmp.a, e);
        chrono__set_throughput(&cmp.b, e);
        cmp.rounds = 0; cmp.warnings = 0;
        for (i = 0; i < k; i++) { cmp.rounds += cs[i]->rounds; cmp.warnings |= cs[i]->warnings; }
        cmp.process_min_ratio = cmp.process_max_ratio = rat[0];
        for (i = 1; i < k; i++) {   /* before the pooling (it may sort them) */
            if (rat[i] < cmp.process_min_ratio) cmp.process_min_ratio = rat[i];
            if (rat[i] > cmp.process_max_ratio) cmp.process_max_ratio = rat[i];
        }
        if (k > 1) {   /* the processes' ratios as the units (one process: its own ratio and interval) */
            chrono_stats st;
            if (chrono_stats_pool_median(rat, lo, hi, k, conf, NULL, &st) == 0) {
                cmp.ratio = st.median; cmp.ci_low = st.ci_low; cmp.ci_high = st.ci_high; cmp.ci_level = st.ci_level;
            }
            for (i = 0; i < k; i++) rat[i] = cs[i]->cycles_ratio;   /* the cycles' ratio: the processes' median too */
            cmp.cycles_ratio = chrono__all_finite(rat, k) ? chrono__median_of(rat, k) : NAN;
            cmp.warnings &= ~(unsigned)CHRONO_WARN_LOW_LEVEL;   /* the pooled interval's level, not a process's */
            if (chrono_stats_level_short(cmp.ci_level, conf)) cmp.warnings |= CHRONO_WARN_LOW_LEVEL;
            cmp.warnings |= (cmp.a.warnings | cmp.b.warnings) & CHRONO_WARN_LOW_LEVEL;
        }
        rc = chrono__grow((void **)&s->comparisons, &s->cap_comparisons, s->ncomparisons + 1, sizeof cmp);
        if (rc == 0) {
            s->comparisons[s->ncomparisons++] = cmp;
            rc = chrono_report_comparison(&p->chrono__console, &s->comparisons[s->ncomparisons - 1]);
        }
        return rc;
    }
    }
    return CHRONO_EINVAL;
}

CHRONO__PRIVATE int chrono__run_processes(chrono_program *p, const chrono_entry *entries, size_t n, int nproc)
{
    chrono__child_out *outs;
    char name[2 * CHRONO_NAME_MAX + 8];
    double timeout_s;
    size_t i, first = n, *order;
    int k, ok = 0, rc = 0, failed = 0;
    if (!p->chrono__open || p->chrono__child) return CHRONO_EINVAL;
    if ((rc = chrono__program_baseline(p, entries, n, &first)) < 0) return chrono__program_fail(p, rc);
#if !(CHRONO__OS_LINUX || CHRONO__OS_POSIX)
    if (nproc > 0) {   /* Windows: CreateProcess and a pipe handle would do it; not written yet */
        fprintf(stderr, "%s: --processes: running benchmarks in separate processes is not supported on this platform yet\n",
                p->cli.prog);
        p->status = 1;
        return CHRONO_ENOTSUP;
    }
#endif
    if (!p->chrono__parent_argv) {
        fprintf(stderr, "%s: --processes: the program's argv is unknown (chrono_program_begin was not given it)\n", p->cli.prog);
        p->status = 1;
        return CHRONO_EINVAL;
    }
    if (!(outs = (chrono__child_out *)CHRONO_MALLOC((size_t)nproc * sizeof *outs))) return CHRONO_ENOMEM;
    memset(outs, 0, (size_t)nproc * sizeof *outs);
    timeout_s = chrono__child_timeout(p, entries, n);
    for (k = 0; k < nproc; k++) {
        if (!p->cli.list && CHRONO__ISATTY(stderr)) { fprintf(stderr, "\r\033[K  process %d of %d ...", k + 1, nproc); fflush(stderr); }
        chrono__child_run(p, k, timeout_s, &outs[k]);
        if (CHRONO__ISATTY(stderr)) { fputs("\r\033[K", stderr); fflush(stderr); }
        if (outs[k].why[0] && !outs[k].complete) {
            fprintf(stderr, "%s: process %d of %d (pid %ld) %s; %s\n", p->cli.prog, k + 1, nproc, outs[k].pid,
                    outs[k].why, "the other processes' results are kept");
            failed++;
        } else {
            if (outs[k].why[0]) fprintf(stderr, "%s: process %d of %d (pid %ld): %s\n", p->cli.prog, k + 1, nproc, outs[k].pid, outs[k].why);
            ok++;
        }
    }
    order = chrono__run_order(p, n, first);   /* pooled and printed with the baseline first */
    for (i = 0; i < n; i++) {
        const chrono_entry *e = &entries[order ? order[i] : i];
        int rr;
        if (!chrono__entry_ok(e) || !chrono_cli_want(&p->cli, chrono__entry_name(name, sizeof name, e))) continue;
        rr = chrono__pool_entry(p, e, outs, nproc);
        if (rr < 0) {
            fprintf(stderr, "%s: %s failed: %s\n", p->cli.prog, chrono__entry_name(name, sizeof name, e),
                    rr == CHRONO_ENOSAMPLES ? "no process handed back its result" : chrono_strerror(rr));
            p->failed++;
        }
    }
    CHRONO_FREE(order);
    fflush(stdout);
    {   /* the "processes" table: one row per child, how it ended */
        static const char *const cols[5] = { "process", "pid", "results", "status", "order seed" };
        size_t rows = (size_t)nproc, cell = 160;   /* a row for every process, however many */
        char *cells = (char *)CHRONO_MALLOC(rows * 5 * cell);
        const char **ptrs = (const char **)CHRONO_MALLOC(rows * 5 * sizeof *ptrs);
        if (!cells || !ptrs) {
            CHRONO_FREE(cells); CHRONO_FREE(ptrs);
            fprintf(stderr, "%s: out of memory for the processes table (%d processes)\n", p->cli.prog, nproc);
        } else {
            chrono_table t;
            CHRONO_FREE(p->chrono__proc_cells);
            CHRONO_FREE(p->chrono__proc_ptrs);
            p->chrono__proc_cells = cells;
            p->chrono__proc_ptrs = ptrs;
            for (i = 0; i < rows; i++) {
                char *c0 = cells + (5 * i) * cell;
                (void)chrono__bprintf(c0, cell, "%d", (int)i + 1);
                (void)chrono__bprintf(c0 + cell, cell, "%ld", outs[i].pid);
                (void)chrono__u64(c0 + 2 * cell, (uint64_t)(outs[i].nr + outs[i].nc));
                (void)chrono__bprintf(c0 + 3 * cell, cell, "%s", outs[i].why[0] ? outs[i].why : "ok");
                {
                    uint64_t seed = chrono__child_seed(p->cfg.seed, (int)i);
                    chrono__hex_put(c0 + 4 * cell, &seed, sizeof seed);   /* its bytes, in hex */
                    c0[4 * cell + 2 * sizeof seed] = '\0';
                }
                for (k = 0; k < 5; k++) ptrs[5 * i + (size_t)k] = c0 + (size_t)k * cell;
            }
            memset(&t, 0, sizeof t);
            t.key = "processes";
            t.title = failed ? "processes (some failed: their results are missing from the pooled figures)" : "processes";
            t.ncols = 5; t.nrows = rows; t.cols = cols; t.cells = ptrs;
            (void)chrono_program_table(p, &t);
        }
    }
    for (k = 0; k < nproc; k++) chrono__child_free(&outs[k]);
    CHRONO_FREE(outs);
    if (failed || p->failed) p->status = p->status ? p->status : 1;
    (void)ok;
    return rc;
}

/* Start the console report (once): text beside a file, else the chosen
   format (to stdout); its name column fits the names to come. */
CHRONO__PRIVATE int chrono__console_begin(chrono_program *p, const chrono_entry *entries, size_t n)
{
    chrono_report_options ro;
    size_t i;
    int rc, width = 4;
    if (!p->chrono__open || p->chrono__console.session) return 0;
    memset(&ro, 0, sizeof ro);
    for (i = 0; i < n; i++) {
        if (entries[i].name && (int)strlen(entries[i].name) + 8 > width) width = (int)strlen(entries[i].name) + 8;
        if (entries[i].name_b && (int)strlen(entries[i].name_b) > width) width = (int)strlen(entries[i].name_b);
    }
    ro.name_width = width;
    ro.executable = p->cli.prog;
    ro.baseline = p->cli.baseline;
    rc = chrono_report_begin(&p->chrono__console, &p->session, chrono__console_stream(p), chrono__console_format(p), &ro);
    return rc < 0 ? chrono__program_fail(p, rc) : 0;
}

/* Count this call of chrono_program_run / _run_processes; 1 when a child
   skips it (it runs another call's entries). */
CHRONO__PRIVATE int chrono__call_skipped(chrono_program *p)
{
    int call = p->chrono__call++;
    return p->chrono__child && p->chrono__child_call >= 0 && call != p->chrono__child_call;
}

/* The entries the flags select, counted for the end's "--filter selected
   nothing" (before anything runs or prints); 1 when none is selected so far
   (nothing to print yet), else 0. */
CHRONO__PRIVATE int chrono__count_selected(chrono_program *p, const chrono_entry *entries, size_t n)
{
    size_t i, selected = 0;
    for (i = 0; i < n; i++) selected += (size_t)chrono__entry_selected(p, &entries[i]);
    p->chrono__wanted += selected;
    return p->cli.filter && !p->chrono__wanted && !p->chrono__child;
}

/* chrono_program_run, the call counted already. */
CHRONO__PRIVATE int chrono__program_run(chrono_program *p, const chrono_entry *entries, size_t n)
{
    size_t i, j, *order, first = n;
    int bad = 0, rc, none;
    char buf[2 * CHRONO_NAME_MAX + 8];
    if (p->status == 2 || (!p->chrono__open && !p->cli.list)) return CHRONO_EINVAL;
    /* the flags checked against the table before anything runs or prints */
    none = chrono__count_selected(p, entries, n);
    if ((rc = chrono__program_baseline(p, entries, n, &first)) < 0) return chrono__program_fail(p, rc);
    if (none) return 0;   /* no header over an empty table (the end says why) */
    if ((rc = chrono__console_begin(p, entries, n)) < 0) return rc;
    if (!p->chrono__child && p->cli.processes > 1 && !p->cli.list)
        return chrono__run_processes(p, entries, n, p->cli.processes);
    order = chrono__run_order(p, n, first);
    for (j = 0; j < n; j++) {
        const chrono_entry *e;
        const char *name;
        i = order ? order[j] : j;
        e = &entries[i];
        if (!chrono__entry_ok(e)) {
            fprintf(stderr, "%s: entry %zu (%s): malformed (a NULL name, body or parameter list)\n", p->cli.prog, i,
                    e->name ? e->name : "no name");
            p->failed++; bad = 1;
            continue;
        }
        name = chrono__entry_name(buf, sizeof buf, e);   /* a run's own name, or "a vs b" in buf */
        if (!chrono_cli_want(&p->cli, name)) continue;
        chrono__progress(p, name);
        rc = chrono__run_entry(p, e);
        chrono__progress(p, NULL);
        if (rc < 0) {
            fprintf(stderr, "%s: %s failed: %s\n", p->cli.prog, name, chrono_strerror(rc));
            p->failed++;
        }
    }
    CHRONO_FREE(order);
    if (p->failed && p->status == 0) p->status = 1;
    return bad ? CHRONO_EINVAL : 0;
}

CHRONO_API int chrono_program_run(chrono_program *p, const chrono_entry *entries, size_t n)
{
    if (!p || (n && !entries)) return CHRONO_EINVAL;
    if (chrono__call_skipped(p)) return 0;
    return chrono__program_run(p, entries, n);
}

CHRONO_API int chrono_program_run_processes(chrono_program *p, const chrono_entry *entries, size_t n, int nproc)
{
    int rc;
    if (!p || (n && !entries) || nproc < 1 || nproc > 1000) return CHRONO_EINVAL;
    if (chrono__call_skipped(p)) return 0;
    if (p->chrono__child) return chrono__program_run(p, entries, n);   /* the call that started this child: here */
    if (!p->chrono__open || p->status == 2) return CHRONO_EINVAL;
    if (chrono__count_selected(p, entries, n)) return 0;   /* run_processes checks the baseline */
    if ((rc = chrono__console_begin(p, entries, n)) < 0) return rc;
    return chrono__run_processes(p, entries, n, nproc);
}

CHRONO_API int chrono_program_child(const chrono_program *p)
{
    return p ? p->chrono__child : 0;
}

CHRONO_API int chrono_program_table(chrono_program *p, const chrono_table *t)
{
    if (!p || !t || !t->key || !t->cols || !t->ncols || (t->nrows && !t->cells)) return CHRONO_EINVAL;
    if (p->chrono__ntables == CHRONO_PROGRAM_TABLES_MAX) return CHRONO_ERANGE;
    if (p->cli.list) return 0;
    p->chrono__tables[p->chrono__ntables++] = *t;
    /* shown now on a text console; other formats carry it at the end */
    if (p->chrono__open && chrono__console_format(p) == CHRONO_FORMAT_TEXT) return chrono_report_table(chrono__console_stream(p), CHRONO_FORMAT_TEXT, t);
    return 0;
}

CHRONO_API const chrono_result *chrono_program_find(const chrono_program *p, const char *name)
{
    size_t i;
    if (!p || !name || !p->chrono__open) return NULL;
    for (i = p->session.nresults; i-- > 0;)
        if (!strcmp(p->session.results[i].name, name)) return &p->session.results[i];
    return NULL;
}

CHRONO_API const chrono_comparison *chrono_program_compared(const chrono_program *p, const char *name_a)
{
    size_t i;
    if (!p || !name_a || !p->chrono__open) return NULL;
    for (i = p->session.ncomparisons; i-- > 0;)
        if (!strcmp(p->session.comparisons[i].a.name, name_a)) return &p->session.comparisons[i];
    return NULL;
}

CHRONO_API void chrono_program_note(const chrono_program *p, const char *fmt, ...)
{
    va_list ap;
    FILE *f;
    if (!p || !fmt || p->cli.list) return;
    /* text on stdout unless stdout carries another format (no --out) */
    f = p->cli.format == CHRONO_FORMAT_TEXT || (p->cli.out_path && strcmp(p->cli.out_path, "-") != 0) ? stdout : stderr;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fflush(f);
}

/* The report beside the console: the --out file in its format, or the HTML page on stdout. */
CHRONO__PRIVATE int chrono__program_report(chrono_program *p)
{
    chrono_report_options ro;
    FILE *f = p->chrono__file ? p->chrono__file : stdout;
    chrono_format fmt = p->chrono__file ? p->chrono__file_fmt : CHRONO_FORMAT_HTML;
    memset(&ro, 0, sizeof ro);
    ro.executable = p->cli.prog;
    ro.baseline = p->cli.baseline;
    ro.tables = p->chrono__tables;
    ro.ntables = p->chrono__ntables;
    return fmt == CHRONO_FORMAT_HTML ? chrono_report_html(&p->session, f, &ro) : chrono_report_ex(&p->session, f, fmt, &ro);
}

CHRONO_API int chrono_program_finish(chrono_program *p)
{
    int rc = 0;
    if (!p) return CHRONO_EINVAL;
    if (p->chrono__reported || !p->chrono__open) return 0;
    (void)chrono__program_filter_check(p);   /* --filter that selected nothing: exit 2, no report */
    if (p->status == 2) { p->chrono__reported = 1; return 0; }   /* a flag was refused: no report */
    if (!p->chrono__console.session) (void)chrono__console_begin(p, NULL, 0);   /* nothing ran */
    {
        chrono_report_writer *w = &p->chrono__console;
        /* the console's tables were printed as they came (text) */
        if (w->fmt != CHRONO_FORMAT_TEXT) { w->tables = p->chrono__tables; w->ntables = p->chrono__ntables; }
        rc = chrono_report_end(w);
        if (p->chrono__child) rc = chrono__child_report(p);   /* a child of --processes: its results to the parent */
        else if (rc == 0 && (p->chrono__file || chrono__program_html_stdout(p))) {
            errno = 0;
            rc = chrono__program_report(p);
            if (rc == CHRONO_EIO && p->chrono__file) p->chrono__file_errno = errno ? errno : EIO;
        }
    }
    if (p->chrono__file) {
        errno = 0;
        if (fclose(p->chrono__file) != 0) {
            if (!p->chrono__file_errno) p->chrono__file_errno = errno ? errno : EIO;
            if (rc == 0) rc = CHRONO_EIO;
        }
        p->chrono__file = NULL;
    }
    p->chrono__reported = 1;
    return rc;
}

CHRONO_API int chrono_program_end(chrono_program *p)
{
    int rc;
    if (!p) return 2;
    if (p->cli.list && !p->chrono__child) (void)chrono__program_filter_check(p);   /* --list --filter=nomatch */
    rc = chrono_program_finish(p);
    if (p->chrono__open) {
        chrono_session_close(&p->session);
        p->chrono__open = 0;
    }
    if (p->chrono__file) {   /* --list: opened, never written */
        fclose(p->chrono__file);
        p->chrono__file = NULL;
    }
    if (rc < 0 && p->chrono__file_errno) {   /* the file, named: /dev/full, a full disk */
        fprintf(stderr, "%s: --out: the report could not be written to '%s': %s\n", p->cli.prog ? p->cli.prog : "chronoscope",
                p->cli.out_path ? p->cli.out_path : "?", strerror(p->chrono__file_errno));
        if (p->status == 0) p->status = 1;
    } else if (rc < 0) {
        fprintf(stderr, "%s: the report could not be written to standard output: %s\n", p->cli.prog ? p->cli.prog : "chronoscope",
                chrono_strerror(rc));
        if (p->status == 0) p->status = 1;
    }
    if (fflush(stdout) != 0 && p->status == 0) p->status = 1;
    chrono_cli_close(&p->cli);   /* the compiled --filter patterns */
    CHRONO_FREE(p->chrono__argv);
    CHRONO_FREE(p->chrono__proc_cells);
    CHRONO_FREE(p->chrono__proc_ptrs);
    p->chrono__argv = NULL; p->chrono__proc_cells = NULL; p->chrono__proc_ptrs = NULL;
    return p->status;
}

CHRONO_API int chrono_main_at(int argc, char **argv, const chrono_entry *entries, size_t n, unsigned long caller)
{
    chrono_program p;
    if (chrono_program_begin_at(&p, argc, argv, NULL, 0, caller) == 1) (void)chrono_program_run(&p, entries, n);
    return chrono_program_end(&p);
}

/* ---- benchmark modules ------------------------------------------------------------------- */
CHRONO_API int chrono_module_check(const chrono_module *m, char *why, size_t n)
{
    char tmp[8];
    if (!why || !n) { why = tmp; n = sizeof tmp; }
    why[0] = '\0';
    if (!m || m->magic != CHRONO_MODULE_MAGIC) {
        (void)chrono__bprintf(why, n, "its %s symbol is not a chronoscope module descriptor", CHRONO_MODULE_SYMBOL);
        return CHRONO_EINVAL;
    }
    if (m->version != (unsigned long)CHRONO_VERSION_NUM) {
        char theirs[24];
        chrono__str_copy(theirs, sizeof theirs, m->version_string ? m->version_string : "?");
        (void)chrono__bprintf(why, n, "built with chronoscope %s (version %lu), this program with %s (%lu): rebuild it",
                              theirs, m->version, CHRONO_VERSION_STRING, (unsigned long)CHRONO_VERSION_NUM);
        return CHRONO_EVERSION;
    }
    if (m->entry_size != (unsigned long)sizeof(chrono_entry) || !m->table) {
        (void)chrono__bprintf(why, n, "its program table's layout differs (entries of %lu bytes, here %lu)",
                              m->entry_size, (unsigned long)sizeof(chrono_entry));
        return CHRONO_EVERSION;
    }
    return 0;
}

CHRONO_API const char *chrono_change_name(chrono_change change)
{
    switch (change) {
    case CHRONO_CHANGE_NONE:         return "no clear difference";
    case CHRONO_CHANGE_FASTER:       return "faster";
    case CHRONO_CHANGE_SLOWER:       return "slower";
    case CHRONO_CHANGE_INCONCLUSIVE: return "inconclusive";
    }
    return "?";
}

/* "+2.3%" / "-1.0%": head/base as a change in percent. */
CHRONO__PRIVATE const char *chrono__pct(char *buf, size_t n, double ratio)
{
    return chrono__num(buf, n, "%+.1f%%", (ratio - 1) * 100);
}

CHRONO_API int chrono_change_decide(const chrono_comparison *c, double threshold, double confidence,
                                    chrono_change_verdict *out)
{
    char r[24], lo[24], hi[24], t[24];
    double up, down;
    int short_level;
    if (!out) return CHRONO_EINVAL;
    memset(out, 0, sizeof *out);
    out->ratio = out->ci_low = out->ci_high = out->cycles_ratio = NAN;
    if (!c || !(threshold >= 0 && threshold <= 10)) return CHRONO_EINVAL;
    if (!(confidence > 0 && confidence < 1)) confidence = 0.95;
    up = 1 + threshold;
    down = 1 - threshold;
    out->ratio = c->ratio > 0 ? 1 / c->ratio : NAN;
    out->ci_low = c->ci_high > 0 ? 1 / c->ci_high : NAN;
    out->ci_high = c->ci_low > 0 ? 1 / c->ci_low : NAN;
    out->cycles_ratio = c->cycles_ratio > 0 ? 1 / c->cycles_ratio : NAN;
    (void)chrono__pct(r, sizeof r, out->ratio);
    (void)chrono__pct(lo, sizeof lo, out->ci_low);
    (void)chrono__pct(hi, sizeof hi, out->ci_high);
    (void)chrono__num(t, sizeof t, "%.3g%%", threshold * 100);
    short_level = chrono_stats_level_short(c->ci_level, confidence);
    if (!chrono__finite(out->ratio) || !chrono__finite(out->ci_low) || !chrono__finite(out->ci_high) || short_level == 2) {
        out->change = CHRONO_CHANGE_INCONCLUSIVE;
        (void)chrono__bprintf(out->why, sizeof out->why, "no interval (too few pairs or processes)");
    } else if (short_level) {
        out->change = CHRONO_CHANGE_INCONCLUSIVE;
        (void)chrono__bprintf(out->why, sizeof out->why, "the interval's level is %.0f%%, not %.0f%% (too few processes)",
                              c->ci_level * 100, confidence * 100);
    } else if (out->ci_low > 1 && out->ratio > up) {
        out->change = CHRONO_CHANGE_SLOWER;
        (void)chrono__bprintf(out->why, sizeof out->why, "%s [%s, %s]: above 1 and beyond the %s threshold", r, lo, hi, t);
    } else if (out->ci_high < 1 && out->ratio < down) {
        out->change = CHRONO_CHANGE_FASTER;
        (void)chrono__bprintf(out->why, sizeof out->why, "%s [%s, %s]: below 1 and beyond the %s threshold", r, lo, hi, t);
    } else if (out->ci_high > up || out->ci_low < down) {
        out->change = CHRONO_CHANGE_INCONCLUSIVE;
        (void)chrono__bprintf(out->why, sizeof out->why, "%s [%s, %s]: too wide to tell a change beyond %s from none",
                              r, lo, hi, t);
    } else {
        out->change = CHRONO_CHANGE_NONE;
        (void)chrono__bprintf(out->why, sizeof out->why, out->ci_low > 1 || out->ci_high < 1
                              ? "%s [%s, %s]: a change within the %s threshold" : "%s [%s, %s]: holds 1, within %s",
                              r, lo, hi, t);
    }
    return 0;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_PROGRAM_IMPL */

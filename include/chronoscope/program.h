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

   An entry that fails is reported on stderr with its name and the reason, the
   others still run, and the exit status is 1.

   Named baselines (baseline.h): --save=NAME writes the run's JSON report
   under NAME once it is reported (.chronoscope/NAME.json, or the path NAME);
   --compare=NAME [--fail-above=PCT] compares each result with the entry of
   the same name in it, a "baseline" table with a verdict a row in every
   format, each slower entry named on stderr: exit 1 when one is slower, 2
   when the baseline is missing, malformed or shares no entry (the file
   named).  The table says what it cannot see: a baseline is a separate run;
   the drift a calibration body sees is taken out (baseline.h), any other
   drift of the machine since is in its ratios.

   The entries (chrono_bench, chrono_versus, chrono_sweep_entry,
   chrono_product_entry and the chrono_with_* modifiers) are entry.h's.

   Functions:
     chrono_program_run_processes(p, e, n, nproc)  the entries in nproc fresh processes, pooled (--processes)
     chrono_program_child(p)                       0, or in a child of those processes its number (from 1)
     chrono_main(argc, argv, entries, n)           the whole program (a macro)
     chrono_program_begin / _run / _table / _end   the same in steps
     chrono_program_finish(p)                      the report written, the session still open
     chrono_program_find(p, name)                  a result by name, NULL if none
     chrono_program_compared(p, name_a)            a comparison by A's name, NULL if none
     chrono_program_note(p, fmt, ...)              a line of the program's own on the console

   Registration without a table (CHRONO_BENCHMARK, CHRONO_MAIN) is in
   registry.h, benchmark modules for chronoscope-ab (CHRONO_MODULE) and its
   change rule in module.h. */
#ifndef CHRONOSCOPE_PROGRAM_H
#define CHRONOSCOPE_PROGRAM_H

#include "entry.h"
#include "processes.h"
#include "baseline.h"

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
    double process_timeout_s;    /* --processes: a child still running after this is killed; 0: from
                                    the entries */
    int chrono__child;           /* in a child of --processes: its index + 1, else 0 */
    int chrono__child_fd;        /* where it hands its results back (processes.h) */
    int chrono__call;            /* calls of chrono_program_run / _run_processes so far */
    int chrono__child_call;      /* in a child: the call whose entries it runs (the others are
                                    skipped), -1 all */
    char **chrono__argv;         /* argv with the private flag taken out (children), else NULL */
    char **chrono__parent_argv;  /* the argv children are started with */
    int chrono__parent_argc;
    /* "processes" tables, freed at the end */
    chrono_table_builder chrono__proc_tables[CHRONO_PROGRAM_TABLES_MAX];
    size_t chrono__nproc_tables;
    size_t chrono__wanted;       /* entries --filter selected, over every chrono_program_run */
    int chrono__file_errno;      /* why writing the --out file failed (errno), 0: it did not */
    chrono_table_builder chrono__baseline;   /* --compare's "baseline" table, freed at the end */
} chrono_program;

CHRONO__EXTERN_C_BEGIN

/* Parse the flags (the program's own in flags[0..nflags)), print --help or
   --version, open --out and, unless --list, the session.  1: go on and run;
   0: nothing to run (help, version); CHRONO_EINVAL: bad flags (printed; the
   exit status is 2); another negative code: the session could not open. */
CHRONO_API int chrono_program_begin_at(chrono_program *p, int argc, char **argv,
                                       const chrono_cli_flag *flags, size_t nflags,
                                       unsigned long caller);
#define chrono_program_begin(p, argc, argv, flags, nflags) \
    chrono_program_begin_at((p), (argc), (argv), (flags), (nflags), CHRONO__CALLER)

/* Run (or, under --list, name) the entries --filter selects, printing each
   text row as it finishes.  0, or CHRONO_EINVAL for a malformed entry (the
   others still run); failures are counted in p->failed. */
CHRONO_API int chrono_program_run(chrono_program *p, const chrono_entry *entries, size_t n);

/* Print a table of the program's own now and keep it for the --out file.
   The table and its strings must live until chrono_program_end. */
CHRONO_API int chrono_program_table(chrono_program *p, const chrono_table *t);

/* Run the entries in nproc fresh processes, one after another (processes.h):
   the program re-executes itself with a private flag; each child runs the
   entries in its own shuffled order (seeded from .seed and its index) and
   hands its results back, its samples included; the results are pooled per
   benchmark, the processes the units of variation (processes.h says how).
   A child that crashes, exits non-zero or runs past .process_timeout_s is
   named on stderr and in a "processes" table of the report (a row for every
   process); the others' results are kept.
   chrono_program_run does this when --processes=N (N > 1) was given.  0, or
   CHRONO_ENOTSUP (Windows: not yet), CHRONO_EINVAL, CHRONO_ENOMEM.
   A program may mix the two: some entries here (chrono_program_run), others
   pooled.  A child runs the program again from main with the same flags, and
   the calls of chrono_program_run and chrono_program_run_processes are
   counted alike in both: a child runs the entries of the call that started
   it, here, and skips the other calls. */
CHRONO_API int chrono_program_run_processes(chrono_program *p, const chrono_entry *entries,
                                            size_t n, int nproc);

/* 0 in the program the user started; in a child of --processes (or of
   chrono_program_run_processes) its number, from 1.  Work whose results do
   not travel back to the parent (the session's results do) is wasted there:
   a program skips it in a child. */
CHRONO_API int chrono_program_child(const chrono_program *p);

/* The result named `name` (the last one), NULL if none. */
CHRONO_API const chrono_result *chrono_program_find(const chrono_program *p, const char *name);

/* The comparison whose A side is named `name_a` (the last one), NULL if none. */
CHRONO_API const chrono_comparison *chrono_program_compared(const chrono_program *p,
                                                            const char *name_a);

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

CHRONO_API int chrono_main_at(int argc, char **argv, const chrono_entry *entries, size_t n,
                              unsigned long caller);
#define chrono_main(argc, argv, entries, n) \
    chrono_main_at((argc), (argv), (entries), (n), CHRONO__CALLER)
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_PROGRAM_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_PROGRAM_IMPL)
#define CHRONOSCOPE_PROGRAM_IMPL


CHRONO__EXTERN_C_BEGIN


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

/* ---- runs across processes (processes.h) ---------------------------------------------- */

/* A child of --processes: its private flag taken out of argv (a copy, freed
   at the end); a malformed one is bad input (exit 2), named. */
CHRONO__PRIVATE int chrono__child_args(chrono_program *p, int *argc, char ***argv)
{
    chrono_child_flag f;
    int rc = chrono_processes_child_args(argc, argv, &f, &p->chrono__argv);
    if (rc == CHRONO_EINVAL) {
        p->cli.prog = *argc > 0 && *argv ? (*argv)[0] : NULL;
        (void)chrono_cli_reject(&p->cli, CHRONO_PROCESSES_FLAG,
                                f.text ? f.text + strlen(CHRONO_PROCESSES_FLAG) : "",
                                "is not K:FD:CALL (the private flag of a child of --processes)");
    }
    if (rc < 0) return rc;
    p->chrono__child = f.index;
    p->chrono__child_fd = f.fd;
    p->chrono__child_call = f.call;
    return 0;
}

CHRONO_API int chrono_program_begin_at(chrono_program *p, int argc, char **argv,
                                       const chrono_cli_flag *flags, size_t nflags,
                                       unsigned long caller)
{
    int rc;
    if (!p) return CHRONO_EINVAL;
    memset(p, 0, sizeof *p);
    p->cfg = chrono_config_default();
    p->chrono__parent_argv = argv;
    p->chrono__parent_argc = argc;
    if ((rc = chrono__child_args(p, &argc, &argv)) < 0) return chrono__program_fail(p, rc);
    if ((rc = chrono_cli_parse_ex(&p->cfg, &p->cli, argc, argv, flags, nflags)) < 0)
        return chrono__program_fail(p, rc);
    if (chrono_cli_handle_info(&p->cli, p->cli.prog)) return 0;
    if (p->cli.out_path && strcmp(p->cli.out_path, "-") != 0 && !p->cli.list && !p->chrono__child) {
        p->chrono__file = fopen(p->cli.out_path, "wb");
        if (!p->chrono__file) {
            fprintf(stderr, "%s: --out: cannot write '%s': %s\n", p->cli.prog, p->cli.out_path,
                    strerror(errno));
            p->status = 2;
            return CHRONO_EINVAL;
        }
        p->chrono__file_fmt = p->cli.out_format;   /* --format, else the extension's (cli.h) */
    }
    if (p->cli.list) return 1;
    if ((rc = chrono_session_open_at(&p->session, &p->cfg, caller)) < 0)
        return chrono__program_fail(p, rc);
    p->chrono__open = 1;
    return 1;
}

/* The hooks of chrono_entry_run: --filter picks a product's points, each
   row is printed on the console as it finishes. */
CHRONO__PRIVATE int chrono__hook_want(void *ctx, const char *name)
{
    return chrono_cli_match(&((chrono_program *)ctx)->cli, name);
}

/* The same, each name it takes printed (--list: chrono_cli_want). */
CHRONO__PRIVATE int chrono__hook_list(void *ctx, const char *name)
{
    return chrono_cli_want(&((chrono_program *)ctx)->cli, name);
}

CHRONO__PRIVATE int chrono__hook_result(void *ctx, const chrono_result *r)
{
    return chrono_report_result(&((chrono_program *)ctx)->chrono__console, r);
}

CHRONO__PRIVATE int chrono__hook_comparison(void *ctx, const chrono_comparison *c)
{
    return chrono_report_comparison(&((chrono_program *)ctx)->chrono__console, c);
}

CHRONO__PRIVATE chrono_entry_hooks chrono__program_hooks(chrono_program *p)
{
    chrono_entry_hooks h;
    h.ctx = p;
    h.want = chrono__hook_want;
    h.result = chrono__hook_result;
    h.comparison = chrono__hook_comparison;
    h.threads = p->cli.threads;
    return h;
}

CHRONO__PRIVATE int chrono__run_entry(chrono_program *p, const chrono_entry *e)
{
    chrono_entry_hooks h = chrono__program_hooks(p);
    int rc = chrono_entry_run(&p->session, e, &h);
    fflush(stdout);
    return rc;
}

/* 1 when --filter selects the entry (its name, or "a vs b"). */
CHRONO__PRIVATE int chrono__entry_selected(const chrono_program *p, const chrono_entry *e)
{
    /* want: chrono_cli_match, no print */
    chrono_entry_hooks h = chrono__program_hooks((chrono_program *)p);
    return chrono_entry_wants(e, &h);
}

/* 1 when the session already holds a result called `name` (a run, a sweep's point, a comparison's side). */
CHRONO__PRIVATE int chrono__program_has(const chrono_program *p, const char *name)
{
    size_t i;
    if (chrono_program_find(p, name)) return 1;
    for (i = 0; i < p->session.ncomparisons; i++)
        if (!strcmp(p->session.comparisons[i].a.name, name) ||
            !strcmp(p->session.comparisons[i].b.name, name))
            return 1;
    return 0;
}

/* --baseline against the entries, before any of them runs: *first is the
   entry that measures it (it runs first, so that every row printed after it
   can show its ratio), n when none needs to (no --baseline, or it ran in an
   earlier chrono_program_run).  CHRONO_EINVAL, with .error, when no entry
   that --filter selects measures it. */
CHRONO__PRIVATE int chrono__program_baseline(chrono_program *p, const chrono_entry *entries,
                                             size_t n, size_t *first)
{
    const char *b = p->cli.baseline;
    size_t i;
    *first = n;
    /* a child runs one call's entries and prints nothing: its parent checks */
    if (!b || p->cli.list || p->chrono__child || (p->chrono__open && chrono__program_has(p, b)))
        return 0;
    for (i = 0; i < n; i++) {
        char what[160], q[52];
        size_t k;
        if (!chrono_entry_makes(&entries[i], b)) continue;
        if (chrono__entry_selected(p, &entries[i])) { *first = i; return 0; }
        for (k = 0; p->cli.filter[k] && k < 48; k++) q[k] = p->cli.filter[k];
        q[k] = '\0';
        (void)chrono__bprintf(what, sizeof what,
                              "is not among the benchmarks that --filter='%s' selects", q);
        return chrono_cli_reject(&p->cli, "--baseline", b, what);
    }
    return chrono_cli_reject(&p->cli, "--baseline", b,
                             "is not the name of a benchmark of this program (--list shows them)");
}

/* --threads=N with no entry of the table that takes it (chrono_with_threads(e,
   CHRONO_THREADS_CLI)): bad input (exit 2), not a flag silently ignored. */
CHRONO__PRIVATE int chrono__program_threads(chrono_program *p, const chrono_entry *entries,
                                            size_t n)
{
    char v[24];
    size_t i;
    if (p->cli.threads <= 0 || p->chrono__child) return 0;
    for (i = 0; i < n; i++)
        if (entries[i].threads == CHRONO_THREADS_CLI) return 0;
    (void)chrono__bprintf(v, sizeof v, "%d", p->cli.threads);
    return chrono_cli_reject(
        &p->cli, "--threads", v,
        "applies to threaded benchmarks, and this program has none (--list shows them)");
}

/* A --filter that selected no entry of any chrono_program_run: bad input
   (exit 2), said once. */
CHRONO__PRIVATE int chrono__program_filter_check(chrono_program *p)
{
    if (!p->cli.filter || p->chrono__wanted || p->status == 2 || p->chrono__child) return 0;
    (void)chrono_cli_reject(
        &p->cli, "--filter", p->cli.filter,
        p->cli.nfilters > 1
            ? "and the other --filter flags select no benchmark of this program (--list shows them)"
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
    if (p->chrono__child) {
        chrono_processes_order(p->cfg.seed, p->chrono__child - 1, order, n);
        return order;
    }
    for (a = 0; a < n; a++) order[a] = a;
    for (a = first; a > 0; a--) order[a] = a - 1;
    order[0] = first;
    return order;
}

/* On a terminal, "running NAME ..." on stderr while an entry runs, erased
   afterwards (name NULL): nothing reaches a redirected stderr. */
CHRONO__PRIVATE void chrono__progress(const chrono_program *p, const char *name)
{
    if (p->cli.list || !CHRONO__ISATTY(stderr)) return;
    if (name) fprintf(stderr, "\r\033[K  running %s ...", name);
    else fputs("\r\033[K", stderr);
    fflush(stderr);
}

/* Pool and print every entry the flags select, the baseline first. */
CHRONO__PRIVATE void chrono__pool_entries(chrono_program *p, const chrono_entry *entries, size_t n,
                                          size_t first, const chrono_processes *ps)
{
    char name[2 * CHRONO_NAME_MAX + 8];
    size_t i, *order = chrono__run_order(p, n, first);
    chrono_entry_hooks h = chrono__program_hooks(p);
    for (i = 0; i < n; i++) {
        const chrono_entry *e = &entries[order ? order[i] : i];
        int rc;
        if (!chrono_entry_ok(e) ||
            (e->kind == CHRONO_ENTRY_PRODUCT
                 ? !chrono__entry_selected(p, e)
                 : !chrono_cli_want(&p->cli, chrono_entry_name(name, sizeof name, e))))
            continue;
        if ((rc = chrono_processes_pool_entry(ps, &p->session, e, &h)) < 0) {
            fprintf(stderr, "%s: %s failed: %s\n", p->cli.prog,
                    chrono_entry_name(name, sizeof name, e),
                    rc == CHRONO_ENOSAMPLES ? "no process handed back its result"
                                            : chrono_strerror(rc));
            p->failed++;
        }
    }
    CHRONO_FREE(order);
    fflush(stdout);
}

/* The "processes" table, kept until the end: one row per child, how it ended. */
CHRONO__PRIVATE void chrono__processes_table(chrono_program *p, const chrono_processes *ps)
{
    chrono_table_builder *tb;
    /* chrono_program_table would refuse it */
    if (p->chrono__nproc_tables == CHRONO_PROGRAM_TABLES_MAX) return;
    tb = &p->chrono__proc_tables[p->chrono__nproc_tables];
    if (chrono_processes_table(ps, p->cfg.seed, tb) < 0) {
        fprintf(stderr, "%s: out of memory for the processes table (%d processes)\n", p->cli.prog,
                ps->n);
        chrono_table_free(tb);
        return;
    }
    p->chrono__nproc_tables++;
    (void)chrono_program_table(p, &tb->table);
}

CHRONO__PRIVATE int chrono__run_processes(chrono_program *p, const chrono_entry *entries, size_t n,
                                          int nproc)
{
    chrono_processes ps;
    size_t first = n;
    double limit = p->process_timeout_s > 0 ? p->process_timeout_s
                                            : chrono_processes_timeout(&p->cfg, entries, n);
    int rc;
    if (!p->chrono__open || p->chrono__child) return CHRONO_EINVAL;
    if ((rc = chrono__program_baseline(p, entries, n, &first)) < 0)
        return chrono__program_fail(p, rc);
    if (!p->chrono__parent_argv) {
        fprintf(stderr,
                "%s: --processes: the program's argv is unknown (chrono_program_begin was not "
                "given it)\n",
                p->cli.prog);
        p->status = 1;
        return CHRONO_EINVAL;
    }
    rc = chrono_processes_run(&ps, &p->session, p->chrono__parent_argc, p->chrono__parent_argv,
                              p->chrono__call - 1, nproc, limit, p->cli.prog);
    if (rc == CHRONO_ENOTSUP)
        fprintf(stderr,
                "%s: --processes: running benchmarks in separate processes is not supported on "
                "this platform yet\n",
                p->cli.prog);
    if (rc == 0) {
        chrono__pool_entries(p, entries, n, first, &ps);
        chrono__processes_table(p, &ps);
    }
    if (rc < 0 || ps.failed || p->failed) p->status = p->status ? p->status : 1;
    chrono_processes_free(&ps);
    return rc;
}

/* The counters the selected entries ask for themselves (chrono_with_counters)
   into the session's group before the header is streamed, so that its
   counters line names them too (opened outside any timed region; a run
   would add them anyway). */
CHRONO__PRIVATE void chrono__entries_counters(chrono_program *p, const chrono_entry *entries,
                                              size_t n)
{
    unsigned mask = 0;
    size_t i;
    for (i = 0; i < n; i++)
        if (entries[i].counters && chrono__entry_selected(p, &entries[i]))
            (void)chrono_counters_parse(entries[i].counters, &mask, NULL, 0);
    if (mask & ~p->session.counters.asked) (void)chrono_counters_add(&p->session.counters, mask);
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
    for (i = 0; i < n; i++)
        if (chrono_entry_width(&entries[i]) > width) width = chrono_entry_width(&entries[i]);
    ro.name_width = width;
    chrono__entries_counters(p, entries, n);
    ro.executable = p->cli.prog;
    ro.baseline = p->cli.baseline;
    rc = chrono_report_begin(&p->chrono__console, &p->session, chrono__console_stream(p),
                             chrono__console_format(p), &ro);
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
    chrono_entry_hooks list = chrono__program_hooks(p);
    list.want = chrono__hook_list;   /* a product's points: each name --filter takes printed under
                                        --list */
    if (p->status == 2 || (!p->chrono__open && !p->cli.list)) return CHRONO_EINVAL;
    /* the flags checked against the table before anything runs or prints */
    none = chrono__count_selected(p, entries, n);
    if ((rc = chrono__program_baseline(p, entries, n, &first)) < 0 ||
        (rc = chrono__program_threads(p, entries, n)) < 0)
        return chrono__program_fail(p, rc);
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
        if (!chrono_entry_ok(e)) {
            fprintf(stderr, "%s: entry %zu (%s): malformed (a NULL name, body or parameter list)\n",
                    p->cli.prog, i, e->name ? e->name : "no name");
            p->failed++; bad = 1;
            continue;
        }
        name = chrono_entry_name(buf, sizeof buf, e);   /* a run's own name, or "a vs b" in buf */
        if (e->kind == CHRONO_ENTRY_PRODUCT
                ? !chrono_entry_wants(e, &list) || p->cli.list || p->cli.help || p->cli.version
                : !chrono_cli_want(&p->cli, name))
            continue;   /* a product's points are named (--list) and selected one by one */
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

CHRONO_API int chrono_program_run_processes(chrono_program *p, const chrono_entry *entries,
                                            size_t n, int nproc)
{
    int rc;
    if (!p || (n && !entries) || nproc < 1 || nproc > 1000) return CHRONO_EINVAL;
    if (chrono__call_skipped(p)) return 0;
    /* the call that started this child: here */
    if (p->chrono__child) return chrono__program_run(p, entries, n);
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
    if (!p || !t || !t->key || !t->cols || !t->ncols || (t->nrows && !t->cells))
        return CHRONO_EINVAL;
    if (p->chrono__ntables == CHRONO_PROGRAM_TABLES_MAX) return CHRONO_ERANGE;
    if (p->cli.list) return 0;
    /* the header first */
    if (p->chrono__open && !p->chrono__console.session) (void)chrono__console_begin(p, NULL, 0);
    p->chrono__tables[p->chrono__ntables++] = *t;
    /* shown now on a text console; other formats carry it at the end */
    if (p->chrono__open && chrono__console_format(p) == CHRONO_FORMAT_TEXT)
        return chrono_report_table(chrono__console_stream(p), CHRONO_FORMAT_TEXT, t);
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

CHRONO_API const chrono_comparison *chrono_program_compared(const chrono_program *p,
                                                            const char *name_a)
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
    int text;
    if (!p || !fmt || p->cli.list) return;
    /* text on stdout unless stdout carries another format (no --out) */
    text = p->cli.format == CHRONO_FORMAT_TEXT;
    f = text || (p->cli.out_path && strcmp(p->cli.out_path, "-") != 0) ? stdout : stderr;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fflush(f);
}

/* --compare: the "baseline" table, each slower entry named; the status 1 or 2. */
CHRONO__PRIVATE void chrono__program_compare(chrono_program *p)
{
    static const char *const cols[] = { "entry",  "now",     "baseline", "now/baseline",
                                        "ci_low", "ci_high", "verdict",  "why" };
    chrono_table_builder *tb = &p->chrono__baseline;
    chrono_baseline_row *rows;
    char why[320], title[400];
    size_t n = 0, i, cap = p->session.nresults + 1;
    int rc;
    if (!(rows = (chrono_baseline_row *)CHRONO_MALLOC(cap * sizeof *rows))) {
        p->status = 1;
        return;
    }
    if ((rc = chrono_baseline_compare(&p->session, p->cli.compare, p->cli.fail_above, rows, cap, &n,
                                      why, sizeof why)) < 0) {
        fprintf(stderr, "%s: --compare: %s\n", p->cli.prog, why[0] ? why : chrono_strerror(rc));
        p->status = 2;
        CHRONO_FREE(rows);
        return;
    }
    (void)chrono_baseline_path(why, sizeof why, p->cli.compare);
    (void)chrono__bprintf(
        title, sizeof title,
        "Against the baseline %s (slower: now/baseline above %g with its interval above 1, "
        "--fail-above=%g%%).  A baseline is a separate run: the drift its calibration body sees "
        "is taken out, any other drift of the machine since is in these ratios (an interleaved "
        "A/B does not carry it)",
        why, 1 + p->cli.fail_above / 100, p->cli.fail_above);
    (void)chrono_table_init(tb, "baseline", title, cols, 8);
    for (i = 0; i < n; i++) {
        const chrono_baseline_row *r = &rows[i];
        (void)chrono_table_text(tb, r->name);
        (void)chrono_table_duration(tb, r->now_ns);
        (void)chrono_table_duration(tb, r->saved_ns);
        (void)chrono_table_number(tb, r->found ? r->v.ratio : NAN, "%.4f", NULL);
        (void)chrono_table_number(tb, r->found ? r->v.ci_low : NAN, "%.4f", NULL);
        (void)chrono_table_number(tb, r->found ? r->v.ci_high : NAN, "%.4f", NULL);
        (void)chrono_table_text(tb,
                                r->found ? chrono_change_name(r->v.change) : "not in the baseline");
        (void)chrono_table_text(tb, r->found ? r->v.why : "no verdict");
        if (r->found && r->v.change == CHRONO_CHANGE_SLOWER) {
            fprintf(stderr, "%s: --compare: %s is slower than in %s: %s\n", p->cli.prog, r->name,
                    why, r->v.why);
            if (p->status == 0) p->status = 1;
        }
    }
    if (!tb->error) (void)chrono_program_table(p, &tb->table);
    CHRONO_FREE(rows);
}

/* --save: the run under its name, once reported. */
CHRONO__PRIVATE void chrono__program_save(chrono_program *p)
{
    char why[320];
    if (chrono_baseline_save(&p->session, p->cli.save, why, sizeof why) < 0) {
        fprintf(stderr, "%s: --save: %s\n", p->cli.prog, why);
        if (p->status == 0) p->status = 1;
    }
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
    return chrono_report_write(&p->session, f, fmt, &ro);
}

CHRONO_API int chrono_program_finish(chrono_program *p)
{
    int rc = 0;
    if (!p) return CHRONO_EINVAL;
    if (p->chrono__reported || !p->chrono__open) return 0;
    (void)chrono__program_filter_check(p);   /* --filter that selected nothing: exit 2, no report */
    if (p->status == 2) { p->chrono__reported = 1; return 0; }   /* a flag was refused: no report */
    if (!p->chrono__console.session) (void)chrono__console_begin(p, NULL, 0);   /* nothing ran */
    if (p->cli.compare && !p->chrono__child) chrono__program_compare(p);
    {
        chrono_report_writer *w = &p->chrono__console;
        /* the console's tables were printed as they came (text) */
        if (w->fmt != CHRONO_FORMAT_TEXT) {
            w->tables = p->chrono__tables;
            w->ntables = p->chrono__ntables;
        }
        rc = chrono_report_end(w);
        /* a child of --processes: its results to the parent */
        if (p->chrono__child) rc = chrono_processes_hand_back(&p->session, p->chrono__child_fd);
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
    if (p->cli.save && !p->chrono__child && p->status != 2) chrono__program_save(p);
    p->chrono__reported = 1;
    return rc;
}

CHRONO_API int chrono_program_end(chrono_program *p)
{
    int rc;
    if (!p) return 2;
    /* --list --filter=nomatch */
    if (p->cli.list && !p->chrono__child) (void)chrono__program_filter_check(p);
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
        fprintf(stderr, "%s: --out: the report could not be written to '%s': %s\n",
                p->cli.prog ? p->cli.prog : "chronoscope", p->cli.out_path ? p->cli.out_path : "?",
                strerror(p->chrono__file_errno));
        if (p->status == 0) p->status = 1;
    } else if (rc < 0) {
        fprintf(stderr, "%s: the report could not be written to standard output: %s\n",
                p->cli.prog ? p->cli.prog : "chronoscope", chrono_strerror(rc));
        if (p->status == 0) p->status = 1;
    }
    if (fflush(stdout) != 0 && p->status == 0) p->status = 1;
    chrono_cli_close(&p->cli);   /* the compiled --filter patterns */
    CHRONO_FREE(p->chrono__argv);
    while (p->chrono__nproc_tables)
        chrono_table_free(&p->chrono__proc_tables[--p->chrono__nproc_tables]);
    chrono_table_free(&p->chrono__baseline);
    p->chrono__argv = NULL;
    return p->status;
}

CHRONO_API int chrono_main_at(int argc, char **argv, const chrono_entry *entries, size_t n,
                              unsigned long caller)
{
    chrono_program p;
    if (chrono_program_begin_at(&p, argc, argv, NULL, 0, caller) == 1)
        (void)chrono_program_run(&p, entries, n);
    return chrono_program_end(&p);
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_PROGRAM_IMPL */

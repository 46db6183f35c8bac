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
   names, or else the one its extension says (.json, .csv, .md); a --out that
   cannot be written is refused before the first benchmark runs.  Each text
   row is printed as its benchmark finishes.

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
     chrono_with_bytes / _items / _samples / _budget (entry, value)
     chrono_with_blocking(entry)                   the body blocks by design
     chrono_main(argc, argv, entries, n)           the whole program (a macro)
     chrono_program_begin / _run / _table / _end   the same in steps
     chrono_program_find(p, name)                  a result by name, NULL if none
     chrono_program_compared(p, name_a)            a comparison by A's name, NULL if none
     chrono_program_note(p, fmt, ...)              a line of the program's own on the console */
#ifndef CHRONOSCOPE_PROGRAM_H
#define CHRONOSCOPE_PROGRAM_H

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
    int samples;                 /* 0: the program's */
    double max_ms;               /* 0: the program's */
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
    chrono_report_writer chrono__console;
    FILE *chrono__file;
    chrono_format chrono__file_fmt;
    chrono_table chrono__tables[CHRONO_PROGRAM_TABLES_MAX];
    size_t chrono__ntables;
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

CHRONO_API int chrono_main_at(int argc, char **argv, const chrono_entry *entries, size_t n, unsigned long caller);
#define chrono_main(argc, argv, entries, n) chrono_main_at((argc), (argv), (entries), (n), CHRONO__CALLER)
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_PROGRAM_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_PROGRAM_IMPL)
#define CHRONOSCOPE_PROGRAM_IMPL

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
CHRONO_API chrono_entry chrono_with_budget(chrono_entry e, double max_ms) { e.max_ms = max_ms; return e; }
CHRONO_API chrono_entry chrono_with_blocking(chrono_entry e) { e.blocking = 1; return e; }

/* The file's format: --format when given other than text, else the extension. */
CHRONO__PRIVATE chrono_format chrono__out_format(const chrono_cli *cli)
{
    const char *dot = cli->out_path ? strrchr(cli->out_path, '.') : NULL;
    if (cli->format != CHRONO_FORMAT_TEXT || !dot) return cli->format;
    if (!strcmp(dot, ".json")) return CHRONO_FORMAT_JSON;
    if (!strcmp(dot, ".csv")) return CHRONO_FORMAT_CSV;
    if (!strcmp(dot, ".md")) return CHRONO_FORMAT_MARKDOWN;
    return CHRONO_FORMAT_TEXT;
}

CHRONO__PRIVATE int chrono__program_fail(chrono_program *p, int rc)
{
    if (rc == CHRONO_EINVAL) { p->status = chrono_cli_fail(&p->cli, p->cli.prog); return rc; }
    fprintf(stderr, "%s: %s\n", p->cli.prog ? p->cli.prog : "chronoscope", chrono_strerror(rc));
    p->status = 1;
    return rc;
}

CHRONO_API int chrono_program_begin_at(chrono_program *p, int argc, char **argv, const chrono_cli_flag *flags,
                                       size_t nflags, unsigned long caller)
{
    int rc;
    if (!p) return CHRONO_EINVAL;
    memset(p, 0, sizeof *p);
    p->cfg = chrono_config_default();
    if ((rc = chrono_cli_parse_ex(&p->cfg, &p->cli, argc, argv, flags, nflags)) < 0) return chrono__program_fail(p, rc);
    if (chrono_cli_handle_info(&p->cli, p->cli.prog)) return 0;
    if (p->cli.out_path && strcmp(p->cli.out_path, "-") != 0 && !p->cli.list) {
        p->chrono__file = fopen(p->cli.out_path, "wb");
        if (!p->chrono__file) {
            fprintf(stderr, "%s: --out: cannot write '%s': %s\n", p->cli.prog, p->cli.out_path, strerror(errno));
            p->status = 2;
            return CHRONO_EINVAL;
        }
        p->chrono__file_fmt = chrono__out_format(&p->cli);
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
    /* A blocking body is timed without core-cycle estimates: the reference
       chains around it bracket a sleep (another process's work, an idle
       CPU) and would disagree, rejecting the sample. */
    if (e->blocking) { s->cfg.blocking = 1; s->has_cycles = 0; }
    switch (e->kind) {
    case CHRONO_ENTRY_RUN:
        rc = chrono_run(s, e->name, e->fn, e->ctx, NULL);
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

CHRONO_API int chrono_program_run(chrono_program *p, const chrono_entry *entries, size_t n)
{
    size_t i;
    int bad = 0;
    char name[2 * CHRONO_NAME_MAX + 8];
    if (!p || (n && !entries)) return CHRONO_EINVAL;
    if (p->status == 2 || (!p->chrono__open && !p->cli.list)) return CHRONO_EINVAL;
    if (p->chrono__open && !p->chrono__console.session) {
        /* the console: text beside a file, else the chosen format (to
           stdout); its name column fits the names to come */
        chrono_report_options ro;
        int rc, width = 4;
        memset(&ro, 0, sizeof ro);
        for (i = 0; i < n; i++) {
            if (entries[i].name && (int)strlen(entries[i].name) + 8 > width) width = (int)strlen(entries[i].name) + 8;
            if (entries[i].name_b && (int)strlen(entries[i].name_b) > width) width = (int)strlen(entries[i].name_b);
        }
        ro.name_width = width;
        ro.executable = p->cli.prog;
        ro.baseline = p->cli.baseline;
        rc = chrono_report_begin(&p->chrono__console, &p->session, stdout,
                                 p->chrono__file ? CHRONO_FORMAT_TEXT : p->cli.format, &ro);
        if (rc < 0) return chrono__program_fail(p, rc);
    }
    for (i = 0; i < n; i++) {
        const chrono_entry *e = &entries[i];
        int rc;
        if (!chrono__entry_ok(e)) {
            fprintf(stderr, "%s: entry %zu (%s): malformed (a NULL name, body or parameter list)\n", p->cli.prog, i,
                    e->name ? e->name : "no name");
            p->failed++; bad = 1;
            continue;
        }
        if (!chrono_cli_want(&p->cli, chrono__entry_name(name, sizeof name, e))) continue;
        if ((rc = chrono__run_entry(p, e)) < 0) {
            fprintf(stderr, "%s: %s failed: %s\n", p->cli.prog, chrono__entry_name(name, sizeof name, e), chrono_strerror(rc));
            p->failed++;
        }
    }
    if (p->failed && p->status == 0) p->status = 1;
    return bad ? CHRONO_EINVAL : 0;
}

CHRONO_API int chrono_program_table(chrono_program *p, const chrono_table *t)
{
    if (!p || !t || !t->key || !t->cols || !t->ncols || (t->nrows && !t->cells)) return CHRONO_EINVAL;
    if (p->chrono__ntables == CHRONO_PROGRAM_TABLES_MAX) return CHRONO_ERANGE;
    if (p->cli.list) return 0;
    p->chrono__tables[p->chrono__ntables++] = *t;
    /* shown now on a text console (text beside a --out file, or --format
       text); other formats carry it at the end */
    if (p->chrono__open && (p->chrono__file || p->cli.format == CHRONO_FORMAT_TEXT))
        return chrono_report_table(stdout, CHRONO_FORMAT_TEXT, t);
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

CHRONO_API int chrono_program_end(chrono_program *p)
{
    int rc = 0;
    if (!p) return 2;
    if (p->chrono__open && p->status == 2) {   /* the program refused a flag of its own: no report */
        chrono_session_close(&p->session);
        p->chrono__open = 0;
    }
    if (p->chrono__open && !p->chrono__console.session) (void)chrono_program_run(p, NULL, 0);   /* nothing ran */
    if (p->chrono__open) {
        chrono_report_writer *w = &p->chrono__console;
        /* the console's tables were printed as they came (text) */
        if (w->fmt != CHRONO_FORMAT_TEXT) { w->tables = p->chrono__tables; w->ntables = p->chrono__ntables; }
        rc = chrono_report_end(w);
        if (rc == 0 && p->chrono__file) {
            chrono_report_options ro;
            memset(&ro, 0, sizeof ro);
            ro.executable = p->cli.prog;
            ro.baseline = p->cli.baseline;
            ro.tables = p->chrono__tables;
            ro.ntables = p->chrono__ntables;
            rc = chrono_report_ex(&p->session, p->chrono__file, p->chrono__file_fmt, &ro);
        }
        chrono_session_close(&p->session);
        p->chrono__open = 0;
    }
    if (p->chrono__file) {
        if (fclose(p->chrono__file) != 0 && rc == 0) rc = CHRONO_EIO;
        p->chrono__file = NULL;
    }
    if (rc < 0) {
        fprintf(stderr, "%s: the report could not be written: %s\n", p->cli.prog ? p->cli.prog : "chronoscope", chrono_strerror(rc));
        if (p->status == 0) p->status = 1;
    }
    if (fflush(stdout) != 0 && p->status == 0) p->status = 1;
    return p->status;
}

CHRONO_API int chrono_main_at(int argc, char **argv, const chrono_entry *entries, size_t n, unsigned long caller)
{
    chrono_program p;
    if (chrono_program_begin_at(&p, argc, argv, NULL, 0, caller) == 1) (void)chrono_program_run(&p, entries, n);
    return chrono_program_end(&p);
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_PROGRAM_IMPL */

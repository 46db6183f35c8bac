/* chronoscope/entry.h — a benchmark as data: the entries of a program table.

   An entry says what to measure (a run, an interleaved comparison, a sweep
   of a parameter, a product of parameter lists) and how (its own samples,
   budget, warm-up, throughput, setup, counters); program.h runs a table of
   them, processes.h pools them over fresh processes, registry.h and
   module.h hand tables over.  This header builds entries and runs one.

   Usage:

       chrono_entry e = chrono_with_bytes(chrono_bench("sum/4KiB", sum, buf), 4096);
       chrono_entry p = chrono_with_args(chrono_with_args(chrono_product_entry("mm", mm, NULL), sizes, 3), ks, 2);
       // a program table runs them (program.h): chrono_main(argc, argv, table, n)
       // or one alone, into a session:
       chrono_entry_hooks h = { 0 };            // every product point; no callbacks
       if (chrono_entry_run(&s, &e, &h) == 0) ... s.results[s.nresults - 1] ...

   An entry may set its own samples and time budget (chrono_with_samples,
   chrono_with_budget): a 25 ns body and a 2 s body sit in one program.  An
   entry whose body is meant to cost nothing (an "empty call" row) says so
   with chrono_with_empty_body, and then shows no CHRONO_WARN_EMPTY_BODY.  An
   entry whose body blocks by design (a ping-pong with another process, a
   compiler started and waited for) says so with chrono_with_blocking: its
   voluntary context switches are its work, and only involuntary ones reject
   a sample (bench.h, chrono_config.blocking); it is timed without core-cycle
   estimates (the reference chains would bracket a sleep).

   Functions:
     chrono_bench(name, fn, ctx)                   a run
     chrono_versus(na, a, ca, nb, b, cb)           an interleaved comparison
     chrono_sweep_entry(name, fn, ctx, params, n)  a sweep
     chrono_product_entry(name, fn, ctx)           a product of parameter lists (chrono_with_args, _fit)
     chrono_with_bytes / _items / _samples / _budget / _warmup / _unit (entry, value)
     chrono_with_empty_body(entry)                 its body is meant to be empty: no EMPTY_BODY
     chrono_with_blocking(entry)                   the body blocks by design
     chrono_with_user_counters(entry, c, n)        the body's own counts (chrono_user_counter)
     chrono_with_counters(entry, "page-faults")    counters this entry reads (counters.h)
     chrono_with_setup(entry, setup)               setup(ctx) untimed before every call (chrono_run_setup)
     chrono_with_threads(entry, n)                 a run in n threads at once (threads.h);
                                                   CHRONO_THREADS_CLI: as many as --threads=N says
                                                   (default: the online CPUs)
     chrono_entry_ok(e)                            1 when well formed
     chrono_entry_name(buf, n, e)                  its name for --list and --filter ("a vs b")
     chrono_entry_points(e) / _point_name(...)     a product's points and their names, in run order
     chrono_entry_makes(e, name)                   1 when it makes a result of that name
     chrono_entry_wants(e, hooks)                  1 when hooks->want takes any name it lists
     chrono_entry_width(e)                         the name column its rows need
     chrono_entry_throughput(r, e)                 its bytes and items onto a result
     chrono_entry_run(s, e, hooks)                 run it into a session, each row handed to hooks */
#ifndef CHRONOSCOPE_ENTRY_H
#define CHRONOSCOPE_ENTRY_H

#include "threads.h"

typedef enum chrono_entry_kind {
    CHRONO_ENTRY_RUN = 1,
    CHRONO_ENTRY_COMPARE,
    CHRONO_ENTRY_SWEEP,
    CHRONO_ENTRY_PRODUCT         /* the product of parameter lists (chrono_product_entry) */
} chrono_entry_kind;

#define CHRONO_ARGS_MAX 4          /* parameter lists of one product entry */
#define CHRONO_PRODUCT_POINTS_MAX 100000

/* A product's body: args[i] is the value of parameter list i at this point. */
typedef void (*chrono_args_fn)(void *ctx, const uint64_t *args, uint64_t iters);

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
    const char *unit;            /* sweep: what the parameter counts ("bytes": the report shows GB/s
                                    too) */
    int samples;                 /* 0: the program's */
    double max_ms;               /* 0: the program's */
    double warmup_ms;            /* 0: the program's */
    int expect_empty;            /* the body is meant to cost nothing (an "empty call" row): no
                                    CHRONO_WARN_EMPTY_BODY */
    chrono_setup_fn setup;       /* run: untimed setup before every call (chrono_run_setup); NULL:
                                    none */
    int blocking;                /* 1: the body blocks by design (chrono_config.blocking) */
    chrono_args_fn args_fn;      /* product: the body */
    const uint64_t *args[CHRONO_ARGS_MAX];   /* product: its parameter lists (chrono_with_args) */
    size_t nargs[CHRONO_ARGS_MAX];
    int nlists;
    /* product: 1 + the list fitted along (chrono_with_fit), 0: no fit */
    int fit;
    const char *counters;        /* counters.h names this entry reads besides --counters
                                    ("context-switches,page-faults"); NULL: none */
    int threads;                 /* run: in this many threads at once (chrono_with_threads);
                                    CHRONO_THREADS_CLI: --threads; 0: one thread, not a threaded run */
    chrono_user_counter *user_counters;   /* run, product: the body's own counts
                                             (chrono_with_user_counters) */
    int nuser_counters;
} chrono_entry;

/* What chrono_entry_run hands back as it goes; every member may be NULL/0. */
typedef struct chrono_entry_hooks {
    void *ctx;
    /* a product's point: 1 runs it (NULL: all) */
    int (*want)(void *ctx, const char *name);
    /* each result kept, as it finishes: 0 or an error */
    int (*result)(void *ctx, const chrono_result *r);
    int (*comparison)(void *ctx, const chrono_comparison *c); /* a comparison kept: 0 or an error */
    int threads;                 /* CHRONO_THREADS_CLI's count (--threads); 0: the online CPUs */
} chrono_entry_hooks;

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
/* The body's own counts (types.h, chrono_user_counter: Google Benchmark's
   state.counters): n of them at c, which the body adds to and which must
   outlive the run; each of the entry's runs reports them per iteration (or
   per second) in every format.  A comparison's or a threaded run's are not read. */
CHRONO_API chrono_entry chrono_with_user_counters(chrono_entry e, chrono_user_counter *c, int n);
/* A product of parameter lists (Google Benchmark's ArgsProduct): give it two
   or more lists with chrono_with_args; it runs fn at every combination, named
   NAME/a/b (values in list order, the last list varying fastest), each point
   a run that --list names and --filter selects. */
CHRONO_API chrono_entry chrono_product_entry(const char *name, chrono_args_fn fn, void *ctx);
/* One more parameter list (at most CHRONO_ARGS_MAX; the values must outlive the run). */
CHRONO_API chrono_entry chrono_with_args(chrono_entry e, const uint64_t *values, size_t n);
/* Fit ns = fixed + per_unit * x along list `list` (0-based, two or more distinct
   values): that list varies fastest, and each combination of the others is a
   sweep (chrono_sweep_result) named with '*' at that place ("NAME/ * /8"),
   fitted when --filter keeps all of its points.  Under --processes the
   points are pooled, the fits are not. */
CHRONO_API chrono_entry chrono_with_fit(chrono_entry e, int list);
/* Counters this entry reads besides --counters: names of counters.h, comma-separated. */
CHRONO_API chrono_entry chrono_with_counters(chrono_entry e, const char *list);
/* A run in n threads at once (chrono_run_threads; 1..CHRONO_THREADS_MAX),
   or with n = CHRONO_THREADS_CLI in as many as --threads=N says (default:
   the online CPUs).  The row keeps the entry's name; its thread count is
   in the row ("2 threads: ...") and in JSON/CSV "threads". */
#define CHRONO_THREADS_CLI (-1)
CHRONO_API chrono_entry chrono_with_threads(chrono_entry e, int n);

/* 1 when e is well formed: a name, and a body (both for a comparison, a
   parameter list for a sweep, a well-formed product: chrono_entry_points). */
CHRONO_API int chrono_entry_ok(const chrono_entry *e);

/* Its name for --list and --filter: a run's, a sweep's or a product's own,
   a comparison's "a vs b" (in buf, n bytes).  e must be well formed. */
CHRONO_API const char *chrono_entry_name(char *buf, size_t n, const chrono_entry *e);

/* The points of a well-formed product; 0 for a malformed one and for any
   other kind: a body, 1..CHRONO_ARGS_MAX non-empty lists, at most
   CHRONO_PRODUCT_POINTS_MAX points, a fit along a list of two or more
   distinct values, names that fit CHRONO_NAME_MAX. */
CHRONO_API size_t chrono_entry_points(const chrono_entry *e);

/* Point j of a product (0 <= j < chrono_entry_points(e), in run order: the
   last list, or the fitted one, varies fastest) named NAME/a/b...; with star
   nonzero '*' stands in the fitted list's place: the name of the fit whose
   slice holds point j.  Returns buf (n bytes). */
CHRONO_API const char *chrono_entry_point_name(char *buf, size_t n, const chrono_entry *e, size_t j,
                                               int star);

/* 1 when the entry makes a result called `name`: a run's name, either side
   of a comparison, a sweep's point "NAME/PARAM", a product's point. */
CHRONO_API int chrono_entry_makes(const chrono_entry *e, const char *name);

/* 1 when hooks->want takes any name the entry lists: each of a product's
   points (every one asked, in run order), else its chrono_entry_name; 1
   without a want hook, 0 for a malformed entry. */
CHRONO_API int chrono_entry_wants(const chrono_entry *e, const chrono_entry_hooks *hooks);

/* The name column its rows need: its name and 8 (a sweep's "/PARAM"), a
   product's longest point name and 2, a comparison's B; 0 for a NULL one. */
CHRONO_API int chrono_entry_width(const chrono_entry *e);

/* The entry's throughput (bytes, items per iteration) onto a result: it
   travels with the result, so that every report shows it. */
CHRONO_API void chrono_entry_throughput(chrono_result *r, const chrono_entry *e);

/* Run e into session s, its own settings (samples, budget, warm-up, empty
   body, blocking, counters) over the session's and restored after; each
   result (with the entry's throughput) to hooks->result and a comparison to
   hooks->comparison as it is kept; a product runs the points hooks->want
   takes, and with a fit each slice whose points it takes all of as a sweep.
   0, CHRONO_EINVAL (NULL, a malformed entry, unknown counters), the runner's
   error, or the first a hook returned (the rest of the entry is not run). */
CHRONO_API int chrono_entry_run(chrono_session *s, const chrono_entry *e,
                                const chrono_entry_hooks *hooks);
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_ENTRY_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_ENTRY_IMPL)
#define CHRONOSCOPE_ENTRY_IMPL

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

CHRONO_API chrono_entry chrono_with_bytes(chrono_entry e, double bytes)
{
    e.bytes = bytes;
    return e;
}

CHRONO_API chrono_entry chrono_with_user_counters(chrono_entry e, chrono_user_counter *c, int n)
{
    e.user_counters = c;
    e.nuser_counters = n;
    return e;
}

CHRONO_API chrono_entry chrono_product_entry(const char *name, chrono_args_fn fn, void *ctx)
{
    chrono_entry e = chrono_bench(name, NULL, ctx);
    e.kind = CHRONO_ENTRY_PRODUCT;
    e.args_fn = fn;
    return e;
}

CHRONO_API chrono_entry chrono_with_args(chrono_entry e, const uint64_t *values, size_t n)
{
    if (e.nlists < CHRONO_ARGS_MAX) { e.args[e.nlists] = values; e.nargs[e.nlists] = n; }
    e.nlists++;   /* one too many makes the entry malformed (chrono_entry_ok) */
    return e;
}

CHRONO_API chrono_entry chrono_with_fit(chrono_entry e, int list) { e.fit = list + 1; return e; }
CHRONO_API chrono_entry chrono_with_items(chrono_entry e, double v) { e.items = v; return e; }
CHRONO_API chrono_entry chrono_with_samples(chrono_entry e, int v) { e.samples = v; return e; }
CHRONO_API chrono_entry chrono_with_empty_body(chrono_entry e) { e.expect_empty = 1; return e; }
CHRONO_API chrono_entry chrono_with_budget(chrono_entry e, double v) { e.max_ms = v; return e; }
CHRONO_API chrono_entry chrono_with_warmup(chrono_entry e, double v) { e.warmup_ms = v; return e; }
CHRONO_API chrono_entry chrono_with_unit(chrono_entry e, const char *v) { e.unit = v; return e; }
CHRONO_API chrono_entry chrono_with_setup(chrono_entry e, chrono_setup_fn setup)
{
    e.setup = setup;
    return e;
}
CHRONO_API chrono_entry chrono_with_blocking(chrono_entry e) { e.blocking = 1; return e; }
CHRONO_API chrono_entry chrono_with_counters(chrono_entry e, const char *v)
{
    e.counters = v;
    return e;
}
CHRONO_API chrono_entry chrono_with_threads(chrono_entry e, int n) { e.threads = n; return e; }

CHRONO_API size_t chrono_entry_points(const chrono_entry *e)
{
    size_t total = 1;
    int l;
    if (!e || e->kind != CHRONO_ENTRY_PRODUCT || !e->name) return 0;
    if (!e->args_fn || e->nlists < 1 || e->nlists > CHRONO_ARGS_MAX || e->fit < 0 ||
        e->fit > e->nlists)
        return 0;
    if (strlen(e->name) + 21 * (size_t)e->nlists >= CHRONO_NAME_MAX - 22) return 0;
    for (l = 0; l < e->nlists; l++) {
        if (!e->args[l] || !e->nargs[l] || e->nargs[l] > CHRONO_PRODUCT_POINTS_MAX / total)
            return 0;
        total *= e->nargs[l];
    }
    if (e->fit) {
        const uint64_t *v = e->args[e->fit - 1];
        size_t i;
        for (i = 1; i < e->nargs[e->fit - 1] && v[i] == v[0]; i++) {}
        if (i == e->nargs[e->fit - 1]) return 0;   /* nothing to fit along */
    }
    return total;
}

/* Point j of the product (in run order): each list's index into idx[]. */
CHRONO__PRIVATE void chrono__product_index(const chrono_entry *e, size_t j, size_t *idx)
{
    int d;
    if (e->fit) { idx[e->fit - 1] = j % e->nargs[e->fit - 1]; j /= e->nargs[e->fit - 1]; }
    for (d = e->nlists - 1; d >= 0; d--) {
        if (d == e->fit - 1) continue;
        idx[d] = j % e->nargs[d];
        j /= e->nargs[d];
    }
}

CHRONO_API const char *chrono_entry_point_name(char *buf, size_t n, const chrono_entry *e, size_t j,
                                               int star)
{
    size_t w, idx[CHRONO_ARGS_MAX];
    int l;
    chrono__product_index(e, j, idx);
    (void)chrono__bprintf(buf, n, "%s", e->name);
    for (l = 0; l < e->nlists; l++) {
        w = strlen(buf);
        if (star && l == e->fit - 1) (void)chrono__bprintf(buf + w, n - w, "/*");
        else (void)chrono__bprintf(buf + w, n - w, "/%llu", (unsigned long long)e->args[l][idx[l]]);
    }
    return buf;
}

CHRONO_API int chrono_entry_ok(const chrono_entry *e)
{
    if (!e || !e->name || !e->name[0]) return 0;
    switch (e->kind) {
    case CHRONO_ENTRY_RUN:     return e->fn != NULL;
    case CHRONO_ENTRY_COMPARE: return e->fn && e->fn_b && e->name_b && e->name_b[0];
    case CHRONO_ENTRY_SWEEP:   return e->sweep_fn && e->params && e->nparams;
    case CHRONO_ENTRY_PRODUCT: return chrono_entry_points(e) > 0;
    }
    return 0;
}

CHRONO_API const char *chrono_entry_name(char *buf, size_t n, const chrono_entry *e)
{
    if (e->kind != CHRONO_ENTRY_COMPARE) return e->name;
    (void)chrono__bprintf(buf, n, "%s vs %s", e->name, e->name_b);
    return buf;
}

CHRONO_API int chrono_entry_width(const chrono_entry *e)
{
    int width = 0, l;
    if (!e) return 0;
    if (e->name) width = (int)strlen(e->name) + 8;
    if (e->kind == CHRONO_ENTRY_PRODUCT && chrono_entry_ok(e)) {   /* its longest point name */
        int w = (int)strlen(e->name);
        for (l = 0; l < e->nlists; l++) {
            size_t k;
            int most = 0;
            for (k = 0; k < e->nargs[l]; k++) {
                char num[24];
                int d = chrono__bprintf(num, sizeof num, "%llu", (unsigned long long)e->args[l][k]);
                if (d > most) most = d;
            }
            w += 1 + most;
        }
        if (w + 2 > width) width = w + 2;
    }
    if (e->name_b && (int)strlen(e->name_b) > width) width = (int)strlen(e->name_b);
    return width;
}

CHRONO_API void chrono_entry_throughput(chrono_result *r, const chrono_entry *e)
{
    r->bytes_per_iter = e->bytes;
    r->items_per_iter = e->items;
}

/* A sweep's point "NAME/PARAM" among its params. */
CHRONO__PRIVATE int chrono__sweep_makes(const chrono_entry *e, const char *name)
{
    size_t i, len = strlen(e->name);
    if (strncmp(name, e->name, len) != 0 || name[len] != '/') return 0;
    for (i = 0; i < e->nparams; i++) {
        char num[32];
        (void)chrono__bprintf(num, sizeof num, "%llu", (unsigned long long)e->params[i]);
        if (!strcmp(name + len + 1, num)) return 1;
    }
    return 0;
}

CHRONO_API int chrono_entry_makes(const chrono_entry *e, const char *name)
{
    size_t k, n;
    char point[CHRONO_NAME_MAX];
    if (!chrono_entry_ok(e) || !name) return 0;
    switch (e->kind) {
    case CHRONO_ENTRY_RUN:     return !strcmp(e->name, name);
    case CHRONO_ENTRY_COMPARE: return !strcmp(e->name, name) || !strcmp(e->name_b, name);
    case CHRONO_ENTRY_SWEEP:   return chrono__sweep_makes(e, name);
    case CHRONO_ENTRY_PRODUCT:
        for (k = 0, n = chrono_entry_points(e); k < n; k++)
            if (!strcmp(chrono_entry_point_name(point, sizeof point, e, k, 0), name)) return 1;
        return 0;
    }
    return 0;
}

/* ---- running one --------------------------------------------------------------------- */
typedef struct chrono__product_pt {
    chrono_args_fn fn;
    void *ctx;
    int k;
    uint64_t args[CHRONO_ARGS_MAX];
} chrono__product_pt;

CHRONO__PRIVATE void chrono__product_tramp(void *ctx, uint64_t iters)
{
    chrono__product_pt *pt = (chrono__product_pt *)ctx;
    pt->fn(pt->ctx, pt->args, iters);
}

CHRONO__PRIVATE void chrono__product_sweep_tramp(void *ctx, uint64_t param, uint64_t iters)
{
    chrono__product_pt *pt = (chrono__product_pt *)ctx;
    pt->args[pt->k] = param;
    pt->fn(pt->ctx, pt->args, iters);
}

/* The hooks' pieces, each optional. */
CHRONO__PRIVATE int chrono__entry_wants(const chrono_entry_hooks *h, const char *name)
{
    return !h || !h->want || h->want(h->ctx, name);
}

CHRONO__PRIVATE int chrono__entry_row(const chrono_entry_hooks *h, const chrono_result *r)
{
    return h && h->result ? h->result(h->ctx, r) : 0;
}

CHRONO_API int chrono_entry_wants(const chrono_entry *e, const chrono_entry_hooks *hooks)
{
    char name[2 * CHRONO_NAME_MAX + 8];
    size_t j, n;
    int any = 0;
    if (!chrono_entry_ok(e)) return 0;
    if (e->kind != CHRONO_ENTRY_PRODUCT)
        return chrono__entry_wants(hooks, chrono_entry_name(name, sizeof name, e));
    for (j = 0, n = chrono_entry_points(e); j < n; j++)
        if (chrono__entry_wants(hooks, chrono_entry_point_name(name, sizeof name, e, j, 0)))
            any = 1;
    return any;
}

/* The results from `first` on, with the entry's throughput, to the hooks. */
CHRONO__PRIVATE int chrono__entry_rows(chrono_session *s, const chrono_entry *e, size_t first,
                                       const chrono_entry_hooks *h)
{
    int rc = 0;
    for (; rc == 0 && first < s->nresults; first++) {
        chrono_entry_throughput(&s->results[first], e);
        rc = chrono__entry_row(h, &s->results[first]);
    }
    return rc;
}

/* Point j's values of every list into pt->args. */
CHRONO__PRIVATE void chrono__product_args(const chrono_entry *e, size_t j, chrono__product_pt *pt)
{
    size_t idx[CHRONO_ARGS_MAX];
    int l;
    chrono__product_index(e, j, idx);
    for (l = 0; l < e->nlists; l++) pt->args[l] = e->args[l][idx[l]];
}

/* One slice of a fitted product (its points j0.. along the fitted list) as a
   sweep named with '*', the other lists at the slice's values, its points
   renamed NAME/a/b. */
CHRONO__PRIVATE int chrono__product_slice(chrono_session *s, const chrono_entry *e, size_t j0,
                                          chrono__product_pt *pt)
{
    size_t i, first = s->nresults, nk = e->nargs[e->fit - 1];
    char name[CHRONO_NAME_MAX];
    int rc;
    chrono__product_args(e, j0, pt);
    pt->k = e->fit - 1;
    rc = chrono_sweep(s, chrono_entry_point_name(name, sizeof name, e, j0, 1),
                      chrono__product_sweep_tramp, pt, e->args[e->fit - 1], nk, NULL);
    if (rc == 0 && e->unit)
        chrono__str_copy(s->sweeps[s->nsweeps - 1].unit, sizeof s->sweeps[0].unit, e->unit);
    for (i = 0; rc == 0 && i < nk && first + i < s->nresults; i++)
        chrono__str_copy(s->results[first + i].name, sizeof s->results[0].name,
                         chrono_entry_point_name(name, sizeof name, e, j0 + i, 0));
    return rc;
}

/* 1 when the hooks take every point of the slice from j0 (a fit runs). */
CHRONO__PRIVATE int chrono__slice_wanted(const chrono_entry *e, size_t j0,
                                         const chrono_entry_hooks *h)
{
    size_t i, nk = e->nargs[e->fit - 1];
    char name[CHRONO_NAME_MAX];
    for (i = 0; i < nk; i++)
        if (!chrono__entry_wants(h, chrono_entry_point_name(name, sizeof name, e, j0 + i, 0)))
            return 0;
    return 1;
}

/* A product: the points the hooks take, each a run; with a fit, each slice
   whose points they all take a sweep. */
CHRONO__PRIVATE int chrono__run_product(chrono_session *s, const chrono_entry *e,
                                        const chrono_entry_hooks *h)
{
    size_t j, n = chrono_entry_points(e), first = s->nresults,
              nk = e->fit ? e->nargs[e->fit - 1] : 1;
    char name[CHRONO_NAME_MAX];
    chrono__product_pt pt;
    int rc = 0;
    memset(&pt, 0, sizeof pt);
    pt.fn = e->args_fn; pt.ctx = e->ctx;
    for (j = 0; rc == 0 && j < n; j++) {
        /* a whole slice taken: fitted */
        if (e->fit && j % nk == 0 && chrono__slice_wanted(e, j, h)) {
            rc = chrono__product_slice(s, e, j, &pt);
            if (rc == 0) rc = chrono__entry_rows(s, e, first, h);
            first = s->nresults;
            j += nk - 1;
            continue;
        }
        if (!chrono__entry_wants(h, chrono_entry_point_name(name, sizeof name, e, j, 0))) continue;
        chrono__product_args(e, j, &pt);
        rc = chrono_run(s, name, chrono__product_tramp, &pt, NULL);
        if (rc == 0) rc = chrono__entry_rows(s, e, first, h);
        first = s->nresults;
    }
    return rc;
}

/* A threaded entry's thread count: its own, or --threads (default: the online CPUs). */
CHRONO__PRIVATE int chrono__entry_threads(const chrono_entry *e, const chrono_entry_hooks *h)
{
    int cpus = chrono_cpu_count();
    if (e->threads != CHRONO_THREADS_CLI) return e->threads;
    if (h && h->threads > 0) return h->threads;
    return cpus > 1 ? (cpus < CHRONO_THREADS_MAX ? cpus : CHRONO_THREADS_MAX) : 1;
}

/* The entry's kind, run; the session's settings are the entry's already. */
CHRONO__PRIVATE int chrono__entry_kind_run(chrono_session *s, const chrono_entry *e,
                                           const chrono_entry_hooks *h)
{
    size_t first = s->nresults;
    int rc = CHRONO_EINVAL;
    switch (e->kind) {
    case CHRONO_ENTRY_RUN:
        /* a setup per call has no threaded form */
        if (e->threads && e->setup) rc = CHRONO_EINVAL;
        else if (e->threads)
            rc = chrono_run_threads(s, e->name, e->fn, e->ctx, chrono__entry_threads(e, h), NULL);
        else rc = e->setup ? chrono_run_setup(s, e->name, e->setup, e->fn, e->ctx, NULL)
                           : chrono_run(s, e->name, e->fn, e->ctx, NULL);
        if (rc == 0) chrono_entry_throughput(&s->results[s->nresults - 1], e);
        if (rc == 0) rc = chrono__entry_row(h, &s->results[s->nresults - 1]);
        break;
    case CHRONO_ENTRY_COMPARE:
        rc = chrono_compare(s, e->name, e->fn, e->ctx, e->name_b, e->fn_b, e->ctx_b, NULL);
        if (rc == 0) {
            chrono_comparison *c = &s->comparisons[s->ncomparisons - 1];
            chrono_entry_throughput(&c->a, e);
            chrono_entry_throughput(&c->b, e);
            if (h && h->comparison) rc = h->comparison(h->ctx, c);
        }
        break;
    case CHRONO_ENTRY_SWEEP:
        rc = chrono_sweep(s, e->name, e->sweep_fn, e->ctx, e->params, e->nparams, NULL);
        if (rc == 0 && e->unit)
            chrono__str_copy(s->sweeps[s->nsweeps - 1].unit, sizeof s->sweeps[0].unit, e->unit);
        if (rc == 0) rc = chrono__entry_rows(s, e, first, h);
        break;
    case CHRONO_ENTRY_PRODUCT:
        rc = chrono__run_product(s, e, h);
        break;
    }
    return rc;
}

CHRONO_API int chrono_entry_run(chrono_session *s, const chrono_entry *e,
                                const chrono_entry_hooks *hooks)
{
    chrono_config saved;
    int has_cycles, rc = 0;
    if (!s || !chrono_entry_ok(e)) return CHRONO_EINVAL;
    saved = s->cfg;
    has_cycles = s->has_cycles;
    if (e->samples > 0) s->cfg.samples = e->samples;
    if (e->max_ms > 0) s->cfg.max_ms = e->max_ms;
    if (e->warmup_ms > 0) s->cfg.warmup_ms = e->warmup_ms;
    if (e->expect_empty) s->cfg.expect_empty = 1;
    if (e->nuser_counters) {
        s->cfg.user_counters = e->user_counters;
        s->cfg.nuser_counters = e->nuser_counters;
    }
    /* A blocking body is timed without core-cycle estimates: the reference
       chains around it bracket a sleep (another process's work, an idle
       CPU) and would disagree, rejecting the sample. */
    if (e->blocking) { s->cfg.blocking = 1; s->has_cycles = 0; }
    if (e->counters && chrono_counters_parse(e->counters, &s->cfg.counters, NULL, 0) < 0)
        rc = CHRONO_EINVAL;
    if (rc == 0) rc = chrono__entry_kind_run(s, e, hooks);
    s->cfg = saved;
    s->has_cycles = has_cycles;
    return rc;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_ENTRY_IMPL */

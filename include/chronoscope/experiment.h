/* chronoscope/experiment.h — what programs that reproduce an old measurement
   share: a difference with its confidence interval (and whether it is below
   the noise floor), a per-op cost projected to a total, a "then vs now"
   table with ratios in time and in cycles.  What dominates this machine's
   figures (VM, PTI and the other mitigations, TSC and core clock) is the
   report's environment header, written once (report.h).

   Usage:

       chrono_comparison c;                   // bench.h: chrono_compare(&s, ..., &c)
       chrono_delta d;
       chrono_projection p;
       chrono_then_now tn;
       chrono_delta_from(&c, &d);             // d.diff_ns [d.ci_low_ns, d.ci_high_ns], d.below_noise
       chrono_project(&c.a, 16777216.0, 0.95, &p);   // p.total_ns [p.ci_low_ns, p.ci_high_ns], mean-based
       chrono_literal lit;                    // the real batch, against a projection measured beside it
       chrono_literal_run(&s, "copy", copy, ctx, 4194304, &lit);   // lit.ns, lit.beside.total_ns, lit.ratio
       chrono_then_now_build(&tn, "then_vs_now", "then (2002) vs now", rows, nrows, 450.0);
       // chrono_report_options opt = { 0 }; opt.tables = &tn.table; opt.ntables = 1;
       chrono_then_now_free(&tn);

   Functions:
     chrono_delta_from(c, out)              a − b in ns per iteration, with its CI and its processes
     chrono_delta_verdict(d, confidence)    "resolved", "resolved in one process", "below noise ...",
                                            "not repeated ..." (the processes disagree on the sign),
                                            "no verdict ..." (its interval's level is below confidence)
     chrono_delta_between(x, y, out)        x − y of two deltas against one baseline (paired, each)
     chrono_project(r, ops, confidence, out)   ops × the MEAN ns per iteration, with its CI
     chrono_literal_run(s, name, fn, ctx, ops, out)   ops iterations of fn once, timed, beside a
                                            projection from samples taken between its slices
     chrono_then_now_build(t, key, title, rows, n, seed_mhz)   a chrono_table (allocates)
     chrono_then_now_free(t)                frees what build allocated

   Definitions:
     Δ          (ratio − 1) × median ns of b, where ratio is chrono_compare's median of
                the paired ratios a_i/b_i and its CI; the CI is the ratio's CI scaled the
                same way.  below_noise is 1 when that CI includes 0.  Pooled over
                processes (program.h), each process's Δ comes from its own ratio; split
                is 1 when they disagree on the sign.  Resolved: neither below noise nor
                split; a comparison from one process is only ever "resolved in one
                process" (processes differ here: code and data land elsewhere, the
                host's phase changes).
     between    x − y where x and y are Δs against the same baseline, each from paired
                samples: drift between the two comparisons cancels in each.  Its CI is
                [x.low − y.high, x.high − y.low], at level ≥ x.level + y.level − 1;
                its processes are not paired (split 0), resolved when the CI excludes 0.
     projection ops × mean ns per iteration.  The mean, not the median: a long batch
                pays for its interrupts and rare slow calls, which the median leaves out.
                The mean of every whole sample the run took (chrono_result.all_ns_mean:
                the ones rejected as switched out or contended too, since a batch pays
                for them), or of the kept ones where the run did not count them.  The CI
                is the mean's normal-approximation interval (mean ± z·sd/√n).
     literal    one real batch of ops iterations on the session's clock (wall time: with
                switches > 0 other programs' time is in it), cut into 1000 slices
                (fewer when ops is smaller); after each slice the projection's run
                (bench.h's chrono_run_between) takes one sample, or its share of
                .samples when that is larger.  The two then cover the same seconds:
                on a machine whose speed drifts (measured here: 1-byte copies move
                ~7% between 0.4 s windows, correlated over ~1 s) a projection taken
                before and after a 1.3 s copy missed it by up to 14%.  ns is the
                slices' sum; ratio = ns / beside.total_ns.
     then/now   then_per_op = then_total_s / then_ops and now_per_op = now_ns, each as a
                person reads a duration (report.h's chrono_report_duration: "2.23 µs",
                "21.0 s"); then_cycles needs the old
                CPU's clock (seed_mhz; "n/a" when it is 0); now_cycles_est = now_ns ×
                now_ghz (estimated core GHz); ratio_us = then / now in time, ratio_cycles
                the same in cycles.

   Every function returning int returns 0 or a negative CHRONO_E... code. */
#ifndef CHRONOSCOPE_EXPERIMENT_H
#define CHRONOSCOPE_EXPERIMENT_H

#include "bench.h"
#include "report.h"
#include "tmp.h"

/* ---- types ----------------------------------------------------------------- */
typedef struct chrono_delta {
    double diff_ns;              /* a − b, ns per iteration (b's median scale) */
    double ci_low_ns, ci_high_ns;
    double ci_level;             /* coverage of the ratio's CI */
    double ratio;                /* a / b */
    int below_noise;             /* 1: the CI includes 0 */
    int processes;               /* fresh processes the comparison was pooled over (1: this one) */
    double process_min_ns, process_max_ns;   /* the lowest and highest process's Δ (one: diff_ns) */
    /* 1: the processes disagree on its sign (some Δ <= 0, some >= 0) */
    int split;
    int resolved;                /* 1: not below_noise and not split: a difference that repeats (at
                                    ci_level: chrono_delta_verdict also asks that level to reach the
                                    confidence) */
} chrono_delta;

typedef struct chrono_projection {
    double ops;                  /* iterations projected */
    double per_op_mean_ns;       /* the mean: includes interrupts and slow calls */
    double per_op_median_ns;     /* for comparison: the typical call */
    double total_ns;             /* ops × mean */
    double ci_low_ns, ci_high_ns;   /* ops × (mean ± z·sd/√n) */
    double median_total_ns;      /* ops × median: what the copy would take without interrupts */
} chrono_projection;

/* One real batch and the projection measured beside it. */
typedef struct chrono_literal {
    double ops;                  /* iterations of the batch */
    size_t slices;               /* it ran in this many slices, the run's samples between them */
    double ns;                   /* its wall time on the session's clock (the slices' sum) */
    long switches;               /* context switches during it; -1 unknown */
    chrono_projection beside;    /* the mean of the samples between its slices, projected */
    double ratio;                /* ns / beside.total_ns */
} chrono_literal;

/* One row of a then-vs-now table.  Unknown numbers are NAN (or 0 for ops). */
typedef struct chrono_then_now_row {
    const char *then;            /* "regparm (2)" */
    double then_total_s;         /* 37.354; NAN: use then_us_per_op */
    double then_ops;             /* 16777216 */
    double then_us_per_op;       /* used when then_total_s is NAN */
    const char *now;             /* "sysv (closest x86-64)" */
    double now_ns;               /* per op, NAN unknown */
    double now_ghz;              /* estimated core GHz for the cycles, NAN unknown */
    const char *note;            /* may be NULL */
} chrono_then_now_row;

#define CHRONO_THEN_NOW_COLS 10
#define CHRONO_THEN_NOW_CELL 96   /* bytes of one cell with its NUL */

/* The table and the storage its cells point into (owned here, allocated by
   chrono_then_now_build, freed by chrono_then_now_free). */
typedef struct chrono_then_now {
    chrono_table table;
    /* private */
    char *chrono__cell_text;     /* nrows × cols × CHRONO_THEN_NOW_CELL */
    const char **chrono__cells;
} chrono_then_now;

/* ---- functions ------------------------------------------------------------ */
CHRONO__EXTERN_C_BEGIN
/* Δ = a − b from a comparison.  CHRONO_EINVAL for NULL or a comparison
   without a finite ratio or median. */
CHRONO_API int chrono_delta_from(const chrono_comparison *c, chrono_delta *out);

/* The verdict on a Δ, as a report cell says it: below noise, not repeated,
   no verdict (its interval's level, ci_level, is below confidence: too few
   processes or samples for it), resolved. */
CHRONO_API const char *chrono_delta_verdict(const chrono_delta *d, double confidence);

/* x − y of two Δs against one baseline (Definitions: between).  CHRONO_EINVAL
   for NULL or a non-finite Δ or interval. */
CHRONO_API int chrono_delta_between(const chrono_delta *x, const chrono_delta *y,
                                    chrono_delta *out);

/* ops iterations of r at its mean cost, with the mean's CI at `confidence`
   (0 < confidence < 1).  CHRONO_EINVAL for NULL, ops <= 0, no samples. */
CHRONO_API int chrono_project(const chrono_result *r, double ops, double confidence,
                              chrono_projection *out);

/* ops iterations of fn, once, on the session's clock, in slices with the
   samples of a run of fn between them (chrono_run_between, kept in the
   session as "<name>/literal_beside"), whose mean is projected to ops at the
   session's confidence.  The errors of chrono_run; CHRONO_EINVAL for NULL,
   ops 0 or a closed session, CHRONO_ERANGE for a name too long for its suffix. */
CHRONO_API int chrono_literal_run(chrono_session *s, const char *name, chrono_fn fn, void *ctx,
                                  uint64_t ops, chrono_literal *out);

/* Fill t->table (key, title, columns row, then, then_per_op, then_cycles,
   now, now_per_op, now_cycles_est, ratio_us, ratio_cycles, note) from rows.
   seed_mhz <= 0 (or NAN): then_cycles and ratio_cycles are "n/a".
   CHRONO_EINVAL, CHRONO_ENOMEM.  On error nothing is left allocated. */
CHRONO_API int chrono_then_now_build(chrono_then_now *t, const char *key, const char *title,
                                     const chrono_then_now_row *rows, size_t nrows,
                                     double seed_mhz);
CHRONO_API void chrono_then_now_free(chrono_then_now *t);


CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_EXPERIMENT_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_EXPERIMENT_IMPL)
#define CHRONOSCOPE_EXPERIMENT_IMPL

CHRONO__EXTERN_C_BEGIN

CHRONO_API int chrono_delta_from(const chrono_comparison *c, chrono_delta *out)
{
    double bm;
    if (!c || !out) return CHRONO_EINVAL;
    bm = c->b.ns.median;
    if (!chrono__finite(bm) || !chrono__finite(c->ratio) || !chrono__finite(c->ci_low) ||
        !chrono__finite(c->ci_high))
        return CHRONO_EINVAL;
    out->ratio = c->ratio;
    out->diff_ns = (c->ratio - 1.0) * bm;
    out->ci_low_ns = (c->ci_low - 1.0) * bm;
    out->ci_high_ns = (c->ci_high - 1.0) * bm;
    out->ci_level = c->ci_level;
    out->below_noise = out->ci_low_ns <= 0.0 && out->ci_high_ns >= 0.0;
    out->processes = c->a.processes > 1 ? c->a.processes : 1;
    out->process_min_ns = out->process_max_ns = out->diff_ns;
    if (out->processes > 1 && chrono__finite(c->process_min_ratio) &&
        chrono__finite(c->process_max_ratio)) {
        out->process_min_ns = (c->process_min_ratio - 1.0) * bm;
        out->process_max_ns = (c->process_max_ratio - 1.0) * bm;
    }
    out->split = out->processes > 1 && out->process_min_ns <= 0.0 && out->process_max_ns >= 0.0;
    out->resolved = !out->below_noise && !out->split;
    return 0;
}

CHRONO_API const char *chrono_delta_verdict(const chrono_delta *d, double confidence)
{
    if (!d) return "n/a";
    if (d->below_noise) return "below noise (CI includes 0)";
    if (d->split) return "not repeated (the processes disagree on the sign)";
    if (!(d->ci_level >= confidence - 1e-9))
        return "no verdict (its interval's level is below the confidence asked)";
    return d->processes > 1 ? "resolved" : "resolved in one process";
}

CHRONO_API int chrono_delta_between(const chrono_delta *x, const chrono_delta *y, chrono_delta *out)
{
    if (!x || !y || !out || !chrono__finite(x->diff_ns) || !chrono__finite(y->diff_ns) ||
        !chrono__finite(x->ci_low_ns) || !chrono__finite(x->ci_high_ns) ||
        !chrono__finite(y->ci_low_ns) || !chrono__finite(y->ci_high_ns))
        return CHRONO_EINVAL;
    memset(out, 0, sizeof *out);
    out->diff_ns = x->diff_ns - y->diff_ns;
    out->ci_low_ns = x->ci_low_ns - y->ci_high_ns;
    out->ci_high_ns = x->ci_high_ns - y->ci_low_ns;
    out->ci_level = x->ci_level + y->ci_level - 1.0 > 0 ? x->ci_level + y->ci_level - 1.0 : 0.0;
    out->ratio = NAN;   /* two ratios against one baseline: no ratio of their own */
    out->below_noise = out->ci_low_ns <= 0.0 && out->ci_high_ns >= 0.0;
    out->processes = x->processes < y->processes ? x->processes : y->processes;
    out->process_min_ns = out->process_max_ns = NAN;   /* processes are not paired across
                                                          comparisons */
    out->split = 0;                                    /* ... so their signs are not either: the CIs
                                                          carry the spread */
    out->resolved = !out->below_noise;
    return 0;
}

CHRONO_API int chrono_project(const chrono_result *r, double ops, double confidence,
                              chrono_projection *out)
{
    double half = 0.0, mean, sd, n;
    int every;
    if (!r || !out || !(ops > 0) || !chrono__finite(ops) || !(confidence > 0 && confidence < 1) ||
        r->ns.n == 0 || !chrono__finite(r->ns.mean))
        return CHRONO_EINVAL;
    /* every whole sample where the run counted them, else the kept ones */
    every = r->all_n && chrono__finite(r->all_ns_mean);
    mean = every ? r->all_ns_mean : r->ns.mean;
    sd = every ? r->all_ns_stddev : r->ns.stddev;
    n = every ? (double)r->all_n : (double)r->ns.n;
    if (n > 1 && chrono__finite(sd)) half = chrono_stats_z(confidence) * sd / sqrt(n);
    out->ops = ops;
    out->per_op_mean_ns = mean;
    out->per_op_median_ns = r->ns.median;
    out->total_ns = ops * mean;
    out->ci_low_ns = ops * (mean - half);
    out->ci_high_ns = ops * (mean + half);
    out->median_total_ns = ops * r->ns.median;
    return 0;
}

/* A batch is cut into this many slices (fewer when it has fewer ops), one
   sample after each: the samples see ~1000 x 60 us of the batch's seconds
   (~5% of a 1.3 s copy), so a rare long interruption is neither missed
   nor, caught once in a few samples, taken for the rule. */
#define CHRONO__LITERAL_SLICES 1000u

/* The batch of chrono_literal_run, cut into slices: slice k of gaps does its
   share of ops on the session's clock (less the clock's overhead, as a
   sample), its time and context switches summed. */
typedef struct chrono__literal_batch {
    const chrono_session *s;
    chrono_fn fn;
    void *ctx;
    uint64_t ops;
    size_t gaps;
    uint64_t ticks;
    long switches;               /* -1: unknown */
} chrono__literal_batch;

CHRONO__PRIVATE void chrono__literal_slice(void *p, size_t k)
{
    chrono__literal_batch *b = (chrono__literal_batch *)p;
    /* the first ops % gaps get one more */
    uint64_t count = b->ops / b->gaps + (k < b->ops % b->gaps ? 1u : 0u);
    long sw0 = chrono_cpu_switches(), sw1;
    uint64_t t0 = chrono_clock_start(&b->s->clock), t1;
    b->fn(b->ctx, count);
    t1 = chrono_clock_stop(&b->s->clock);
    sw1 = chrono_cpu_switches();
    if (t1 > t0 + b->s->clock.overhead_ticks) b->ticks += t1 - t0 - b->s->clock.overhead_ticks;
    if (b->switches >= 0) b->switches = sw0 >= 0 && sw1 >= 0 ? b->switches + (sw1 - sw0) : -1;
}

CHRONO_API int chrono_literal_run(chrono_session *s, const char *name, chrono_fn fn, void *ctx,
                                  uint64_t ops, chrono_literal *out)
{
    chrono__literal_batch b;
    chrono_result beside;
    char run_name[CHRONO_NAME_MAX];
    int rc;
    if (!s || !fn || !out || !name || ops == 0) return CHRONO_EINVAL;
    memset(out, 0, sizeof *out);
    if (strlen(name) + sizeof "/literal_beside" > CHRONO_NAME_MAX) return CHRONO_ERANGE;
    b.s = s; b.fn = fn; b.ctx = ctx; b.ops = ops; b.ticks = 0; b.switches = 0;
    b.gaps = ops < CHRONO__LITERAL_SLICES ? (size_t)ops : CHRONO__LITERAL_SLICES;
    (void)chrono__bprintf(run_name, sizeof run_name, "%s/literal_beside", name);
    if ((rc = chrono_run_between(s, run_name, fn, ctx, chrono__literal_slice, &b, b.gaps,
                                 &beside)) < 0)
        return rc;
    out->ops = (double)ops;
    out->slices = b.gaps;
    out->ns = chrono_clock_ns(&s->clock, b.ticks);
    out->switches = b.switches;
    if ((rc = chrono_project(&beside, out->ops, s->cfg.confidence, &out->beside)) < 0) return rc;
    out->ratio = out->ns / out->beside.total_ns;
    return 0;
}

static const char *const chrono__then_now_cols[CHRONO_THEN_NOW_COLS] = {
    "row",        "then",           "then_per_op", "then_cycles",  "now",
    "now_per_op", "now_cycles_est", "ratio_us",    "ratio_cycles", "note"
};

/* A duration cell in the unit a person reads it in ("2.23 µs", "21.0 s"), or "n/a". */
CHRONO__PRIVATE void chrono__tn_duration(char *cell, double ns)
{
    if (chrono__finite(ns)) (void)chrono_report_duration(cell, CHRONO_THEN_NOW_CELL, ns);
    else (void)chrono__bprintf(cell, CHRONO_THEN_NOW_CELL, "n/a");
}

/* A number cell, or "n/a" where it is unknown. */
CHRONO__PRIVATE void chrono__tn_num(char *cell, const char *fmt, double v)
{
    if (chrono__finite(v)) (void)chrono__num(cell, CHRONO_THEN_NOW_CELL, fmt, v);
    else (void)chrono__bprintf(cell, CHRONO_THEN_NOW_CELL, "n/a");
}

CHRONO_API int chrono_then_now_build(chrono_then_now *t, const char *key, const char *title,
                                     const chrono_then_now_row *rows, size_t nrows, double seed_mhz)
{
    size_t i, j, ncells;
    if (!t || !key || (!rows && nrows)) return CHRONO_EINVAL;
    memset(t, 0, sizeof *t);
    ncells = nrows * CHRONO_THEN_NOW_COLS;
    if (nrows > ((size_t)-1) / CHRONO_THEN_NOW_COLS / CHRONO_THEN_NOW_CELL) return CHRONO_ENOMEM;
    if (ncells) {
        t->chrono__cell_text = (char *)CHRONO_MALLOC(ncells * CHRONO_THEN_NOW_CELL);
        t->chrono__cells = (const char **)CHRONO_MALLOC(ncells * sizeof *t->chrono__cells);
        if (!t->chrono__cell_text || !t->chrono__cells) {
            chrono_then_now_free(t);
            return CHRONO_ENOMEM;
        }
    }
    for (i = 0; i < nrows; i++) {
        const chrono_then_now_row *r = &rows[i];
        char *c[CHRONO_THEN_NOW_COLS];
        double then_us = chrono__finite(r->then_total_s) && r->then_ops > 0
                             ? r->then_total_s * 1e6 / r->then_ops
                             : r->then_us_per_op;
        double then_cyc = seed_mhz > 0 && chrono__finite(seed_mhz) ? then_us * seed_mhz : NAN;
        double now_cyc = r->now_ns * r->now_ghz;
        for (j = 0; j < CHRONO_THEN_NOW_COLS; j++) {
            c[j] = t->chrono__cell_text + (i * CHRONO_THEN_NOW_COLS + j) * CHRONO_THEN_NOW_CELL;
            c[j][0] = '\0';
            t->chrono__cells[i * CHRONO_THEN_NOW_COLS + j] = c[j];
        }
        (void)chrono__bprintf(c[0], CHRONO_THEN_NOW_CELL, "%u", (unsigned)(i + 1));
        if (chrono__finite(r->then_total_s)) {
            char n[48];
            (void)chrono__bprintf(c[1], CHRONO_THEN_NOW_CELL, "%s: %s s", r->then ? r->then : "",
                                  chrono__num(n, sizeof n, "%.3f", r->then_total_s));
        } else (void)chrono__bprintf(c[1], CHRONO_THEN_NOW_CELL, "%s", r->then ? r->then : "");
        chrono__tn_duration(c[2], then_us * 1000.0);
        chrono__tn_num(c[3], "%.0f", then_cyc);
        (void)chrono__bprintf(c[4], CHRONO_THEN_NOW_CELL, "%s", r->now ? r->now : "");
        chrono__tn_duration(c[5], r->now_ns);
        chrono__tn_num(c[6], "%.1f", now_cyc);
        chrono__tn_num(c[7], "%.2f", then_us * 1000.0 / r->now_ns);
        chrono__tn_num(c[8], "%.2f", then_cyc / now_cyc);
        (void)chrono__bprintf(c[9], CHRONO_THEN_NOW_CELL, "%s", r->note ? r->note : "");
    }
    t->table.key = key;
    t->table.title = title ? title : key;
    t->table.ncols = CHRONO_THEN_NOW_COLS;
    t->table.nrows = nrows;
    t->table.cols = chrono__then_now_cols;
    t->table.cells = t->chrono__cells;
    return 0;
}

CHRONO_API void chrono_then_now_free(chrono_then_now *t)
{
    if (!t) return;
    if (t->chrono__cell_text) CHRONO_FREE(t->chrono__cell_text);
    if (t->chrono__cells) CHRONO_FREE((void *)t->chrono__cells);
    memset(t, 0, sizeof *t);
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_EXPERIMENT_IMPL */

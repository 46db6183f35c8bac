/* loop_pairs.h — the loop form (loop.h) against the function form of the same
   body, side by side: pairs of runs in ABBA order (function, loop, loop,
   function, ...), the ratio loop/function of each pair's medians.  Shared by
   test_api.c (generous margins) and bench_loop.c (the 2% bar).  Include after
   <chronoscope.h>. */
#ifndef CHRONO_TEST_LOOP_PAIRS_H
#define CHRONO_TEST_LOOP_PAIRS_H

/* The body: n dependent steps of a 64-bit LCG (a multiply and an add, ~1 ns
   a step here), kept. */
static uint64_t lp_steps(uint64_t x, uint64_t n)
{
    uint64_t j;
    for (j = 0; j < n; j++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        chrono_keep(x);
    }
    return x;
}

typedef struct lp_ctx { uint64_t n, x; } lp_ctx;

static void lp_fn(void *ctx, uint64_t iters)
{
    lp_ctx *c = (lp_ctx *)ctx;
    uint64_t i;
    for (i = 0; i < iters; i++) c->x = lp_steps(c->x, c->n);
}

/* The median ns of one run of each form. */
static int lp_fn_run(chrono_session *s, lp_ctx *c, double *ns)
{
    chrono_result r;
    int rc = chrono_run(s, "function", lp_fn, c, &r);
    *ns = r.ns.median;
    return rc;
}

static int lp_loop_run(chrono_session *s, lp_ctx *c, double *ns)
{
    chrono_result r;
    chrono_loop l;
    chrono_loop_begin(&l, s, "loop", &r);
    while (chrono_loop_next(&l)) c->x = lp_steps(c->x, c->n);
    *ns = r.ns.median;
    return chrono_loop_end(&l);
}

static int lp_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* `pairs` ratios loop/function for a body of n steps (ABBA: odd pairs run the
   loop first), sorted into ratio[]; their median.  NAN on an error (its code
   in *rc). */
static double lp_pairs(chrono_session *s, uint64_t n, int pairs, double *ratio, int *rc)
{
    lp_ctx c;
    int p;
    c.n = n;
    c.x = 1;
    *rc = 0;
    for (p = 0; p < pairs; p++) {
        double f = NAN, l = NAN;
        if (p & 1) { *rc = lp_loop_run(s, &c, &l); if (*rc == 0) *rc = lp_fn_run(s, &c, &f); }
        else { *rc = lp_fn_run(s, &c, &f); if (*rc == 0) *rc = lp_loop_run(s, &c, &l); }
        if (*rc < 0) return NAN;
        ratio[p] = l / f;
    }
    qsort(ratio, (size_t)pairs, sizeof *ratio, lp_cmp);
    return pairs % 2 ? ratio[pairs / 2] : (ratio[pairs / 2 - 1] + ratio[pairs / 2]) / 2;
}

#endif

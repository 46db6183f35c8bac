/* test_values — figures checked against the inputs they came from, through
   the public API only (so the tests outlive moves between headers): pooled
   statistics and outlier fences on data whose answers are worked out by hand,
   Δ between comparisons and projections from filled structs, the saved-run
   interval and the checker's exit status on a simulated clock, a literal
   batch's ratio, and the command line's ranges at both ends.  Each point
   kills a fault in .ci/mutate's table (the row is named beside it). */
#define _POSIX_C_SOURCE 200809L   /* mkstemp */
#include <chronoscope.h>
#include "tap.h"

#if defined(__linux__) || defined(__APPLE__) || defined(__unix__)
#  include <unistd.h>
#  define VALUES_HAVE_MKSTEMP 1
#else
#  define VALUES_HAVE_MKSTEMP 0
#endif

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b)) + 1e-12; }

/* ---- stats: pooled across groups, outlier fences ------------------------------------------- */
static void test_pool(void)
{
    const double med[3] = { 10, 20, 60 }, lo[3] = { 2, 3, 55 }, hi[3] = { 12, 70, 64 };
    const double g0[3] = { 1, 2, 3 }, g1[3] = { 10, 11, 12 }, g2[3] = { 20, 21, 22 };
    const double *groups[3] = { g0, g1, g2 };
    const size_t n[3] = { 3, 3, 3 };
    chrono_stats st;
    int rc;
    memset(&st, 0, sizeof st);
    /* the median of the medians 10, 20, 60 is 20 (their mean would be 30); with three groups the
       interval is the lowest to the highest median, [10, 60], at 1 - 2^(1-3) = 75%, then widened
       to the median of the groups' own lower bounds (2, 3, 55: 3) and upper bounds (12, 70, 64: 64) */
    rc = chrono_stats_pool_median(med, lo, hi, 3, 0.95, NULL, &st);
    tap_ok(rc == 0 && st.median == 20,
           "pool_median: the median of the groups' medians 10, 20, 60 is 20 (%g)   [pooled median: mean of the group medians]",
           st.median);
    tap_ok(st.ci_low == 3 && st.ci_high == 64 && near(st.ci_level, 0.75),
           "pool_median: [10, 60] over 3 groups widened to the groups' own bounds' medians: [3, 64] at 75%% "
           "([%g, %g] at %g)   [pooled CI not widened to the groups' own]", st.ci_low, st.ci_high, st.ci_level);
    rc = chrono_stats_pool_median(med, NULL, NULL, 3, 0.95, NULL, &st);
    tap_ok(rc == 0 && st.ci_low == 10 && st.ci_high == 60,
           "pool_median without the groups' intervals: [10, 60] ([%g, %g])", st.ci_low, st.ci_high);

    /* three groups of three: medians 2, 11, 21; every other figure over all nine samples */
    rc = chrono_stats_pool(groups, n, 3, 0.95, &st);
    tap_ok(rc == 0 && st.n == 9 && st.min == 1 && st.max == 22 &&
           near(st.mean, 102.0 / 9) && st.median == 11 && st.ci_low == 2 && st.ci_high == 21 && near(st.ci_level, 0.75),
           "pool: n 9, min 1, max 22, mean 102/9, median of the medians 11, CI [2, 21] at 75%% "
           "(n %zu, %g..%g, mean %g, median %g [%g, %g] at %g)", st.n, st.min, st.max, st.mean, st.median, st.ci_low,
           st.ci_high, st.ci_level);
}

static void test_outliers(void)
{
    /* 1..8 and 17: q1 3, q3 7 (linear interpolation), IQR 4; mild fences -3 and 13, severe -9 and 19:
       17 is a high outlier, not a severe one */
    const double x[9] = { 5, 1, 17, 3, 8, 2, 7, 4, 6 };
    chrono_stats st;
    int rc = chrono_stats_compute(x, 9, 0.95, NULL, &st);
    tap_ok(rc == 0 && st.q1 == 3 && st.q3 == 7 && st.median == 5,
           "stats: q1 3, median 5, q3 7 of 1..8 and 17 (%g, %g, %g)", st.q1, st.median, st.q3);
    tap_ok(st.outliers_high == 1 && st.outliers_low == 0 && st.outliers_severe == 0,
           "stats: 17 is beyond q3 + 1.5 IQR (13), not q3 + 3 IQR (19): 1 high, 0 low, 0 severe (%zu, %zu, %zu)"
           "   [severe outliers fenced at 2 IQR]", (size_t)st.outliers_high, (size_t)st.outliers_low,
           (size_t)st.outliers_severe);
}

/* ---- experiment: Δ, its verdict, projections -------------------------------------------------- */
static void test_deltas(void)
{
    chrono_delta x, y, d;
    chrono_comparison c;
    int rc;
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    x.diff_ns = 10; x.ci_low_ns = 5; x.ci_high_ns = 15; x.ci_level = 0.95; x.processes = 1;
    y.diff_ns = 4; y.ci_low_ns = 2; y.ci_high_ns = 6; y.ci_level = 0.95; y.processes = 1;
    rc = chrono_delta_between(&x, &y, &d);
    tap_ok(rc == 0 && d.diff_ns == 6 && d.ci_low_ns == -1 && d.ci_high_ns == 13,
           "delta_between: 10 [5, 15] - 4 [2, 6] = 6 [5 - 6, 15 - 2] = [-1, 13] (%g [%g, %g])"
           "   [delta between: CI from same-side bounds]", d.diff_ns, d.ci_low_ns, d.ci_high_ns);
    tap_ok(near(d.ci_level, 0.90) && d.below_noise && !d.resolved,
           "delta_between: both intervals must hold: level 0.95 + 0.95 - 1 = 0.90 (%g); [-1, 13] holds 0: below noise"
           "   [delta between: level the lower, not both]", d.ci_level);

    memset(&c, 0, sizeof c);
    c.ratio = 1.5; c.ci_low = 1.2; c.ci_high = 1.8; c.ci_level = 0.95;
    c.b.ns.median = 100; c.a.ns.median = 150;
    c.process_min_ratio = c.process_max_ratio = NAN;
    rc = chrono_delta_from(&c, &d);
    tap_ok(rc == 0 && d.diff_ns == 50 && near(d.ci_low_ns, 20) && near(d.ci_high_ns, 80) &&
           d.ratio == 1.5 && !d.below_noise && d.resolved,
           "delta_from: a/b 1.5 [1.2, 1.8] over b's 100 ns: a - b = 50 [20, 80] ns (%g [%g, %g])", d.diff_ns, d.ci_low_ns,
           d.ci_high_ns);
    tap_ok(!strncmp(chrono_delta_verdict(&d, 0.95), "resolved", 8), "verdict at 95%%: '%s'", chrono_delta_verdict(&d, 0.95));
    d.ci_level = 0.75;
    tap_ok(!strncmp(chrono_delta_verdict(&d, 0.95), "no verdict", 10),
           "verdict of a resolved 75%% interval at 95%%: '%s'   [delta verdict ignores its level]",
           chrono_delta_verdict(&d, 0.95));
}

static void test_projection(void)
{
    chrono_result r;
    chrono_projection p;
    double z = chrono_stats_z(0.95);
    int rc;
    memset(&r, 0, sizeof r);
    r.ns.n = 50; r.ns.mean = 100; r.ns.stddev = 5; r.ns.median = 99;
    r.all_n = 100; r.all_ns_mean = 110; r.all_ns_stddev = 10;   /* every sample, the contended ones too */
    rc = chrono_project(&r, 1000, 0.95, &p);
    tap_ok(rc == 0 && p.total_ns == 110000 && near(p.ci_low_ns, 1000 * (110 - z)) &&
           near(p.ci_high_ns, 1000 * (110 + z)) && p.median_total_ns == 99000 && p.per_op_mean_ns == 110,
           "project: 1000 ops x the mean of every sample, 110 +- z 10/sqrt(100): %g [%g, %g], median total %g"
           "   [projection from the kept samples only]", p.total_ns, p.ci_low_ns, p.ci_high_ns, p.median_total_ns);
}

/* ---- a simulated clock: every tick is the test's ----------------------------------------------- */
typedef struct sim { uint64_t now; } sim;
typedef struct body { sim *clk; uint64_t per_call, per_iter; } body;
static uint64_t sim_read(void *ctx) { return ++((sim *)ctx)->now; }
static void sim_body(void *ctx, uint64_t iters)
{
    body *b = (body *)ctx;
    b->clk->now += b->per_call + b->per_iter * iters;
}

static int open_sim(chrono_session *s, chrono_clock *clk, sim *c)
{
    chrono_config cfg = chrono_config_default();
    int rc = chrono_clock_open_custom(clk, "sim", sim_read, c, 1e9);
    if (rc < 0) return rc;
    cfg.custom_clock = clk;
    cfg.cycles = CHRONO_CYCLES_OFF;
    cfg.pin = CHRONO_PIN_OFF;
    cfg.samples = 21;
    cfg.warmup_ms = 0.01;
    cfg.max_ms = 50;
    return chrono_session_open(s, &cfg);
}

static void test_literal(void)
{
    sim c = { 0 };
    chrono_clock clk;
    chrono_session s;
    chrono_literal lit;
    body b;
    int rc;
    if (open_sim(&s, &clk, &c) < 0) { tap_ok(0, "simulated session opens"); return; }
    /* 2000 ops in 1000 slices of 2: each slice pays the call's 1000 ticks for 2 ops (~700 ns an op);
       the samples beside it run long batches (~200 ns an op): the batch is ~3.5x its projection */
    b.clk = &c; b.per_call = 1000; b.per_iter = 200;
    rc = chrono_literal_run(&s, "lit", sim_body, &b, 2000, &lit);
    tap_ok(rc == 0 && near(lit.ratio, lit.ns / lit.beside.total_ns) && lit.ratio > 2 && lit.ratio < 5,
           "literal: ratio = batch / projection = %g / %g = %g (2 < it < 5)   [literal ratio upside down]", lit.ns,
           lit.beside.total_ns, lit.ratio);
    chrono_session_close(&s);
}

/* ---- check: a saved run's interval, the exit status ------------------------------------------- */
static void test_saved_interval(void)
{
    sim c = { 0 };
    chrono_clock clk;
    chrono_session s;
    chrono_checker ck;
    chrono_expectation *e;
    body b;
    chrono_verdict v;
    FILE *f;
    char path[] = "/tmp/chrono_test_values_XXXXXX";
#if VALUES_HAVE_MKSTEMP
    int fd = mkstemp(path);
    if (fd < 0) { tap_skip("no temporary file"); return; }
    close(fd);
#else
    tap_skip("no mkstemp here");
    return;
#endif
    if (open_sim(&s, &clk, &c) < 0 || chrono_checker_open(&ck, &s, NULL) < 0) { tap_ok(0, "simulated session opens"); return; }
    /* saved: 200 ns [100, 400]; now: exactly 200 ns an iteration (a simulated clock has no spread) */
    f = fopen(path, "wb");
    if (f) {
        fputs("{\"context\": {}, \"benchmarks\": [{\"name\": \"kernel\", \"median_ns\": 200, \"ci_low_ns\": 100, "
              "\"ci_high_ns\": 400, \"ci_level\": 0.95, \"samples\": 101}]}\n", f);
        fclose(f);
    }
    b.clk = &c; b.per_call = 0; b.per_iter = 200;
    v = chrono_check_saved(&ck, "kernel", sim_body, &b, path, 1.1);
    e = &ck.items[ck.n - 1];
    tap_ok(near(e->estimate, 1.0) && near(e->ci_low, 0.5) && near(e->ci_high, 2.0),
           "saved: now 200 ns / saved 200 [100, 400] ns = 1 [200/400, 200/100] = [0.5, 2] (%g [%g, %g])"
           "   [saved: now/saved interval not widened]", e->estimate, e->ci_low, e->ci_high);
    tap_ok(v == CHRONO_INCONCLUSIVE, "saved: the median is within 1.1x but the interval reaches 2x: inconclusive (%s)",
           chrono_verdict_name(v));
    tap_ok(chrono_checker_exit_status(&ck) == 0, "exit status 0 with an inconclusive verdict only");
    v = chrono_check_saved(&ck, "kernel", sim_body, &b, "/nonexistent/chrono_values.json", 1.1);
    tap_ok(v == CHRONO_VERDICT_ERROR && chrono_checker_exit_status(&ck) == 1,
           "a saved run that cannot be read is an error (%s): exit status 1   [checker exit 0 on an error verdict]",
           chrono_verdict_name(v));
    remove(path);
    chrono_checker_close(&ck);
    chrono_session_close(&s);
}

/* ---- check: a scaling claim's looks ------------------------------------------------------------ */
/* 100 + 10 n ticks, but n = 1000 costs 2x for the first two looks (a spell of
   other programs over the last point of both): the third look's median is
   the clean one, and the claim O(n) passes on each point's smallest. */
typedef struct spell { sim *clk; int looks_slowed; int seen_max; } spell;
static void spell_sweep(void *ctx, uint64_t n, uint64_t iters)
{
    spell *p = (spell *)ctx;
    if (n == 1000) p->seen_max = 1;
    if (n == 1 && p->seen_max) { p->looks_slowed++; p->seen_max = 0; }
    p->clk->now += (100 + 10 * n) * (n == 1000 && p->looks_slowed < 2 ? 2 : 1) * iters;
}

/* chrono_check_scaling of fn (its ctx timed on the simulated clock c) over
   n = 1, 10, 100, 1000, claimed O(n): the verdict, *e its figures and *sweeps
   the sweeps it took; an error verdict when the session does not open. */
static chrono_verdict scaling_on_sim(chrono_sweep_fn fn, void *ctx, sim *c, chrono_expectation *e, size_t *sweeps)
{
    chrono_clock clk;
    chrono_session s;
    chrono_checker ck;
    chrono_verdict v;
    uint64_t params[] = { 1, 10, 100, 1000 };
    memset(e, 0, sizeof *e);
    if (open_sim(&s, &clk, c) < 0 || chrono_checker_open(&ck, &s, NULL) < 0) return CHRONO_VERDICT_ERROR;
    v = chrono_check_scaling(&ck, "spell", fn, ctx, params, 4, CHRONO_O_N);
    *e = ck.items[0];
    *sweeps = s.nsweeps;
    chrono_checker_close(&ck);
    chrono_session_close(&s);
    return v;
}

static void test_scaling_looks(void)
{
    sim c = { 0 };
    spell p;
    chrono_expectation e;
    size_t sweeps = 0;
    chrono_verdict v;
    p.clk = &c;
    p.looks_slowed = p.seen_max = 0;
    v = scaling_on_sim(spell_sweep, &p, &c, &e, &sweeps);
    tap_ok(v == CHRONO_PASS && e.rounds == 12 && e.best == CHRONO_O_N && sweeps == 3,
           "scaling: n = 1000 slowed 2x in two looks: a third look (%lu points, %zu sweeps), PASS O(n) (%s)"
           "   [scaling: two looks only]", (unsigned long)e.rounds, sweeps, v == CHRONO_VERDICT_ERROR ? "" : e.reason);
}

/* 100 + 10 n ticks, 2x from the first look's last point on (a spell that
   began partway through a look and outlasted the next): each point's smallest
   median mixes quick points with a slow last one, a shape O(n^2) fits best,
   and the second look alone is clean: O(n) passes on it. */
typedef struct late_spell { sim *clk; int slowed; } late_spell;
static void late_spell_sweep(void *ctx, uint64_t n, uint64_t iters)
{
    late_spell *p = (late_spell *)ctx;
    if (n == 1000) p->slowed = 1;
    p->clk->now += (100 + 10 * n) * (p->slowed ? 2 : 1) * iters;
}

static void test_scaling_look_alone(void)
{
    sim c = { 0 };
    late_spell p;
    chrono_expectation e;
    size_t sweeps = 0;
    chrono_verdict v;
    p.clk = &c;
    p.slowed = 0;
    v = scaling_on_sim(late_spell_sweep, &p, &c, &e, &sweeps);
    tap_ok(v == CHRONO_PASS && e.rounds == 8 && e.best == CHRONO_O_N && sweeps == 2 &&
           strncmp(e.reason, "look 2 alone: ", 14) == 0,
           "scaling: 2x from the first look's last point on: the second look alone (%lu points, %zu sweeps), "
           "PASS O(n) (%s)   [scaling: no look alone]", (unsigned long)e.rounds, sweeps,
           v == CHRONO_VERDICT_ERROR ? "" : e.reason);
}

/* ---- bench: a sweep's intervals --------------------------------------------------------------- */
/* 100 + 10 n ticks an iteration, each point off the line by its own few
   percent (+4, -3, +2, -1 %): the fit has errors, and its intervals must be
   those of the fit on the points' medians (each coefficient's own standard
   error: the slope's is in ns per unit, the fixed cost's in ns). */
typedef struct bumpy { sim *clk; } bumpy;
static void bumpy_sweep(void *ctx, uint64_t n, uint64_t iters)
{
    bumpy *p = (bumpy *)ctx;
    double off = n == 1 ? 1.04 : n == 10 ? 0.97 : n == 100 ? 1.02 : 0.99;
    p->clk->now += (uint64_t)((100.0 + 10.0 * (double)n) * off) * iters;
}

static void test_sweep_intervals(void)
{
    sim c = { 0 };
    bumpy p;
    chrono_clock clk;
    chrono_session s;
    chrono_sweep_result sw;
    chrono_fit2 f;
    uint64_t params[] = { 1, 10, 100, 1000 };
    double x[4], y[4], ones[4] = { 1, 1, 1, 1 }, z;
    size_t i;
    int rc;
    p.clk = &c;
    if (open_sim(&s, &clk, &c) < 0) { tap_ok(0, "simulated session opens"); return; }
    rc = chrono_sweep(&s, "bumpy", bumpy_sweep, &p, params, 4, &sw);
    for (i = 0; rc == 0 && i < 4; i++) { x[i] = (double)params[i]; y[i] = s.results[sw.first_result + i].ns.median; }
    if (rc == 0) rc = chrono_stats_fit2(ones, x, y, 4, CHRONO_FIT2_RELATIVE, NULL, &f);
    z = chrono_stats_z(s.cfg.confidence);
    tap_ok(rc == 0 && f.se_b > 0 && near(sw.per_unit_ns, f.b) && near(sw.per_unit_ci[0], f.b - z * f.se_b) &&
           near(sw.per_unit_ci[1], f.b + z * f.se_b) && sw.per_unit_ci[0] < 10 && sw.per_unit_ci[1] > 9,
           "sweep: slope %g ns a unit [%g, %g], the fit's on the points' medians +- z se (%g +- %g x %g)"
           "   [sweep: the slope's interval from the fixed cost's error]", sw.per_unit_ns, sw.per_unit_ci[0],
           sw.per_unit_ci[1], f.b, z, f.se_b);
    tap_ok(rc == 0 && f.se_a > 0 && near(sw.fixed_ns, f.a) && near(sw.fixed_ci[0], f.a - z * f.se_a) &&
           near(sw.fixed_ci[1], f.a + z * f.se_a),
           "sweep: fixed %g ns [%g, %g], the fit's +- z se (%g +- %g x %g)", sw.fixed_ns, sw.fixed_ci[0], sw.fixed_ci[1],
           f.a, z, f.se_a);
    chrono_session_close(&s);
}

/* The weighted fit (relative weights 1/y^2, as a sweep fits) on noisy points:
   a, b and r2 against the same least squares done exactly in rationals
   (Python's fractions): r2 = 1 - sum w r^2 / sum w (y - ybar_w)^2 with the
   weighted mean, 0.996863791725266 (about the plain mean 0.99958, with
   unweighted sums 0.999999996: on exact data every one of them reads 1). */
static void test_fit2_noisy(void)
{
    double x[6] = { 1, 2, 4, 8, 16, 32 }, y[6] = { 130, 155, 235, 370, 690, 1300 }, ones[6] = { 1, 1, 1, 1, 1, 1 };
    chrono_fit2 f;
    int rc = chrono_stats_fit2(ones, x, y, 6, CHRONO_FIT2_RELATIVE, NULL, &f);
    tap_ok(rc == 0 && fabs(f.a - 87.6122000949069) < 1e-9 && fabs(f.b - 36.9130884855562) < 1e-10 &&
           fabs(f.r2 - 0.996863791725266) < 1e-12,
           "fit2 relative on noisy points: a %.12g (87.6122000949069), b %.12g (36.9130884855562), r2 %.15g "
           "(0.996863791725266)   [weighted fit: r2 about the plain mean]", f.a, f.b, f.r2);
}

/* ---- table: durations, a table's cells in JSON ----------------------------------------------- */
static void test_table(void)
{
    static const struct { double ns; const char *text; } d[] = {
        { 0.285, "0.285 ns" }, { 999.4, "999 ns" }, { 999.6, "1.00 \xC2\xB5s" }, { 1500, "1.50 \xC2\xB5s" },
        { 2.5e6, "2.50 ms" }, { 12e9, "12.0 s" },
    };
    static const char *const cols[] = { "variant", "ns_per_op", "time" };
    chrono_table_builder tb;
    char buf[64], json[1024];
    size_t i, n;
    int good = 1;
    FILE *f;
    for (i = 0; i < sizeof d / sizeof d[0]; i++) {
        chrono_report_duration(buf, sizeof buf, d[i].ns);
        if (strcmp(buf, d[i].text)) { good = 0; tap_diag("%g ns: '%s', want '%s'", d[i].ns, buf, d[i].text); }
    }
    tap_ok(good, "durations: 0.285 ns, 999 ns, then 1.00 us from 999.5 ns, 1.50 us, 2.50 ms, 12.0 s"
           "   [duration: us from 9999.5 ns]");
    chrono_table_init(&tb, "variants", NULL, cols, 3);
    chrono_table_text(&tb, "memcpy"); chrono_table_number(&tb, 1.25, "%.2f", NULL); chrono_table_duration(&tb, 1250);
    chrono_table_text(&tb, "loop"); chrono_table_number(&tb, NAN, "%.2f", NULL); chrono_table_duration(&tb, NAN);
    f = tmpfile();
    n = 0;
    if (f && chrono_table_write(f, CHRONO_FORMAT_JSON, &tb.table) == 0) {
        rewind(f);
        n = fread(json, 1, sizeof json - 1, f);
    }
    json[n] = '\0';
    if (f) fclose(f);
    tap_ok(tb.table.nrows == 2 && strstr(json, "\"ns_per_op\": 1.25") && strstr(json, "\"time\": \"1.25 \xC2\xB5s\"") &&
           strstr(json, "\"ns_per_op\": null") && strstr(json, "\"time\": null") && !strstr(json, "n/a"),
           "a table in JSON: 1.25 a number, '1.25 us' a string, NaN cells (n/a) null   [table JSON: n/a as a string]");
    chrono_table_free(&tb);
}

/* ---- counters: a delta of two reads --------------------------------------------------------------- */
static void test_counter_delta(void)
{
    chrono_counters c;
    chrono_counter_read a, b;
    double d[CHRONO_COUNTER_COUNT];
    int rc;
    memset(&c, 0, sizeof c);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    c.open = CHRONO_COUNTER_BIT(CHRONO_COUNTER_INSTRUCTIONS) | CHRONO_COUNTER_BIT(CHRONO_COUNTER_CYCLES);
    c.read_cost[CHRONO_COUNTER_INSTRUCTIONS] = 10;
    c.read_cost[CHRONO_COUNTER_CYCLES] = 2000;   /* more than the interval counted: 0, not negative */
    a.value[CHRONO_COUNTER_INSTRUCTIONS] = 100; b.value[CHRONO_COUNTER_INSTRUCTIONS] = 1100;
    a.value[CHRONO_COUNTER_CYCLES] = 50; b.value[CHRONO_COUNTER_CYCLES] = 1050;
    b.enabled_ns = b.running_ns = 1000;
    rc = chrono_counters_delta(&c, &a, &b, d);
    tap_ok(rc == 0 && d[CHRONO_COUNTER_INSTRUCTIONS] == 990 && d[CHRONO_COUNTER_CYCLES] == 0 &&
           isnan(d[CHRONO_COUNTER_BRANCHES]),
           "counters: 1100 - 100 less a read's 10 = 990 instructions, cycles below the read's cost 0, a counter not "
           "open NaN (%g, %g, %g)   [counters: the read's cost not subtracted]", d[0], d[1], d[2]);
    b.running_ns = 900;   /* multiplexed off the PMU a tenth of the time */
    rc = chrono_counters_delta(&c, &a, &b, d);
    tap_ok(rc == CHRONO_EBUSY && isnan(d[CHRONO_COUNTER_INSTRUCTIONS]) && isnan(d[CHRONO_COUNTER_CYCLES]),
           "counters: running 900 of 1000 ns enabled: CHRONO_EBUSY, every delta NaN   [counters: a multiplexed "
           "interval read as whole]");
}

/* ---- clock: an overhead that varies ------------------------------------------------------------ */
/* A read costs 1 tick, but every second read (each stop of the overhead's
   start-stop pairs) 1 + (pair % 5): over the 1001 pairs, 201 cost 1, 200 each
   2, 3, 4 and 5; the median is 3, the fastest 1, the smallest step 1. */
typedef struct steps { uint64_t now, reads; } steps;
static uint64_t steps_read(void *ctx)
{
    steps *t = (steps *)ctx;
    uint64_t j = t->reads++;
    t->now += (j & 1) ? 1 + (j / 2) % 5 : 1;
    return t->now;
}

static void test_clock_overhead(void)
{
    steps t = { 0, 0 };
    chrono_clock clk;
    int rc = chrono_clock_open_custom(&clk, "steps", steps_read, &t, 1e9);
    tap_ok(rc == 0 && clk.overhead_ticks == 3 && clk.overhead_min_ticks == 1 && clk.resolution_ticks == 1,
           "clock: start-stop pairs costing 1..5 ticks evenly: overhead the median 3, fastest 1, resolution 1 "
           "(%llu, %llu, %llu)   [clock overhead: the fastest read, not the median]",
           (unsigned long long)clk.overhead_ticks, (unsigned long long)clk.overhead_min_ticks,
           (unsigned long long)clk.resolution_ticks);
}

/* ---- processes: three children pooled, a child's flag --------------------------------------------- */
/* Process k's "alpha": 21 samples around 110, 120, 100 ns (the medians out of
   order, as children finish: the lowest arrives last), k + 1 samples switched
   out, k front-end contended, 1 port contended; its sweep "fit" per unit 3, 1,
   2 ns and fixed 30, 10, 20 ns (process order). */
static int fake_process(chrono_process *o, int k)
{
    static const double per_unit[3] = { 3, 1, 2 }, fixed[3] = { 30, 10, 20 }, median[3] = { 110, 120, 100 };
    chrono_result *r = (chrono_result *)calloc(1, sizeof *r);
    chrono_sweep_result *sw = (chrono_sweep_result *)calloc(1, sizeof *sw);
    double *v = (double *)malloc(21 * sizeof *v);   /* freed by chrono_processes_free */
    int i;
    memset(o, 0, sizeof *o);
    o->results = r; o->sweeps = sw;
    if (!r || !sw || !v) { free(v); return -1; }
    o->nresults = o->nsweeps = 1;
    o->complete = 1;
    for (i = 0; i < 21; i++) v[i] = median[k] * (1 + 0.001 * (i - 10));
    (void)snprintf(r->name, sizeof r->name, "alpha");
    if (chrono_stats_compute(v, 21, 0.95, NULL, &r->ns) < 0) { free(v); return -1; }
    r->ticks = r->ns;
    r->sample_ns = v; r->nsample_ns = 21;
    r->samples = 21; r->samples_taken = 21 + (size_t)(2 * k + 2);
    r->iters_per_sample = 1;
    r->preempted = (size_t)k + 1; r->contended = (size_t)k; r->port_contended = 1;
    (void)snprintf(sw->name, sizeof sw->name, "fit");
    sw->per_unit_ns = per_unit[k]; sw->fixed_ns = fixed[k];
    return 0;
}

static void test_processes_pool(void)
{
    sim c = { 0 };
    chrono_clock clk;
    chrono_session s;
    chrono_processes ps;
    chrono_result out;
    chrono_sweep_result sw;
    int k, rc = 0;
    if (open_sim(&s, &clk, &c) < 0) { tap_ok(0, "simulated session opens"); return; }
    ps.n = 3; ps.failed = 0;
    ps.procs = (chrono_process *)calloc(3, sizeof *ps.procs);
    for (k = 0; k < 3 && ps.procs; k++) rc |= fake_process(&ps.procs[k], k);
    rc = ps.procs && rc == 0 ? chrono_processes_pool(&ps, &s, "alpha", &out) : CHRONO_ENOMEM;
    tap_ok(rc == 0 && out.processes == 3 && out.ns.median == 110 && out.process_min_ns == 100 && out.process_max_ns == 120,
           "processes: medians 110, 120, 100 (out of order) pooled: median 110, between processes 100..120 "
           "(%g, %g..%g)   [pooled spread: the top is the middle median] [pooled spread: in arrival order]",
           out.ns.median, out.process_min_ns, out.process_max_ns);
    tap_ok(rc == 0 && out.preempted == 6 && out.contended == 3 && out.port_contended == 3 && out.samples == 63 &&
           out.samples_taken == 75,
           "processes: rejections added over the three: 1+2+3 switched out, 0+1+2 front end, 1+1+1 ports; samples 63 "
           "of 75 (%zu, %zu, %zu; %zu of %zu)   [pooled rejections: the last process's only] "
           "[rejections: front-end ones counted as port ones]", out.preempted, out.contended, out.port_contended,
           out.samples, out.samples_taken);
    rc = ps.procs ? chrono_processes_pool_sweep(&ps, "fit", &sw) : CHRONO_ENOMEM;
    tap_ok(rc == 0 && sw.per_unit_ns == 2 && sw.fixed_ns == 20,
           "processes: a sweep's slopes 3, 1, 2 and fixed costs 30, 10, 20 pooled as their medians 2 and 20 (%g, %g)"
           "   [pooled sweep: the first process's slope]", sw.per_unit_ns, sw.fixed_ns);
    chrono_processes_free(&ps);
    chrono_session_close(&s);
}

static int child_flag(const char *flag, chrono_child_flag *f, int *argc)
{
    char *argv[3], **v, **copy = NULL;
    int rc;
    argv[0] = (char *)"prog"; argv[1] = (char *)flag; argv[2] = NULL;
    *argc = 2;
    v = argv;
    rc = chrono_processes_child_args(argc, &v, f, &copy);
    free(copy);
    return rc;
}

static void test_child_flag(void)
{
    chrono_child_flag f;
    int argc, rc;
    rc = child_flag(CHRONO_PROCESSES_FLAG "999:7:-1", &f, &argc);
    tap_ok(rc == 0 && f.index == 1000 && f.fd == 7 && f.call == -1 && argc == 1,
           "child flag 999:7:-1: process 1000 (the last of CHRONO_PROCESSES_MAX), pipe 7, every call, taken out of argv "
           "(rc %d, %d, %d, %d, argc %d)", rc, f.index, f.fd, f.call, argc);
    rc = child_flag(CHRONO_PROCESSES_FLAG "1000:7:0", &f, &argc);
    tap_ok(rc == CHRONO_EINVAL && f.index == 0,
           "child flag 1000:7:0: a 1001st process refused (rc %d)   [child flag: process 1000 of at most 1000 accepted]", rc);
    tap_ok(child_flag(CHRONO_PROCESSES_FLAG "3:7:-2", &f, &argc) == CHRONO_EINVAL &&
           child_flag(CHRONO_PROCESSES_FLAG "3:7x:0", &f, &argc) == CHRONO_EINVAL &&
           child_flag(CHRONO_PROCESSES_FLAG "3:-1:0", &f, &argc) == CHRONO_EINVAL &&
           child_flag(CHRONO_PROCESSES_FLAG "3:7", &f, &argc) == CHRONO_EINVAL,
           "child flag: a call below -1, a pipe not a whole number or negative, a missing field: refused");
}

/* ---- cli: each range at both ends ------------------------------------------------------------- */
static int parse(const char *a, const char *b, const chrono_cli_flag *extra, size_t nextra, chrono_cli *o, chrono_config *cfg)
{
    char *argv[4];
    int argc = 1;
    argv[0] = (char *)"values";
    if (a) argv[argc++] = (char *)a;
    if (b) argv[argc++] = (char *)b;
    argv[argc] = NULL;
    *cfg = chrono_config_default();
    return chrono_cli_parse_ex(cfg, o, argc, argv, extra, nextra);
}

static void range_case(const char *arg, int good, const char *range, const char *row)
{
    chrono_cli o;
    chrono_config cfg;
    int rc = parse(arg, NULL, NULL, 0, &o, &cfg);
    if (good) tap_ok(rc == 0, "%s is accepted%s%s", arg, row ? "   " : "", row ? row : "");
    else tap_ok(rc == CHRONO_EINVAL && strstr(o.error, range) != NULL, "%s is refused: '%s'%s%s", arg, o.error,
                row ? "   " : "", row ? row : "");
}

static void test_cli_ranges(void)
{
    chrono_cli o;
    chrono_config cfg;
    int reps = -1, deep = -1;
    chrono_cli_flag extra[2];
    range_case("--processes=1000", 1, NULL, NULL);
    range_case("--processes=1001", 0, "(1..1000)", "[--processes accepts 1001]");
    range_case("--processes=0", 0, "(1..1000)", NULL);
    range_case("--samples=1000000", 1, NULL, NULL);
    range_case("--samples=1000001", 0, "(1..1000000)", NULL);
    range_case("--samples=0", 0, "(1..1000000)", NULL);
    range_case("--warmup-ms=0.001", 1, NULL, NULL);
    range_case("--warmup-ms=0", 0, "(0.001..3600000)", "[--warmup-ms accepts 0]");
    range_case("--warmup-ms=3600001", 0, "(0.001..3600000)", NULL);
    range_case("--max-ms=1", 1, NULL, NULL);
    range_case("--max-ms=0.5", 0, "(1..86400000)", NULL);
    range_case("--max-ms=86400001", 0, "(1..86400000)", NULL);
    {   /* parsed before the message reads them: arguments are evaluated in no set order */
        int processes = parse("--processes=1000", NULL, NULL, 0, &o, &cfg) == 0 ? o.processes : -1;
        int set = parse("--warmup-ms=0.001", "--samples=7", NULL, 0, &o, &cfg) == 0;
        tap_ok(processes == 1000 && set && cfg.warmup_ms == (double)0.001 && cfg.samples == 7,
               "the values accepted are the values set (processes %d, warmup %g ms, samples %d)", processes,
               set ? cfg.warmup_ms : -1.0, set ? cfg.samples : -1);
    }

    /* a program's INT flag bounded by 0.5..10.5 takes the whole numbers 1..10 */
    memset(extra, 0, sizeof extra);
    extra[0].name = "--reps"; extra[0].kind = CHRONO_CLI_INT; extra[0].value = &reps; extra[0].min = 0.5; extra[0].max = 10.5;
    extra[0].help = "repetitions";
    extra[1].name = "--deep"; extra[1].kind = CHRONO_CLI_BOOL; extra[1].value = &deep; extra[1].help = "go deep";
    tap_ok(parse("--reps=1", NULL, extra, 2, &o, &cfg) == 0 && reps == 1 && parse("--reps=10", NULL, extra, 2, &o, &cfg) == 0 &&
           reps == 10, "an INT flag bounded 0.5..10.5 takes 1 and 10 (%d)", reps);
    tap_ok(parse("--reps=0", NULL, extra, 2, &o, &cfg) == CHRONO_EINVAL && strstr(o.error, "(1..10)") &&
           parse("--reps=11", NULL, extra, 2, &o, &cfg) == CHRONO_EINVAL,
           "... and refuses 0 and 11: '%s'   [int flag bounds truncated, not rounded in]", o.error);
    tap_ok(parse("--deep", NULL, extra, 2, &o, &cfg) == 0 && deep == 1 && parse("--deep=off", NULL, extra, 2, &o, &cfg) == 0 &&
           deep == 0 && parse("--deep=maybe", NULL, extra, 2, &o, &cfg) == CHRONO_EINVAL,
           "a BOOL flag alone is 1, =off is 0, =maybe is refused   [a bool flag alone sets 0]");
    (void)parse("--samples=x", NULL, NULL, 0, &o, &cfg);
    tap_ok(chrono_cli_fail(&o, "values") == 2, "chrono_cli_fail (bad input): exit status 2   [bad input exits 1]");
}

int main(void)
{
    test_pool();
    test_outliers();
    test_deltas();
    test_projection();
    test_literal();
    test_saved_interval();
    test_scaling_looks();
    test_scaling_look_alone();
    test_sweep_intervals();
    test_table();
    test_counter_delta();
    test_clock_overhead();
    test_processes_pool();
    test_fit2_noisy();
    test_child_flag();
    test_cli_ranges();
    return tap_done();
}

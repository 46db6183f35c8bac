/* Runner tests.  Figures that depend on the machine are only ever compared
   side by side (ratios with wide margins); exact figures come from a
   simulated clock whose every tick the test controls.  Also the faults the
   runner must survive: pinning refused, migration, a clock going backwards,
   bodies far slower or faster than the timer, outliers, max_ms, signals. */
#include <chronoscope.h>
#include "tap.h"
#include "chains.h"
#if defined(__linux__)
#  include <sched.h>
#  include <signal.h>
#  include <sys/time.h>
#  include <unistd.h>
#endif

/* ---- a simulated clock: 1 GHz, every read advances it one tick, bodies
   advance it by what they "cost" ---------------------------------------- */
typedef struct sim {
    uint64_t now;
    uint64_t cost_per_iter;     /* ticks each iteration costs */
    uint64_t calls;
    uint64_t spike_call;        /* this call costs spike_ticks more (0: none) */
    uint64_t spike_ticks;
    uint64_t back_every;        /* every n-th call's stop read goes back in time (0: never) */
    int back_pending;
} sim;

static uint64_t sim_read(void *ctx)
{
    sim *c = (sim *)ctx;
    if (c->back_pending) {   /* the read right after the body: the stop of a sample */
        c->back_pending = 0;
        return c->now / 2;
    }
    return ++c->now;
}

static void sim_body(void *ctx, uint64_t iters)
{
    sim *c = (sim *)ctx;
    c->now += c->cost_per_iter * iters;
    if (++c->calls == c->spike_call) c->now += c->spike_ticks;
    if (c->back_every && c->calls % c->back_every == 0) c->back_pending = 1;
}

static void sim_sweep_body(void *ctx, uint64_t param, uint64_t iters)
{
    sim *c = (sim *)ctx;
    c->now += (100 + 10 * param) * iters;
}

static int open_sim(chrono_session *s, chrono_clock *clk, sim *c, chrono_config *cfg)
{
    int rc = chrono_clock_open_custom(clk, "sim", sim_read, c, 1e9);
    if (rc < 0) return rc;
    cfg->custom_clock = clk;
    cfg->cycles = CHRONO_CYCLES_OFF;
    cfg->pin = CHRONO_PIN_OFF;
    return chrono_session_open(s, cfg);
}

static chrono_config quick(void)
{
    chrono_config c;
    memset(&c, 0, sizeof c);
    c.samples = 21;
    c.warmup_ms = 5;
    c.min_sample_us = 20;
    c.max_ms = 500;
    return c;
}

/* A session on a fresh simulated clock whose body costs `cost` ticks an
   iteration, with quick()'s configuration. */
static int open_quick_sim(chrono_session *s, chrono_clock *clk, sim *c, uint64_t cost)
{
    chrono_config cfg = quick();
    memset(c, 0, sizeof *c);
    c->cost_per_iter = cost;
    return open_sim(s, clk, c, &cfg);
}

/* ---- real workloads ------------------------------------------------------- */
static void adds(void *ctx, uint64_t iters)
{
    uint64_t n = *(const uint64_t *)ctx, x = 0;
    for (uint64_t i = 0; i < iters; i++)
        for (uint64_t k = 0; k < n; k++) {
            x += k;
            chrono_keep(x);
        }
}

static void nothing(void *ctx, uint64_t iters)
{
    (void)ctx;
    (void)iters;
}

/* ---- configuration and bad input ------------------------------------------- */
static void test_config(void)
{
    chrono_config d = chrono_config_default(), z, r;
    memset(&z, 0, sizeof z);
    tap_ok(d.samples > 10 && d.warmup_ms > 0 && d.max_ms > 0 && d.confidence == (double)0.95 && d.cpu == CHRONO_CPU_CURRENT,
           "defaults are sensible (samples %d, warmup %.0f ms, max %.0f ms)", d.samples, d.warmup_ms, d.max_ms);
    tap_ok(chrono__config_resolve(&z, &r) == 0 && r.samples == d.samples && r.confidence == d.confidence &&
               r.warmup_ms == d.warmup_ms && r.cpu == CHRONO_CPU_CURRENT,
           "a zero-initialised config means the defaults");
}

static void expect_open_einval(const char *what, chrono_config c)
{
    chrono_session s;
    int rc = chrono_session_open(&s, &c);
    tap_ok(rc == CHRONO_EINVAL, "config with %s -> EINVAL (rc %d)", what, rc);
    if (rc == 0) chrono_session_close(&s);
}

static void test_bad_input(void)
{
    chrono_config c = quick();
    chrono_session s;
    chrono_result r;
    chrono_comparison cmp;
    uint64_t n = 10, params[2] = {1, 2};
    char longname[CHRONO_NAME_MAX + 10];
    int rc;

    c.samples = -1; expect_open_einval("samples -1", c);
    c = quick(); c.samples = CHRONO_SAMPLES_MAX + 1; expect_open_einval("samples 10^6+1", c);
    c = quick(); c.warmup_ms = -5; expect_open_einval("warmup_ms -5", c);
    c = quick(); c.max_ms = NAN; expect_open_einval("max_ms NaN", c);
    c = quick(); c.min_sample_us = 1e300; expect_open_einval("min_sample_us 1e300", c);
    c = quick(); c.confidence = 1.5; expect_open_einval("confidence 1.5", c);
    c = quick(); c.pin = (chrono_pin_mode)42; expect_open_einval("pin mode 42", c);
    c = quick(); c.clock = CHRONO_CLOCK_CUSTOM; expect_open_einval("clock CUSTOM without custom_clock", c);
    tap_ok(chrono_session_open(NULL, NULL) == CHRONO_EINVAL, "NULL session -> EINVAL");

    c = quick();
    rc = chrono_session_open(&s, &c);
    tap_ok(rc == 0, "session opens (rc %d)", rc);
    if (rc < 0) return;
    tap_ok(chrono_run(&s, "x", NULL, NULL, &r) == CHRONO_EINVAL && r.samples == 0 && r.ns.median != r.ns.median,
           "NULL function -> EINVAL, result defined (NaN median)");
    tap_ok(chrono_run(&s, NULL, adds, &n, NULL) == CHRONO_EINVAL, "NULL name -> EINVAL");
    tap_ok(chrono_run(&s, "", adds, &n, NULL) == CHRONO_EINVAL, "empty name -> EINVAL");
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    tap_ok(chrono_run(&s, longname, adds, &n, NULL) == CHRONO_ERANGE, "name of %d bytes -> ERANGE", (int)strlen(longname));
    tap_ok(chrono_compare(&s, "a", adds, &n, "b", NULL, NULL, &cmp) == CHRONO_EINVAL && cmp.ratio != cmp.ratio,
           "compare with a NULL function -> EINVAL, ratio NaN");
    tap_ok(chrono_sweep(&s, "sw", NULL, NULL, params, 2, NULL) == CHRONO_EINVAL, "sweep with a NULL function -> EINVAL");
    tap_ok(chrono_sweep(&s, "sw", sim_sweep_body, NULL, params, 1, NULL) == CHRONO_EINVAL, "sweep of one point -> EINVAL");
    tap_ok(s.nresults == 0 && s.ncomparisons == 0, "failed calls leave no results in the session");
    chrono_session_close(&s);
    tap_ok(chrono_run(&s, "x", adds, &n, NULL) == CHRONO_EINVAL, "run on a closed session -> EINVAL");
    chrono_session_close(&s);   /* twice: harmless */
}

/* ---- exact figures from the simulated clock -------------------------------- */
static void test_simulated_exact(void)
{
    chrono_session s;
    chrono_clock clk;
    chrono_config cfg = quick();
    chrono_result r;
    sim c;
    int rc;
    memset(&c, 0, sizeof c);
    c.cost_per_iter = 1000;
    rc = open_sim(&s, &clk, &c, &cfg);
    tap_ok(rc == 0 && s.clock.overhead_ticks == 1, "session on a simulated clock (overhead %llu tick)",
           (unsigned long long)s.clock.overhead_ticks);
    if (rc < 0) return;
    rc = chrono_run(&s, "sim1000", sim_body, &c, &r);
    /* Each sample: stop - start = cost + 1 read; less the 1-tick overhead = cost exactly. */
    tap_ok(rc == 0 && r.ns.median == 1000.0 && r.ns.min == 1000.0 && r.ns.max == 1000.0 && r.ns.mad == 0,
           "1000 simulated ticks an iteration measure exactly 1000 ns (median %.6f)", r.ns.median);
    tap_ok(r.samples == 21 && r.backwards == 0 && r.samples_taken == 21 + r.migrated + r.preempted &&
               r.iters_per_sample >= 20,
           "21 samples of %llu iterations (>= 20 us at 1000 ns)", (unsigned long long)r.iters_per_sample);
    tap_ok(r.has_cycles == 0 && r.cycles.median != r.cycles.median, "no reference chains: cycles are NaN");
    chrono_session_close(&s);
}

/* Fewer samples than a 95% interval needs (5 or fewer): the run and the
   comparison carry CHRONO_WARN_LOW_LEVEL, their ci_level says how short; 6
   samples reach 95% (96.9%) without it. */
static void test_simulated_low_level(void)
{
    static const int counts[] = { 1, 3, 5, 6 };
    size_t i;
    for (i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        chrono_session s;
        chrono_clock clk;
        chrono_config cfg = quick();
        chrono_result r;
        chrono_comparison cmp;
        sim c;
        int rc, want = counts[i] <= 5;
        double level = 1 - 2 / pow(2, counts[i]);
        memset(&c, 0, sizeof c);
        memset(&cmp, 0, sizeof cmp);
        c.cost_per_iter = 1000;
        cfg.samples = counts[i];
        if (open_sim(&s, &clk, &c, &cfg) < 0) { tap_ok(0, "open"); return; }
        rc = chrono_run(&s, "few", sim_body, &c, &r);
        rc = rc < 0 ? rc : chrono_compare(&s, "a", sim_body, &c, "b", sim_body, &c, &cmp);
        tap_ok(rc == 0 && r.samples == (size_t)counts[i] && fabs(r.ns.ci_level - level) < 1e-12 &&
                   ((r.warnings & CHRONO_WARN_LOW_LEVEL) != 0) == want && fabs(cmp.ci_level - level) < 1e-12 &&
                   ((cmp.warnings & CHRONO_WARN_LOW_LEVEL) != 0) == want && ((s.warnings & CHRONO_WARN_LOW_LEVEL) != 0) == want,
               "%d samples: ci_level %.4f (run) %.4f (comparison), LOW_LEVEL %s on the run, the comparison and the session",
               counts[i], r.ns.ci_level, cmp.ci_level, want ? "set" : "not set");
        chrono_session_close(&s);
    }
}

static void test_simulated_outlier(void)
{
    chrono_session s;
    chrono_clock clk;
    chrono_result r;
    sim c;
    if (open_quick_sim(&s, &clk, &c, 1000) < 0) { tap_ok(0, "open"); return; }
    /* A 1-second stall lands in one sample: a probe run counts the calls a
       run makes; the stall goes 10 calls before the end of the next run,
       among its samples (the last 21 calls). */
    {
        uint64_t calls_before = c.calls;
        chrono_run(&s, "probe", sim_body, &c, NULL);
        c.spike_call = c.calls + (c.calls - calls_before) - 10;
        c.spike_ticks = 1000000000u;
    }
    chrono_run(&s, "stalled", sim_body, &c, &r);
    tap_ok(r.ns.median == 1000.0 && r.ns.ci_low == 1000.0 && r.ns.ci_high == 1000.0,
           "a 1 s stall in one sample leaves the median and its CI at 1000 ns");
    tap_ok(r.ns.outliers_high == 1 && r.ns.outliers_severe == 1 && r.ns.max > 1e6,
           "the stalled sample is counted as a severe high outlier (max %.0f ns)", r.ns.max);
    chrono_session_close(&s);
}

static void test_simulated_backwards(void)
{
    chrono_session s;
    chrono_clock clk;
    chrono_result r;
    sim c;
    int rc;
    if (open_quick_sim(&s, &clk, &c, 1000) < 0) { tap_ok(0, "open"); return; }
    c.back_every = 7;   /* after opening: calibration saw a sane clock */
    rc = chrono_run(&s, "backwards", sim_body, &c, &r);
    /* The simulated clock is not pinned: the OS may also migrate or switch the
       thread out, and those rejections are counted apart. */
    tap_ok(rc == 0 && r.backwards > 0 && r.samples == 21 &&
               r.samples_taken == 21 + r.backwards + r.migrated + r.preempted + r.ref_rejected,
           "a clock going backwards: %zu samples discarded and counted, 21 kept", r.backwards);
    tap_ok(r.ns.median == 1000.0, "the kept samples are exact (median %.3f)", r.ns.median);
    chrono_session_close(&s);
}

/* A host spell mid-run: the body turns 3x slower and the next
   CHRONO__DRY_ROUNDS samples are rejected (the clock steps back), so the
   engine halves the batch (chrono__engine_shorten).  Samples before and
   after ran different batches: a counter of 1 an iteration still reads 1. */
typedef struct spell_body { sim *c; chrono_user_counter *one; uint64_t from; } spell_body;

static void spell_run(void *ctx, uint64_t iters)
{
    spell_body *b = (spell_body *)ctx;
    sim_body(b->c, iters);
    b->one->value += (double)iters;
    if (b->c->calls == b->from) b->c->cost_per_iter *= 3;
    /* call from + 1: slow and kept; the next CHRONO__DRY_ROUNDS: slow and rejected */
    if (b->c->calls > b->from + 1 && b->c->calls <= b->from + 1 + CHRONO__DRY_ROUNDS) b->c->back_pending = 1;
}

static void test_simulated_halved_batch(void)
{
    chrono_user_counter one = { "one", CHRONO_PER_ITERATION, 0 };
    chrono_session s;
    chrono_clock clk;
    chrono_result probe, r;
    spell_body b;
    sim c;
    int rc;
    if (open_quick_sim(&s, &clk, &c, 1000) < 0) { tap_ok(0, "open"); return; }
    s.cfg.user_counters = &one;
    s.cfg.nuser_counters = 1;
    b.c = &c; b.one = &one; b.from = UINT64_MAX / 2;   /* the probe: no spell */
    {   /* the spell begins at the run's 6th sample (its last 21 calls are samples) */
        uint64_t calls_before = c.calls;
        chrono_run(&s, "probe", spell_run, &b, &probe);
        b.from = c.calls + (c.calls - calls_before) - 16;
    }
    rc = chrono_run(&s, "halved", spell_run, &b, &r);
    tap_ok(rc == 0 && r.backwards == CHRONO__DRY_ROUNDS && r.iters_per_sample == probe.iters_per_sample / 2 &&
               r.iters_taken > (uint64_t)r.samples_taken * r.iters_per_sample,
           "a spell mid-run halves the batch: %llu then %llu iterations a sample, %llu in %zu samples",
           (unsigned long long)probe.iters_per_sample, (unsigned long long)r.iters_per_sample,
           (unsigned long long)r.iters_taken, r.samples_taken);
    tap_ok(rc == 0 && r.nuser == 1 && r.user[0].per_iter == 1.0 && probe.user[0].per_iter == 1.0,
           "a counter of 1 an iteration reads 1 across the halved batch (%g; %g before)", r.user[0].per_iter,
           probe.user[0].per_iter);
    chrono_session_close(&s);
}

static void test_simulated_slow_body(void)
{
    chrono_session s;
    chrono_clock clk;
    chrono_config cfg = quick();
    chrono_result r;
    sim c;
    int rc;
    memset(&c, 0, sizeof c);
    c.cost_per_iter = 5000000000u;   /* 5 s a call */
    cfg.max_ms = 60000;              /* 60 s of simulated time */
    if (open_sim(&s, &clk, &c, &cfg) < 0) { tap_ok(0, "open"); return; }
    rc = chrono_run(&s, "five_seconds", sim_body, &c, &r);
    tap_ok(rc == 0 && r.iters_per_sample == 1, "a 5 s body gets a batch of one (rc %d, %llu)", rc,
           (unsigned long long)r.iters_per_sample);
    tap_ok(r.ns.median == 5e9, "and measures 5 s exactly, no overflow (%.0f ns)", r.ns.median);
    tap_ok(r.truncated && r.samples >= 1 && r.samples < 21 && r.wall_ms <= 60000 + 5000 + 1,
           "max_ms (60 s) stops it: %zu samples, %.0f ms, truncated", r.samples, r.wall_ms);
    chrono_session_close(&s);
}

/* A first call that pays for a page fault or a host stall, 5x the target,
   does not pass for a long body: the batch is sized on the calls after it
   (a one-add loop's first call once read 4x a 20 us target here, and the run
   then timed one add a sample: a median of 0 ns). */
static void test_simulated_first_call_stall(void)
{
    chrono_session s;
    chrono_clock clk;
    chrono_result r;
    sim c;
    int rc;
    if (open_quick_sim(&s, &clk, &c, 10) < 0) { tap_ok(0, "open"); return; }
    c.spike_call = 1;
    c.spike_ticks = 100000;   /* 100 us on the 1 GHz clock: 5x quick()'s 20 us target */
    rc = chrono_run(&s, "stalled_first_call", sim_body, &c, &r);
    tap_ok(rc == 0 && r.iters_per_sample * 10 >= 20000 && r.ns.median == 10.0,
           "a first call stalled 5x past the target: %llu iterations a sample (a sample >= 20 us), median %.2f ns "
           "(10) (rc %d)", (unsigned long long)r.iters_per_sample, r.ns.median, rc);
    chrono_session_close(&s);
}

static void test_simulated_max_ms(void)
{
    chrono_session s;
    chrono_clock clk;
    chrono_config cfg = quick();
    chrono_result r;
    sim c;
    memset(&c, 0, sizeof c);
    c.cost_per_iter = 10000000;      /* 10 ms a call */
    cfg.max_ms = 100;
    cfg.samples = 1000;
    if (open_sim(&s, &clk, &c, &cfg) < 0) { tap_ok(0, "open"); return; }
    chrono_run(&s, "ten_ms", sim_body, &c, &r);
    tap_ok(r.truncated && r.wall_ms <= 100 + 10 + 1 && r.samples >= 1,
           "max_ms 100 respected: %.1f ms, %zu samples of 10 ms", r.wall_ms, r.samples);
    chrono_session_close(&s);
}

/* chrono_run_between: the samples follow the work between, in shares.  The
   body costs 5000 ns while it is sized and warmed up, 1000 from between(0)
   and 3000 from between(3): of 21 samples over 7 gaps (3 a gap), 9 read 1000
   and 12 read 3000, and none 5000 (taken before between(0)). */
typedef struct between_log { sim *c; size_t calls, last_k; int in_order; } between_log;

static void between_step(void *ctx, size_t k)
{
    between_log *l = (between_log *)ctx;
    l->in_order &= k == l->calls;
    l->c->cost_per_iter = k < 3 ? 1000 : 3000;
    l->calls++;
    l->last_k = k;
}

static void test_simulated_between(void)
{
    chrono_session s;
    chrono_clock clk;
    chrono_result r;
    between_log log;
    sim c;
    int rc;
    memset(&log, 0, sizeof log);
    log.c = &c;
    log.in_order = 1;
    if (open_quick_sim(&s, &clk, &c, 5000) < 0) { tap_ok(0, "open"); return; }
    tap_ok(chrono_run_between(NULL, "b", sim_body, &c, between_step, &log, 7, &r) == CHRONO_EINVAL &&
               chrono_run_between(&s, "b", sim_body, &c, NULL, NULL, 7, &r) == CHRONO_EINVAL &&
               chrono_run_between(&s, "b", sim_body, &c, between_step, &log, 0, &r) == CHRONO_EINVAL &&
               chrono_run_between(&s, "b", sim_body, &c, between_step, &log, CHRONO_BETWEEN_GAPS_MAX + 1, &r) ==
                   CHRONO_ERANGE && log.calls == 0,
           "between: no session, no between or 0 gaps is EINVAL, more than CHRONO_BETWEEN_GAPS_MAX ERANGE, nothing run");
    rc = chrono_run_between(&s, "between", sim_body, &c, between_step, &log, 7, &r);
    tap_ok(rc == 0 && log.calls == 7 && log.in_order && log.last_k == 6, "between: called 7 times, k = 0..6 in order");
    /* unpinned: the OS may switch the thread out during a sample; such a
       sample is counted, not replaced, and still reads exactly */
    tap_ok(r.samples_taken == 21 && r.samples + r.preempted + r.migrated == 21 && r.ns.min == 1000.0 &&
               r.ns.max == 3000.0 && (r.migrated || fabs(r.all_ns_mean - 45000.0 / 21.0) < 1e-9),
           "between: 9 samples at 1000 ns then 12 at 3000, none replaced (mean of all %.3f, want %.3f)", r.all_ns_mean,
           45000.0 / 21.0);
    tap_ok(s.nresults == 1 && !strcmp(s.results[0].name, "between"), "between: the run is kept in the session");
    /* more gaps than samples: one sample a gap */
    memset(&log, 0, sizeof log);
    log.c = &c;
    log.in_order = 1;
    rc = chrono_run_between(&s, "between42", sim_body, &c, between_step, &log, 42, &r);
    tap_ok(rc == 0 && log.calls == 42 && log.in_order && r.samples_taken == 42 && r.ns.min == 1000.0 &&
               (r.migrated || fabs(r.all_ns_mean - (3.0 * 1000.0 + 39.0 * 3000.0) / 42.0) < 1e-9),
           "between: 42 gaps take 42 samples, one after each (mean of all %.3f)", r.all_ns_mean);
    chrono_session_close(&s);
}

/* chrono_literal_run on the simulated clock: the slices add up to the whole
   batch (1000003 ops, not a multiple of the 1000 slices) and the samples
   between them project it exactly. */
static void test_simulated_literal(void)
{
    chrono_session s;
    chrono_clock clk;
    chrono_literal lit;
    sim c;
    int rc;
    if (open_quick_sim(&s, &clk, &c, 1000) < 0) { tap_ok(0, "open"); return; }
    rc = chrono_literal_run(&s, "lit", sim_body, &c, 1000003, &lit);
    tap_ok(rc == 0 && lit.slices == 1000 && lit.ns == 1000003.0 * 1000.0,
           "literal: 1000003 ops of 1000 ns in 1000 slices read %.0f ns (want 1000003000)", lit.ns);
    tap_ok(lit.beside.total_ns == 1000003.0 * 1000.0 && lit.ratio == 1.0,
           "literal: projected %.0f ns beside it, ratio %.6f", lit.beside.total_ns, lit.ratio);
    tap_ok(s.nresults == 1 && !strcmp(s.results[0].name, "lit/literal_beside"), "literal: its run is lit/literal_beside");
    rc = chrono_literal_run(&s, "few", sim_body, &c, 5, &lit);
    tap_ok(rc == 0 && lit.slices == 5 && lit.ns == 5000.0, "literal: 5 ops run as 5 slices of one (%.0f ns)", lit.ns);
    chrono_session_close(&s);
}

static void test_simulated_sweep(void)
{
    chrono_session s;
    chrono_clock clk;
    chrono_config cfg = quick();
    chrono_sweep_result sw;
    sim c;
    uint64_t params[4] = {0, 10, 20, 40};
    int rc;
    memset(&c, 0, sizeof c);
    if (open_sim(&s, &clk, &c, &cfg) < 0) { tap_ok(0, "open"); return; }
    rc = chrono_sweep(&s, "linear", sim_sweep_body, &c, params, 4, &sw);
    tap_ok(rc == 0 && fabs(sw.per_unit_ns - 10) < 1e-9 && fabs(sw.fixed_ns - 100) < 1e-9 && fabs(sw.r2 - 1) < 1e-12,
           "sweep of 100 + 10 p ticks fits per_unit %.6f, fixed %.6f, R2 %.9f", sw.per_unit_ns, sw.fixed_ns, sw.r2);
    tap_ok(s.nresults == 4 && strcmp(s.results[3].name, "linear/40") == 0 && s.results[3].ns.median == 500.0,
           "each point is a result named name/param (%s = %.1f ns)", s.nresults == 4 ? s.results[3].name : "-",
           s.nresults == 4 ? s.results[3].ns.median : -1.0);
    chrono_session_close(&s);
}

/* ---- real clock: side-by-side ratios only ------------------------------------ */
/* ctx: how many dependent adds an iteration does (a multiple of 16). */
static void add_chain(void *ctx, uint64_t iters)
{
    uintptr_t n = (uintptr_t)*(const uint64_t *)ctx;
    for (uint64_t i = 0; i < iters; i++) chrono__ref_chain(n);
}

/* Sides within 4x share one count (engine.h), unless runs of dry rounds
   halved a side's long batch (chrono__engine_shorten: batches of twice the
   target or more, by integer division), once or more: qemu-aarch64, heavily
   preempted, read 2053/4106 for 2048 vs 1024 adds, and beside a build 40/81. */
static int shared_or_halved(uint64_t a, uint64_t b)
{
    uint64_t hi = a > b ? a : b, lo = a > b ? b : a;
    while (hi > lo) hi /= 2;
    return lo > 0 && hi == lo;
}

/* A shared 2-core VM can be taken from under a run for long stretches: a
   ratio is tried up to three times and must land inside its (wide) margin
   once.  A wrong computation misses all three. */
static int ratio_in(double lo, double hi, double *got, chrono_session *s, chrono_fn a, void *ca, chrono_fn b, void *cb)
{
    chrono_comparison cmp;
    int attempt;
    for (attempt = 0; attempt < 3; attempt++) {
        int rc = chrono_compare(s, "a", a, ca, "b", b, cb, &cmp);
        *got = cmp.ratio;
        tap_diag("attempt %d: rc %d, ratio %.4f [%.4f, %.4f], %zu rounds, iterations %llu/%llu, rejected: %zu/%zu refs, "
                 "%zu/%zu preempted", attempt + 1, rc, cmp.ratio, cmp.ci_low, cmp.ci_high, cmp.rounds,
                 (unsigned long long)cmp.a.iters_per_sample, (unsigned long long)cmp.b.iters_per_sample,
                 cmp.a.ref_rejected, cmp.b.ref_rejected, cmp.a.preempted, cmp.b.preempted);
        if (rc == 0 && cmp.ratio > lo && cmp.ratio < hi && cmp.ci_low <= cmp.ratio && cmp.ratio <= cmp.ci_high &&
            shared_or_halved(cmp.a.iters_per_sample, cmp.b.iters_per_sample))
            return 1;
    }
    return 0;
}

static void test_real_ratios(void)
{
    chrono_config cfg = quick();
    chrono_session s;
    chrono_result r1, r2;
    uint64_t n1 = 1024, n2 = 2048;
    double got = NAN;
    int rc, emu = tap_emulated(), ok;
    if (emu) cfg.cycles = CHRONO_CYCLES_OFF;   /* emulated cycles mean nothing and reject most samples */
    rc = chrono_session_open(&s, &cfg);
    tap_ok(rc == 0, "session on the real clock (%s)", rc == 0 ? s.clock.name : chrono_strerror(rc));
    if (rc < 0) return;
    ok = ratio_in(1.6, 2.4, &got, &s, add_chain, &n2, add_chain, &n1);
    tap_ok(ok, "compare 2048 vs 1024 dependent adds, interleaved, same iterations (or one side's halved): ratio %.4f in 1.6..2.4", got);
    ok = ratio_in(0.8, 1.25, &got, &s, add_chain, &n1, add_chain, &n1);
    tap_ok(ok, "compare a workload with itself: ratio %.4f in 0.8..1.25", got);
    /* Rounds: up to .samples, and up to .samples more when the two halves
       disagree (a level change); fewer only when rejections used up the attempts. */
    tap_ok(s.ncomparisons >= 2 && s.comparisons[0].rounds >= 1 && s.comparisons[0].rounds <= 2 * 21,
           "comparisons kept in the session, %zu rounds",
           s.ncomparisons ? s.comparisons[0].rounds : (size_t)0);
    chrono_run(&s, "adds1024", add_chain, &n1, &r1);
    chrono_run(&s, "adds2048", add_chain, &n2, &r2);
    /* every whole sample counted, the kept ones among them; interruptions
       only add time, so their mean is not far below the fastest kept one */
    tap_ok(r1.all_n == r1.samples_taken - r1.migrated - r1.backwards && r1.all_n >= r1.samples &&
               r1.all_ns_mean >= 0.9 * r1.ns.min && (r1.all_n < 2 || r1.all_ns_stddev >= 0),
           "every whole sample counted: %zu of %zu taken (%zu kept), mean %.1f ns against the kept ones' %.1f",
           r1.all_n, r1.samples_taken, r1.samples, r1.all_ns_mean, r1.ns.mean);
    if (s.has_cycles && !emu) {
        /* interleaved (chrono_compare), not two separate runs: the other
           programs on a shared host slowed one run of a pair and not the other
           without a probe seeing it (issue 24: 1 miss in 20 with one pair;
           issue 31: 1024 adds read as 1351 cycles once).  Paired sample by
           sample, both sides see the same moments.  A miss is allowed only
           where a side says its figure may be off; up to three comparisons. */
        chrono_comparison c;
        double ratio = NAN, a = NAN, b = NAN;
        unsigned flagged = 0;
        int pair, good = 0;
        for (pair = 0; pair < 3 && !good; pair++) {
            if (chrono_compare(&s, "adds2048", add_chain, &n2, "adds1024", add_chain, &n1, &c) < 0) continue;
            a = c.a.cycles.median; b = c.b.cycles.median;
            ratio = c.cycles_ratio;
            flagged = (c.a.warnings | c.b.warnings) & (unsigned)(CHRONO_WARN_SHARED_CORE | CHRONO_WARN_HOST_SLOWED);
            good = (ratio > 1.6 && ratio < 2.4 && a / b > 1.6 && a / b < 2.4) || flagged;
            if (!good) tap_diag("pair %d: %.1f vs %.1f cycles (paired ratio %.3f), not flagged", pair + 1, a, b, ratio);
        }
        tap_ok(good, "estimated cycles scale with the work: %.1f vs %.1f, paired ratio %.3f, or a side was flagged (0x%x)",
               a, b, ratio, flagged);
    } else {
        tap_skip(s.has_cycles ? "cycles under emulation are not meaningful" : "no reference chain on this CPU");
    }
    chrono_session_close(&s);
}

/* ---- threads: a sample whose threads did not start together is left out -------------------
   Three calls of two threads recorded as the runner records them
   (chrono__threads_note), on a 1 GHz simulated clock (a tick is a ns): the
   second thread began 100 ticks after the first (within an eighth of the
   quickest's 1000: together), 200 after (apart: a thread held back runs
   alone and reads as if unshared, here 3000 ns), and 125 after (exactly an
   eighth: together).  The figures keep the two calls run together: 4 times,
   max 1200, the slowest thread's median 1100 (issue 31: nothing delayed a
   thread and checked). */
static void set_call(chrono__threads *g, uint64_t start0, uint64_t ticks0, uint64_t start1, uint64_t ticks1)
{
    g->t[0].start = start0; g->t[0].ticks = ticks0; g->t[0].disturbed = 0;
    g->t[1].start = start1; g->t[1].ticks = ticks1; g->t[1].disturbed = 0;
    chrono__threads_note(g);
}

static void test_threads_apart(void)
{
    sim c;
    chrono_clock clk;
    chrono_session s;
    chrono__threads *g;
    chrono_result r;
    int rc;
    if (open_quick_sim(&s, &clk, &c, 10) < 0) { tap_ok(0, "threads apart: simulated session"); return; }
    g = chrono__threads_new(&s, adds, NULL, 2);
    if (!g) { tap_ok(0, "threads apart: memory"); chrono_session_close(&s); return; }
    g->iters = 1;
    set_call(g, 1000, 1000, 1100, 1000);
    set_call(g, 5000, 1000, 5200, 3000);
    set_call(g, 9000, 1000, 9125, 1200);
    memset(&r, 0, sizeof r);
    rc = chrono__threads_figures(&s, g, &r);
    tap_ok(g->bad[0] == 0 && g->bad[1] == 1 && g->bad[2] == 0,
           "threads: a call whose second thread began 200 ticks after the first (1000 the quickest) is marked, "
           "100 and 125 after are not (%d %d %d)   [threads: began apart kept]", g->bad[0], g->bad[1], g->bad[2]);
    tap_ok(rc == 0 && r.samples == 2 && r.ns.n == 4 && r.ns.max == 1200 && r.thread_slowest_ns == 1100 &&
               !(r.warnings & CHRONO_WARN_INTERRUPTED),
           "threads: the call run apart left out: 2 calls, 4 times, max %g (1200, not 3000), slowest thread %g (1100) "
           "(rc %d, %zu calls)   [threads: began apart kept]", r.ns.max, r.thread_slowest_ns, rc, r.samples);
    CHRONO_FREE(g);
    chrono_session_close(&s);
}

/* ---- accuracy against truths the library does not define ------------------------
   Chains of dependent instructions written here, not the library's reference
   chain: n adds cost n core cycles (1-cycle latency on every x86-64 and arm64
   core), n imuls 3n on x86-64 since 2008.  The loop counter runs alongside. */
#if TEST_HAVE_CHAINS
TEST_CHAIN(own_add1000, "add", 1000)
TEST_CHAIN(own_add2000, "add", 2000)
#  if !defined(__aarch64__)
TEST_CHAIN(own_imul1000, "imul", 1000)
#  endif
#endif

static chrono_config accurate(void)
{
    chrono_config c = quick();
    c.samples = 31;
    c.min_sample_us = 50;
    return c;
}

#if TEST_HAVE_CHAINS
/* Up to `tries` runs of fn; returns the estimated cycles of the try closest
   to truth among the clean ones (at most a third of the samples rejected or
   contended: the host left the core alone), or among all when none was
   clean (*clean = 0 then). */
static double cycles_closest(chrono_session *s, const char *name, chrono_fn fn, double truth, int tries, int *clean)
{
    double best = NAN, best_any = NAN;
    int k;
    for (k = 0; k < tries; k++) {
        chrono_result r;
        int rc = chrono_run(s, name, fn, NULL, &r), quiet;
        quiet = rc == 0 && r.samples == (size_t)s->cfg.samples && 3 * (r.ref_rejected + r.contended) <= r.samples;
        tap_diag("%s try %d: rc %d, %.2f cycles (truth %.0f), %zu/%zu samples kept, %zu ref-rejected, %zu contended%s",
                 name, k + 1, rc, r.cycles.median, truth, r.samples, r.samples_taken, r.ref_rejected, r.contended,
                 quiet ? "" : " (noisy)");
        if (rc == 0 && !(fabs(r.cycles.median / truth - 1) >= fabs(best_any / truth - 1))) best_any = r.cycles.median;
        if (quiet && !(fabs(r.cycles.median / truth - 1) >= fabs(best / truth - 1))) best = r.cycles.median;
        if (fabs(best / truth - 1) < 0.002) break;
    }
    *clean = best == best;
    return *clean ? best : best_any;
}
#endif

static void test_accuracy(void)
{
#if TEST_HAVE_CHAINS
    chrono_config cfg = accurate();
    chrono_session s;
    chrono_comparison cmp;
    double c, imul = NAN, best = NAN;
    int rc, k, clean = 0, imul_clean = 0;
    if (tap_emulated()) {
        tap_skip("accuracy: emulated (CHRONO_TEST_EMULATED=1): timings are the emulator's");
        tap_skip("accuracy: emulated (CHRONO_TEST_EMULATED=1): timings are the emulator's");
        tap_skip("accuracy: emulated (CHRONO_TEST_EMULATED=1): timings are the emulator's");
        return;
    }
    rc = chrono_session_open(&s, &cfg);
    if (rc < 0) { tap_ok(0, "accuracy: session opens (%s)", chrono_strerror(rc)); return; }
#  if defined(__x86_64__) || defined(__i386__)
    /* The imuls first: 3 cycles an imul is the firmer truth, and it says
       whether the session's cycle is right before the adds are judged. */
    if (s.has_cycles) imul = cycles_closest(&s, "own_imul1000", own_imul1000, 3000, 8, &imul_clean);
#  endif
    if (!s.has_cycles) {
        tap_skip("accuracy: no reference chain on this CPU (no cycle estimates)");
    } else {
        /* 1% on a quiet core; a host that never left it alone in 8 tries gets
           5% (reported): cycles 10% off still fail.  Zen 5 runs this chain
           itself at 1.00 or 1.06 cycles an add, from one process to the next
           (seen: 1061-1068 in all 8 tries of one process whose imuls read
           3000.8): when the imuls read their 3 cycles within 1%, the cycle is
           right, and up to 8% high is the chain's own speed, said so. */
        int cycle_right = imul_clean && fabs(imul / 3000 - 1) <= 0.01;
        double low, high;
        c = cycles_closest(&s, "own_add1000", own_add1000, 1000, 8, &clean);
        low = clean ? 0.01 : 0.05;
        high = cycle_right ? 0.08 : low;
        tap_ok(c >= 1000 * (1 - low) && c <= 1000 * (1 + high),
               "1000 dependent adds (this test's chain) read %.2f estimated cycles (1000: -%.0f%%..+%.0f%%%s)", c,
               100 * low, 100 * high,
               cycle_right ? "; its imuls read their 3 cycles, so the cycle is right and a high figure is the chain's"
                             " own speed"
                           : clean ? "" : "; no quiet run in 8 tries");
    }
    /* Both sides slow alike when the host shares the core: the ratio holds. */
    for (k = 0; k < 5; k++) {
        rc = chrono_compare(&s, "own_add2000", own_add2000, NULL, "own_add1000", own_add1000, NULL, &cmp);
        tap_diag("compare try %d: rc %d, ratio %.4f [%.4f, %.4f], %zu rounds", k + 1, rc, cmp.ratio, cmp.ci_low,
                 cmp.ci_high, cmp.rounds);
        if (rc == 0 && !(fabs(cmp.ratio / 2 - 1) >= fabs(best / 2 - 1))) best = cmp.ratio;
        if (fabs(best / 2 - 1) < 0.001) break;
    }
    tap_ok(fabs(best / 2 - 1) <= 0.005, "compare 2000 vs 1000 dependent adds: ratio %.4f (2.000 +- 0.5%%)", best);
#  if defined(__x86_64__) || defined(__i386__)
    if (!s.has_cycles) {
        tap_skip("accuracy: no reference chain on this CPU (no cycle estimates)");
    } else {
        /* On a shared core the adds of the reference slow more than imuls, so the
           figure reads low: the bar is 8% below, the figure is reported.  Above,
           this test's own chain may run slow as the adds' does on Zen 5 (a loop
           laid out otherwise): all 8 tries of one ASan process read 3155-3175
           (+5.2..5.8%) and that session's adds 1052 twice, then 999.9 (issue 31):
           8% above too.  Cycles 10% too high fail it. */
        c = imul;
        if (!(fabs(c / 3000 - 1) <= 0.01)) tap_diag("imul1000: %.2f cycles, outside 3000 +- 1%% (a shared core?)", c);
        tap_ok(c >= 3000 * 0.92 && c <= 3000 * 1.08,
               "1000 dependent imuls read %.2f estimated cycles (3000: -8%%..+8%%%s)", c, imul_clean ? "" : "; no quiet run");
    }
#  else
    tap_skip("imul latency: 3 cycles is an x86-64 fact; not checked on this CPU");
#  endif
    chrono_session_close(&s);
#else
    tap_skip("accuracy: no inline-asm chains for this compiler/CPU");
    tap_skip("accuracy: no inline-asm chains for this compiler/CPU");
    tap_skip("accuracy: no inline-asm chains for this compiler/CPU");
#endif
}

/* cfg.confidence sets the level of every interval: 0.80 and 0.99 on the same
   simulated data give the levels median_ci gives for those confidences. */
static void test_confidence(void)
{
    static const double want[2] = { 0.80, 0.99 };
    double level_run[2] = { NAN, NAN }, level_cmp[2] = { NAN, NAN }, expect[2];
    int k, ok = 1;
    for (k = 0; k < 2; k++) {
        chrono_session s;
        chrono_clock clk;
        chrono_config cfg = quick();
        chrono_result r;
        chrono_comparison cmp;
        size_t lo, hi;
        sim c;
        memset(&c, 0, sizeof c);
        c.cost_per_iter = 1000;
        cfg.confidence = want[k];
        if (open_sim(&s, &clk, &c, &cfg) < 0) { tap_ok(0, "open"); return; }
        ok &= chrono_run(&s, "sim", sim_body, &c, &r) == 0;
        ok &= chrono_compare(&s, "a", sim_body, &c, "b", sim_body, &c, &cmp) == 0;
        level_run[k] = r.ns.ci_level;
        level_cmp[k] = cmp.ci_level;
        ok &= chrono_stats_median_ci(r.samples, want[k], &lo, &hi, &expect[k]) == 0 && r.ns.ci_level == expect[k];
        ok &= chrono_stats_median_ci(cmp.rounds, want[k], &lo, &hi, &expect[k]) == 0 && cmp.ci_level == expect[k];
        chrono_session_close(&s);
    }
    tap_ok(ok && level_run[0] < 0.9 && level_run[1] >= 0.99 && level_cmp[0] < 0.9 && level_cmp[1] >= 0.99,
           "cfg.confidence 0.80 / 0.99: run CI levels %.4f / %.4f, compare %.4f / %.4f", level_run[0], level_run[1],
           level_cmp[0], level_cmp[1]);
}

/* ABBA: a machine that slows down steadily (each call of the body costs 10
   ticks an iteration more than the one before) favours whichever side runs
   first in a round.  Interleaved ABBA, the two sides' means agree within a
   round's drift / rounds; run A-then-B every round, B reads 10 ns slower. */
static void drift_body(void *ctx, uint64_t iters)
{
    sim *c = (sim *)ctx;
    c->now += (1000 + 10 * c->calls++) * iters;
}

static void test_abba(void)
{
    chrono_session s;
    chrono_clock clk;
    chrono_config cfg = quick();
    chrono_comparison cmp;
    sim c;
    int rc;
    memset(&c, 0, sizeof c);
    cfg.warmup_ms = 1;
    if (open_sim(&s, &clk, &c, &cfg) < 0) { tap_ok(0, "open"); return; }
    rc = chrono_compare(&s, "a", drift_body, &c, "b", drift_body, &c, &cmp);
    tap_ok(rc == 0 && cmp.rounds == 21 && fabs(cmp.a.ns.mean - cmp.b.ns.mean) < 10.0 / 4,
           "a steady drift cancels in ABBA order: means %.3f vs %.3f ns (within 2.5; A-then-B would differ by 10)",
           cmp.a.ns.mean, cmp.b.ns.mean);
    chrono_session_close(&s);
}

/* A reference chain that disagrees with its twin is rejected: a clock (the OS
   one, in ns) that jumps 20 us during the reference chain after every fourth
   sample.  Each such sample must be rejected. */
typedef struct jumpy { int pending; int every; uint64_t calls, offset, injected; } jumpy;

static uint64_t jumpy_read(void *ctx)
{
    jumpy *j = (jumpy *)ctx;
    if (j->pending && --j->pending == 0) { j->offset += 20000; j->injected++; }
    return chrono__os_ns(chrono__reference_clockid()) + j->offset;
}

static void jumpy_body(void *ctx, uint64_t iters)
{
    jumpy *j = (jumpy *)ctx;
    uint64_t n = 64;
    adds(&n, iters);
    /* reads after the body: its stop (1), the reference's start (2) and stop (3) */
    if (++j->calls % (uint64_t)j->every == 0) j->pending = 3;
}

static void test_ref_rejection(void)
{
    chrono_session s;
    chrono_clock clk;
    chrono_config cfg = quick();
    chrono_result r;
    jumpy j;
    int rc;
    memset(&j, 0, sizeof j);
    j.every = 1 << 30;   /* none while the session opens */
    if (tap_emulated()) { tap_skip("reference rejection: emulated (CHRONO_TEST_EMULATED=1): no meaningful reference chains"); return; }
    if (chrono_clock_open_custom(&clk, "jumpy", jumpy_read, &j, 1e9) < 0) { tap_ok(0, "open jumpy clock"); return; }
    cfg.custom_clock = &clk;
    cfg.contention_tolerance = CHRONO_CONTENTION_OFF;
    if ((rc = chrono_session_open(&s, &cfg)) < 0) { tap_ok(0, "open: %s", chrono_strerror(rc)); return; }
    if (!s.has_cycles) { tap_skip("reference rejection: no reference chain on this CPU"); chrono_session_close(&s); return; }
    s.clock.chrono__ctx = &j;
    j.every = 4;   /* a quarter: room for natural rejections within the 2-per-sample limit */
    rc = chrono_run(&s, "jumpy", jumpy_body, &j, &r);
    /* With the check off nothing is ever rejected; on a noisy host natural
       rejections add to these (and may stop the run short of 21 samples). */
    tap_ok(rc == 0 && r.ref_rejected >= 3 && r.samples >= 1,
           "references that disagree (20 us jump in one) reject the sample: %zu rejected of %zu taken, %llu jumps",
           r.ref_rejected, r.samples_taken, (unsigned long long)j.injected);
    chrono_session_close(&s);
}

/* ---- contention: the front-end probe's verdicts, on made-up readings ------------ */
static chrono_session fake_session(int samples)
{
    chrono_session s;
    memset(&s, 0, sizeof s);
    s.cfg = chrono_config_default();
    s.cfg.samples = samples;
    s.has_cycles = 1;
    s.fe_best = INFINITY;
    return s;
}

/* Feed readings a row at a time, as the runner does; the quiet count after each. */
static size_t feed(chrono_session *s, const double *fe_a, const double *fe_b, size_t n, size_t *quiet_after)
{
    size_t i, quiet = 0;
    for (i = 1; i <= n; i++) quiet_after[i - 1] = quiet = chrono__note_fe(s, fe_a, fe_b, NULL, NULL, i, quiet);
    return quiet;
}

static void fill_columns(chrono__columns *c, double *store, size_t cap, const double *fe, size_t n)
{
    size_t i;
    memset(c, 0, sizeof *c);   /* no counter columns */
    c->ns = store; c->ticks = store + cap; c->cycles = store + 2 * cap; c->ghz = store + 3 * cap;
    c->fe = store + 4 * cap; c->scratch = store + 5 * cap; c->port = store + 6 * cap;
    for (i = 0; i < n; i++) {
        c->port[i] = NAN;
        c->ns[i] = 100.0 + (double)i;   /* row i carries ns 100+i: shows which rows stayed */
        c->ticks[i] = c->cycles[i] = c->ghz[i] = 0;
        c->fe[i] = fe[i];
    }
}

static void test_contention_filter(void)
{
    /* best 5.0, then a quieter 4.0 turns the 5.x rows contended (tolerance 5%: limit 4.2) */
    static const double fe[] = { 5.0, 5.1, 4.0, 4.1, 5.5, 4.0, NAN };
    static const size_t want_quiet[] = { 1, 2, 1, 2, 2, 3, 4 };
    static const double fa[] = { 4.0, 4.0, 6.0, 4.1, 4.0 }, fb[] = { 4.0, 6.0, 4.0, 4.0, 4.15 };
    static const double busy[] = { 5.0, 5.0, 5.0, 4.0, 5.0, 5.0, 5.0 };
    double store[7 * 8], store_b[7 * 8];
    size_t quiet_after[8], i, n, quiet;
    chrono__columns ca, cb;
    chrono_result r, rb;
    chrono_session s = fake_session(6);
    int ok = 1;

    quiet = feed(&s, fe, NULL, 7, quiet_after);
    for (i = 0; i < 7; i++) ok &= quiet_after[i] == want_quiet[i];
    tap_ok(ok && s.fe_best == 4.0 && fabs(chrono__fe_limit(&s) - 4.2) < 1e-9,
           "note_fe: best is the lowest reading; a lower best recounts the quiet rows (1 2 1 2 2 3 4)");
    fill_columns(&ca, store, 8, fe, 7);
    memset(&r, 0, sizeof r);
    n = chrono__drop_contended(&s, &ca, &r, NULL, NULL, 7, quiet);
    tap_ok(n == 4 && r.contended == 3 && ca.ns[0] == 102 && ca.ns[1] == 103 && ca.ns[2] == 105 && ca.ns[3] == 106 &&
           ca.fe[2] == 4.0 && !(s.warnings & CHRONO_WARN_CONTENDED),
           "drop_contended: the three 5.x rows go, the quiet ones (and the one without a reading) stay in order");

    s = fake_session(6);
    quiet = feed(&s, fa, fb, 5, quiet_after);
    fill_columns(&ca, store, 8, fa, 5);
    fill_columns(&cb, store_b, 8, fb, 5);
    memset(&r, 0, sizeof r);
    memset(&rb, 0, sizeof rb);
    n = chrono__drop_contended(&s, &ca, &r, &cb, &rb, 5, quiet);
    tap_ok(quiet == 3 && n == 3 && r.contended == 1 && rb.contended == 1 && ca.ns[1] == 103 && cb.ns[2] == 104,
           "pairs: a round goes when either side was contended, counted on that side (%zu rows, %zu/%zu)",
           n, r.contended, rb.contended);

    s = fake_session(20);   /* 4 quiet rows of 7: fewer than a quarter of 20 wanted */
    quiet = feed(&s, fe, NULL, 7, quiet_after);
    fill_columns(&ca, store, 8, fe, 7);
    memset(&r, 0, sizeof r);
    n = chrono__drop_contended(&s, &ca, &r, NULL, NULL, 7, quiet);
    tap_ok(n == 7 && r.contended == 0 && (s.warnings & CHRONO_WARN_CONTENDED) && ca.ns[6] == 106,
           "contended for most of the run: every row stays and the session warns");
    s = fake_session(5);   /* 1 quiet row of 7, 5 wanted: the first 5 stay */
    quiet = feed(&s, busy, NULL, 7, quiet_after);
    fill_columns(&ca, store, 8, busy, 7);
    n = chrono__drop_contended(&s, &ca, &r, NULL, NULL, 7, quiet);
    tap_ok(quiet == 1 && n == 5 && ca.ns[4] == 104 && (s.warnings & CHRONO_WARN_CONTENDED),
           "and never more rows than .samples");

    {   /* 12 quiet rows of 30, 60 wanted: fewer than a quarter, but enough to stand alone */
        double fe30[30], store30[8 * 30];
        size_t quiet30[30];
        for (i = 0; i < 30; i++) fe30[i] = i % 5 < 2 ? 4.0 : 5.0;
        s = fake_session(60);
        quiet = feed(&s, fe30, NULL, 30, quiet30);
        fill_columns(&ca, store30, 30, fe30, 30);
        memset(&r, 0, sizeof r);
        n = chrono__drop_contended(&s, &ca, &r, NULL, NULL, 30, quiet);
        tap_ok(quiet == 12 && n == 12 && r.contended == 18 && ca.ns[1] == 101 && ca.ns[2] == 105 && r.warnings == 0 &&
               !(s.warnings & CHRONO_WARN_CONTENDED),
               "12 quiet rows of 30 (60 wanted): they are the run's figure, the 18 contended go, no warning");
    }
    s = fake_session(6);
    s.cfg.contention_tolerance = CHRONO_CONTENTION_OFF;
    quiet = feed(&s, fe, NULL, 7, quiet_after);
    fill_columns(&ca, store, 8, fe, 7);
    memset(&r, 0, sizeof r);
    tap_ok(quiet == 7 && chrono__drop_contended(&s, &ca, &r, NULL, NULL, 7, quiet) == 7 && r.contended == 0,
           "probe off: every row is quiet, none dropped");
}


/* ---- the port probe, per-run warnings, honest intervals: made-up readings ------- */
static void test_port_probe(void)
{
    static const double fe[] = { 4.0, 4.0, 4.0, 4.0, 4.0, 4.0 };
    static const double port[] = { 3.0, 2.85, 3.01, NAN, 3.2, 2.95 };   /* rows 1 and 4 beyond 3% */
    static const double busy[] = { 2.83, 2.84, 2.85, 2.83, 3.0, 2.84 };   /* a whole spell: 1 quiet of 6 */
    double store[7 * 8];
    size_t quiet, i, n;
    chrono__columns c;
    chrono_result r;
    chrono_session s = fake_session(6);
    s.port_expect = 3.0;
    tap_ok(chrono__port_ok(&s, 3.0) && chrono__port_ok(&s, 2.92) && !chrono__port_ok(&s, 2.85) &&
           !chrono__port_ok(&s, 3.2) && chrono__port_ok(&s, NAN),
           "port probe: within 3%% of 3.0 quiet, 2.85 and 3.2 shared, no reading quiet");
#if defined(CHRONO__X86)
    s.has_cycles = 1;
    tap_ok(chrono__port_expect(&s) == 3.0, "on x86 the unshared imul/add ratio is known a priori: 3.0");
#endif
    fill_columns(&c, store, 8, fe, 6);
    for (i = 0; i < 6; i++) c.port[i] = port[i];
    quiet = 0;
    for (i = 1; i <= 6; i++) quiet = chrono__note_fe(&s, c.fe, NULL, c.port, NULL, i, quiet);
    memset(&r, 0, sizeof r);
    n = chrono__drop_contended(&s, &c, &r, NULL, NULL, 6, quiet);
    tap_ok(quiet == 4 && n == 4 && r.port_contended == 2 && r.contended == 0 && c.ns[1] == 102 && c.ns[3] == 105 &&
           r.warnings == 0 && !(s.warnings & CHRONO_WARN_SHARED_CORE),
           "port-contended rows are dropped and counted as such (%zu quiet, %zu kept, %zu port-contended)",
           quiet, n, r.port_contended);

    s = fake_session(6);
    s.port_expect = 3.0;
    fill_columns(&c, store, 8, fe, 6);
    for (i = 0; i < 6; i++) c.port[i] = busy[i];
    quiet = 0;
    for (i = 1; i <= 6; i++) quiet = chrono__note_fe(&s, c.fe, NULL, c.port, NULL, i, quiet);
    memset(&r, 0, sizeof r);
    n = chrono__drop_contended(&s, &c, &r, NULL, NULL, 6, quiet);
    tap_ok(quiet == 1 && n == 6 && (r.warnings & CHRONO_WARN_SHARED_CORE) && !(r.warnings & CHRONO_WARN_CONTENDED) &&
           (s.warnings & CHRONO_WARN_SHARED_CORE),
           "a spell over the whole run (ratio 2.83, the front end quiet): rows kept, the run warns SHARED_CORE (0x%x)",
           r.warnings);

    s = fake_session(6);
    s.port_expect = 3.0;
    s.cfg.contention_tolerance = CHRONO_CONTENTION_OFF;
    tap_ok(chrono__port_ok(&s, 2.0), "probes off: no port verdict");
}

static void test_empty_body(void)
{
    chrono_session s = fake_session(5);
    chrono_result r;
    memset(&r, 0, sizeof r);
    r.has_cycles = 1; r.cycles.median = 1.0; r.ns.median = 0.26;
    chrono__check_empty(&s, &r);
    tap_ok(r.warnings == CHRONO_WARN_EMPTY_BODY, "one cycle an iteration: EMPTY_BODY");
    r.warnings = 0; r.cycles.median = 3.0;
    chrono__check_empty(&s, &r);
    tap_ok(r.warnings == 0, "three cycles: no warning");
    r.has_cycles = 0; r.cycles.median = NAN; r.ns.median = 0.3;
    chrono__check_empty(&s, &r);
    tap_ok(r.warnings == CHRONO_WARN_EMPTY_BODY, "without cycles, 0.3 ns: EMPTY_BODY");
    r.warnings = 0; s.cfg.expect_empty = 1;
    chrono__check_empty(&s, &r);
    tap_ok(r.warnings == 0, "expect_empty: no warning");
}

/* Pairs with made-up ticks: a ratio every pair agrees on still gets an
   interval as wide as the clock's steps; a ratio that changes level half way
   is caught and the interval covers both levels. */
static void test_pair_interval(void)
{
    enum { N = 40 };
    double sa[7 * N], sb[7 * N];
    chrono__columns a, b;
    chrono_ratio r;
    chrono_session s = fake_session(N);
    int unstable = -1, rc;
    size_t i;
    double zero[N];
    s.clock.resolution_ticks = 21;
    s.clock.ns_per_tick = 1.0;
    for (i = 0; i < N; i++) zero[i] = NAN;
    fill_columns(&a, sa, N, zero, N);
    fill_columns(&b, sb, N, zero, N);
    for (i = 0; i < N; i++) {   /* 1001 vs 1000 adds: 100100 against 100000 ticks, every pair alike */
        a.ticks[i] = a.ns[i] = 100100.0;
        b.ticks[i] = b.ns[i] = 100000.0;
    }
    rc = chrono__pair_ratio(&s, &a, &b, N, (const uint64_t[2]){ 1, 1 }, &r, &unstable);
    tap_ok(rc == 0 && !unstable && r.ci_low < 1.001 && r.ci_high > 1.001 && r.ci_high - r.ci_low >= 2 * 1.001 * 21 * 2 / 100100.0 * 0.99,
           "identical pairs: the interval is widened by the quantisation (%.6f [%.6f, %.6f])", r.ratio, r.ci_low, r.ci_high);
    for (i = 0; i < N; i++) {   /* 2.0 in the first half, 2.1 in the second, a little noise */
        b.ticks[i] = b.ns[i] = 100000.0 + (double)(i % 5);
        a.ticks[i] = a.ns[i] = b.ns[i] * (i < N / 2 ? 2.0 : 2.1);
    }
    rc = chrono__pair_ratio(&s, &a, &b, N, (const uint64_t[2]){ 1, 1 }, &r, &unstable);
    tap_ok(rc == 0 && unstable && r.ci_low <= 2.0 && r.ci_high >= 2.1,
           "a level change half way: unstable, the interval covers both levels ([%.4f, %.4f])", r.ci_low, r.ci_high);
}

/* The probe on the real machine: readings plausible, the accounting adds up,
   and CHRONO_CONTENTION_OFF turns it off.  No time is asserted. */
static void test_contention_real(void)
{
    chrono_config cfg = quick();
    chrono_session s;
    chrono_result r;
    uint64_t n1 = 1024;
    int rc, emu = tap_emulated();
    rc = chrono_session_open(&s, &cfg);
    if (rc < 0) { tap_ok(0, "session: %s", chrono_strerror(rc)); return; }
    rc = chrono_run(&s, "adds", add_chain, &n1, &r);
    tap_ok(rc == 0 && r.samples >= 1 && r.samples <= 21 &&
           r.samples_taken >= r.samples + r.contended + r.migrated + r.backwards + r.ref_rejected + r.preempted,
           "run with the probe: %zu samples of %zu taken, %zu contended", r.samples, r.samples_taken, r.contended);
    if (chrono__fe_on(&s) && !emu)
        tap_ok(s.fe_best >= 0.5 && s.fe_best < 100, "probe: a call costs %.2f cycles at best", s.fe_best);
    else
        tap_skip(chrono__fe_on(&s) ? "cycles under emulation are not meaningful" : "no reference chain on this CPU");
    chrono_session_close(&s);

    cfg.contention_tolerance = CHRONO_CONTENTION_OFF;
    rc = chrono_session_open(&s, &cfg);
    if (rc < 0) { tap_ok(0, "session: %s", chrono_strerror(rc)); return; }
    rc = chrono_run(&s, "adds", add_chain, &n1, &r);
    tap_ok(rc == 0 && !chrono__fe_on(&s) && r.contended == 0 && !(s.warnings & CHRONO_WARN_CONTENDED) && r.samples_taken <= 63,
           "CHRONO_CONTENTION_OFF: no probe, nothing counted as contended, at most 3x the samples taken");
    chrono_session_close(&s);
}

/* ---- controls: chains of known length between the samples -------------------------- */
/* n readings into c's ctl column: `slow` of them at 1.20 (spread over the run), the rest at `base`. */
static void fill_controls(chrono__columns *c, double *store, size_t cap, size_t n, size_t slow, double base)
{
    size_t i;
    fill_columns(c, store, cap, NULL, 0);
    c->ctl = store + 7 * cap;
    for (i = 0; i < n; i++) c->ctl[i] = (i * slow) / n != ((i + 1) * slow) / n ? 1.20 : base;   /* spread evenly */
}

static void test_controls_judge(void)
{
    double store[8 * 64];
    chrono__columns c;
    chrono__controls ctl;
    chrono_result r;
    chrono_session s = fake_session(101);
    size_t i, slow;
    memset(&ctl, 0, sizeof ctl);
    ctl.adds = 200000; ctl.sample_cycles = 200000; ctl.n = 50;   /* samples as long as a control */
    /* 15 of 50 hit (30%): the median sample holds, no warning */
    fill_controls(&c, store, 64, 50, 15, 1.0);
    for (i = 0, slow = 0; i < 50; i++) slow += c.ctl[i] > 1.1;
    chrono__result_init(&r, "x", 1);
    chrono__controls_judge(&s, &ctl, &c, 64, &r);
    tap_ok(slow == 15 && r.controls == 50 && r.controls_slow == 15 && fabs(r.control_reading - 1.0) < 1e-12 &&
           !(r.warnings & CHRONO_WARN_HOST_SLOWED),
           "controls: 15 of 50 read 20%% slow, the 60th percentile reads 1.000: no warning (%zu slow, %.4f)",
           r.controls_slow, r.control_reading);
    /* 25 of 50 hit (50%): the median sample may be a hit one */
    fill_controls(&c, store, 64, 50, 25, 1.0);
    chrono__result_init(&r, "x", 1);
    chrono__controls_judge(&s, &ctl, &c, 64, &r);
    tap_ok(r.controls_slow == 25 && r.control_reading > 1.1 && (r.warnings & CHRONO_WARN_HOST_SLOWED),
           "controls: 25 of 50 read 20%% slow: the run warns HOST_SLOWED (reading %.4f)", r.control_reading);
    /* 22 of 50 (44%, above 40%): warns too; 19 of 50 (38%) does not */
    fill_controls(&c, store, 64, 50, 22, 1.0);
    chrono__result_init(&r, "x", 1);
    chrono__controls_judge(&s, &ctl, &c, 64, &r);
    {
        int w22 = (r.warnings & CHRONO_WARN_HOST_SLOWED) != 0;
        fill_controls(&c, store, 64, 50, 19, 1.0);
        chrono__result_init(&r, "x", 1);
        chrono__controls_judge(&s, &ctl, &c, 64, &r);
        tap_ok(w22 && !(r.warnings & CHRONO_WARN_HOST_SLOWED), "controls: the line is at 40%% hit (22 of 50 warn, 19 do not)");
    }
    /* every control 0.8% slow: within .ref_tolerance, not counted */
    fill_controls(&c, store, 64, 50, 0, 1.008);
    chrono__result_init(&r, "x", 1);
    chrono__controls_judge(&s, &ctl, &c, 64, &r);
    tap_ok(r.controls_slow == 0 && !(r.warnings & CHRONO_WARN_HOST_SLOWED), "controls: 0.8%% slow is within the 1%% tolerance");
    /* samples 10x longer than a control: a sample sums ten stretches, each hit as a control is */
    ctl.sample_cycles = 2000000;
    fill_controls(&c, store, 64, 50, 6, 1.0);   /* 12% hit by +20%: most 10-control samples hold a hit */
    chrono__result_init(&r, "x", 1);
    chrono__controls_judge(&s, &ctl, &c, 64, &r);
    tap_ok(r.control_reading > 1.015 && r.control_reading < 1.065 && (r.warnings & CHRONO_WARN_HOST_SLOWED),
           "controls 10x shorter than the samples, 6 of 50 hit: a sample of ten reads %.4f at its 60th percentile, warns",
           r.control_reading);
    fill_controls(&c, store, 64, 50, 1, 1.0);   /* 2% hit: 82% of 10-control samples hold none */
    chrono__result_init(&r, "x", 1);
    chrono__controls_judge(&s, &ctl, &c, 64, &r);
    tap_ok(r.control_reading == 1.0 && r.controls_slow == 1 && !(r.warnings & CHRONO_WARN_HOST_SLOWED),
           "... 1 of 50 hit: the 60th percentile sample of ten holds none (%.4f), no warning", r.control_reading);
    /* too few to judge */
    ctl.sample_cycles = 200000; ctl.n = 4;
    fill_controls(&c, store, 64, 4, 4, 1.0);
    chrono__result_init(&r, "x", 1);
    chrono__controls_judge(&s, &ctl, &c, 64, &r);
    tap_ok(r.controls == 4 && r.controls_slow == 4 && !(r.warnings & CHRONO_WARN_HOST_SLOWED),
           "controls: 4 decide nothing (below CHRONO__CONTROL_MIN)");
    ctl.n = 0;
    chrono__result_init(&r, "x", 1);
    chrono__controls_judge(&s, &ctl, &c, 64, &r);
    tap_ok(r.controls == 0 && r.control_reading != r.control_reading, "no controls: reading NAN");
}

static void test_controls_size(void)
{
    chrono_session s = fake_session(101);
    chrono__controls ctl;
    chrono__sample sm;
    s.ref_adds = 14336;
    memset(&sm, 0, sizeof sm);
    sm.cycles_per_tick = 2.0; sm.ghz = 4.0;
    sm.ticks = 100003;   /* 200006 cycles: 50 us at 4 GHz */
    memset(&ctl, 0, sizeof ctl);
    chrono__controls_size(&s, &sm, &ctl);
    tap_ok(ctl.adds == 200000 && ctl.every == 4 && ctl.sample_cycles == 200006.0 && ctl.most == 2 * 101 / 4 + 5,
           "controls: as long as a 50 us sample (%llu adds, a multiple of 16), after every 4th sample, 55 at most",
           (unsigned long long)ctl.adds);
    sm.ticks = 999999;   /* 2e6 cycles more: sized once, from the first sample */
    chrono__controls_size(&s, &sm, &ctl);
    tap_ok(ctl.adds == 200000, "controls: sized once");
    memset(&ctl, 0, sizeof ctl);
    sm.ticks = 4000000;   /* 8e6 cycles: 2 ms, longer than the longest control (1 ms: 4e6 adds) */
    chrono__controls_size(&s, &sm, &ctl);
    tap_ok(ctl.adds == 4000000 && ctl.every == 5, "controls: 1 ms at most, every 5th of 2 ms samples (10%% of their time)");
    memset(&ctl, 0, sizeof ctl);
    sm.ticks = 1000;   /* shorter than a reference chain: one chain */
    chrono__controls_size(&s, &sm, &ctl);
    tap_ok(ctl.adds == 14336, "controls: never shorter than a reference chain");
    memset(&ctl, 0, sizeof ctl);
    s.cfg.contention_tolerance = CHRONO_CONTENTION_OFF;
    sm.ticks = 100003;
    chrono__controls_size(&s, &sm, &ctl);
    tap_ok(ctl.adds == 0, "controls: off with the probes (CHRONO_CONTENTION_OFF)");
}

/* A real run takes its controls and they read its core clock's truth, or it says why not. */
static void test_controls_real(void)
{
    chrono_config cfg = quick();
    chrono_session s;
    chrono_result r;
    uint64_t n1 = 1024;
    int rc = chrono_session_open(&s, &cfg);
    if (rc < 0) { tap_ok(0, "session: %s", chrono_strerror(rc)); return; }
    rc = chrono_run(&s, "adds", add_chain, &n1, &r);
    if (!chrono__fe_on(&s)) {
        tap_ok(rc != 0 || r.controls == 0, "no reference chains here: no controls");
    } else if (tap_emulated()) {   /* wine: chains run, but their figures are the emulator's */
        tap_ok(rc == 0 && r.controls <= r.samples_taken / CHRONO__CONTROL_EVERY && r.controls_slow <= r.controls,
               "emulated: at most a control after every 4th sample (%zu of %zu samples)", r.controls, r.samples_taken);
        tap_skip("the controls' reading: emulated");
    } else {
        size_t due = r.samples_taken / CHRONO__CONTROL_EVERY, most = 2 * (size_t)cfg.samples / CHRONO__CONTROL_EVERY + 5;
        if (due > most) due = most;   /* a run that waits long for quiet samples stops taking controls */
        tap_ok(rc == 0 && r.controls + r.preempted + r.ref_rejected + r.migrated + 2 >= due && r.controls <= due &&
               r.controls_slow <= r.controls,
               "a run takes a control after every 4th sample (%zu of %zu due)", r.controls, due);
        tap_ok(rc == 0 && (fabs(r.control_reading - 1.0) < 0.01 || (r.warnings & CHRONO_WARN_HOST_SLOWED)),
               "its controls read one core cycle an add (%.4f), or the run says the host slowed it", r.control_reading);
    }
    chrono_session_close(&s);
}

static void test_too_fast_body(void)
{
    chrono_config cfg = quick();
    chrono_session s;
    chrono_result r;
    int rc;
    cfg.cycles = CHRONO_CYCLES_OFF;   /* batch growth is under test; no reference rejections */
    rc = chrono_session_open(&s, &cfg);
    if (rc < 0) { tap_ok(0, "open"); return; }
    rc = chrono_run(&s, "nothing", nothing, NULL, &r);
    tap_ok(rc == 0 && r.iters_per_sample >= 1000 && r.ns.median >= 0 && r.ns.median == r.ns.median &&
               r.ns.median < 1.0,
           "a body far faster than the timer: batch grew to %llu, %.6f ns an iteration, no division by zero",
           (unsigned long long)r.iters_per_sample, r.ns.median);
    chrono_session_close(&s);
}

#if defined(__linux__)
static void test_pinning(void)
{
    chrono_config cfg = quick();
    chrono_session s;
    cpu_set_t before, during, after;
    int rc;
    sched_getaffinity(0, sizeof before, &before);
    rc = chrono_session_open(&s, &cfg);
    sched_getaffinity(0, sizeof during, &during);
    tap_ok(rc == 0 && s.pin.pinned && sched_getcpu() == s.pin.cpu && CPU_COUNT(&during) == 1,
           "AUTO pins the thread to the CPU it was on (cpu %d, sched_getcpu %d)", s.pin.cpu, sched_getcpu());
    chrono_session_close(&s);
    sched_getaffinity(0, sizeof after, &after);
    tap_ok(CPU_EQUAL(&before, &after), "close restores the affinity mask");

    cfg.pin = CHRONO_PIN_CPU;
    cfg.cpu = 100000;
    rc = chrono_session_open(&s, &cfg);
    tap_ok(rc == CHRONO_EPIN || rc == CHRONO_EINVAL, "PIN_CPU to CPU 100000 is an error (%s)", chrono_strerror(rc));
    if (rc == 0) chrono_session_close(&s);
    cfg.pin = CHRONO_PIN_PREFER;
    rc = chrono_session_open(&s, &cfg);
    tap_ok(rc == 0 && !s.pin.pinned && (s.warnings & CHRONO_WARN_UNPINNED),
           "PIN_PREFER to CPU 100000 goes on unpinned, with a warning (rc %d)", rc);
    if (rc == 0) chrono_session_close(&s);
}

/* The body moves its own thread to the other CPU every third call. */
static void hop(void *ctx, uint64_t iters)
{
    int *calls = (int *)ctx;
    if (++*calls % 3 == 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(sched_getcpu() == 0 ? 1 : 0, &set);
        sched_setaffinity(0, sizeof set, &set);
    }
    adds(&iters, 1);
}

static void test_migration(void)
{
    chrono_config cfg = quick();
    chrono_session s;
    chrono_result r;
    cpu_set_t before;
    int calls = 0, rc;
    sched_getaffinity(0, sizeof before, &before);
    if (!CPU_ISSET(0, &before) || !CPU_ISSET(1, &before)) {
        tap_skip("needs CPUs 0 and 1");
        return;
    }
    cfg.pin = CHRONO_PIN_OFF;
    cfg.samples = 11;
    cfg.cycles = CHRONO_CYCLES_OFF;   /* only migrations may reject samples here */
    if ((rc = chrono_session_open(&s, &cfg)) < 0) { tap_ok(0, "open"); return; }
    rc = chrono_run(&s, "hopping", hop, &calls, &r);
    tap_ok(rc == 0 && r.samples == 11 && r.migrated > 0 && (s.warnings & CHRONO_WARN_MIGRATED) && r.samples_taken == r.samples + r.migrated + r.backwards + r.ref_rejected + r.preempted,
           "a thread that changes CPU mid-sample: %zu samples counted as migrated and reported (rc %d)", r.migrated, rc);
    chrono_session_close(&s);
    sched_setaffinity(0, sizeof before, &before);
}

/* A body that blocks by design: a 50 µs sleep per iteration. */
static void nap(void *ctx, uint64_t iters)
{
    struct timespec ts = { 0, 50000 };
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) nanosleep(&ts, NULL);
}

/* "real_time" and "cpu_time" of the first entry of a session's JSON report. */
static int json_times(const chrono_session *s, double *real, double *cpu)
{
    char buf[1 << 16], *p;
    size_t len;
    FILE *f = tmpfile();
    *real = *cpu = NAN;
    if (!f || chrono_report(s, f, CHRONO_FORMAT_JSON) < 0) { if (f) fclose(f); return 0; }
    rewind(f);
    len = fread(buf, 1, sizeof buf - 1, f);
    buf[len] = '\0';
    fclose(f);
    if ((p = strstr(buf, "\"real_time\": ")) != NULL) *real = strtod(p + 13, NULL);
    if ((p = strstr(buf, "\"cpu_time\": ")) != NULL) *cpu = strtod(p + 12, NULL);
    return *real > 0 && *cpu >= 0;
}

/* A blocking body's CPU figures are its samples' own, read around each: its
   CPU time per iteration is its CPU share times the mean sample, exactly
   (the span's, with the engine's work between samples in, read 2.5-5.6% more
   for a 50 us sleep, and a one-off cost there once 3.6x the sleep's own).
   Exact where every sample counts in the mean (none migrated or went
   backwards) and neither figure is capped (at the median, at 1). */
static void test_sleep_cpu_own(const chrono_result *r)
{
    double own = r->cpu_share * r->all_ns_mean;
    int exact = r->migrated == 0 && r->backwards == 0 && r->cpu_ns_per_iter < r->ns.median && r->cpu_share < 1;
    tap_ok(!exact || fabs(r->cpu_ns_per_iter / own - 1) <= 1e-6,
           "a blocking body's CPU time is its samples' own: %.1f ns an iteration = CPU share %.4f x mean sample "
           "%.1f ns (%.1f)%s", r->cpu_ns_per_iter, r->cpu_share, r->all_ns_mean, own,
           exact ? "" : "; a sample migrated or a figure capped: not comparable");
}

/* The run of a sleeping body (blocking = 1) shows its CPU time per
   iteration far below its real time, in the result and in the JSON, while a
   body that computes, run next in the same session, shows most of it. */
static void test_sleep_cpu(chrono_session *s, const chrono_result *nap_r)
{
    chrono_result busy;
    double real, cpu;
    uint64_t n = 3000;
    int ok = json_times(s, &real, &cpu), rc, emu = tap_emulated();   /* an emulator's overhead is CPU time too */
    tap_ok(ok && (emu || (cpu < 0.5 * real && nap_r->cpu_ns_per_iter < 0.5 * nap_r->ns.median)) &&
               fabs(cpu - nap_r->cpu_ns_per_iter) <= 1e-9 * real,
           "a body sleeping 50 \xC2\xB5s an iteration: JSON cpu_time %.0f ns < half its real_time %.0f ns (CPU share %.3f)%s",
           cpu, real, nap_r->cpu_share, emu ? "; emulated: the ratio not checked" : "");
    test_sleep_cpu_own(nap_r);
    rc = chrono_run(s, "busy", adds, &n, &busy);
    /* CPU time does not accrue while the thread is switched out: a busy body's is its median, loaded machine or not */
    tap_ok(rc == 0 && (emu || busy.cpu_ns_per_iter > 0.8 * busy.ns.median) && busy.cpu_ns_per_iter <= busy.ns.median &&
               busy.cpu_share <= 1 && busy.cpu_share > 0,
           "a body that computes, in the same session: CPU time %.0f ns an iteration of its median %.0f ns (more than 0.8x, "
           "at most 1x); CPU share %.3f (the sleeper's %.3f)%s", busy.cpu_ns_per_iter, busy.ns.median, busy.cpu_share,
           nap_r->cpu_share, emu ? "; emulated: the ratio not checked" : "");
}

static void test_blocking(void)
{
    chrono_config cfg = quick();
    chrono_session s;
    chrono_result r;
    int rc;
    if (chrono_cpu_switches_involuntary() < 0) { tap_skip("no involuntary switch count here"); return; }
    cfg.samples = 11;
    cfg.max_ms = 300;
    cfg.cycles = CHRONO_CYCLES_OFF;   /* only switches may reject samples here */
    if ((rc = chrono_session_open(&s, &cfg)) < 0) { tap_ok(0, "open"); return; }
    memset(&r, 0, sizeof r);
    rc = chrono_run(&s, "nap", nap, NULL, &r);
    /* nearly every sample is switched out (a short sleep may, rarely, not be):
       preempted ones are rejected, and only when none is left are they kept,
       marked INTERRUPTED */
    tap_ok(rc == 0 && r.preempted * 2 >= r.samples_taken &&
               (r.preempted == r.samples_taken) == ((r.warnings & CHRONO_WARN_INTERRUPTED) != 0),
           "blocking = 0: a body that sleeps is switched out in (nearly) every sample: rejected as preempted, "
           "kept as INTERRUPTED only when none was left (rc %d, %zu of %zu preempted, INTERRUPTED %s)", rc, r.preempted,
           r.samples_taken, (r.warnings & CHRONO_WARN_INTERRUPTED) ? "set" : "not set");
    chrono_session_close(&s);
    cfg.blocking = 1;
    if ((rc = chrono_session_open(&s, &cfg)) < 0) { tap_ok(0, "open"); return; }
    memset(&r, 0, sizeof r);
    rc = chrono_run(&s, "nap", nap, NULL, &r);
    tap_ok(rc == 0 && r.samples == 11 && !(r.warnings & CHRONO_WARN_INTERRUPTED) && r.ns.median >= 50000.0 && r.ns.median < 50e6,
           "blocking = 1: its voluntary switches are its work: %zu samples kept, %zu rejected, median %.0f ns (rc %d)",
           r.samples, r.preempted, r.ns.median, rc);
    test_sleep_cpu(&s, &r);
    chrono_session_close(&s);
}

static volatile sig_atomic_t alarms;
static void on_alarm(int sig) { (void)sig; alarms++; }

static void test_signal(void)
{
    chrono_config cfg = quick();
    chrono_session s;
    chrono_result r;
    struct sigaction sa;
    struct itimerval it;
    uint64_t n = 100;
    int rc;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    memset(&it, 0, sizeof it);
    it.it_interval.tv_usec = 2000;
    it.it_value.tv_usec = 2000;
    setitimer(ITIMER_REAL, &it, NULL);
    memset(&r, 0, sizeof r);
    cfg.cycles = CHRONO_CYCLES_OFF;   /* only what the signals do counts here */
    rc = chrono_session_open(&s, &cfg);
    if (rc == 0) rc = chrono_run(&s, "signalled", adds, &n, &r);
    memset(&it, 0, sizeof it);
    setitimer(ITIMER_REAL, &it, NULL);
    tap_ok(rc == 0 && alarms > 0 && r.samples == 21 && r.ns.median > 0,
           "signals every 2 ms during a run (%d arrived): it completes, %zu samples", (int)alarms, r.samples);
    if (s.is_open) chrono_session_close(&s);
}

/* The library prints nothing: stdout and stderr stay empty across a session. */
static void test_silence(void)
{
    char path[] = "/tmp/chrono_silenceXXXXXX";
    int fd = mkstemp(path), out, err, rc;
    chrono_config cfg = quick();
    chrono_session s;
    uint64_t n = 10;
    off_t size;
    fflush(stdout);
    fflush(stderr);
    out = dup(1);
    err = dup(2);
    dup2(fd, 1);
    dup2(fd, 2);
    rc = chrono_session_open(&s, &cfg);
    if (rc == 0) {
        chrono_run(&s, "quiet", adds, &n, NULL);
        chrono_run(&s, "bad", NULL, NULL, NULL);
        chrono_session_close(&s);
    }
    fflush(stdout);
    fflush(stderr);
    dup2(out, 1);
    dup2(err, 2);
    close(out);
    close(err);
    size = lseek(fd, 0, SEEK_END);
    close(fd);
    unlink(path);
    tap_ok(rc == 0 && size == 0, "the library printed nothing (%ld bytes)", (long)size);
}
#endif

/* A body that always sleeps: every sample switches the thread out, so every
   sample is rejected as preempted.  The run still gives a figure, from those
   samples, marked CHRONO_WARN_INTERRUPTED; a quiet body gets no such mark. */
#if defined(__linux__)
static void sleepy(void *ctx, uint64_t iters)
{
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) usleep(200);
}
#endif
static void test_interrupted(void)
{
#if defined(__linux__)
    chrono_config cfg = chrono_config_default();
    chrono_session s;
    chrono_result r;
    int rc;
    cfg.samples = 5; cfg.warmup_ms = 1; cfg.max_ms = 200; cfg.min_sample_us = 100;
    if (chrono_session_open(&s, &cfg) < 0) { tap_ok(0, "session for the interrupted run"); return; }
    rc = chrono_run(&s, "sleepy", sleepy, NULL, &r);
    /* A sleep very rarely does not switch out: then that sample is used,
       unmarked, unless its reference chains disagreed (the core clock moved
       while it slept), another interruption.  INTERRUPTED marks a run whose
       every sample was interrupted. */
    tap_ok(rc == 0 && r.samples > 0 && r.preempted * 2 >= r.samples_taken && r.ns.median >= 150e3 &&
               (r.preempted + r.ref_rejected + r.migrated + r.backwards == r.samples_taken) ==
                   ((r.warnings & CHRONO_WARN_INTERRUPTED) != 0),
           "a body that always switches out: %s, %zu samples kept of %zu taken (%zu preempted, %zu references disagreed), "
           "median %.0f ns, INTERRUPTED %s",
           rc == 0 ? "a figure" : chrono_strerror(rc), r.samples, r.samples_taken, r.preempted, r.ref_rejected, r.ns.median,
           (r.warnings & CHRONO_WARN_INTERRUPTED) ? "set" : "NOT set");
    {
        chrono_comparison c;
        rc = chrono_compare(&s, "sleepy_a", sleepy, NULL, "sleepy_b", sleepy, NULL, &c);
        tap_ok(rc == 0 && c.rounds > 0 && c.ratio > 0.5 && c.ratio < 2 &&
                   ((c.warnings & CHRONO_WARN_INTERRUPTED) ||
                    c.a.preempted + c.b.preempted < c.a.samples_taken + c.b.samples_taken),
               "two such bodies compared: %s, %zu pairs, ratio %.3f, INTERRUPTED %s",
               rc == 0 ? "a ratio" : chrono_strerror(rc), c.rounds, c.ratio,
               (c.warnings & CHRONO_WARN_INTERRUPTED) ? "set" : "NOT set");
    }
    rc = chrono_run(&s, "quiet", nothing, NULL, &r);
    /* right after the sleeps the core clock may still be moving: samples whose
       references disagree are interrupted too, and only a run of nothing
       else is marked */
    tap_ok(rc != 0 || !(r.warnings & CHRONO_WARN_INTERRUPTED) ||
               r.preempted + r.ref_rejected + r.migrated + r.backwards == r.samples_taken,
           "a body that stays on the CPU is not marked INTERRUPTED unless every sample was (%zu of %zu samples preempted, "
           "%zu with references disagreeing)", r.preempted, r.samples_taken, r.ref_rejected);
    chrono_session_close(&s);
#else
    tap_skip("a body that always switches out (usleep): Linux only");
    tap_skip("two such bodies compared: Linux only");
    tap_skip("a quiet body is not marked INTERRUPTED: Linux only");
#endif
}

int main(void)
{
    test_config();
    test_bad_input();
    test_simulated_exact();
    test_simulated_low_level();
    test_simulated_outlier();
    test_simulated_backwards();
    test_simulated_halved_batch();
    test_simulated_slow_body();
    test_simulated_first_call_stall();
    test_simulated_max_ms();
    test_simulated_sweep();
    test_simulated_between();
    test_simulated_literal();
    test_threads_apart();
    test_real_ratios();
    test_accuracy();
    test_confidence();
    test_abba();
    test_ref_rejection();
    test_contention_filter();
    test_port_probe();
    test_empty_body();
    test_pair_interval();
    test_contention_real();
    test_controls_judge();
    test_controls_size();
    test_controls_real();
    test_too_fast_body();
    test_interrupted();
#if defined(__linux__)
    test_pinning();
    test_migration();
    test_blocking();
    test_signal();
    test_silence();
#endif
    return tap_done();
}

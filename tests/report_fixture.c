/* report_fixture — a program for the report and command-line tests.

   report_fixture [common flags] [--fixed]
     without --fixed: opens a session with the flags (use --quick), runs three
       fast benchmarks whose names hold '"', '\', tab, newline, comma and
       non-ASCII UTF-8, one comparison and a three-point sweep, and writes
       the report with chrono_cli_finish (--format, --out).
     --fixed: no measuring; a session filled by hand with known values
       (fixture_fill below) is reported instead, so that the checks
       (check_report.py, test_report.c) can compare exact figures.

   test_report.c includes this file with CHRONO_FIXTURE_NO_MAIN defined to
   reuse fixture_fill. */
#include <chronoscope.h>
#include <chronoscope/cli.h>

/* Names that must survive every format. */
#define FIXTURE_NAME_QUOTE "quote\"back\\slash"
#define FIXTURE_NAME_CTRL "tab\there, new\nline"
#define FIXTURE_NAME_UTF8 "\xC3\xBCn\xC3\xAF \xE2\x9C\x93 \xE8\xA8\x88\xE6\x99\x82 \xE2\x80\x94 \xC2\xB5s"   /* "ünï ✓ 計時 — µs" */
/* invalid UTF-8 (a stray byte, a truncated sequence, a surrogate, an overlong
   form) around a valid 4-byte emoji, and a CR */
#define FIXTURE_NAME_BAD "bad\xFF|\xE2\x82|\xED\xA0\x80|\xC0\xAF|\xF0\x9F\x98\x80|\r"

/* ---- the hand-filled session (values checked by check_report.py) ---------- */
#define FIXTURE_RESULTS 8
#define FIXTURE_COMPARISONS 2
typedef struct fixture {
    chrono_session s;
    chrono_result results[FIXTURE_RESULTS];
    chrono_comparison comparisons[FIXTURE_COMPARISONS];
    chrono_sweep_result sweep;
} fixture;

static void fixture_stats(chrono_stats *st, size_t n, double median, double spread)
{
    st->n = n;
    st->median = median;
    st->mean = median * 1.01;
    st->min = median - 2 * spread;
    st->max = median + 60 * spread;
    st->stddev = 2 * spread;
    st->cv = st->stddev / st->mean;
    st->mad = spread;
    st->q1 = median - spread;
    st->q3 = median + spread;
    st->p99 = median + 30 * spread;
    st->ci_low = median - spread * 0.5;
    st->ci_high = median + spread * 0.5;
    st->ci_level = 0.95;
    st->outliers_low = 1;
    st->outliers_high = 3;
    st->outliers_severe = 1;
}

static void fixture_nan_stats(chrono_stats *st)
{
    memset(st, 0, sizeof *st);
    st->min = st->max = st->mean = st->stddev = st->cv = st->median = st->mad = NAN;
    st->q1 = st->q3 = st->p99 = st->ci_low = st->ci_high = st->ci_level = NAN;
}

static void fixture_result(chrono_result *r, const char *name, double median_ns, double ghz)
{
    unsigned i;
    memset(r, 0, sizeof *r);
    strcpy(r->name, name);
    r->iters_per_sample = 1000;
    r->samples = 101;
    r->samples_taken = 106;
    r->migrated = 2;
    r->preempted = 1;
    r->contended = 3;
    r->cpu = 2;
    r->wall_ms = 250;
    r->warmup_ms = 50;
    r->allocs_per_iter = r->alloc_bytes_per_iter = NAN;   /* no allocator hook */
    r->all_n = 104;                   /* taken less the 2 migrated */
    r->all_ns_mean = median_ns * 1.02;
    r->all_ns_stddev = median_ns / 50;
    r->cpu_share = 0.75;                  /* on a CPU three quarters of the sampling */
    r->cpu_ns_per_iter = 0.75 * median_ns;
    r->controls = 25;                     /* control chains between the samples */
    r->controls_slow = 3;
    r->control_reading = 1.0025;
    fixture_stats(&r->ns, r->samples, median_ns, median_ns / 300);
    fixture_stats(&r->ticks, r->samples, median_ns * 3, median_ns / 100);
    r->has_cycles = ghz > 0;
    r->core_ghz = ghz > 0 ? ghz : NAN;
    if (ghz > 0) fixture_stats(&r->cycles, r->samples, median_ns * ghz, median_ns * ghz / 300);
    else fixture_nan_stats(&r->cycles);
    for (i = 0; i < CHRONO_HIST_BINS; i++) r->hist[i] = i < 8 ? i * 3 : (i == 15 ? 2 : 0);
    r->hist_lo = r->ns.min;
    r->hist_hi = r->ns.q3 + 3 * (r->ns.q3 - r->ns.q1);
}

static void fixture_comparison(chrono_comparison *c, const char *a, double a_ns, const char *b, double b_ns,
                               double ratio, double lo, double hi)
{
    memset(c, 0, sizeof *c);
    fixture_result(&c->a, a, a_ns, 3.5);
    fixture_result(&c->b, b, b_ns, 3.5);
    c->rounds = 101;
    c->ratio = ratio;
    c->ci_low = lo;
    c->ci_high = hi;
    c->ci_level = 0.95;
    c->cycles_ratio = ratio;
}

static void fixture_env(chrono_session *s)
{
    chrono_env *e = &s->env;
    s->cfg = chrono_config_default();
    s->clock.source = CHRONO_CLOCK_TSC;
    s->clock.name = "tsc";
    s->clock.hz = 3e9;
    s->clock.ns_per_tick = 1 / 3.0;
    s->clock.hz_method = CHRONO_HZ_CPUID_15;
    s->clock.hz_calibrated = 3e9;
    s->clock.calib_spread = 0.0002;
    s->clock.overhead_ticks = 60;
    s->clock.resolution_ticks = 1;
    s->clock.invariant_tsc = 1;
    s->pin.pinned = 1;
    s->pin.cpu = 2;
    strcpy(s->pin.topology, "core 2 (PUs 2,6)");
    strcpy(e->cpu_brand, "Test CPU @ 3.00GHz");
    strcpy(e->cpu_vendor, "GenuineIntel");
    e->online_cpus = 8;
    strcpy(e->governor, "performance");
    e->boost = 0;
    e->smt = 1;
    e->in_vm = 1;
    strcpy(e->hypervisor, "KVMKVMKVM");
    strcpy(e->clocksource, "tsc");
    strcpy(e->kernel, "Linux 6.1.0 x86_64");
    strcpy(e->hostname, "fixture-host");
    strcpy(e->compiler, "gcc 12.2.0");
    e->optimized = 1;
    e->asserts = 0;
    e->loadavg1 = 0.25;
    e->ncaches = 2;
    e->caches[0].level = 1; strcpy(e->caches[0].type, "Data"); e->caches[0].size = 32768; e->caches[0].num_sharing = 2;
    e->caches[1].level = 2; strcpy(e->caches[1].type, "Unified"); e->caches[1].size = 1048576; e->caches[1].num_sharing = 2;
    s->warnings = CHRONO_WARN_VM | CHRONO_WARN_MIGRATED;
    s->has_cycles = 1;
    s->core_ghz = 3.5;
    s->ref_adds = 16384;
}

/* Samples for the plots (html.h): r->samples values around the median, in
   the order "taken", a slow drift, the first two high (outliers) and one far
   out; comparisons get paired ratios around their ratio. */
#define FIXTURE_SAMPLES_MAX 128
static double fixture_pool[FIXTURE_RESULTS + 3 * FIXTURE_COMPARISONS][FIXTURE_SAMPLES_MAX];

static void fixture_samples(chrono_result *r, double *v)
{
    size_t i, n = r->samples < FIXTURE_SAMPLES_MAX ? r->samples : FIXTURE_SAMPLES_MAX;
    double spread = r->ns.mad;
    for (i = 0; i < n; i++) {
        double u = (double)((i * 37) % 101) / 100.0 - 0.5;   /* a fixed shuffle of [-0.5, 0.5] */
        v[i] = r->ns.median + spread * (2.5 * u + 0.4 * ((double)i / (double)n - 0.5));
    }
    if (n > 3) { v[0] = r->ns.q3 + 2.5 * spread; v[1] = r->ns.q3 + 2.2 * spread; v[2] = r->ns.max; }
    r->sample_ns = n ? v : NULL;
    r->nsample_ns = n;
}

static void fixture_ratios(chrono_comparison *c, double *v)
{
    size_t i, n = c->rounds < FIXTURE_SAMPLES_MAX ? c->rounds : FIXTURE_SAMPLES_MAX;
    for (i = 0; i < n; i++) v[i] = c->ratio + (c->ci_high - c->ci_low) * ((double)((i * 53) % 101) / 50.0 - 1.0 + (double)i / (double)n);
    c->pair_ratios = v;
    c->npair_ratios = n;
}

/* Results: 0 quote (1500 ns), 1 control characters (0.285 ns, no cycles),
   2 UTF-8 (2.5 ms, truncated), 3 invalid UTF-8 (12 s), 4-6 sweep "copy"
   (10, 20, 40 ns at 1, 2, 4), 7 no samples (all NaN).  Result 0 processes 3000
   bytes an iteration (2 GB/s), result 5 four items (200 M items/s), result 6
   ran in 4 threads (the slowest 50 ns, 80 M iterations/s together).  Each
   was on a CPU 75% of its sampling (CPU time 0.75 x the median) but result
   1, whose CPU time is unknown.  Comparisons:
   imul1000 vs add1000 (3.001 [2.999, 3.003]), same_a vs same_b (1.001
   [0.998, 1.004]). */
static void fixture_fill(fixture *f)
{
    chrono_session *s = &f->s;
    int i;
    memset(f, 0, sizeof *f);
    fixture_env(s);
    fixture_result(&f->results[0], FIXTURE_NAME_QUOTE, 1500, 3.5);
    fixture_result(&f->results[1], FIXTURE_NAME_CTRL, 0.285, 0);
    fixture_result(&f->results[2], FIXTURE_NAME_UTF8, 2.5e6, 3.5);
    f->results[2].truncated = 1;
    f->results[2].samples = 57;
    fixture_result(&f->results[3], FIXTURE_NAME_BAD, 12e9, 3.5);
    fixture_result(&f->results[4], "copy/1", 10, 3.5);
    fixture_result(&f->results[5], "copy/2", 20, 3.5);
    fixture_result(&f->results[6], "copy/4", 40, 3.5);
    fixture_result(&f->results[7], "no_samples", 1, 3.5);
    for (i = 0; i < FIXTURE_RESULTS; i++) f->results[i].ipc = NAN;
    /* the second result: every counter (a machine with a PMU), 100 + id per iteration, IPC 101/100 */
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++) fixture_stats(&f->results[1].counter[i], 101, 100.0 + i, 0.5);
    f->results[1].counters = CHRONO_COUNTERS_ALL;
    f->results[1].ipc = 101.0 / 100.0;
    /* the first result: page faults and RSS growth, pooled from 3 processes */
    f->results[0].faults_minor_per_iter = 2.0;
    f->results[0].max_rss_growth_bytes = 1048576.0;
    f->results[0].processes = 3;
    f->results[0].process_min_ns = 1450.0;
    f->results[0].process_max_ns = 1570.0;
    f->results[0].bytes_per_iter = 3000;   /* 2 GB/s at 1500 ns */
    f->results[5].items_per_iter = 4;      /* 200 M items/s at 20 ns */
    f->results[6].threads = 4;             /* a threaded run (threads.h): the slowest thread 50 ns, */
    f->results[6].thread_slowest_ns = 50;  /* 4 threads 80 M iterations/s together */
    f->results[6].threads_per_second = 4e9 / 50;
    f->results[1].cpu_share = f->results[1].cpu_ns_per_iter = NAN;   /* CPU time unknown */
    f->results[1].controls = f->results[1].controls_slow = 0;         /* no controls (no reference chains) */
    f->results[1].control_reading = NAN;
    f->results[7].samples = 0;
    f->results[7].all_n = 0;
    f->results[7].has_cycles = 0;
    fixture_nan_stats(&f->results[7].ns);
    fixture_nan_stats(&f->results[7].cycles);
    memset(f->results[7].hist, 0, sizeof f->results[7].hist);
    s->results = f->results;
    s->nresults = s->cap_results = FIXTURE_RESULTS;

    strcpy(f->sweep.name, "copy");
    f->sweep.points = 3;
    f->sweep.per_unit_ns = 10;
    f->sweep.fixed_ns = 0.5;   /* not 0: the plotted fit line must carry it (check_plots) */
    f->sweep.r2 = 1;
    f->sweep.per_unit_cycles = 35;
    f->sweep.fixed_cycles = 0;
    f->sweep.r2_cycles = 1;
    f->sweep.per_unit_ci[0] = 9.9; f->sweep.per_unit_ci[1] = 10.1;
    f->sweep.fixed_ci[0] = 0; f->sweep.fixed_ci[1] = 1;
    f->sweep.per_unit_cycles_ci[0] = f->sweep.per_unit_cycles_ci[1] = NAN;
    f->sweep.fixed_cycles_ci[0] = f->sweep.fixed_cycles_ci[1] = NAN;
    strcpy(f->sweep.unit, "bytes");
    f->sweep.first_result = 4;
    s->sweeps = &f->sweep;
    s->nsweeps = s->cap_sweeps = 1;

    fixture_comparison(&f->comparisons[0], "imul1000", 3001, "add1000", 1000, 3.001, 2.999, 3.003);
    fixture_comparison(&f->comparisons[1], "same_a", 1001, "same_b", 1000, 1.001, 0.998, 1.004);
    {
        size_t i, k = 0;
        for (i = 0; i < FIXTURE_RESULTS; i++) fixture_samples(&f->results[i], fixture_pool[k++]);
        for (i = 0; i < FIXTURE_COMPARISONS; i++) {
            fixture_samples(&f->comparisons[i].a, fixture_pool[k++]);
            fixture_samples(&f->comparisons[i].b, fixture_pool[k++]);
            fixture_ratios(&f->comparisons[i], fixture_pool[k++]);
        }
    }
    s->comparisons = f->comparisons;
    s->ncomparisons = s->cap_comparisons = FIXTURE_COMPARISONS;
    s->is_open = 1;
}

#ifndef CHRONO_FIXTURE_NO_MAIN
/* ---- the measured benchmarks ------------------------------------------------ */
static void add_loop(void *ctx, uint64_t iters)
{
    uint64_t x = ctx ? *(const uint64_t *)ctx : 1, i;
    for (i = 0; i < iters; i++) { x += i; chrono_keep(x); }
}

static void mul_loop(void *ctx, uint64_t iters)
{
    uint64_t x = ctx ? *(const uint64_t *)ctx : 3, i;
    for (i = 0; i < iters; i++) { x *= 2654435761u; chrono_keep(x); }
}

static void copy_loop(void *ctx, uint64_t param, uint64_t iters)
{
    volatile char *buf = (volatile char *)ctx;
    uint64_t i, k;
    for (i = 0; i < iters; i++)
        for (k = 0; k < param; k++) buf[k] = buf[k + 64];
}

static int run_measured(chrono_cli *cli, const chrono_config *cfg)
{
    static char buf[256];
    static const uint64_t params[] = { 8, 16, 32 };
    uint64_t seed = 7;
    chrono_session s;
    int rc = chrono_session_open(&s, cfg);
    if (rc < 0) {
        fprintf(stderr, "report_fixture: session: %s\n", chrono_strerror(rc));
        return 1;
    }
    if (rc == 0 && chrono_cli_want(cli, FIXTURE_NAME_QUOTE)) rc = chrono_run(&s, FIXTURE_NAME_QUOTE, add_loop, &seed, NULL);
    if (rc == 0 && chrono_cli_want(cli, FIXTURE_NAME_CTRL)) rc = chrono_run(&s, FIXTURE_NAME_CTRL, mul_loop, &seed, NULL);
    if (rc == 0 && chrono_cli_want(cli, FIXTURE_NAME_UTF8)) rc = chrono_run(&s, FIXTURE_NAME_UTF8, add_loop, NULL, NULL);
    if (rc == 0 && chrono_cli_want(cli, "mul_vs_add")) rc = chrono_compare(&s, "mul", mul_loop, NULL, "add", add_loop, NULL, NULL);
    if (rc == 0 && chrono_cli_want(cli, "copy")) rc = chrono_sweep(&s, "copy", copy_loop, buf, params, 3, NULL);
    if (rc < 0) fprintf(stderr, "report_fixture: run: %s\n", chrono_strerror(rc));
    if (rc == 0 && (rc = chrono_cli_finish(cli, &s)) < 0) fprintf(stderr, "report_fixture: %s\n", cli->error);
    chrono_session_close(&s);
    return rc < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
    chrono_config cfg = chrono_config_default();
    chrono_cli cli;
    int fixed = 0, rc;
    chrono_cli_flag extra[1];
    extra[0].name = "--fixed";
    extra[0].kind = CHRONO_CLI_BOOL;
    extra[0].value = &fixed;
    extra[0].min = extra[0].max = 0;
    extra[0].help = "report a hand-filled session with known values instead of measuring";
    if (chrono_cli_parse_ex(&cfg, &cli, argc, argv, extra, 1) < 0) return chrono_cli_fail(&cli, argv[0]);
    if (chrono_cli_handle_info(&cli, argv[0])) return 0;
    if (fixed) {
        static fixture f;
        size_t i;
        fixture_fill(&f);
        for (i = 0; i < FIXTURE_RESULTS; i++) (void)chrono_cli_want(&cli, f.results[i].name);   /* --list */
        rc = chrono_cli_finish(&cli, &f.s);
        if (rc < 0) fprintf(stderr, "report_fixture: %s\n", cli.error[0] ? cli.error : chrono_strerror(rc));
        return rc < 0 ? 1 : 0;
    }
    return run_measured(&cli, &cfg);
}
#endif

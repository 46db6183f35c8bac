/* test_experiment — the experiment helpers on hand-made inputs: Δ and its CI
   from a synthetic comparison, the projection's arithmetic (mean-based), the
   then-vs-now table's cells ("n/a" without the seed's clock), the
   environment the experiments print (once, the report's header: PTI and
   mitigations read from a vulnerabilities directory); temp files removed on
   exit and on a signal; one real batch against the
   projection measured beside it (chrono_literal_run). */
#include <chronoscope.h>
#include "tap.h"
#include "chains.h"

static int close_to(double a, double b, double tol) { return fabs(a - b) <= tol; }

static void test_delta(void)
{
    chrono_comparison c;
    chrono_delta d;
    memset(&c, 0, sizeof c);
    c.b.ns.median = 2.0;           /* b: 2 ns; a/b = 1.5 [1.4, 1.6] */
    c.ratio = 1.5; c.ci_low = 1.4; c.ci_high = 1.6; c.ci_level = 0.95;
    tap_ok(chrono_delta_from(&c, &d) == 0, "delta: ok");
    tap_ok(close_to(d.diff_ns, 1.0, 1e-12), "delta: (1.5 - 1) x 2 ns = 1 ns (got %g)", d.diff_ns);
    tap_ok(close_to(d.ci_low_ns, 0.8, 1e-12) && close_to(d.ci_high_ns, 1.2, 1e-12), "delta: CI [0.8, 1.2] (got [%g, %g])",
           d.ci_low_ns, d.ci_high_ns);
    tap_ok(d.below_noise == 0 && d.ci_level == (double)0.95, "delta: CI excludes 0: above the noise floor");
    c.ratio = 1.01; c.ci_low = 0.98; c.ci_high = 1.03;
    tap_ok(chrono_delta_from(&c, &d) == 0 && d.below_noise == 1 && close_to(d.diff_ns, 0.02, 1e-12) &&
           close_to(d.ci_low_ns, -0.04, 1e-12), "delta: CI [-0.04, 0.06] includes 0: below the noise floor");
    c.ratio = 0.5; c.ci_low = 0.45; c.ci_high = 0.55;
    tap_ok(chrono_delta_from(&c, &d) == 0 && close_to(d.diff_ns, -1.0, 1e-12) && !d.below_noise, "delta: a faster: -1 ns");
    c.b.ns.median = NAN;
    tap_ok(chrono_delta_from(&c, &d) == CHRONO_EINVAL, "delta: NaN median is EINVAL");
    tap_ok(chrono_delta_from(NULL, &d) == CHRONO_EINVAL && chrono_delta_from(&c, NULL) == CHRONO_EINVAL, "delta: NULL");
}

/* A Δ pooled over processes is resolved only when every process saw its sign
   and the interval excludes 0; one process's never says more than that. */
static void test_delta_processes(void)
{
    chrono_comparison c;
    chrono_delta d, x, y, z;
    int rc;
    memset(&c, 0, sizeof c);
    c.b.ns.median = 100.0;
    c.ratio = 1.10; c.ci_low = 1.05; c.ci_high = 1.20; c.ci_level = 0.95;
    c.a.processes = c.b.processes = 1; c.process_min_ratio = c.process_max_ratio = 1.10;
    rc = chrono_delta_from(&c, &d);
    tap_ok(rc == 0 && d.processes == 1 && d.resolved && !d.split && !strcmp(chrono_delta_verdict(&d, 0.95), "resolved in one process"),
           "delta: one process: '%s'", chrono_delta_verdict(&d, 0.95));
    c.a.processes = c.b.processes = 3; c.process_min_ratio = 1.06; c.process_max_ratio = 1.18;
    rc = chrono_delta_from(&c, &d);
    tap_ok(rc == 0 && d.processes == 3 && d.resolved && close_to(d.process_min_ns, 6.0, 1e-9) &&
           close_to(d.process_max_ns, 18.0, 1e-9) && !strcmp(chrono_delta_verdict(&d, 0.95), "resolved"),
           "delta: 3 processes, +6..+18 ns each: resolved (%s, %g..%g)", chrono_delta_verdict(&d, 0.95), d.process_min_ns, d.process_max_ns);
    c.ci_level = 0.75;            /* three processes: their lowest to highest is a 75% interval */
    rc = chrono_delta_from(&c, &d);
    tap_ok(rc == 0 && d.resolved && !strcmp(chrono_delta_verdict(&d, 0.95), "no verdict (its interval's level is below the confidence asked)") &&
           !strcmp(chrono_delta_verdict(&d, 0.75), "resolved"), "delta: a 75%% interval: no verdict at 95%%, resolved at 75%%");
    c.ci_level = 0.95;
    c.process_min_ratio = 0.97;   /* one process saw a - b < 0: the interval alone would have called it resolved */
    rc = chrono_delta_from(&c, &d);
    tap_ok(rc == 0 && d.split && !d.resolved && !d.below_noise &&
           !strcmp(chrono_delta_verdict(&d, 0.95), "not repeated (the processes disagree on the sign)"),
           "delta: a process with the other sign: not repeated, though the CI [%+g, %+g] excludes 0", d.ci_low_ns, d.ci_high_ns);
    c.ci_low = 0.99;
    rc = chrono_delta_from(&c, &d);
    tap_ok(rc == 0 && d.below_noise && !d.resolved && !strcmp(chrono_delta_verdict(&d, 0.95), "below noise (CI includes 0)"),
           "delta: CI includes 0: below noise first");
    /* between: x - y of two deltas against one baseline */
    memset(&x, 0, sizeof x); memset(&y, 0, sizeof y);
    x.diff_ns = 30; x.ci_low_ns = 25; x.ci_high_ns = 40; x.ci_level = 0.95; x.processes = 3;
    y.diff_ns = 5; y.ci_low_ns = 2; y.ci_high_ns = 9; y.ci_level = 0.95; y.processes = 3; y.split = 1;
    rc = chrono_delta_between(&x, &y, &z);
    tap_ok(rc == 0 && z.diff_ns == 25 && z.ci_low_ns == 16 && z.ci_high_ns == 38 && close_to(z.ci_level, 0.90, 1e-12) &&
           z.resolved && z.processes == 3, "delta between: 30 [25, 40] - 5 [2, 9] = 25 [16, 38] at >= 90%% (got %g [%g, %g] at %g)",
           z.diff_ns, z.ci_low_ns, z.ci_high_ns, z.ci_level);
    y.ci_high_ns = 30;
    rc = chrono_delta_between(&x, &y, &z);
    tap_ok(rc == 0 && z.below_noise && !z.resolved, "delta between: intervals that overlap: below noise");
    y.diff_ns = NAN;
    tap_ok(chrono_delta_between(&x, &y, &z) == CHRONO_EINVAL && chrono_delta_between(NULL, &y, &z) == CHRONO_EINVAL &&
           !strcmp(chrono_delta_verdict(NULL, 0.95), "n/a"), "delta between: NaN or NULL is EINVAL");
}

static void test_projection(void)
{
    chrono_result r;
    chrono_projection p;
    double half = 1.959963984540054 * 4.0 / sqrt(100.0);
    memset(&r, 0, sizeof r);
    r.ns.n = 100; r.ns.mean = 1000.0; r.ns.median = 960.0; r.ns.stddev = 4.0;
    tap_ok(chrono_project(&r, 16777216.0, 0.95, &p) == 0, "projection: ok");
    tap_ok(close_to(p.total_ns, 16777216.0 * 1000.0, 1e-3), "projection: 16 Mi x mean 1000 ns = %.0f ns", p.total_ns);
    tap_ok(close_to(p.median_total_ns, 16777216.0 * 960.0, 1e-3) && p.per_op_mean_ns == 1000.0 &&
           p.per_op_median_ns == 960.0, "projection: uses the mean, reports the median beside it");
    tap_ok(close_to(p.ci_low_ns, 16777216.0 * (1000.0 - half), 1.0) && close_to(p.ci_high_ns, 16777216.0 * (1000.0 + half), 1.0),
           "projection: CI = ops x (mean +- 1.96 sd/sqrt n) (got [%.0f, %.0f])", p.ci_low_ns, p.ci_high_ns);
    tap_ok(chrono_project(&r, 10.0, 0.99, &p) == 0 &&
           close_to(p.ci_high_ns - p.total_ns, 10.0 * 2.5758293035489 * 0.4, 1e-6), "projection: 99%% uses z = 2.576");
    r.ns.n = 1; r.ns.stddev = NAN;
    tap_ok(chrono_project(&r, 2.0, 0.95, &p) == 0 && p.ci_low_ns == 2000.0 && p.ci_high_ns == 2000.0,
           "projection: one sample: a zero-width CI, not NaN");
    tap_ok(chrono_project(&r, 0.0, 0.95, &p) == CHRONO_EINVAL && chrono_project(&r, 1.0, 1.0, &p) == CHRONO_EINVAL,
           "projection: ops 0 or confidence 1 is EINVAL");
    r.ns.n = 0;
    tap_ok(chrono_project(&r, 1.0, 0.95, &p) == CHRONO_EINVAL, "projection: no samples is EINVAL");
}

/* A projection uses every whole sample's mean where the run counted them
   (all_n), and processes pooled by --processes weigh theirs by count. */
static void test_all_samples(void)
{
    chrono_result r, a, b, pooled;
    const chrono_result *rs[2];
    chrono_projection p;
    double sd;
    memset(&r, 0, sizeof r);
    r.ns.n = 10; r.ns.mean = 100.0; r.ns.median = 100.0; r.ns.stddev = 1.0;
    r.all_n = 12; r.all_ns_mean = 150.0; r.all_ns_stddev = 80.0;
    tap_ok(chrono_project(&r, 1000.0, 0.95, &p) == 0 && p.per_op_mean_ns == 150.0 && close_to(p.total_ns, 150000.0, 1e-6) &&
           p.per_op_median_ns == 100.0 &&
           close_to(p.ci_high_ns - p.total_ns, 1000.0 * 1.959963984540054 * 80.0 / sqrt(12.0), 1e-6),
           "projection: the mean and sd of every whole sample (150 ns), not of the kept ones (100 ns)");
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&pooled, 0, sizeof pooled);
    a.all_n = 10; a.all_ns_mean = 100.0; a.all_ns_stddev = 2.0;
    b.all_n = 30; b.all_ns_mean = 120.0; b.all_ns_stddev = 4.0;
    rs[0] = &a; rs[1] = &b;
    (void)chrono__pool_counts(rs, 2, &pooled);
    /* sum of squares: 9 x 4 + 29 x 16 within, 10 x 15^2 + 30 x 5^2 between */
    sd = sqrt((9.0 * 4.0 + 29.0 * 16.0 + 10.0 * 225.0 + 30.0 * 25.0) / 39.0);
    tap_ok(pooled.all_n == 40 && close_to(pooled.all_ns_mean, 115.0, 1e-9) && close_to(pooled.all_ns_stddev, sd, 1e-9),
           "pooled processes: 40 samples, mean 115 ns (got %.3f), sd %.3f (got %.3f)", pooled.all_ns_mean, sd,
           pooled.all_ns_stddev);
}

#if TEST_HAVE_CHAINS
TEST_CHAIN(lit_add100, "add", 100)

/* One real batch against the projection measured beside it: 2e7 dependent
   adds (about 5 ms) must read within 20% of ops x the mean (best of 8), or,
   a batch no other program interrupted (no context switch), within 20% of
   ops x the median.  On a loaded shared host the mean of the samples beside
   it carries the other programs' share while one 5 ms batch may slip
   between them: 8 tries there read 0.19..0.39 x the mean, each with 0 or 1
   switch, and 5.4..9.4 ms for the 5.3 ms the median projects; the batch
   then still has to agree with the typical sample. */
static void test_literal_run(void)
{
    chrono_config cfg = chrono_config_default();
    chrono_session s;
    chrono_literal lit;
    int rc, t, ok = 0, quiet = 0;
    tap_load load;
    if (tap_emulated()) cfg.cycles = CHRONO_CYCLES_OFF;
    cfg.max_ms = 200;
    rc = chrono_session_open(&s, &cfg);
    tap_ok(rc == 0, "literal: session (%s)", rc == 0 ? "open" : chrono_strerror(rc));
    if (rc < 0) return;
    tap_ok(chrono_literal_run(&s, "x", NULL, NULL, 1, &lit) == CHRONO_EINVAL &&
           chrono_literal_run(&s, "x", lit_add100, NULL, 0, &lit) == CHRONO_EINVAL &&
           chrono_literal_run(NULL, "x", lit_add100, NULL, 1, &lit) == CHRONO_EINVAL, "literal: NULL or 0 ops is EINVAL");
    {
        char long_name[CHRONO_NAME_MAX];
        memset(long_name, 'n', sizeof long_name - 10);
        long_name[sizeof long_name - 10] = '\0';
        tap_ok(chrono_literal_run(&s, long_name, lit_add100, NULL, 1, &lit) == CHRONO_ERANGE,
               "literal: a name with no room for its runs' suffixes is ERANGE");
    }
    if (tap_emulated() || chrono_session_emulated(&s)) {
        tap_skip("literal: emulated: the batch and the runs are the emulator's");
        chrono_session_close(&s);
        return;
    }
    tap_load_start(&load);
    for (t = 0; t < 8 && !ok; t++) {
        double by_median;
        rc = chrono_literal_run(&s, "add100", lit_add100, NULL, 200000, &lit);
        by_median = lit.ns / lit.beside.median_total_ns;
        tap_diag("try %d: literal %.3f ms, projected %.3f ms [%.3f, %.3f], ratio %.4f, %ld switches, median x ops %.3f ms",
                 t + 1, lit.ns / 1e6, lit.beside.total_ns / 1e6, lit.beside.ci_low_ns / 1e6, lit.beside.ci_high_ns / 1e6,
                 lit.ratio, lit.switches, lit.beside.median_total_ns / 1e6);
        ok = rc == 0 && lit.ops == 200000.0 && lit.beside.ci_low_ns <= lit.beside.total_ns &&
             lit.beside.total_ns <= lit.beside.ci_high_ns && lit.beside.median_total_ns > 0 &&
             ((lit.ratio > 0.8 && lit.ratio < 1.25) || (lit.switches == 0 && by_median > 0.8 && by_median < 1.25));
        quiet = ok && !(lit.ratio > 0.8 && lit.ratio < 1.25);
    }
    /* One batch against runs beside it, not interleaved: what it needs is a
       quiet machine (at load 10 the ratio read 0.75..2.5, issue 31); a miss
       while other work took a quarter of a CPU or more is a skip naming it. */
    tap_ok_quiet(ok, &load, "literal: 2e7 adds in one batch read %.4f x their projection (0.8..1.25)%s", lit.ratio,
           quiet ? ", or, not interrupted, x ops times the median" : "");
    tap_ok(s.nresults >= 1 && !strcmp(s.results[s.nresults - 1].name, "add100/literal_beside"),
           "literal: its run is kept as add100/literal_beside");
    chrono_session_close(&s);
}

/* An emulated session: named, warned about, no cycles.  By hand first; then
   a real one, which under qemu-user (the cross legs run each test as
   qemu-ARCH PROG) or valgrind must say so, and natively must not. */
static void test_emulated_session(void)
{
    chrono_config cfg = chrono_config_default();
    chrono_session s;
    chrono_result r;
    char comm[64] = "";
    int rc, expect;
    FILE *f;
    memset(&s, 0, sizeof s);
    s.has_cycles = 1; s.core_ghz = 3.8;
    (void)snprintf(s.env.emulator, sizeof s.env.emulator, "QEMU TCG");
    chrono__session_emulation(&s);
    tap_ok((s.warnings & CHRONO_WARN_EMULATED) && !s.has_cycles && !(s.core_ghz == s.core_ghz) &&
           !strcmp(s.env.emulator, "QEMU TCG"), "emulated session: EMULATED, no cycles, core clock NAN, the emulator named");
    memset(&s, 0, sizeof s);
    s.has_cycles = 1; s.core_ghz = 0.31;
    chrono__session_emulation(&s);
    tap_ok((s.warnings & CHRONO_WARN_EMULATED) && !s.has_cycles && (chrono__under_valgrind() || strstr(s.env.emulator, "0.31 GHz")),
           "emulated session: a 0.31 GHz core clock is an emulator's (%s)", s.env.emulator);
    memset(&s, 0, sizeof s);
    s.has_cycles = 1; s.core_ghz = 3.8;
    chrono__session_emulation(&s);
    tap_ok(chrono__under_valgrind() || (!(s.warnings & CHRONO_WARN_EMULATED) && s.has_cycles && s.core_ghz == (double)3.8),
           "emulated session: 3.8 GHz and no emulator: cycles kept");
#if defined(__linux__)
    if ((f = fopen("/proc/self/comm", "r")) != NULL) { if (!fgets(comm, sizeof comm, f)) comm[0] = '\0'; fclose(f); }
    comm[strcspn(comm, "\n")] = '\0';   /* one TAP line: the name without its newline */
#else
    (void)f;
#endif
    expect = !strncmp(comm, "qemu-", 5) || chrono__under_valgrind();
    cfg.samples = 5; cfg.warmup_ms = 1; cfg.max_ms = 20;
    rc = chrono_session_open(&s, &cfg);
    if (rc == 0) rc = chrono_run(&s, "add100", lit_add100, NULL, &r);
    if (rc < 0) tap_ok(0, "emulated session: a real run (%s)", chrono_strerror(rc));
    else if (expect)
        tap_ok(chrono_session_emulated(&s) && (s.warnings & CHRONO_WARN_EMULATED) && s.env.emulator[0] && !r.has_cycles &&
               !(r.cycles.median == r.cycles.median), "emulated session: run under %s, it says %s, no cycles", comm, s.env.emulator);
    else if (tap_emulated())
        tap_skip("emulated session: an emulator this test cannot name (wine)");
    else
        tap_ok(!chrono_session_emulated(&s) && !(s.warnings & CHRONO_WARN_EMULATED) && !s.env.emulator[0],
               "emulated session: natively not emulated ('%s')", s.env.emulator);
    if (rc >= 0 || s.is_open) chrono_session_close(&s);
}
#endif

static const char *cell(const chrono_then_now *t, size_t row, size_t col)
{
    return t->table.cells[row * t->table.ncols + col];
}

static void test_then_now(void)
{
    chrono_then_now t;
    chrono_then_now_row rows[2];
    FILE *f;
    memset(rows, 0, sizeof rows);
    rows[0].then = "regparm (2)"; rows[0].then_total_s = 37.354; rows[0].then_ops = 16777216.0;
    rows[0].now = "sysv"; rows[0].now_ns = 1000.0; rows[0].now_ghz = 3.8; rows[0].note = "closest";
    rows[1].then = "readv forwarding"; rows[1].then_total_s = NAN; rows[1].then_us_per_op = 0.5;
    rows[1].now = "readv"; rows[1].now_ns = NAN; rows[1].now_ghz = 3.8;
    tap_ok(chrono_then_now_build(&t, "then_vs_now", "then vs now", rows, 2, 0.0) == 0, "then/now: build");
    tap_ok(t.table.ncols == 10 && t.table.nrows == 2 && !strcmp(t.table.cols[3], "then_cycles") &&
           !strcmp(t.table.key, "then_vs_now"), "then/now: 10 columns, 2 rows, key");
    tap_ok(!strcmp(cell(&t, 0, 0), "1") && !strcmp(cell(&t, 0, 1), "regparm (2): 37.354 s"), "then/now: row, then (got '%s')",
           cell(&t, 0, 1));
    tap_ok(!strcmp(cell(&t, 0, 2), "2.23 \xC2\xB5s") && !strcmp(t.table.cols[2], "then_per_op"),
           "then/now: 37.354 s / 16 Mi = 2.23 us (got '%s')", cell(&t, 0, 2));
    tap_ok(!strcmp(cell(&t, 0, 3), "n/a") && !strcmp(cell(&t, 0, 8), "n/a"), "then/now: no seed MHz: cycles n/a");
    tap_ok(!strcmp(cell(&t, 0, 5), "1.00 \xC2\xB5s") && !strcmp(t.table.cols[5], "now_per_op") && !strcmp(cell(&t, 0, 6), "3800.0"),
           "then/now: now 1.00 us, 3800 cycles est (got '%s')", cell(&t, 0, 5));
    tap_ok(!strcmp(cell(&t, 0, 7), "2.23"), "then/now: ratio_us 2.23 (got '%s')", cell(&t, 0, 7));
    tap_ok(!strcmp(cell(&t, 0, 9), "closest") && !strcmp(cell(&t, 1, 9), ""), "then/now: note, and none");
    tap_ok(!strcmp(cell(&t, 1, 1), "readv forwarding") && !strcmp(cell(&t, 1, 2), "500 ns") &&
           !strcmp(cell(&t, 1, 5), "n/a") && !strcmp(cell(&t, 1, 7), "n/a"), "then/now: per-op then, unknown now: n/a");
    f = tmpfile();
    tap_ok(f && chrono_report_table(f, CHRONO_FORMAT_JSON, &t.table) == 0, "then/now: the table writes as JSON");
    if (f) fclose(f);
    chrono_then_now_free(&t);
    tap_ok(t.table.cells == NULL && t.table.nrows == 0, "then/now: free clears");
    tap_ok(chrono_then_now_build(&t, "k", NULL, rows, 1, 450.0) == 0, "then/now: build with 450 MHz");
    tap_ok(!strcmp(cell(&t, 0, 3), "1002"), "then/now: 2.2265 us x 450 MHz = 1002 cycles (got '%s')", cell(&t, 0, 3));
    tap_ok(!strcmp(cell(&t, 0, 8), "0.26"), "then/now: ratio_cycles 1002/3800 = 0.26 (got '%s')", cell(&t, 0, 8));
    chrono_then_now_free(&t);
    tap_ok(chrono_then_now_build(&t, NULL, NULL, rows, 1, 0) == CHRONO_EINVAL &&
           chrono_then_now_build(&t, "k", NULL, NULL, 1, 0) == CHRONO_EINVAL, "then/now: NULL key or rows is EINVAL");
    /* modeswitch's compile rows: seconds, milliseconds and microseconds as a person reads them */
    rows[0].then = "compile"; rows[0].then_total_s = NAN; rows[0].then_us_per_op = 21.03e6; rows[0].now_ns = 2822675812.05;
    rows[1].then = "switch"; rows[1].then_us_per_op = 40; rows[1].now_ns = 25.27e6;
    if (chrono_then_now_build(&t, "k", NULL, rows, 2, 60.0) != 0) { tap_ok(0, "then/now: the compile rows build"); return; }
    tap_ok(!strcmp(cell(&t, 0, 2), "21.0 s") &&
           !strcmp(cell(&t, 0, 5), "2.82 s") && !strcmp(cell(&t, 1, 2), "40.0 \xC2\xB5s") && !strcmp(cell(&t, 1, 5), "25.3 ms") &&
           !strcmp(cell(&t, 0, 7), "7.45"), "then/now: 21.0 s, 2.82 s, 40.0 us, 25.3 ms (got %s, %s, %s, %s; ratio %s)",
           cell(&t, 0, 2), cell(&t, 0, 5), cell(&t, 1, 2), cell(&t, 1, 5), cell(&t, 0, 7));
    chrono_then_now_free(&t);
    chrono_then_now_free(NULL);
}

#if CHRONO_OS_LINUX
#  include <signal.h>
#  include <stdlib.h>
#  include <sys/stat.h>
#  include <sys/wait.h>
#  include <unistd.h>
static void put(const char *dir, const char *name, const char *text)
{
    char path[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if ((f = fopen(path, "w")) != NULL) { fputs(text, f); fclose(f); }
}

/* cpu.h reads PTI and the mitigations into chrono_env from a vulnerabilities
   directory: "Not affected" left out, values cut at 40 bytes, no meltdown
   file: unknown. */
static void test_env_mitigations(void)
{
    static const char *const names[] = { "meltdown", "spectre_v2", "mds", "l1tf", "retbleed" };
    char dir[] = "/tmp/chrono-vulns-XXXXXX", path[512];
    chrono_env e;
    size_t i;
    memset(&e, 0, sizeof e);
    if (!mkdtemp(dir)) { tap_ok(0, "mkdtemp"); return; }
    chrono__env_mitigations(&e, dir);
    tap_ok(e.pti == -1 && e.mitigations[0] == '\0', "mitigations: no meltdown file: PTI unknown, none listed");
    put(dir, "meltdown", "Mitigation: PTI\n");
    put(dir, "spectre_v2", "Mitigation: Retpolines; STIBP: disabled\n");
    put(dir, "mds", "Not affected\n");
    put(dir, "l1tf", "Mitigation: PTE Inversion; VMX: conditional cache flushes, SMT vulnerable\n");
    chrono__env_mitigations(&e, dir);
    tap_ok(e.pti == 1 && !strcmp(e.mitigations, " spectre_v2=Mitigation: Retpolines; STIBP: disabled;"
                                               " l1tf=Mitigation: PTE Inversion; VMX: conditio;"),
           "mitigations: PTI on, mds left out, l1tf cut at 40 bytes (%s)", e.mitigations);
    put(dir, "meltdown", "Not affected\n");
    put(dir, "retbleed", "Vulnerable\n");
    put(dir, "spectre_v2", "Mitigation: Retpolines; STIBP: disabled; RSB filling; PBRSB-eIBRS: Not affected\n");
    chrono__env_mitigations(&e, dir);
    tap_ok(e.pti == 0 && strstr(e.mitigations, " retbleed=Vulnerable;") != NULL, "mitigations: meltdown not affected: PTI off");
    tap_ok(strstr(e.mitigations, " spectre_v2=Mitigation: Retpolines; STIBP: disabled; ") != NULL && !strstr(e.mitigations, ";;"),
           "mitigations: a value cut at 40 bytes just after a ';' ends in one ';' (%s)", e.mitigations);
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        (void)remove(path);
    }
    (void)rmdir(dir);
}

/* Temp files: tracked, removed newest first (files before their directory),
   refused when full or too long; on a signal removed before the program dies
   of it, the child it names stopped first. */
static int exists(const char *path) { return access(path, F_OK) == 0; }
static void test_tmp(void)
{
    static chrono_tmp t;
    char dir[] = "/tmp/chrono-tmp-XXXXXX", sub[600], file[700], longname[CHRONO_TMP_PATH];
    const char *d, *f;
    int i, full = 1, st = 0;
    pid_t pid;
    if (!mkdtemp(dir)) { tap_ok(0, "mkdtemp"); return; }
    d = chrono_tmp_track(&t, dir, "sub/");
    snprintf(sub, sizeof sub, "%s/sub", dir);
    f = chrono_tmp_track(&t, sub, "a.tmp");
    snprintf(file, sizeof file, "%s/a.tmp", sub);
    tap_ok(d && f && !strcmp(f, file) && t.n == 2, "tmp: two paths tracked (%s)", f ? f : "NULL");
    (void)mkdir(sub, 0700);
    put(sub, "a.tmp", "x");
    chrono_tmp_remove(&t);
    tap_ok(!exists(file) && !exists(sub) && t.n == 0, "tmp: the file, then its directory, removed");
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    tap_ok(chrono_tmp_track(&t, dir, longname) == NULL && chrono_tmp_track(NULL, dir, "a") == NULL && t.n == 0,
           "tmp: a path too long, or no chrono_tmp: NULL");
    for (i = 0; i < CHRONO_TMP_MAX; i++) full &= chrono_tmp_track(&t, dir, "f") != NULL;
    tap_ok(full && chrono_tmp_track(&t, dir, "one more") == NULL, "tmp: %d tracked, the next refused", CHRONO_TMP_MAX);
    t.n = 0;
    fflush(NULL);
    pid = fork();
    if (pid == 0) {   /* a program with a temp file and a child, terminated */
        static chrono_tmp ct;
        pid_t sleeper = fork();
        if (sleeper == 0) { pause(); _exit(0); }
        ct.child = sleeper;
        put(dir, "b.tmp", "x");
        (void)chrono_tmp_track(&ct, dir, "b.tmp");
        chrono_tmp_signal(&ct, SIGTERM);
        _exit(3);     /* not reached: SIGTERM's default action ends it */
    }
    snprintf(file, sizeof file, "%s/b.tmp", dir);
    if (pid < 0 || waitpid(pid, &st, 0) != pid) st = -1;
    tap_ok(st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM && !exists(file),
           "tmp: on SIGTERM the file removed, then the program died of SIGTERM (status 0x%x)", (unsigned)st);
    tap_ok(chrono_tmp_catch(NULL) == CHRONO_EINVAL, "tmp: catch(NULL) is CHRONO_EINVAL");
    (void)rmdir(dir);
}
#endif

/* What dominates the figures is said once, in the report's header (the
   experiments print no second environment text): the VM, PTI and the
   mitigations, the TSC and the core clock. */
static void test_env_header(void)
{
    static char text[8192];
    chrono_session s;
    FILE *f = tmpfile();
    size_t n;
    memset(&s, 0, sizeof s);
    s.is_open = 1;
    s.env.in_vm = 1;
    (void)snprintf(s.env.hypervisor, sizeof s.env.hypervisor, "KVMKVMKVM");
    s.env.pti = 1;
    (void)snprintf(s.env.mitigations, sizeof s.env.mitigations, " spectre_v2=Mitigation: Retpolines;");
    s.clock.hz = 2.6e9;
    s.clock.name = "tsc";
    s.core_ghz = 3.8;
    s.has_cycles = 1;
    if (!f) { tap_ok(0, "tmpfile"); return; }
    tap_ok(chrono_report_environment(&s, f, "") == 0, "environment: written");
    rewind(f);
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    tap_ok(strstr(text, "\nmachine  ") && strstr(text, "virtual machine KVMKVMKVM") &&
           strstr(text, "\nsecurity PTI on: every system call switches page tables; mitigations: spectre_v2=Mitigation: Retpolines;\n") &&
           strstr(text, "tsc at 2.60") && strstr(text, "3.800 GHz measured by reference chains"),
           "environment: VM, PTI, mitigations, TSC and core clock, each once");
    rewind(f);
    s.env.pti = -1;
    s.env.mitigations[0] = '\0';
    tap_ok(chrono_report_environment(&s, f, "") == 0, "environment: written again");
    rewind(f);
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    tap_ok(strstr(text, "\nsecurity PTI and mitigations unknown") != NULL, "environment: PTI unknown is said");
    fclose(f);
}

int main(void)
{
    test_delta();
    test_delta_processes();
    test_projection();
    test_all_samples();
#if TEST_HAVE_CHAINS
    test_literal_run();
    test_emulated_session();
#endif
    test_then_now();
#if CHRONO_OS_LINUX
    test_env_mitigations();
    test_tmp();
#endif
    test_env_header();
    return tap_done();
}

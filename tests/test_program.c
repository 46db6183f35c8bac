/* test_program — program.h as a user meets it: a table of entries and the
   common flags.  --list names and runs nothing, --filter runs only the
   matching entries, an unknown flag exits 2, --out writes the file while the
   console keeps the text report, an unwritable --out exits 2 before anything
   runs, a failing entry exits 1 naming it (a malformed one, and a
   well-formed one that fails when run), and a blocking entry keeps its
   samples.  Each program's stdout and stderr go to files that are read back. */
#include <chronoscope.h>
#include "tap.h"
#if defined(__linux__) || defined(__unix__) || defined(__APPLE__)
#  include <unistd.h>
#  include <time.h>
#  define TP_POSIX 1
#else
#  define TP_POSIX 0
#endif

static char out_text[65536], err_text[65536];

CHRONO__UNUSED static void adds(void *ctx, uint64_t iters)
{
    unsigned *calls = (unsigned *)ctx;
    uint64_t i, x = 1;
    ++*calls;
    for (i = 0; i < iters * 8; i++) { x = x * 3 + 1; chrono_keep(x); }
}

#if TP_POSIX
static void nap(void *ctx, uint64_t iters)
{
    struct timespec ts = { 0, 50000 };
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) nanosleep(&ts, NULL);
}
#endif

CHRONO__UNUSED static void flat_sweep(void *ctx, uint64_t param, uint64_t iters)
{
    uint64_t i, x = param;
    (void)ctx;
    for (i = 0; i < iters; i++) { x = x * 3 + 1; chrono_keep(x); }
}

CHRONO__UNUSED static void slurp(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(buf, 1, n - 1, f) : 0;
    buf[got] = '\0';
    if (f) fclose(f);
}

/* chrono_main on argv with stdout and stderr captured; the exit status. */
CHRONO__UNUSED static int run_main(const char *const *args, const chrono_entry *e, size_t n)
{
    char *argv[16];
    int argc = 0, rc;
    FILE *o, *r;
    argv[argc++] = (char *)"test_program";
    while (args && args[argc - 1] && argc < 15) { argv[argc] = (char *)args[argc - 1]; argc++; }
    argv[argc] = NULL;
    fflush(stdout);
    fflush(stderr);
#if TP_POSIX
    {
        int so = dup(1), se = dup(2);
        o = freopen("test_program.stdout", "w", stdout);
        r = freopen("test_program.stderr", "w", stderr);
        rc = chrono_main(argc, argv, e, n);
        fflush(stdout);
        fflush(stderr);
        dup2(so, 1); dup2(se, 2);
        close(so); close(se);
        (void)o; (void)r;
    }
#else
    (void)o; (void)r;
    rc = chrono_main(argc, argv, e, n);
#endif
    slurp("test_program.stdout", out_text, sizeof out_text);
    slurp("test_program.stderr", err_text, sizeof err_text);
    return rc;
}

/* One result of a fake child: `name`, samples base * (1 + 0.002 (i - 10)),
   i < 21, with ticks at 2 a ns and cycles at 3 a ns. */
static void fake_result(chrono_result *r, const char *name, double base)
{
    double *v = (double *)malloc(21 * sizeof *v);   /* freed by chrono_processes_free */
    size_t i;
    memset(r, 0, sizeof *r);
    (void)snprintf(r->name, sizeof r->name, "%s", name);
    for (i = 0; v && i < 21; i++) v[i] = base * (1 + 0.002 * ((double)i - 10));
    if (!v || chrono_stats_compute(v, 21, 0.95, NULL, &r->ns) < 0) return;
    r->ticks = r->ns; r->cycles = r->ns;
    r->ticks.median *= 2; r->ticks.ci_low *= 2; r->ticks.ci_high *= 2; r->ticks.min *= 2; r->ticks.max *= 2;
    r->cycles.median *= 3; r->cycles.ci_low *= 3; r->cycles.ci_high *= 3; r->cycles.min *= 3; r->cycles.max *= 3;
    r->has_cycles = 1;
    r->samples = r->samples_taken = 21;
    r->iters_per_sample = 1;
    r->sample_ns = v;
    r->nsample_ns = 21;
}

/* --processes' pooling (chrono_processes_pool_entry) on three fake children whose
   medians are 100, 110 and 120 ns, each with a narrow spread of its own: the
   pooled row's median is 110, its interval covers the three medians, lies
   within the pooled [min, max] and says its level (0.75); min, MAD and
   samples are over all 63; ticks and cycles follow; a comparison pools the
   ratios and the cycles' ratios as medians over the processes. */
static void test_pooled(void)
{
    static unsigned calls;
    const char *argv[] = { "test_program", "--quick", NULL };
    double all[63], ratio[3] = { 0.90, 0.91, 0.95 }, cyc[3] = { 0.80, 0.85, 0.95 };
    chrono_process outs[3];
    chrono_processes ps;
    chrono_program p;
    chrono_entry e[2];
    chrono_stats c;
    const chrono_result *r;
    const chrono_comparison *cmp;
    FILE *sink = tmpfile();
    int k, rc, ok = 1;
    size_t i;
    if (!sink || chrono_program_begin(&p, 2, (char **)argv, NULL, 0) != 1) {
        tap_skip("no session (pooling check)");
        if (sink) fclose(sink);
        return;
    }
    (void)chrono_report_begin(&p.chrono__console, &p.session, sink, CHRONO_FORMAT_TEXT, NULL);
    memset(outs, 0, sizeof outs);
    for (k = 0; k < 3; k++) {
        chrono_comparison *c;
        outs[k].results = (chrono_result *)malloc(sizeof *outs[k].results);
        outs[k].comparisons = c = (chrono_comparison *)malloc(sizeof *outs[k].comparisons);
        if (!outs[k].results || !c) { ok = 0; break; }
        outs[k].nresults = outs[k].ncomparisons = 1;
        fake_result(&outs[k].results[0], "alpha", 100 + 10 * k);
        memset(c, 0, sizeof *c);
        fake_result(&c->a, "gamma", 90 + 10 * k);
        fake_result(&c->b, "delta", 100 + 10 * k);
        c->ratio = ratio[k];
        c->ci_low = ratio[k] - 0.001; c->ci_high = ratio[k] + 0.001; c->ci_level = 0.95;
        c->cycles_ratio = cyc[k];
        c->rounds = 21;
        for (i = 0; i < 21; i++) all[21 * k + i] = outs[k].results[0].sample_ns[i];
        outs[k].complete = 1;
    }
    ps.procs = (chrono_process *)malloc(sizeof outs);
    ps.n = 3; ps.failed = 0;
    if (ps.procs) memcpy(ps.procs, outs, sizeof outs); else ok = 0;
    e[0] = chrono_bench("alpha", adds, &calls);
    e[1] = chrono_versus("gamma", adds, &calls, "delta", adds, &calls);
    rc = ok ? chrono_processes_pool_entry(&ps, &p.session, &e[0], NULL) : CHRONO_ENOMEM;
    r = chrono_program_find(&p, "alpha");
    (void)chrono_stats_compute(all, 63, 0.95, NULL, &c);
    tap_ok(rc == 0 && r && r->processes == 3 && r->samples == 63 && r->nsample_ns == 63 && r->ns.n == 63,
           "pooled run: 3 processes, 63 samples, all kept (rc %d)", rc);
    if (!r) r = &outs[0].results[0];
    tap_ok(r->ns.median == 110 && r->ns.ci_low <= 100 && r->ns.ci_high >= 120 && r->ns.ci_low >= r->ns.min &&
           r->ns.ci_high <= r->ns.max, "pooled run: median of medians 110, interval [%.2f, %.2f] covers 100..120 within [%.2f, %.2f]",
           r->ns.ci_low, r->ns.ci_high, r->ns.min, r->ns.max);
    tap_ok(r->ns.ci_level == 0.75 && (r->warnings & CHRONO_WARN_LOW_LEVEL),
           "pooled run: the interval's level over three processes, 0.75 (%.4f), marked LOW_LEVEL", r->ns.ci_level);
    tap_ok(r->ns.min == c.min && r->ns.max == c.max && r->ns.mad == c.mad && r->ns.q1 == c.q1 && r->ns.q3 == c.q3 && r->ns.mad > 5,
           "pooled run: min, max, MAD (%.3f), quartiles over all 63 samples", r->ns.mad);
    tap_ok(fabs(r->ticks.median - 220) < 1e-9 && fabs(r->ticks.mad - 2 * c.mad) < 1e-9 && fabs(r->cycles.median - 330) < 1e-9 &&
           r->cycles.ci_low <= 300 && r->cycles.ci_high >= 360 && fabs(r->cycles.mad - 3 * c.mad) < 1e-9,
           "pooled run: ticks the ns figures at 2 a ns, cycles pooled over the processes (median %.1f, MAD %.3f)",
           r->cycles.median, r->cycles.mad);
    rc = ok ? chrono_processes_pool_entry(&ps, &p.session, &e[1], NULL) : CHRONO_ENOMEM;
    cmp = chrono_program_compared(&p, "gamma");
    /* (double): i386's x87 compares a literal in long double (FLT_EVAL_METHOD 2) */
    tap_ok(rc == 0 && cmp && cmp->ratio == (double)0.91 && cmp->ci_low <= (double)0.90 && cmp->ci_high >= (double)0.95 &&
           cmp->ci_level == 0.75 && cmp->cycles_ratio == (double)0.85 && cmp->a.processes == 3 && cmp->b.ns.median == 110 &&
           (cmp->warnings & CHRONO_WARN_LOW_LEVEL),
           "pooled comparison: ratio 0.91 [%.3f, %.3f] at 0.75, cycles ratio the median 0.85 (%.3f), both sides pooled (rc %d)",
           cmp ? cmp->ci_low : NAN, cmp ? cmp->ci_high : NAN, cmp ? cmp->cycles_ratio : NAN, rc);
    tap_ok(cmp && cmp->process_min_ratio == (double)0.90 && cmp->process_max_ratio == (double)0.95,
           "pooled comparison: the lowest and highest process's ratio, 0.90 and 0.95 (%.3f, %.3f)",
           cmp ? cmp->process_min_ratio : NAN, cmp ? cmp->process_max_ratio : NAN);
    chrono_processes_free(&ps);
    (void)chrono_program_end(&p);
    fclose(sink);
}

/* The "processes" table (table.h's builder): a row for every process, as
   many as ran (70 here: no cap), each cell from that process; the title
   says when some failed. */
static void test_processes_table(void)
{
    chrono_process procs[70];
    chrono_processes ps;
    chrono_table_builder tb;
    char seed[17];
    uint64_t sd = chrono_processes_seed(42, 69);
    const unsigned char *b = (const unsigned char *)&sd;
    const char *const *row;
    int k, rc;
    memset(procs, 0, sizeof procs);
    for (k = 0; k < 70; k++) { procs[k].pid = 1000 + k; procs[k].complete = 1; procs[k].nresults = (size_t)k % 3; }
    (void)snprintf(procs[69].why, sizeof procs[69].why, "killed by signal 9 (SIGKILL)");
    ps.procs = procs; ps.n = 70; ps.failed = 1;
    for (k = 0; k < 8; k++) (void)snprintf(seed + 2 * k, 3, "%02x", b[k]);
    rc = chrono_processes_table(&ps, 42, &tb);
    row = tb.table.cells + 5 * 69;
    tap_ok(rc == 0 && tb.table.nrows == 70 && tb.table.ncols == 5 && !strcmp(tb.table.key, "processes") &&
           !strncmp(tb.table.title, "processes (some failed", 22), "processes table: 70 rows of 5, its title says some failed (rc %d)", rc);
    tap_ok(rc == 0 && !strcmp(row[0], "70") && !strcmp(row[1], "1069") && !strcmp(row[2], "0") &&
           !strcmp(row[3], "killed by signal 9 (SIGKILL)") && !strcmp(row[4], seed) && !strcmp(tb.table.cells[5 * 68 + 2], "2") &&
           !strcmp(tb.table.cells[5 * 68 + 3], "ok"), "processes table: the last row 70, 1069, 0, its status, seed %s (%s)",
           seed, rc == 0 ? row[4] : "-");
    chrono_table_free(&tb);
}

/* A child of chrono_program_run_processes runs the program's calls again:
   only the one that started it runs, here (the other calls are skipped);
   an entry's own warm-up (chrono_with_warmup) replaces the program's. */
static void test_child_calls(void)
{
    static unsigned calls;
    const char *argv[] = { "test_program", "--quick", NULL };
    chrono_program p;
    chrono_entry here[2], pooled[1];
    const chrono_result *w, *plain;
    FILE *sink = tmpfile();
    int rc0, rc1;
    if (!sink || chrono_program_begin(&p, 2, (char **)argv, NULL, 0) != 1) {
        tap_skip("no session (child calls)");
        tap_skip("no session (chrono_with_warmup)");
        if (sink) fclose(sink);
        return;
    }
    (void)chrono_report_begin(&p.chrono__console, &p.session, sink, CHRONO_FORMAT_TEXT, NULL);
    tap_ok(chrono_program_child(&p) == 0 && chrono_program_child(NULL) == 0, "not a child: chrono_program_child 0");
    p.chrono__child = 2;          /* as "--chrono-child=1:FD:1" makes it: child 2, started by call 1 */
    p.chrono__child_call = 1;
    here[0] = chrono_bench("call0", adds, &calls);
    here[1] = chrono_with_warmup(chrono_bench("warm40", adds, &calls), 40);
    pooled[0] = chrono_bench("call1", adds, &calls);
    rc0 = chrono_program_run(&p, here, 2);                 /* call 0: skipped */
    rc1 = chrono_program_run_processes(&p, pooled, 1, 3);  /* call 1: started this child, runs here */
    tap_ok(rc0 == 0 && rc1 == 0 && chrono_program_child(&p) == 2 && !chrono_program_find(&p, "call0") &&
           chrono_program_find(&p, "call1") != NULL, "a child runs the call that started it (1), here, and skips call 0");
    p.chrono__child_call = 0;     /* as if call 0 had started it: call 2 is skipped now */
    p.chrono__call = 0;
    rc0 = chrono_program_run(&p, here, 2);
    rc1 = chrono_program_run_processes(&p, pooled, 1, 3);
    w = chrono_program_find(&p, "warm40");
    plain = chrono_program_find(&p, "call0");
    tap_ok(rc0 == 0 && rc1 == 0 && w && plain && w->warmup_ms >= 39.0 && plain->warmup_ms < w->warmup_ms,
           "chrono_with_warmup: 40 ms of warm-up for its entry (%.1f ms), the program's for the others (%.1f ms)",
           w ? w->warmup_ms : NAN, plain ? plain->warmup_ms : NAN);
    p.chrono__child = 0;          /* no parent to hand results to */
    (void)chrono_program_end(&p);
    fclose(sink);
}

int main(void)
{
    static unsigned ca, cb, cg;
    chrono_entry t[3];
    int rc;
    test_pooled();
    test_processes_table();
    test_child_calls();
#if !TP_POSIX
    /* the checks read what chrono_main printed, captured with dup/dup2 */
    (void)ca; (void)cb; (void)cg; (void)t; (void)rc;
    tap_skip("program.h's console and exit checks capture stdout and stderr with dup2: POSIX only");
    return tap_done();
#else
    t[0] = chrono_with_bytes(chrono_bench("alpha", adds, &ca), 64);
    t[1] = chrono_bench("beta", adds, &cb);
    t[2] = chrono_versus("gamma", adds, &cg, "delta", adds, &cg);

    {
        const char *a[] = { "--list", NULL };
        rc = run_main(a, t, 3);
        tap_ok(rc == 0 && ca == 0 && cb == 0, "--list: exit 0 and no body ran (rc %d, %u + %u calls)", rc, ca, cb);
        tap_ok(strstr(out_text, "alpha") && strstr(out_text, "beta") && strstr(out_text, "gamma vs delta"),
               "--list: every name printed, the comparison as 'a vs b'");
        tap_ok(cg == 0, "--list: the comparison did not run either");
    }
    {
        const char *a[] = { "--bogus-flag", NULL };
        rc = run_main(a, t, 3);
        tap_ok(rc == 2 && ca == 0 && strstr(err_text, "--bogus-flag"), "unknown flag: exit 2 naming it, nothing ran (rc %d)", rc);
    }
    {
        const char *a[] = { "--quick", "--out=/nonexistent-dir/x/f.json", NULL };
        rc = run_main(a, t, 3);
        tap_ok(rc == 2 && ca == 0 && cb == 0 && strstr(err_text, "/nonexistent-dir/x/f.json"),
               "unwritable --out: exit 2 naming the path before any body ran (rc %d)", rc);
    }
    {
        /* well formed (chrono_entry_ok: a name, a body, a parameter list) but
           failing when run: a sweep whose parameters are all one value has no
           line to fit (CHRONO_EINVAL from chrono_sweep, before any timing) */
        static const uint64_t flat[] = { 8, 8, 8 };
        chrono_entry e = chrono_sweep_entry("flat", flat_sweep, NULL, flat, 3);
        const char *a[] = { "--quick", NULL };
        rc = chrono_entry_ok(&e) ? run_main(a, &e, 1) : -1;
        tap_ok(rc == 1 && strstr(err_text, "flat failed"),
               "a well-formed entry that fails at run time: exit 1, named on stderr (rc %d, %.80s)   "
               "[a failed entry leaves exit 0]", rc, err_text);
    }
    if (tap_emulated()) {
        tap_skip("the runs below time real bodies: emulated here");
        return tap_done();
    }
    {
        const char *a[] = { "--quick", "--filter=beta", NULL };
        rc = run_main(a, t, 3);
        tap_ok(rc == 0 && ca == 0 && cg == 0 && cb > 0, "--filter=beta: only beta ran (rc %d, alpha %u, beta %u, gamma/delta %u)",
               rc, ca, cb, cg);
        tap_ok(strstr(out_text, "beta") != NULL && strstr(out_text, "alpha ") == NULL, "--filter=beta: no 'alpha' row");
    }
    {
        chrono_entry one = chrono_with_items(chrono_with_bytes(chrono_bench("alpha", adds, &ca), 64), 3);
        const char *a[] = { "--quick", "--out=test_program.json", NULL };
        char json[65536];
        const char *bps, *ips;
        double bytes_s, items_s;
        rc = run_main(a, &one, 1);
        slurp("test_program.json", json, sizeof json);
        tap_ok(rc == 0 && strstr(out_text, "alpha") && json[0] == '{' && strstr(json, "\"benchmarks\"") &&
               strstr(json, "\"bytes_per_second\""), "--out=f.json: the JSON in the file (with bytes_per_second), the text on stdout (rc %d)", rc);
        tap_ok(strstr(out_text, "\"benchmarks\"") == NULL, "--out=f.json: no JSON on stdout");
        /* one run's two rates: 64 bytes and 3 items an iteration, over the same time */
        bps = strstr(json, "\"bytes_per_second\": ");
        ips = strstr(json, "\"items_per_second\": ");
        bytes_s = bps ? strtod(bps + 20, NULL) : NAN;
        items_s = ips ? strtod(ips + 20, NULL) : NAN;
        tap_ok(bytes_s > 0 && fabs(items_s / bytes_s - 3.0 / 64) < 1e-4 * (3.0 / 64),
               "chrono_with_items 3 and _bytes 64: items_per_second / bytes_per_second = 3/64 (%g / %g)   "
               "[items per iteration from the bytes]", items_s, bytes_s);
        remove("test_program.json");
    }
#if TP_POSIX
    {
        chrono_entry e[2];
        const char *a[] = { "--quick", NULL };
        e[0] = chrono_bench("broken", NULL, NULL);   /* no body: the entry fails */
        e[1] = chrono_bench("alpha", adds, &ca);
        ca = 0;
        rc = run_main(a, e, 2);
        tap_ok(rc == 1 && strstr(err_text, "broken") && ca > 0,
               "a failing entry (no body): exit 1, named on stderr, the others still run (rc %d)", rc);
        e[0] = chrono_with_budget(chrono_bench("sleeper", nap, NULL), 100);
        rc = run_main(a, e, 1);
        tap_ok(rc == 0 && strstr(out_text, "sleeper !"),
               "a body that blocks, not marked so: every sample switched out, kept as INTERRUPTED and marked (rc %d)", rc);
        e[0] = chrono_with_blocking(e[0]);
        rc = run_main(a, e, 1);
        tap_ok(rc == 0 && strstr(out_text, "sleeper") && !strstr(out_text, "sleeper !"),
               "the same entry with chrono_with_blocking: its samples are kept, unmarked (rc %d)", rc);
    }
#endif
    remove("test_program.stdout");
    remove("test_program.stderr");
    return tap_done();
#endif
}

/* lopsided — comparisons and claims on pairs 1x to 10^5x apart, and a 5 ms
   body against a 5 us one: wall time against the budget, the verdict, and
   the figure against the truth.

   The bodies are chains of dependent adds (16 a unit: one core cycle each,
   whatever the clock does), so the truth is known exactly: side A runs k
   units an iteration, side B one, and A/B is k in time.  For each pair:
     run A, run B   chrono_run of each side: its estimated core cycles an
                    iteration over 16, against its units (k, 1)
     compare        chrono_compare(A, B): the interleaved ratio
     faster k/2     CHRONO_CHECK_FASTER's claim "A takes >= k/2 x B": PASS
     faster 2k      "A takes >= 2k x B": FAIL
     below 2x       "A's median <= twice what run A read": PASS
     below /2       "... <= half of it": FAIL
     saved          A against run A saved as JSON, 1.5x allowed: PASS
   and once: scaling, the A bodies over k, claimed O(n): PASS (a sweep: its
   budget is its points', --max-ms each).
   Every row's wall time is held to its budget (runs and comparisons:
   --max-ms, default 2000; checks: --budget-ms, default 500); "x budget"
   above 1.25 breaks the library's promise.  An error above 2% is printed
   with the row's warnings (a figure the library stands behind has none).

   Usage: lopsided [common flags] [--budget-ms=X] [--strict]
   meson: benchmark('lopsided', exe)   (meson test -C build --benchmark lopsided)
   Exit: 0 when every verdict was the expected one and every budget held,
   1 otherwise, 2 on a bad command line. */
#include <chronoscope.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNIT_ADDS 16
typedef struct { uint64_t units; } chain;   /* units of 16 dependent adds an iteration */

/* x after units x 16 dependent adds of 1: the chain goes on from x, so
   that successive iterations cannot overlap (one cycle an add, in series). */
static uintptr_t add_chain(uintptr_t x, uint64_t units)
{
    uintptr_t one = 1, n = (uintptr_t)units;
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    if (n) __asm__ __volatile__("1:\n\t.rept 16\n\tadd %[one], %[x]\n\t.endr\n\tsub $1, %[n]\n\tjnz 1b"
                                : [x] "+r"(x), [n] "+r"(n) : [one] "r"(one) : "cc");
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
    if (n) __asm__ __volatile__("1:\n\t.rept 16\n\tadd %[x], %[x], %[one]\n\t.endr\n\tsubs %[n], %[n], #1\n\tb.ne 1b"
                                : [x] "+r"(x), [n] "+r"(n) : [one] "r"(one) : "cc");
#else
    uint64_t i;
    for (i = 0; i < n * UNIT_ADDS; i++) { x += one; chrono_keep(x); }   /* not one cycle an add: truth approximate */
#endif
    return x;
}

static void chain_body(void *ctx, uint64_t iters)
{
    const chain *c = (const chain *)ctx;
    uintptr_t x = 1;
    uint64_t i;
    for (i = 0; i < iters; i++) x = add_chain(x, c->units);
    chrono_keep(x);
}

static void chain_sweep(void *ctx, uint64_t param, uint64_t iters)
{
    uintptr_t x = 1;
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) x = add_chain(x, param);
    chrono_keep(x);
}

static chrono_tmp lop_tmp;
static void lop_on_signal(int sig) { chrono_tmp_signal(&lop_tmp, sig); }

typedef struct {
    chrono_session *s;
    chrono_checker *ck;
    double max_ms, budget_ms;
    int bad;                  /* rows that broke a promise */
} lop;

static double now_ms(const chrono_session *s) { return chrono_clock_ns(&s->clock, chrono_clock_read(&s->clock)) / 1e6; }

/* One row of the table: what, its budget and wall time, the verdict and the figure against the truth. */
static void row(lop *L, const char *pair, const char *what, double budget, double wall, const char *verdict,
                int verdict_ok, double figure, double truth, unsigned warnings)
{
    double over = wall / budget, err = truth > 0 ? 100.0 * (figure / truth - 1.0) : NAN;
    int budget_ok = !(over > 1.25), fig_ok = !(fabs(err) > 2.0) || warnings != 0;
    printf("%-12s %-12s %7.0f %8.0f %6.2f%s  %-14s %12.5g %9.5g %+7.2f%%%s\n", pair, what, budget, wall, over,
           budget_ok ? " " : "!", verdict, figure, truth, err, fig_ok ? "" : "  (off, unflagged)");
    if (!budget_ok || !verdict_ok) L->bad++;
}

static void runs_and_compare(lop *L, const char *pair, chain *a, chain *b, double truth, chrono_result *ra)
{
    chrono_result rb;
    chrono_comparison c;
    char na[CHRONO_NAME_MAX], nb[CHRONO_NAME_MAX];
    double t0;
    snprintf(na, sizeof na, "%.40s/A", pair);
    snprintf(nb, sizeof nb, "%.40s/B", pair);
    t0 = now_ms(L->s);
    int rc = chrono_run(L->s, na, chain_body, a, ra);
    row(L, pair, "run A", L->max_ms, now_ms(L->s) - t0, rc == 0 ? "measured" : chrono_strerror(rc), rc == 0,
        ra->cycles.median / UNIT_ADDS, (double)a->units, ra->warnings);
    t0 = now_ms(L->s);
    rc = chrono_run(L->s, nb, chain_body, b, &rb);
    row(L, pair, "run B", L->max_ms, now_ms(L->s) - t0, rc == 0 ? "measured" : chrono_strerror(rc), rc == 0,
        rb.cycles.median / UNIT_ADDS, (double)b->units, rb.warnings);
    (void)truth;
    t0 = now_ms(L->s);
    rc = chrono_compare(L->s, na, chain_body, a, nb, chain_body, b, &c);
    row(L, pair, "compare", L->max_ms, now_ms(L->s) - t0,
        rc != 0 ? chrono_strerror(rc) : c.ci_low <= truth && truth <= c.ci_high ? "truth in CI" : "truth outside",
        rc == 0, c.ratio, truth, c.warnings);
}

static void claims(lop *L, const char *pair, chain *a, chain *b, double truth, const chrono_result *ra,
                   const char *saved_json)
{
    struct { const char *what; int expect; } k[] = {
        { "faster k/2", CHRONO_PASS }, { "faster 2k", CHRONO_FAIL }, { "below 2x", CHRONO_PASS },
        { "below /2", CHRONO_FAIL }, { "saved", CHRONO_PASS } };
    size_t i;
    char name[96];
    for (i = 0; i < sizeof k / sizeof k[0]; i++) {
        chrono_verdict v;
        const chrono_expectation *e;
        double t0 = now_ms(L->s);
        snprintf(name, sizeof name, "%.40s %s", pair, k[i].what);
        if (i == 0) v = chrono_check_faster(L->ck, name, chain_body, b, chain_body, a, truth / 2);
        else if (i == 1) v = chrono_check_faster(L->ck, name, chain_body, b, chain_body, a, truth * 2);
        else if (i == 2) v = chrono_check_below(L->ck, name, chain_body, a, ra->ns.median * 2);
        else if (i == 3) v = chrono_check_below(L->ck, name, chain_body, a, ra->ns.median / 2);
        else {
            snprintf(name, sizeof name, "%.40s/A", pair);   /* the saved run's entry */
            v = saved_json ? chrono_check_saved(L->ck, name, chain_body, a, saved_json, 1.5) : CHRONO_VERDICT_ERROR;
        }
        e = &L->ck->items[L->ck->n - 1];
        row(L, pair, k[i].what, L->budget_ms, now_ms(L->s) - t0, chrono_verdict_name(v), (int)v == k[i].expect,
            e->estimate, i < 2 ? truth : i == 4 ? 1.0 : ra->ns.median, 0);
        if (v == CHRONO_INCONCLUSIVE && e->reason[0]) printf("%26s%s\n", "", e->reason);
    }
}

/* The runs' JSON report, for the saved claims: a temp file removed at exit and on a signal. */
static const char *save_runs(lop *L, char *path, size_t n)
{
    const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char file[64];
    const char *p;
    FILE *f;
    snprintf(file, sizeof file, "lopsided-%ld.json", (long)chrono_clock_read(&L->s->clock) % 1000000);
    if (!(p = chrono_tmp_track(&lop_tmp, dir, file)) || !(f = fopen(p, "w"))) return NULL;
    if (chrono_report(L->s, f, CHRONO_FORMAT_JSON) < 0) { fclose(f); return NULL; }
    if (fclose(f) != 0) return NULL;
    snprintf(path, n, "%s", p);
    return path;
}

int main(int argc, char **argv)
{
    static const uint64_t ks[] = { 1, 10, 100, 1000, 10000, 100000 };
    chain a[7], b[7];
    chrono_result ra[7];
    char pair[7][32], json[CHRONO_TMP_PATH];
    const char *saved;
    double budget = 0, ghz;
    int strict = 0, i, np = (int)(sizeof ks / sizeof ks[0]);
    chrono_cli_flag extra[2];
    chrono_program p;
    chrono_expect_config ecfg = chrono_expect_config_default();
    chrono_checker ck;
    lop L;
    extra[0].name = "--budget-ms"; extra[0].kind = CHRONO_CLI_DOUBLE; extra[0].value = &budget;
    extra[0].min = 1; extra[0].max = 600000; extra[0].help = "each check's budget in ms (default 500)";
    extra[1].name = "--strict"; extra[1].kind = CHRONO_CLI_BOOL; extra[1].value = &strict; extra[1].min = extra[1].max = 0;
    extra[1].help = "an inconclusive check fails";
    int rc = chrono_program_begin(&p, argc, argv, extra, 2);
    if (rc != 1) return chrono_program_end(&p);
    (void)chrono_tmp_catch(lop_on_signal);
    if (budget > 0) ecfg.budget_ms = budget;
    ecfg.strict = strict;
    (void)chrono_checker_open(&ck, &p.session, &ecfg);
    L.s = &p.session; L.ck = &ck; L.max_ms = p.session.cfg.max_ms; L.budget_ms = ck.cfg.budget_ms; L.bad = 0;
    ghz = p.session.core_ghz > 0 ? p.session.core_ghz : 3.0;
    for (i = 0; i < np; i++) {
        a[i].units = ks[i]; b[i].units = 1;
        snprintf(pair[i], sizeof pair[i], "k=%llu", (unsigned long long)ks[i]);
    }
    a[np].units = (uint64_t)(5e6 * ghz / UNIT_ADDS); b[np].units = a[np].units / 1000; a[np].units = b[np].units * 1000;
    snprintf(pair[np], sizeof pair[np], "5ms/5us");
    printf("%-12s %-12s %7s %8s %7s  %-14s %12s %9s %8s\n", "pair", "what", "budget", "wall ms", "x budget", "verdict",
           "figure", "truth", "error");
    for (i = 0; i <= np; i++) runs_and_compare(&L, pair[i], &a[i], &b[i], (double)a[i].units / (double)b[i].units, &ra[i]);
    saved = save_runs(&L, json, sizeof json);
    for (i = 0; i <= np; i++) claims(&L, pair[i], &a[i], &b[i], (double)a[i].units / (double)b[i].units, &ra[i], saved);
    {
        double t0 = now_ms(&p.session);
        chrono_verdict v = chrono_check_scaling(&ck, "A over k", chain_sweep, NULL, ks, (size_t)np, CHRONO_O_N);
        row(&L, "k=1..1e5", "scaling O(n)", np * L.max_ms, now_ms(&p.session) - t0, chrono_verdict_name(v), v == CHRONO_PASS,
            ck.items[ck.n - 1].r2, 1.0, 0);
    }
    chrono_tmp_remove(&lop_tmp);
    printf("\n%d row(s) broke a promise (a budget past 1.25x, or a verdict not the truth's)\n", L.bad);
    chrono_checker_close(&ck);
    rc = chrono_program_end(&p);
    return rc ? rc : L.bad ? 1 : 0;
}

/* selfcheck — chronoscope measuring itself against ground truth.

   Workloads whose cost is known exactly in core cycles: chains of 1000 and 2000
   dependent adds (1 cycle each) and 1000 dependent imuls (3 cycles each on
   modern x86), an empty loop (about a cycle an iteration: the loop itself) and
   a call of a tiny function (~1.4 ns here).  Each figure is printed beside its
   truth and the bar it must meet, with the warnings its run carried (a figure
   the library flagged: "flags") and, for comparisons, whether the interval
   contains the truth (within 0.05%, the loops' own overhead): an unflagged
   comparison whose interval misses the truth breaks the library's promise.

   Usage: selfcheck [common flags] [--strict]   (--strict: exit 1 when a bar is missed) */
#define _POSIX_C_SOURCE 200809L   /* getppid under -std=c99 */
#include <chronoscope.h>
#include <math.h>
#include <string.h>
#if defined(__linux__)
#  include <unistd.h>
#endif

#if defined(CHRONO__X86) && (defined(__GNUC__) || defined(__clang__))
#  define HAVE_CHAINS 1
#  define CHAIN(op, n)                                                                      \
    static void op##n(void *ctx, uint64_t iters)                                           \
    {                                                                                       \
        uintptr_t x = 1, one = 1; /* carried across iterations: one long chain */          \
        (void)ctx;                                                                          \
        for (uint64_t i = 0; i < iters; i++)                                                \
            __asm__ __volatile__(".rept " #n "\n\t" #op " %1, %0\n\t.endr" : "+r"(x) : "r"(one)); \
    }
#elif defined(CHRONO__ARM64) && (defined(__GNUC__) || defined(__clang__))
#  define HAVE_CHAINS 1
#  define STR_(x) #x
#  define STR(x) STR_(x)   /* expands op first: imul -> mul */
#  define CHAIN(op, n)                                                                      \
    static void op##n(void *ctx, uint64_t iters)                                           \
    {                                                                                       \
        uintptr_t x = 1, one = 1;                                                           \
        (void)ctx;                                                                          \
        for (uint64_t i = 0; i < iters; i++)                                                \
            __asm__ __volatile__(".rept " #n "\n\t" STR(op) " %0, %0, %1\n\t.endr" : "+r"(x) : "r"(one)); \
    }
#  define imul mul
#else
#  define HAVE_CHAINS 0
#endif

#if HAVE_CHAINS
CHAIN(add, 1000)
CHAIN(add, 1001)
CHAIN(add, 2000)
CHAIN(imul, 1000)
#endif

static void empty_loop(void *ctx, uint64_t iters)
{
    (void)ctx;
    for (uint64_t i = 0; i < iters; i++) chrono_keep(i);
}

CHRONO__NOINLINE static uint64_t tiny(uint64_t x) { return x * 3 + 1; }

static void tiny_call(void *ctx, uint64_t iters)
{
    uint64_t x = 1;
    (void)ctx;
    for (uint64_t i = 0; i < iters; i++) {
        x = tiny(x);
        chrono_keep(x);
    }
}

#if defined(__linux__)
static void null_syscall(void *ctx, uint64_t iters)
{
    (void)ctx;
    for (uint64_t i = 0; i < iters; i++) {
        pid_t p = getppid();
        chrono_keep(p);
    }
}
#endif

typedef struct {
    FILE *f;
    int failed, printed;
    int misses, flagged_misses;   /* comparisons whose interval missed the truth: unflagged, flagged */
} checks;

/* "SHARED_CORE|UNSTABLE", or "-" for none. */
static const char *flags(char *buf, size_t n, unsigned w)
{
    size_t len = 0;
    unsigned b;
    buf[0] = '\0';
    for (b = 1; b && b <= CHRONO_WARN_LAST; b <<= 1)
        if ((w & b) && len + 40 < n) len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? "|" : "", chrono_env_warning_name(b));
    if (!len) snprintf(buf, n, "-");
    return buf;
}

/* One line: what, the figure, its truth, the error and whether the bar holds.
   rel_bar > 0: |error| <= rel_bar; otherwise lo <= value <= hi. */
static void check(checks *c, const char *what, double value, double truth, double rel_bar, double lo, double hi,
                  unsigned warnings)
{
    int ok;
    char err[32] = "", bar[32], fl[256];
    if (!c->printed) {
        fprintf(c->f, "\n%-42s %12s %10s %10s %12s  %-6s %s\n", "selfcheck", "measured", "truth", "error", "bar", "", "flags");
        c->printed = 1;
    }
    if (rel_bar > 0) {
        double e = value / truth - 1;
        ok = fabs(e) <= rel_bar;
        snprintf(err, sizeof err, "%+.3f%%", e * 100);
        snprintf(bar, sizeof bar, "±%.2f%%", rel_bar * 100);
    } else {
        ok = value >= lo && value <= hi;
        snprintf(bar, sizeof bar, "%.2g..%.2g", lo, hi);
    }
    if (value != value) ok = 0;
    if (truth > 0)
        fprintf(c->f, "%-42s %12.4f %10.4g %10s %12s  %-6s %s\n", what, value, truth, err, bar, ok ? "ok" : "MISSED",
                flags(fl, sizeof fl, warnings));
    else
        fprintf(c->f, "%-42s %12.4f %10s %10s %12s  %-6s %s\n", what, value, "-", err, bar, ok ? "ok" : "MISSED",
                flags(fl, sizeof fl, warnings));
    if (!ok) c->failed++;
}

/* A comparison against its truth: the ratio, its interval, whether the
   interval contains the truth (within 0.05%), and the flags.  A miss without
   a flag counts against the library; with one, the library said so. */
static void check_ci(checks *c, const char *what, const chrono_comparison *cmp, double truth)
{
    char fl[256];
    int in = cmp->ci_low <= truth * 1.0005 && cmp->ci_high >= truth * 0.9995;
    fprintf(c->f, "%-42s %12.5f %10.5g  CI [%.5f, %.5f] %s  %s\n", what, cmp->ratio, truth, cmp->ci_low, cmp->ci_high,
            in ? "contains the truth" : cmp->warnings ? "MISSED (flagged)" : "MISSED (unflagged)",
            flags(fl, sizeof fl, cmp->warnings));
    if (!in) {
        if (cmp->warnings) c->flagged_misses++;
        else c->misses++;
    }
}

/* A run or comparison that failed is reported, and the program exits 1. */
static void called(const char *what, int rc, int *bad)
{
    if (rc == 0) return;
    fprintf(stderr, "selfcheck: %s failed: %s\n", what, chrono_strerror(rc));
    *bad = 1;
}

static void info(checks *c, const char *what, double value)
{
    fprintf(c->f, "%-42s %12.4f\n", what, value);
}

int main(int argc, char **argv)
{
    chrono_config cfg = chrono_config_default();
    chrono_cli cli;
    chrono_session s;
    chrono_result r_add1, r_add2, r_imul, r_empty, r_call;
    chrono_comparison c_imul, c_add, c_add1;
    checks ck;
    int strict = 0, rc, bad = 0;
    const chrono_cli_flag extra[] = {
        {"--strict", CHRONO_CLI_BOOL, &strict, 0, 1, "exit 1 when a figure misses its bar"},
    };

    if (chrono_cli_parse_ex(&cfg, &cli, argc, argv, extra, 1) < 0) return chrono_cli_fail(&cli, argv[0]);
    if (chrono_cli_handle_info(&cli, argv[0])) return 0;
    rc = chrono_session_open(&s, &cfg);
    if (rc < 0) {
        fprintf(stderr, "selfcheck: cannot open a session: %s\n", chrono_strerror(rc));
        return 1;
    }
    memset(&ck, 0, sizeof ck);
    ck.f = cli.format == CHRONO_FORMAT_TEXT ? stdout : stderr;

#if HAVE_CHAINS
    if (chrono_cli_want(&cli, "add1000")) called("add1000", chrono_run(&s, "add1000", add1000, NULL, &r_add1), &bad);
    if (chrono_cli_want(&cli, "add2000")) called("add2000", chrono_run(&s, "add2000", add2000, NULL, &r_add2), &bad);
    if (chrono_cli_want(&cli, "imul1000")) called("imul1000", chrono_run(&s, "imul1000", imul1000, NULL, &r_imul), &bad);
    if (chrono_cli_want(&cli, "imul1000_vs_add1000"))
        called("imul1000_vs_add1000", chrono_compare(&s, "imul1000", imul1000, NULL, "add1000", add1000, NULL, &c_imul), &bad);
    if (chrono_cli_want(&cli, "add2000_vs_add1000"))
        called("add2000_vs_add1000", chrono_compare(&s, "add2000", add2000, NULL, "add1000", add1000, NULL, &c_add), &bad);
    if (chrono_cli_want(&cli, "add1001_vs_add1000"))
        called("add1001_vs_add1000", chrono_compare(&s, "add1001", add1001, NULL, "add1000", add1000, NULL, &c_add1), &bad);
#endif
    if (chrono_cli_want(&cli, "empty_loop")) {   /* meant to be empty: no EMPTY_BODY warning */
        s.cfg.expect_empty = 1;
        called("empty_loop", chrono_run(&s, "empty_loop", empty_loop, NULL, &r_empty), &bad);
        s.cfg.expect_empty = 0;
    }
    if (chrono_cli_want(&cli, "tiny_call")) called("tiny_call", chrono_run(&s, "tiny_call", tiny_call, NULL, &r_call), &bad);
#if defined(__linux__)
    if (chrono_cli_want(&cli, "getppid")) called("getppid", chrono_run(&s, "getppid", null_syscall, NULL, NULL), &bad);
#endif
    if (cli.list) { chrono_session_close(&s); return 0; }

    if ((rc = chrono_cli_finish(&cli, &s)) < 0) fprintf(stderr, "selfcheck: %s\n", cli.error);
    if (!cli.filter) {
#if HAVE_CHAINS
        if (s.has_cycles) {
            check(&ck, "1000 dependent adds, estimated cycles", r_add1.cycles.median, 1000, 0.005, 0, 0, r_add1.warnings);
            check(&ck, "imul1000/add1000, estimated cycles", r_imul.cycles.median / r_add1.cycles.median, 3, 0.0025, 0, 0,
                  r_imul.warnings | r_add1.warnings);
            check(&ck, "add2000/add1000, estimated cycles", r_add2.cycles.median / r_add1.cycles.median, 2, 0.0025, 0, 0,
                  r_add2.warnings | r_add1.warnings);
        }
        check(&ck, "compare imul1000 vs add1000 (ns, interleaved)", c_imul.ratio, 3, 0.005, 0, 0, c_imul.warnings);
        check(&ck, "compare add2000 vs add1000 (ns, interleaved)", c_add.ratio, 2, 0.005, 0, 0, c_add.warnings);
        check(&ck, "compare add1001 vs add1000: CI above 1", c_add1.ci_low, 0, 0, 1.0, INFINITY, c_add1.warnings);
        check_ci(&ck, "imul1000 vs add1000: ratio, truth", &c_imul, 3.0);
        check_ci(&ck, "add2000 vs add1000: ratio, truth", &c_add, 2.0);
        check_ci(&ck, "add1001 vs add1000: ratio, truth", &c_add1, 1.001);
#endif
        check(&ck, "empty loop, ns per iteration", r_empty.ns.median, 0, 0, 0, 0.5, r_empty.warnings);
        check(&ck, "tiny call, ns per call", r_call.ns.median, 0, 0, 0.5, 5, r_call.warnings);
        if (s.has_cycles) {
            info(&ck, "empty loop, estimated cycles per iteration", r_empty.cycles.median);
            info(&ck, "core clock, GHz (estimated)", s.core_ghz);
        }
        {
            double worst = 0;
            size_t i;
            for (i = 0; i < s.nresults; i++)
                if (s.results[i].wall_ms > worst) worst = s.results[i].wall_ms;
            check(&ck, "slowest chrono_run, wall ms", worst, 0, 0, 0, 500, s.warnings & CHRONO_WARN_SHARED_CORE);
        }
        fprintf(ck.f, "%d of the bars missed; comparisons whose CI missed the truth: %d unflagged, %d flagged\n",
                ck.failed, ck.misses, ck.flagged_misses);
    }
    chrono_session_close(&s);
    if (rc < 0 || bad) return 1;
    return strict && ck.failed ? 1 : 0;
}

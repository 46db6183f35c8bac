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

#if CHRONO_ARCH_X86 && (defined(__GNUC__) || defined(__clang__))
#  define HAVE_CHAINS 1
#  define CHAIN(op, n)                                                                      \
    static void op##n(void *ctx, uint64_t iters)                                           \
    {                                                                                       \
        uintptr_t x = 1, one = 1; /* carried across iterations: one long chain */          \
        (void)ctx;                                                                          \
        for (uint64_t i = 0; i < iters; i++)                                                \
            __asm__ __volatile__(".rept " #n "\n\t" #op " %1, %0\n\t.endr" : "+r"(x) : "r"(one)); \
    }
#elif CHRONO_ARCH_ARM64 && (defined(__GNUC__) || defined(__clang__))
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

#if HAVE_CHAINS && CHRONO_ARCH_X86
#  define HAVE_SWEEP 1
/* 150 dependent adds, then a loop of n more: a fixed and a per-unit cost of
   one cycle an add, for the sweep's fit (issue: an unweighted fit read the
   fixed cost anywhere in 96..144 cycles). */
static void adds_150_plus(void *ctx, uint64_t n, uint64_t iters)
{
    (void)ctx;
    for (uint64_t i = 0; i < iters; i++) {
        uintptr_t x = 1, one = 1, k = n / 16;
        __asm__ __volatile__(".rept 150\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(one));
        while (k--) __asm__ __volatile__(".rept 16\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(one));
        chrono_keep(x);
    }
}
static void adds_150(void *ctx, uint64_t iters) { adds_150_plus(ctx, 0, iters); }
#else
#  define HAVE_SWEEP 0
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

CHRONO_NOINLINE static uint64_t tiny(uint64_t x) { return x * 3 + 1; }

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

/* The comparison of a against b, NULL if it did not run. */
static const chrono_comparison *comparison(const chrono_session *s, const char *a, const char *b)
{
    size_t i;
    for (i = s->ncomparisons; i-- > 0;)
        if (!strcmp(s->comparisons[i].a.name, a) && !strcmp(s->comparisons[i].b.name, b)) return &s->comparisons[i];
    return NULL;
}

static void info(checks *c, const char *what, double value)
{
    fprintf(c->f, "%-42s %12.4f\n", what, value);
}

/* The figures against their truths, once everything ran (nothing is checked
   under --filter or --list: the figures would be missing). */
static void check_all(checks *ck, const chrono_program *p)
{
    const chrono_session *s = &p->session;
    const chrono_result *r_empty = chrono_program_find(p, "empty_loop"), *r_call = chrono_program_find(p, "tiny_call");
    double worst = 0;
    size_t i;
#if HAVE_CHAINS
    const chrono_result *r_add1 = chrono_program_find(p, "add1000"), *r_add2 = chrono_program_find(p, "add2000");
    const chrono_result *r_imul = chrono_program_find(p, "imul1000");
    const chrono_comparison *c_imul = comparison(s, "imul1000", "add1000"), *c_add = comparison(s, "add2000", "add1000");
    const chrono_comparison *c_add1 = comparison(s, "add1001", "add1000");
    if (!r_add1 || !r_add2 || !r_imul || !c_imul || !c_add || !c_add1) return;
    if (s->has_cycles) {
        check(ck, "1000 dependent adds, estimated cycles", r_add1->cycles.median, 1000, 0.005, 0, 0, r_add1->warnings);
        check(ck, "imul1000/add1000, estimated cycles", r_imul->cycles.median / r_add1->cycles.median, 3, 0.0025, 0, 0,
              r_imul->warnings | r_add1->warnings);
        check(ck, "add2000/add1000, estimated cycles", r_add2->cycles.median / r_add1->cycles.median, 2, 0.0025, 0, 0,
              r_add2->warnings | r_add1->warnings);
    }
    check(ck, "compare imul1000 vs add1000 (ns, interleaved)", c_imul->ratio, 3, 0.005, 0, 0, c_imul->warnings);
    check(ck, "compare add2000 vs add1000 (ns, interleaved)", c_add->ratio, 2, 0.005, 0, 0, c_add->warnings);
    check(ck, "compare add1001 vs add1000: CI above 1", c_add1->ci_low, 0, 0, 1.0, INFINITY, c_add1->warnings);
    check_ci(ck, "imul1000 vs add1000: ratio, truth", c_imul, 3.0);
    check_ci(ck, "add2000 vs add1000: ratio, truth", c_add, 2.0);
    check_ci(ck, "add1001 vs add1000: ratio, truth", c_add1, 1.001);
#endif
#if HAVE_SWEEP
    if (s->has_cycles && s->nsweeps && chrono_program_find(p, "adds_150")) {
        const chrono_sweep_result *sw = &s->sweeps[s->nsweeps - 1];
        const chrono_result *direct = chrono_program_find(p, "adds_150");
        check(ck, "sweep 150+n adds: cycles per add", sw->per_unit_cycles, 1, 0.02, 0, 0, 0);
        check(ck, "sweep 150+n adds: fixed cycles vs n = 0", sw->fixed_cycles, direct->cycles.median, 0.2, 0, 0,
              direct->warnings);
    }
#endif
    if (!r_empty || !r_call) return;
    check(ck, "empty loop, ns per iteration", r_empty->ns.median, 0, 0, 0, 0.5, r_empty->warnings);
    check(ck, "tiny call, ns per call", r_call->ns.median, 0, 0, 0.5, 5, r_call->warnings);
    if (s->has_cycles) {
        info(ck, "empty loop, estimated cycles per iteration", r_empty->cycles.median);
        info(ck, "core clock, GHz (estimated)", s->core_ghz);
    }
    for (i = 0; i < s->nresults; i++)
        if (s->results[i].wall_ms > worst && !strstr(s->results[i].name, "adds_150/")) worst = s->results[i].wall_ms;
    check(ck, "slowest chrono_run, wall ms", worst, 0, 0, 0, 500, s->warnings & CHRONO_WARN_SHARED_CORE);
    fprintf(ck->f, "%d of the bars missed; comparisons whose CI missed the truth: %d unflagged, %d flagged\n",
            ck->failed, ck->misses, ck->flagged_misses);
}

int main(int argc, char **argv)
{
#if HAVE_SWEEP
    static const uint64_t ns[] = { 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576 };
#endif
    chrono_program p;
    chrono_entry table[16];
    size_t n = 0;
    checks ck;
    int strict = 0, status;
    const chrono_cli_flag extra[] = {
        {"--strict", CHRONO_CLI_BOOL, &strict, 0, 1, "exit 1 when a figure misses its bar"},
    };
    if (chrono_program_begin(&p, argc, argv, extra, 1) != 1) return chrono_program_end(&p);
#if HAVE_CHAINS
    table[n++] = chrono_bench("add1000", add1000, NULL);
    table[n++] = chrono_bench("add2000", add2000, NULL);
    table[n++] = chrono_bench("imul1000", imul1000, NULL);
    table[n++] = chrono_versus("imul1000", imul1000, NULL, "add1000", add1000, NULL);
    table[n++] = chrono_versus("add2000", add2000, NULL, "add1000", add1000, NULL);
    table[n++] = chrono_versus("add1001", add1001, NULL, "add1000", add1000, NULL);
#endif
    table[n++] = chrono_with_empty_body(chrono_bench("empty_loop", empty_loop, NULL));   /* meant to be empty */
    table[n++] = chrono_bench("tiny_call", tiny_call, NULL);
#if defined(__linux__)
    table[n++] = chrono_bench("getppid", null_syscall, NULL);
#endif
#if HAVE_SWEEP
    table[n++] = chrono_bench("adds_150", adds_150, NULL);
    table[n++] = chrono_with_unit(chrono_sweep_entry("adds_150", adds_150_plus, NULL, ns, sizeof ns / sizeof ns[0]), "adds");
#endif
    chrono_program_run(&p, table, n);
    memset(&ck, 0, sizeof ck);
    ck.f = p.cli.format == CHRONO_FORMAT_TEXT || p.cli.out_path ? stdout : stderr;   /* beside the text report */
    if (chrono_program_finish(&p) == 0 && !p.cli.filter && !p.cli.list) check_all(&ck, &p);
    status = chrono_program_end(&p);
    return status ? status : strict && ck.failed ? 1 : 0;
}

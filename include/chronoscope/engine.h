/* chronoscope/engine.h — the sampling engine: reference chains, the probes
   that see a shared core, controls, and the one loop that takes samples of
   one body, or of two interleaved (ABBA), until a target the caller sets.
   The runs of bench.h (run, compare, setup, between) and the sequential
   verdicts of check.h drive it through the interface below.

   Usage (the public interface bench.h and check.h drive; the fields named in
   the struct's first block may be read, the rest are the engine's):

       chrono_engine e;
       chrono_result ra, rb;
       chrono_engine_side side[2] = { { "a", body_a, ctx_a, &ra }, { "b", body_b, ctx_b, &rb } };
       chrono_engine_target t = { CHRONO_ENGINE_SAMPLES, 0, 0, NULL, NULL };
       if (chrono_engine_open(&e, &session, side, 2, 64) < 0) return;   // results named, 64 rows ready
       chrono_engine_size(&e, 1, 100.0, 100.0);      // each side's batch >= the target
       chrono_engine_warm(&e, 10.0, 2);              // A B A B, 10 ms each
       chrono_engine_run(&e, &t);                    // the samples: e.n rows in e.col[k]
       chrono_engine_drop(&e, CHRONO_ENGINE_DROP_RUN);   // contended rows out
       chrono_engine_summarise(&e);                  // ra, rb: statistics of the rows kept

   Targets (chrono_engine_target.until):
       CHRONO_ENGINE_SAMPLES  .samples quiet rows, by the runner's rules: rejected samples
                              replaced (up to 2 a row wanted), contended ones waited out
                              for max_ms / 8, truncated at max_ms (chrono_run, chrono_compare)
       CHRONO_ENGINE_MORE     a new segment of up to .samples more quiet rows, within
                              max_ms and the rows left (chrono_compare when its ratio moved)
       CHRONO_ENGINE_TAKEN    until .n rounds were taken in all, rejected ones not replaced
                              (chrono_run_between: each gap its share)
       CHRONO_ENGINE_ROWS     until .n rows, .ms since open, or 100 .n + 10000 rounds; then
                              .decide(e, .user): 0 stops, 1 samples on to the .n it set
                              (check.h's looks)

   Functions:
       chrono_engine_open(e, s, sides, nsides, rows)   1 or 2 sides, their results started; 0 or error
       chrono_engine_size(e, from, ms_a, ms_b)  iterations per sample, each side's own (0 from:
                                                their current counts); sides within 4x share the larger
       chrono_engine_warm(e, ms, rounds)        warm-up, the sides alternating; ms spent
       chrono_engine_run(e, target)             the one sampling loop; 0 or CHRONO_ENOMEM
       chrono_engine_row_quiet(e, i)            row i quiet by both probes on every side
       chrono_engine_row_kept(e, i)             row i stays under CHRONO_ENGINE_DROP_DECIDED (a decide
                                                callback's figures come from these rows)
       chrono_engine_drop(e, rule)              the rows that stay (a rule below); their count
       chrono_engine_figures(e)                 CPU time (and one side's page faults) into the results
       chrono_engine_summarise(e)               statistics of the rows kept; 0 or error
       chrono_engine_keep(e, cmp)               the result (cmp NULL) or the comparison, in the session
       chrono_engine_ms(e)                      ms since open
       chrono_engine_fits(e, limit_ms)          another round ends within limit_ms since open

   What one round does: a sample of each side (the second side first in odd
   rounds), each bracketed by the reference chains and the probes (bench.h,
   "How a run measures", says what they catch); a sample migrated, switched
   out, with the clock going backwards or references disagreeing is counted
   on its side (chrono_result's CHRONO__REJECTIONS fields) and the round
   yields no row; a row when every side's sample was accepted, its probes'
   readings folded into the session's best; a round whose samples were only
   interrupted is kept apart in case no row is accepted at all
   (CHRONO_WARN_INTERRUPTED).  With controls on (one side), a control chain
   after every few rounds.

   Interface for the modules above
     chrono__check_session(s)            0 when s is an open session (bench.h, check.h)
     chrono__grow(&p, &cap, n, size)     grow an array to n elements (bench.h, check.h, processes.h)
     chrono__result_init(r, name, iters) a result named, figures NAN
     chrono__keep_result, chrono__keep_samples   a result, or a copy of samples, into the session
     chrono__attempts(s)                 the rows a run may take
     chrono__elapsed_ms(s, since)        ms since a clock reading (budgets)
     chrono__time_once(s, fn, ctx, iters)   one timed call of a batch, in ticks
     chrono__target_ticks(s)             the shortest sample, in ticks
     chrono__engine_iters(e, iters)      every side's iterations per sample (chrono_run_setup
                                         sizes its own)
     chrono__columns, chrono__sample     a run's columns, one sample
     CHRONO__ITERS_MAX                   the largest batch
     chrono__mem, chrono__mem_read()     page faults and resident memory
     chrono__ref_chain(n), chrono__ref_fixed(s), CHRONO__REF_ADDS, CHRONO__HAS_REF_CHAIN
                                         the reference chains (bench.h's session open)
     chrono__core_ghz, chrono__port_expect   the core's clock and the port probe (the same) */
#ifndef CHRONOSCOPE_ENGINE_H
#define CHRONOSCOPE_ENGINE_H

#include "types.h"

/* ---- the engine's own types (private: the modules above use the interface) ---- */
/* Per-run working storage: one block, carved into columns. */
typedef struct chrono__columns {
    double *ns, *ticks, *cycles, *ghz, *fe, *scratch, *port;
    double *ctl;   /* the control chains' readings (chrono__control), not a sample's */
    double *cnt[CHRONO_COUNTER_COUNT];   /* counts per iteration (counters.h), NAN not counted */
} chrono__columns;

#define CHRONO__NCOLUMNS (8 + CHRONO_COUNTER_COUNT)   /* the arrays of a chrono__columns */

/* One sample: what the runner needs to accept or reject it. */
typedef struct chrono__sample {
    uint64_t ticks;        /* net of the clock overhead */
    double cycles_per_tick;/* core cycles per tick from the two references, 0 if unknown */
    double ghz;
    double fe;             /* front-end probe, core cycles a call (the slower side); NAN if off */
    double port;           /* port probe, multiply/add time per instruction; NAN if off */
    int cpu;
    int status;            /* CHRONO__OK or why it was rejected */
    double cnt[CHRONO_COUNTER_COUNT];   /* counts over the sample, the reads' cost out; NAN: none */
    double cpu_ns;         /* the thread's CPU time over it, where read (long, or blocking); NAN */
} chrono__sample;

/* A sample's status: CHRONO__OK, or why it was rejected, named by the
   chrono_result counter it is counted in, from the one list of causes
   (CHRONO__REJECTIONS): CHRONO__REJECTED(migrated), (preempted), (backwards),
   (ref_rejected).  The probes' causes (contended, port_contended) are a row's,
   counted when rows are dropped: no sample carries them. */
#define CHRONO__REJECTED(field) CHRONO__REJECTED_##field
#define CHRONO__REJECTION_STATUS(field, words, key) CHRONO__REJECTED(field),
#define CHRONO__REJECTED_ALL CHRONO__REJECTIONS(CHRONO__REJECTION_STATUS)   /* (ctags reads the
    list's name inside an enum as an enumerator of this file's; this name is the file's own) */
enum { CHRONO__OK, CHRONO__REJECTED_ALL CHRONO__NSTATUS };
#undef CHRONO__REJECTED_ALL
#undef CHRONO__REJECTION_STATUS

/* The thread's CPU time and the time elapsed over spans of sampling (cpu_ns,
   wall_ns: read at their ends, never inside a sample), and over the samples
   alone where each was read around (a blocking body's: samples_cpu_ns,
   samples_wall_ns; NAN once one was not): chrono_result.cpu_share. */
typedef struct chrono__cpu_span {
    double cpu0, cpu_ns, wall_ns, samples_cpu_ns, samples_wall_ns;
    uint64_t t0;
} chrono__cpu_span;

typedef struct chrono__mem { double minor, major, rss, ok; } chrono__mem;

/* Turns an accepted sample's ticks into the body's own (chrono_run_setup:
   the timed calls alone); NULL: the sample as measured. */
typedef void (*chrono__net_fn)(void *ctx, uint64_t iters, chrono__sample *sm);

typedef struct chrono__controls {
    uint64_t adds;          /* one control's adds (0: not sized yet, or no reference chains) */
    double sample_cycles;   /* a sample's length in core cycles, from the first one accepted */
    size_t every;           /* a control after every `every` samples */
    size_t most;            /* at most this many: twice what .samples samples call for */
    size_t n;               /* readings in the columns' ctl */
    chrono__cpu_span *cpu;  /* the run's CPU-time span, paused over each control (NULL: none) */
} chrono__controls;
/* ---- the interface ------------------------------------------------------------ */
/* One side: its name (the result's), its body and the result it fills. */
typedef struct chrono_engine_side {
    const char *name;
    chrono_fn fn;
    void *ctx;
    chrono_result *result;
} chrono_engine_side;

typedef enum chrono_engine_until {
    CHRONO_ENGINE_SAMPLES = 0,   /* .samples quiet rows, the runner's rules */
    CHRONO_ENGINE_MORE,          /* a new segment: up to .samples more quiet rows */
    CHRONO_ENGINE_TAKEN,         /* .n rounds in all, rejected samples not replaced */
    CHRONO_ENGINE_ROWS           /* .n rows, .ms, or the round limit; then .decide */
} chrono_engine_until;

typedef struct chrono_engine chrono_engine;

/* Called when a ROWS target is met (or its time is up): 0 stops the run; 1
   samples on, after raising e->target.n. */
typedef int (*chrono_engine_decide_fn)(chrono_engine *e, void *user);

typedef struct chrono_engine_target {
    chrono_engine_until until;
    size_t n;                          /* TAKEN: rounds in all; ROWS: rows */
    double ms;                         /* ROWS: the budget, ms since open */
    chrono_engine_decide_fn decide;    /* ROWS: NULL stops at the target */
    void *user;
} chrono_engine_target;

typedef enum chrono_engine_drop_rule {
    CHRONO_ENGINE_DROP_RUN = 0,   /* the runs': controls judged; contended rows of the segment
                                     dropped, or, when fewer than a quarter of .samples and fewer
                                     than ten are quiet, its first .samples rows kept and the run
                                     warned SHARED_CORE; no row accepted: the interrupted ones
                                     (INTERRUPTED) */
    CHRONO_ENGINE_DROP_DECIDED    /* a sequential decision's: every row when fewer than a quarter
                                     are quiet (the session warned CONTENDED), else the quiet ones */
} chrono_engine_drop_rule;

struct chrono_engine {
    /* read by the modules above */
    chrono_session *s;
    int sides;                   /* 1 or 2 */
    chrono_fn fn[2];
    void *ctx[2];
    chrono_result *r[2];         /* the sides' results: counts as it samples, statistics at
                                    summarise */
    uint64_t iters[2];           /* iterations per sample, each side's (chrono_engine_size) */
    /* what a sample of each side takes: sizing's, then the last one's */
    uint64_t sample_ticks[2];
    uint64_t start;              /* clock ticks at open (not serialized) */
    size_t n;                    /* rows: rounds whose every sample was accepted */
    size_t quiet;                /* rows of the segment quiet by both probes */
    size_t rounds;               /* rounds taken */
    chrono__columns col[2];      /* each side's rows: .ns, .ticks, .cycles ... per iteration;
                                    .scratch free */
    chrono_engine_target target; /* the one being run */
    /* private */
    chrono__net_fn net;          /* an accepted sample's ticks made the body's own (NULL: as
                                    measured) */
    int controls;                /* 1: control chains between the rounds (one side) */
    size_t cap;                  /* rows a side the columns hold */
    size_t seg, seg_rounds;      /* the segment's first row and the rounds before it */
    size_t soft;                 /* interrupted rounds kept apart at the top of the columns */
    size_t dry;                  /* rounds since the last row (chrono__engine_shorten) */
    chrono__controls ctl;
    chrono__cpu_span cpu;        /* over the sampling loop, controls paused */
    chrono__mem faults;          /* page faults over the sampling loop */
};

CHRONO__EXTERN_C_BEGIN
CHRONO_API int chrono_engine_open(chrono_engine *e, chrono_session *s,
                                  const chrono_engine_side *sides, int nsides, size_t rows);
CHRONO_API uint64_t chrono_engine_size(chrono_engine *e, uint64_t from, double ms_a, double ms_b);
CHRONO_API double chrono_engine_warm(chrono_engine *e, double ms, int rounds);
CHRONO_API int chrono_engine_run(chrono_engine *e, const chrono_engine_target *target);
CHRONO_API int chrono_engine_row_quiet(const chrono_engine *e, size_t i);
CHRONO_API int chrono_engine_row_kept(const chrono_engine *e, size_t i);
CHRONO_API size_t chrono_engine_drop(chrono_engine *e, chrono_engine_drop_rule rule);
CHRONO_API void chrono_engine_figures(chrono_engine *e);
CHRONO_API int chrono_engine_summarise(chrono_engine *e);
CHRONO_API int chrono_engine_keep(chrono_engine *e, const chrono_comparison *cmp);
CHRONO_API double chrono_engine_ms(const chrono_engine *e);
CHRONO_API int chrono_engine_fits(const chrono_engine *e, double limit_ms);
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_ENGINE_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_ENGINE_IMPL)
#define CHRONOSCOPE_ENGINE_IMPL

CHRONO__EXTERN_C_BEGIN

/* ---- the reference chain ------------------------------------------------------ */
#define CHRONO__REF_ADDS 14336u   /* ~4.1 us at 3.5 GHz: ~8600 TSC ticks, quantisation ~0.25% */

#if (defined(CHRONO__X86) || defined(CHRONO__ARM64)) && (defined(__GNUC__) || defined(__clang__))
#  define CHRONO__HAS_REF_CHAIN 1
/* A chain of n dependent register-register operations (n a multiple of 16):
   add (1 cycle each: the reference) or imul (3 cycles on x86-64: the port
   probe).  Register sources keep them from being folded at rename (as some
   cores do with immediates); the loop counter is a second, independent chain
   that runs alongside. */
#  if defined(CHRONO__X86)
#    define CHRONO__CHAIN_ASM(op) \
    "1:\n\t.rept 16\n\t" op " %[one], %[x]\n\t.endr\n\tsub $1, %[n]\n\tjnz 1b"
#    define CHRONO__MUL_OP "imul"
#  else
#    define CHRONO__CHAIN_ASM(op) \
    "1:\n\t.rept 16\n\t" op " %[x], %[x], %[one]\n\t.endr\n\tsubs %[n], %[n], #1\n\tb.ne 1b"
#    define CHRONO__MUL_OP "mul"
#  endif
#  define CHRONO__CHAIN(fname, op)                                 \
CHRONO__PRIVATE void fname(uintptr_t n)                            \
{                                                                  \
    uintptr_t x = 1, one = 1, loops = n / 16;                      \
    __asm__ __volatile__(CHRONO__CHAIN_ASM(op) : [x] "+r"(x),      \
                         [n] "+r"(loops) : [one] "r"(one) : "cc"); \
}
CHRONO__CHAIN(chrono__ref_chain, "add")
CHRONO__CHAIN(chrono__mul_chain, CHRONO__MUL_OP)
#  undef CHRONO__CHAIN
#  undef CHRONO__CHAIN_ASM
#  undef CHRONO__MUL_OP
#else
#  define CHRONO__HAS_REF_CHAIN 0
CHRONO__PRIVATE void chrono__ref_chain(uintptr_t n) { (void)n; }
CHRONO__PRIVATE void chrono__mul_chain(uintptr_t n) { (void)n; }
#endif

/* Raw ticks of a reference chain of n adds (0 when the clock went backwards). */
CHRONO__PRIVATE uint64_t chrono__ref_raw(const chrono_session *s, uint64_t n)
{
    uint64_t t0 = chrono_clock_start(&s->clock), t1;
    chrono__ref_chain((uintptr_t)n);
    t1 = chrono_clock_stop(&s->clock);
    return t1 > t0 ? t1 - t0 : 0;
}

/* Ticks the chain's adds take: the raw time less the fixed cost measured at
   open (0 when it could not be read). */
CHRONO__PRIVATE uint64_t chrono__ref_ticks(const chrono_session *s)
{
    uint64_t t = chrono__ref_raw(s, s->ref_adds);
    return t > s->ref_fixed_ticks ? t - s->ref_fixed_ticks : 0;
}

/* ---- the front-end probe ------------------------------------------------------- */
#define CHRONO__FE_CALLS 512u   /* ~2000 cycles on a quiet Zen 5: TSC quantisation ~2% */

/* n calls of an empty function (a call, a return, a loop branch: three taken
   branches each), the work of call-heavy code.  In asm so that every compiler
   emits the same loop.  Exists where the reference chain does. */
CHRONO__PRIVATE void chrono__fe_loop(uintptr_t n)
{
#if CHRONO__HAS_REF_CHAIN && defined(CHRONO__X86)
    __asm__ __volatile__(
#  if defined(__x86_64__)
                         "lea -128(%%rsp), %%rsp\n\t"   /* keep clear of the red zone */
#  endif
                         "1:\n\tcall 2f\n\tsub $1, %[n]\n\tjnz 1b\n\tjmp 3f\n"
                         "2:\n\tret\n"
                         "3:\n\t"
#  if defined(__x86_64__)
                         "lea 128(%%rsp), %%rsp\n\t"
#  endif
                         : [n] "+r"(n) : : "cc", "memory");
#elif CHRONO__HAS_REF_CHAIN
    __asm__ __volatile__("1:\n\tbl 2f\n\tsubs %[n], %[n], #1\n\tb.ne 1b\n\tb 3f\n"
                         "2:\n\tret\n"
                         "3:\n\t"
                         : [n] "+r"(n) : : "cc", "x30", "memory");
#else
    (void)n;
#endif
}

/* The probe runs where the reference chains do, unless turned off. */
CHRONO__PRIVATE int chrono__fe_on(const chrono_session *s)
{
    return s->has_cycles && s->cfg.contention_tolerance >= 0;
}

/* ---- the port probe ------------------------------------------------------------- */
#define CHRONO__PORT_MULS 1024u   /* ~3070 cycles: ~1840 ticks at 2.1 GHz, a 21-tick step ~1.1% of
                                     the 3% tolerance */
#define CHRONO__PORT_SHARE 0.6    /* its tolerance: this times .contention_tolerance (3%) */

/* Ticks of the multiply chain less the reference chain's fixed cost (the same
   shape: clock reads, call, loop entry); 0 when it could not be read. */
CHRONO__PRIVATE uint64_t chrono__mul_ticks(const chrono_session *s)
{
    uint64_t t0 = chrono_clock_start(&s->clock), t1;
    chrono__mul_chain(CHRONO__PORT_MULS);
    t1 = chrono_clock_stop(&s->clock);
    return t1 > t0 + s->ref_fixed_ticks ? t1 - t0 - s->ref_fixed_ticks : 0;
}

/* The port probe's reading: a multiply's time over an add's, from the ticks
   of the two chains (NAN when either is unknown). */
CHRONO__PRIVATE double chrono__port_ratio(const chrono_session *s, uint64_t mul_ticks,
                                          uint64_t add_ticks)
{
    if (!mul_ticks || !add_ticks) return NAN;
    return ((double)mul_ticks / CHRONO__PORT_MULS) / ((double)add_ticks / (double)s->ref_adds);
}

/* The unshared ratio: 3 on x86, known a priori; elsewhere the ratio of the
   fastest of a few chains of each kind (interruptions only add time). */
CHRONO__PRIVATE double chrono__port_expect(const chrono_session *s)
{
    uint64_t m = UINT64_MAX, a = UINT64_MAX;
    int i;
#if defined(CHRONO__X86)
    if (s->has_cycles) return 3.0;
#endif
    if (!s->has_cycles) return NAN;
    for (i = 0; i < 9; i++) {
        uint64_t tm = chrono__mul_ticks(s), ta = chrono__ref_ticks(s);
        if (tm && tm < m) m = tm;
        if (ta && ta < a) a = ta;
    }
    return m == UINT64_MAX || a == UINT64_MAX ? NAN : chrono__port_ratio(s, m, a);
}

/* Whether a port reading is within tolerance of the unshared ratio (NAN: no
   reading, not contended). */
CHRONO__PRIVATE int chrono__port_ok(const chrono_session *s, double port)
{
    double tol = CHRONO__PORT_SHARE * s->cfg.contention_tolerance;
    if (!chrono__fe_on(s) || !(port == port) || !(s->port_expect > 0)) return 1;
    return fabs(port / s->port_expect - 1.0) <= tol;
}

/* Ticks of the probe, twice, the faster: the first may pay for caches and
   predictors the sample evicted.  0 when the clock could not be read. */
CHRONO__PRIVATE uint64_t chrono__fe_ticks(const chrono_session *s)
{
    uint64_t best = UINT64_MAX;
    int k;
    for (k = 0; k < 2; k++) {
        uint64_t t0 = chrono_clock_start(&s->clock), t1;
        chrono__fe_loop(CHRONO__FE_CALLS);
        t1 = chrono_clock_stop(&s->clock);
        if (t1 > t0 && t1 - t0 < best) best = t1 - t0;
    }
    return best == UINT64_MAX ? 0 : best;
}


/* The fixed cost of a timed reference chain (clock reads, call, loop entry),
   from chains of N and 2N adds measured alternately: 2 t(N) - t(2N).  The
   clock's empty-region overhead is not the same thing: its reads overlap the
   chain.  The interquartile means see through this TSC's 21-tick steps. */
CHRONO__PRIVATE double chrono__ref_fixed(const chrono_session *s)
{
    enum { K = 32 };
    double one[K], two[K], fixed;
    int i;
    for (i = 0; i < K; i++) {
        one[i] = (double)chrono__ref_raw(s, s->ref_adds);
        two[i] = (double)chrono__ref_raw(s, 2 * s->ref_adds);
    }
    fixed = 2 * chrono__interquartile_mean(one, K) - chrono__interquartile_mean(two, K);
    return fixed > 0 ? fixed : 0;
}

/* The core clock now, from a few reference chains (the minimum: interruptions only add time). */
CHRONO__PRIVATE double chrono__core_ghz(const chrono_session *s)
{
    uint64_t best = UINT64_MAX;
    int i;
    for (i = 0; i < 9; i++) {
        uint64_t t = chrono__ref_ticks(s);
        if (t && t < best) best = t;
    }
    if (best == UINT64_MAX) return NAN;
    return (double)s->ref_adds / chrono_clock_ns(&s->clock, best);
}

/* Grow an array of elements of `size` bytes to hold at least `need`. */
CHRONO__PRIVATE int chrono__grow(void **arr, size_t *cap, size_t need, size_t size)
{
    size_t ncap;
    void *p;
    if (need <= *cap) return 0;
    ncap = *cap ? *cap * 2 : 8;
    while (ncap < need) ncap *= 2;
    p = CHRONO_MALLOC(ncap * size);
    if (!p) return CHRONO_ENOMEM;
    if (*arr) { memcpy(p, *arr, *cap * size); CHRONO_FREE(*arr); }
    *arr = p;
    *cap = ncap;
    return 0;
}

/* ---- one run ------------------------------------------------------------------- */

/* The columns laid over block: CHRONO__NCOLUMNS arrays of cap doubles each. */
CHRONO__PRIVATE chrono__columns chrono__columns_over(double *block, size_t cap)
{
    chrono__columns c;
    int i;
    c.ns = block; c.ticks = block + cap; c.cycles = block + 2 * cap;
    c.ghz = block + 3 * cap; c.fe = block + 4 * cap; c.scratch = block + 5 * cap;
    c.port = block + 6 * cap; c.ctl = block + 7 * cap;
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++) c.cnt[i] = block + (8 + (size_t)i) * cap;
    return c;
}

/* Row `from` of the counter columns of a into row `to` of b (NULL columns: none). */
CHRONO__PRIVATE void chrono__cnt_move(chrono__columns *b, size_t to, const chrono__columns *a,
                                      size_t from)
{
    int i;
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++)
        if (a->cnt[i] && b->cnt[i]) b->cnt[i][to] = a->cnt[i][from];
}

/* A sample's counts per iteration into row k. */
CHRONO__PRIVATE void chrono__cnt_row(const chrono__sample *sm, uint64_t iters, chrono__columns *col,
                                     size_t k)
{
    int i;
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++) col->cnt[i][k] = sm->cnt[i] / (double)iters;
}

/* The first n rows of every measured column of from into to (not scratch). */
CHRONO__PRIVATE void chrono__columns_copy(chrono__columns *to, const chrono__columns *from,
                                          size_t n)
{
    int i;
    memcpy(to->ns, from->ns, n * sizeof(double));
    memcpy(to->ticks, from->ticks, n * sizeof(double));
    memcpy(to->cycles, from->cycles, n * sizeof(double));
    memcpy(to->ghz, from->ghz, n * sizeof(double));
    memcpy(to->fe, from->fe, n * sizeof(double));
    memcpy(to->port, from->port, n * sizeof(double));
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++) memcpy(to->cnt[i], from->cnt[i], n * sizeof(double));
}


/* Ticks now, for budgets (not serialized: not a measurement). */
CHRONO__PRIVATE uint64_t chrono__now(const chrono_session *s)
{
    return chrono_clock_read(&s->clock);
}

CHRONO__PRIVATE double chrono__elapsed_ms(const chrono_session *s, uint64_t since)
{
    uint64_t now = chrono__now(s);
    return now > since ? chrono_clock_ns(&s->clock, now - since) / 1e6 : 0.0;
}

/* A sample of at least this many ms is long: a switch is expected in it on
   a busy machine, and its thread's CPU time is read around it (a system
   call of ~1 us: 0.2% of such a sample) to tell a brief switch from a long one. */
#define CHRONO__LONG_SAMPLE_MS 0.5
/* A long sample switched out keeps its place when the time off the CPU is
   within this share of it: the timer interrupts and brief switches that
   its length implies, not a stretch another program ran in. */
#define CHRONO__BRIEF_SWITCH 0.005

/* Whether the switches in a sample that began at w0 kept it off the CPU
   briefly: cpu_ns, the thread's CPU time over it (NAN: not read). */
CHRONO__PRIVATE int chrono__switch_brief(const chrono_session *s, double cpu_ns, uint64_t w0)
{
    double wall = chrono__elapsed_ms(s, w0) * 1e6;
    return cpu_ns == cpu_ns && wall > 0 && wall - cpu_ns <= CHRONO__BRIEF_SWITCH * wall;
}

/* One sample of fn(ctx, iters), bracketed by the reference chains and the
   probes; long (CHRONO__LONG_SAMPLE_MS expected): a switch in it rejects it
   only when it kept the thread off the CPU for long.  The thread's CPU time
   is read around a long sample, and around a blocking body's (its CPU
   figures: chrono__cpu_of). */
CHRONO__PRIVATE void chrono__take_sample(const chrono_session *s, chrono_fn fn, void *ctx,
                                         uint64_t iters, int long_sample, chrono__sample *out)
{
    uint64_t r0 = 0, r1 = 0, f0 = 0, f1 = 0, m1 = 0, t0, t1,
             w0 = long_sample ? chrono__now(s) : 0; /* read only where used */
    chrono_counter_read k0, k1;
    int counted = (s->cfg.counters & s->counters.open) != 0;
    long (*switches)(void) = s->cfg.blocking ? chrono_cpu_switches_involuntary
                                             : chrono_cpu_switches;
    double c0 = long_sample || s->cfg.blocking ? chrono_cpu_thread_ns() : NAN;
    long sw0 = switches(), sw1;
    int cpu0 = chrono_cpu_current(), cpu1;
    if (chrono__fe_on(s)) f0 = chrono__fe_ticks(s);
    if (s->has_cycles) r0 = chrono__ref_ticks(s);
    if (counted) (void)chrono_counters_read(&s->counters, &k0);   /* bracketed like the clock */
    t0 = chrono_clock_start(&s->clock);
    fn(ctx, iters);
    t1 = chrono_clock_stop(&s->clock);
    if (counted) (void)chrono_counters_read(&s->counters, &k1);
    if (s->has_cycles) r1 = chrono__ref_ticks(s);
    if (chrono__fe_on(s)) m1 = chrono__mul_ticks(s);   /* beside r1: the port probe */
    if (chrono__fe_on(s)) f1 = chrono__fe_ticks(s);
    cpu1 = chrono_cpu_current();
    sw1 = switches();
    out->cpu_ns = c0 == c0 ? chrono_cpu_thread_ns() - c0 : NAN;

    out->cpu = cpu1;
    if (!counted || chrono_counters_delta(&s->counters, &k0, &k1, out->cnt) < 0) {
        int i;
        for (i = 0; i < CHRONO_COUNTER_COUNT; i++) out->cnt[i] = NAN;
    }
    out->cycles_per_tick = 0;
    out->ghz = NAN;
    out->fe = NAN;
    out->port = NAN;
    /* the time, whatever else happened: an interrupted sample may still serve
       (chrono__record_soft) */
    out->ticks = 0;
    if (t1 >= t0)
        out->ticks = t1 - t0 > s->clock.overhead_ticks ? t1 - t0 - s->clock.overhead_ticks : 0;
    if (cpu0 != cpu1) { out->status = CHRONO__REJECTED(migrated); return; }
    if (sw0 != sw1 && !(long_sample && chrono__switch_brief(s, out->cpu_ns, w0))) {
        out->status = CHRONO__REJECTED(preempted);
        return;
    }
    if (t1 < t0) { out->status = CHRONO__REJECTED(backwards); return; }
    out->status = CHRONO__OK;
    if (s->has_cycles) {
        double lo = (double)(r0 < r1 ? r0 : r1), hi = (double)(r0 < r1 ? r1 : r0);
        if (lo <= 0 || hi / lo - 1.0 > s->cfg.ref_tolerance) {
            out->status = CHRONO__REJECTED(ref_rejected);
            return;
        }
        out->cycles_per_tick = 2.0 * (double)s->ref_adds / (lo + hi);
        out->ghz = out->cycles_per_tick / s->clock.ns_per_tick;
        if (f0 && f1)   /* both probes ran and read */
            out->fe = (double)(f0 > f1 ? f0 : f1) * out->cycles_per_tick / CHRONO__FE_CALLS;
        out->port = chrono__port_ratio(s, m1, r1);
    }
}

/* Ticks one call of fn(ctx, iters) takes (serialized, overhead subtracted). */
CHRONO__PRIVATE uint64_t chrono__time_once(const chrono_session *s, chrono_fn fn, void *ctx,
                                           uint64_t iters)
{
    uint64_t t0 = chrono_clock_start(&s->clock), t1;
    fn(ctx, iters);
    t1 = chrono_clock_stop(&s->clock);
    return t1 > t0 + s->clock.overhead_ticks ? t1 - t0 - s->clock.overhead_ticks : 0;
}

/* The shortest sample, in ticks: 1000x the clock's overhead and resolution,
   and at least min_sample_us. */
CHRONO__PRIVATE uint64_t chrono__target_ticks(const chrono_session *s)
{
    double t = s->cfg.min_sample_us * 1e-6 * s->clock.hz;
    double floor_ticks = 1000.0 * (double)(s->clock.overhead_ticks > s->clock.resolution_ticks
                                               ? s->clock.overhead_ticks
                                               : s->clock.resolution_ticks);
    if (t < floor_ticks) t = floor_ticks;
    return (uint64_t)t;
}

#define CHRONO__ITERS_MAX ((uint64_t)1 << 40)

/* A batch past the target that took less than this is timed again before it
   is kept (chrono__size_batch). */
#define CHRONO__RETIME_MS 10.0

/* Iterations per sample, from `iters` up: grow until one sample reaches the
   target.  A batch that reaches it is timed once more and kept only if it
   does again: a first call paying for page faults, cold caches or a host
   stall must not pass for a slow body (the first call of a one-add loop once
   read 4x a 20 us target: kept at once, it made the run time one add a
   sample, a median of 0 ns).  Only one of CHRONO__RETIME_MS or more is kept
   at once (a long body is not run twice for a count that cannot shrink
   below one).  A body that takes longer than the target gets a batch of one;
   one the timer cannot see grows (at most x100 a step) to 2^40.  *ticks:
   what the batch kept took (the shorter of its two timings). */
CHRONO__PRIVATE uint64_t chrono__size_batch(const chrono_session *s, chrono_fn fn, void *ctx,
                                            uint64_t iters, uint64_t since, double budget_ms,
                                            uint64_t *ticks)
{
    uint64_t target = chrono__target_ticks(s);
    for (;;) {
        uint64_t t = chrono__time_once(s, fn, ctx, iters), grow;
        if (t == 0) t = chrono__time_once(s, fn, ctx, iters);   /* a clock step back reads as 0 */
        *ticks = t;
        if (t >= target && chrono_clock_ns(&s->clock, t) < CHRONO__RETIME_MS * 1e6) {
            uint64_t again = chrono__time_once(s, fn, ctx, iters);
            if (again >= target) {
                if (again < t) *ticks = again;
                return iters;
            }
            *ticks = t = again;
        }
        if (t >= target || iters >= CHRONO__ITERS_MAX || chrono__elapsed_ms(s, since) > budget_ms)
            return iters;
        /* Aim 20% past the target from what this batch took. */
        grow = t > 0 ? (uint64_t)((double)iters * 1.2 * (double)target / (double)t) + 1
                     : iters * 100;
        if (grow > iters * 100) grow = iters * 100;
        if (grow <= iters) grow = iters + 1;
        iters = grow < CHRONO__ITERS_MAX ? grow : CHRONO__ITERS_MAX;
    }
}

/* Warm up fn for warmup_ms in five windows, then on (up to 20 windows, 4x)
   until the fastest samples of two successive windows agree within 2%.
   Windows are counted rather than the total time, so a clock that jumps
   back cannot keep it going.  A body whose one call outlasts warmup_ms
   (a compile of seconds) has warmed itself in that call.  Returns the ms spent. */
CHRONO__PRIVATE double chrono__warmup(const chrono_session *s, chrono_fn fn, void *ctx,
                                      uint64_t iters, double warmup_ms)
{
    uint64_t start = chrono__now(s);
    double window_ms = warmup_ms / 5, prev = 0;
    int w;
    for (w = 1; w <= 20; w++) {
        uint64_t wstart = chrono__now(s), best = UINT64_MAX;
        do {
            uint64_t t = chrono__time_once(s, fn, ctx, iters);
            if (t < best) best = t;
        } while (chrono__elapsed_ms(s, wstart) < window_ms);
        if (w == 1 && chrono__elapsed_ms(s, start) >= warmup_ms) break;
        if (w >= 5 && prev > 0 && fabs((double)best / prev - 1.0) < 0.02) break;
        if (chrono__elapsed_ms(s, start) >= s->cfg.max_ms / 2) break;
        prev = (double)best;
    }
    return chrono__elapsed_ms(s, start);
}

/* One more whole sample in r's all_* figures: a running mean, and the sum of
   squared deviations in all_ns_stddev until chrono__all_finish. */
CHRONO__PRIVATE void chrono__all_add(chrono_result *r, double ns)
{
    double d = ns - r->all_ns_mean;
    r->all_n++;
    r->all_ns_mean += d / (double)r->all_n;
    r->all_ns_stddev += d * (ns - r->all_ns_mean);
}

CHRONO__PRIVATE void chrono__all_finish(chrono_result *r)
{
    if (r->all_n == 0) r->all_ns_mean = r->all_ns_stddev = NAN;
    else r->all_ns_stddev = r->all_n > 1 ? sqrt(r->all_ns_stddev / (double)(r->all_n - 1)) : NAN;
}

/* Accept or count one sample into the columns at index *n. */
CHRONO__PRIVATE void chrono__record(const chrono__sample *sm, uint64_t iters,
                                    const chrono_clock *clk, chrono__columns *col, size_t *n,
                                    chrono_result *r)
{
    r->samples_taken++;
    r->iters_taken += iters;
    if (sm->status != CHRONO__REJECTED(migrated) && sm->status != CHRONO__REJECTED(backwards))
        chrono__all_add(r, (double)sm->ticks / (double)iters * clk->ns_per_tick);
#define CHRONO__REJECTION_COUNT(field, words, key) \
    if (sm->status == CHRONO__REJECTED(field)) { \
        r->field++; \
        return; \
    }
    CHRONO__REJECTIONS(CHRONO__REJECTION_COUNT)
#undef CHRONO__REJECTION_COUNT
    col->ticks[*n] = (double)sm->ticks / (double)iters;
    col->ns[*n] = col->ticks[*n] * clk->ns_per_tick;
    col->cycles[*n] = sm->cycles_per_tick > 0 ? col->ticks[*n] * sm->cycles_per_tick : NAN;
    col->ghz[*n] = sm->ghz;
    col->fe[*n] = sm->fe;
    col->port[*n] = sm->port;
    chrono__cnt_row(sm, iters, col, *n);
    r->cpu = sm->cpu;
    (*n)++;
}

/* A sample rejected for an interruption that only adds time (the thread was
   switched out, the core clock changed): kept apart, at the top of the
   columns (accepted rows fill them from the bottom: the two never meet), in
   case no sample of the run is accepted. */
CHRONO__PRIVATE int chrono__soft(const chrono__sample *sm)
{
    return sm->status == CHRONO__OK || sm->status == CHRONO__REJECTED(preempted) ||
           sm->status == CHRONO__REJECTED(ref_rejected);
}

/* Row k of col from a sample, whatever its status. */
CHRONO__PRIVATE void chrono__soft_row(const chrono__sample *sm, uint64_t iters,
                                      const chrono_clock *clk, chrono__columns *col, size_t k)
{
    col->ticks[k] = (double)sm->ticks / (double)iters;
    col->ns[k] = col->ticks[k] * clk->ns_per_tick;
    /* NAN: the refs disagreed */
    col->cycles[k] = sm->cycles_per_tick > 0 ? col->ticks[k] * sm->cycles_per_tick : NAN;
    col->ghz[k] = sm->cycles_per_tick > 0 ? sm->ghz : NAN;
    col->fe[k] = col->port[k] = NAN;
    chrono__cnt_row(sm, iters, col, k);
}

/* No sample accepted, some only interrupted: rather than no figure, those,
   moved to the bottom rows, with CHRONO_WARN_INTERRUPTED on the run. */
CHRONO__PRIVATE size_t chrono__use_soft(chrono__columns *col, size_t cap, size_t soft,
                                        chrono_result *r)
{
    size_t i;
    for (i = 0; i < soft; i++) {
        size_t k = cap - 1 - i;
        col->ticks[i] = col->ticks[k]; col->ns[i] = col->ns[k]; col->cycles[i] = col->cycles[k];
        col->ghz[i] = col->ghz[k]; col->fe[i] = col->fe[k]; col->port[i] = col->port[k];
        chrono__cnt_move(col, i, col, k);
    }
    if (soft) r->warnings |= CHRONO_WARN_INTERRUPTED;
    return soft;
}

/* The counters' statistics per iteration, for those the run asked for that
   counted every kept sample; IPC; the PMU's cycles against the reference
   chains' estimate (more than 1% apart: CHRONO_WARN_CYCLES_DISAGREE). */
CHRONO__PRIVATE void chrono__summarise_counters(const chrono_session *s, chrono__columns *col,
                                                size_t n, chrono_result *r)
{
    int i;
    const chrono_stats *ins = &r->counter[CHRONO_COUNTER_INSTRUCTIONS],
                       *cyc = &r->counter[CHRONO_COUNTER_CYCLES];
    r->counters = 0;
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++) {
        if (!(s->cfg.counters & s->counters.open & CHRONO_COUNTER_BIT(i)) ||
            !chrono__all_finite(col->cnt[i], n))
            continue;
        if (chrono_stats_compute(col->cnt[i], n, s->cfg.confidence, col->scratch,
                                 &r->counter[i]) == 0)
            r->counters |= CHRONO_COUNTER_BIT(i);
    }
    if ((r->counters & CHRONO_COUNTER_BIT(CHRONO_COUNTER_INSTRUCTIONS)) &&
        (r->counters & CHRONO_COUNTER_BIT(CHRONO_COUNTER_CYCLES)) && cyc->median > 0)
        r->ipc = ins->median / cyc->median;
    if ((r->counters & CHRONO_COUNTER_BIT(CHRONO_COUNTER_CYCLES)) && r->has_cycles &&
        r->cycles.median > 0 && fabs(cyc->median / r->cycles.median - 1.0) > 0.01)
        r->warnings |= CHRONO_WARN_CYCLES_DISAGREE;
}

/* Statistics of the accepted samples into r. */
CHRONO__PRIVATE int chrono__summarise(const chrono_session *s, chrono__columns *col, size_t n,
                                      chrono_result *r)
{
    double conf = s->cfg.confidence;
    chrono_stats ghz;
    int rc;
    r->samples = n;
    chrono__all_finish(r);
    /* cycles where every kept sample has them (interrupted ones may not) */
    r->has_cycles = s->has_cycles && n && chrono__all_finite(col->cycles, n) &&
                    chrono__all_finite(col->ghz, n);
    r->core_ghz = NAN;
    chrono__stats_nan(&r->cycles, n);
    if (n == 0) {
        chrono__stats_nan(&r->ns, 0);
        chrono__stats_nan(&r->ticks, 0);
        return CHRONO_ENOSAMPLES;
    }
    rc = chrono_stats_compute(col->ns, n, conf, col->scratch, &r->ns);
    if (rc == 0) rc = chrono_stats_compute(col->ticks, n, conf, col->scratch, &r->ticks);
    if (rc == 0 && r->has_cycles) {
        rc = chrono_stats_compute(col->cycles, n, conf, col->scratch, &r->cycles);
        if (rc == 0) rc = chrono_stats_compute(col->ghz, n, conf, col->scratch, &ghz);
        if (rc == 0) r->core_ghz = ghz.median;
    }
    if (rc < 0) return rc;
    r->hist_lo = r->ns.min;   /* the sketch: min .. q3 + 3 IQR */
    r->hist_hi = chrono__sketch_top(&r->ns);
    chrono_stats_histogram(col->ns, n, r->hist_lo, r->hist_hi, r->hist, CHRONO_HIST_BINS);
    /* the probes' CPU time is not the body's */
    if (r->cpu_ns_per_iter > r->ns.median) r->cpu_ns_per_iter = r->ns.median;
    chrono__summarise_counters(s, col, n, r);
    if (chrono_stats_level_short(r->ns.ci_level, conf)) r->warnings |= CHRONO_WARN_LOW_LEVEL;
    return 0;
}

CHRONO__PRIVATE int chrono__check_session(const chrono_session *s)
{
    return s && s->is_open ? 0 : CHRONO_EINVAL;
}

/* Most samples a run may take: rejected ones are replaced, up to 2 for each
   sample wanted, and contended ones many times over (a spell of contention
   lasts from milliseconds to seconds; time, not this, bounds the wait). */
CHRONO__PRIVATE size_t chrono__attempts(const chrono_session *s)
{
    size_t want = (size_t)s->cfg.samples, extra = want * 100 < 100000 ? want * 100 : 100000;
    return want * 3 + (chrono__fe_on(s) ? extra : 0);
}

/* Whether a run takes another sample, given how many it took, accepted and
   found quiet so far.  It stops at .samples quiet ones; after 2 rejected
   ones for each wanted; at max_ms (truncated); and once .samples are accepted
   but some were contended, waiting for quiet ones stops at max_ms / 8 (250
   ms by default: a default run stays under half a second). */
CHRONO__PRIVATE int chrono__more_samples(const chrono_session *s, uint64_t start, size_t taken,
                                         size_t accepted, size_t quiet, int *truncated)
{
    size_t want = (size_t)s->cfg.samples;
    double ms;
    if (quiet >= want || taken >= chrono__attempts(s) || taken - accepted >= 2 * want) return 0;
    if (accepted == 0) return 1;
    ms = chrono__elapsed_ms(s, start);
    if (accepted >= want) return ms < s->cfg.max_ms / 8;
    if (ms >= s->cfg.max_ms) { *truncated = 1; return 0; }
    return 1;
}

/* ---- contention: the front-end probe's verdicts ------------------------------------ */
/* Above this probe reading a sample is contended. */
CHRONO__PRIVATE double chrono__fe_limit(const chrono_session *s)
{
    return chrono__fe_on(s) ? s->fe_best * (1.0 + s->cfg.contention_tolerance) : INFINITY;
}

CHRONO__PRIVATE int chrono__is_quiet(const chrono_session *s, double fe_a, double fe_b)
{
    double lim = chrono__fe_limit(s);
    return !(fe_a > lim) && !(fe_b > lim);   /* NAN: no reading, not contended */
}

/* Row i of a run (both sides of a pair) quiet by both probes; port arrays may be NULL. */
CHRONO__PRIVATE int chrono__row_quiet(const chrono_session *s, const double *fe_a,
                                      const double *fe_b, const double *port_a,
                                      const double *port_b, size_t i)
{
    return chrono__is_quiet(s, fe_a[i], fe_b ? fe_b[i] : NAN) &&
           (!port_a || chrono__port_ok(s, port_a[i])) && (!port_b || chrono__port_ok(s, port_b[i]));
}

/* Fold the reading of the last accepted row (index n-1; both sides for a
   pair) into the session's best, and return how many of the n rows are quiet
   now (by both probes; port_a, port_b may be NULL).  A lower best turns
   earlier rows contended: recount then (rarely). */
CHRONO__PRIVATE size_t chrono__note_fe(chrono_session *s, const double *fe_a, const double *fe_b,
                                       const double *port_a, const double *port_b, size_t n,
                                       size_t quiet_before)
{
    double lo = fe_a[n - 1];
    size_t i, quiet = 0;
    if (fe_b && fe_b[n - 1] < lo) lo = fe_b[n - 1];
    if (!(lo < s->fe_best))
        return quiet_before + (size_t)chrono__row_quiet(s, fe_a, fe_b, port_a, port_b, n - 1);
    s->fe_best = lo;
    for (i = 0; i < n; i++) quiet += (size_t)chrono__row_quiet(s, fe_a, fe_b, port_a, port_b, i);
    return quiet;
}

CHRONO__PRIVATE void chrono__columns_move(chrono__columns *c, size_t to, size_t from)
{
    c->ns[to] = c->ns[from]; c->ticks[to] = c->ticks[from]; c->cycles[to] = c->cycles[from];
    c->ghz[to] = c->ghz[from]; c->fe[to] = c->fe[from];
    if (c->port) c->port[to] = c->port[from];
    chrono__cnt_move(c, to, c, from);
}

/* Count a contended side: the front end first, else the ports. */
CHRONO__PRIVATE void chrono__count_contended(const chrono_session *s, const chrono__columns *c,
                                             size_t i, chrono_result *r)
{
    if (!chrono__is_quiet(s, c->fe[i], NAN)) r->contended++;
    else if (c->port && !chrono__port_ok(s, c->port[i])) r->port_contended++;
}

/* Quiet rows enough to stand on their own: their median's interval from
   order statistics reaches 95% (ranks 2 and 9 of 10 cover 97.9%). */
#define CHRONO__QUIET_ENOUGH 10

/* Drop the contended rows of the n accepted ones (a row of a pair goes when
   either side was contended by either probe), count them per side and cause,
   and return how many stay.  When fewer than a quarter of the samples wanted
   are quiet, and fewer than CHRONO__QUIET_ENOUGH, the core was shared for
   most of the run: the first .samples rows stay, contended or not, and the
   run warns instead (SHARED_CORE; CONTENDED too when the front-end probe saw
   at least as many of them as the ports').  (Measured on a 2-vCPU guest with
   the other vCPU busy: runs of 1000 adds with 15-24 quiet samples of ~1000
   read 1000 cycles from those and 1110-1165 from the first 101 rows.) */
CHRONO__PRIVATE size_t chrono__drop_contended(chrono_session *s, chrono__columns *a,
                                              chrono_result *ra, chrono__columns *b,
                                              chrono_result *rb, size_t n, size_t quiet)
{
    size_t i, k = 0, fe_busy = 0, port_busy = 0, want = (size_t)s->cfg.samples;
    int most_contended = quiet * 4 < want && quiet < CHRONO__QUIET_ENOUGH;
    if (!chrono__fe_on(s) || quiet == n) return n;
    for (i = 0; i < n; i++) {
        int qa = chrono__row_quiet(s, a->fe, NULL, a->port, NULL, i);
        int qb = !b || chrono__row_quiet(s, b->fe, NULL, b->port, NULL, i);
        int fe_quiet = chrono__is_quiet(s, a->fe[i], b ? b->fe[i] : NAN);
        fe_busy += (size_t)!fe_quiet;
        port_busy += (size_t)(fe_quiet && !(qa && qb));
        if (most_contended ? k < want : qa && qb) {
            chrono__columns_move(a, k, i);
            if (b) chrono__columns_move(b, k, i);
            k++;
        } else {
            if (!qa) chrono__count_contended(s, a, i, ra);
            if (b && !qb) chrono__count_contended(s, b, i, rb);
        }
    }
    if (most_contended) {
        unsigned w = (unsigned)CHRONO_WARN_SHARED_CORE |
                     (fe_busy >= port_busy ? (unsigned)CHRONO_WARN_CONTENDED : 0u);
        ra->warnings |= w;
        if (rb) rb->warnings |= w;
        s->warnings |= w;
    }
    return k;
}

CHRONO__PRIVATE void chrono__result_init(chrono_result *r, const char *name, uint64_t iters)
{
    int i;
    memset(r, 0, sizeof *r);
    strcpy(r->name, name);
    r->iters_per_sample = iters;
    r->cpu = -1;
    chrono__stats_nan(&r->ns, 0);
    chrono__stats_nan(&r->ticks, 0);
    chrono__stats_nan(&r->cycles, 0);
    r->core_ghz = r->hist_lo = r->hist_hi = NAN;
    r->faults_minor_per_iter = r->faults_major_per_iter = r->max_rss_growth_bytes = NAN;
    r->allocs_per_iter = r->alloc_bytes_per_iter = NAN;
    r->processes = 1;
    r->process_min_ns = r->process_max_ns = NAN;
    r->cpu_share = r->cpu_ns_per_iter = NAN;
    r->control_reading = NAN;
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++) chrono__stats_nan(&r->counter[i], 0);
    r->ipc = NAN;
}


CHRONO__PRIVATE void chrono__cpu_start(const chrono_session *s, chrono__cpu_span *sp)
{
    sp->cpu0 = chrono_cpu_thread_ns();
    sp->t0 = chrono__now(s);
}

CHRONO__PRIVATE void chrono__cpu_stop(const chrono_session *s, chrono__cpu_span *sp)
{
    uint64_t t1 = chrono__now(s);
    sp->cpu_ns += chrono_cpu_thread_ns() - sp->cpu0;   /* NAN stays NAN */
    sp->wall_ns += chrono_clock_ns(&s->clock, t1 - sp->t0);
}

/* A sample's CPU time and length into the span's sums over the samples. */
CHRONO__PRIVATE void chrono__cpu_sample(const chrono_session *s, chrono__cpu_span *sp,
                                        const chrono__sample *sm)
{
    sp->samples_cpu_ns += sm->cpu_ns;   /* NAN stays NAN */
    sp->samples_wall_ns += chrono_clock_ns(&s->clock, sm->ticks);
}

/* The CPU time and time elapsed the figures are of: a blocking body's, its
   samples' own; any other's, the span's.  Between the samples of a 50 us
   sleep the engine's own work is a share of the span as large as the
   body's, and a one-off cost there (~1 ms of CPU once, on a busy host) read
   as 100 us of CPU time an iteration beside the sleep's own 10-25 us. */
CHRONO__PRIVATE void chrono__cpu_of(const chrono_session *s, const chrono__cpu_span *sp,
                                    double *cpu_ns, double *wall_ns)
{
    int samples = s->cfg.blocking && sp->samples_cpu_ns >= 0 && sp->samples_wall_ns > 0;
    *cpu_ns = samples ? sp->samples_cpu_ns : sp->cpu_ns;
    *wall_ns = samples ? sp->samples_wall_ns : sp->wall_ns;
}

/* CPU time per iteration over `iters` iterations taken in the span; NAN unknown. */
CHRONO__PRIVATE double chrono__cpu_per_iter(const chrono_session *s, const chrono__cpu_span *sp,
                                            double iters)
{
    double cpu, wall;
    chrono__cpu_of(s, sp, &cpu, &wall);
    return iters > 0 && cpu >= 0 ? cpu / iters : NAN;
}

/* At most 1: one thread is on a CPU no longer than the time elapses (the OS's
   CPU clock and the session's read a busy run 0.2-0.5% apart here). */
CHRONO__PRIVATE double chrono__cpu_share(const chrono_session *s, const chrono__cpu_span *sp)
{
    double cpu, wall, f;
    chrono__cpu_of(s, sp, &cpu, &wall);
    f = wall > 0 && cpu >= 0 ? cpu / wall : NAN;
    return f > 1 ? 1 : f;
}

/* ---- memory figures ------------------------------------------------------------------ */
#if CHRONO__OS_POSIX && !CHRONO__OS_LINUX
#  include <sys/resource.h>
#endif

/* Page faults so far (this thread's where the OS says) and the peak RSS in bytes. */
CHRONO__PRIVATE chrono__mem chrono__mem_read(void)
{
    chrono__mem m;
    m.minor = m.major = m.rss = NAN; m.ok = 0;
#if CHRONO__OS_LINUX || CHRONO__OS_POSIX
    {
        struct rusage u;
#  if CHRONO__OS_LINUX
        if (getrusage(RUSAGE_THREAD, &u) == 0) {
            m.minor = (double)u.ru_minflt;
            m.major = (double)u.ru_majflt;
            m.ok = 1;
        }
        /* KiB on Linux */
        if (getrusage(RUSAGE_SELF, &u) == 0) m.rss = (double)u.ru_maxrss * 1024.0;
#  else
        if (getrusage(RUSAGE_SELF, &u) == 0) {
            m.minor = (double)u.ru_minflt; m.major = (double)u.ru_majflt; m.ok = 1;
#    if defined(__APPLE__)
            m.rss = (double)u.ru_maxrss;            /* bytes on macOS */
#    else
            m.rss = (double)u.ru_maxrss * 1024.0;   /* KiB on the BSDs */
#    endif
        }
#  endif
    }
#endif
    return m;
}

/* No page faults counted yet: the start of a sum for chrono__mem_since. */
#define CHRONO__MEM_NONE { 0, 0, 0, 1 }

/* Add the page faults since m0 to *sum (sum->ok drops to 0 when a read fails). */
CHRONO__PRIVATE void chrono__mem_since(const chrono__mem *m0, chrono__mem *sum)
{
    chrono__mem m1 = chrono__mem_read();
    if (!m0->ok || !m1.ok) { sum->ok = 0; return; }
    sum->minor += m1.minor - m0->minor;
    sum->major += m1.major - m0->major;
}

/* Faults per iteration from the samples' summed faults, over `iters` iterations. */
CHRONO__PRIVATE void chrono__mem_faults(const chrono__mem *sum, double iters, chrono_result *r)
{
    if (!sum->ok || !(iters > 0)) return;
    r->faults_minor_per_iter = sum->minor / iters;
    r->faults_major_per_iter = sum->major / iters;
}


/* A session-owned copy of v[0..n) (for the plots), made after the samples:
   *dst is NULL when n is 0 or memory ran out (the plots then do without). */
CHRONO__PRIVATE void chrono__keep_samples(chrono_session *s, const double *v, size_t n,
                                          const double **dst, size_t *ndst)
{
    double *p;
    *dst = NULL; *ndst = 0;
    if (n == 0 || chrono__grow((void **)&s->kept, &s->cap_kept, s->nkept + 1, sizeof *s->kept) < 0)
        return;
    if (!(p = (double *)CHRONO_MALLOC(n * sizeof *p))) return;
    memcpy(p, v, n * sizeof *p);
    s->kept[s->nkept++] = p;
    *dst = p; *ndst = n;
}

/* Keep a copy of r in the session for the reports. */
CHRONO__PRIVATE int chrono__keep_result(chrono_session *s, const chrono_result *r)
{
    int rc = chrono__grow((void **)&s->results, &s->cap_results, s->nresults + 1, sizeof *r);
    if (rc < 0) return rc;
    s->results[s->nresults++] = *r;
    return 0;
}



/* ---- controls: chains of known length between a run's samples ----------------------- */
/* A sample can read slow while every probe around it reads normal: the host
   takes the core for tens of microseconds at a time, in spells (measured on a
   2-vCPU guest with the other vCPU busy: 7-40% of 60 us stretches read 15-35%
   slow, refs and probes around them untouched; when more than half of a run's
   samples were hit its median read 1000 adds as 1115-1284 cycles, unflagged).
   So the runner takes a control between the samples: a reference chain as
   long as one sample (at most CHRONO__CONTROL_MAX_US), timed like a sample,
   whose truth is known (one core cycle an add).  A control is hit exactly as
   often as a sample of its length, whatever the body does, so the controls
   say whether the run's median can hold. */
#define CHRONO__CONTROL_EVERY 4          /* a control after every 4th sample */
#define CHRONO__CONTROL_MAX_US 1000.0    /* the longest control */
#define CHRONO__CONTROL_SHARE 0.10       /* with longer samples, controls take at most this share */
#define CHRONO__CONTROL_QUANTILE 0.6     /* the run warns when more than 40% of the controls read
                                            slow */
#define CHRONO__CONTROL_MIN 5            /* fewer controls decide nothing */


CHRONO__PRIVATE void chrono__control_body(void *ctx, uint64_t adds)
{
    (void)ctx;
    chrono__ref_chain((uintptr_t)adds);
}

/* Size the controls from the first accepted sample sm (its timed part: a
   run with a setup per call times only the calls): as long as it, up to
   CHRONO__CONTROL_MAX_US, and rarer when samples are longer than that, so
   that controls cost at most CHRONO__CONTROL_SHARE; and no more than twice
   the .samples call for (a run on a shared core may take many more samples
   while it waits for quiet ones: its controls would cost it 14% more time). */
CHRONO__PRIVATE void chrono__controls_size(const chrono_session *s, const chrono__sample *sm,
                                           chrono__controls *c)
{
    double cycles = (double)sm->ticks * sm->cycles_per_tick,
           most = CHRONO__CONTROL_MAX_US * 1e3 * sm->ghz, adds;
    if (c->adds || !chrono__fe_on(s) || !(cycles > 0) || !(most > 0)) return;
    adds = cycles < most ? cycles : most;
    if (adds < (double)s->ref_adds) adds = (double)s->ref_adds;
    c->adds = (uint64_t)adds / 16 * 16;
    c->sample_cycles = cycles;
    c->every = CHRONO__CONTROL_EVERY;
    if (cycles > adds * 1.5) {
        double every = ceil(adds / (CHRONO__CONTROL_SHARE * cycles));
        if (every > (double)c->every) c->every = (size_t)every;
    }
    c->most = 2 * (size_t)s->cfg.samples / c->every + CHRONO__CONTROL_MIN;
}

/* One control into col->ctl: its reading, core cycles an add (1.0: as fast
   as the references say), when it was timed whole (not switched out, not
   migrated, references agreeing). */
CHRONO__PRIVATE void chrono__control(const chrono_session *s, chrono__controls *c,
                                     chrono__columns *col, size_t cap)
{
    chrono__sample sm;
    if (!c->adds || c->n >= cap || c->n >= c->most) return;
    if (c->cpu) chrono__cpu_stop(s, c->cpu);   /* a control's busy time is not the body's */
    chrono__take_sample(s, chrono__control_body, NULL, c->adds, 0, &sm);
    if (c->cpu) chrono__cpu_start(s, c->cpu);
    if (sm.status == CHRONO__OK && sm.cycles_per_tick > 0)
        col->ctl[c->n++] = (double)sm.ticks * sm.cycles_per_tick / (double)c->adds;
}

/* A step of splitmix64: the runner's only random numbers, from .seed. */
CHRONO__PRIVATE uint64_t chrono__splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

#define CHRONO__CONTROL_DRAWS 201    /* samples made of k controls, drawn to judge longer samples */
#define CHRONO__CONTROL_K_MAX 1000   /* beyond, a sample's reading is the controls' mean */

/* What a sample as long as k controls reads at the CHRONO__CONTROL_QUANTILE:
   with k = 1 the readings' own quantile; else that of the means of k
   readings drawn at random (m draws, m <= room of scratch), since a long
   sample sums k stretches, each hit as a control is. */
CHRONO__PRIVATE double chrono__controls_quantile(const double *ctl, size_t n, size_t k,
                                                 uint64_t seed, double *scratch, size_t m)
{
    size_t i, j;
    if (k <= 1) {
        memcpy(scratch, ctl, n * sizeof *scratch);
        m = n;
    } else {
        for (i = 0; i < m; i++) {
            double sum = 0;
            for (j = 0; j < k; j++) sum += ctl[chrono__splitmix(&seed) % n];
            scratch[i] = sum / (double)k;
        }
    }
    chrono_stats_sort(scratch, m);
    return chrono_stats_quantile(scratch, m, CHRONO__CONTROL_QUANTILE);
}

/* The controls' verdict on r (cap: the columns' rows): how many read more
   than .ref_tolerance slow, and what a sample's length of them reads at the
   CHRONO__CONTROL_QUANTILE (samples are hit as often as controls of their
   length: when more than 40% of those read slow, the median sample may have
   been hit too).  Above 1 + .ref_tolerance the run warns
   (CHRONO_WARN_HOST_SLOWED). */
CHRONO__PRIVATE void chrono__controls_judge(const chrono_session *s, const chrono__controls *c,
                                            chrono__columns *col, size_t cap, chrono_result *r)
{
    double tol = s->cfg.ref_tolerance, k = c->adds ? c->sample_cycles / (double)c->adds : 1;
    size_t i, m = cap < CHRONO__CONTROL_DRAWS ? cap : CHRONO__CONTROL_DRAWS;
    r->controls = c->n;
    r->controls_slow = 0;
    for (i = 0; i < c->n; i++) r->controls_slow += (size_t)(col->ctl[i] > 1.0 + tol);
    if (c->n == 0) return;
    if (k > CHRONO__CONTROL_K_MAX) k = CHRONO__CONTROL_K_MAX;
    r->control_reading =
        chrono__controls_quantile(col->ctl, c->n, (size_t)(k + 0.5), s->cfg.seed, col->scratch, m);
    if (c->n >= CHRONO__CONTROL_MIN && r->control_reading > 1.0 + tol)
        r->warnings |= CHRONO_WARN_HOST_SLOWED;
}

/* Columns c from row `off` on (a segment of a run). */
CHRONO__PRIVATE chrono__columns chrono__columns_at(const chrono__columns *c, size_t off)
{
    chrono__columns x = *c;
    int i;
    x.ns += off;
    x.ticks += off;
    x.cycles += off;
    x.ghz += off;
    x.fe += off;
    x.port += off;
    x.scratch += off;
    x.ctl += off;
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++) x.cnt[i] += off;
    return x;
}

/* ---- the engine ------------------------------------------------------------------ */
/* The sides' columns over block, cap rows each (a side's CHRONO__NCOLUMNS
   arrays after the other's). */
CHRONO__PRIVATE void chrono__engine_lay(chrono_engine *e, double *block, size_t cap)
{
    int k;
    for (k = 0; k < e->sides; k++)
        e->col[k] = chrono__columns_over(block + (size_t)k * CHRONO__NCOLUMNS * cap, cap);
    e->cap = cap;
}

/* What a side's columns hold into the same side's larger ones: the rows, the
   interrupted rows kept apart at the top, the controls' readings. */
CHRONO__PRIVATE void chrono__engine_move(const chrono_engine *e, chrono__columns *to,
                                         const chrono__columns *from, size_t old_cap)
{
    chrono__columns top_to = chrono__columns_at(to, e->cap - e->soft),
                    top_from = chrono__columns_at(from, old_cap - e->soft);
    chrono__columns_copy(to, from, e->n);
    chrono__columns_copy(&top_to, &top_from, e->soft);
    memcpy(to->ctl, from->ctl, e->ctl.n * sizeof(double));
}

/* Every page of n doubles written once, outside the sampling loop: fresh
   memory faults at its first write, and the columns' first rows would put
   those faults (~15 a run) into the loop's page-fault count (1.10 faults an
   iteration for a body of exactly one, at --quick).  Page-strided stores,
   not memset: a memset to 0 after malloc may become calloc, which leaves
   the pages untouched. */
CHRONO__PRIVATE void chrono__touch(double *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i += 512) p[i] = 0;
}

/* Room for `rows` rows a side in the session's sample block, made outside
   any timed region; what the columns held moves with them. */
CHRONO__PRIVATE int chrono__engine_reserve(chrono_engine *e, size_t rows)
{
    chrono_session *s = e->s;
    chrono__columns old[2];
    size_t need, old_cap = e->cap;
    double *p;
    int k;
    if (rows <= e->cap) return 0;
    if (rows > (size_t)-1 / (2 * CHRONO__NCOLUMNS * sizeof(double))) return CHRONO_ENOMEM;
    need = rows * CHRONO__NCOLUMNS * (size_t)e->sides;
    if (old_cap == 0 && need <= s->buf_len) {
        chrono__touch(s->buf, need);
        chrono__engine_lay(e, s->buf, rows);
        return 0;
    }
    if (!(p = (double *)CHRONO_MALLOC(need * sizeof(double)))) return CHRONO_ENOMEM;
    chrono__touch(p, need);
    old[0] = e->col[0]; old[1] = e->col[1];
    chrono__engine_lay(e, p, rows);
    for (k = 0; k < e->sides && old_cap; k++) chrono__engine_move(e, &e->col[k], &old[k], old_cap);
    CHRONO_FREE(s->buf);
    s->buf = p;
    s->buf_len = need;
    return 0;
}

/* Open an engine for nsides (1 or 2) sides: their results started (named,
   NAN figures), `rows` rows a side ready, the clock's start taken. */
CHRONO_API int chrono_engine_open(chrono_engine *e, chrono_session *s,
                                  const chrono_engine_side *sides, int nsides, size_t rows)
{
    int k, rc;
    if (!e) return CHRONO_EINVAL;
    memset(e, 0, sizeof *e);
    if ((rc = chrono__check_session(s)) < 0) return rc;
    if (!sides || nsides < 1 || nsides > 2) return CHRONO_EINVAL;
    e->s = s;
    e->sides = nsides;
    e->iters[0] = e->iters[1] = 1;
    if (s->cfg.counters & ~s->counters.asked)   /* a run that asks for more: into the group, outside
                                                   any sample */
        (void)chrono_counters_add(&s->counters, s->cfg.counters);
    e->faults.ok = 1;
    e->ctl.cpu = &e->cpu;
    for (k = 0; k < nsides; k++) {
        if (!sides[k].fn || !sides[k].result) return CHRONO_EINVAL;
        e->fn[k] = sides[k].fn;
        e->ctx[k] = sides[k].ctx;
        e->r[k] = sides[k].result;
        chrono__result_init(e->r[k], sides[k].name ? sides[k].name : "", 0);
    }
    if ((rc = chrono__engine_reserve(e, rows)) < 0) return rc;
    e->start = chrono__now(s);
    return 0;
}

/* Side k's iterations per sample, into its result too. */
CHRONO__PRIVATE void chrono__engine_side_iters(chrono_engine *e, int k, uint64_t iters)
{
    e->iters[k] = iters;
    e->r[k]->iters_per_sample = iters;
}

/* The iterations per sample of every side. */
CHRONO__PRIVATE void chrono__engine_iters(chrono_engine *e, uint64_t iters)
{
    int k;
    for (k = 0; k < e->sides; k++) chrono__engine_side_iters(e, k, iters);
}

/* Sides whose own counts are within this factor share the larger: a pair of
   near-equal bodies (an A/B of one function) then runs the same iterations,
   the same inputs for bodies that index by iteration; beyond it each side
   keeps its own, so that a 13 ns body against a 54 us one does not make
   the slow side's samples 4000x too long. */
#define CHRONO__SHARED_ITERS_SPAN 4.0

/* Whether side k was sized to one call of 4x the target or more: sizing
   again would only run the long body once more. */
CHRONO__PRIVATE int chrono__engine_sized_long(const chrono_engine *e, int k)
{
    return e->iters[k] == 1 && e->sample_ticks[k] / 4 >= chrono__target_ticks(e->s);
}

/* A side whose samples are much shorter than the other's (the other's one
   iteration outlasts the target: 450 us against 50 us) gets as many
   iterations as make its samples as long: a long sample holds the timer
   interrupts that land in it and a short one mostly none, and samples of
   one length keep that share out of the ratio (it read 3% high at 9x). */
CHRONO__PRIVATE void chrono__engine_match_lengths(chrono_engine *e)
{
    int k, l;
    if (e->sides != 2 || !e->sample_ticks[0] || !e->sample_ticks[1]) return;
    l = e->sample_ticks[0] > e->sample_ticks[1] ? 0 : 1;
    k = 1 - l;
    if ((double)e->sample_ticks[l] > 1.5 * (double)e->sample_ticks[k]) {
        double f = (double)e->sample_ticks[l] / (double)e->sample_ticks[k],
               it = (double)e->iters[k] * f;
        uint64_t n = it < (double)CHRONO__ITERS_MAX ? (uint64_t)it : CHRONO__ITERS_MAX;
        e->sample_ticks[k] =
            (uint64_t)((double)e->sample_ticks[k] * (double)n / (double)e->iters[k]);
        chrono__engine_side_iters(e, k, n);
    }
}

/* Size the batch: each side's from `from` (0: its current count) up until
   one sample reaches the runner's target (chrono__size_batch), while ms_a
   (ms_b) since open allow.  Each side keeps its own count, so both sides'
   samples last about the target however lopsided the pair; sides within
   CHRONO__SHARED_ITERS_SPAN of each other share the larger.  The larger count. */
CHRONO_API uint64_t chrono_engine_size(chrono_engine *e, uint64_t from, double ms_a, double ms_b)
{
    uint64_t it[2] = { 0, 0 }, hi = 0, lo = 0;
    int k;
    for (k = 0; k < e->sides; k++) {
        it[k] = !from && chrono__engine_sized_long(e, k)
                    ? 1 /* one call, 4x the target: a count that cannot shrink, not timed again */
                    : chrono__size_batch(e->s, e->fn[k], e->ctx[k], from ? from : e->iters[k],
                                         e->start, k ? ms_b : ms_a, &e->sample_ticks[k]);
        if (it[k] > hi) hi = it[k];
        if (k == 0 || it[k] < lo) lo = it[k];
    }
    if ((double)hi <= CHRONO__SHARED_ITERS_SPAN * (double)lo) {
        for (k = 0; k < e->sides; k++)
            e->sample_ticks[k] =
                (uint64_t)((double)e->sample_ticks[k] * (double)hi / (double)it[k]);
        chrono__engine_iters(e, hi);
        return hi;
    }
    for (k = 0; k < e->sides; k++) chrono__engine_side_iters(e, k, it[k]);
    chrono__engine_match_lengths(e);
    return hi;
}

/* Warm up `rounds` times each side in turn (A B A B ...), ms each (a window
   may stretch: chrono__warmup); a side whose one sample outlasts a window
   (ms / 5) has warmed itself in sizing and is not run again.  The time
   spent, into the results too. */
CHRONO_API double chrono_engine_warm(chrono_engine *e, double ms, int rounds)
{
    double spent = 0;
    int w, k;
    for (w = 0; w < rounds; w++)
        for (k = 0; k < e->sides; k++)
            if (chrono_clock_ns(&e->s->clock, e->sample_ticks[k]) < ms * 1e6 / 5)
                spent += chrono__warmup(e->s, e->fn[k], e->ctx[k], e->iters[k], ms);
    for (k = 0; k < e->sides; k++) e->r[k]->warmup_ms = spent;
    return spent;
}

CHRONO_API double chrono_engine_ms(const chrono_engine *e)
{
    return chrono__elapsed_ms(e->s, e->start);
}

/* Columns of side k from the segment's first row. */
CHRONO__PRIVATE chrono__columns chrono__engine_segment_cols(const chrono_engine *e, int k)
{
    return chrono__columns_at(&e->col[k < e->sides ? k : 0], e->seg);
}

/* The ms a round takes: each side's last sample and its brackets (the
   reference chains and probes, ~20 us a side). */
CHRONO__PRIVATE double chrono__engine_round_ms(const chrono_engine *e)
{
    double ms = 0;
    int k;
    for (k = 0; k < e->sides; k++)
        ms += chrono_clock_ns(&e->s->clock, e->sample_ticks[k]) / 1e6 + 0.02;
    return ms;
}

/* Whether another round ends within limit_ms since open: the budget is a
   promise, so no round starts that would end past it (the first round
   excepted: a body longer than the budget still gets one sample). */
CHRONO_API int chrono_engine_fits(const chrono_engine *e, double limit_ms)
{
    return e->rounds == 0 || chrono_engine_ms(e) + chrono__engine_round_ms(e) <= limit_ms;
}

/* Whether the MORE target wants another round: fewer than .samples quiet
   rows in the segment, room for them, and time left within max_ms. */
CHRONO__PRIVATE int chrono__engine_more_segment(const chrono_engine *e)
{
    size_t room = e->cap - e->seg, rows = e->n - e->seg;
    return e->quiet < (size_t)e->s->cfg.samples && rows + 1 < room &&
           e->rounds - e->seg_rounds < room && chrono_engine_fits(e, e->s->cfg.max_ms);
}

/* Whether the SAMPLES target wants another round: the runner's rules
   (chrono__more_samples), within max_ms whatever was accepted. */
CHRONO__PRIVATE int chrono__engine_more_samples(chrono_engine *e)
{
    if (!chrono__more_samples(e->s, e->start, e->rounds - e->seg_rounds, e->n - e->seg, e->quiet,
                              &e->r[0]->truncated))
        return 0;
    if (chrono_engine_fits(e, e->s->cfg.max_ms)) return 1;
    e->r[0]->truncated = 1;
    return 0;
}

/* Whether the target wants another round. */
CHRONO__PRIVATE int chrono__engine_more(chrono_engine *e)
{
    const chrono_engine_target *t = &e->target;
    switch (t->until) {
    case CHRONO_ENGINE_SAMPLES: return chrono__engine_more_samples(e);
    case CHRONO_ENGINE_MORE: return chrono__engine_more_segment(e);
    case CHRONO_ENGINE_TAKEN: return e->rounds < t->n;
    default: return e->n < t->n && chrono_engine_fits(e, t->ms) && e->rounds < 100 * t->n + 10000;
    }
}

/* A sample of each side, ABBA: odd rounds run the second side first.  An
   accepted sample's ticks made the body's own (net), and the controls
   sized from the first. */
CHRONO__PRIVATE void chrono__engine_take(chrono_engine *e, chrono__sample sm[2])
{
    /* ABBA: odd rounds run the second side first */
    int k, swap = e->sides == 2 && (e->rounds & 1);
    for (k = 0; k < e->sides; k++) {
        int side = swap ? 1 - k : k;
        int long_sample = chrono_clock_ns(&e->s->clock, e->sample_ticks[side]) >=
                          CHRONO__LONG_SAMPLE_MS * 1e6;
        chrono__take_sample(e->s, e->fn[side], e->ctx[side], e->iters[side], long_sample,
                            &sm[side]);
        chrono__cpu_sample(e->s, &e->cpu, &sm[side]);
        if (sm[side].ticks) e->sample_ticks[side] = sm[side].ticks;
        if (sm[side].status != CHRONO__OK) continue;
        if (e->net) e->net(e->ctx[side], e->iters[side], &sm[side]);
        /* the timed part's length */
        if (e->controls) chrono__controls_size(e->s, &sm[side], &e->ctl);
    }
}

/* A new row's probe readings folded into the session's best; the segment's quiet rows recounted. */
CHRONO__PRIVATE void chrono__engine_note(chrono_engine *e)
{
    chrono__columns a = chrono__engine_segment_cols(e, 0), b = chrono__engine_segment_cols(e, 1);
    int two = e->sides == 2;
    e->quiet = chrono__note_fe(e->s, a.fe, two ? b.fe : NULL, a.port, two ? b.port : NULL,
                               e->n - e->seg, e->quiet);
}

/* A round whose samples were only interrupted: kept apart at the top of the
   columns while there is room (rows fill them from the bottom: the two never
   meet), in case no row is accepted. */
CHRONO__PRIVATE void chrono__engine_soft(chrono_engine *e, const chrono__sample sm[2])
{
    int k;
    if (e->n + e->soft + 1 >= e->cap) return;
    for (k = 0; k < e->sides; k++)
        chrono__soft_row(&sm[k], e->iters[k], &e->s->clock, &e->col[k], e->cap - 1 - e->soft);
    e->soft++;
}

/* After this many rounds in a row without a row (every one had a sample
   rejected), the samples are halved: a batch too long for the machine's
   quiet spells is shortened before the run gives up. */
#define CHRONO__DRY_ROUNDS 8

/* Halve the iterations of every side whose samples are at least twice the
   target (figures are per iteration: rows before and after compare as they
   are); a sample at the target is as short as the runner makes it. */
CHRONO__PRIVATE void chrono__engine_shorten(chrono_engine *e)
{
    uint64_t target = chrono__target_ticks(e->s);
    int k;
    e->dry = 0;
    for (k = 0; k < e->sides; k++)
        if (e->iters[k] > 1 && e->sample_ticks[k] / 2 >= target) {
            chrono__engine_side_iters(e, k, e->iters[k] / 2);
            e->sample_ticks[k] /= 2;
        }
}

/* One round: the samples recorded on their sides; a row when every side's
   was accepted (else, after CHRONO__DRY_ROUNDS without one, shorter
   samples); then a control when one is due. */
CHRONO__PRIVATE void chrono__engine_round(chrono_engine *e)
{
    chrono__sample sm[2];
    int k, accepted = 1, soft = 1;
    chrono__engine_take(e, sm);
    e->rounds++;
    for (k = 0; k < e->sides; k++) {
        size_t row = e->n;
        chrono__record(&sm[k], e->iters[k], &e->s->clock, &e->col[k], &row, e->r[k]);
        accepted &= row > e->n;
        soft &= chrono__soft(&sm[k]);
    }
    if (accepted) {
        e->n++;
        e->dry = 0;
        chrono__engine_note(e);
    } else {
        if (soft) chrono__engine_soft(e, sm);
        if (++e->dry >= CHRONO__DRY_ROUNDS) chrono__engine_shorten(e);
    }
    if (e->controls && e->ctl.adds && e->rounds % e->ctl.every == 0)
        chrono__control(e->s, &e->ctl, &e->col[0], e->cap);
}

/* Rounds until the target is met, the thread's CPU time and page faults
   counted around them. */
CHRONO__PRIVATE void chrono__engine_fill(chrono_engine *e)
{
    chrono__mem m0 = chrono__mem_read();
    chrono__cpu_start(e->s, &e->cpu);
    while (chrono__engine_more(e)) chrono__engine_round(e);
    chrono__cpu_stop(e->s, &e->cpu);
    chrono__mem_since(&m0, &e->faults);
}

/* The one sampling loop: rounds until the target is met; a ROWS target then
   asks its decide callback whether to go on (to the .n it set).  A MORE
   target starts a new segment: the rows so far stay as they are. */
CHRONO_API int chrono_engine_run(chrono_engine *e, const chrono_engine_target *target)
{
    int rc;
    if (!e || !e->s || !target) return CHRONO_EINVAL;
    e->target = *target;
    if (target->until == CHRONO_ENGINE_MORE) {
        e->seg = e->n;
        e->seg_rounds = e->rounds;
        e->quiet = e->soft = 0;
    }
    for (;;) {
        if (e->target.until == CHRONO_ENGINE_ROWS &&
            (rc = chrono__engine_reserve(e, e->target.n)) < 0)
            return rc;
        chrono__engine_fill(e);
        if (e->target.until != CHRONO_ENGINE_ROWS || !e->target.decide ||
            !e->target.decide(e, e->target.user))
            return 0;
    }
}

CHRONO_API int chrono_engine_row_quiet(const chrono_engine *e, size_t i)
{
    int two = e->sides == 2;
    return chrono__row_quiet(e->s, e->col[0].fe, two ? e->col[1].fe : NULL, e->col[0].port,
                             two ? e->col[1].port : NULL, i);
}

/* CHRONO_ENGINE_DROP_RUN on the segment (see the rule). */
CHRONO__PRIVATE size_t chrono__engine_drop_run(chrono_engine *e)
{
    chrono__columns a = chrono__engine_segment_cols(e, 0), b = chrono__engine_segment_cols(e, 1);
    chrono_result *rb = e->sides == 2 ? e->r[1] : NULL;
    size_t rows = e->n - e->seg, room = e->cap - e->seg, k;
    if (e->controls) chrono__controls_judge(e->s, &e->ctl, &e->col[0], e->cap, e->r[0]);
    if (rows) {
        k = chrono__drop_contended(e->s, &a, e->r[0], rb ? &b : NULL, rb, rows, e->quiet);
    } else {
        k = chrono__use_soft(&a, room, e->soft, e->r[0]);
        if (rb) (void)chrono__use_soft(&b, room, e->soft, rb);
    }
    return e->n = e->seg + k;
}

/* Whether CHRONO_ENGINE_DROP_DECIDED keeps row i: every row when fewer than
   a quarter are quiet, else the quiet ones. */
CHRONO_API int chrono_engine_row_kept(const chrono_engine *e, size_t i)
{
    return e->quiet * 4 < e->n || chrono_engine_row_quiet(e, i);
}

/* CHRONO_ENGINE_DROP_DECIDED (see the rule); the dropped rows counted on
   each side that was contended, by cause. */
CHRONO__PRIVATE size_t chrono__engine_drop_decided(chrono_engine *e)
{
    chrono_session *s = e->s;
    size_t i, k = 0;
    int j;
    if (chrono__fe_on(s) && e->quiet * 4 < e->n && e->quiet < e->n)
        s->warnings |= CHRONO_WARN_CONTENDED;
    for (i = 0; i < e->n; i++) {
        if (!chrono_engine_row_kept(e, i)) {
            for (j = 0; j < e->sides; j++) chrono__count_contended(s, &e->col[j], i, e->r[j]);
            continue;
        }
        for (j = 0; j < e->sides; j++) chrono__columns_move(&e->col[j], k, i);
        k++;
    }
    return e->n = k;
}

/* The rows that stay, by the rule; their count (e->n). */
CHRONO_API size_t chrono_engine_drop(chrono_engine *e, chrono_engine_drop_rule rule)
{
    return rule == CHRONO_ENGINE_DROP_DECIDED ? chrono__engine_drop_decided(e)
                                              : chrono__engine_drop_run(e);
}

/* The thread's CPU time over the sampling into every side's result: one
   side, its CPU time per iteration taken (and its page faults); two sides,
   whose iteration counts may differ, each its own: the span's share of CPU
   time (shared: the sides alternate within it) times the side's own mean
   time per iteration. */
CHRONO_API void chrono_engine_figures(chrono_engine *e)
{
    double iters = (double)e->r[0]->iters_taken, share = chrono__cpu_share(e->s, &e->cpu);
    int k;
    for (k = 0; k < e->sides; k++) e->r[k]->cpu_share = share;
    if (e->sides == 1) {
        e->r[0]->cpu_ns_per_iter = chrono__cpu_per_iter(e->s, &e->cpu, iters);
        chrono__mem_faults(&e->faults, iters, e->r[0]);
        return;
    }
    for (k = 0; k < e->sides; k++)
        e->r[k]->cpu_ns_per_iter = e->r[k]->all_n ? share * e->r[k]->all_ns_mean : NAN;
}

/* Each side's statistics of the rows kept, and the time since open
   (.wall_ms).  0 or the first error (CHRONO_ENOSAMPLES: no row). */
CHRONO_API int chrono_engine_summarise(chrono_engine *e)
{
    int k, rc = 0;
    for (k = 0; k < e->sides; k++) {
        int rk;
        e->r[k]->wall_ms = chrono_engine_ms(e);
        rk = chrono__summarise(e->s, &e->col[k], e->n, e->r[k]);
        if (rc == 0) rc = rk;
    }
    return rc;
}

/* What was measured, kept in the session for the reports: side 0's result
   as a run (cmp NULL), or the comparison cmp. */
CHRONO_API int chrono_engine_keep(chrono_engine *e, const chrono_comparison *cmp)
{
    chrono_session *s = e->s;
    int rc;
    if (!cmp) return chrono__keep_result(s, e->r[0]);
    rc = chrono__grow((void **)&s->comparisons, &s->cap_comparisons, s->ncomparisons + 1,
                      sizeof *cmp);
    if (rc == 0) s->comparisons[s->ncomparisons++] = *cmp;
    return rc;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_ENGINE_IMPL */

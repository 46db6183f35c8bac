/* chronoscope/bench.h — the runner: warmup, batch sizing, sampling, core-cycle
   estimates, interleaved A/B comparisons and parameter sweeps.

   Usage:

       static void sum(void *ctx, uint64_t iters) {        // the loop is yours
           uint64_t s = 0;
           for (uint64_t i = 0; i < iters; i++) { s += i; chrono_keep(s); }
       }
       chrono_session s;
       chrono_result r;
       if (chrono_session_open(&s, NULL) < 0) return 1;     // NULL: defaults
       chrono_run(&s, "sum", sum, NULL, &r);
       printf("%.3f ns/op, %.1f cycles/op\n", r.ns.median, r.cycles.median);
       chrono_report(&s, stdout, CHRONO_FORMAT_TEXT);        // report.h
       chrono_session_close(&s);

   Functions:
       chrono_config_default()              the defaults (zero fields mean these too)
       chrono_session_open(s, cfg)          pin, calibrate, read the machine (a macro)
       chrono_session_close(s)              unpin, free
       chrono_run(s, name, fn, ctx, out)    one benchmark
       chrono_run_between(s, name, fn, ctx, between, bctx, gaps, out)
                                            one benchmark, its samples spread across other work
       chrono_compare(s, na, a, ca, nb, b, cb, out)   A against B, interleaved
       chrono_sweep(s, name, fn, ctx, params, n, out) fn at each param, fitted
       chrono_keep(x), chrono_clobber()     keep a value / memory alive (inline)

   How a run measures (README.md, "How it measures", says the same for users):
     1. size the batch: iterations per sample grow until one sample is at least
        1000x the clock's overhead and resolution and at least .min_sample_us;
     2. warm up for .warmup_ms, longer until two successive windows agree;
     3. take .samples samples; each is bracketed by a reference chain of
        dependent adds (1 core cycle each) before and after, which gives the core
        clock at that moment: the sample in core cycles is exact whatever the
        frequency does.  A sample whose two references disagree by more than
        .ref_tolerance (the frequency changed or the host took the CPU), whose
        CPU changed (migration) or whose clock went backwards is rejected and
        counted, and another is taken in its place.  When no sample of a run
        is accepted but some were only interrupted (switched out, or the
        references disagreed), the run keeps those rather than fail, marked
        CHRONO_WARN_INTERRUPTED (an emulator, or a machine far busier than
        the run's budget allows); so is a sample during
        which the thread was switched out (another thread's time is in it),
        or, with .blocking set, only switched out involuntarily: a body that
        blocks by design (a pipe ping-pong, fork and wait) gives up the CPU
        as its work;
     4. each sample is also bracketed by a front-end probe, a short loop of
        calls of an empty function, read in core cycles.  On an SMT core, or a
        VM whose host runs something on the sibling hardware thread, the
        front end is shared and call-heavy code slows by 25-75% in spells of
        milliseconds to seconds (measured on a Zen 5 guest: a call loop reads
        4.0 cycles a call alone, 5.4-7 shared).  The adds of the reference
        chains barely see it.  A sample whose probe reads more than
        .contention_tolerance above the best reading of the session is
        counted as contended and replaced (for up to max_ms / 8), so a run
        keeps the samples of the quiet machine.  When fewer than a quarter are
        quiet, and fewer than ten, the samples are kept and the session warns
        (CHRONO_WARN_CONTENDED); ten quiet ones or more are the run's
        figure.  The best reading is the session's own: a
        spell that lasts the whole session looks like the machine's speed;
     5. a port probe catches what the front-end probe misses: the ALU ports
        are shared too, and when the sibling runs, dependent adds slow more
        than dependent multiplies (measured: 1000 imuls against 1000 adds
        read 2.83-2.95 instead of 3.000).  After each sample a dependent
        chain of CHRONO__PORT_MULS multiplies is timed beside the reference
        chain of adds; on an unshared core their ratio per instruction is a
        constant of the CPU.  On x86 it is known a priori, 3.0 (imul r64 has
        had a latency of 3 cycles and add of 1 on every Intel and AMD core of
        the last 15 years), so a spell that lasts the whole session is caught
        too; elsewhere it is measured at open (the best of a few tries).  A
        sample whose ratio is more than .contention_tolerance x 0.6 (3% by
        default) from it is counted (rejected_port_contended) and replaced
        like a front-end one, within the same budget.  A run where either
        probe found the core shared for most samples keeps them and carries
        CHRONO_WARN_SHARED_CORE in its own .warnings (and its report row).
        Cost: the probes and references take ~35k core cycles a sample
        (2 x 14336 adds, 4 x 512 calls, 1024 imuls, two switch counts:
        10.6-10.8 us at 3.9 GHz, of which the port probe ~0.8 us; the
        references alone, 2 x 16384 adds, cost 10.8-11.0 us before it)
        beside a sample of at least 50 us;
     6. controls catch what both probes miss: the host can take the core for
        tens of microseconds inside a sample, leaving the probes around it
        untouched (on a 2-vCPU guest with the other vCPU busy, 7-40% of 60 us
        stretches read 15-35% slow; a run whose median sample was hit read
        1000 adds as 1115-1284 cycles with no warning).  After every 4th
        sample (rarer for samples over 1 ms) the runner times a control, a
        reference chain as long as one sample (at most 1 ms), whose truth is
        known: one core cycle an add.  When more than 40% of the controls
        read more than .ref_tolerance slow (for samples k times longer than
        the controls: the means of k controls drawn at random) the run
        carries CHRONO_WARN_HOST_SLOWED: its median may be a hit sample.
        chrono_result.controls, .controls_slow and .control_reading say
        what they read.  Cost: a quarter more sample time; a default run of
        1000 adds took 1.04-1.07x its wall time without controls (median of
        100 fresh processes each, side by side; its warm-up dominates);
     7. the clock overhead is subtracted; statistics (stats.h) summarise ns, ticks
        and cycles per iteration.
   chrono_compare() interleaves A and B sample by sample (ABBA), with the same
   iteration count, and takes the median of the paired log-ratios.  Its
   interval is never narrower than the clock resolves: each end moves out by
   the quantisation of the paired samples (resolution / median sample ticks,
   both sides).  When the two halves of the run disagree (their intervals do
   not overlap: the ratio changed level) it takes up to .samples more rounds
   within max_ms; if the halves of the longer run still disagree the interval
   is widened to cover both levels and the comparison warns
   (CHRONO_WARN_UNSTABLE).  A comparison without a warning is one whose
   interval the library stands behind.

   Per-run warnings: chrono_result.warnings and chrono_comparison.warnings
   hold the CHRONO_WARN_* bits of that run (MIGRATED, CONTENDED, SHARED_CORE,
   EMPTY_BODY, UNSTABLE, INTERRUPTED, SHORT_BODY, HOST_SLOWED); the session's
   .warnings keeps their union.  A run
   whose iteration costs about a cycle or less (the loop itself: 1.25 cycles,
   or 0.4 ns where cycles are unknown) warns CHRONO_WARN_EMPTY_BODY unless the
   body is meant to be empty: set .expect_empty in the configuration (a
   program's entry has the same field).

   chrono_keep and chrono_clobber, and a trap: chrono_clobber() tells the
   compiler that memory it can reach may be read and written, but GCC treats
   a file-local static array whose address never escapes as out of anyone's
   reach, so

       static char src[65536], dst[65536];
       for (i = 0; i < iters; i++) { memcpy(dst, src, sizeof dst); chrono_clobber(); }

   compiles to an empty loop (0.27 ns an iteration; Google Benchmark's
   ClobberMemory is fooled the same way).  Let the address escape:
   `char *d = dst; chrono_keep(d);` once before the loop, or keep a value
   read from the result (`chrono_keep(dst[0])`), or use buffers from malloc
   or the ctx pointer.  CHRONO_WARN_EMPTY_BODY catches what slips through.

   Every function returning int returns 0 or a negative CHRONO_E... code. */
#ifndef CHRONOSCOPE_BENCH_H
#define CHRONOSCOPE_BENCH_H

#include "types.h"

/* ---- keeping values alive ------------------------------------------------ */
#if defined(__GNUC__) || defined(__clang__)
/* The value must exist in a register or memory: the optimizer can neither
   drop the computation nor hoist it out of the loop. */
#  define chrono_keep(x) __asm__ __volatile__("" : "+rm"(x) : : "memory")
CHRONO__INLINE void chrono_clobber(void) { __asm__ __volatile__("" : : : "memory"); }
#else
CHRONO__INLINE void chrono__keep_ptr(volatile const void *p) { (void)p; }
#  define chrono_keep(x) chrono__keep_ptr((volatile const void *)&(x))
CHRONO__INLINE void chrono_clobber(void) { _ReadWriteBarrier(); }
#endif

/* ---- functions ------------------------------------------------------------ */
CHRONO__EXTERN_C_BEGIN
/* ---- configuration ------------------------------------------------------------ */
CHRONO_API chrono_config chrono_config_default(void);

/* Open a session: resolve the configuration, pin the thread, open and
   calibrate the clock, read the environment.  cfg may be NULL. */
CHRONO_API int chrono_session_open_at(chrono_session *s, const chrono_config *cfg, unsigned long caller);
/* A macro, so that the session's environment describes the caller's build
   (optimised? assertions?) and a caller compiled against another version of
   this header is refused (CHRONO_EVERSION). */
#define chrono_session_open(s, cfg) chrono_session_open_at((s), (cfg), CHRONO__CALLER)

/* Unpin and free everything the session holds. */
CHRONO_API void chrono_session_close(chrono_session *s);

/* 1 when the session's timings are an emulator's, not the machine's (never
   with a custom clock): an emulator the environment shows (chrono_env.emulator:
   qemu-user, QEMU TCG, valgrind), under valgrind, where the environment
   variable says so (CHRONO_EMULATED=1: wine, an emulator not detected), or
   with a core clock no CPU has (the reference chains read below 0.8 or above
   7 GHz).  Read such figures for correctness only.  An emulated session
   carries CHRONO_WARN_EMULATED, names the emulator in .env.emulator and
   estimates no cycles (.has_cycles 0, .core_ghz NAN). */
CHRONO_API int chrono_session_emulated(const chrono_session *s);

/* Time fn: size the batch, warm up, take the samples, summarise.  The
   result is written to *out (may be NULL) and kept in the session. */
CHRONO_API int chrono_run(chrono_session *s, const char *name, chrono_fn fn, void *ctx, chrono_result *out);

/* Interleaved A/B: the same iteration count for both, rounds ordered ABBA,
   the ratio a/b and its interval from the median of the paired log-ratios. */
CHRONO_API int chrono_compare(chrono_session *s, const char *name_a, chrono_fn a, void *ctx_a,
                              const char *name_b, chrono_fn b, void *ctx_b, chrono_comparison *out);

/* Time fn at every param (each point is a result named "name/param"), then
   fit ns per iteration = fixed + per_unit * param by least squares. */
CHRONO_API int chrono_sweep(chrono_session *s, const char *name, chrono_sweep_fn fn, void *ctx,
                            const uint64_t *params, size_t nparams, chrono_sweep_result *out);

/* A run of fn spread across other work: fn is sized and warmed up as by
   chrono_run, then between(between_ctx, k) runs for k = 0 .. gaps-1, untimed
   by the run, each followed by its share of the samples: .samples, or one
   a gap when gaps is larger (rejected ones counted, not replaced: each
   stretch of time weighs alike).  The samples then cover the same span of
   time as the work between them: a long batch cut into gaps, and its
   projection measured beside it however the machine's speed drifts
   (experiment.h's chrono_literal_run).  Kept in the session like chrono_run's; its page
   faults are the samples' own, its RSS growth includes between's work.
   CHRONO_EINVAL for a NULL between or gaps 0; CHRONO_ERANGE for more than
   CHRONO_BETWEEN_GAPS_MAX gaps. */
#define CHRONO_BETWEEN_GAPS_MAX 100000u
typedef void (*chrono_between_fn)(void *ctx, size_t k);
CHRONO_API int chrono_run_between(chrono_session *s, const char *name, chrono_fn fn, void *ctx,
                                  chrono_between_fn between, void *between_ctx, size_t gaps, chrono_result *out);

/* Untimed setup before every call: setup(ctx) runs before each fn(ctx, 1),
   and only fn is timed, call by call (see "Setup per iteration" above).
   setup may be NULL.  The result is kept in the session like chrono_run's. */
typedef void (*chrono_setup_fn)(void *ctx);
CHRONO_API int chrono_run_setup(chrono_session *s, const char *name, chrono_setup_fn setup, chrono_fn fn, void *ctx,
                                chrono_result *out);

CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_BENCH_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_BENCH_IMPL)
#define CHRONOSCOPE_BENCH_IMPL

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
#    define CHRONO__CHAIN_ASM(op) "1:\n\t.rept 16\n\t" op " %[one], %[x]\n\t.endr\n\tsub $1, %[n]\n\tjnz 1b"
#    define CHRONO__MUL_OP "imul"
#  else
#    define CHRONO__CHAIN_ASM(op) "1:\n\t.rept 16\n\t" op " %[x], %[x], %[one]\n\t.endr\n\tsubs %[n], %[n], #1\n\tb.ne 1b"
#    define CHRONO__MUL_OP "mul"
#  endif
#  define CHRONO__CHAIN(fname, op)                                                                          \
CHRONO__PRIVATE void fname(uintptr_t n)                                                                       \
{                                                                                                             \
    uintptr_t x = 1, one = 1, loops = n / 16;                                                                 \
    __asm__ __volatile__(CHRONO__CHAIN_ASM(op) : [x] "+r"(x), [n] "+r"(loops) : [one] "r"(one) : "cc");       \
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
#define CHRONO__PORT_MULS 1024u   /* ~3070 cycles: ~1840 ticks at 2.1 GHz, a 21-tick step ~1.1% of the 3% tolerance */
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
CHRONO__PRIVATE double chrono__port_ratio(const chrono_session *s, uint64_t mul_ticks, uint64_t add_ticks)
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

CHRONO_API chrono_config chrono_config_default(void)
{
    chrono_config c;
    memset(&c, 0, sizeof c);
    c.samples = 101;
    c.warmup_ms = 50;
    c.min_sample_us = 50;
    c.max_ms = 2000;
    c.cpu = CHRONO_CPU_CURRENT;
    c.pin = CHRONO_PIN_AUTO;
    c.confidence = 0.95;
    c.clock = CHRONO_CLOCK_AUTO;
    c.seed = 0x63687230u;   /* "chr0" */
    c.cycles = CHRONO_CYCLES_AUTO;
    c.ref_tolerance = 0.01;
    c.contention_tolerance = 0.05;
    return c;
}

CHRONO__PRIVATE int chrono__finite_nonneg(double v) { return v == v && v >= 0 && v < 1e15; }

/* Fill the zero fields with defaults and check the rest. */
CHRONO__PRIVATE int chrono__config_resolve(const chrono_config *in, chrono_config *out)
{
    chrono_config d = chrono_config_default();
    if (!in) { *out = d; return 0; }
    *out = *in;
    if (in->samples < 0 || in->samples > CHRONO_SAMPLES_MAX) return CHRONO_EINVAL;
    if (!chrono__finite_nonneg(in->warmup_ms) || !chrono__finite_nonneg(in->min_sample_us) ||
        !chrono__finite_nonneg(in->max_ms) || !chrono__finite_nonneg(in->ref_tolerance))
        return CHRONO_EINVAL;
    if (!chrono__finite_nonneg(in->contention_tolerance) && in->contention_tolerance != CHRONO_CONTENTION_OFF)
        return CHRONO_EINVAL;
    if (!(in->confidence == 0 || (in->confidence > 0 && in->confidence < 1))) return CHRONO_EINVAL;
    if ((int)in->pin < CHRONO_PIN_AUTO || (int)in->pin > CHRONO_PIN_PREFER) return CHRONO_EINVAL;
    if ((int)in->cycles < CHRONO_CYCLES_AUTO || (int)in->cycles > CHRONO_CYCLES_OFF) return CHRONO_EINVAL;
    if ((in->pin == CHRONO_PIN_CPU || in->pin == CHRONO_PIN_PREFER) && in->cpu < CHRONO_CPU_CURRENT)
        return CHRONO_EINVAL;
    if (in->custom_clock && !(in->custom_clock->hz > 0 && in->custom_clock->hz < 1e12 &&
                              in->custom_clock->ns_per_tick > 0 && !isinf(in->custom_clock->ns_per_tick)))
        return CHRONO_EINVAL;   /* not an opened clock: rate out of range or never set */
    if ((int)in->clock < 0 || in->clock >= CHRONO_CLOCK_CUSTOM) return CHRONO_EINVAL;
    if (!in->samples) out->samples = d.samples;
    if (in->warmup_ms == 0) out->warmup_ms = d.warmup_ms;
    if (in->min_sample_us == 0) out->min_sample_us = d.min_sample_us;
    if (in->max_ms == 0) out->max_ms = d.max_ms;
    if (in->confidence == 0) out->confidence = d.confidence;
    if (!in->seed) out->seed = d.seed;
    if (in->ref_tolerance == 0) out->ref_tolerance = d.ref_tolerance;
    if (in->contention_tolerance == 0) out->contention_tolerance = d.contention_tolerance;
    if (in->pin != CHRONO_PIN_CPU && in->pin != CHRONO_PIN_PREFER) out->cpu = CHRONO_CPU_CURRENT;
    return 0;
}

/* ---- session ------------------------------------------------------------------ */
CHRONO__PRIVATE int chrono__pin(chrono_session *s)
{
    int rc;
    if (s->cfg.pin == CHRONO_PIN_OFF) { s->warnings |= CHRONO_WARN_UNPINNED; return 0; }
    rc = chrono_cpu_pin(&s->pin, s->cfg.pin == CHRONO_PIN_AUTO ? CHRONO_CPU_CURRENT : s->cfg.cpu);
    if (rc == 0) return 0;
    if (s->cfg.pin == CHRONO_PIN_CPU) return rc;
    s->warnings |= CHRONO_WARN_UNPINNED;   /* AUTO, PREFER: go on, say so in the report */
    return 0;
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

/* Why the session's timings are an emulator's, into why (n bytes): its
   name, or what says so; 0 when nothing does. */
CHRONO__PRIVATE int chrono__emulated_why(const chrono_session *s, char *why, size_t n)
{
    const char *env = getenv("CHRONO_EMULATED");
    char ghz[32];
    if (s->clock.source == CHRONO_CLOCK_CUSTOM) return 0;   /* a clock of the user's counts what it says */
    if (s->env.emulator[0]) chrono__str_copy(why, n, s->env.emulator);
    else if (chrono__under_valgrind()) chrono__str_copy(why, n, "valgrind");
    else if (env && env[0] && strcmp(env, "0") != 0) chrono__str_copy(why, n, "CHRONO_EMULATED=1");
    else if (s->core_ghz == s->core_ghz && (s->core_ghz < 0.8 || s->core_ghz > 7.0))
        (void)chrono__bprintf(why, n, "a %s GHz core", chrono__num(ghz, sizeof ghz, "%.2f", s->core_ghz));
    else return 0;
    return 1;
}

/* At open: an emulated session is named, warned about, and estimates no cycles. */
CHRONO__PRIVATE void chrono__session_emulation(chrono_session *s)
{
    char why[sizeof s->env.emulator];
    if (!chrono__emulated_why(s, why, sizeof why)) return;
    chrono__str_copy(s->env.emulator, sizeof s->env.emulator, why);
    s->warnings |= CHRONO_WARN_EMULATED;
    s->has_cycles = 0;
    s->core_ghz = NAN;
}

CHRONO_API int chrono_session_emulated(const chrono_session *s)
{
    char why[sizeof s->env.emulator];
    return s && chrono__emulated_why(s, why, sizeof why);
}

CHRONO_API int chrono_session_open_at(chrono_session *s, const chrono_config *cfg, unsigned long caller)
{
    int rc;
    if (!s) return CHRONO_EINVAL;
    memset(s, 0, sizeof *s);
    s->pin.cpu = -1;
    rc = chrono__config_resolve(cfg, &s->cfg);
    if (rc < 0) return rc;
    rc = chrono__pin(s);
    if (rc < 0) return rc;
    /* Calibrate on the pinned CPU. */
    if (s->cfg.custom_clock) s->clock = *s->cfg.custom_clock;
    else rc = chrono_clock_open(&s->clock, s->cfg.clock);
    if (rc < 0) { chrono_cpu_unpin(&s->pin); return rc; }
    if ((rc = chrono_env_read_at(&s->env, caller)) < 0) { chrono_cpu_unpin(&s->pin); return rc; }
    s->warnings |= s->env.warnings & ~(unsigned)CHRONO_WARN_EMULATED;   /* the session decides (a custom clock is not) */
    if (s->clock.source == CHRONO_CLOCK_TSC && !s->clock.invariant_tsc) s->warnings |= CHRONO_WARN_NO_INVARIANT_TSC;
    s->ref_adds = CHRONO__REF_ADDS;
    s->has_cycles = CHRONO__HAS_REF_CHAIN && s->cfg.cycles == CHRONO_CYCLES_AUTO;
    if (s->has_cycles) s->ref_fixed_ticks = (uint64_t)(chrono__ref_fixed(s) + 0.5);
    s->core_ghz = s->has_cycles ? chrono__core_ghz(s) : NAN;
    if (!(s->core_ghz > 0)) s->has_cycles = 0;
    chrono__session_emulation(s);
    s->fe_best = INFINITY;
    s->port_expect = chrono__port_expect(s);
    s->is_open = 1;
    return 0;
}


CHRONO_API void chrono_session_close(chrono_session *s)
{
    if (!s || !s->is_open) return;
    chrono_cpu_unpin(&s->pin);
    CHRONO_FREE(s->results);
    CHRONO_FREE(s->comparisons);
    CHRONO_FREE(s->sweeps);
    CHRONO_FREE(s->buf);
    while (s->nkept) CHRONO_FREE(s->kept[--s->nkept]);
    CHRONO_FREE(s->kept);
    s->kept = NULL; s->cap_kept = 0;
    s->results = NULL; s->comparisons = NULL; s->sweeps = NULL; s->buf = NULL;
    s->nresults = s->ncomparisons = s->nsweeps = 0;
    s->is_open = 0;
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
/* Per-run working storage: one block, carved into columns. */
typedef struct chrono__columns {
    double *ns, *ticks, *cycles, *ghz, *fe, *scratch, *port;
    double *ctl;   /* the control chains' readings (chrono__control), not a sample's */
} chrono__columns;

#define CHRONO__NCOLUMNS 8   /* the arrays of a chrono__columns */

/* The columns laid over block: CHRONO__NCOLUMNS arrays of cap doubles each. */
CHRONO__PRIVATE chrono__columns chrono__columns_over(double *block, size_t cap)
{
    chrono__columns c;
    c.ns = block; c.ticks = block + cap; c.cycles = block + 2 * cap;
    c.ghz = block + 3 * cap; c.fe = block + 4 * cap; c.scratch = block + 5 * cap;
    c.port = block + 6 * cap; c.ctl = block + 7 * cap;
    return c;
}

/* The first n rows of every measured column of from into to (not scratch). */
CHRONO__PRIVATE void chrono__columns_copy(chrono__columns *to, const chrono__columns *from, size_t n)
{
    memcpy(to->ns, from->ns, n * sizeof(double));
    memcpy(to->ticks, from->ticks, n * sizeof(double));
    memcpy(to->cycles, from->cycles, n * sizeof(double));
    memcpy(to->ghz, from->ghz, n * sizeof(double));
    memcpy(to->fe, from->fe, n * sizeof(double));
    memcpy(to->port, from->port, n * sizeof(double));
}

CHRONO__PRIVATE int chrono__columns_get(chrono_session *s, size_t cap, chrono__columns *c)
{
    size_t need = cap * CHRONO__NCOLUMNS;
    if (need > s->buf_len) {
        double *p = (double *)CHRONO_MALLOC(need * sizeof(double));
        if (!p) return CHRONO_ENOMEM;
        CHRONO_FREE(s->buf);
        s->buf = p;
        s->buf_len = need;
    }
    *c = chrono__columns_over(s->buf, cap);
    return 0;
}

/* One sample: what the runner needs to accept or reject it. */
typedef struct chrono__sample {
    uint64_t ticks;        /* net of the clock overhead */
    double cycles_per_tick;/* core cycles per tick from the two references, 0 if unknown */
    double ghz;
    double fe;             /* front-end probe, core cycles a call (the slower side); NAN if off */
    double port;           /* port probe, multiply/add time per instruction; NAN if off */
    int cpu;
    int status;            /* CHRONO__OK or why it was rejected */
} chrono__sample;

enum { CHRONO__OK, CHRONO__MIGRATED, CHRONO__BACKWARDS, CHRONO__REF_DISAGREE, CHRONO__PREEMPTED };

CHRONO__PRIVATE void chrono__take_sample(const chrono_session *s, chrono_fn fn, void *ctx, uint64_t iters,
                                    chrono__sample *out)
{
    uint64_t r0 = 0, r1 = 0, f0 = 0, f1 = 0, m1 = 0, t0, t1;
    long (*switches)(void) = s->cfg.blocking ? chrono_cpu_switches_involuntary : chrono_cpu_switches;
    long sw0 = switches(), sw1;
    int cpu0 = chrono_cpu_current(), cpu1;
    if (chrono__fe_on(s)) f0 = chrono__fe_ticks(s);
    if (s->has_cycles) r0 = chrono__ref_ticks(s);
    t0 = chrono_clock_start(&s->clock);
    fn(ctx, iters);
    t1 = chrono_clock_stop(&s->clock);
    if (s->has_cycles) r1 = chrono__ref_ticks(s);
    if (chrono__fe_on(s)) m1 = chrono__mul_ticks(s);   /* beside r1: the port probe */
    if (chrono__fe_on(s)) f1 = chrono__fe_ticks(s);
    cpu1 = chrono_cpu_current();
    sw1 = switches();

    out->cpu = cpu1;
    out->cycles_per_tick = 0;
    out->ghz = NAN;
    out->fe = NAN;
    out->port = NAN;
    /* the time, whatever else happened: an interrupted sample may still serve
       (chrono__record_soft) */
    out->ticks = 0;
    if (t1 >= t0) out->ticks = t1 - t0 > s->clock.overhead_ticks ? t1 - t0 - s->clock.overhead_ticks : 0;
    if (cpu0 != cpu1) { out->status = CHRONO__MIGRATED; return; }
    if (sw0 != sw1) { out->status = CHRONO__PREEMPTED; return; }
    if (t1 < t0) { out->status = CHRONO__BACKWARDS; return; }
    out->status = CHRONO__OK;
    if (s->has_cycles) {
        double lo = (double)(r0 < r1 ? r0 : r1), hi = (double)(r0 < r1 ? r1 : r0);
        if (lo <= 0 || hi / lo - 1.0 > s->cfg.ref_tolerance) { out->status = CHRONO__REF_DISAGREE; return; }
        out->cycles_per_tick = 2.0 * (double)s->ref_adds / (lo + hi);
        out->ghz = out->cycles_per_tick / s->clock.ns_per_tick;
        if (f0 && f1)   /* both probes ran and read */
            out->fe = (double)(f0 > f1 ? f0 : f1) * out->cycles_per_tick / CHRONO__FE_CALLS;
        out->port = chrono__port_ratio(s, m1, r1);
    }
}

/* Ticks now, for budgets (not serialized: not a measurement). */
CHRONO__PRIVATE uint64_t chrono__now(const chrono_session *s) { return chrono__read(&s->clock); }

CHRONO__PRIVATE double chrono__elapsed_ms(const chrono_session *s, uint64_t since)
{
    uint64_t now = chrono__now(s);
    return now > since ? chrono_clock_ns(&s->clock, now - since) / 1e6 : 0.0;
}

/* Ticks one call of fn(ctx, iters) takes (serialized, overhead subtracted). */
CHRONO__PRIVATE uint64_t chrono__time_once(const chrono_session *s, chrono_fn fn, void *ctx, uint64_t iters)
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
                                               ? s->clock.overhead_ticks : s->clock.resolution_ticks);
    if (t < floor_ticks) t = floor_ticks;
    return (uint64_t)t;
}

#define CHRONO__ITERS_MAX ((uint64_t)1 << 40)

/* Iterations per sample, from `iters` up: grow until one sample reaches the
   target.  A batch that reaches it is timed once more and kept only if it
   does again: a first call paying for page faults or cold caches must not
   pass for a slow body.  A body that takes longer than the target gets a batch
   of one; one the timer cannot see grows (at most x100 a step) to 2^40. */
CHRONO__PRIVATE uint64_t chrono__size_batch(const chrono_session *s, chrono_fn fn, void *ctx, uint64_t iters,
                                       uint64_t since, double budget_ms)
{
    uint64_t target = chrono__target_ticks(s);
    for (;;) {
        uint64_t t = chrono__time_once(s, fn, ctx, iters), grow;
        if (t == 0) t = chrono__time_once(s, fn, ctx, iters);   /* a clock step back reads as 0 */
        if (t >= target) {
            uint64_t again = chrono__time_once(s, fn, ctx, iters);
            if (again >= target) return iters;
            t = again;
        }
        if (iters >= CHRONO__ITERS_MAX || chrono__elapsed_ms(s, since) > budget_ms) return iters;
        /* Aim 20% past the target from what this batch took. */
        grow = t > 0 ? (uint64_t)((double)iters * 1.2 * (double)target / (double)t) + 1 : iters * 100;
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
CHRONO__PRIVATE double chrono__warmup(const chrono_session *s, chrono_fn fn, void *ctx, uint64_t iters,
                                 double warmup_ms)
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

CHRONO__PRIVATE int chrono__check_name(const char *name)
{
    if (!name || !*name) return CHRONO_EINVAL;
    if (strlen(name) >= CHRONO_NAME_MAX) return CHRONO_ERANGE;
    return 0;
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
CHRONO__PRIVATE void chrono__record(const chrono__sample *sm, uint64_t iters, const chrono_clock *clk,
                               chrono__columns *col, size_t *n, chrono_result *r)
{
    r->samples_taken++;
    if (sm->status != CHRONO__MIGRATED && sm->status != CHRONO__BACKWARDS)
        chrono__all_add(r, (double)sm->ticks / (double)iters * clk->ns_per_tick);
    if (sm->status == CHRONO__MIGRATED) { r->migrated++; return; }
    if (sm->status == CHRONO__BACKWARDS) { r->backwards++; return; }
    if (sm->status == CHRONO__REF_DISAGREE) { r->ref_rejected++; return; }
    if (sm->status == CHRONO__PREEMPTED) { r->preempted++; return; }
    col->ticks[*n] = (double)sm->ticks / (double)iters;
    col->ns[*n] = col->ticks[*n] * clk->ns_per_tick;
    col->cycles[*n] = sm->cycles_per_tick > 0 ? col->ticks[*n] * sm->cycles_per_tick : NAN;
    col->ghz[*n] = sm->ghz;
    col->fe[*n] = sm->fe;
    col->port[*n] = sm->port;
    r->cpu = sm->cpu;
    (*n)++;
}

/* A sample rejected for an interruption that only adds time (the thread was
   switched out, the core clock changed): kept apart, at the top of the
   columns (accepted rows fill them from the bottom: the two never meet), in
   case no sample of the run is accepted. */
CHRONO__PRIVATE int chrono__soft(const chrono__sample *sm)
{
    return sm->status == CHRONO__OK || sm->status == CHRONO__PREEMPTED || sm->status == CHRONO__REF_DISAGREE;
}

/* Row k of col from a sample, whatever its status. */
CHRONO__PRIVATE void chrono__soft_row(const chrono__sample *sm, uint64_t iters, const chrono_clock *clk,
                                      chrono__columns *col, size_t k)
{
    col->ticks[k] = (double)sm->ticks / (double)iters;
    col->ns[k] = col->ticks[k] * clk->ns_per_tick;
    col->cycles[k] = sm->cycles_per_tick > 0 ? col->ticks[k] * sm->cycles_per_tick : NAN;   /* NAN: the refs disagreed */
    col->ghz[k] = sm->cycles_per_tick > 0 ? sm->ghz : NAN;
    col->fe[k] = col->port[k] = NAN;
}

CHRONO__PRIVATE void chrono__record_soft(const chrono__sample *sm, uint64_t iters, const chrono_clock *clk,
                                         chrono__columns *col, size_t cap, size_t *soft)
{
    if (sm->status != CHRONO__PREEMPTED && sm->status != CHRONO__REF_DISAGREE) return;
    chrono__soft_row(sm, iters, clk, col, cap - 1 - *soft);
    (*soft)++;
}

/* No sample accepted, some only interrupted: rather than no figure, those,
   moved to the bottom rows, with CHRONO_WARN_INTERRUPTED on the run. */
CHRONO__PRIVATE size_t chrono__use_soft(chrono__columns *col, size_t cap, size_t soft, chrono_result *r)
{
    size_t i;
    for (i = 0; i < soft; i++) {
        size_t k = cap - 1 - i;
        col->ticks[i] = col->ticks[k]; col->ns[i] = col->ns[k]; col->cycles[i] = col->cycles[k];
        col->ghz[i] = col->ghz[k]; col->fe[i] = col->fe[k]; col->port[i] = col->port[k];
    }
    if (soft) r->warnings |= CHRONO_WARN_INTERRUPTED;
    return soft;
}

CHRONO__PRIVATE void chrono__stats_nan(chrono_stats *st, size_t n)
{
    double nan = NAN;
    st->n = n;
    st->min = st->max = st->mean = st->stddev = st->cv = st->median = st->mad = nan;
    st->q1 = st->q3 = st->ci_low = st->ci_high = st->ci_level = nan;
    st->outliers_low = st->outliers_high = st->outliers_severe = 0;
}

/* Statistics of the accepted samples into r. */
CHRONO__PRIVATE int chrono__summarise(const chrono_session *s, chrono__columns *col, size_t n, chrono_result *r)
{
    double conf = s->cfg.confidence, iqr;
    chrono_stats ghz;
    int rc;
    r->samples = n;
    chrono__all_finish(r);
    /* cycles where every kept sample has them (interrupted ones may not) */
    r->has_cycles = s->has_cycles && n && chrono__all_finite(col->cycles, n) && chrono__all_finite(col->ghz, n);
    r->core_ghz = NAN;
    chrono__stats_nan(&r->cycles, n);
    if (n == 0) { chrono__stats_nan(&r->ns, 0); chrono__stats_nan(&r->ticks, 0); return CHRONO_ENOSAMPLES; }
    rc = chrono_stats_compute(col->ns, n, conf, col->scratch, &r->ns);
    if (rc == 0) rc = chrono_stats_compute(col->ticks, n, conf, col->scratch, &r->ticks);
    if (rc == 0 && r->has_cycles) {
        rc = chrono_stats_compute(col->cycles, n, conf, col->scratch, &r->cycles);
        if (rc == 0) rc = chrono_stats_compute(col->ghz, n, conf, col->scratch, &ghz);
        if (rc == 0) r->core_ghz = ghz.median;
    }
    if (rc < 0) return rc;
    /* The sketch spans min .. q3 + 3 IQR: a far outlier lands in the last bin
       instead of squashing the picture. */
    iqr = r->ns.q3 - r->ns.q1;
    r->hist_lo = r->ns.min;
    r->hist_hi = r->ns.q3 + 3 * iqr < r->ns.max ? r->ns.q3 + 3 * iqr : r->ns.max;
    chrono_stats_histogram(col->ns, n, r->hist_lo, r->hist_hi, r->hist, CHRONO_HIST_BINS);
    if (r->cpu_ns_per_iter > r->ns.median) r->cpu_ns_per_iter = r->ns.median;   /* the probes' CPU time is not the body's */
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
CHRONO__PRIVATE int chrono__more_samples(const chrono_session *s, uint64_t start, size_t taken, size_t accepted,
                                    size_t quiet, int *truncated)
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
CHRONO__PRIVATE int chrono__row_quiet(const chrono_session *s, const double *fe_a, const double *fe_b,
                                 const double *port_a, const double *port_b, size_t i)
{
    return chrono__is_quiet(s, fe_a[i], fe_b ? fe_b[i] : NAN) && (!port_a || chrono__port_ok(s, port_a[i])) &&
           (!port_b || chrono__port_ok(s, port_b[i]));
}

/* Fold the reading of the last accepted row (index n-1; both sides for a
   pair) into the session's best, and return how many of the n rows are quiet
   now (by both probes; port_a, port_b may be NULL).  A lower best turns
   earlier rows contended: recount then (rarely). */
CHRONO__PRIVATE size_t chrono__note_fe(chrono_session *s, const double *fe_a, const double *fe_b,
                                  const double *port_a, const double *port_b, size_t n, size_t quiet_before)
{
    double lo = fe_a[n - 1];
    size_t i, quiet = 0;
    if (fe_b && fe_b[n - 1] < lo) lo = fe_b[n - 1];
    if (!(lo < s->fe_best)) return quiet_before + (size_t)chrono__row_quiet(s, fe_a, fe_b, port_a, port_b, n - 1);
    s->fe_best = lo;
    for (i = 0; i < n; i++) quiet += (size_t)chrono__row_quiet(s, fe_a, fe_b, port_a, port_b, i);
    return quiet;
}

CHRONO__PRIVATE void chrono__columns_move(chrono__columns *c, size_t to, size_t from)
{
    c->ns[to] = c->ns[from]; c->ticks[to] = c->ticks[from]; c->cycles[to] = c->cycles[from];
    c->ghz[to] = c->ghz[from]; c->fe[to] = c->fe[from];
    if (c->port) c->port[to] = c->port[from];
}

/* Count a contended side: the front end first, else the ports. */
CHRONO__PRIVATE void chrono__count_contended(const chrono_session *s, const chrono__columns *c, size_t i, chrono_result *r)
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
CHRONO__PRIVATE size_t chrono__drop_contended(chrono_session *s, chrono__columns *a, chrono_result *ra,
                                         chrono__columns *b, chrono_result *rb, size_t n, size_t quiet)
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
        unsigned w = (unsigned)CHRONO_WARN_SHARED_CORE | (fe_busy >= port_busy ? (unsigned)CHRONO_WARN_CONTENDED : 0u);
        ra->warnings |= w;
        if (rb) rb->warnings |= w;
        s->warnings |= w;
    }
    return k;
}

CHRONO__PRIVATE void chrono__result_init(chrono_result *r, const char *name, uint64_t iters)
{
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
}

/* The thread's CPU time and the elapsed time over spans of sampling (read
   at their ends, never inside a sample): chrono_result.cpu_share. */
typedef struct chrono__cpu_span { double cpu0, cpu_ns, wall_ns; uint64_t t0; } chrono__cpu_span;

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

/* At most 1: one thread is on a CPU no longer than the time elapses (the OS's
   CPU clock and the session's read a busy run 0.2-0.5% apart here). */
/* CPU time per iteration over `iters` iterations taken in the span; NAN unknown. */
CHRONO__PRIVATE double chrono__cpu_per_iter(const chrono__cpu_span *sp, double iters)
{
    return iters > 0 && sp->cpu_ns >= 0 ? sp->cpu_ns / iters : NAN;
}

CHRONO__PRIVATE double chrono__cpu_share(const chrono__cpu_span *sp)
{
    double f = sp->wall_ns > 0 && sp->cpu_ns >= 0 ? sp->cpu_ns / sp->wall_ns : NAN;
    return f > 1 ? 1 : f;
}

/* ---- memory figures ------------------------------------------------------------------ */
#if CHRONO__OS_POSIX && !CHRONO__OS_LINUX
#  include <sys/resource.h>
#endif
typedef struct chrono__mem { double minor, major, rss, ok; } chrono__mem;

/* Page faults so far (this thread's where the OS says) and the peak RSS in bytes. */
CHRONO__PRIVATE chrono__mem chrono__mem_read(void)
{
    chrono__mem m;
    m.minor = m.major = m.rss = NAN; m.ok = 0;
#if CHRONO__OS_LINUX || CHRONO__OS_POSIX
    {
        struct rusage u;
#  if CHRONO__OS_LINUX
        if (getrusage(RUSAGE_THREAD, &u) == 0) { m.minor = (double)u.ru_minflt; m.major = (double)u.ru_majflt; m.ok = 1; }
        if (getrusage(RUSAGE_SELF, &u) == 0) m.rss = (double)u.ru_maxrss * 1024.0;   /* KiB on Linux */
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

/* The peak RSS's growth since m0 (the run's start), and the allocator hook's
   counts for one more batch of fn. */
CHRONO__PRIVATE void chrono__mem_finish(const chrono_session *s, const chrono__mem *m0, chrono_fn fn, void *ctx,
                                        uint64_t iters, chrono_result *r)
{
    const chrono_memory_hook *h = s->cfg.memory_hook;
    chrono__mem m1;
    if (h && h->start && h->stop && iters) {
        uint64_t allocs = 0, bytes = 0;
        h->start(h->user);
        fn(ctx, iters);
        h->stop(h->user, &allocs, &bytes);
        r->allocs_per_iter = (double)allocs / (double)iters;
        r->alloc_bytes_per_iter = (double)bytes / (double)iters;
    }
    m1 = chrono__mem_read();
    if (m0->rss == m0->rss && m1.rss == m1.rss) r->max_rss_growth_bytes = m1.rss > m0->rss ? m1.rss - m0->rss : 0;
}

/* About a cycle an iteration or less, the loop itself: the body may be gone. */
CHRONO__PRIVATE void chrono__check_empty(const chrono_session *s, chrono_result *r)
{
    double c = r->has_cycles ? r->cycles.median : NAN;
    int empty = c == c ? c <= 1.25 : r->ns.median <= 0.4;
    if (empty && !s->cfg.expect_empty) r->warnings |= CHRONO_WARN_EMPTY_BODY;
}

/* A session-owned copy of v[0..n) (for the plots), made after the samples:
   *dst is NULL when n is 0 or memory ran out (the plots then do without). */
CHRONO__PRIVATE void chrono__keep_samples(chrono_session *s, const double *v, size_t n, const double **dst,
                                          size_t *ndst)
{
    double *p;
    *dst = NULL; *ndst = 0;
    if (n == 0 || chrono__grow((void **)&s->kept, &s->cap_kept, s->nkept + 1, sizeof *s->kept) < 0) return;
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

/* The start of a run: arguments checked, *out defined even on failure, the
   sample columns ready.  0 or the error. */
CHRONO__PRIVATE int chrono__run_open(chrono_session *s, const char *name, chrono_fn fn, chrono_result *out,
                                     size_t *attempts, chrono__columns *col)
{
    int rc = chrono__check_session(s);
    if (out) chrono__result_init(out, "", 0);
    if (rc < 0) return rc;
    if (!fn) return CHRONO_EINVAL;
    if ((rc = chrono__check_name(name)) < 0) return rc;
    *attempts = chrono__attempts(s);
    return chrono__columns_get(s, *attempts, col);
}

/* Turns an accepted sample's ticks into the body's own (chrono_run_setup:
   the timed calls alone); NULL: the sample as measured. */
typedef void (*chrono__net_fn)(void *ctx, uint64_t iters, chrono__sample *sm);

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
#define CHRONO__CONTROL_QUANTILE 0.6     /* the run warns when more than 40% of the controls read slow */
#define CHRONO__CONTROL_MIN 5            /* fewer controls decide nothing */

typedef struct chrono__controls {
    uint64_t adds;          /* one control's adds (0: not sized yet, or no reference chains) */
    double sample_cycles;   /* a sample's length in core cycles, from the first one accepted */
    size_t every;           /* a control after every `every` samples */
    size_t most;            /* at most this many: twice what .samples samples call for */
    size_t n;               /* readings in the columns' ctl */
    chrono__cpu_span *cpu;  /* the run's CPU-time span, paused over each control (NULL: none) */
} chrono__controls;

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
CHRONO__PRIVATE void chrono__controls_size(const chrono_session *s, const chrono__sample *sm, chrono__controls *c)
{
    double cycles = (double)sm->ticks * sm->cycles_per_tick, most = CHRONO__CONTROL_MAX_US * 1e3 * sm->ghz, adds;
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
CHRONO__PRIVATE void chrono__control(const chrono_session *s, chrono__controls *c, chrono__columns *col, size_t cap)
{
    chrono__sample sm;
    if (!c->adds || c->n >= cap || c->n >= c->most) return;
    if (c->cpu) chrono__cpu_stop(s, c->cpu);   /* a control's busy time is not the body's */
    chrono__take_sample(s, chrono__control_body, NULL, c->adds, &sm);
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
CHRONO__PRIVATE double chrono__controls_quantile(const double *ctl, size_t n, size_t k, uint64_t seed, double *scratch,
                                                 size_t m)
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
CHRONO__PRIVATE void chrono__controls_judge(const chrono_session *s, const chrono__controls *c, chrono__columns *col,
                                            size_t cap, chrono_result *r)
{
    double tol = s->cfg.ref_tolerance, k = c->adds ? c->sample_cycles / (double)c->adds : 1;
    size_t i, m = cap < CHRONO__CONTROL_DRAWS ? cap : CHRONO__CONTROL_DRAWS;
    r->controls = c->n;
    r->controls_slow = 0;
    for (i = 0; i < c->n; i++) r->controls_slow += (size_t)(col->ctl[i] > 1.0 + tol);
    if (c->n == 0) return;
    if (k > CHRONO__CONTROL_K_MAX) k = CHRONO__CONTROL_K_MAX;
    r->control_reading = chrono__controls_quantile(col->ctl, c->n, (size_t)(k + 0.5), s->cfg.seed, col->scratch, m);
    if (c->n >= CHRONO__CONTROL_MIN && r->control_reading > 1.0 + tol) r->warnings |= CHRONO_WARN_HOST_SLOWED;
}

/* One sample of body into a run's columns of cap rows: an accepted one at row
   *n (and the probes' quiet count updated), an interrupted one kept apart at
   the top while the run has taken no more than cap; then a control when one
   is due (ctl NULL: none). */
CHRONO__PRIVATE void chrono__one_sample(chrono_session *s, chrono_fn body, void *ctx, chrono__net_fn net, uint64_t iters,
                                        size_t cap, chrono__columns *col, size_t *n, size_t *quiet, size_t *soft,
                                        chrono__controls *ctl, chrono_result *r)
{
    chrono__sample sm;
    size_t before = *n;
    chrono__take_sample(s, body, ctx, iters, &sm);
    if (net && sm.status == CHRONO__OK) net(ctx, iters, &sm);
    if (ctl && sm.status == CHRONO__OK) chrono__controls_size(s, &sm, ctl);   /* the timed part's length */
    chrono__record(&sm, iters, &s->clock, col, n, r);
    if (*n > before) *quiet = chrono__note_fe(s, col->fe, NULL, col->port, NULL, *n, *quiet);
    else if (r->samples_taken <= cap) chrono__record_soft(&sm, iters, &s->clock, col, cap, soft);
    if (ctl && ctl->adds && r->samples_taken % ctl->every == 0) chrono__control(s, ctl, col, cap);
}

/* The samples of a run of body(ctx, iters), until chrono__more_samples says
   enough: rejected ones counted and replaced, contended ones dropped while
   quiet ones suffice, interrupted ones kept only when nothing else was
   (CHRONO_WARN_INTERRUPTED); controls between them (judged into r); page
   faults and the thread's CPU time (r->cpu_share) counted around them.  The
   rows kept. */
CHRONO__PRIVATE size_t chrono__run_samples(chrono_session *s, chrono_fn body, void *ctx, chrono__net_fn net,
                                           uint64_t iters, uint64_t start, size_t attempts, chrono__columns *col,
                                           chrono_result *r)
{
    chrono__mem mem = chrono__mem_read(), faults = CHRONO__MEM_NONE;
    chrono__cpu_span cpu = { 0, 0, 0, 0 };
    chrono__controls ctl;
    size_t n = 0, quiet = 0, soft = 0;
    memset(&ctl, 0, sizeof ctl);
    ctl.cpu = &cpu;
    chrono__cpu_start(s, &cpu);
    while (chrono__more_samples(s, start, r->samples_taken, n, quiet, &r->truncated))
        chrono__one_sample(s, body, ctx, net, iters, attempts, col, &n, &quiet, &soft, &ctl, r);
    chrono__cpu_stop(s, &cpu);
    r->cpu_share = chrono__cpu_share(&cpu);
    r->cpu_ns_per_iter = chrono__cpu_per_iter(&cpu, (double)r->samples_taken * (double)iters);
    chrono__mem_since(&mem, &faults);
    chrono__mem_faults(&faults, (double)r->samples_taken * (double)iters, r);
    chrono__controls_judge(s, &ctl, col, attempts, r);
    return n ? chrono__drop_contended(s, col, r, NULL, NULL, n, quiet) : chrono__use_soft(col, attempts, soft, r);
}

/* The end of a run: the allocator's figures (one more batch, after the
   samples), the statistics and the run's warnings (SHORT_BODY below
   min_cycles, or min_ns where cycles are unknown; 0: no such floor), a copy
   kept in the session and in *out.  0 or the error. */
CHRONO__PRIVATE int chrono__run_close(chrono_session *s, const chrono__mem *mem0, chrono_fn body, void *ctx, uint64_t iters,
                                      uint64_t start, chrono__columns *col, size_t n, double min_cycles, double min_ns,
                                      chrono_result *r, chrono_result *out)
{
    int rc;
    chrono__mem_finish(s, mem0, body, ctx, iters, r);
    r->wall_ms = chrono__elapsed_ms(s, start);
    if (r->migrated) r->warnings |= CHRONO_WARN_MIGRATED;
    chrono__keep_samples(s, col->ns, n, &r->sample_ns, &r->nsample_ns);
    rc = chrono__summarise(s, col, n, r);
    if (rc == 0) chrono__check_empty(s, r);
    if (rc == 0 && (r->has_cycles ? r->cycles.median < min_cycles : r->ns.median < min_ns))
        r->warnings |= CHRONO_WARN_SHORT_BODY;
    s->warnings |= r->warnings;
    if (rc == 0) rc = chrono__keep_result(s, r);
    if (out) *out = *r;
    return rc;
}

/* Size fn's batch, warm it up, size it again now that it is warm, and start
   *r with that size and the warm-up's time.  The iterations per sample. */
CHRONO__PRIVATE uint64_t chrono__run_warm(chrono_session *s, const char *name, chrono_fn fn, void *ctx, uint64_t start,
                                          chrono_result *r)
{
    uint64_t iters = chrono__size_batch(s, fn, ctx, 1, start, s->cfg.max_ms / 4);
    double warm = chrono__warmup(s, fn, ctx, iters, s->cfg.warmup_ms);
    iters = chrono__size_batch(s, fn, ctx, iters, start, s->cfg.max_ms / 2);
    chrono__result_init(r, name, iters);
    r->warmup_ms = warm;
    return iters;
}

CHRONO_API int chrono_run(chrono_session *s, const char *name, chrono_fn fn, void *ctx, chrono_result *out)
{
    chrono_result r;
    chrono__mem mem0;
    chrono__columns col;
    uint64_t start, iters;
    size_t n, attempts;
    int rc = chrono__run_open(s, name, fn, out, &attempts, &col);
    if (rc < 0) return rc;
    mem0 = chrono__mem_read();
    start = chrono__now(s);
    iters = chrono__run_warm(s, name, fn, ctx, start, &r);
    n = chrono__run_samples(s, fn, ctx, NULL, iters, start, attempts, &col, &r);
    return chrono__run_close(s, &mem0, fn, ctx, iters, start, &col, n, 0, 0, &r, out);
}

/* After gap k, samples until the run has taken its share of the total.
   Rejected ones are counted, not replaced: every gap gets the same number of
   whole samples, so the run's all_* figures weigh the stretches of time
   alike (replacing them would weigh a stretch where the core was shared and
   samples were rejected more than a quiet one).  Contended ones are dropped
   at the end like chrono_run's. */
CHRONO_API int chrono_run_between(chrono_session *s, const char *name, chrono_fn fn, void *ctx,
                                  chrono_between_fn between, void *between_ctx, size_t gaps, chrono_result *out)
{
    chrono_result r;
    chrono__mem mem0, mem, faults = CHRONO__MEM_NONE;
    chrono__cpu_span cpu = { 0, 0, 0, 0 };
    chrono__columns col;
    uint64_t start, iters;
    chrono__controls ctl;
    size_t n = 0, quiet = 0, soft = 0, attempts, total, cap, k;
    int rc = chrono__run_open(s, name, fn, out, &attempts, &col);
    memset(&ctl, 0, sizeof ctl);
    ctl.cpu = &cpu;
    if (rc < 0) return rc;
    if (!between || gaps == 0) return CHRONO_EINVAL;
    if (gaps > CHRONO_BETWEEN_GAPS_MAX) return CHRONO_ERANGE;
    total = gaps > (size_t)s->cfg.samples ? gaps : (size_t)s->cfg.samples;
    cap = total > attempts ? total : attempts;
    if ((rc = chrono__columns_get(s, cap, &col)) < 0) return rc;
    mem0 = chrono__mem_read();
    start = chrono__now(s);
    iters = chrono__run_warm(s, name, fn, ctx, start, &r);
    for (k = 0; k < gaps; k++) {
        size_t share = (total * (k + 1) + gaps - 1) / gaps;
        between(between_ctx, k);
        mem = chrono__mem_read();
        chrono__cpu_start(s, &cpu);
        while (r.samples_taken < share)
            chrono__one_sample(s, fn, ctx, NULL, iters, cap, &col, &n, &quiet, &soft, &ctl, &r);
        chrono__cpu_stop(s, &cpu);   /* the samples' own CPU time, not between's */
        chrono__mem_since(&mem, &faults);   /* the samples' own faults, not between's */
    }
    r.cpu_share = chrono__cpu_share(&cpu);
    r.cpu_ns_per_iter = chrono__cpu_per_iter(&cpu, (double)r.samples_taken * (double)iters);
    chrono__mem_faults(&faults, (double)r.samples_taken * (double)iters, &r);
    chrono__controls_judge(s, &ctl, &col, cap, &r);
    n = n ? chrono__drop_contended(s, &col, &r, NULL, NULL, n, quiet) : chrono__use_soft(&col, cap, soft, &r);
    return chrono__run_close(s, &mem0, fn, ctx, iters, start, &col, n, 0, 0, &r, out);
}

/* ---- A/B comparison ---------------------------------------------------------- */
/* Warm both up in alternating halves (A B A B), so neither runs on a colder machine. */
CHRONO__PRIVATE double chrono__warmup_pair(const chrono_session *s, chrono_fn a, void *ca, chrono_fn b, void *cb,
                                      uint64_t iters)
{
    double half = s->cfg.warmup_ms / 2;
    return chrono__warmup(s, a, ca, iters, half) + chrono__warmup(s, b, cb, iters, half) +
           chrono__warmup(s, a, ca, iters, half) + chrono__warmup(s, b, cb, iters, half);
}

/* Columns c from row `off` on (a segment of a run). */
CHRONO__PRIVATE chrono__columns chrono__columns_at(const chrono__columns *c, size_t off)
{
    chrono__columns x = *c;
    x.ns += off; x.ticks += off; x.cycles += off; x.ghz += off; x.fe += off; x.port += off; x.scratch += off;
    x.ctl += off;
    return x;
}

/* Interleaved rounds of A and B (ABBA) into ca, cb from row 0, the contended
   ones dropped; returns the pairs kept.  more == 0: the run's own rounds
   (chrono__more_samples); else up to .samples more quiet pairs, for a run
   that already has `more` rows, until max_ms and while the columns have room. */
CHRONO__PRIVATE size_t chrono__pair_rounds(chrono_session *s, chrono_fn a, void *ctx_a, chrono_fn b, void *ctx_b,
                                      uint64_t iters, chrono__columns *ca, chrono__columns *cb, chrono_comparison *cmp,
                                      uint64_t start, size_t more, size_t *round)
{
    chrono__sample sa, sb;
    size_t n = 0, quiet = 0, taken0 = *round, room = chrono__attempts(s) - more, want = (size_t)s->cfg.samples, soft = 0;
    for (;; ++*round) {
        size_t na = n, nb = n;
        if (more == 0 && !chrono__more_samples(s, start, *round, n, quiet, &cmp->a.truncated)) break;
        if (more && (quiet >= want || n + 1 >= room || *round - taken0 >= room ||
                     chrono__elapsed_ms(s, start) >= s->cfg.max_ms))
            break;
        if (*round & 1) {   /* ABBA: odd rounds run B first */
            chrono__take_sample(s, b, ctx_b, iters, &sb);
            chrono__take_sample(s, a, ctx_a, iters, &sa);
        } else {
            chrono__take_sample(s, a, ctx_a, iters, &sa);
            chrono__take_sample(s, b, ctx_b, iters, &sb);
        }
        chrono__record(&sa, iters, &s->clock, ca, &na, &cmp->a);
        chrono__record(&sb, iters, &s->clock, cb, &nb, &cmp->b);
        if (na > n && nb > n) quiet = chrono__note_fe(s, ca->fe, cb->fe, ca->port, cb->port, ++n, quiet);   /* both accepted */
        else if (chrono__soft(&sa) && chrono__soft(&sb) && n + soft + 1 < room) {   /* only interrupted: kept apart */
            chrono__soft_row(&sa, iters, &s->clock, ca, room - 1 - soft);
            chrono__soft_row(&sb, iters, &s->clock, cb, room - 1 - soft);
            soft++;
        }
    }
    if (n == 0 && soft) {   /* no pair accepted: the interrupted ones, marked (chrono__use_soft) */
        n = chrono__use_soft(ca, room, soft, &cmp->a);
        (void)chrono__use_soft(cb, room, soft, &cmp->b);
        cmp->warnings |= CHRONO_WARN_INTERRUPTED;
        return n;
    }
    return chrono__drop_contended(s, ca, &cmp->a, cb, &cmp->b, n, quiet);
}

/* The paired ratio of n rows and its interval, widened by the quantisation
   of the samples (the clock's resolution over the median sample, each side);
   *unstable: the two halves' intervals do not overlap (the ratio changed
   level), and then the interval covers both halves' too. */
CHRONO__PRIVATE int chrono__pair_ratio(const chrono_session *s, const chrono__columns *ca, const chrono__columns *cb,
                                  size_t n, uint64_t iters, chrono_ratio *out, int *unstable)
{
    chrono_ratio h1, h2;
    double q, ta, tb, res = (double)(s->clock.resolution_ticks ? s->clock.resolution_ticks : 1);
    size_t h = n / 2, i;
    int rc = chrono_stats_ratio(ca->ns, cb->ns, n, s->cfg.confidence, ca->scratch, out);
    *unstable = 0;
    if (rc < 0) return rc;
    /* median sample ticks of each side (scratch is free again) */
    for (i = 0; i < n; i++) ca->scratch[i] = ca->ticks[i];
    chrono_stats_sort(ca->scratch, n);
    ta = ca->scratch[n / 2] * (double)iters;
    for (i = 0; i < n; i++) ca->scratch[i] = cb->ticks[i];
    chrono_stats_sort(ca->scratch, n);
    tb = ca->scratch[n / 2] * (double)iters;
    q = (ta > 0 ? res / ta : 0) + (tb > 0 ? res / tb : 0);
    if (h >= 8 && chrono_stats_ratio(ca->ns, cb->ns, h, s->cfg.confidence, ca->scratch, &h1) == 0 &&
        chrono_stats_ratio(ca->ns + h, cb->ns + h, n - h, s->cfg.confidence, ca->scratch, &h2) == 0 &&
        (h1.ci_high * (1 + q) < h2.ci_low * (1 - q) || h2.ci_high * (1 + q) < h1.ci_low * (1 - q))) {
        *unstable = 1;
        if (h1.ci_low < out->ci_low) out->ci_low = h1.ci_low;
        if (h2.ci_low < out->ci_low) out->ci_low = h2.ci_low;
        if (h1.ci_high > out->ci_high) out->ci_high = h1.ci_high;
        if (h2.ci_high > out->ci_high) out->ci_high = h2.ci_high;
    }
    out->ci_low *= 1 - q;
    out->ci_high *= 1 + q;
    return 0;
}

/* The paired rounds of a comparison into ca, cb, their ratio into *ratio
   (*rc: its error), and more rounds when the ratio changed level (UNSTABLE
   if it still does); the thread's CPU time over them into both sides.  The
   pairs kept. */
CHRONO__PRIVATE size_t chrono__compare_rounds(chrono_session *s, chrono_fn a, void *ctx_a, chrono_fn b, void *ctx_b,
                                              uint64_t iters, chrono__columns *ca, chrono__columns *cb,
                                              chrono_comparison *cmp, uint64_t start, chrono_ratio *ratio, int *rc)
{
    chrono__cpu_span cpu = { 0, 0, 0, 0 };
    size_t n, round = 0;
    int unstable = 0;
    chrono__cpu_start(s, &cpu);
    n = chrono__pair_rounds(s, a, ctx_a, b, ctx_b, iters, ca, cb, cmp, start, 0, &round);
    *rc = chrono__pair_ratio(s, ca, cb, n, iters, ratio, &unstable);
    if (*rc == 0 && unstable) {   /* the ratio changed level: more rounds, within the budget */
        chrono__columns xa = chrono__columns_at(ca, n), xb = chrono__columns_at(cb, n);
        n += chrono__pair_rounds(s, a, ctx_a, b, ctx_b, iters, &xa, &xb, cmp, start, n, &round);
        *rc = chrono__pair_ratio(s, ca, cb, n, iters, ratio, &unstable);
        if (unstable) cmp->warnings |= CHRONO_WARN_UNSTABLE;
    }
    chrono__cpu_stop(s, &cpu);
    cmp->a.cpu_share = cmp->b.cpu_share = chrono__cpu_share(&cpu);
    cmp->a.cpu_ns_per_iter = cmp->b.cpu_ns_per_iter =
        chrono__cpu_per_iter(&cpu, (double)(cmp->a.samples_taken + cmp->b.samples_taken) * (double)iters);
    return n;
}

CHRONO_API int chrono_compare(chrono_session *s, const char *name_a, chrono_fn a, void *ctx_a,
                              const char *name_b, chrono_fn b, void *ctx_b, chrono_comparison *out)
{
    chrono_comparison cmp;
    chrono__columns ca, cb;
    chrono_ratio ratio;
    uint64_t start, iters, ib;
    double warm;
    size_t n, attempts, round;
    int rc = chrono__check_session(s);
    if (out) {   /* defined even on failure */
        memset(out, 0, sizeof *out);
        chrono__result_init(&out->a, "", 0);
        chrono__result_init(&out->b, "", 0);
        out->ratio = out->ci_low = out->ci_high = out->ci_level = out->cycles_ratio = NAN;
        out->process_min_ratio = out->process_max_ratio = NAN;
    }
    if (rc < 0) return rc;
    if (!a || !b) return CHRONO_EINVAL;
    if ((rc = chrono__check_name(name_a)) < 0 || (rc = chrono__check_name(name_b)) < 0) return rc;
    attempts = chrono__attempts(s);
    /* Two runs' columns side by side in one block. */
    if ((rc = chrono__columns_get(s, 2 * attempts, &ca)) < 0) return rc;
    cb = chrono__columns_at(&ca, attempts);

    start = chrono__now(s);
    iters = chrono__size_batch(s, a, ctx_a, 1, start, s->cfg.max_ms / 8);
    ib = chrono__size_batch(s, b, ctx_b, 1, start, s->cfg.max_ms / 4);
    warm = chrono__warmup_pair(s, a, ctx_a, b, ctx_b, iters > ib ? iters : ib);
    /* Warm now: size again; both samples must reach the target. */
    iters = chrono__size_batch(s, a, ctx_a, iters, start, s->cfg.max_ms / 3);
    ib = chrono__size_batch(s, b, ctx_b, ib, start, s->cfg.max_ms / 2);
    if (ib > iters) iters = ib;
    memset(&cmp, 0, sizeof cmp);
    chrono__result_init(&cmp.a, name_a, iters);
    chrono__result_init(&cmp.b, name_b, iters);
    cmp.a.warmup_ms = cmp.b.warmup_ms = warm;

    n = chrono__compare_rounds(s, a, ctx_a, b, ctx_b, iters, &ca, &cb, &cmp, start, &ratio, &rc);
    cmp.b.truncated = cmp.a.truncated;
    /* Rejections were counted per side; the statistics use the kept pairs. */
    cmp.a.wall_ms = cmp.b.wall_ms = chrono__elapsed_ms(s, start);
    if (cmp.a.migrated || cmp.b.migrated) {
        cmp.a.warnings |= CHRONO_WARN_MIGRATED;
        cmp.b.warnings |= CHRONO_WARN_MIGRATED;
    }
    chrono__keep_samples(s, ca.ns, n, &cmp.a.sample_ns, &cmp.a.nsample_ns);
    chrono__keep_samples(s, cb.ns, n, &cmp.b.sample_ns, &cmp.b.nsample_ns);
    for (round = 0; round < n; round++) ca.scratch[round] = cb.ns[round] > 0 ? ca.ns[round] / cb.ns[round] : NAN;
    chrono__keep_samples(s, ca.scratch, n, &cmp.pair_ratios, &cmp.npair_ratios);
    {   /* the sides' statistics even when the ratio failed (no pairs: CHRONO_ENOSAMPLES first) */
        int rs = chrono__summarise(s, &ca, n, &cmp.a), rs_b = chrono__summarise(s, &cb, n, &cmp.b);
        if (rs == 0) rs = rs_b;
        if (rs < 0) rc = rs;
    }
    if (rc == 0) { chrono__check_empty(s, &cmp.a); chrono__check_empty(s, &cmp.b); }
    if (rc == 0 && chrono_stats_level_short(ratio.ci_level, s->cfg.confidence)) cmp.warnings |= CHRONO_WARN_LOW_LEVEL;
    cmp.warnings |= cmp.a.warnings | cmp.b.warnings;
    s->warnings |= cmp.warnings;
    cmp.rounds = n;
    cmp.cycles_ratio = cmp.process_min_ratio = cmp.process_max_ratio = NAN;
    if (rc == 0) {
        cmp.ratio = ratio.ratio; cmp.ci_low = ratio.ci_low; cmp.ci_high = ratio.ci_high; cmp.ci_level = ratio.ci_level;
        cmp.process_min_ratio = cmp.process_max_ratio = ratio.ratio;
        if (s->has_cycles && chrono_stats_ratio(ca.cycles, cb.cycles, n, s->cfg.confidence, ca.scratch, &ratio) == 0)
            cmp.cycles_ratio = ratio.ratio;
        rc = chrono__grow((void **)&s->comparisons, &s->cap_comparisons, s->ncomparisons + 1, sizeof cmp);
        if (rc == 0) s->comparisons[s->ncomparisons++] = cmp;
    }
    if (out) *out = cmp;
    return rc;
}

/* ---- sweeps -------------------------------------------------------------------- */
typedef struct chrono__sweep_point { chrono_sweep_fn fn; void *ctx; uint64_t param; } chrono__sweep_point;

CHRONO__PRIVATE void chrono__sweep_trampoline(void *ctx, uint64_t iters)
{
    chrono__sweep_point *p = (chrono__sweep_point *)ctx;
    p->fn(p->ctx, p->param, iters);
}

/* fixed + per_unit * x through the medians, weighted for relative errors
   (the points span decades: unweighted, the largest points decide alone and
   the fixed cost drowns in their noise), with normal-theory intervals from
   the weighted residuals.  When the weighted fit cannot be made (a median of
   0), plain least squares without intervals. */
CHRONO__PRIVATE int chrono__sweep_fit(const double *x, const double *ones, const double *y, size_t n, double confidence,
                                      double *fixed, double fixed_ci[2], double *per_unit, double per_unit_ci[2], double *r2)
{
    double z = chrono_stats_z(confidence);
    chrono_fit2 f;
    chrono_fit plain;
    int rc;
    fixed_ci[0] = fixed_ci[1] = per_unit_ci[0] = per_unit_ci[1] = NAN;
    if (chrono_stats_fit2(ones, x, y, n, CHRONO_FIT2_RELATIVE, NULL, &f) == 0) {
        *fixed = f.a; *per_unit = f.b; *r2 = f.r2;
        if (chrono__finite(f.se_a) && chrono__finite(z)) {
            fixed_ci[0] = f.a - z * f.se_a; fixed_ci[1] = f.a + z * f.se_a;
            per_unit_ci[0] = f.b - z * f.se_b; per_unit_ci[1] = f.b + z * f.se_b;
        }
        return 0;
    }
    if ((rc = chrono_stats_fit(x, y, n, &plain)) < 0) return rc;
    *fixed = plain.intercept; *per_unit = plain.slope; *r2 = plain.r2;
    return 0;
}

CHRONO_API int chrono_sweep(chrono_session *s, const char *name, chrono_sweep_fn fn, void *ctx,
                            const uint64_t *params, size_t nparams, chrono_sweep_result *out)
{
    chrono_sweep_result sw;
    chrono__sweep_point pt;
    double *x, *y, *yc, *ones;
    size_t i;
    int rc = chrono__check_session(s);
    if (out) {   /* defined even on failure */
        memset(out, 0, sizeof *out);
        out->per_unit_ns = out->fixed_ns = out->r2 = NAN;
        out->per_unit_cycles = out->fixed_cycles = out->r2_cycles = NAN;
    }
    if (rc < 0) return rc;
    if (!fn || !params || nparams < 2 || nparams > 10000) return CHRONO_EINVAL;
    for (i = 1; i < nparams && (double)params[i] == (double)params[0]; i++) {}
    if (i == nparams) return CHRONO_EINVAL;   /* every param the same (as a double): no line to fit */
    if ((rc = chrono__check_name(name)) < 0) return rc;
    if (strlen(name) + 22 >= CHRONO_NAME_MAX) return CHRONO_ERANGE;
    memset(&sw, 0, sizeof sw);
    strcpy(sw.name, name);
    sw.first_result = s->nresults;
    pt.fn = fn; pt.ctx = ctx;
    for (i = 0; i < nparams; i++) {
        char point[CHRONO_NAME_MAX];
        pt.param = params[i];
        chrono__bprintf(point, sizeof point, "%s/%llu", name, (unsigned long long)params[i]);
        if ((rc = chrono_run(s, point, chrono__sweep_trampoline, &pt, NULL)) < 0) return rc;
    }
    x = (double *)CHRONO_MALLOC(4 * nparams * sizeof(double));   /* x, y, cycles, and the fits' column of ones */
    if (!x) return CHRONO_ENOMEM;
    y = x + nparams; yc = y + nparams; ones = yc + nparams;
    for (i = 0; i < nparams; i++) {
        const chrono_result *r = &s->results[sw.first_result + i];
        x[i] = (double)params[i]; y[i] = r->ns.median; yc[i] = r->cycles.median; ones[i] = 1.0;
    }
    sw.points = nparams;
    rc = chrono__sweep_fit(x, ones, y, nparams, s->cfg.confidence, &sw.fixed_ns, sw.fixed_ci, &sw.per_unit_ns, sw.per_unit_ci, &sw.r2);
    sw.per_unit_cycles = sw.fixed_cycles = sw.r2_cycles = NAN;
    sw.per_unit_cycles_ci[0] = sw.per_unit_cycles_ci[1] = sw.fixed_cycles_ci[0] = sw.fixed_cycles_ci[1] = NAN;
    if (rc == 0 && s->has_cycles)
        (void)chrono__sweep_fit(x, ones, yc, nparams, s->cfg.confidence, &sw.fixed_cycles, sw.fixed_cycles_ci,
                                &sw.per_unit_cycles, sw.per_unit_cycles_ci, &sw.r2_cycles);
    CHRONO_FREE(x);
    if (rc == 0) rc = chrono__grow((void **)&s->sweeps, &s->cap_sweeps, s->nsweeps + 1, sizeof sw);
    if (rc == 0) s->sweeps[s->nsweeps++] = sw;
    if (out) *out = sw;
    return rc;
}


/* ---- untimed setup before every call ------------------------------------------------ */
/* The shortest body chrono_run_setup measures within 2% here (cycles; ns
   where cycles are unknown): below it a run warns CHRONO_WARN_SHORT_BODY.
   Measured on a Zen 5 guest (TSC 2.1 GHz in 26-tick steps, core 3.8 GHz),
   dependent adds after a 20000-add setup, against chrono_run: 1000 adds
   +0.1..+0.8%, 500 +0.4..0.5%, 200 -0.1..+0.8%, 100 -0.9..+2.8%, 50 +0.6..+5.9%. */
#define CHRONO__SETUP_MIN_CYCLES 200.0
#define CHRONO__SETUP_MIN_NS 60.0

typedef struct chrono__setup_tramp {
    const chrono_session *s;
    chrono_setup_fn setup;
    chrono_fn fn;
    void *ctx;
    uint64_t raw;          /* ticks of the last batch's timed calls, summed */
    double fixed;          /* ticks one timed call costs besides the body (chrono__setup_fixed) */
} chrono__setup_tramp;

/* A batch of `iters` calls, each after its setup, each timed alone (the
   sum in t->raw); as a chrono_fn, so the runner's samples bracket it. */
CHRONO__PRIVATE void chrono__setup_batch(void *p, uint64_t iters)
{
    chrono__setup_tramp *t = (chrono__setup_tramp *)p;
    const chrono_clock *c = &t->s->clock;
    uint64_t i, sum = 0;
    for (i = 0; i < iters; i++) {
        uint64_t t0, t1;
        if (t->setup) t->setup(t->ctx);
        t0 = chrono_clock_start(c);
        t->fn(t->ctx, 1);
        t1 = chrono_clock_stop(c);
        if (t1 > t0) sum += t1 - t0;
    }
    t->raw = sum;
}

/* A chain of *(uintptr_t *)ctx dependent adds, a body of known cycles. */
CHRONO__PRIVATE void chrono__setup_chain(void *ctx, uint64_t iters)
{
    (void)iters;
    chrono__ref_chain(*(const uintptr_t *)ctx);
}

/* Mean of k timed calls of fn(ctx, 1), ticks, without the outliers
   (interruptions: above the median by 4 clock steps).  Each call follows
   an untimed chain of varying length, so the clock's steps fall at varying
   phases (as the user's setup makes them) and the mean of the quantised
   readings is unbiased; a trimmed mean or a median would not be. */
CHRONO__PRIVATE double chrono__setup_mean(const chrono_session *s, chrono_fn volatile fn, void *ctx, double *d, int k)
{
    double med, lim, sum = 0;
    int i, m = 0;
    for (i = 0; i < k; i++) {
        uint64_t t0, t1;
        chrono__ref_chain((uintptr_t)(16 * (1 + (i * 7) % 13)));
        t0 = chrono_clock_start(&s->clock);
        fn(ctx, 1);
        t1 = chrono_clock_stop(&s->clock);
        d[i] = t1 > t0 ? (double)(t1 - t0) : 0;
    }
    for (i = 0; i < k; i++) d[k + i] = d[i];
    chrono_stats_sort(d + k, (size_t)k);
    med = d[k + k / 2];
    lim = med + 4.0 * (double)(s->clock.resolution_ticks ? s->clock.resolution_ticks : 1);
    for (i = 0; i < k; i++)
        if (d[i] > 0 && d[i] <= lim) { sum += d[i]; m++; }
    return m ? sum / m : med;
}

/* What timing one call costs besides its body: the clock's reads and an
   indirect call.  Not the empty region's cost: the body's first
   instructions run while the start's read completes (measured here: 1000
   adds timed call by call read 952 cycles with the empty region's cost
   subtracted).  So, as for the reference chains, from bodies of N and 2N
   dependent adds timed the same way: 2 t(N) - t(2N), means (the sum of
   many quantised calls is unbiased only against a mean).  Where there is no chain, the empty region's median. */
CHRONO__PRIVATE double chrono__setup_fixed(const chrono_session *s)
{
    enum { K = 2001 };
    uintptr_t n1 = 256, n2 = 512;
    double *d, one, two, est[3];
    int i;
    if (!CHRONO__HAS_REF_CHAIN || !(d = (double *)CHRONO_MALLOC(2 * K * sizeof(double))))
        return (double)s->clock.overhead_ticks;
    for (i = 0; i < 3; i++) {   /* the median of three estimates: a burst of noise spoils one */
        one = chrono__setup_mean(s, chrono__setup_chain, &n1, d, K);
        two = chrono__setup_mean(s, chrono__setup_chain, &n2, d, K);
        one = (chrono__setup_mean(s, chrono__setup_chain, &n1, d, K) + one) / 2;   /* N 2N N: drift cancels */
        est[i] = 2 * one - two;
    }
    CHRONO_FREE(d);
    chrono_stats_sort(est, 3);
    return est[1] > 0 ? est[1] : 0;
}

/* The net ticks of the last batch: its calls less the fixed cost of each. */
CHRONO__PRIVATE uint64_t chrono__setup_net(const chrono__setup_tramp *t, uint64_t iters, double fixed)
{
    double net = (double)t->raw - fixed * (double)iters;
    return net > 0 ? (uint64_t)(net + 0.5) : 0;
}

/* Calls per sample: grow until the timed calls add up to the runner's
   target, or a sample (setups included) lasts 20 targets. */
CHRONO__PRIVATE uint64_t chrono__setup_size(const chrono_session *s, chrono__setup_tramp *t, double fixed,
                                            uint64_t iters, uint64_t since, double budget_ms)
{
    uint64_t target = chrono__target_ticks(s);
    for (;;) {
        uint64_t w = chrono__time_once(s, chrono__setup_batch, t, iters), net = chrono__setup_net(t, iters, fixed), grow;
        if (net >= target || w >= 20 * target) return iters;
        if (iters >= CHRONO__ITERS_MAX || chrono__elapsed_ms(s, since) > budget_ms) return iters;
        grow = net > 0 ? (uint64_t)((double)iters * 1.2 * (double)target / (double)net) + 1 : iters * 100;
        if (w > 0 && grow > (uint64_t)((double)iters * 20.0 * (double)target / (double)w) + 1)
            grow = (uint64_t)((double)iters * 20.0 * (double)target / (double)w) + 1;
        if (grow > iters * 100) grow = iters * 100;
        if (grow <= iters) grow = iters + 1;
        iters = grow < CHRONO__ITERS_MAX ? grow : CHRONO__ITERS_MAX;
    }
}

/* chrono__net_fn of chrono_run_setup: the timed calls alone, their fixed cost off. */
CHRONO__PRIVATE void chrono__setup_net_sample(void *ctx, uint64_t iters, chrono__sample *sm)
{
    const chrono__setup_tramp *t = (const chrono__setup_tramp *)ctx;
    sm->ticks = chrono__setup_net(t, iters, t->fixed);
}

CHRONO_API int chrono_run_setup(chrono_session *s, const char *name, chrono_setup_fn setup, chrono_fn fn, void *ctx,
                                chrono_result *out)
{
    chrono_result r;
    chrono__columns col;
    chrono__setup_tramp t;
    chrono__mem mem0;
    uint64_t start, iters;
    double warm;
    size_t n, attempts;
    int rc = chrono__run_open(s, name, fn, out, &attempts, &col);
    if (rc < 0) return rc;
    t.s = s; t.setup = setup; t.fn = fn; t.ctx = ctx; t.raw = 0;
    mem0 = chrono__mem_read();
    start = chrono__now(s);
    t.fixed = chrono__setup_fixed(s);
    iters = chrono__setup_size(s, &t, t.fixed, 1, start, s->cfg.max_ms / 4);
    warm = chrono__warmup(s, chrono__setup_batch, &t, iters, s->cfg.warmup_ms);
    iters = chrono__setup_size(s, &t, t.fixed, iters, start, s->cfg.max_ms / 2);
    chrono__result_init(&r, name, iters);
    r.warmup_ms = warm;
    /* the setups' page faults and CPU time are counted too */
    n = chrono__run_samples(s, chrono__setup_batch, &t, chrono__setup_net_sample, iters, start, attempts, &col, &r);
    return chrono__run_close(s, &mem0, chrono__setup_batch, &t, iters, start, &col, n, CHRONO__SETUP_MIN_CYCLES,
                             CHRONO__SETUP_MIN_NS, &r, out);
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_BENCH_IMPL */

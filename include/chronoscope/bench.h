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

   How a run measures (docs/measuring.md says the same for users):
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

#include "engine.h"

/* ---- keeping values alive ------------------------------------------------ */
/* chrono_keep(x) keeps any expression's value, as Google Benchmark's
   DoNotOptimize: chrono_keep(strlen(s)), chrono_keep(a + b), chrono_keep(v).
   The value must exist in a register or memory, so the optimizer can neither
   drop its computation nor hoist it out of the loop; the "memory" clobber
   makes memory the value points to reachable.  In C++ a modifiable lvalue is
   also one the optimizer must forget (the asm may have changed it: a constant
   input hidden with chrono_keep(n) before a loop is read again), as
   DoNotOptimize's non-const overload; in C every expression is kept as a
   value.  Without GNU asm (MSVC) C++ keeps any expression through a volatile
   read, C an lvalue only (with C23's or MSVC 17.9's typeof: any expression).  CHRONO__KEEP_PORTABLE
   (private: the tests) takes that path under gcc and clang too. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(CHRONO__KEEP_PORTABLE)
#  if defined(__cplusplus)
extern "C++" {
template <class T> inline void chrono__keep(T &x)
{
    __asm__ __volatile__("" : "+rm"(x) : : "memory");
}
template <class T> inline void chrono__keep(const T &x)
{
    __asm__ __volatile__("" : : "r,m"(x) : "memory");
}
}
#    define chrono_keep(x) chrono__keep(x)
#  else
#    define chrono_keep(x) __asm__ __volatile__("" : : "r,m"(x) : "memory")
#  endif
#else
CHRONO__INLINE void chrono__keep_ptr(volatile const void *p) { (void)*(volatile const char *)p; }
#  if defined(__cplusplus)
extern "C++" {
template <class T> inline void chrono__keep(const T &x) { chrono__keep_ptr(&x); }
}
#    define chrono_keep(x) chrono__keep(x)
#  elif (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 202311L) || \
    (defined(_MSC_VER) && _MSC_VER >= 1939)
#    define chrono_keep(x) \
    do { \
        __typeof__(x) chrono__kept = (x); \
        chrono__keep_ptr(&chrono__kept); \
    } while (0)
#  else
#    define chrono_keep(x) chrono__keep_ptr((volatile const void *)&(x))
#  endif
#endif
#if (defined(__GNUC__) || defined(__clang__))
CHRONO__INLINE void chrono_clobber(void) { __asm__ __volatile__("" : : : "memory"); }
#else
CHRONO__INLINE void chrono_clobber(void) { _ReadWriteBarrier(); }
#endif

/* ---- functions ------------------------------------------------------------ */
CHRONO__EXTERN_C_BEGIN
/* ---- configuration ------------------------------------------------------------ */
CHRONO_API chrono_config chrono_config_default(void);

/* Open a session: resolve the configuration, pin the thread, open and
   calibrate the clock, read the environment.  cfg may be NULL. */
CHRONO_API int chrono_session_open_at(chrono_session *s, const chrono_config *cfg,
                                      unsigned long caller);
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
CHRONO_API int chrono_run(chrono_session *s, const char *name, chrono_fn fn, void *ctx,
                          chrono_result *out);

/* Interleaved A/B: rounds ordered ABBA, the ratio a/b of the per-iteration
   times and its interval from the median of the paired log-ratios.  Each side
   is sized to the target sample length on its own (sides within 4x share the
   larger count), so a 13 ns body against a 54 us one gets samples of the
   same length on both sides.  A body whose work depends on the iteration
   index must keep its position in ctx: the sides' counts may differ. */
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
                                  chrono_between_fn between, void *between_ctx, size_t gaps,
                                  chrono_result *out);

/* Untimed setup before every call: setup(ctx) runs before each fn(ctx, 1),
   and only fn is timed, call by call (see "Setup per iteration" above).
   setup may be NULL.  The result is kept in the session like chrono_run's. */
typedef void (*chrono_setup_fn)(void *ctx);
CHRONO_API int chrono_run_setup(chrono_session *s, const char *name, chrono_setup_fn setup,
                                chrono_fn fn, void *ctx, chrono_result *out);

CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_BENCH_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_BENCH_IMPL)
#define CHRONOSCOPE_BENCH_IMPL

CHRONO__EXTERN_C_BEGIN


CHRONO_API chrono_config chrono_config_default(void)
{
    chrono_config c;
    memset(&c, 0, sizeof c);
    c.samples = CHRONO_DEFAULT_SAMPLES;
    c.warmup_ms = CHRONO_DEFAULT_WARMUP_MS;
    c.min_sample_us = 50;
    c.max_ms = CHRONO_DEFAULT_MAX_MS;
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
    if (!chrono__finite_nonneg(in->contention_tolerance) &&
        in->contention_tolerance != CHRONO_CONTENTION_OFF)
        return CHRONO_EINVAL;
    if (!(in->confidence == 0 || (in->confidence > 0 && in->confidence < 1))) return CHRONO_EINVAL;
    if ((int)in->pin < CHRONO_PIN_AUTO || (int)in->pin > CHRONO_PIN_PREFER) return CHRONO_EINVAL;
    if ((int)in->cycles < CHRONO_CYCLES_AUTO || (int)in->cycles > CHRONO_CYCLES_OFF)
        return CHRONO_EINVAL;
    if ((in->pin == CHRONO_PIN_CPU || in->pin == CHRONO_PIN_PREFER) && in->cpu < CHRONO_CPU_CURRENT)
        return CHRONO_EINVAL;
    if (in->custom_clock &&
        !(in->custom_clock->hz > 0 && in->custom_clock->hz < 1e12 &&
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


/* Why the session's timings are an emulator's, into why (n bytes): its
   name, or what says so; 0 when nothing does. */
CHRONO__PRIVATE int chrono__emulated_why(const chrono_session *s, char *why, size_t n)
{
    const char *env = getenv("CHRONO_EMULATED");
    char ghz[32];
    /* a clock of the user's counts what it says */
    if (s->clock.source == CHRONO_CLOCK_CUSTOM) return 0;
    if (s->env.emulator[0]) chrono__str_copy(why, n, s->env.emulator);
    else if (chrono__under_valgrind()) chrono__str_copy(why, n, "valgrind");
    else if (env && env[0] && strcmp(env, "0") != 0) chrono__str_copy(why, n, "CHRONO_EMULATED=1");
    else if (s->core_ghz == s->core_ghz && (s->core_ghz < 0.8 || s->core_ghz > 7.0))
        (void)chrono__bprintf(why, n, "a %s GHz core",
                              chrono__num(ghz, sizeof ghz, "%.2f", s->core_ghz));
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

CHRONO_API int chrono_session_open_at(chrono_session *s, const chrono_config *cfg,
                                      unsigned long caller)
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
    /* the session decides (a custom clock is not) */
    s->warnings |= s->env.warnings & ~(unsigned)CHRONO_WARN_EMULATED;
    if (s->clock.source == CHRONO_CLOCK_TSC && !s->clock.invariant_tsc)
        s->warnings |= CHRONO_WARN_NO_INVARIANT_TSC;
    s->ref_adds = CHRONO__REF_ADDS;
    s->has_cycles = CHRONO__HAS_REF_CHAIN && s->cfg.cycles == CHRONO_CYCLES_AUTO;
    if (s->has_cycles) s->ref_fixed_ticks = (uint64_t)(chrono__ref_fixed(s) + 0.5);
    s->core_ghz = s->has_cycles ? chrono__core_ghz(s) : NAN;
    if (!(s->core_ghz > 0)) s->has_cycles = 0;
    chrono__session_emulation(s);
    s->fe_best = INFINITY;
    s->port_expect = chrono__port_expect(s);
    /* those refused: said in the environment */
    (void)chrono_counters_open(&s->counters, s->cfg.counters);
    s->is_open = 1;
    return 0;
}


CHRONO_API void chrono_session_close(chrono_session *s)
{
    if (!s || !s->is_open) return;
    chrono_cpu_unpin(&s->pin);
    chrono_counters_close(&s->counters);
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



CHRONO__PRIVATE int chrono__check_name(const char *name)
{
    if (!name || !*name) return CHRONO_EINVAL;
    if (strlen(name) >= CHRONO_NAME_MAX) return CHRONO_ERANGE;
    return 0;
}


/* The peak RSS's growth since m0 (the run's start), and the allocator hook's
   counts for one more batch of fn. */
CHRONO__PRIVATE void chrono__mem_finish(const chrono_session *s, const chrono__mem *m0,
                                        chrono_fn fn, void *ctx, uint64_t iters, chrono_result *r)
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
    if (m0->rss == m0->rss && m1.rss == m1.rss)
        r->max_rss_growth_bytes = m1.rss > m0->rss ? m1.rss - m0->rss : 0;
}

/* About a cycle an iteration or less, the loop itself: the body may be gone. */
CHRONO__PRIVATE void chrono__check_empty(const chrono_session *s, chrono_result *r)
{
    double c = r->has_cycles ? r->cycles.median : NAN;
    int empty = c == c ? c <= 1.25 : r->ns.median <= 0.4;
    if (empty && !s->cfg.expect_empty) r->warnings |= CHRONO_WARN_EMPTY_BODY;
}

/* ---- the body's own counters (types.h, chrono_user_counter) ---------------------- */
/* Whether the configuration's counters can be read: a count within
   CHRONO_USER_COUNTERS_MAX, each named 1-31 of A-Z a-z 0-9 _ - . */
CHRONO__PRIVATE int chrono__user_check(const chrono_session *s)
{
    int k;
    if (s->cfg.nuser_counters < 0 || s->cfg.nuser_counters > CHRONO_USER_COUNTERS_MAX)
        return CHRONO_EINVAL;
    if (s->cfg.nuser_counters && !s->cfg.user_counters) return CHRONO_EINVAL;
    for (k = 0; k < s->cfg.nuser_counters; k++) {
        const char *c = s->cfg.user_counters[k].name;
        size_t len = c ? strlen(c) : 0;
        if (len == 0 || len >= CHRONO_USER_NAME_MAX ||
            strspn(c, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.") != len)
            return CHRONO_EINVAL;
    }
    return 0;
}

/* Every count to 0: the samples start. */
CHRONO__PRIVATE void chrono__user_zero(const chrono_session *s)
{
    int k;
    for (k = 0; k < s->cfg.nuser_counters; k++) s->cfg.user_counters[k].value = 0;
}

/* The counts over the iterations the samples ran (before any other batch),
   whatever batches they ran in. */
CHRONO__PRIVATE void chrono__user_read(const chrono_session *s, chrono_result *r)
{
    double iters = (double)r->iters_taken;
    int k;
    for (k = 0; k < s->cfg.nuser_counters; k++) {
        const chrono_user_counter *c = &s->cfg.user_counters[k];
        chrono__str_copy(r->user[k].name, sizeof r->user[k].name, c->name);
        r->user[k].rate = c->rate;
        r->user[k].per_iter = iters > 0 ? c->value / iters : NAN;
    }
    r->nuser = s->cfg.nuser_counters;
}

/* The start of a run: arguments checked, *out defined even on failure.  0
   or the error. */
CHRONO__PRIVATE int chrono__run_open(chrono_session *s, const char *name, chrono_fn fn,
                                     chrono_result *out)
{
    int rc = chrono__check_session(s);
    if (out) chrono__result_init(out, "", 0);
    if (rc < 0) return rc;
    if (!fn || chrono__user_check(s) < 0) return CHRONO_EINVAL;
    return chrono__check_name(name);
}

/* The engine of a run of fn into *r: one side, `rows` rows, controls on. */
CHRONO__PRIVATE int chrono__run_engine(chrono_engine *e, chrono_session *s, const char *name,
                                       chrono_fn fn, void *ctx, size_t rows, chrono_result *r)
{
    chrono_engine_side side;
    int rc;
    side.name = name; side.fn = fn; side.ctx = ctx; side.result = r;
    rc = chrono_engine_open(e, s, &side, 1, rows);
    e->controls = 1;
    return rc;
}

/* The end of a run: its CPU and page-fault figures, the contended samples
   dropped and the controls judged (chrono_engine_drop), the allocator's
   figures (one more batch, after the samples), the statistics and the run's
   warnings (SHORT_BODY below min_cycles, or min_ns where cycles are
   unknown; 0: no such floor), a copy kept in the session and in *out.  0
   or the error. */
CHRONO__PRIVATE int chrono__run_close(chrono_engine *e, const chrono__mem *mem0, double min_cycles,
                                      double min_ns, chrono_result *out)
{
    chrono_session *s = e->s;
    chrono_result *r = e->r[0];
    int rc;
    chrono__user_read(s, r);   /* before chrono__mem_finish's batch */
    chrono_engine_figures(e);
    (void)chrono_engine_drop(e, CHRONO_ENGINE_DROP_RUN);
    chrono__mem_finish(s, mem0, e->fn[0], e->ctx[0], e->iters[0], r);
    if (r->migrated) r->warnings |= CHRONO_WARN_MIGRATED;
    chrono__keep_samples(s, e->col[0].ns, e->n, &r->sample_ns, &r->nsample_ns);
    rc = chrono_engine_summarise(e);
    if (rc == 0) chrono__check_empty(s, r);
    if (rc == 0 && (r->has_cycles ? r->cycles.median < min_cycles : r->ns.median < min_ns))
        r->warnings |= CHRONO_WARN_SHORT_BODY;
    s->warnings |= r->warnings;
    if (rc == 0) rc = chrono_engine_keep(e, NULL);
    if (out) *out = *r;
    return rc;
}

/* Size the batch, warm it up, size it again now that it is warm. */
CHRONO__PRIVATE void chrono__run_warm(chrono_engine *e)
{
    double max_ms = e->s->cfg.max_ms;
    (void)chrono_engine_size(e, 1, max_ms / 4, 0);
    (void)chrono_engine_warm(e, e->s->cfg.warmup_ms, 1);
    (void)chrono_engine_size(e, 0, max_ms / 2, 0);
    chrono__user_zero(e->s);   /* the body's counts: the samples' own */
}

CHRONO_API int chrono_run(chrono_session *s, const char *name, chrono_fn fn, void *ctx,
                          chrono_result *out)
{
    chrono_engine_target t = { CHRONO_ENGINE_SAMPLES, 0, 0, NULL, NULL };
    chrono_engine e;
    chrono_result r;
    chrono__mem mem0;
    int rc = chrono__run_open(s, name, fn, out);
    if (rc < 0) return rc;
    mem0 = chrono__mem_read();
    if ((rc = chrono__run_engine(&e, s, name, fn, ctx, chrono__attempts(s), &r)) < 0) return rc;
    chrono__run_warm(&e);
    (void)chrono_engine_run(&e, &t);
    return chrono__run_close(&e, &mem0, 0, 0, out);
}

/* After gap k, samples until the run has taken its share of the total.
   Rejected ones are counted, not replaced: every gap gets the same number of
   whole samples, so the run's all_* figures weigh the stretches of time
   alike (replacing them would weigh a stretch where the core was shared and
   samples were rejected more than a quiet one).  Contended ones are dropped
   at the end like chrono_run's.  The samples' own CPU time and page faults
   are counted, not between's (the engine counts around its loop). */
CHRONO_API int chrono_run_between(chrono_session *s, const char *name, chrono_fn fn, void *ctx,
                                  chrono_between_fn between, void *between_ctx, size_t gaps,
                                  chrono_result *out)
{
    chrono_engine_target t = { CHRONO_ENGINE_TAKEN, 0, 0, NULL, NULL };
    chrono_engine e;
    chrono_result r;
    chrono__mem mem0;
    size_t attempts, total, k;
    int rc = chrono__run_open(s, name, fn, out);
    if (rc < 0) return rc;
    if (!between || gaps == 0) return CHRONO_EINVAL;
    if (gaps > CHRONO_BETWEEN_GAPS_MAX) return CHRONO_ERANGE;
    attempts = chrono__attempts(s);
    total = gaps > (size_t)s->cfg.samples ? gaps : (size_t)s->cfg.samples;
    mem0 = chrono__mem_read();
    rc = chrono__run_engine(&e, s, name, fn, ctx, total > attempts ? total : attempts, &r);
    if (rc < 0) return rc;
    chrono__run_warm(&e);
    for (k = 0; k < gaps; k++) {
        t.n = (total * (k + 1) + gaps - 1) / gaps;
        between(between_ctx, k);
        (void)chrono_engine_run(&e, &t);
    }
    return chrono__run_close(&e, &mem0, 0, 0, out);
}

/* ---- A/B comparison ---------------------------------------------------------- */



/* The paired ratio of n rows and its interval, widened by the quantisation
   of the samples (the clock's resolution over the median sample, each side);
   *unstable: the two halves' intervals do not overlap (the ratio changed
   level), and then the interval covers both halves' too. */
CHRONO__PRIVATE int chrono__pair_ratio(const chrono_session *s, const chrono__columns *ca,
                                       const chrono__columns *cb, size_t n, const uint64_t iters[2],
                                       chrono_ratio *out, int *unstable)
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
    ta = ca->scratch[n / 2] * (double)iters[0];
    for (i = 0; i < n; i++) ca->scratch[i] = cb->ticks[i];
    chrono_stats_sort(ca->scratch, n);
    tb = ca->scratch[n / 2] * (double)iters[1];
    q = (ta > 0 ? res / ta : 0) + (tb > 0 ? res / tb : 0);
    if (h >= 8 && chrono_stats_ratio(ca->ns, cb->ns, h, s->cfg.confidence, ca->scratch, &h1) == 0 &&
        chrono_stats_ratio(ca->ns + h, cb->ns + h, n - h, s->cfg.confidence, ca->scratch,
                           &h2) == 0 &&
        (h1.ci_high * (1 + q) < h2.ci_low * (1 - q) ||
         h2.ci_high * (1 + q) < h1.ci_low * (1 - q))) {
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

/* The paired rounds of a comparison, its ratio into *ratio (*rc: its
   error), and more rounds when the ratio changed level (UNSTABLE if it
   still does); the thread's CPU time over them into both sides.  The pairs
   kept. */
CHRONO__PRIVATE size_t chrono__compare_rounds(chrono_engine *e, chrono_comparison *cmp,
                                              chrono_ratio *ratio, int *rc)
{
    chrono_engine_target first = { CHRONO_ENGINE_SAMPLES, 0, 0, NULL, NULL },
                         more = { CHRONO_ENGINE_MORE, 0, 0, NULL, NULL };
    int unstable = 0;
    (void)chrono_engine_run(e, &first);
    (void)chrono_engine_drop(e, CHRONO_ENGINE_DROP_RUN);
    *rc = chrono__pair_ratio(e->s, &e->col[0], &e->col[1], e->n, e->iters, ratio, &unstable);
    if (*rc == 0 && unstable) {   /* the ratio changed level: more rounds, within the budget */
        (void)chrono_engine_run(e, &more);
        (void)chrono_engine_drop(e, CHRONO_ENGINE_DROP_RUN);
        *rc = chrono__pair_ratio(e->s, &e->col[0], &e->col[1], e->n, e->iters, ratio, &unstable);
        if (unstable) cmp->warnings |= CHRONO_WARN_UNSTABLE;
    }
    chrono_engine_figures(e);
    return e->n;
}

/* The start of a comparison: arguments checked, *out defined even on
   failure.  0 or the error. */
CHRONO__PRIVATE int chrono__compare_open(chrono_session *s, const char *name_a, chrono_fn a,
                                         const char *name_b, chrono_fn b, chrono_comparison *out)
{
    int rc = chrono__check_session(s);
    if (out) {
        memset(out, 0, sizeof *out);
        chrono__result_init(&out->a, "", 0);
        chrono__result_init(&out->b, "", 0);
        out->ratio = out->ci_low = out->ci_high = out->ci_level = out->cycles_ratio = NAN;
        out->process_min_ratio = out->process_max_ratio = NAN;
    }
    if (rc < 0) return rc;
    if (!a || !b) return CHRONO_EINVAL;
    if ((rc = chrono__check_name(name_a)) < 0 || (rc = chrono__check_name(name_b)) < 0) return rc;
    return 0;
}

/* The engine of a comparison, both sides sized and warmed up alternately
   (A B A B, so neither runs on a colder machine), then sized again now that
   they are warm: both samples must reach the target. */
CHRONO__PRIVATE int chrono__compare_engine(chrono_engine *e, chrono_session *s,
                                           const chrono_engine_side side[2])
{
    double max_ms = s->cfg.max_ms;
    int rc = chrono_engine_open(e, s, side, 2, chrono__attempts(s));
    if (rc < 0) return rc;
    (void)chrono_engine_size(e, 1, max_ms / 8, max_ms / 4);
    (void)chrono_engine_warm(e, s->cfg.warmup_ms / 2, 2);
    (void)chrono_engine_size(e, 0, max_ms / 3, max_ms / 2);
    return 0;
}

/* The sides' samples kept for the plots, and the pairs' ratios. */
CHRONO__PRIVATE void chrono__compare_keep_samples(chrono_engine *e, chrono_comparison *cmp)
{
    size_t i, n = e->n;
    double *q = e->col[0].scratch;
    chrono__keep_samples(e->s, e->col[0].ns, n, &cmp->a.sample_ns, &cmp->a.nsample_ns);
    chrono__keep_samples(e->s, e->col[1].ns, n, &cmp->b.sample_ns, &cmp->b.nsample_ns);
    for (i = 0; i < n; i++) q[i] = e->col[1].ns[i] > 0 ? e->col[0].ns[i] / e->col[1].ns[i] : NAN;
    chrono__keep_samples(e->s, q, n, &cmp->pair_ratios, &cmp->npair_ratios);
}

/* The ratio's figures into cmp (and the cycles' ratio), kept in the session. */
CHRONO__PRIVATE int chrono__compare_store(chrono_engine *e, chrono_comparison *cmp,
                                          const chrono_ratio *ratio)
{
    chrono_session *s = e->s;
    chrono_ratio cycles;
    cmp->ratio = ratio->ratio; cmp->ci_low = ratio->ci_low; cmp->ci_high = ratio->ci_high;
    cmp->ci_level = ratio->ci_level;
    cmp->process_min_ratio = cmp->process_max_ratio = ratio->ratio;
    if (s->has_cycles && chrono_stats_ratio(e->col[0].cycles, e->col[1].cycles, e->n,
                                            s->cfg.confidence, e->col[0].scratch, &cycles) == 0)
        cmp->cycles_ratio = cycles.ratio;
    return chrono_engine_keep(e, cmp);
}

/* The end of a comparison: the sides' statistics (even when the ratio
   failed: no pairs gives CHRONO_ENOSAMPLES first), the warnings, the
   figures kept in the session and in *out.  0 or the error. */
CHRONO__PRIVATE int chrono__compare_close(chrono_engine *e, chrono_comparison *cmp,
                                          const chrono_ratio *ratio, int rc, chrono_comparison *out)
{
    chrono_session *s = e->s;
    int rs;
    cmp->b.truncated = cmp->a.truncated;
    if (cmp->a.migrated || cmp->b.migrated) {
        cmp->a.warnings |= CHRONO_WARN_MIGRATED;
        cmp->b.warnings |= CHRONO_WARN_MIGRATED;
    }
    chrono__compare_keep_samples(e, cmp);
    if ((rs = chrono_engine_summarise(e)) < 0) rc = rs;
    if (rc == 0) { chrono__check_empty(s, &cmp->a); chrono__check_empty(s, &cmp->b); }
    if (rc == 0 && chrono_stats_level_short(ratio->ci_level, s->cfg.confidence))
        cmp->warnings |= CHRONO_WARN_LOW_LEVEL;
    cmp->warnings |= cmp->a.warnings | cmp->b.warnings;
    s->warnings |= cmp->warnings;
    cmp->rounds = e->n;
    cmp->cycles_ratio = cmp->process_min_ratio = cmp->process_max_ratio = NAN;
    if (rc == 0) rc = chrono__compare_store(e, cmp, ratio);
    if (out) *out = *cmp;
    return rc;
}

CHRONO_API int chrono_compare(chrono_session *s, const char *name_a, chrono_fn a, void *ctx_a,
                              const char *name_b, chrono_fn b, void *ctx_b, chrono_comparison *out)
{
    chrono_comparison cmp;
    chrono_engine_side side[2];
    chrono_engine e;
    chrono_ratio ratio;
    int rc = chrono__compare_open(s, name_a, a, name_b, b, out);
    if (rc < 0) return rc;
    memset(&cmp, 0, sizeof cmp);
    side[0].name = name_a; side[0].fn = a; side[0].ctx = ctx_a; side[0].result = &cmp.a;
    side[1].name = name_b; side[1].fn = b; side[1].ctx = ctx_b; side[1].result = &cmp.b;
    if ((rc = chrono__compare_engine(&e, s, side)) < 0) return rc;
    (void)chrono__compare_rounds(&e, &cmp, &ratio, &rc);
    return chrono__compare_close(&e, &cmp, &ratio, rc, out);
}

/* ---- sweeps -------------------------------------------------------------------- */
typedef struct chrono__sweep_point {
    chrono_sweep_fn fn;
    void *ctx;
    uint64_t param;
} chrono__sweep_point;

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
CHRONO__PRIVATE int chrono__sweep_fit(const double *x, const double *ones, const double *y,
                                      size_t n, double confidence, double *fixed,
                                      double fixed_ci[2], double *per_unit, double per_unit_ci[2],
                                      double *r2)
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
    /* every param the same (as a double): no line to fit */
    if (i == nparams) return CHRONO_EINVAL;
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
    /* x, y, cycles, and the fits' column of ones */
    x = (double *)CHRONO_MALLOC(4 * nparams * sizeof(double));
    if (!x) return CHRONO_ENOMEM;
    y = x + nparams; yc = y + nparams; ones = yc + nparams;
    for (i = 0; i < nparams; i++) {
        const chrono_result *r = &s->results[sw.first_result + i];
        x[i] = (double)params[i]; y[i] = r->ns.median; yc[i] = r->cycles.median; ones[i] = 1.0;
    }
    sw.points = nparams;
    rc = chrono__sweep_fit(x, ones, y, nparams, s->cfg.confidence, &sw.fixed_ns, sw.fixed_ci,
                           &sw.per_unit_ns, sw.per_unit_ci, &sw.r2);
    sw.per_unit_cycles = sw.fixed_cycles = sw.r2_cycles = NAN;
    sw.per_unit_cycles_ci[0] = sw.per_unit_cycles_ci[1] = sw.fixed_cycles_ci[0] =
        sw.fixed_cycles_ci[1] = NAN;
    if (rc == 0 && s->has_cycles)
        (void)chrono__sweep_fit(x, ones, yc, nparams, s->cfg.confidence, &sw.fixed_cycles,
                                sw.fixed_cycles_ci, &sw.per_unit_cycles, sw.per_unit_cycles_ci,
                                &sw.r2_cycles);
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
CHRONO__PRIVATE double chrono__setup_mean(const chrono_session *s, chrono_fn volatile fn, void *ctx,
                                          double *d, int k)
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
        /* N 2N N: drift cancels */
        one = (chrono__setup_mean(s, chrono__setup_chain, &n1, d, K) + one) / 2;
        est[i] = 2 * one - two;
    }
    CHRONO_FREE(d);
    chrono_stats_sort(est, 3);
    return est[1] > 0 ? est[1] : 0;
}

/* The net ticks of the last batch: its calls less the fixed cost of each. */
CHRONO__PRIVATE uint64_t chrono__setup_net(const chrono__setup_tramp *t, uint64_t iters,
                                           double fixed)
{
    double net = (double)t->raw - fixed * (double)iters;
    return net > 0 ? (uint64_t)(net + 0.5) : 0;
}

/* Calls per sample: grow until the timed calls add up to the runner's
   target, or a sample (setups included) lasts 20 targets. */
CHRONO__PRIVATE uint64_t chrono__setup_size(const chrono_session *s, chrono__setup_tramp *t,
                                            double fixed, uint64_t iters, uint64_t since,
                                            double budget_ms)
{
    uint64_t target = chrono__target_ticks(s);
    for (;;) {
        uint64_t w = chrono__time_once(s, chrono__setup_batch, t, iters),
                 net = chrono__setup_net(t, iters, fixed), grow;
        if (net >= target || w >= 20 * target) return iters;
        if (iters >= CHRONO__ITERS_MAX || chrono__elapsed_ms(s, since) > budget_ms) return iters;
        grow = net > 0 ? (uint64_t)((double)iters * 1.2 * (double)target / (double)net) + 1
                       : iters * 100;
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

CHRONO_API int chrono_run_setup(chrono_session *s, const char *name, chrono_setup_fn setup,
                                chrono_fn fn, void *ctx, chrono_result *out)
{
    chrono_engine_target target = { CHRONO_ENGINE_SAMPLES, 0, 0, NULL, NULL };
    chrono_engine e;
    chrono_result r;
    chrono__setup_tramp t;
    chrono__mem mem0;
    double max_ms;
    int rc = chrono__run_open(s, name, fn, out);
    if (rc < 0) return rc;
    t.s = s; t.setup = setup; t.fn = fn; t.ctx = ctx; t.raw = 0;
    mem0 = chrono__mem_read();
    rc = chrono__run_engine(&e, s, name, chrono__setup_batch, &t, chrono__attempts(s), &r);
    if (rc < 0) return rc;
    e.net = chrono__setup_net_sample;
    max_ms = s->cfg.max_ms;
    t.fixed = chrono__setup_fixed(s);
    chrono__engine_iters(&e, chrono__setup_size(s, &t, t.fixed, 1, e.start, max_ms / 4));
    (void)chrono_engine_warm(&e, s->cfg.warmup_ms, 1);
    chrono__engine_iters(&e, chrono__setup_size(s, &t, t.fixed, e.iters[0], e.start, max_ms / 2));
    chrono__user_zero(s);
    /* the setups' page faults and CPU time are counted too */
    (void)chrono_engine_run(&e, &target);
    return chrono__run_close(&e, &mem0, CHRONO__SETUP_MIN_CYCLES, CHRONO__SETUP_MIN_NS, out);
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_BENCH_IMPL */

/* chronoscope/threads.h — multithreaded runs: one body in N threads at once,
   started together at every sample, each thread timed on its own.

   Usage:

       static unsigned long hits;                 // shared by every thread
       static void shared(void *ctx, uint64_t iters) {
           uint64_t i;
           for (i = 0; i < iters; i++) chrono_atomic_add(&hits, 1);
       }
       static void private_(void *ctx, uint64_t iters) {   // state on the stack: the thread's own
           uint64_t i, n = 0;
           for (i = 0; i < iters; i++) { n++; chrono_keep(n); }
       }
       chrono_result r1, r2;
       chrono_run_threads(&s, "shared/1", shared, NULL, 1, &r1);
       chrono_run_threads(&s, "shared/2", shared, NULL, 2, &r2);
       printf("%.2fx slower a thread\n", r2.ns.median / r1.ns.median);

   Functions:
       chrono_run_threads(s, name, fn, ctx, threads, out)
                                  fn(ctx, iters) in `threads` threads at once (the
                                  calling thread is one of them), every thread
                                  `iters` iterations a sample
       chrono_atomic_add(p, v)    *p += v, atomically (inline; compiler builtins,
                                  C99 has no atomics): a shared counter for bodies

   How a threaded run measures: the threads are started once for the run and
   pinned to distinct CPUs (the session's CPU for the calling thread, the
   next CPUs it may use for the others; threads beyond the CPUs there are run
   unpinned, and the run warns CHRONO_WARN_OVERSUBSCRIBED).  At every sample
   the runner (bench.h's engine: sizing, warm-up, probes, rejections) calls
   a body that waits until every thread has arrived at a barrier, releases
   them together, runs its own share and waits for the others: the engine
   times the whole.  Each thread reads the clock around its own `iters`
   iterations; a sample in which a thread changed CPU or was switched out
   involuntarily, or in which the threads did not run together (one began
   more than an eighth of the quickest thread's time after another: the
   clock's reads on different CPUs compared), is left out of the threads'
   figures (all kept, with CHRONO_WARN_INTERRUPTED, when none is whole).  The result then says:
     .ns, .ticks, .cycles   the time an iteration takes one thread: the median
                            over threads and samples, with its interval
                            (cycles: at the run's core clock)
     .threads               how many threads ran
     .thread_slowest_ns     the slowest thread of a sample, per iteration
                            (median over samples); x .iters_per_sample: the
                            wall time of the slowest thread in one sample
     .threads_per_second    iterations per second of all threads together
                            (.threads / .thread_slowest_ns)
   The samples themselves are not kept (.sample_ns NULL).  Nothing is
   allocated or printed while a sample is timed; the waiting threads spin
   (pausing), and yield the CPU after a while so that an oversubscribed run
   still moves.

   Platforms: pthreads on POSIX, Windows threads under _WIN32; pinning where
   cpu.h pins (Linux, Windows).  Every int return: 0 or a negative CHRONO_E... */
#ifndef CHRONOSCOPE_THREADS_H
#define CHRONOSCOPE_THREADS_H

#include "bench.h"

#define CHRONO_THREADS_MAX 256   /* threads of one run (cli.h's --threads says 256 too) */

/* The compiler's atomics behind one macro set (C99 has none):
   CHRONO__ATOMIC_ADD returns the new value; loads acquire, stores release. */
#if defined(__GNUC__) || defined(__clang__)
#  define CHRONO__ATOMIC_ADD(p, v) __atomic_add_fetch((p), (v), __ATOMIC_SEQ_CST)
#  define CHRONO__ATOMIC_LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#  define CHRONO__ATOMIC_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#elif defined(_MSC_VER)
#  define CHRONO__ATOMIC_ADD(p, v) \
    ((unsigned long)_InterlockedExchangeAdd((volatile long *)(p), (long)(v)) + (v))
#  define CHRONO__ATOMIC_LOAD(p) ((unsigned long)_InterlockedOr((volatile long *)(p), 0))
#  define CHRONO__ATOMIC_STORE(p, v) ((void)_InterlockedExchange((volatile long *)(p), (long)(v)))
#else
#  error "chronoscope/threads.h: no atomic operations known for this compiler (gcc, clang and MSVC are)"
#endif

CHRONO__INLINE unsigned long chrono_atomic_add(volatile unsigned long *p, unsigned long v)
{
    return CHRONO__ATOMIC_ADD(p, v);
}

CHRONO__EXTERN_C_BEGIN
CHRONO_API int chrono_run_threads(chrono_session *s, const char *name, chrono_fn fn, void *ctx,
                                  int threads, chrono_result *out);
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_THREADS_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_THREADS_IMPL)
#define CHRONOSCOPE_THREADS_IMPL

#if CHRONO__OS_WINDOWS
#  ifndef WIN32_LEAN_AND_MEAN
#    define WIN32_LEAN_AND_MEAN
#  endif
#  include <windows.h>
#  define CHRONO__THREAD_HANDLE HANDLE
#else
#  include <pthread.h>
#  include <sched.h>
#  define CHRONO__THREAD_HANDLE pthread_t
#endif

CHRONO__EXTERN_C_BEGIN

#define CHRONO__SPINS_BEFORE_YIELD 20000u   /* pauses (~1 ms on x86) before a waiting thread yields */
#define CHRONO__LINE 64

struct chrono__threads;

/* One thread's slot, on cache lines of its own (the threads write them at
   every sample). */
typedef struct chrono__thread {
    struct chrono__threads *g;
    int index, cpu;              /* cpu pinned to, -1: not pinned */
    int started;                 /* the OS thread exists (joined at the end) */
    uint64_t start, ticks;       /* its last call: the clock when it began, its length net of the
                                    overhead */
    int disturbed;               /* its last call changed CPU or was switched out */
    chrono_pin pin;
    CHRONO__THREAD_HANDLE handle;
    char pad[CHRONO__LINE];
} chrono__thread;

/* The run's shared state: the counters the threads meet on, each on its own line. */
typedef struct chrono__threads {
    char pad0[CHRONO__LINE];
    volatile unsigned long go;       /* bumped to start a call (or to quit) */
    char pad1[CHRONO__LINE];
    volatile unsigned long arrived;  /* workers waiting at the barrier, ever */
    char pad2[CHRONO__LINE];
    volatile unsigned long done;     /* workers finished, ever */
    char pad3[CHRONO__LINE];
    chrono_fn fn;
    void *ctx;
    const chrono_clock *clk;
    uint64_t iters;
    int n, quit;
    unsigned long calls;             /* calls so far (the barrier's generation) */
    chrono__thread *t;
    /* the threads' figures of the sampling's calls, the last `cap` of them */
    int recording;
    size_t cap, recorded;
    double *tns;                     /* [call * n + thread]: ns per iteration */
    unsigned char *bad;              /* [call]: a thread was disturbed */
} chrono__threads;

CHRONO__PRIVATE void chrono__spin_pause(unsigned *spins)
{
    if (++*spins < CHRONO__SPINS_BEFORE_YIELD) {
#if defined(CHRONO__X86) && (defined(__GNUC__) || defined(__clang__))
        __asm__ __volatile__("pause");
#elif defined(CHRONO__ARM64) && (defined(__GNUC__) || defined(__clang__))
        __asm__ __volatile__("yield");
#elif CHRONO__OS_WINDOWS
        YieldProcessor();
#endif
        return;
    }
    *spins = 0;
#if CHRONO__OS_WINDOWS
    (void)SwitchToThread();
#else
    (void)sched_yield();
#endif
}

/* Wait until *p reaches at least v (a count that only grows). */
CHRONO__PRIVATE void chrono__wait_for(volatile unsigned long *p, unsigned long v)
{
    unsigned spins = 0;
    while ((long)(CHRONO__ATOMIC_LOAD(p) - v) < 0) chrono__spin_pause(&spins);
}

/* One thread's share of a call: its iterations timed on its own clock reads,
   and whether it changed CPU or was switched out meanwhile. */
CHRONO__PRIVATE void chrono__thread_share(chrono__thread *t)
{
    const chrono__threads *g = t->g;
    long sw0 = chrono_cpu_switches_involuntary(), sw1;
    int cpu0 = chrono_cpu_current(), cpu1;
    uint64_t t0 = chrono_clock_start(g->clk), t1;
    g->fn(g->ctx, g->iters);
    t1 = chrono_clock_stop(g->clk);
    cpu1 = chrono_cpu_current();
    sw1 = chrono_cpu_switches_involuntary();
    t->start = t0;
    t1 = t1 > t0 ? t1 - t0 : 0;
    t->ticks = t1 > g->clk->overhead_ticks ? t1 - g->clk->overhead_ticks : 0;
    t->disturbed = cpu0 != cpu1 || (sw0 >= 0 && sw1 != sw0);
}

/* A worker: pinned to its CPU, then a call at each bump of .go until .quit. */
CHRONO__PRIVATE void chrono__thread_loop(chrono__thread *t)
{
    chrono__threads *g = t->g;
    unsigned long seen = 0;
    if (t->cpu >= 0 && chrono_cpu_pin(&t->pin, t->cpu) < 0) t->cpu = -1;
    for (;;) {
        (void)CHRONO__ATOMIC_ADD(&g->arrived, 1ul);
        chrono__wait_for(&g->go, seen + 1);
        seen++;
        if (g->quit) break;
        chrono__thread_share(t);
        (void)CHRONO__ATOMIC_ADD(&g->done, 1ul);
    }
    if (t->pin.pinned) (void)chrono_cpu_unpin(&t->pin);
}

#if CHRONO__OS_WINDOWS
CHRONO__PRIVATE DWORD WINAPI chrono__thread_main(LPVOID p)
{
    chrono__thread_loop((chrono__thread *)p);
    return 0;
}
CHRONO__PRIVATE int chrono__thread_start(chrono__thread *t)
{
    t->handle = CreateThread(NULL, 0, chrono__thread_main, t, 0, NULL);
    return t->handle ? 0 : CHRONO_ENOMEM;
}
CHRONO__PRIVATE void chrono__thread_join(chrono__thread *t)
{
    (void)WaitForSingleObject(t->handle, INFINITE);
    (void)CloseHandle(t->handle);
}
#else
CHRONO__PRIVATE void *chrono__thread_main(void *p)
{
    chrono__thread_loop((chrono__thread *)p);
    return NULL;
}
CHRONO__PRIVATE int chrono__thread_start(chrono__thread *t)
{
    return pthread_create(&t->handle, NULL, chrono__thread_main, t) == 0 ? 0 : CHRONO_ENOMEM;
}
CHRONO__PRIVATE void chrono__thread_join(chrono__thread *t) { (void)pthread_join(t->handle, NULL); }
#endif

/* The record of a finished call: each thread's ns per iteration (the last
   `cap` calls of the sampling are kept), and whether one was disturbed or
   the threads did not run together: one began more than an eighth of the
   quickest's time after another (a worker the scheduler held back runs
   alone, after the others, and would read as if unshared). */
CHRONO__PRIVATE void chrono__threads_note(chrono__threads *g)
{
    size_t row = g->recorded % g->cap;
    uint64_t first = g->t[0].start, last = first, quickest = g->t[0].ticks;
    unsigned char bad = 0;
    int i;
    for (i = 0; i < g->n; i++) {
        const chrono__thread *t = &g->t[i];
        g->tns[row * (size_t)g->n + (size_t)i] = chrono_clock_ns(g->clk, t->ticks) /
                                                 (double)g->iters;
        bad |= (unsigned char)t->disturbed;
        if ((int64_t)(t->start - first) < 0) first = t->start;
        if ((int64_t)(t->start - last) > 0) last = t->start;
        if (t->ticks < quickest) quickest = t->ticks;
    }
    if (last - first > quickest / 8) bad = 1;
    g->bad[row] = bad;
    g->recorded++;
}

/* The engine's body: every worker arrived at the barrier, all released at
   once, the calling thread's share run, the others waited for. */
CHRONO__PRIVATE void chrono__threads_call(void *ctx, uint64_t iters)
{
    chrono__threads *g = (chrono__threads *)ctx;
    unsigned long workers = (unsigned long)(g->n - 1);
    chrono__wait_for(&g->arrived, workers * (g->calls + 1));
    g->iters = iters ? iters : 1;
    g->calls++;
    CHRONO__ATOMIC_STORE(&g->go, g->calls);
    chrono__thread_share(&g->t[0]);
    chrono__wait_for(&g->done, workers * g->calls);
    if (g->recording) chrono__threads_note(g);
}

/* The CPUs the threads take: the calling thread's (the session's pinned one,
   or where it runs now), then the next ones it may use; -1 beyond them.
   The count of threads that got no CPU of their own. */
CHRONO__PRIVATE int chrono__threads_cpus(chrono__threads *g, int own)
{
    int count = chrono_cpu_count(), c, i = 1;
    g->t[0].cpu = own;
    for (c = 0; c < count && i < g->n && CHRONO_CPU_HAVE_PIN; c++)
        if (c != own && chrono_cpu_allowed(c) == 1) g->t[i++].cpu = c;
    for (c = i; c < g->n; c++) g->t[c].cpu = -1;
    if (own < 0 && count > 0) return g->n > count ? g->n - count : 0;
    return g->n - i;
}

/* The workers started, each pinned by itself; the session's thread unpinned
   meanwhile, so that they may take other CPUs (a thread starts with its
   creator's mask).  *spare: threads without a CPU of their own. */
CHRONO__PRIVATE int chrono__threads_start(chrono_session *s, chrono__threads *g, int *spare)
{
    int i, rc = 0, own = s->pin.pinned ? s->pin.cpu : chrono_cpu_current(), repin = s->pin.pinned;
    if (repin) (void)chrono_cpu_unpin(&s->pin);
    *spare = chrono__threads_cpus(g, own);
    for (i = 1; i < g->n && rc == 0; i++) {
        g->t[i].g = g; g->t[i].index = i;
        if ((rc = chrono__thread_start(&g->t[i])) == 0) g->t[i].started = 1;
    }
    if (repin) (void)chrono_cpu_pin(&s->pin, own);
    /* started and pinned: not timed */
    if (rc == 0) chrono__wait_for(&g->arrived, (unsigned long)(g->n - 1));
    return rc;
}

/* Iterations per sample to start the engine's sizing from: grown until the
   quickest thread's own share takes .min_sample_us.  The engine's sizing
   times the whole call, barrier included: a worker the scheduler keeps off
   its CPU for a while could pass for a slow body and size the batch at one
   iteration; the threads' own clock reads do not wait for one another. */
CHRONO__PRIVATE uint64_t chrono__threads_presize(const chrono_session *s, chrono__threads *g)
{
    double want = s->cfg.min_sample_us * 1e3;
    uint64_t iters = 1;
    int step, i;
    for (step = 0; step < 64 && iters < ((uint64_t)1 << 40); step++) {
        double ns = INFINITY;
        chrono__threads_call(g, iters);
        for (i = 0; i < g->n; i++) {
            double t = chrono_clock_ns(g->clk, g->t[i].ticks);
            if (t < ns) ns = t;
        }
        if (ns >= want) break;
        iters = ns > 0 && want / ns < 100 ? (uint64_t)((double)iters * 1.2 * want / ns) + 1
                                          : iters * 100;
    }
    return iters;
}

/* Every started worker told to quit and joined. */
CHRONO__PRIVATE void chrono__threads_stop(chrono__threads *g)
{
    unsigned long started = 0;
    int i;
    for (i = 1; i < g->n; i++) started += (unsigned long)g->t[i].started;
    chrono__wait_for(&g->arrived, started * (g->calls + 1));
    g->quit = 1;
    CHRONO__ATOMIC_STORE(&g->go, g->calls + 1);
    for (i = 1; i < g->n; i++)
        if (g->t[i].started) chrono__thread_join(&g->t[i]);
}

/* The run's shared state and its records, allocated before any sample. */
CHRONO__PRIVATE chrono__threads *chrono__threads_new(const chrono_session *s, chrono_fn fn,
                                                     void *ctx, int n)
{
    size_t cap = 4 * (size_t)s->cfg.samples + 16,
           bytes = sizeof(chrono__threads) + (size_t)n * sizeof(chrono__thread);
    size_t rec = cap * (size_t)n * sizeof(double) + cap;
    chrono__threads *g = (chrono__threads *)CHRONO_MALLOC(bytes + rec);
    if (!g) return NULL;
    memset(g, 0, bytes + rec);
    g->t = (chrono__thread *)(void *)(g + 1);
    g->tns = (double *)(void *)(g->t + n);
    g->bad = (unsigned char *)(g->tns + cap * (size_t)n);
    g->fn = fn; g->ctx = ctx; g->clk = &s->clock; g->n = n; g->cap = cap; g->iters = 1;
    g->t[0].g = g;
    return g;
}

/* The threads' figures into r from the calls recorded: those where no
   thread was disturbed (all of them, INTERRUPTED, when none is whole); the
   time an iteration takes a thread (its statistics in ns, ticks and, at the
   run's core clock, cycles), the slowest thread's, the throughput. */
CHRONO__PRIVATE int chrono__threads_figures(const chrono_session *s, const chrono__threads *g,
                                            chrono_result *r)
{
    size_t rows = g->recorded < g->cap ? g->recorded : g->cap, n = (size_t)g->n, i, j, k = 0, m = 0,
           whole = 0;
    double *x, *slow, conf = s->cfg.confidence;
    chrono_stats st;
    int rc;
    for (i = 0; i < rows; i++) whole += !g->bad[i];
    if (rows == 0) return CHRONO_ENOSAMPLES;
    if (whole == 0) r->warnings |= CHRONO_WARN_INTERRUPTED;
    if (!(x = (double *)CHRONO_MALLOC((2 * rows * n + rows) * sizeof(double))))
        return CHRONO_ENOMEM;
    slow = x + 2 * rows * n;
    for (i = 0; i < rows; i++) {
        if (whole && g->bad[i]) continue;
        slow[m] = 0;
        for (j = 0; j < n; j++) {
            double v = g->tns[i * n + j];
            x[k++] = v;
            if (v > slow[m]) slow[m] = v;
        }
        m++;
    }
    rc = chrono_stats_compute(x, k, conf, x + rows * n, &r->ns);
    if (rc == 0) rc = chrono_stats_compute(slow, m, conf, x + rows * n, &st);
    if (rc == 0) {
        chrono_stats_scale(&r->ns, 1.0 / s->clock.ns_per_tick, &r->ticks);
        if (r->has_cycles && r->core_ghz > 0) chrono_stats_scale(&r->ns, r->core_ghz, &r->cycles);
        r->samples = m;
        r->threads = g->n;
        r->thread_slowest_ns = st.median;
        r->threads_per_second = st.median > 0 ? (double)g->n * 1e9 / st.median : NAN;
        r->hist_lo = r->ns.min;
        r->hist_hi = chrono__sketch_top(&r->ns);
        chrono_stats_histogram(x, k, r->hist_lo, r->hist_hi, r->hist, CHRONO_HIST_BINS);
        if (r->cpu_ns_per_iter > r->ns.median) r->cpu_ns_per_iter = r->ns.median;
        r->sample_ns = NULL;
        r->nsample_ns = 0;
    }
    CHRONO_FREE(x);
    return rc;
}

/* The engine's run of the threads' body (chrono_run's steps: size, warm,
   size again, sample, drop, summarise), the threads' figures over it, the
   result kept in the session. */
CHRONO__PRIVATE int chrono__threads_engine(chrono_session *s, const char *name, chrono__threads *g,
                                           int spare, chrono_result *r)
{
    chrono_engine_target t = { CHRONO_ENGINE_SAMPLES, 0, 0, NULL, NULL };
    chrono_engine_side side;
    chrono_engine e;
    size_t want = (size_t)s->cfg.samples,
           rows = want * 3 + (want * 100 < 100000 ? want * 100 : 100000);
    int rc;
    side.name = name; side.fn = chrono__threads_call; side.ctx = g; side.result = r;
    if ((rc = chrono_engine_open(&e, s, &side, 1, rows)) < 0) return rc;
    (void)chrono_engine_size(&e, chrono__threads_presize(s, g), s->cfg.max_ms / 4, 0);
    (void)chrono_engine_warm(&e, s->cfg.warmup_ms, 1);
    (void)chrono_engine_size(&e, 0, s->cfg.max_ms / 2, 0);
    g->recording = 1;
    rc = chrono_engine_run(&e, &t);
    g->recording = 0;
    if (rc < 0) return rc;
    chrono_engine_figures(&e);
    (void)chrono_engine_drop(&e, CHRONO_ENGINE_DROP_RUN);
    if (r->migrated) r->warnings |= CHRONO_WARN_MIGRATED;
    if ((rc = chrono_engine_summarise(&e)) < 0) return rc;
    if ((rc = chrono__threads_figures(s, g, r)) < 0) return rc;
    if (spare > 0) r->warnings |= CHRONO_WARN_OVERSUBSCRIBED;
    s->warnings |= r->warnings;
    return chrono_engine_keep(&e, NULL);
}

CHRONO_API int chrono_run_threads(chrono_session *s, const char *name, chrono_fn fn, void *ctx,
                                  int threads, chrono_result *out)
{
    chrono__threads *g;
    chrono_result r;
    int rc, spare = 0;
    if (out) { memset(out, 0, sizeof *out); out->ns.median = NAN; }
    if (!s || !s->is_open || !fn || !name || !*name) return CHRONO_EINVAL;
    if (strlen(name) >= CHRONO_NAME_MAX || threads < 1 || threads > CHRONO_THREADS_MAX)
        return CHRONO_ERANGE;
    if (!(g = chrono__threads_new(s, fn, ctx, threads))) return CHRONO_ENOMEM;
    rc = chrono__threads_start(s, g, &spare);
    if (rc == 0) rc = chrono__threads_engine(s, name, g, spare, &r);
    chrono__threads_stop(g);
    CHRONO_FREE(g);
    if (out && rc == 0) *out = r;
    return rc;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_THREADS_IMPL */

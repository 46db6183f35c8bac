/* chronoscope/types.h — the data of a measurement: configuration, results,
   comparisons, sweeps and the session that holds them.  Data only: no
   function is declared here, so the writers (report.h, html.h) and the
   modules above them see the runner's figures without the runner.

   Usage:

       #include <chronoscope/types.h>    // or <chronoscope.h>: every module
       void show(const chrono_result *r) // a writer needs only the figures
       {
           printf("%s: %.3f ns [%.3f, %.3f]\n", r->name, r->ns.median, r->ns.ci_low, r->ns.ci_high);
       }

   Types:
       chrono_fn, chrono_sweep_fn     the code under test (the loop is the caller's)
       chrono_config                  a session's settings (zero fields: defaults)
       chrono_memory_hook             a user's allocator counts (chrono_config.memory_hook)
       chrono_result                  one benchmark's figures; its process fields are the
                                      processes layer's (program.h, --processes): plain data here
       chrono_comparison              A against B, interleaved
       chrono_sweep_result            a sweep's fit
       chrono_session                 the above, kept for the reports
       CHRONO__REJECTIONS(X)          why samples were rejected, one list
   Who fills them: bench.h (runs on the engine, engine.h), program.h (pooling
   across processes), check.h (verdicts store what they measured).

   Interface for the modules above
     CHRONO__REJECTIONS(X), CHRONO__NREJECTIONS   the rejection causes, one list, and their count
     CHRONO__REJECTION_WORD   X for CHRONO__REJECTIONS: { CHRONO__REJECTIONS(CHRONO__REJECTION_WORD) }
                              is the causes' words, in the list's order */
#ifndef CHRONOSCOPE_TYPES_H
#define CHRONOSCOPE_TYPES_H

#include "base.h"
#include "clock.h"
#include "cpu.h"
#include "stats.h"
#include "counters.h"

/* ---- configuration --------------------------------------------------------- */
typedef void (*chrono_fn)(void *ctx, uint64_t iters);

typedef enum chrono_pin_mode {
    CHRONO_PIN_AUTO = 0,   /* pin to the CPU the thread is on; if refused, warn and go on */
    CHRONO_PIN_OFF,        /* do not pin (migrations are still detected) */
    /* pin to .cpu (CHRONO_CPU_CURRENT: the current one); refusal is an error */
    CHRONO_PIN_CPU,
    CHRONO_PIN_PREFER      /* pin to .cpu; if refused, warn (CHRONO_WARN_UNPINNED) and go on */
} chrono_pin_mode;

typedef enum chrono_cycles_mode {
    CHRONO_CYCLES_AUTO = 0,  /* estimate core cycles with reference chains where the CPU allows */
    CHRONO_CYCLES_OFF        /* no reference chains: cycles are NAN */
} chrono_cycles_mode;

#define CHRONO_NAME_MAX 128          /* bytes of a benchmark name, with its terminating NUL */
#define CHRONO_SAMPLES_MAX 1000000
#define CHRONO_HIST_BINS 16
#define CHRONO_CONTENTION_OFF (-1.0)   /* .contention_tolerance: no front-end probe */

/* Why samples were rejected and replaced, one list for every place that names
   them: X(field of chrono_result, words in the text report, CSV/JSON key). */
#define CHRONO__REJECTIONS(X) \
    X(migrated,     "migrated",                   "rejected_migrated") \
    X(preempted,    "preempted",                  "rejected_preempted") \
    X(backwards,    "clock went backwards",       "rejected_backwards") \
    X(ref_rejected, "reference chains disagreed", "rejected_reference") \
    X(contended,    "front end contended",        "rejected_contended") \
    X(port_contended, "execution ports contended", "rejected_port_contended")
#define CHRONO__REJECTION_COUNT_ONE(field, words, key) +1
#define CHRONO__REJECTION_WORD(field, words, key) words,   /* a table of the words */
enum { CHRONO__NREJECTIONS = 0 CHRONO__REJECTIONS(CHRONO__REJECTION_COUNT_ONE) };

/* A user's allocator reports what a run allocates, like Google Benchmark's
   MemoryManager: after a run's samples (outside the timed region) the runner
   calls start(user), runs one more batch of the body, calls stop(user,
   &allocs, &bytes), and divides by the batch's iterations
   (chrono_result.allocs_per_iter, .alloc_bytes_per_iter).  The hook counts
   what the allocator saw between start and stop, e.g. with counters its
   malloc wrapper bumps; it must not allocate between the two itself. */
typedef struct chrono_memory_hook {
    void (*start)(void *user);
    void (*stop)(void *user, uint64_t *allocs, uint64_t *bytes);
    void *user;
} chrono_memory_hook;

/* Figures the body counts itself, Google Benchmark's state.counters["hits"]:
   the program owns an array of chrono_user_counter (in the ctx its body
   reads, say), names each, and hands the array to the configuration
   (.user_counters and .nuser_counters, or an entry's chrono_with_user_counters);
   the body adds to .value as it goes (c->hits.value += found: no call, no
   allocation, no global).  A run sets every value to 0 after its warm-up,
   reads them after its samples, outside any timed region, and divides by
   the iterations its samples ran: chrono_result.user[k].per_iter, reported
   per iteration or, with CHRONO_PER_SECOND, per second of the median
   iteration (1e9 per_iter / ns.median).  Runs read them (chrono_run,
   _setup, _between, a sweep's points, the loop form); the two sides of a
   comparison and the threads of a threaded run would count into one array,
   so those leave .nuser 0.  A name is 1 to 31 of A-Z a-z 0-9 _ - . (a CSV
   and JSON key as it stands); any other is refused (CHRONO_EINVAL). */
#define CHRONO_USER_COUNTERS_MAX 8
#define CHRONO_USER_NAME_MAX 32
typedef enum chrono_user_rate { CHRONO_PER_ITERATION = 0, CHRONO_PER_SECOND = 1 } chrono_user_rate;
typedef struct chrono_user_counter {
    const char *name;          /* its column: "hits" */
    chrono_user_rate rate;     /* reported per iteration (0) or per second */
    double value;              /* the body adds to it */
} chrono_user_counter;
typedef struct chrono_user_figure {
    char name[CHRONO_USER_NAME_MAX];
    chrono_user_rate rate;
    double per_iter;           /* the count over the samples' iterations */
} chrono_user_figure;

/* The defaults of a run, and of --quick's (cli.h): named once, printed by --help. */
#define CHRONO_DEFAULT_SAMPLES 101
#define CHRONO_DEFAULT_WARMUP_MS 50
#define CHRONO_DEFAULT_MAX_MS 2000
#define CHRONO_QUICK_SAMPLES 11
#define CHRONO_QUICK_WARMUP_MS 5
#define CHRONO_QUICK_MAX_MS 300

/* Zero (or a zero-initialised struct) means "default" for every field. */
typedef struct chrono_config {
    int samples;               /* accepted samples per run; default 101 */
    double warmup_ms;          /* default 50; extended (up to 4x) until two windows agree */
    double min_sample_us;      /* shortest sample; default 50, raised to 1000x clock
                                  overhead/resolution */
    double max_ms;             /* soft budget of one run: no new sample starts after it; default
                                  2000 */
    int cpu;                   /* with CHRONO_PIN_CPU: the CPU, or CHRONO_CPU_CURRENT (-1) */
    chrono_pin_mode pin;
    double confidence;         /* of the intervals; default 0.95 */
    chrono_clock_source clock; /* default CHRONO_CLOCK_AUTO */
    uint64_t seed;             /* for anything random; default a fixed constant */
    chrono_cycles_mode cycles;
    double ref_tolerance;      /* reference chains may disagree by this much; default 0.01 */
    double contention_tolerance;  /* the front-end probe may read this much above its best; default
                                     0.05; CHRONO_CONTENTION_OFF keeps contended samples */
    const chrono_clock *custom_clock;  /* an opened clock to use instead of .clock (e.g.
                                          chrono_clock_open_custom) */
    int expect_empty;          /* nonzero: the bodies are meant to cost nothing ("empty call" rows):
                                  no CHRONO_WARN_EMPTY_BODY */
    const chrono_memory_hook *memory_hook;   /* allocations per iteration (NULL: none); must outlive
                                                the session */
    int blocking;              /* 1: the body blocks by design (a pipe, a child): voluntary context
                                  switches are its work, only involuntary ones reject a sample */
    unsigned counters;         /* perf_event counters read around each sample, a mask of
                                  CHRONO_COUNTER_BIT(CHRONO_COUNTER_...) (counters.h); 0: none */
    /* the body's own counts (chrono_user_counter); NULL: none */
    chrono_user_counter *user_counters;
    int nuser_counters;        /* how many, at most CHRONO_USER_COUNTERS_MAX */
} chrono_config;

/* ---- results ----------------------------------------------------------------- */
typedef struct chrono_result {
    char name[CHRONO_NAME_MAX];
    uint64_t iters_per_sample;
    size_t samples;              /* accepted samples the statistics summarise */
    size_t samples_taken;        /* all samples, rejected ones included */
    uint64_t iters_taken;        /* the iterations those samples ran: the batch can be halved
                                    mid-run, so not samples_taken x iters_per_sample */
    chrono_stats ns;             /* ns per iteration */
    chrono_stats ticks;          /* clock ticks per iteration */
    chrono_stats cycles;         /* estimated core cycles per iteration; all NAN when has_cycles ==
                                    0 */
    int has_cycles;
    double core_ghz;             /* median core clock seen by the reference chains, NAN if none */
    int cpu;                     /* CPU the samples ran on, -1 unknown */
    size_t migrated;             /* samples rejected: the thread changed CPU */
    size_t backwards;            /* samples rejected: the clock went backwards */
    size_t ref_rejected;         /* samples rejected: the two reference chains disagreed */
    size_t preempted;            /* samples rejected: the scheduler switched the thread out
                                    mid-sample */
    size_t contended;            /* samples rejected: the front-end probe read the core as shared */
    size_t port_contended;       /* samples rejected: the port probe read the core as shared */
    unsigned warnings;           /* CHRONO_WARN_* bits of this run (MIGRATED, CONTENDED,
                                    SHARED_CORE, EMPTY_BODY) */
    /* Every sample whose time is whole, the rejected ones included (switched
       out, contended, reference chains disagreeing; not migrated or
       backwards): how many, and the mean and standard deviation of their ns
       per iteration.  What a long batch pays, interruptions and all
       (experiment.h's chrono_project); .ns describes the undisturbed body. */
    size_t all_n;
    double all_ns_mean, all_ns_stddev;
    /* Controls (chrono_run, _setup, _between, where reference chains run):
       chains of known length timed between the samples, as long as one.
       How many were read whole, how many read more than .ref_tolerance slow,
       and the figure judged (CHRONO_WARN_HOST_SLOWED above 1 +
       .ref_tolerance): their 60th percentile, core cycles an add over its
       truth (for samples k controls long, that of the means of k drawn at
       random); NAN without controls. */
    size_t controls, controls_slow;
    double control_reading;
    int truncated;               /* max_ms stopped the run before .samples were taken */
    double wall_ms;              /* time the whole run took (sizing, warmup, samples) */
    double warmup_ms;            /* time spent warming up */
    /* CPU time, read outside the timed region, over the run's sampling (its
       samples and their probes, from the first to the last; controls not):
       cpu_share, the thread's CPU time (chrono_cpu_thread_ns) over the time
       elapsed: below 1 when the body sleeps or waits, or when other work
       took the CPU; cpu_ns_per_iter, the thread's CPU time per iteration
       taken (probes included), at most the median: about the median for a
       body that computes, whatever else runs, far below it for one that
       sleeps (JSON cpu_time).  A comparison's two sides share the pair's
       figures.  NAN where the OS does not say. */
    double cpu_share, cpu_ns_per_iter;
    unsigned hist[CHRONO_HIST_BINS];  /* distribution of ns per iteration over [hist_lo, hist_hi] */
    double hist_lo, hist_hi;
    double bytes_per_iter;       /* set by the program (program.h): bytes one iteration processes, 0
                                    none */
    double items_per_iter;       /* the same in items */
    /* The accepted samples, ns per iteration, in the order taken (for plots:
       html.h).  Session-owned storage, copied after the last sample (never in
       the timed region), 8 bytes a sample; valid until chrono_session_close.
       NULL and 0 when none were kept. */
    const double *sample_ns;
    size_t nsample_ns;
    /* Memory, outside the timed region: page faults per iteration over the
       samples (getrusage: this thread's on Linux, the process's elsewhere;
       NAN where unknown), the growth of the process's peak RSS during the run
       (bytes, NAN unknown), and what .memory_hook counted per iteration in
       one batch after the samples (NAN without a hook). */
    double faults_minor_per_iter, faults_major_per_iter;
    double max_rss_growth_bytes;
    double allocs_per_iter, alloc_bytes_per_iter;
    /* Pooled across processes (program.h, --processes): how many processes'
       results this one pools (0 or 1: one process), and the lowest and
       highest of their medians, ns (NAN for one process).  .ns.median is
       then the median of the processes' medians, and .ns.ci_low/.ci_high
       an interval that includes the spread between processes. */
    int processes;
    double process_min_ns, process_max_ns;
    /* Counters (.counters of the configuration, counters.h): read around each
       sample like the clock (inside the reference chains and probes), the
       read's own cost subtracted; per iteration over the accepted samples.
       .counters: the ones with a figure (asked for, open, every sample
       counted); the others' statistics are NAN.  ipc: instructions over
       cycles (medians), NAN unless both count.  Where the PMU's cycles and
       the reference chains' estimate disagree by more than 1% the run warns
       CHRONO_WARN_CYCLES_DISAGREE. */
    unsigned counters;
    chrono_stats counter[CHRONO_COUNTER_COUNT];
    double ipc;
    /* Threads (threads.h, chrono_run_threads): how many ran the body at once
       (0: not a threaded run).  .ns is then the time an iteration takes one
       thread (median over threads and samples); thread_slowest_ns the
       slowest thread of a sample per iteration (median over samples; times
       .iters_per_sample: its wall time), threads_per_second the iterations
       of all threads together per second; both 0 when not threaded. */
    int threads;
    double thread_slowest_ns, threads_per_second;
    /* The body's own counts (chrono_user_counter), per iteration: .nuser of them. */
    int nuser;
    chrono_user_figure user[CHRONO_USER_COUNTERS_MAX];
} chrono_result;

typedef struct chrono_comparison {
    chrono_result a, b;
    size_t rounds;               /* accepted pairs */
    double ratio, ci_low, ci_high, ci_level;    /* ns a/b: median of paired ratios, and its CI */
    double cycles_ratio;         /* the same in estimated cycles, NAN if unknown */
    unsigned warnings;           /* CHRONO_WARN_* bits: both sides' and UNSTABLE */
    double process_min_ratio, process_max_ratio;   /* pooled across processes (.a.processes > 1): the
                                    lowest and highest of the processes' ratios; one process: .ratio */
    const double *pair_ratios;   /* ns a/b of each accepted pair, in the order taken; like
                                    chrono_result.sample_ns: session-owned, until close */
    size_t npair_ratios;
} chrono_comparison;

/* A sweep: fn(ctx, param, iters) timed at each param; ns = fixed + per_unit * param. */
typedef void (*chrono_sweep_fn)(void *ctx, uint64_t param, uint64_t iters);
typedef struct chrono_sweep_result {
    char name[CHRONO_NAME_MAX];
    size_t points;
    double per_unit_ns, fixed_ns, r2;                 /* least squares on the medians, relative
                                                         weights */
    double per_unit_cycles, fixed_cycles, r2_cycles;  /* NAN where cycles are unknown */
    double per_unit_ci[2], fixed_ci[2];               /* their confidence intervals (.confidence),
                                                         ns */
    double per_unit_cycles_ci[2], fixed_cycles_ci[2]; /* the same in cycles, NAN where unknown */
    char unit[16];                                    /* what the parameter counts ("bytes"), ""
                                                         unknown */
    size_t first_result;         /* index in the session's results of the first point */
} chrono_sweep_result;

typedef struct chrono_session {
    chrono_config cfg;           /* with the defaults filled in */
    chrono_clock clock;
    chrono_pin pin;
    chrono_env env;
    unsigned warnings;           /* CHRONO_WARN_* bits: the environment's and the session's */
    int has_cycles;              /* reference chains available on this CPU */
    double core_ghz;             /* core clock measured at open, NAN if unknown */
    uint64_t ref_adds;           /* length of one reference chain */
    uint64_t ref_fixed_ticks;    /* what timing a chain costs besides its adds */
    /* private: the runner's own state */
    double fe_best;              /* lowest probe reading of the session, cycles a call (INFINITY:
                                    none) */
    double port_expect;          /* the port probe's unshared ratio, imul/add per instruction (NAN:
                                    off) */
    chrono_result *results; size_t nresults, cap_results;
    chrono_comparison *comparisons; size_t ncomparisons, cap_comparisons;
    chrono_sweep_result *sweeps; size_t nsweeps, cap_sweeps;
    double *buf; size_t buf_len; /* sample storage, allocated outside the timed region */
    double **kept; size_t nkept, cap_kept;   /* blocks behind sample_ns / pair_ratios */
    int is_open;
    chrono_counters counters;    /* opened with .cfg.counters; a run that asks for more adds them */
} chrono_session;

#endif /* CHRONOSCOPE_TYPES_H */

/* chronoscope/command.h — whole commands, timed in child processes and
   interleaved: what hyperfine does, with the A/B rule of this library
   (tools/chronoscope-cmd.c is the program on top of it).

   Usage:

       chrono_command_series s[2] = { { "sleep 0.01" }, { "sleep 0.011" } };
       chrono_command_config cfg = chrono_command_config_default();
       chrono_command_summary sa;
       chrono_comparison c;
       size_t failed = 0;
       cfg.warmup = 3;                                  // cfg.prepare = "sync", cfg.runs = 40 ...
       if (chrono_command_bench(s, 2, &cfg, &failed) < 0 || failed) ...;   // rounds A B, B A, A B ...
       chrono_command_summarise(&s[0], 0.95, &sa);      // sa.wall (ns), sa.user_mean_ns, sa.sys_mean_ns
       chrono_command_compare(&s[0], &s[1], 0.95, &c);  // c.ratio = A/B from the paired runs, [c.ci_low, c.ci_high]
       chrono_command_export_json(f, s, 2);             // hyperfine's --export-json layout
       chrono_command_series_free(s, 2);

   How it runs: every command once a round, in order in even rounds and in
   reverse in odd ones (A B, B A, ...: ABBA, so a drift in time hits every
   command alike); `prepare` runs untimed before every run, warm-ups
   included; a run is `/bin/sh -c COMMAND` with its output sent to
   /dev/null (CHRONO_COMMAND_SHOW_OUTPUT keeps it), timed on the caller's
   clock from fork to the child's exit; its CPU time is the child's own
   (wait4's rusage: user and system).  A child is let run on every CPU the
   process may use (the caller's pin is not inherited).  Rounds: .runs when
   given, else at least .min_runs and then on while .max_ms allows, at most
   .max_runs.  A non-zero exit (or a death by a signal: 128 + the signal)
   stops the runs with *failed = that command's index + 1, unless
   .ignore_failure; a command that cannot be started reads exit code 127
   (the shell's "not found").

   The ratio of two series is the Hodges-Lehmann median of the per-round
   log ratios log(A/B) (the median of their pairwise means, the Walsh
   averages) with Wilcoxon's signed-rank interval, exact up to 200 rounds,
   normal beyond; past 2000 rounds the plain median with its sign-test
   interval (stats.h's chrono_stats_ratio).  The interval needs only that a
   round's two log times be exchangeable but for the change, which the ABBA
   order gives; measured on sleep pairs under load (issue 35) it was ~20%
   narrower than the sign test's at the same level.  As a chrono_comparison:
   baseline.h's chrono_change_decide gives the verdict.

   Looks (without .runs): at the end of the budget the caller's .decided is
   asked whether every comparison is decided at this look's level; if not,
   the budget doubles and the rounds go on, up to .looks looks (default 3:
   4 x .max_ms in all).  alpha = 1 - .confidence is spent over the looks
   (chrono_command_look_level: 1/4, 1/4, 1/2 of it for three), so a verdict
   is wrong at most alpha of the time however many looks were taken (a
   union bound, as check.h's).

   Functions:
     chrono_command_config_default()          10 runs at least, 3 s, at most 1000, 3 looks
     chrono_command_look_level(conf, look, looks)   a look's share of the level
     chrono_command_run(clk, cmd, flags, child, out)   one run, timed; 0 or an error
     chrono_command_bench(series, n, cfg, failed)      the interleaved rounds (allocates .runs)
     chrono_command_summarise(s, confidence, out)      wall-time statistics and mean CPU times
     chrono_command_compare(a, b, confidence, out)     A/B from the paired rounds
     chrono_command_export_json(out, series, n)        {"results": [...]}, hyperfine's layout
     chrono_command_series_free(series, n)

   Every function returning int returns 0 or a negative CHRONO_E... code;
   CHRONO_ENOTSUP where there is no fork (Windows). */
#ifndef CHRONOSCOPE_COMMAND_H
#define CHRONOSCOPE_COMMAND_H

#include "experiment.h"

/* ---- types ----------------------------------------------------------------- */
#define CHRONO_COMMAND_SHOW_OUTPUT 1   /* the command's stdout and stderr are the caller's */
#define CHRONO_COMMAND_LOOKS_MAX 10    /* chrono_command_config.looks at most */
#define CHRONO__COMMAND_WALSH_MAX 2000 /* rounds: beyond, the median of the ratios and its sign-test
                                          interval */

typedef struct chrono_command_time {
    double wall_ns;              /* fork to exit, on the caller's clock */
    /* the child's CPU time (its own children's included once reaped) */
    double user_ns, sys_ns;
    int exit_code;               /* 0..255; 128 + N killed by signal N; 127 could not be started */
} chrono_command_time;

struct chrono_command_series;   /* the runs of one command, below */
typedef struct chrono_command_config {
    int runs;                    /* rounds; 0: .min_runs, then on until .max_ms */
    int min_runs;                /* 0: 10 */
    int max_runs;                /* 0: 1000 */
    double max_ms;               /* timed rounds' budget; 0: 3000 */
    int warmup;                  /* untimed runs of each command first (interleaved too) */
    const char *prepare;         /* before every run, untimed; NULL: none */
    int ignore_failure;          /* 1: a non-zero exit is recorded, not a stop */
    int flags;                   /* CHRONO_COMMAND_SHOW_OUTPUT */
    const chrono_clock *clock;   /* NULL: one opened (CHRONO_CLOCK_AUTO) */
    chrono_tmp *tmp;             /* the running child's pid goes to tmp->child (a signal stops it);
                                    NULL */
    double confidence;           /* the comparisons' level over all looks together; 0: 0.95 */
    int looks;                   /* without .runs: looks at the rounds, the budget doubled before
                                    each next one while .decided says undecided; 0: 3 (up to 4 x
                                    .max_ms), 1: one */
    /* Called at the end of look `look` of `looks` (.runs 0): 1 when every comparison is decided at
       `level` (chrono_command_look_level), 0 to go on; its answer at the last look is not needed.
       NULL: one look. */
    int (*decided)(const struct chrono_command_series *s, size_t n, int look, int looks,
                   double level, void *ctx);
    void *ctx;
} chrono_command_config;

typedef struct chrono_command_series {
    const char *command;         /* not copied */
    size_t n;                    /* runs taken */
    chrono_command_time *runs;   /* round i at index i; chrono_command_series_free frees it */
    const char *param_name, *param_value;   /* a parameter scan's (the export's "parameters"); NULL:
                                               none */
} chrono_command_series;

typedef struct chrono_command_summary {
    chrono_stats wall;           /* ns, over the runs */
    double user_mean_ns, sys_mean_ns;
    size_t failures;             /* runs with a non-zero exit code */
} chrono_command_summary;

/* ---- functions ------------------------------------------------------------ */
CHRONO__EXTERN_C_BEGIN
CHRONO_API chrono_command_config chrono_command_config_default(void);
/* One run of `/bin/sh -c cmd`; *child holds its pid while it runs (may be NULL). */
CHRONO_API int chrono_command_run(const chrono_clock *clk, const char *cmd, int flags,
                                  volatile long *child, chrono_command_time *out);
CHRONO_API int chrono_command_bench(chrono_command_series *series, size_t n,
                                    const chrono_command_config *cfg, size_t *failed);
/* The two-sided level of look `look` of `looks` when the looks together hold
   `confidence`: alpha = 1 - confidence, half of it spent at the last look
   (the most rounds), the other half shared by the looks before (3 looks:
   alpha/4, alpha/4, alpha/2; one look: alpha).  NAN out of range. */
CHRONO_API double chrono_command_look_level(double confidence, int look, int looks);
CHRONO_API int chrono_command_summarise(const chrono_command_series *s, double confidence,
                                        chrono_command_summary *out);
/* out->ratio = A/B (wall) with .ci_low .ci_high .ci_level .rounds; .a / .b
   carry each side's wall statistics (ns, named after the commands);
   .cycles_ratio NAN.  CHRONO_EINVAL for series of different lengths or
   fewer than 1 run. */
CHRONO_API int chrono_command_compare(const chrono_command_series *a,
                                      const chrono_command_series *b, double confidence,
                                      chrono_comparison *out);
CHRONO_API int chrono_command_export_json(FILE *out, const chrono_command_series *series, size_t n);
CHRONO_API void chrono_command_series_free(chrono_command_series *series, size_t n);
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_COMMAND_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_COMMAND_IMPL)
#define CHRONOSCOPE_COMMAND_IMPL

#if !CHRONO_OS_WINDOWS
#  include <fcntl.h>
#  include <sys/types.h>
#  include <sys/time.h>
#  include <sys/resource.h>
#  include <sys/wait.h>
#  include <unistd.h>
#  if defined(__GLIBC__) && !defined(__USE_MISC)
/* hidden under a strict -std=c99 */
pid_t wait4(pid_t pid, int *status, int options, struct rusage *usage);
#  endif
#endif

CHRONO__EXTERN_C_BEGIN

CHRONO_API chrono_command_config chrono_command_config_default(void)
{
    chrono_command_config c;
    memset(&c, 0, sizeof c);
    c.min_runs = 10; c.max_runs = 1000; c.max_ms = 3000.0; c.looks = 3;
    return c;
}

#if !CHRONO_OS_WINDOWS
/* In the child: output to /dev/null unless shown, every CPU allowed, the shell. */
CHRONO__PRIVATE void chrono__command_exec(const char *cmd, int flags)
{
    if (!(flags & CHRONO_COMMAND_SHOW_OUTPUT)) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) { (void)dup2(fd, 1); (void)dup2(fd, 2); if (fd > 2) (void)close(fd); }
    }
    (void)chrono_cpu_release();
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
}
#endif

CHRONO_API int chrono_command_run(const chrono_clock *clk, const char *cmd, int flags,
                                  volatile long *child, chrono_command_time *out)
{
#if CHRONO_OS_WINDOWS
    (void)clk; (void)cmd; (void)flags; (void)child; (void)out;
    return CHRONO_ENOTSUP;
#else
    struct rusage ru;
    uint64_t t0, t1;
    pid_t pid, got;
    int st = 0;
    if (!clk || !cmd || !out) return CHRONO_EINVAL;
    fflush(NULL);   /* nothing buffered is written twice by the child */
    t0 = chrono_clock_start(clk);
    pid = fork();
    if (pid < 0) return CHRONO_EBUSY;
    if (pid == 0) chrono__command_exec(cmd, flags);
    if (child) *child = (long)pid;
    memset(&ru, 0, sizeof ru);
    do got = wait4(pid, &st, 0, &ru); while (got < 0 && errno == EINTR);
    t1 = chrono_clock_stop(clk);
    if (child) *child = 0;
    if (got < 0) return CHRONO_EBUSY;
    out->wall_ns = chrono_clock_ns(clk, t1 - t0);
    out->user_ns = (double)ru.ru_utime.tv_sec * 1e9 + (double)ru.ru_utime.tv_usec * 1e3;
    out->sys_ns = (double)ru.ru_stime.tv_sec * 1e9 + (double)ru.ru_stime.tv_usec * 1e3;
    out->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 255;
    return 0;
#endif
}

/* The series' run storage, cap runs each; 0 or CHRONO_ENOMEM (nothing kept). */
CHRONO__PRIVATE int chrono__command_alloc(chrono_command_series *s, size_t n, size_t cap)
{
    size_t k;
    for (k = 0; k < n; k++) {
        s[k].n = 0;
        s[k].runs = (chrono_command_time *)CHRONO_MALLOC(cap * sizeof *s[k].runs);
        if (!s[k].runs) { chrono_command_series_free(s, k); return CHRONO_ENOMEM; }
    }
    return 0;
}

/* One round (k in order, or reversed when odd), prepare before each run;
   timed into the series unless warm.  0 or an error; *failed set on a stop. */
CHRONO__PRIVATE int chrono__command_round(chrono_command_series *s, size_t n,
                                          const chrono_command_config *cfg, const chrono_clock *clk,
                                          size_t round, int warm, size_t *failed)
{
    volatile long spare = 0, *child = cfg->tmp ? &cfg->tmp->child : &spare;
    chrono_command_time t;
    size_t i;
    int rc;
    for (i = 0; i < n; i++) {
        size_t k = round % 2 ? n - 1 - i : i;
        if (cfg->prepare) {
            if ((rc = chrono_command_run(clk, cfg->prepare, cfg->flags, child, &t)) < 0) return rc;
            if (t.exit_code != 0 && !cfg->ignore_failure) { *failed = k + 1; return 0; }
        }
        if ((rc = chrono_command_run(clk, s[k].command, cfg->flags, child, &t)) < 0) return rc;
        if (!warm) s[k].runs[s[k].n++] = t;
        if (t.exit_code != 0 && !cfg->ignore_failure) { *failed = k + 1; return 0; }
    }
    return 0;
}

/* The end of look `look`: 1 when the rounds stop here (the last look, or all decided). */
CHRONO__PRIVATE int chrono__command_look(const chrono_command_series *s, size_t n,
                                         const chrono_command_config *c, int look)
{
    int stop = c->decided
                   ? c->decided(s, n, look, c->looks,
                                chrono_command_look_level(c->confidence, look, c->looks), c->ctx)
                   : 1;
    return look >= c->looks || stop;
}

CHRONO_API double chrono_command_look_level(double confidence, int look, int looks)
{
    double alpha;
    if (!(confidence > 0 && confidence < 1)) confidence = 0.95;
    if (looks < 1 || look < 1 || look > looks || looks > CHRONO_COMMAND_LOOKS_MAX) return NAN;
    alpha = 1 - confidence;
    if (looks > 1) alpha = look == looks ? alpha / 2 : alpha / (2.0 * (looks - 1));
    return 1 - alpha;
}

CHRONO_API int chrono_command_bench(chrono_command_series *series, size_t n,
                                    const chrono_command_config *cfg, size_t *failed)
{
    chrono_command_config c = cfg ? *cfg : chrono_command_config_default();
    chrono_clock own;
    const chrono_clock *clk = c.clock;
    size_t r, k, cap;
    uint64_t t0;
    double budget;
    int rc = 0, look = 1;
    if (!series || n == 0 || !failed || c.runs < 0 || c.warmup < 0 || c.min_runs < 0 ||
        c.max_runs < 0 || !(c.max_ms >= 0) || c.looks < 0 || c.looks > CHRONO_COMMAND_LOOKS_MAX)
        return CHRONO_EINVAL;
    for (k = 0; k < n; k++) if (!series[k].command) return CHRONO_EINVAL;
    *failed = 0;
    if (!c.min_runs) c.min_runs = 10;
    if (!c.max_runs) c.max_runs = 1000;
    if (!(c.max_ms > 0)) c.max_ms = 3000;
    if (!c.looks) c.looks = 3;
    if (!c.decided) c.looks = 1;
    budget = c.max_ms;
    if (!clk) { if ((rc = chrono_clock_open(&own, CHRONO_CLOCK_AUTO)) < 0) return rc; clk = &own; }
    cap = (size_t)(c.runs ? c.runs : c.max_runs > c.min_runs ? c.max_runs : c.min_runs);
    if ((rc = chrono__command_alloc(series, n, cap)) < 0) return rc;
    for (r = 0; r < (size_t)c.warmup && rc == 0 && !*failed; r++)
        rc = chrono__command_round(series, n, &c, clk, r, 1, failed);
    t0 = chrono_clock_start(clk);
    for (r = 0; r < cap && rc == 0 && !*failed; r++) {
        if (!c.runs && r >= (size_t)c.min_runs &&
            chrono_clock_ns(clk, chrono_clock_stop(clk) - t0) > budget * 1e6) {
            if (chrono__command_look(series, n, &c, look)) break;
            look++;
            budget *= 2;
        }
        rc = chrono__command_round(series, n, &c, clk, r, 0, failed);
    }
    if (rc == 0 && !*failed && !c.runs && r == cap) (void)chrono__command_look(series, n, &c, look);
    return rc;
}

CHRONO_API int chrono_command_summarise(const chrono_command_series *s, double confidence,
                                        chrono_command_summary *out)
{
    double *w;
    size_t i;
    int rc;
    if (!s || !out || !s->runs || s->n == 0) return CHRONO_EINVAL;
    if (!(w = (double *)CHRONO_MALLOC(2 * s->n * sizeof *w))) return CHRONO_ENOMEM;
    memset(out, 0, sizeof *out);
    for (i = 0; i < s->n; i++) {
        w[i] = s->runs[i].wall_ns;
        out->user_mean_ns += s->runs[i].user_ns / (double)s->n;
        out->sys_mean_ns += s->runs[i].sys_ns / (double)s->n;
        out->failures += s->runs[i].exit_code != 0;
    }
    rc = chrono_stats_compute(w, s->n, confidence, w + s->n, &out->wall);
    CHRONO_FREE(w);
    return rc;
}

/* One side of a command comparison: its name and wall statistics. */
CHRONO__PRIVATE int chrono__command_side(const chrono_command_series *s, double confidence,
                                         chrono_result *r)
{
    chrono_command_summary sum;
    int rc = chrono_command_summarise(s, confidence, &sum);
    memset(r, 0, sizeof *r);
    (void)chrono__bprintf(r->name, sizeof r->name, "%s", s->command);
    r->iters_per_sample = 1;
    r->samples = r->samples_taken = s->n;
    r->iters_taken = s->n;
    r->ns = sum.wall;
    r->ticks.median = r->cycles.median = NAN;
    r->core_ghz = r->cpu_share = r->cpu_ns_per_iter = NAN;
    r->cpu = -1;
    return rc;
}

/* Wilcoxon's signed-rank statistic T of n pairs (its null distribution):
   the interval of the sorted Walsh averages W[d - 1] .. W[N - d] (N of them)
   with the largest d such that 2 P(T <= d - 1) <= alpha, and its level
   1 - 2 P(T <= d - 1) (d = 0: none will do; the whole range, at 1 - 2 P(T = 0)).
   Exact (the counts of each rank sum) up to 200 pairs, else normal with a
   continuity correction.  0 or CHRONO_ENOMEM. */
CHRONO__PRIVATE int chrono__signed_rank_cut(size_t n, double alpha, size_t *d, double *level)
{
    size_t total = n * (n + 1) / 2, i, t;
    double *p, cum = 0, sd = sqrt((double)n * (double)(n + 1) * (double)(2 * n + 1) / 24);
    *d = 0;
    if (n > 200) {   /* P(T <= k) ~ Phi((k + 0.5 - total/2) / sd) */
        double k = floor((double)total / 2 - 0.5 - sd * chrono_stats_z(1 - alpha));
        *d = k >= 0 ? (size_t)k + 1 : 0;
        *level = 1 - erfc(((double)total / 2 - (k >= 0 ? k : 0) - 0.5) / sd / sqrt(2.0));
        return 0;
    }
    if (!(p = (double *)CHRONO_MALLOC((total + 1) * sizeof *p))) return CHRONO_ENOMEM;
    memset(p, 0, (total + 1) * sizeof *p);
    p[0] = 1;
    for (i = 1; i <= n; i++) {   /* rank i in the sum or not, each with probability 1/2 */
        for (t = i * (i + 1) / 2; t >= i; t--) p[t] = (p[t] + p[t - i]) / 2;
        for (t = 0; t < i; t++) p[t] /= 2;
    }
    *level = 1 - 2 * p[0];
    for (t = 0; t < total / 2 && 2 * (cum + p[t]) <= alpha; t++) {
        cum += p[t];
        *level = 1 - 2 * cum;
        *d = t + 1;
    }
    CHRONO_FREE(p);
    return 0;
}

/* The Hodges-Lehmann estimate of the per-round log ratio log(a/b) (the
   median of its Walsh averages) with the signed-rank interval of the level
   asked (chrono__signed_rank_cut).  Valid when a round's two log times are
   exchangeable but for the change (the ABBA order balances which one runs
   first).  0, CHRONO_EINVAL, CHRONO_ENOMEM. */
CHRONO__PRIVATE int chrono__command_hl(const double *a, const double *b, size_t n,
                                       double confidence, chrono_ratio *out)
{
    size_t total = n * (n + 1) / 2, i, j, w = 0, d = 0;
    double *x, level = 0;
    int rc;
    for (i = 0; i < n; i++)
        if (!(a[i] > 0) || !(b[i] > 0) || !chrono__finite(a[i] / b[i])) return CHRONO_EINVAL;
    if ((rc = chrono__signed_rank_cut(n, 1 - confidence, &d, &level)) < 0) return rc;
    if (!(x = (double *)CHRONO_MALLOC((n + total) * sizeof *x))) return CHRONO_ENOMEM;
    for (i = 0; i < n; i++) x[total + i] = log(a[i] / b[i]);
    for (i = 0; i < n; i++) for (j = i; j < n; j++) x[w++] = (x[total + i] + x[total + j]) / 2;
    chrono_stats_sort(x, total);
    out->n = n;
    out->ratio = exp(chrono_stats_quantile(x, total, 0.5));
    out->ci_low = exp(x[d ? d - 1 : 0]);
    out->ci_high = exp(x[total - (d ? d : 1)]);
    out->ci_level = level;
    CHRONO_FREE(x);
    return 0;
}

CHRONO_API int chrono_command_compare(const chrono_command_series *a,
                                      const chrono_command_series *b, double confidence,
                                      chrono_comparison *out)
{
    chrono_ratio q;
    double *x;
    size_t i, n;
    int rc;
    if (!a || !b || !out || !a->runs || !b->runs || a->n != b->n || a->n == 0) return CHRONO_EINVAL;
    n = a->n;
    memset(out, 0, sizeof *out);
    if ((rc = chrono__command_side(a, confidence, &out->a)) < 0 ||
        (rc = chrono__command_side(b, confidence, &out->b)) < 0)
        return rc;
    if (!(x = (double *)CHRONO_MALLOC(3 * n * sizeof *x))) return CHRONO_ENOMEM;
    for (i = 0; i < n; i++) { x[i] = a->runs[i].wall_ns; x[n + i] = b->runs[i].wall_ns; }
    rc = n > CHRONO__COMMAND_WALSH_MAX ? chrono_stats_ratio(x, x + n, n, confidence, x + 2 * n, &q)
                                       : chrono__command_hl(x, x + n, n, confidence, &q);
    CHRONO_FREE(x);
    if (rc < 0) return rc;
    out->rounds = n;
    out->ratio = q.ratio;
    out->ci_low = q.ci_low;
    out->ci_high = q.ci_high;
    out->ci_level = q.ci_level;
    out->cycles_ratio = NAN;
    out->process_min_ratio = out->process_max_ratio = q.ratio;
    return 0;
}

/* A JSON number in seconds, or null. */
CHRONO__PRIVATE void chrono__command_sec(FILE *out, const char *key, double ns)
{
    if (key) fprintf(out, "\"%s\": ", key);
    if (chrono__finite(ns)) fprintf(out, "%.9g", ns / 1e9); else fputs("null", out);
}

/* One member of "results". */
CHRONO__PRIVATE void chrono__command_json_one(FILE *out, const chrono_command_series *s)
{
    chrono_command_summary m;
    size_t i;
    if (chrono_command_summarise(s, 0.95, &m) < 0) {
        memset(&m, 0, sizeof m);
        m.wall.mean = m.wall.median = NAN;
    }
    fputs("    {\n      \"command\": \"", out);
    (void)chrono_json_escape(out, s->command);
    fputs("\",\n      ", out);
    chrono__command_sec(out, "mean", m.wall.mean);
    fputs(",\n      ", out);
    chrono__command_sec(out, "stddev", s->n > 1 ? m.wall.stddev : NAN);
    fputs(",\n      ", out);
    chrono__command_sec(out, "median", m.wall.median);
    fputs(",\n      ", out);
    chrono__command_sec(out, "user", m.user_mean_ns);
    fputs(",\n      ", out);
    chrono__command_sec(out, "system", m.sys_mean_ns);
    fputs(",\n      ", out);
    chrono__command_sec(out, "min", s->n ? m.wall.min : NAN);
    fputs(",\n      ", out);
    chrono__command_sec(out, "max", s->n ? m.wall.max : NAN);
    fputs(",\n      \"times\": [", out);
    for (i = 0; i < s->n; i++) {
        if (i) fputs(", ", out);
        chrono__command_sec(out, NULL, s->runs[i].wall_ns);
    }
    fputs("],\n      \"exit_codes\": [", out);
    for (i = 0; i < s->n; i++) fprintf(out, "%s%d", i ? ", " : "", s->runs[i].exit_code);
    fputs("]", out);
    if (s->param_name && s->param_value) {
        fputs(",\n      \"parameters\": {\"", out);
        (void)chrono_json_escape(out, s->param_name);
        fputs("\": \"", out);
        (void)chrono_json_escape(out, s->param_value);
        fputs("\"}", out);
    }
    fputs("\n    }", out);
}

CHRONO_API int chrono_command_export_json(FILE *out, const chrono_command_series *series, size_t n)
{
    size_t k;
    if (!out || (!series && n)) return CHRONO_EINVAL;
    fputs("{\n  \"results\": [\n", out);
    for (k = 0; k < n; k++) {
        if (k) fputs(",\n", out);
        chrono__command_json_one(out, &series[k]);
    }
    fputs("\n  ]\n}\n", out);
    return fflush(out) == 0 && !ferror(out) ? 0 : CHRONO_EIO;
}

CHRONO_API void chrono_command_series_free(chrono_command_series *series, size_t n)
{
    size_t k;
    if (!series) return;
    for (k = 0; k < n; k++) { CHRONO_FREE(series[k].runs); series[k].runs = NULL; series[k].n = 0; }
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_COMMAND_IMPL */

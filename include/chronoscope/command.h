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

   The ratio of two series is the median of the per-round ratios A/B with
   its distribution-free interval (stats.h's chrono_stats_ratio), as a
   chrono_comparison: baseline.h's chrono_change_decide gives the verdict.

   Functions:
     chrono_command_config_default()          10 runs at least, 3 s, at most 1000
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

typedef struct chrono_command_time {
    double wall_ns;              /* fork to exit, on the caller's clock */
    double user_ns, sys_ns;      /* the child's CPU time (its own children's included once reaped) */
    int exit_code;               /* 0..255; 128 + N killed by signal N; 127 could not be started */
} chrono_command_time;

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
    chrono_tmp *tmp;             /* the running child's pid goes to tmp->child (a signal stops it); NULL */
} chrono_command_config;

typedef struct chrono_command_series {
    const char *command;         /* not copied */
    size_t n;                    /* runs taken */
    chrono_command_time *runs;   /* round i at index i; chrono_command_series_free frees it */
    const char *param_name, *param_value;   /* a parameter scan's (the export's "parameters"); NULL: none */
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
CHRONO_API int chrono_command_run(const chrono_clock *clk, const char *cmd, int flags, volatile long *child,
                                  chrono_command_time *out);
CHRONO_API int chrono_command_bench(chrono_command_series *series, size_t n, const chrono_command_config *cfg,
                                    size_t *failed);
CHRONO_API int chrono_command_summarise(const chrono_command_series *s, double confidence,
                                        chrono_command_summary *out);
/* out->ratio = A/B (wall) with .ci_low .ci_high .ci_level .rounds; .a / .b
   carry each side's wall statistics (ns, named after the commands);
   .cycles_ratio NAN.  CHRONO_EINVAL for series of different lengths or
   fewer than 1 run. */
CHRONO_API int chrono_command_compare(const chrono_command_series *a, const chrono_command_series *b,
                                      double confidence, chrono_comparison *out);
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
pid_t wait4(pid_t pid, int *status, int options, struct rusage *usage);   /* hidden under a strict -std=c99 */
#  endif
#endif

CHRONO__EXTERN_C_BEGIN

CHRONO_API chrono_command_config chrono_command_config_default(void)
{
    /* runs, min_runs, max_runs, max_ms, warmup, prepare, ignore_failure, flags, clock, tmp */
    chrono_command_config c = { 0, 10, 1000, 3000.0, 0, NULL, 0, 0, NULL, NULL };
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

CHRONO_API int chrono_command_run(const chrono_clock *clk, const char *cmd, int flags, volatile long *child,
                                  chrono_command_time *out)
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
CHRONO__PRIVATE int chrono__command_round(chrono_command_series *s, size_t n, const chrono_command_config *cfg,
                                          const chrono_clock *clk, size_t round, int warm, size_t *failed)
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

CHRONO_API int chrono_command_bench(chrono_command_series *series, size_t n, const chrono_command_config *cfg,
                                    size_t *failed)
{
    chrono_command_config c = cfg ? *cfg : chrono_command_config_default();
    chrono_clock own;
    const chrono_clock *clk = c.clock;
    size_t r, k, cap;
    uint64_t t0;
    int rc = 0;
    if (!series || n == 0 || !failed || c.runs < 0 || c.warmup < 0 || c.min_runs < 0 || c.max_runs < 0 ||
        !(c.max_ms >= 0))
        return CHRONO_EINVAL;
    for (k = 0; k < n; k++) if (!series[k].command) return CHRONO_EINVAL;
    *failed = 0;
    if (!c.min_runs) c.min_runs = 10;
    if (!c.max_runs) c.max_runs = 1000;
    if (!(c.max_ms > 0)) c.max_ms = 3000;
    if (!clk) { if ((rc = chrono_clock_open(&own, CHRONO_CLOCK_AUTO)) < 0) return rc; clk = &own; }
    cap = (size_t)(c.runs ? c.runs : c.max_runs > c.min_runs ? c.max_runs : c.min_runs);
    if ((rc = chrono__command_alloc(series, n, cap)) < 0) return rc;
    for (r = 0; r < (size_t)c.warmup && rc == 0 && !*failed; r++)
        rc = chrono__command_round(series, n, &c, clk, r, 1, failed);
    t0 = chrono_clock_start(clk);
    for (r = 0; r < cap && rc == 0 && !*failed; r++) {
        if (!c.runs && r >= (size_t)c.min_runs && chrono_clock_ns(clk, chrono_clock_stop(clk) - t0) > c.max_ms * 1e6)
            break;
        rc = chrono__command_round(series, n, &c, clk, r, 0, failed);
    }
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
CHRONO__PRIVATE int chrono__command_side(const chrono_command_series *s, double confidence, chrono_result *r)
{
    chrono_command_summary sum;
    int rc = chrono_command_summarise(s, confidence, &sum);
    memset(r, 0, sizeof *r);
    (void)chrono__bprintf(r->name, sizeof r->name, "%s", s->command);
    r->iters_per_sample = 1;
    r->samples = r->samples_taken = s->n;
    r->ns = sum.wall;
    r->ticks.median = r->cycles.median = NAN;
    r->core_ghz = r->cpu_share = r->cpu_ns_per_iter = NAN;
    r->cpu = -1;
    return rc;
}

CHRONO_API int chrono_command_compare(const chrono_command_series *a, const chrono_command_series *b,
                                      double confidence, chrono_comparison *out)
{
    chrono_ratio q;
    double *x;
    size_t i, n;
    int rc;
    if (!a || !b || !out || !a->runs || !b->runs || a->n != b->n || a->n == 0) return CHRONO_EINVAL;
    n = a->n;
    memset(out, 0, sizeof *out);
    if ((rc = chrono__command_side(a, confidence, &out->a)) < 0 || (rc = chrono__command_side(b, confidence, &out->b)) < 0)
        return rc;
    if (!(x = (double *)CHRONO_MALLOC(3 * n * sizeof *x))) return CHRONO_ENOMEM;
    for (i = 0; i < n; i++) { x[i] = a->runs[i].wall_ns; x[n + i] = b->runs[i].wall_ns; }
    rc = chrono_stats_ratio(x, x + n, n, confidence, x + 2 * n, &q);
    CHRONO_FREE(x);
    if (rc < 0) return rc;
    out->rounds = n;
    out->ratio = q.ratio; out->ci_low = q.ci_low; out->ci_high = q.ci_high; out->ci_level = q.ci_level;
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
    if (chrono_command_summarise(s, 0.95, &m) < 0) { memset(&m, 0, sizeof m); m.wall.mean = m.wall.median = NAN; }
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
    for (i = 0; i < s->n; i++) { if (i) fputs(", ", out); chrono__command_sec(out, NULL, s->runs[i].wall_ns); }
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

/* chronoscope/processes.h — fresh processes: spawn, records, pooling.

   A program that runs its benchmarks in N fresh processes (--processes=N,
   program.h) re-executes itself once per process with a private flag,
   "--chrono-child=K:FD:CALL" (CHRONO_PROCESSES_FLAG): child K (from 0) runs
   the benchmarks of the program's call CALL and hands its session back
   through the pipe FD as records; the parent pools each benchmark over the
   processes.  This header does those three jobs; which entries run, and
   printing their rows, stay with program.h.  Linux and the other POSIX
   systems (fork, pipe, poll, waitpid); Windows: CHRONO_ENOTSUP.

   Usage (what program.h does):

       // a child, before it parses its flags:
       chrono_child_flag f;
       char **copy;
       if (chrono_processes_child_args(&argc, &argv, &f, &copy) < 0) ...   // a malformed flag: exit 2
       ... the benchmarks of call f.call into session s ...
       chrono_processes_hand_back(&s, f.fd);            // every record, then the end

       // the parent:
       chrono_processes ps;
       chrono_processes_run(&ps, &s, argc, argv, call, n, timeout_s, prog);   // n children, one after another
       chrono_processes_pool(&ps, &s, "name", &pooled);                       // one benchmark over them
       chrono_processes_pool_comparison(&ps, &s, "a", "b", &cmp);
       chrono_processes_pool_sweep(&ps, "name", &sweep);
       chrono_table_builder tb;
       chrono_processes_table(&ps, cfg.seed, &tb);      // a row per process: how it ended (tb.table)
       ... the report written ...
       chrono_table_free(&tb);
       chrono_processes_free(&ps);

   Records: a type letter, a space, the struct's bytes in hex (the child is
   the same executable: the same layout), a newline.  R a result, N its
   samples, C a comparison, A and B its sides' samples, S a sweep, E the end.
   A child that stops early hands back what was whole.

   Pooling: the processes are the units of variation.  A result's median is
   the median of the processes' medians; its interval the order-statistic
   interval of that median over the processes (the lowest to the highest
   median when they are too few for .confidence), never narrower than a
   typical process's own interval and always within the pooled [min, max],
   its real level in .ci_level (0.75 for three processes, 0.5 for two); min,
   max, MAD, quartiles, outliers and the histogram over all the processes'
   samples (stats.h's chrono_stats_pool); the spread between the medians in
   .processes, .process_min_ns, .process_max_ns.  Ticks are the ns figures
   in ticks; cycles pooled from the processes' own cycle figures.  A
   comparison's ratio pools the processes' ratios the same way.

   Functions:
     chrono_processes_seed(seed, k)            the seed of child k's order
     chrono_processes_order(seed, k, order, n) the order child k runs the entries in
     chrono_processes_timeout(cfg, entries, n) the default time limit of one child
     chrono_processes_child_args(...)          a child's flag taken out of argv
     chrono_processes_hand_back(s, fd)         a child's session, as records, to its parent
     chrono_processes_run(ps, s, ...)          start n children one after another, collect their records
     chrono_processes_pool / _pool_comparison / _pool_sweep    one benchmark pooled over them
     chrono_processes_pool_entry(ps, s, e, hooks)   a program table's entry pooled (entry.h)
     chrono_processes_table(ps, seed, tb)      the "processes" table (a table.h builder): a row per child
     chrono_processes_free(ps) */
#ifndef CHRONOSCOPE_PROCESSES_H
#define CHRONOSCOPE_PROCESSES_H

#include "bench.h"
#include "cli.h"
#include "entry.h"

#define CHRONO_PROCESSES_FLAG "--chrono-child="
#define CHRONO_PROCESSES_MAX 1000   /* processes one call may run */

/* What one process handed back. */
typedef struct chrono_process {
    chrono_result *results; size_t nresults;          /* their samples hang on them (freed with the
                                                         set) */
    chrono_comparison *comparisons; size_t ncomparisons;
    chrono_sweep_result *sweeps; size_t nsweeps;
    int complete;                /* its end record arrived: all it had is here */
    long pid;
    char why[128];               /* "" or how it failed */
    char chrono__last;           /* private: the last record kept, 'R' or 'C' (its samples follow),
                                    else 0 */
} chrono_process;

typedef struct chrono_processes {
    chrono_process *procs;       /* [n], in the order they ran */
    int n;
    int failed;                  /* processes whose records did not arrive whole */
} chrono_processes;

/* A child's private flag: --chrono-child=K:FD:CALL. */
typedef struct chrono_child_flag {
    int index;                   /* K + 1: 1 for the first child; 0: not a child */
    int fd;                      /* the pipe to the parent */
    int call;                    /* the call of the program whose entries it runs; -1: every call */
    const char *text;            /* the flag as given (argv's string); NULL when there is none */
} chrono_child_flag;

CHRONO__EXTERN_C_BEGIN
/* The seed of child k's shuffled order: seed and k, mixed (splitmix64). */
CHRONO_API uint64_t chrono_processes_seed(uint64_t seed, int k);

/* The order child k runs n entries in: a shuffle of 0..n-1 (Fisher-Yates,
   xorshift from chrono_processes_seed(seed, k)) into order[0..n). */
CHRONO_API void chrono_processes_order(uint64_t seed, int k, size_t *order, size_t n);

/* The default time limit of one child, in seconds: generous against what
   the entries may take under cfg (30 s and three times their budgets and
   warm-ups, a sweep's and a product's points each, a comparison twice). */
CHRONO_API double chrono_processes_timeout(const chrono_config *cfg, const chrono_entry *entries,
                                           size_t n);

/* Take a child's flag out of argv: *argv becomes a copy without it (*copy,
   freed with CHRONO_FREE; NULL and argv untouched when there is no flag).
   0; CHRONO_ENOMEM; CHRONO_EINVAL when the flag is not three whole numbers
   K:FD:CALL with K in [0, CHRONO_PROCESSES_MAX), FD >= 0 and CALL >= -1
   (f->text names it; nothing is copied). */
CHRONO_API int chrono_processes_child_args(int *argc, char ***argv, chrono_child_flag *f,
                                           char ***copy);

/* Every result, comparison and sweep of s, as records, then the end, to the
   pipe fd (closed).  0, CHRONO_EIO, CHRONO_ENOMEM, CHRONO_ENOTSUP (Windows). */
CHRONO_API int chrono_processes_hand_back(const chrono_session *s, int fd);

/* Start n children one after another: the program argv[0..argc) again
   (Linux /proc/self/exe, elsewhere argv[0]) with the flag
   CHRONO_PROCESSES_FLAG "K:FD:CALL" appended and its stdout on /dev/null;
   read each one's records until it closes the pipe, or kill it once
   timeout_s has passed.  On a terminal "process K of N ..." shows on stderr
   meanwhile; a child that fails is named on stderr after prog, and in
   ps->procs[k].why.  0, CHRONO_EINVAL (n outside 1..CHRONO_PROCESSES_MAX),
   CHRONO_ENOMEM, CHRONO_ENOTSUP (Windows: CreateProcess and a pipe handle
   would do it; not written yet).  *ps is to be freed in every case. */
CHRONO_API int chrono_processes_run(chrono_processes *ps, const chrono_session *s, int argc,
                                    char **argv, int call, int n, double timeout_s,
                                    const char *prog);

/* The result named `name` pooled over the processes that have it (the last
   of each's), into *out, the pooled samples kept in s for the plots (*out is
   not added to s).  0, CHRONO_ENOSAMPLES (no process has it), CHRONO_ENOMEM. */
CHRONO_API int chrono_processes_pool(const chrono_processes *ps, chrono_session *s,
                                     const char *name, chrono_result *out);

/* The comparison name_a vs name_b pooled: both sides as chrono_processes_pool
   does, the ratio and the cycles' ratio over the processes' ratios, the
   lowest and highest process's ratio.  0, CHRONO_ENOSAMPLES, CHRONO_ENOMEM. */
CHRONO_API int chrono_processes_pool_comparison(const chrono_processes *ps, chrono_session *s,
                                                const char *name_a, const char *name_b,
                                                chrono_comparison *out);

/* The sweep `name`: the first process's, its per-unit and fixed costs the
   medians of the processes' (.first_result is left to the caller).  0,
   CHRONO_ENOSAMPLES, CHRONO_ENOMEM. */
CHRONO_API int chrono_processes_pool_sweep(const chrono_processes *ps, const char *name,
                                           chrono_sweep_result *out);

/* One entry pooled over the processes into s, as chrono_entry_run would
   have kept it there: a run's result, a comparison, a sweep's points and its
   fit (chrono_processes_pool_sweep), the points of a product that
   hooks->want takes (its fits are not pooled); each result kept, with the
   entry's throughput, to hooks->result, a comparison to hooks->comparison.
   0, CHRONO_ENOSAMPLES (no process handed it back), CHRONO_EINVAL (a
   malformed entry), CHRONO_ENOMEM or the first error a hook returned. */
CHRONO_API int chrono_processes_pool_entry(const chrono_processes *ps, chrono_session *s,
                                           const chrono_entry *e, const chrono_entry_hooks *hooks);

/* The "processes" table into *tb (table.h's builder, started here): a row
   per child (process, pid, results, status, order seed in hex), as many as
   ran.  tb->table is the view; chrono_table_free(tb) once it is written.
   0, CHRONO_EINVAL, CHRONO_ENOMEM (what was built is still to be freed). */
CHRONO_API int chrono_processes_table(const chrono_processes *ps, uint64_t seed,
                                      chrono_table_builder *tb);

CHRONO_API void chrono_processes_free(chrono_processes *ps);
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_PROCESSES_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_PROCESSES_IMPL)
#define CHRONOSCOPE_PROCESSES_IMPL

#if CHRONO__OS_LINUX || CHRONO__OS_POSIX
#  include <fcntl.h>
#  include <poll.h>
#  include <signal.h>
#  include <sys/types.h>
#  include <sys/wait.h>
#  include <unistd.h>
#  if defined(__GLIBC__) && !defined(__USE_POSIX)
/* glibc declares it only with POSIX features on (strict -std=c99) */
int kill(pid_t pid, int sig);
#  endif
#endif

CHRONO__EXTERN_C_BEGIN

CHRONO_API uint64_t chrono_processes_seed(uint64_t seed, int k)
{
    uint64_t x = seed + 0x9E3779B97F4A7C15ull * (uint64_t)(k + 1);
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    return x;
}

CHRONO_API void chrono_processes_order(uint64_t seed, int k, size_t *order, size_t n)
{
    uint64_t x = chrono_processes_seed(seed, k);
    size_t a;
    for (a = 0; a < n; a++) order[a] = a;
    for (a = n - 1; n && a > 0; a--) {
        size_t b, t;
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        b = (size_t)(x % (a + 1));
        t = order[a]; order[a] = order[b]; order[b] = t;
    }
}

CHRONO_API double chrono_processes_timeout(const chrono_config *cfg, const chrono_entry *entries,
                                           size_t n)
{
    double runs = 0, per = (cfg->max_ms + 4 * cfg->warmup_ms) / 1e3;
    size_t i;
    for (i = 0; i < n; i++) {
        double ms = entries[i].max_ms > 0 ? (entries[i].max_ms + 4 * cfg->warmup_ms) / 1e3 : per;
        runs += ms * (entries[i].kind == CHRONO_ENTRY_SWEEP     ? (double)entries[i].nparams
                      : entries[i].kind == CHRONO_ENTRY_COMPARE ? 2
                      : entries[i].kind == CHRONO_ENTRY_PRODUCT
                          ? (double)chrono_entry_points(&entries[i])
                          : 1);
    }
    return 30 + 3 * runs;
}

/* ---- the child's flag -------------------------------------------------------------- */

/* A whole number in [lo, hi] at *s, up to `end` (':' or '\0'); the text after it in *s. */
CHRONO__PRIVATE int chrono__flag_number(const char **s, char end, long lo, long hi, int *out)
{
    char *stop;
    long v;
    if (!((**s >= '0' && **s <= '9') || (**s == '-' && (*s)[1] >= '0' && (*s)[1] <= '9')))
        return -1;
    errno = 0;
    v = strtol(*s, &stop, 10);
    if (errno || *stop != end || v < lo || v > hi) return -1;
    *out = (int)v;
    *s = stop + (end ? 1 : 0);
    return 0;
}

/* "K:FD:CALL" after the flag's name into *f; -1 when malformed. */
CHRONO__PRIVATE int chrono__child_flag_parse(const char *a, chrono_child_flag *f)
{
    const char *s = a + strlen(CHRONO_PROCESSES_FLAG);
    int k;
    f->text = a;
    if (chrono__flag_number(&s, ':', 0, CHRONO_PROCESSES_MAX - 1, &k) < 0 ||
        chrono__flag_number(&s, ':', 0, 1L << 30, &f->fd) < 0 ||
        chrono__flag_number(&s, '\0', -1, 1L << 30, &f->call) < 0)
        return -1;
    f->index = k + 1;
    return 0;
}

CHRONO__PRIVATE int chrono__is_child_flag(const char *a)
{
    return a && !strncmp(a, CHRONO_PROCESSES_FLAG, strlen(CHRONO_PROCESSES_FLAG));
}

CHRONO_API int chrono_processes_child_args(int *argc, char ***argv, chrono_child_flag *f,
                                           char ***copy)
{
    int i, k = 0, at = -1;
    char **v;
    if (!argc || !argv || !f || !copy) return CHRONO_EINVAL;
    memset(f, 0, sizeof *f);
    f->call = -1;
    *copy = NULL;
    if (*argc <= 0 || !*argv) return 0;
    for (i = 1; i < *argc && (*argv)[i]; i++)
        if (chrono__is_child_flag((*argv)[i])) at = i;   /* the last one counts */
    if (at < 0) return 0;
    if (chrono__child_flag_parse((*argv)[at], f) < 0) { f->index = 0; return CHRONO_EINVAL; }
    if (!(v = (char **)CHRONO_MALLOC((size_t)(*argc + 1) * sizeof *v))) return CHRONO_ENOMEM;
    for (i = 0; i < *argc && (*argv)[i]; i++)
        if (i == 0 || !chrono__is_child_flag((*argv)[i])) v[k++] = (*argv)[i];
    v[k] = NULL;
    *copy = v;
    *argc = k;
    *argv = v;
    return 0;
}

/* ---- records ----------------------------------------------------------------------- */

CHRONO__PRIVATE void chrono__hex_put(char *dst, const void *src, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    const unsigned char *b = (const unsigned char *)src;
    size_t i;
    for (i = 0; i < n; i++) { dst[2 * i] = digits[b[i] >> 4]; dst[2 * i + 1] = digits[b[i] & 15]; }
}

CHRONO__PRIVATE int chrono__hex_get(void *dst, const char *src, size_t n)
{
    unsigned char *b = (unsigned char *)dst;
    size_t i;
    for (i = 0; i < 2 * n; i++) {
        char c = src[i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (v < 0) return -1;
        if (i & 1) b[i / 2] = (unsigned char)(b[i / 2] | v);
        else b[i / 2] = (unsigned char)(v << 4);
    }
    return 0;
}

/* One record: a type letter, the object's bytes in hex, a newline. */
CHRONO__PRIVATE int chrono__record_put(FILE *f, char type, const void *obj, size_t n)
{
    char *line = (char *)CHRONO_MALLOC(2 * n + 3);
    int rc;
    if (!line) return CHRONO_ENOMEM;
    line[0] = type; line[1] = ' ';
    chrono__hex_put(line + 2, obj, n);
    line[2 * n + 2] = '\n';
    rc = fwrite(line, 1, 2 * n + 3, f) == 2 * n + 3 ? 0 : CHRONO_EIO;
    CHRONO_FREE(line);
    return rc;
}

/* A result without its pointers, then its samples (the parent pools them). */
CHRONO__PRIVATE int chrono__record_result(FILE *f, char type, char samples,
                                          const chrono_result *src)
{
    chrono_result r = *src;
    int rc;
    r.sample_ns = NULL; r.nsample_ns = 0;
    rc = type ? chrono__record_put(f, type, &r, sizeof r) : 0;
    if (rc == 0 && src->nsample_ns)
        rc = chrono__record_put(f, samples, src->sample_ns, src->nsample_ns * sizeof(double));
    return rc;
}

CHRONO__PRIVATE int chrono__record_comparison(FILE *f, const chrono_comparison *sc)
{
    chrono_comparison c = *sc;
    int rc;
    c.a.sample_ns = c.b.sample_ns = c.pair_ratios = NULL;
    c.a.nsample_ns = c.b.nsample_ns = c.npair_ratios = 0;
    rc = chrono__record_put(f, 'C', &c, sizeof c);
    if (rc == 0) rc = chrono__record_result(f, 0, 'A', &sc->a);
    if (rc == 0) rc = chrono__record_result(f, 0, 'B', &sc->b);
    return rc;
}

CHRONO_API int chrono_processes_hand_back(const chrono_session *s, int fd)
{
#if CHRONO__OS_LINUX || CHRONO__OS_POSIX
    FILE *f;
    size_t i;
    int rc = 0;
    if (!s || fd < 0) return CHRONO_EINVAL;
    if (!(f = fdopen(fd, "wb"))) return CHRONO_EIO;
    for (i = 0; rc == 0 && i < s->nresults; i++)
        rc = chrono__record_result(f, 'R', 'N', &s->results[i]);
    for (i = 0; rc == 0 && i < s->ncomparisons; i++)
        rc = chrono__record_comparison(f, &s->comparisons[i]);
    for (i = 0; rc == 0 && i < s->nsweeps; i++)
        rc = chrono__record_put(f, 'S', &s->sweeps[i], sizeof s->sweeps[i]);
    if (rc == 0 && fputs("E\n", f) < 0) rc = CHRONO_EIO;
    if (fclose(f) != 0 && rc == 0) rc = CHRONO_EIO;
    return rc;
#else
    (void)s; (void)fd;
    return CHRONO_ENOTSUP;
#endif
}

CHRONO__PRIVATE void chrono__process_free(chrono_process *o)
{
    size_t i;   /* the samples hung on the records by chrono__record_samples */
    for (i = 0; i < o->nresults; i++) CHRONO_FREE((void *)o->results[i].sample_ns);
    for (i = 0; i < o->ncomparisons; i++) {
        CHRONO_FREE((void *)o->comparisons[i].a.sample_ns);
        CHRONO_FREE((void *)o->comparisons[i].b.sample_ns);
    }
    CHRONO_FREE(o->results); CHRONO_FREE(o->comparisons); CHRONO_FREE(o->sweeps);
    o->results = NULL; o->comparisons = NULL; o->sweeps = NULL;
    o->nresults = o->ncomparisons = o->nsweeps = 0;
}

/* One more record of `size` bytes at the end of *arr (*n records), decoded
   from hex; 0 (nothing) when memory runs out or the hex is malformed. */
CHRONO__PRIVATE int chrono__append_hex(void **arr, size_t *n, size_t size, const char *hex)
{
    char *p = (char *)CHRONO_MALLOC((*n + 1) * size);
    if (!p) return 0;
    if (*n) memcpy(p, *arr, *n * size);
    CHRONO_FREE(*arr);
    *arr = p;
    if (chrono__hex_get(p + *n * size, hex, size) != 0) return 0;
    (*n)++;
    return 1;
}

/* A record of samples ('N' after an 'R', 'A' / 'B' after a 'C'): hung on
   that record's .sample_ns (freed by chrono__process_free). */
CHRONO__PRIVATE void chrono__record_samples(chrono_process *o, char type, const char *hex,
                                            size_t count)
{
    chrono_result *r = NULL;
    double *v;
    if (type == 'N' && o->chrono__last == 'R') r = &o->results[o->nresults - 1];
    if (type == 'A' && o->chrono__last == 'C') r = &o->comparisons[o->ncomparisons - 1].a;
    if (type == 'B' && o->chrono__last == 'C') r = &o->comparisons[o->ncomparisons - 1].b;
    if (!r || r->sample_ns || !count || !(v = (double *)CHRONO_MALLOC(count * sizeof *v))) return;
    if (chrono__hex_get(v, hex, count * sizeof *v) != 0) { CHRONO_FREE(v); return; }
    r->sample_ns = v;
    r->nsample_ns = count;
}

/* One record line (without its newline) into o. */
CHRONO__PRIVATE void chrono__record_take(chrono_process *o, const char *line, size_t n)
{
    if (n == 1 && line[0] == 'E') { o->complete = 1; return; }
    if (n < 2) return;
    if (line[0] == 'R' && n - 2 == 2 * sizeof(chrono_result))
        o->chrono__last = chrono__append_hex((void **)&o->results, &o->nresults,
                                             sizeof(chrono_result), line + 2) ? 'R' : 0;
    else if (line[0] == 'C' && n - 2 == 2 * sizeof(chrono_comparison))
        o->chrono__last = chrono__append_hex((void **)&o->comparisons, &o->ncomparisons,
                                             sizeof(chrono_comparison), line + 2) ? 'C' : 0;
    else if (line[0] == 'S' && n - 2 == 2 * sizeof(chrono_sweep_result))
        (void)chrono__append_hex((void **)&o->sweeps, &o->nsweeps, sizeof(chrono_sweep_result),
                                 line + 2);
    else if ((line[0] == 'N' || line[0] == 'A' || line[0] == 'B') &&
             (n - 2) % (2 * sizeof(double)) == 0)
        chrono__record_samples(o, line[0], line + 2, (n - 2) / (2 * sizeof(double)));
}

/* A child's records (lines), keeping what is whole. */
CHRONO__PRIVATE void chrono__records_parse(chrono_process *o, const char *buf, size_t len)
{
    size_t i = 0;
    while (i < len) {
        const char *line = buf + i, *nl = (const char *)memchr(line, '\n', len - i);
        if (!nl) break;
        i += (size_t)(nl - line) + 1;
        chrono__record_take(o, line, (size_t)(nl - line));
    }
}

/* ---- spawning ---------------------------------------------------------------------- */
#if CHRONO__OS_LINUX || CHRONO__OS_POSIX
/* Fork and exec the program again, argv[0..argc) and the child's flag; its
   records come through fds[0] (the write end is closed here).  -1 with o->why. */
CHRONO__PRIVATE int chrono__process_start(chrono_process *o, int argc, char **argv, int k, int call,
                                          int fds[2])
{
    char flag[64], **av;
    pid_t pid;
    int i;
    if (pipe(fds) != 0) {
        (void)chrono__bprintf(o->why, sizeof o->why, "pipe failed: %s", strerror(errno));
        return -1;
    }
    if (!(av = (char **)CHRONO_MALLOC((size_t)(argc + 2) * sizeof *av))) {
        close(fds[0]); close(fds[1]);
        (void)chrono__bprintf(o->why, sizeof o->why, "out of memory");
        return -1;
    }
    (void)chrono__bprintf(flag, sizeof flag, CHRONO_PROCESSES_FLAG "%d:%d:%d", k, fds[1], call);
    for (i = 0; i < argc; i++) av[i] = argv[i];
    av[argc] = flag;
    av[argc + 1] = NULL;
    fflush(stdout); fflush(stderr);
    pid = fork();
    if (pid == 0) {   /* the child: its console goes nowhere, its records through the pipe */
        int dn = open("/dev/null", O_WRONLY);
        close(fds[0]);
        if (dn >= 0) { dup2(dn, 1); close(dn); }
        (void)chrono_cpu_release();   /* not the parent's pin: threaded entries need every CPU */
#  if CHRONO__OS_LINUX
        execv("/proc/self/exe", av);
#  endif
        execvp(av[0], av);
        _exit(127);
    }
    CHRONO_FREE(av);
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        (void)chrono__bprintf(o->why, sizeof o->why, "fork failed: %s", strerror(errno));
        return -1;
    }
    o->pid = (long)pid;
    return 0;
}

/* Milliseconds since t0 on the session's clock. */
CHRONO__PRIVATE double chrono__since_ms(const chrono_clock *c, uint64_t t0)
{
    uint64_t now = chrono_clock_stop(c);
    return now > t0 ? chrono_clock_ns(c, now - t0) / 1e6 : 0.0;
}

/* Read fd into *buf (*len bytes) until the child closes it or timeout_s has
   passed since t0 (1: the time ran out) or memory runs out. */
CHRONO__PRIVATE int chrono__process_read(const chrono_clock *c, uint64_t t0, double timeout_s,
                                         int fd, char **buf, size_t *len)
{
    size_t cap = 0;
    for (;;) {
        struct pollfd pf;
        double left_ms = timeout_s * 1e3 - chrono__since_ms(c, t0);
        ssize_t got;
        if (left_ms <= 0) return 1;
        pf.fd = fd; pf.events = POLLIN; pf.revents = 0;
        /* EINTR or time: checked above */
        if (poll(&pf, 1, left_ms > 1e9 ? 1000000000 : (int)left_ms + 1) <= 0) continue;
        if (*len + 65536 > cap) {
            size_t ncap = cap ? 2 * cap + 65536 : 262144;
            char *nb = (char *)CHRONO_MALLOC(ncap);
            if (!nb) return 0;
            if (*len) memcpy(nb, *buf, *len);
            CHRONO_FREE(*buf);
            *buf = nb;
            cap = ncap;
        }
        got = read(fd, *buf + *len, cap - *len);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return 0;
        *len += (size_t)got;
    }
}

/* How the child ended, in o->why ("" when it handed everything back and exited 0). */
CHRONO__PRIVATE void chrono__process_why(chrono_process *o, int status, int timed_out,
                                         double timeout_s)
{
    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (timed_out)
        (void)chrono__bprintf(o->why, sizeof o->why, "timed out after %.0f s (killed)", timeout_s);
    else if (sig)
        (void)chrono__bprintf(o->why, sizeof o->why, "killed by signal %d%s", sig,
                              sig == SIGKILL   ? " (SIGKILL)"
                              : sig == SIGSEGV ? " (SIGSEGV)"
                              : sig == SIGABRT ? " (SIGABRT)"
                                               : "");
    else if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !o->complete)
        (void)chrono__bprintf(o->why, sizeof o->why, "could not be started (exec failed)");
    else if (!o->complete)
        (void)chrono__bprintf(o->why, sizeof o->why,
                              "exited (status %d) without handing back its results",
                              WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        (void)chrono__bprintf(o->why, sizeof o->why,
                              "exit status %d (an entry failed; its results are kept)",
                              WEXITSTATUS(status));
}
#endif

/* Start child k, read its records until it closes the pipe or the timeout,
   then reap it; o->why says how it failed ("" when it did not). */
CHRONO__PRIVATE void chrono__process_run(chrono_process *o, const chrono_session *s, int argc,
                                         char **argv, int k, int call, double timeout_s)
{
#if CHRONO__OS_LINUX || CHRONO__OS_POSIX
    int fds[2], status = 0, timed_out;
    char *buf = NULL;
    size_t len = 0;
    uint64_t t0 = chrono_clock_stop(&s->clock);
    o->why[0] = '\0';
    if (chrono__process_start(o, argc, argv, k, call, fds) < 0) return;
    timed_out = chrono__process_read(&s->clock, t0, timeout_s, fds[0], &buf, &len);
    close(fds[0]);
    if (timed_out) kill((pid_t)o->pid, SIGKILL);
    while (waitpid((pid_t)o->pid, &status, 0) < 0 && errno == EINTR) {}
    chrono__records_parse(o, buf ? buf : "", len);
    CHRONO_FREE(buf);
    chrono__process_why(o, status, timed_out, timeout_s);
#else
    (void)s; (void)argc; (void)argv; (void)k; (void)call; (void)timeout_s;
    (void)chrono__bprintf(o->why, sizeof o->why, "not supported on this platform");
#endif
}

CHRONO_API int chrono_processes_run(chrono_processes *ps, const chrono_session *s, int argc,
                                    char **argv, int call, int n, double timeout_s,
                                    const char *prog)
{
    int k, tty = CHRONO__ISATTY(stderr);
    if (!ps) return CHRONO_EINVAL;
    memset(ps, 0, sizeof *ps);
    if (!(CHRONO__OS_LINUX || CHRONO__OS_POSIX)) return CHRONO_ENOTSUP;
    if (!s || argc < 1 || !argv || !argv[0] || n < 1 || n > CHRONO_PROCESSES_MAX ||
        !(timeout_s > 0))
        return CHRONO_EINVAL;
    if (!(ps->procs = (chrono_process *)CHRONO_MALLOC((size_t)n * sizeof *ps->procs)))
        return CHRONO_ENOMEM;
    memset(ps->procs, 0, (size_t)n * sizeof *ps->procs);
    ps->n = n;
    if (!prog) prog = argv[0];
    for (k = 0; k < n; k++) {
        chrono_process *o = &ps->procs[k];
        if (tty) { fprintf(stderr, "\r\033[K  process %d of %d ...", k + 1, n); fflush(stderr); }
        chrono__process_run(o, s, argc, argv, k, call, timeout_s);
        if (tty) { fputs("\r\033[K", stderr); fflush(stderr); }
        if (o->why[0] && !o->complete) {
            fprintf(stderr, "%s: process %d of %d (pid %ld) %s; %s\n", prog, k + 1, n, o->pid,
                    o->why, "the other processes' results are kept");
            ps->failed++;
        } else if (o->why[0]) {
            fprintf(stderr, "%s: process %d of %d (pid %ld): %s\n", prog, k + 1, n, o->pid, o->why);
        }
    }
    return 0;
}

CHRONO_API void chrono_processes_free(chrono_processes *ps)
{
    int k;
    if (!ps) return;
    for (k = 0; ps->procs && k < ps->n; k++) chrono__process_free(&ps->procs[k]);
    CHRONO_FREE(ps->procs);
    ps->procs = NULL;
    ps->n = ps->failed = 0;
}

/* ---- pooling ----------------------------------------------------------------------- */

/* The process whose median is the pooled one (or next to it): it lends the
   figures that are not pooled.  work: k doubles. */
CHRONO__PRIVATE size_t chrono__pool_pick(const chrono_result *const *rs, size_t k, double *work)
{
    size_t i, pick = 0;
    double md;
    for (i = 0; i < k; i++) work[i] = rs[i]->ns.median;
    md = chrono_stats_median(work, k);
    for (i = 1; i < k; i++)
        if (fabs(rs[i]->ns.median - md) < fabs(rs[pick]->ns.median - md)) pick = i;
    return pick;
}

/* The counts of k processes added, their flags joined, the all_* figures
   pooled (counts added, means weighted, the spread within and between). */
CHRONO__PRIVATE int chrono__pool_counts(const chrono_result *const *rs, size_t k,
                                        chrono_result *out)
{
    chrono_stats *all = (chrono_stats *)CHRONO_MALLOC(k * (sizeof *all + sizeof(chrono_stats *))),
                 pooled;
    const chrono_stats **ptr = (const chrono_stats **)(void *)(all + k);
    size_t i;
    if (!all) return CHRONO_ENOMEM;
    memset(&pooled, 0, sizeof pooled);
#define CHRONO__REJECTION_ZERO(field, words, key) out->field = 0;
#define CHRONO__REJECTION_POOL(field, words, key) out->field += rs[i]->field;
    CHRONO__REJECTIONS(CHRONO__REJECTION_ZERO)
    out->samples = out->samples_taken = 0;
    out->iters_taken = 0;
    out->wall_ms = out->warmup_ms = 0;
    out->warnings = 0;
    out->truncated = 0;
    for (i = 0; i < k; i++) {
        CHRONO__REJECTIONS(CHRONO__REJECTION_POOL)
        out->samples += rs[i]->samples; out->samples_taken += rs[i]->samples_taken;
        out->iters_taken += rs[i]->iters_taken;
        out->wall_ms += rs[i]->wall_ms; out->warmup_ms += rs[i]->warmup_ms;
        out->warnings |= rs[i]->warnings;
        out->truncated |= rs[i]->truncated;
        out->has_cycles &= rs[i]->has_cycles;
        all[i].n = rs[i]->all_n;
        all[i].mean = rs[i]->all_ns_mean;
        all[i].stddev = rs[i]->all_ns_stddev;
        ptr[i] = &all[i];
    }
#undef CHRONO__REJECTION_ZERO
#undef CHRONO__REJECTION_POOL
    chrono_stats_pool_moments(ptr, k, &pooled);
    out->all_n = pooled.n;
    out->all_ns_mean = pooled.mean;
    out->all_ns_stddev = pooled.stddev;
    CHRONO_FREE(all);
    return 0;
}

/* The pooled ns figures from every process's samples (chrono_stats_pool:
   the processes are the units of the interval; MAD, quartiles, outliers and
   the histogram over all the samples, which the session keeps for the plots).
   0, or a negative code when a process handed back no samples. */
CHRONO__PRIVATE int chrono__pool_samples(chrono_session *s, const chrono_result *const *rs,
                                         size_t k, double conf, chrono_result *out)
{
    const double **xs = (const double **)CHRONO_MALLOC(k * (sizeof *xs + sizeof(size_t)));
    size_t *ns = (size_t *)(void *)(xs + k), i, total = 0, at = 0;
    double *all;
    int rc = 0;
    if (!xs) return CHRONO_ENOMEM;
    for (i = 0; rc == 0 && i < k; i++) {
        xs[i] = rs[i]->sample_ns; ns[i] = rs[i]->nsample_ns;
        if (!xs[i] || !ns[i]) rc = CHRONO_ENOSAMPLES;
        total += ns[i];
    }
    if (rc == 0) rc = chrono_stats_pool(xs, ns, k, conf, &out->ns);
    if (rc < 0 || !(all = (double *)CHRONO_MALLOC(total * sizeof *all))) {
        CHRONO_FREE(xs);
        return rc;
    } /* no plot */
    for (i = 0; i < k; i++) { memcpy(all + at, xs[i], ns[i] * sizeof *all); at += ns[i]; }
    out->hist_lo = out->ns.min;   /* the sketch: min .. q3 + 3 IQR, as one process's */
    out->hist_hi = chrono__sketch_top(&out->ns);
    chrono_stats_histogram(all, total, out->hist_lo, out->hist_hi, out->hist, CHRONO_HIST_BINS);
    chrono__keep_samples(s, all, total, &out->sample_ns, &out->nsample_ns);
    CHRONO_FREE(all);
    CHRONO_FREE(xs);
    return 0;
}

/* The pooled cycles: extremes, mean and interval from the processes' own
   cycle figures, the spread figures (MAD, quartiles) the ns ones at the
   pooled core clock (the median of the processes' cycles per ns). */
CHRONO__PRIVATE int chrono__pool_cycles(const chrono_result *const *rs, size_t k, double conf,
                                        chrono_result *out)
{
    const chrono_stats **st =
        (const chrono_stats **)CHRONO_MALLOC(k * (sizeof *st + sizeof(double)));
    double *ratio = (double *)(void *)(st + k), f = NAN;
    chrono_stats c;
    size_t i;
    int rc;
    if (!st) return CHRONO_ENOMEM;
    for (i = 0; i < k; i++) {
        st[i] = &rs[i]->cycles;
        ratio[i] = rs[i]->cycles.median / rs[i]->ns.median;
    }
    rc = chrono_stats_pool_summaries(st, k, conf, &c);
    if (rc == 0) {
        /* cycles per ns: GHz */
        if (chrono__all_finite(ratio, k)) f = chrono_stats_median(ratio, k);
#define CHRONO__STATS_FROM_NS(member, unit) \
    if (unit && c.member != c.member) c.member = out->ns.member * f;
        CHRONO__STATS_FIGURES(CHRONO__STATS_FROM_NS)   /* what the summaries cannot pool: ns's, in
                                                          cycles */
#undef CHRONO__STATS_FROM_NS
        c.outliers_low = out->ns.outliers_low; c.outliers_high = out->ns.outliers_high;
        c.outliers_severe = out->ns.outliers_severe;
        out->cycles = c;
    }
    CHRONO_FREE(st);
    return rc;
}

/* The spread between the processes' medians; work: k doubles. */
CHRONO__PRIVATE void chrono__pool_spread(const chrono_result *const *rs, size_t k, double *work,
                                         chrono_result *out)
{
    size_t i;
    for (i = 0; i < k; i++) work[i] = rs[i]->ns.median;
    chrono_stats_sort(work, k);
    out->processes = (int)k;
    out->process_min_ns = work[0];
    out->process_max_ns = work[k - 1];
}

/* Pool k results of one benchmark into *out.  ns: over the processes'
   samples (chrono__pool_samples), or their summaries when one sent none;
   ticks: the ns figures in ticks (one clock); cycles: chrono__pool_cycles. */
CHRONO__PRIVATE int chrono__pool_results(chrono_session *s, const chrono_result *const *rs,
                                         size_t k, double conf, chrono_result *out)
{
    const chrono_stats **sn =
        (const chrono_stats **)CHRONO_MALLOC(k * (sizeof *sn + sizeof(double)));
    double *work = (double *)(void *)(sn + k), f;
    size_t i, pick;
    int rc;
    if (!sn) return CHRONO_ENOMEM;
    pick = chrono__pool_pick(rs, k, work);
    *out = *rs[pick];
    out->sample_ns = NULL; out->nsample_ns = 0;
    rc = chrono__pool_counts(rs, k, out);
    for (i = 0; i < k; i++) sn[i] = &rs[i]->ns;
    if (rc == 0 && chrono__pool_samples(s, rs, k, conf, out) < 0) {
        (void)chrono_stats_pool_summaries(sn, k, conf, &out->ns);
        out->sample_ns = NULL; out->nsample_ns = 0;
    }
    /* the pooled interval's level, not a process's */
    out->warnings &= ~(unsigned)CHRONO_WARN_LOW_LEVEL;
    if (chrono_stats_level_short(out->ns.ci_level, conf)) out->warnings |= CHRONO_WARN_LOW_LEVEL;
    f = rs[pick]->ns.median > 0 ? rs[pick]->ticks.median / rs[pick]->ns.median : NAN;
    chrono_stats_scale(&out->ns, f, &out->ticks);
    if (!out->has_cycles) chrono__stats_nan(&out->cycles, out->ns.n);
    else if (k > 1 && rc == 0) rc = chrono__pool_cycles(rs, k, conf, out);
    chrono__pool_spread(rs, k, work, out);
    CHRONO_FREE(sn);
    return rc;
}

/* Each process's result named `name` (the last of its session's), into rs; how many. */
CHRONO__PRIVATE size_t chrono__gather(const chrono_processes *ps, const char *name,
                                      const chrono_result **rs)
{
    size_t k = 0, i;
    int c;
    for (c = 0; c < ps->n; c++)
        for (i = ps->procs[c].nresults; i-- > 0;)
            if (!strcmp(ps->procs[c].results[i].name, name)) {
                rs[k++] = &ps->procs[c].results[i];
                break;
            }
    return k;
}

CHRONO_API int chrono_processes_pool(const chrono_processes *ps, chrono_session *s,
                                     const char *name, chrono_result *out)
{
    const chrono_result **rs;
    size_t k;
    int rc;
    if (!ps || !s || !name || !out || (ps->n && !ps->procs)) return CHRONO_EINVAL;
    if (!ps->n) return CHRONO_ENOSAMPLES;
    if (!(rs = (const chrono_result **)CHRONO_MALLOC((size_t)ps->n * sizeof *rs)))
        return CHRONO_ENOMEM;
    k = chrono__gather(ps, name, rs);
    rc = k ? chrono__pool_results(s, rs, k, s->cfg.confidence, out) : CHRONO_ENOSAMPLES;
    CHRONO_FREE(rs);
    return rc;
}

/* Each process's comparison a vs b (the last of its session's) into cs; how many. */
CHRONO__PRIVATE size_t chrono__gather_comparisons(const chrono_processes *ps, const char *a,
                                                  const char *b, const chrono_comparison **cs)
{
    size_t k = 0, i;
    int c;
    for (c = 0; c < ps->n; c++)
        for (i = ps->procs[c].ncomparisons; i-- > 0;) {
            const chrono_comparison *x = &ps->procs[c].comparisons[i];
            if (!strcmp(x->a.name, a) && !strcmp(x->b.name, b)) { cs[k++] = x; break; }
        }
    return k;
}

/* The ratios of k comparisons as one: the processes' ratios the units (one
   process: its own ratio and interval); lo, hi, rat: k doubles each. */
CHRONO__PRIVATE void chrono__pool_ratios(const chrono_comparison *const *cs, size_t k, double conf,
                                         double *rat, double *lo, double *hi,
                                         chrono_comparison *cmp)
{
    chrono_stats st;
    size_t i;
    for (i = 0; i < k; i++) {
        rat[i] = cs[i]->ratio;
        lo[i] = cs[i]->ci_low;
        hi[i] = cs[i]->ci_high;
    }
    cmp->rounds = 0; cmp->warnings = 0;
    cmp->process_min_ratio = cmp->process_max_ratio = rat[0];
    for (i = 0; i < k; i++) {
        cmp->rounds += cs[i]->rounds; cmp->warnings |= cs[i]->warnings;
        if (rat[i] < cmp->process_min_ratio) cmp->process_min_ratio = rat[i];
        if (rat[i] > cmp->process_max_ratio) cmp->process_max_ratio = rat[i];
    }
    if (k < 2) return;
    if (chrono_stats_pool_median(rat, lo, hi, k, conf, NULL, &st) == 0) {
        cmp->ratio = st.median;
        cmp->ci_low = st.ci_low;
        cmp->ci_high = st.ci_high;
        cmp->ci_level = st.ci_level;
    }
    /* the cycles' ratio: the processes' median too */
    for (i = 0; i < k; i++) rat[i] = cs[i]->cycles_ratio;
    cmp->cycles_ratio = chrono__all_finite(rat, k) ? chrono_stats_median(rat, k) : NAN;
    /* the pooled interval's level, not a process's */
    cmp->warnings &= ~(unsigned)CHRONO_WARN_LOW_LEVEL;
    if (chrono_stats_level_short(cmp->ci_level, conf)) cmp->warnings |= CHRONO_WARN_LOW_LEVEL;
    cmp->warnings |= (cmp->a.warnings | cmp->b.warnings) & CHRONO_WARN_LOW_LEVEL;
}

CHRONO_API int chrono_processes_pool_comparison(const chrono_processes *ps, chrono_session *s,
                                                const char *name_a, const char *name_b,
                                                chrono_comparison *out)
{
    size_t n, k, i;
    const chrono_comparison **cs;
    const chrono_result **side;
    double *rat;
    int rc = CHRONO_ENOSAMPLES;
    if (!ps || !s || !name_a || !name_b || !out || (ps->n && !ps->procs)) return CHRONO_EINVAL;
    n = (size_t)ps->n;
    cs = (const chrono_comparison **)CHRONO_MALLOC(
        n * (sizeof *cs + 2 * sizeof *side + 3 * sizeof *rat) + 1);
    if (!cs) return CHRONO_ENOMEM;
    side = (const chrono_result **)(void *)(cs + n);
    rat = (double *)(void *)(side + 2 * n);
    if ((k = chrono__gather_comparisons(ps, name_a, name_b, cs)) > 0) {
        *out = *cs[0];
        out->pair_ratios = NULL; out->npair_ratios = 0;
        for (i = 0; i < k; i++) { side[i] = &cs[i]->a; side[n + i] = &cs[i]->b; }
        rc = chrono__pool_results(s, side, k, s->cfg.confidence, &out->a);
        if (rc == 0) rc = chrono__pool_results(s, side + n, k, s->cfg.confidence, &out->b);
        if (rc == 0) chrono__pool_ratios(cs, k, s->cfg.confidence, rat, rat + n, rat + 2 * n, out);
    }
    CHRONO_FREE(cs);
    return rc;
}

CHRONO_API int chrono_processes_pool_sweep(const chrono_processes *ps, const char *name,
                                           chrono_sweep_result *out)
{
    double *pu, *fx;
    size_t nsw = 0, i;
    int c;
    if (!ps || !name || !out || (ps->n && !ps->procs)) return CHRONO_EINVAL;
    if (!(pu = (double *)CHRONO_MALLOC(2 * (size_t)ps->n * sizeof *pu + 1))) return CHRONO_ENOMEM;
    fx = pu + ps->n;
    for (c = 0; c < ps->n; c++)
        for (i = ps->procs[c].nsweeps; i-- > 0;) {
            const chrono_sweep_result *sw = &ps->procs[c].sweeps[i];
            if (strcmp(sw->name, name) != 0) continue;
            if (!nsw) *out = *sw;
            pu[nsw] = sw->per_unit_ns; fx[nsw] = sw->fixed_ns;
            nsw++;
            break;
        }
    if (nsw) {
        out->per_unit_ns = chrono_stats_median(pu, nsw);
        out->fixed_ns = chrono_stats_median(fx, nsw);
    }
    CHRONO_FREE(pu);
    return nsw ? 0 : CHRONO_ENOSAMPLES;
}

/* ---- a program table's entries, pooled -------------------------------------------- */

/* A pooled result kept in s with the entry's throughput, then to the hooks. */
CHRONO__PRIVATE int chrono__keep_pooled(chrono_session *s, const chrono_entry *e,
                                        const chrono_result *pooled, const chrono_entry_hooks *h)
{
    int rc = chrono__keep_result(s, pooled);
    if (rc == 0) {
        chrono_entry_throughput(&s->results[s->nresults - 1], e);
        if (h && h->result) rc = h->result(h->ctx, &s->results[s->nresults - 1]);
    }
    return rc;
}

/* A sweep pooled: each point as a run, then the sweep's own figures. */
CHRONO__PRIVATE int chrono__pool_sweep_entry(const chrono_processes *ps, chrono_session *s,
                                             const chrono_entry *e, const chrono_entry_hooks *h)
{
    chrono_sweep_result sw;
    char name[CHRONO_NAME_MAX + 32];
    chrono_result pooled;
    size_t i, first = s->nresults;
    int rc = chrono_processes_pool_sweep(ps, e->name, &sw);
    for (i = 0; rc == 0 && i < e->nparams; i++) {
        (void)chrono__bprintf(name, sizeof name, "%s/%llu", e->name,
                              (unsigned long long)e->params[i]);
        rc = chrono_processes_pool(ps, s, name, &pooled);
        if (rc == 0) rc = chrono__keep_pooled(s, e, &pooled, h);
    }
    sw.first_result = first;
    if (rc == 0) rc = chrono__grow((void **)&s->sweeps, &s->cap_sweeps, s->nsweeps + 1, sizeof sw);
    if (rc == 0) s->sweeps[s->nsweeps++] = sw;
    return rc;
}

/* A product's points the hooks take, each pooled as a run. */
CHRONO__PRIVATE int chrono__pool_product(const chrono_processes *ps, chrono_session *s,
                                         const chrono_entry *e, const chrono_entry_hooks *h)
{
    size_t j, n = chrono_entry_points(e);
    char name[CHRONO_NAME_MAX];
    chrono_result pooled;
    int rc = 0;
    for (j = 0; rc == 0 && j < n; j++) {
        (void)chrono_entry_point_name(name, sizeof name, e, j, 0);
        if (h && h->want && !h->want(h->ctx, name)) continue;
        if ((rc = chrono_processes_pool(ps, s, name, &pooled)) < 0) return rc;
        rc = chrono__keep_pooled(s, e, &pooled, h);
    }
    return rc;
}

CHRONO_API int chrono_processes_pool_entry(const chrono_processes *ps, chrono_session *s,
                                           const chrono_entry *e, const chrono_entry_hooks *hooks)
{
    chrono_result pooled;
    chrono_comparison cmp;
    int rc;
    if (!ps || !s || !chrono_entry_ok(e)) return CHRONO_EINVAL;
    switch (e->kind) {
    case CHRONO_ENTRY_PRODUCT:   /* each selected point pooled as a run; the fits are not pooled */
        return chrono__pool_product(ps, s, e, hooks);
    case CHRONO_ENTRY_RUN:
        if ((rc = chrono_processes_pool(ps, s, e->name, &pooled)) < 0) return rc;
        return chrono__keep_pooled(s, e, &pooled, hooks);
    case CHRONO_ENTRY_SWEEP:
        return chrono__pool_sweep_entry(ps, s, e, hooks);
    case CHRONO_ENTRY_COMPARE:
        if ((rc = chrono_processes_pool_comparison(ps, s, e->name, e->name_b, &cmp)) < 0) return rc;
        chrono_entry_throughput(&cmp.a, e);
        chrono_entry_throughput(&cmp.b, e);
        rc = chrono__grow((void **)&s->comparisons, &s->cap_comparisons, s->ncomparisons + 1,
                          sizeof cmp);
        if (rc == 0) {
            s->comparisons[s->ncomparisons++] = cmp;
            if (hooks && hooks->comparison)
                rc = hooks->comparison(hooks->ctx, &s->comparisons[s->ncomparisons - 1]);
        }
        return rc;
    }
    return CHRONO_EINVAL;
}

CHRONO_API int chrono_processes_table(const chrono_processes *ps, uint64_t seed,
                                      chrono_table_builder *tb)
{
    static const char *const cols[5] = { "process", "pid", "results", "status", "order seed" };
    int i;
    if (!tb) return CHRONO_EINVAL;
    memset(tb, 0, sizeof *tb);
    if (!ps || (ps->n && !ps->procs)) return CHRONO_EINVAL;
    if (chrono_table_init(tb, "processes",
                          ps->failed ? "processes (some failed: their results are missing from the "
                                       "pooled figures)"
                                     : "processes",
                          cols, 5) < 0)
        return tb->error;
    for (i = 0; i < ps->n; i++) {
        const chrono_process *o = &ps->procs[i];
        uint64_t sd = chrono_processes_seed(seed, i);
        char hex[2 * sizeof sd + 1];
        chrono__hex_put(hex, &sd, sizeof sd);   /* its bytes, in hex */
        hex[2 * sizeof sd] = '\0';
        (void)chrono_table_integer(tb, i + 1);
        (void)chrono_table_integer(tb, o->pid);
        (void)chrono_table_integer(tb, (long long)(o->nresults + o->ncomparisons));
        (void)chrono_table_text(tb, o->why[0] ? o->why : "ok");
        (void)chrono_table_text(tb, hex);
    }
    return tb->error;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_PROCESSES_IMPL */

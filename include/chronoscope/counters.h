/* chronoscope/counters.h — hardware and software event counters through
   perf_event_open (Linux), where the kernel offers them.

   Usage:

       chrono_counters c;
       chrono_counter_read a, b;
       double d[CHRONO_COUNTER_COUNT];
       unsigned want = 0;
       char bad[32], why[160];
       if (chrono_counters_parse("instructions,page-faults", &want, bad, sizeof bad) < 0)
           return fprintf(stderr, "unknown counter '%s'\n", bad), 2;
       chrono_counters_open(&c, want);             // never fails a run: see c.open
       if (chrono_counters_unavailable(&c, why, sizeof why))
           printf("# no %s\n", why);                // which ones, and why
       chrono_counters_read(&c, &a);
       work();
       chrono_counters_read(&c, &b);
       if (chrono_counters_delta(&c, &a, &b, d) == 0 && (c.open & CHRONO_COUNTER_BIT(CHRONO_COUNTER_PAGE_FAULTS)))
           printf("%.0f page faults\n", d[CHRONO_COUNTER_PAGE_FAULTS]);
       chrono_counters_close(&c);

   Functions:
       chrono_counter_name(id), chrono_counter_label(id), chrono_counter_find(name, len)
       chrono_counters_parse(list, &mask, bad, n)   "a,b,c" to a mask; names the bad one
       chrono_counters_open(c, mask)        open (or add to) one group; what fails is recorded
       chrono_counters_read(c, &r)          one read of the whole group (one system call)
       chrono_counters_delta(c, &a, &b, d)  b - a less the read's own cost, per counter
       chrono_counters_why(c, id, buf, n)   why a counter asked for is not open
       chrono_counters_unavailable(c, buf, n)   one line: the ones not open, grouped by reason
       chrono_counters_close(c)

   The counters (CHRONO__COUNTERS, one list): instructions, cycles, branches,
   branch-misses, cache-references, cache-misses (the PMU's, user space only:
   exclude_kernel and exclude_hv), task-clock (ns the thread ran),
   context-switches, cpu-migrations, page-faults (the kernel's software
   events).  All open as one group (PERF_FORMAT_GROUP) on the calling thread,
   any CPU, so one read() gives them all at one moment; the group's enabled and
   running times come with it, so a read whose group was multiplexed off the
   PMU is seen (chrono_counters_delta returns CHRONO_EBUSY) and not taken as a
   count.

   Where one cannot be opened (no PMU, as in many VMs: ENOENT;
   perf_event_paranoid or a container's seccomp: EACCES/EPERM; no system call:
   ENOSYS; not Linux) it is recorded with its errno and left out: opening never
   fails a run, and a counter not open has no figure (never a zero).  Mingw,
   macOS and the BSDs compile this module with every counter unavailable.

   Cost: a read is one system call (1.2 us on a PTI guest); the counts a read
   itself adds (its task-clock, the instructions of its user-space part) are
   measured at open as the median of back-to-back read pairs (.read_cost) and
   subtracted by chrono_counters_delta, as the clock's overhead is.

   Interface for the modules above
     CHRONO__COUNTERS(X), CHRONO__COUNTERS_P(X, P)   the counters, one list (report.h's field
                                                      list, each counter a field, from it) */
#ifndef CHRONOSCOPE_COUNTERS_H
#define CHRONOSCOPE_COUNTERS_H

#include "base.h"
#include "stats.h"

/* One list: id, name (perf's), short label (report columns), perf type
   (0 hardware, 1 software), perf config, counted by the kernel (1: a
   software event the kernel raises in its own context, see
   chrono__counter_attr).  CHRONO__COUNTERS_P(X, P) hands each row a value P
   of its caller's first (report.h's field list passes its own X through). */
#define CHRONO__COUNTERS_P(X, P) \
    X(P, INSTRUCTIONS,     "instructions",     "instr",     0, 1, 0) \
    X(P, CYCLES,           "cycles",           "cycles",    0, 0, 0) \
    X(P, BRANCHES,         "branches",         "branches",  0, 4, 0) \
    X(P, BRANCH_MISSES,    "branch-misses",    "br-miss",   0, 5, 0) \
    X(P, CACHE_REFERENCES, "cache-references", "cache-ref", 0, 2, 0) \
    X(P, CACHE_MISSES,     "cache-misses",     "cache-miss", 0, 3, 0) \
    X(P, TASK_CLOCK,       "task-clock",       "task-ns",   1, 1, 0) \
    X(P, CONTEXT_SWITCHES, "context-switches", "ctx-sw",    1, 3, 1) \
    X(P, CPU_MIGRATIONS,   "cpu-migrations",   "migr",      1, 4, 1) \
    X(P, PAGE_FAULTS,      "page-faults",      "faults",    1, 2, 1)
#define CHRONO__COUNTER_ROW_OF(X, id, name, label, type, config, kernel) \
    X(id, name, label, type, config, kernel)
#define CHRONO__COUNTERS(X) CHRONO__COUNTERS_P(CHRONO__COUNTER_ROW_OF, X)

#define CHRONO__COUNTER_ENUM(id, name, label, type, config, kernel) CHRONO_COUNTER_##id,
typedef enum chrono_counter {
    CHRONO__COUNTERS(CHRONO__COUNTER_ENUM) CHRONO_COUNTER_COUNT
} chrono_counter;
#undef CHRONO__COUNTER_ENUM

#define CHRONO_COUNTER_BIT(id) (1u << (unsigned)(id))
#define CHRONO_COUNTERS_HARDWARE 0x3fu   /* instructions .. cache-misses */
#define CHRONO_COUNTERS_ALL ((1u << CHRONO_COUNTER_COUNT) - 1u)

/* One read of the group: cumulative counts by id (only the open ones are
   set) and the group's enabled and running time in ns. */
typedef struct chrono_counter_read {
    uint64_t value[CHRONO_COUNTER_COUNT];
    uint64_t enabled_ns, running_ns;
} chrono_counter_read;

typedef struct chrono_counters {
    unsigned asked;                          /* every counter ever asked for (a mask) */
    unsigned open;                           /* those counting now */
    int errnum[CHRONO_COUNTER_COUNT];        /* why one asked for is not open: errno, or
                                                CHRONO__COUNTER_NOT_LINUX; 0 otherwise */
    double read_cost[CHRONO_COUNTER_COUNT];  /* median count of an empty read pair, subtracted */
    /* private */
    int chrono__fd[CHRONO_COUNTER_COUNT];    /* -1 when not open */
    int chrono__slot[CHRONO_COUNTER_COUNT];  /* its place in the group's read, -1 */
    int chrono__leader;                      /* the group leader's fd, -1 */
    int chrono__nopen;                       /* members of the group */
} chrono_counters;

#define CHRONO__COUNTER_NOT_LINUX (-1)       /* errnum: perf_event_open is Linux only */

CHRONO__EXTERN_C_BEGIN
/* perf's name of a counter ("branch-misses"), its short column label
   ("br-miss"); NULL out of range. */
CHRONO_API const char *chrono_counter_name(int id);
CHRONO_API const char *chrono_counter_label(int id);
/* The id of name[0..len) (len (size_t)-1: up to its terminator), or -1. */
CHRONO_API int chrono_counter_find(const char *name, size_t len);
/* A comma-separated list of names to a mask (ORed into *mask).  An empty list
   is valid.  CHRONO_EINVAL for an unknown or empty name, copied to bad[0..n)
   when bad is not NULL; *mask is then left as it was. */
CHRONO_API int chrono_counters_parse(const char *list, unsigned *mask, char *bad, size_t n);
/* Zero *c and open the counters of mask; see chrono_counters_add. */
CHRONO_API int chrono_counters_open(chrono_counters *c, unsigned mask);
/* Open those of mask not asked for before, into the same group, and measure
   the read's cost again.  Returns 0 when every counter of mask is open,
   CHRONO_ENOTSUP when some are not (c->errnum says why; the others count),
   CHRONO_EINVAL for NULL or bits beyond the list.  Outside any timed region:
   it reads the group ~40 times. */
CHRONO_API int chrono_counters_add(chrono_counters *c, unsigned mask);
/* One read of the whole group: 0, CHRONO_EIO when the read failed, or
   CHRONO_ENOTSUP when nothing is open (r is zeroed then). */
CHRONO_API int chrono_counters_read(const chrono_counters *c, chrono_counter_read *r);
/* Per open counter, d[id] = b - a - read_cost (at least 0); NAN for the
   others.  0, or CHRONO_EBUSY when the group was not counting all the time
   between a and b (multiplexed off the PMU): then every d[id] is NAN. */
CHRONO_API int chrono_counters_delta(const chrono_counters *c, const chrono_counter_read *a,
                                     const chrono_counter_read *b, double d[CHRONO_COUNTER_COUNT]);
/* Why counter id, asked for, is not open ("no PMU offers it here (ENOENT)",
   "not permitted: perf_event_paranoid is 3 ..."); "" when it is open or was
   never asked for.  Returns buf. */
CHRONO_API const char *chrono_counters_why(const chrono_counters *c, int id, char *buf, size_t n);
/* One line naming the counters asked for and not open, grouped by reason:
   "instructions, cycles: no PMU offers them here (ENOENT)".  Returns how
   many are missing (0: buf is ""). */
CHRONO_API int chrono_counters_unavailable(const chrono_counters *c, char *buf, size_t n);
CHRONO_API void chrono_counters_close(chrono_counters *c);
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_COUNTERS_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_COUNTERS_IMPL)
#define CHRONOSCOPE_COUNTERS_IMPL

#include <string.h>
#include <math.h>
#if CHRONO__OS_LINUX
#  include <errno.h>
#  include <unistd.h>
#  include <sys/syscall.h>
#  include <linux/perf_event.h>
#endif

CHRONO__EXTERN_C_BEGIN

#if CHRONO__OS_LINUX && defined(__GLIBC__) && !defined(__USE_MISC)
long syscall(long number, ...);   /* glibc has it whatever the feature macros say (cpu.h too) */
#endif

#define CHRONO__COUNTER_ROW(id, name, label, type, config, kernel) \
    { name, label, type, config, kernel },
static const struct chrono__counter_def {
    const char *name, *label;
    int type, config, kernel;
} chrono__counter_defs[CHRONO_COUNTER_COUNT] = { CHRONO__COUNTERS(CHRONO__COUNTER_ROW) };
#undef CHRONO__COUNTER_ROW

CHRONO_API const char *chrono_counter_name(int id)
{
    return id >= 0 && id < CHRONO_COUNTER_COUNT ? chrono__counter_defs[id].name : NULL;
}

CHRONO_API const char *chrono_counter_label(int id)
{
    return id >= 0 && id < CHRONO_COUNTER_COUNT ? chrono__counter_defs[id].label : NULL;
}

CHRONO_API int chrono_counter_find(const char *name, size_t len)
{
    int i;
    if (!name) return -1;
    if (len == (size_t)-1) len = strlen(name);
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++)
        if (strlen(chrono__counter_defs[i].name) == len &&
            memcmp(chrono__counter_defs[i].name, name, len) == 0)
            return i;
    return -1;
}

CHRONO_API int chrono_counters_parse(const char *list, unsigned *mask, char *bad, size_t n)
{
    unsigned m = 0;
    const char *p;
    if (!list || !mask) return CHRONO_EINVAL;
    if (!*list) return 0;
    for (p = list;; ) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int id = chrono_counter_find(p, len);
        if (id < 0) {
            if (bad && n) {
                size_t k = len < n - 1 ? len : n - 1;
                memcpy(bad, p, k);
                bad[k] = '\0';
            }
            return CHRONO_EINVAL;
        }
        m |= CHRONO_COUNTER_BIT(id);
        if (!e) break;
        p = e + 1;
    }
    *mask |= m;
    return 0;
}

/* ---- Linux: perf_event_open ------------------------------------------------ */
#if CHRONO__OS_LINUX
/* The attributes of counter id.  Hardware events count user space only
   (exclude_kernel, exclude_hv): the body's own instructions and cycles, not
   the kernel's work for it.  Software events the kernel raises in its own
   context are different: a context switch or a CPU migration happens in the
   scheduler, with kernel registers, so exclude_kernel would drop every one and
   read 0 (measured here: 0 of 100 sleeps); a page fault the kernel takes on
   the user's behalf (a read() into a fresh page) is counted only with kernel
   mode included.  Those have exclude_kernel = 0 (which perf_event_paranoid >= 2
   refuses to an unprivileged user: recorded as EACCES, never opened as a
   counter that reads 0).  task-clock is the thread's run time whatever the
   mode: it keeps exclude_kernel = 1 and opens under any paranoia. */
CHRONO__PRIVATE void chrono__counter_attr(int id, struct perf_event_attr *a)
{
    memset(a, 0, sizeof *a);
    a->size = sizeof *a;
    a->type =
        (uint32_t)(chrono__counter_defs[id].type == 0 ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE);
    a->config = (uint64_t)chrono__counter_defs[id].config;
    a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
                     PERF_FORMAT_TOTAL_TIME_RUNNING;
    a->exclude_kernel = chrono__counter_defs[id].kernel ? 0u : 1u;
    a->exclude_hv = 1;
}

CHRONO__PRIVATE int chrono__counter_open_one(chrono_counters *c, int id)
{
    struct perf_event_attr a;
    long fd;
    chrono__counter_attr(id, &a);
    fd = syscall(SYS_perf_event_open, &a, 0 /* this thread */, -1 /* any CPU */,
                 c->chrono__leader, 0ul);
    if (fd < 0) {
        c->errnum[id] = errno ? errno : EINVAL;
        return -1;
    }
    c->chrono__fd[id] = (int)fd;
    c->chrono__slot[id] = c->chrono__nopen++;
    if (c->chrono__leader < 0) c->chrono__leader = (int)fd;
    c->open |= CHRONO_COUNTER_BIT(id);
    return 0;
}

CHRONO__PRIVATE int chrono__counters_read_raw(const chrono_counters *c, chrono_counter_read *r)
{
    uint64_t buf[3 + CHRONO_COUNTER_COUNT];
    ssize_t want = (ssize_t)((3 + (size_t)c->chrono__nopen) * sizeof(uint64_t));
    int i;
    if (read(c->chrono__leader, buf, (size_t)want) != want || buf[0] != (uint64_t)c->chrono__nopen)
        return CHRONO_EIO;
    r->enabled_ns = buf[1];
    r->running_ns = buf[2];
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++)
        r->value[i] = c->chrono__slot[i] >= 0 ? buf[3 + c->chrono__slot[i]] : 0;
    return 0;
}

CHRONO__PRIVATE void chrono__counters_close_fds(chrono_counters *c)
{
    int i;
    if (c->chrono__nopen == 0) return;   /* never opened (a zeroed struct holds fd 0) */
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++)   /* members first, the leader last */
        if (c->chrono__fd[i] >= 0 && c->chrono__fd[i] != c->chrono__leader) close(c->chrono__fd[i]);
    if (c->chrono__leader >= 0) close(c->chrono__leader);
}

CHRONO__PRIVATE int chrono__perf_paranoid(void)
{
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    int v = -100;
    if (f) {
        if (fscanf(f, "%d", &v) != 1) v = -100;
        fclose(f);
    }
    return v;
}
#endif

/* The counts of an empty read pair, per counter: the median of 31 pairs. */
CHRONO__PRIVATE void chrono__counters_measure_read(chrono_counters *c)
{
    enum { PAIRS = 31 };
    double d[CHRONO_COUNTER_COUNT][PAIRS];
    chrono_counter_read a, b;
    int i, k, got = 0;
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++) c->read_cost[i] = 0;
    for (k = 0; k < PAIRS; k++) {
        if (chrono_counters_read(c, &a) < 0 || chrono_counters_read(c, &b) < 0) return;
        for (i = 0; i < CHRONO_COUNTER_COUNT; i++) d[i][got] = (double)(b.value[i] - a.value[i]);
        got++;
    }
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++)
        if (c->open & CHRONO_COUNTER_BIT(i)) {
            chrono_stats_sort(d[i], (size_t)got);
            c->read_cost[i] = chrono_stats_quantile(d[i], (size_t)got, 0.5);
        }
}

CHRONO_API int chrono_counters_open(chrono_counters *c, unsigned mask)
{
    int i;
    if (!c) return CHRONO_EINVAL;
    memset(c, 0, sizeof *c);
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++) c->chrono__fd[i] = c->chrono__slot[i] = -1;
    c->chrono__leader = -1;
    return chrono_counters_add(c, mask);
}

CHRONO_API int chrono_counters_add(chrono_counters *c, unsigned mask)
{
    unsigned fresh;
    int i;
    if (!c || (mask & ~CHRONO_COUNTERS_ALL)) return CHRONO_EINVAL;
    fresh = mask & ~c->asked;
    c->asked |= fresh;
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++) {
        if (!(fresh & CHRONO_COUNTER_BIT(i))) continue;
#if CHRONO__OS_LINUX
        (void)chrono__counter_open_one(c, i);
#else
        c->errnum[i] = CHRONO__COUNTER_NOT_LINUX;
#endif
    }
    if (fresh & c->open) chrono__counters_measure_read(c);
    return (mask & ~c->open) ? CHRONO_ENOTSUP : 0;
}

CHRONO_API int chrono_counters_read(const chrono_counters *c, chrono_counter_read *r)
{
    if (!c || !r) return CHRONO_EINVAL;
    memset(r, 0, sizeof *r);
    if (!c->open) return CHRONO_ENOTSUP;
#if CHRONO__OS_LINUX
    return chrono__counters_read_raw(c, r);
#else
    return CHRONO_ENOTSUP;
#endif
}

CHRONO_API int chrono_counters_delta(const chrono_counters *c, const chrono_counter_read *a,
                                     const chrono_counter_read *b, double d[CHRONO_COUNTER_COUNT])
{
    int i, busy;
    if (!c || !a || !b || !d) return CHRONO_EINVAL;
    /* The group counts all the time or not at all: running behind enabled
       means it was multiplexed off the PMU for part of the interval. */
    busy = b->running_ns - a->running_ns != b->enabled_ns - a->enabled_ns;
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++) {
        double v = (double)(b->value[i] - a->value[i]) - c->read_cost[i];
        d[i] = !(c->open & CHRONO_COUNTER_BIT(i)) || busy ? NAN : v > 0 ? v : 0.0;
    }
    return busy ? CHRONO_EBUSY : 0;
}

CHRONO__PRIVATE const char *chrono__counters_reason(const chrono_counters *c, int id, char *buf,
                                                    size_t n)
{
    int e = c->errnum[id];
    (void)c;
    buf[0] = '\0';
    if (e == CHRONO__COUNTER_NOT_LINUX) {
        chrono__str_copy(buf, n, "perf_event_open is Linux only");
        return buf;
    }
#if CHRONO__OS_LINUX
    if (e == ENOENT || e == EOPNOTSUPP)
        (void)chrono__bprintf(buf, n, "no PMU offers %s here, as in many VMs (%s)",
                              chrono__counter_defs[id].type == 0 ? "hardware events" : "this event",
                              e == ENOENT ? "ENOENT" : "EOPNOTSUPP");
    else if (e == EACCES || e == EPERM)
        (void)chrono__bprintf(
            buf, n, "not permitted (%s): perf_event_paranoid is %d%s",
            e == EACCES ? "EACCES" : "EPERM", chrono__perf_paranoid(),
            chrono__counter_defs[id].kernel ? ", and this event counts in kernel mode" : "");
    else if (e == ENOSYS)
        chrono__str_copy(
            buf, n,
            "no perf_event_open system call here (ENOSYS: an old kernel or a seccomp filter)");
    else if (e == EINVAL)
        chrono__str_copy(buf, n, "the kernel refused it (EINVAL: the group may not fit the PMU)");
    else if (e)
        (void)chrono__bprintf(buf, n, "perf_event_open failed: %s (errno %d)", strerror(e), e);
#endif
    return buf;
}

CHRONO_API const char *chrono_counters_why(const chrono_counters *c, int id, char *buf, size_t n)
{
    if (!buf || !n) return buf;
    buf[0] = '\0';
    if (!c || id < 0 || id >= CHRONO_COUNTER_COUNT) return buf;
    if (!(c->asked & CHRONO_COUNTER_BIT(id)) || (c->open & CHRONO_COUNTER_BIT(id))) return buf;
    return chrono__counters_reason(c, id, buf, n);
}

CHRONO_API int chrono_counters_unavailable(const chrono_counters *c, char *buf, size_t n)
{
    unsigned left, group;
    int i, j, missing = 0;
    char why[160], other[160];
    if (!buf || !n) return 0;
    buf[0] = '\0';
    if (!c) return 0;
    left = c->asked & ~c->open;
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++) {
        if (!(left & CHRONO_COUNTER_BIT(i))) continue;
        (void)chrono_counters_why(c, i, why, sizeof why);
        group = 0;
        for (j = i; j < CHRONO_COUNTER_COUNT; j++)   /* the same reason: one clause */
            if ((left & CHRONO_COUNTER_BIT(j)) &&
                strcmp(chrono_counters_why(c, j, other, sizeof other), why) == 0)
                group |= CHRONO_COUNTER_BIT(j);
        if (buf[0]) chrono__str_append(buf, n, "; ");
        for (j = i; j < CHRONO_COUNTER_COUNT; j++) {
            if (!(group & CHRONO_COUNTER_BIT(j))) continue;
            if (j != i) chrono__str_append(buf, n, ", ");
            chrono__str_append(buf, n, chrono__counter_defs[j].name);
            missing++;
        }
        chrono__str_append(buf, n, ": ");
        chrono__str_append(buf, n, why);
        left &= ~group;
    }
    return missing;
}

CHRONO_API void chrono_counters_close(chrono_counters *c)
{
    int i;
    if (!c) return;
#if CHRONO__OS_LINUX
    chrono__counters_close_fds(c);
#endif
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++) c->chrono__fd[i] = c->chrono__slot[i] = -1;
    c->chrono__leader = -1;
    c->chrono__nopen = 0;
    c->open = 0;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_COUNTERS_IMPL */

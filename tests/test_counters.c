/* Counter tests: names and lists, the software events counted on this
   machine (a sleep is a context switch, a fresh page a fault), the read's own
   cost subtracted, the refusals recorded with their reason, and a group read
   multiplexed off the PMU never taken as a count.  The module stands on
   base.h alone (its own private copy, CHRONO_STATIC). */
#ifndef CHRONO_STATIC
#  define CHRONO_STATIC
#endif
#include <chronoscope/counters.h>
#include "tap.h"

#define ASAN_SHADOW_PAGES (TAP_ASAN ? 8 : 0)   /* 64 pages touched: 8 of shadow */
#if defined(__linux__)
#  include <errno.h>
#  include <fcntl.h>
#  include <sys/mman.h>
#  include <time.h>
#  include <unistd.h>
#endif

#define BIT(id) CHRONO_COUNTER_BIT(CHRONO_COUNTER_##id)

static void test_names(void)
{
    unsigned m = 0;
    char bad[16];
    int i, all = 1;
    for (i = 0; i < CHRONO_COUNTER_COUNT; i++)
        all &= chrono_counter_find(chrono_counter_name(i), (size_t)-1) == i && chrono_counter_label(i) != NULL;
    tap_ok(all, "every counter's name finds it again, and it has a label");
    tap_ok(chrono_counter_find("page-faults", (size_t)-1) == CHRONO_COUNTER_PAGE_FAULTS
           && chrono_counter_find("page-faults,x", 11) == CHRONO_COUNTER_PAGE_FAULTS
           && chrono_counter_find("page", (size_t)-1) == -1 && chrono_counter_find(NULL, 0) == -1,
           "chrono_counter_find: whole names only, len bounds the name");
    tap_ok(chrono_counter_name(-1) == NULL && chrono_counter_name(CHRONO_COUNTER_COUNT) == NULL,
           "no name out of range");
    i = chrono_counters_parse("context-switches,page-faults,task-clock", &m, bad, sizeof bad);
    tap_ok(i == 0 && m == (BIT(CONTEXT_SWITCHES) | BIT(PAGE_FAULTS) | BIT(TASK_CLOCK)),
           "a list parses to its mask (0x%x)", m);
    tap_ok(chrono_counters_parse("", &m, bad, sizeof bad) == 0
           && m == (BIT(CONTEXT_SWITCHES) | BIT(PAGE_FAULTS) | BIT(TASK_CLOCK)), "an empty list adds nothing");
    m = 0;
    tap_ok(chrono_counters_parse("cycles,instrs,page-faults", &m, bad, sizeof bad) == CHRONO_EINVAL
           && strcmp(bad, "instrs") == 0 && m == 0,
           "an unknown name: CHRONO_EINVAL, named ('%s'), the mask untouched", bad);
    tap_ok(chrono_counters_parse("cycles,", &m, bad, sizeof bad) == CHRONO_EINVAL && bad[0] == '\0',
           "an empty name after a comma is refused");
    tap_ok(chrono_counters_parse("a-counter-name-longer-than-bad", &m, bad, 8) == CHRONO_EINVAL
           && strcmp(bad, "a-count") == 0, "the bad name is cut to its buffer");
}

/* A fake refusal, formatted: reasons group the counters that share one. */
static void test_reasons(void)
{
    chrono_counters c;
    char buf[400], one[160];
    int n;
    memset(&c, 0, sizeof c);
    c.asked = BIT(INSTRUCTIONS) | BIT(CYCLES) | BIT(TASK_CLOCK) | BIT(CONTEXT_SWITCHES);
    c.open = BIT(TASK_CLOCK);
#if defined(__linux__)
    c.errnum[CHRONO_COUNTER_INSTRUCTIONS] = c.errnum[CHRONO_COUNTER_CYCLES] = ENOENT;
    c.errnum[CHRONO_COUNTER_CONTEXT_SWITCHES] = EACCES;
    n = chrono_counters_unavailable(&c, buf, sizeof buf);
    tap_ok(n == 3 && strncmp(buf, "instructions, cycles: no PMU offers hardware events here", 56) == 0
           && strstr(buf, "(ENOENT); context-switches: not permitted (EACCES): perf_event_paranoid is ") != NULL
           && strstr(buf, "counts in kernel mode") != NULL && strstr(buf, "task-clock") == NULL,
           "unavailable: 3, grouped by reason: %s", buf);
#else
    c.errnum[CHRONO_COUNTER_INSTRUCTIONS] = c.errnum[CHRONO_COUNTER_CYCLES] = CHRONO__COUNTER_NOT_LINUX;
    c.errnum[CHRONO_COUNTER_CONTEXT_SWITCHES] = CHRONO__COUNTER_NOT_LINUX;
    n = chrono_counters_unavailable(&c, buf, sizeof buf);
    tap_ok(n == 3 && strcmp(buf, "instructions, cycles, context-switches: perf_event_open is Linux only") == 0,
           "unavailable: 3, one reason: %s", buf);
#endif
    tap_ok(chrono_counters_why(&c, CHRONO_COUNTER_TASK_CLOCK, one, sizeof one)[0] == '\0'
           && chrono_counters_why(&c, CHRONO_COUNTER_PAGE_FAULTS, one, sizeof one)[0] == '\0',
           "no reason for an open counter or one never asked for");
    c.asked = c.open;
    tap_ok(chrono_counters_unavailable(&c, buf, sizeof buf) == 0 && buf[0] == '\0', "nothing missing: \"\"");
}

/* Deltas: the read cost subtracted, never below 0; a multiplexed interval
   gives no figure at all. */
static void test_delta(void)
{
    chrono_counters c;
    chrono_counter_read a, b;
    double d[CHRONO_COUNTER_COUNT];
    memset(&c, 0, sizeof c);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    c.open = BIT(INSTRUCTIONS) | BIT(TASK_CLOCK);
    c.read_cost[CHRONO_COUNTER_INSTRUCTIONS] = 40;
    c.read_cost[CHRONO_COUNTER_TASK_CLOCK] = 1500;
    a.value[CHRONO_COUNTER_INSTRUCTIONS] = 1000;  b.value[CHRONO_COUNTER_INSTRUCTIONS] = 11040;
    a.value[CHRONO_COUNTER_TASK_CLOCK] = 5000;    b.value[CHRONO_COUNTER_TASK_CLOCK] = 6000;
    a.enabled_ns = a.running_ns = 100;            b.enabled_ns = b.running_ns = 9100;
    tap_ok(chrono_counters_delta(&c, &a, &b, d) == 0 && d[CHRONO_COUNTER_INSTRUCTIONS] == 10000
           && d[CHRONO_COUNTER_TASK_CLOCK] == 0 && isnan(d[CHRONO_COUNTER_CYCLES]),
           "delta: b - a - read cost (10000), at least 0, NAN where not open");
    b.running_ns = 9000;
    tap_ok(chrono_counters_delta(&c, &a, &b, d) == CHRONO_EBUSY && isnan(d[CHRONO_COUNTER_INSTRUCTIONS])
           && isnan(d[CHRONO_COUNTER_TASK_CLOCK]),
           "a group that ran 8900 of 9000 ns enabled (multiplexed): CHRONO_EBUSY, no figure");
}

#if defined(__linux__)
static void sleep_50us(void)
{
    struct timespec ts = { 0, 50000 };
    nanosleep(&ts, NULL);
}

/* The software events on this machine: 40 sleeps are ~40 switches, 64 fresh
   pages ~64 faults (the kernel counts them, so they open with kernel mode),
   and a back-to-back read pair costs task-clock that the delta removes. */
static void test_software(void)
{
    chrono_counters c;
    chrono_counter_read a, b;
    double d[CHRONO_COUNTER_COUNT], pair[15];
    unsigned want = BIT(CONTEXT_SWITCHES) | BIT(PAGE_FAULTS) | BIT(TASK_CLOCK);
    char why[300];
    int rc = chrono_counters_open(&c, want), i, k;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    volatile char *mem;
    if (rc < 0) {
        (void)chrono_counters_unavailable(&c, why, sizeof why);
        tap_skip(why);   /* a container without perf_event_open */
        chrono_counters_close(&c);
        return;
    }
    tap_ok(c.open == want && c.asked == want, "context-switches, page-faults, task-clock open");
    tap_ok(c.read_cost[CHRONO_COUNTER_TASK_CLOCK] > 0 && c.read_cost[CHRONO_COUNTER_CONTEXT_SWITCHES] == 0
           && c.read_cost[CHRONO_COUNTER_PAGE_FAULTS] == 0,
           "a read costs task-clock (%.0f ns), no switch, no fault", c.read_cost[CHRONO_COUNTER_TASK_CLOCK]);
    for (k = 0; k < 15; k++) {
        (void)chrono_counters_read(&c, &a);
        (void)chrono_counters_read(&c, &b);
        (void)chrono_counters_delta(&c, &a, &b, d);
        pair[k] = d[CHRONO_COUNTER_TASK_CLOCK];
    }
    for (i = 1; i < 15; i++)   /* median of the 15 */
        for (k = i; k > 0 && pair[k - 1] > pair[k]; k--) { double t = pair[k]; pair[k] = pair[k - 1]; pair[k - 1] = t; }
    tap_ok(pair[7] < 0.5 * c.read_cost[CHRONO_COUNTER_TASK_CLOCK],
           "an empty pair's task-clock after the read cost is subtracted: median %.0f ns, below half of %.0f",
           pair[7], c.read_cost[CHRONO_COUNTER_TASK_CLOCK]);

    (void)chrono_counters_read(&c, &a);
    for (i = 0; i < 40; i++) sleep_50us();
    (void)chrono_counters_read(&c, &b);
    rc = chrono_counters_delta(&c, &a, &b, d);
    tap_ok(rc == 0 && d[CHRONO_COUNTER_CONTEXT_SWITCHES] >= 36 && d[CHRONO_COUNTER_CONTEXT_SWITCHES] <= 44,
           "40 sleeps of 50 us: %.0f context switches (36..44)", d[CHRONO_COUNTER_CONTEXT_SWITCHES]);

    mem = (volatile char *)mmap(NULL, 64 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == (volatile char *)MAP_FAILED) { tap_skip("mmap failed"); chrono_counters_close(&c); return; }
    (void)chrono_counters_read(&c, &a);
    for (i = 0; i < 64; i++) mem[(size_t)i * page] = 1;
    (void)chrono_counters_read(&c, &b);
    rc = chrono_counters_delta(&c, &a, &b, d);
    /* AddressSanitizer reads one shadow byte per 8: the shadow of 64 fresh pages
       is 8 fresh pages more (CI's asan leg read 72). */
    tap_ok(rc == 0 && d[CHRONO_COUNTER_PAGE_FAULTS] >= 58 && d[CHRONO_COUNTER_PAGE_FAULTS] <= 70 + ASAN_SHADOW_PAGES
           && d[CHRONO_COUNTER_TASK_CLOCK] > 0,
           "64 fresh pages touched: %.0f page faults (58..%d), task-clock %.0f ns",
           d[CHRONO_COUNTER_PAGE_FAULTS], 70 + ASAN_SHADOW_PAGES, d[CHRONO_COUNTER_TASK_CLOCK]);
    munmap((void *)mem, 64 * page);

    /* Added later into the same group: a fresh read has one more value. */
    rc = chrono_counters_add(&c, BIT(CPU_MIGRATIONS) | BIT(PAGE_FAULTS));
    tap_ok(rc == 0 && c.open == (want | BIT(CPU_MIGRATIONS)) && chrono_counters_read(&c, &a) == 0,
           "cpu-migrations added to the open group; the group reads");
    chrono_counters_close(&c);
    tap_ok(c.open == 0 && chrono_counters_read(&c, &a) == CHRONO_ENOTSUP, "closed: nothing to read");
}

/* Hardware events: counted where a PMU offers them, else refused with a
   reason; the software events of the same request open either way. */
static void test_hardware(void)
{
    chrono_counters c;
    chrono_counter_read a, b;
    double d[CHRONO_COUNTER_COUNT];
    char why[300];
    int rc = chrono_counters_open(&c, BIT(INSTRUCTIONS) | BIT(CYCLES) | BIT(TASK_CLOCK));
    int n = chrono_counters_unavailable(&c, why, sizeof why);
    if (c.open & BIT(INSTRUCTIONS)) {
        volatile unsigned long x = 0;
        unsigned long i;
        (void)chrono_counters_read(&c, &a);
        for (i = 0; i < 100000; i++) x = x + i;
        (void)chrono_counters_read(&c, &b);
        rc = chrono_counters_delta(&c, &a, &b, d);
        tap_ok(rc == 0 && d[CHRONO_COUNTER_INSTRUCTIONS] >= 300000,
               "a PMU: 100000 volatile adds are %.0f instructions (>= 300000)", d[CHRONO_COUNTER_INSTRUCTIONS]);
    } else {
        tap_ok(rc == CHRONO_ENOTSUP && c.errnum[CHRONO_COUNTER_INSTRUCTIONS] != 0 && n >= 1
               && strstr(why, "instructions") != NULL && strstr(why, ": ") != NULL,
               "no PMU here: instructions refused with its reason: %s", why);
    }
    tap_ok((c.open & BIT(TASK_CLOCK)) != 0 || c.errnum[CHRONO_COUNTER_TASK_CLOCK] != 0,
           "task-clock opens beside the hardware events, or says why not");
    chrono_counters_close(&c);
    chrono_counters_close(&c);   /* twice: harmless */
}

static void test_zeroed_close(void)
{
    chrono_counters c;
    int before = fcntl(0, F_GETFD) != -1;
    memset(&c, 0, sizeof c);
    chrono_counters_close(&c);
    tap_ok((fcntl(0, F_GETFD) != -1) == before, "closing a zeroed set leaves fd 0 alone");
}
#endif

int main(void)
{
    test_names();
    test_reasons();
    test_delta();
#if defined(__linux__)
    test_software();
    test_hardware();
    test_zeroed_close();
#else
    {
        chrono_counters c;
        char why[200];
        tap_ok(chrono_counters_open(&c, BIT(PAGE_FAULTS)) == CHRONO_ENOTSUP && c.open == 0
               && chrono_counters_unavailable(&c, why, sizeof why) == 1
               && strcmp(why, "page-faults: perf_event_open is Linux only") == 0,
               "not Linux: every counter unavailable, said once: %s", why);
        chrono_counters_close(&c);
    }
#endif
    return tap_done();
}

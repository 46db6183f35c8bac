/* clockinfo — which clock chronoscope chose and why, and what every tick source
   on this machine costs per read, side by side: a program table whose rows are
   loops of reads, and a comparison of the library's start+stop pair with a
   bare lfence;rdtsc pair.

   Usage: clockinfo [common flags]   (every format: --format=json puts the clock
          facts in a "clock" array beside the benchmarks) */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime under -std=c99 */
#include <chronoscope.h>
#include <stdio.h>
#include <string.h>
#if !defined(_WIN32) && !defined(__APPLE__)
#  include <time.h>
#endif

/* Each body reads a source `iters` times; the sum keeps the reads alive. */
#define READ_LOOP(name, expr)                                    \
    static void name(void *ctx, uint64_t iters)                  \
    {                                                            \
        const chrono_clock *c = (const chrono_clock *)ctx;       \
        uint64_t sum = 0;                                        \
        (void)c;                                                 \
        for (uint64_t i = 0; i < iters; i++) { sum += (expr); } \
        chrono_keep(sum);                                        \
    }

#if CHRONO_ARCH_X86 && (defined(__GNUC__) || defined(__clang__))
#  define HAVE_TSC 1
static uint64_t rdtsc_bare(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}
static uint64_t rdtsc_lfence_both(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}
READ_LOOP(read_rdtsc, rdtsc_bare())
READ_LOOP(read_lfence_rdtsc, chrono_tsc_read())
READ_LOOP(read_lfence_rdtsc_lfence, rdtsc_lfence_both())
READ_LOOP(read_rdtscp, chrono_tscp_read())
READ_LOOP(read_bare_pair, chrono_tsc_read() + chrono_tsc_read())
READ_LOOP(read_bare_pair_p, chrono_tsc_read() + chrono_tscp_read())
#else
#  define HAVE_TSC 0
#endif
READ_LOOP(read_pair, chrono_clock_start(c) + chrono_clock_stop(c))
#if !defined(_WIN32) && !defined(__APPLE__)
#  define HAVE_POSIX 1
static uint64_t os_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
READ_LOOP(read_monotonic, os_ns(CLOCK_MONOTONIC))
#  if defined(CLOCK_MONOTONIC_RAW)
READ_LOOP(read_monotonic_raw, os_ns(CLOCK_MONOTONIC_RAW))
#  endif
#else
#  define HAVE_POSIX 0
#endif

/* The clock's facts as a table of the program's own. */
static void clock_facts(chrono_program *p, const chrono_clock *c, chrono_table_builder *tb)
{
    static const char *const cols[] = { "fact", "value" };
    chrono_table_init(tb, "clock", "the clock chronoscope chose", cols, 2);
    chrono_table_text(tb, "source");
    chrono_table_text(tb, c->name);
    chrono_table_text(tb, "frequency");
    chrono_table_textf(tb, "%.4f MHz (%s)", c->hz / 1e6, chrono_clock_hz_method_name(c->hz_method));
    chrono_table_text(tb, "reported");
    if (c->hz_reported > 0) chrono_table_textf(tb, "%.4f MHz", c->hz_reported / 1e6);
    else chrono_table_text(tb, "n/a");
    chrono_table_text(tb, "calibration");
    chrono_table_textf(tb, "%.4f MHz, spread %.2g%%", c->hz_calibrated / 1e6, c->calib_spread * 100);
    chrono_table_text(tb, "ns per tick");
    chrono_table_textf(tb, "%.6f", c->ns_per_tick);
    chrono_table_text(tb, "overhead");
    chrono_table_textf(tb, "%llu ticks = %.1f ns (empty start-stop region, median)", (unsigned long long)c->overhead_ticks,
                       chrono_clock_ns(c, c->overhead_ticks));
    chrono_table_text(tb, "resolution");
    chrono_table_textf(tb, "%llu ticks = %.1f ns", (unsigned long long)c->resolution_ticks, chrono_clock_ns(c, c->resolution_ticks));
    chrono_table_text(tb, "flags");
    chrono_table_textf(tb, "invariant_tsc=%d rdtscp=%d in_vm=%d%s%s", c->invariant_tsc, c->has_rdtscp, c->in_vm,
                       c->vm_vendor[0] ? " vendor=" : "", c->vm_vendor);
    chrono_program_table(p, &tb->table);
}

int main(int argc, char **argv)
{
    chrono_program p;
    chrono_entry table[10];
    chrono_table_builder facts;
    size_t n = 0;
    const chrono_clock *c;
    int rc = chrono_program_begin(&p, argc, argv, NULL, 0);
    if (rc != 1) return chrono_program_end(&p);
    c = &p.session.clock;
    memset(&facts, 0, sizeof facts);
    if (!p.cli.list) clock_facts(&p, c, &facts);

#if HAVE_TSC
    table[n++] = chrono_bench("read: rdtsc", read_rdtsc, NULL);
    table[n++] = chrono_bench("read: lfence;rdtsc", read_lfence_rdtsc, NULL);
    table[n++] = chrono_bench("read: lfence;rdtsc;lfence", read_lfence_rdtsc_lfence, NULL);
    if (c->has_rdtscp) table[n++] = chrono_bench("read: rdtscp;lfence", read_rdtscp, NULL);
#endif
#if HAVE_POSIX
    table[n++] = chrono_bench("read: clock_gettime MONOTONIC", read_monotonic, NULL);
#  if defined(CLOCK_MONOTONIC_RAW)
    table[n++] = chrono_bench("read: clock_gettime MONOTONIC_RAW", read_monotonic_raw, NULL);
#  endif
#endif
#if HAVE_TSC
    /* the library's timer pair against the bare instructions: lfence;rdtsc
       twice, and (where RDTSCP exists) the very pair it uses, inlined by hand */
    if (c->source == CHRONO_CLOCK_TSC) {
        table[n++] = chrono_versus("start+stop pair", read_pair, (void *)c, "bare lfence;rdtsc pair", read_bare_pair, NULL);
        if (c->has_rdtscp)
            table[n++] = chrono_versus("start+stop", read_pair, (void *)c, "bare lfence;rdtsc + rdtscp;lfence", read_bare_pair_p, NULL);
    } else
#endif
        table[n++] = chrono_bench("start+stop pair", read_pair, (void *)c);
    chrono_program_run(&p, table, n);
    rc = chrono_program_end(&p);
    chrono_table_free(&facts);
    return rc;
}

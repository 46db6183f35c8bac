/* clockinfo — which clock chronoscope chose and why, and what every tick source
   on this machine costs per read, side by side.

   Usage: clockinfo [--reads=N] [common flags]   (N reads per timed batch, default 20000;
          --quick: 2000) */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime under -std=c99 */
#include <chronoscope.h>
#include <stdlib.h>
#if !defined(_WIN32) && !defined(__APPLE__)
#  include <time.h>
#endif

typedef uint64_t (*read_fn)(void);

#if defined(CHRONO__X86) && (defined(__GNUC__) || defined(__clang__))
static uint64_t read_rdtsc(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}
static uint64_t read_lfence_rdtsc(void) { return chrono__tsc_fenced(); }
static uint64_t read_lfence_rdtsc_lfence(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}
static uint64_t read_rdtscp(void) { return chrono__tscp_stop(); }
#endif

static chrono_clock g_pair_clock;   /* the clock whose start+stop pair is measured */
static uint64_t read_pair(void)
{
    return chrono_clock_start(&g_pair_clock) + chrono_clock_stop(&g_pair_clock);
}
#if defined(CHRONO__X86) && (defined(__GNUC__) || defined(__clang__))
static uint64_t read_bare_pair(void) { return chrono__tsc_fenced() + chrono__tsc_fenced(); }
#endif

typedef struct { const char *name; read_fn fn; } source_row;

static void add_row(source_row *rows, int *n, const char *name, read_fn fn)
{
    rows[*n].name = name;
    rows[*n].fn = fn;
    (*n)++;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median over 31 batches of the cost of one call, in ticks of `clk`. */
static double ticks_per_call(const chrono_clock *clk, read_fn fn, int reads)
{
    double v[31];
    volatile uint64_t sink = 0;
    int b;
    for (b = 0; b < 31; b++) {
        int i;
        uint64_t t0 = chrono_clock_start(clk), t1;
        for (i = 0; i < reads; i++) sink += fn();
        t1 = chrono_clock_stop(clk);
        v[b] = (double)(t1 - t0) / (double)reads;
    }
    (void)sink;
    qsort(v, 31, sizeof v[0], cmp_double);
    return v[15];
}

#if !defined(_WIN32) && !defined(__APPLE__)
static uint64_t os_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static uint64_t read_monotonic(void) { return os_ns(CLOCK_MONOTONIC); }
#  if defined(CLOCK_MONOTONIC_RAW)
static uint64_t read_monotonic_raw(void) { return os_ns(CLOCK_MONOTONIC_RAW); }
#  endif
#endif

int main(int argc, char **argv)
{
    chrono_clock c;
    chrono_config cfg = chrono_config_default();
    chrono_cli cli;
    source_row rows[8];
    int nrows = 0, i, rc, reads = 0;
    const chrono_cli_flag extra[] = {
        {"--reads", CHRONO_CLI_INT, &reads, 1, 100000000, "reads per timed batch (default 20000)"},
    };

    if (chrono_cli_parse_ex(&cfg, &cli, argc, argv, extra, 1) < 0) return chrono_cli_fail(&cli, argv[0]);
    if (chrono_cli_handle_info(&cli, argv[0])) return 0;
    if (!reads) reads = cli.quick ? 2000 : 20000;
    rc = chrono_clock_open(&c, cfg.clock);
    if (rc < 0) {
        fprintf(stderr, "clockinfo: cannot open a clock: %s\n", chrono_strerror(rc));
        return 1;
    }
    printf("chronoscope %s — clock\n", CHRONO_VERSION_STRING);
    printf("  source          %s\n", c.name);
    printf("  frequency       %.4f MHz (%s)\n", c.hz / 1e6, chrono_clock_hz_method_name(c.hz_method));
    if (c.hz_reported > 0) printf("  reported        %.4f MHz\n", c.hz_reported / 1e6);
    if (c.hz_calibrated > 0)
        printf("  calibration     %.4f MHz, spread %.2g%% over 5 windows\n", c.hz_calibrated / 1e6, c.calib_spread * 100);
    printf("  ns per tick     %.6f\n", c.ns_per_tick);
    printf("  overhead        %llu ticks = %.1f ns (empty start→stop, median; min %llu)\n",
           (unsigned long long)c.overhead_ticks, chrono_clock_ns(&c, c.overhead_ticks),
           (unsigned long long)c.overhead_min_ticks);
    printf("  resolution      %llu ticks = %.1f ns\n", (unsigned long long)c.resolution_ticks,
           chrono_clock_ns(&c, c.resolution_ticks));
    printf("  flags           invariant_tsc=%d rdtscp=%d in_vm=%d%s%s\n", c.invariant_tsc, c.has_rdtscp,
           c.in_vm, c.vm_vendor[0] ? " vendor=" : "", c.vm_vendor);

#if defined(CHRONO__X86) && (defined(__GNUC__) || defined(__clang__))
    add_row(rows, &nrows, "rdtsc", read_rdtsc);
    add_row(rows, &nrows, "lfence;rdtsc", read_lfence_rdtsc);
    add_row(rows, &nrows, "lfence;rdtsc;lfence", read_lfence_rdtsc_lfence);
    if (c.has_rdtscp) { add_row(rows, &nrows, "rdtscp;lfence", read_rdtscp); }
#endif
#if !defined(_WIN32) && !defined(__APPLE__)
    add_row(rows, &nrows, "clock_gettime MONOTONIC", read_monotonic);
#  if defined(CLOCK_MONOTONIC_RAW)
    add_row(rows, &nrows, "clock_gettime MONOTONIC_RAW", read_monotonic_raw);
#  endif
#endif
    g_pair_clock = c;
    printf("\ncost per read (median of 31 batches of %d reads)\n", reads);
    printf("  %-30s %10s %10s\n", "source", "ns", "ticks");
    for (i = 0; i < nrows; i++) {
        double t = ticks_per_call(&c, rows[i].fn, reads);
        printf("  %-30s %10.2f %10.2f\n", rows[i].name, t * c.ns_per_tick, t);
    }
    {
        double pair = ticks_per_call(&c, read_pair, reads);
        printf("\nchronoscope start+stop pair       %8.2f ns %8.2f ticks\n", pair * c.ns_per_tick, pair);
#if defined(CHRONO__X86) && (defined(__GNUC__) || defined(__clang__))
        if (c.source == CHRONO_CLOCK_TSC) {
            double bare = ticks_per_call(&c, read_bare_pair, reads);
            printf("bare lfence;rdtsc pair            %8.2f ns %8.2f ticks\n", bare * c.ns_per_tick, bare);
            printf("ratio (bar: <= 1.15)              %8.3f\n", pair / bare);
        }
#endif
    }
    return 0;
}

/* chronoscope/clock.h — tick sources and their calibration.

   Usage (the clock alone, for users who only want timestamps):

       chrono_clock clk;
       if (chrono_clock_open(&clk, CHRONO_CLOCK_AUTO) < 0) return 1;
       uint64_t t0 = chrono_clock_start(&clk);
       work();
       uint64_t t1 = chrono_clock_stop(&clk);
       printf("%s: %.1f ns\n", clk.name, chrono_clock_ns(&clk, t1 - t0 - clk.overhead_ticks));

   Functions:
       chrono_clock_open(c, src)            detect, calibrate, measure the overhead
       chrono_clock_open_custom(c, name, read, ctx, hz)   time with a function of yours
       chrono_clock_start(c) / _stop(c)     serialized reads around a region (inline)
       chrono_clock_read(c)                 one read, out of line (what they fall back to)
       chrono_clock_ns(c, ticks)            ticks to ns (double)
       chrono_clock_ns_u64(c, ticks)        ticks to whole ns, exact
       chrono_clock_calibrate(c, windows, window_ns, &hz, &spread)
       chrono_clock_available(src)          1 if this machine has the source
       chrono_clock_source_name(src), chrono_clock_hz_method_name(m)
       chrono_tsc_read()                    x86 only (#if CHRONO_ARCH_X86): lfence;rdtsc, the TSC
                                            read behind start (inline, raw ticks)
       chrono_tscp_read()                   x86 only: rdtscp;lfence, the stop read where RDTSCP
                                            exists (.has_rdtscp); an illegal instruction elsewhere

   Sources (CHRONO_CLOCK_AUTO picks the first the machine has):
     x86 / x86-64  CHRONO_CLOCK_TSC       start lfence;rdtsc, stop rdtscp;lfence when CPUID
                                          0x80000001 EDX[27] says RDTSCP exists, else
                                          lfence;rdtsc (chrono_tsc_read); lfence;rdtsc
                                          too under valgrind (found at run time by its
                                          client request; CHRONO_NO_RDTSCP forces it).
                                          Chosen only with invariant TSC.
     aarch64       CHRONO_CLOCK_CNTVCT    isb; mrs cntvct_el0 at cntfrq_el0
     POSIX         CHRONO_CLOCK_MONOTONIC_RAW, else CHRONO_CLOCK_MONOTONIC (clock_gettime)
     Windows       CHRONO_CLOCK_QPC       QueryPerformanceCounter
     macOS         CHRONO_CLOCK_MACH      mach_absolute_time
   A forced source the machine lacks fails with CHRONO_ENOTSUP, never a substitute.
   chrono_clock_open_custom() times with a function of yours (an external counter, or a
   fake clock in tests).

   Frequency: CPUID 0x15 (crystal ratio), the hypervisor leaf 0x40000010 or the OS's own
   figure where they exist, always cross-checked by a calibration against
   CLOCK_MONOTONIC_RAW (5 windows, median, ~40 ms); .hz_method says which was used and
   .calib_spread how far the windows disagreed.  CPUID 0x16 is nominal only and never used
   as the rate. */
#ifndef CHRONOSCOPE_CLOCK_H
#define CHRONOSCOPE_CLOCK_H

#include "base.h"

typedef enum chrono_clock_source {
    CHRONO_CLOCK_AUTO = 0,
    CHRONO_CLOCK_TSC,
    CHRONO_CLOCK_CNTVCT,
    CHRONO_CLOCK_MONOTONIC_RAW,
    CHRONO_CLOCK_MONOTONIC,
    CHRONO_CLOCK_QPC,
    CHRONO_CLOCK_MACH,
    CHRONO_CLOCK_CUSTOM,
    CHRONO_CLOCK_SOURCE_COUNT
} chrono_clock_source;

/* How .hz was found. */
typedef enum chrono_hz_method {
    CHRONO_HZ_EXACT = 0,     /* the source counts in a unit the OS defines (ns, QPC frequency) */
    CHRONO_HZ_CPUID_15,      /* CPUID 0x15 crystal × ratio, confirmed by calibration */
    CHRONO_HZ_HYPERVISOR,    /* CPUID 0x40000010 TSC kHz, confirmed by calibration */
    CHRONO_HZ_REGISTER,      /* cntfrq_el0, confirmed by calibration */
    CHRONO_HZ_CALIBRATED,    /* measured against CLOCK_MONOTONIC_RAW */
    CHRONO_HZ_USER           /* given to chrono_clock_open_custom */
} chrono_hz_method;

typedef uint64_t (*chrono_clock_read_fn)(void *ctx);

typedef struct chrono_clock {
    chrono_clock_source source;
    const char *name;           /* "tsc", "cntvct_el0", "clock_gettime(CLOCK_MONOTONIC_RAW)", … */
    double hz;                  /* ticks per second */
    double ns_per_tick;
    chrono_hz_method hz_method;
    double hz_reported;         /* what CPUID / the OS / the register said, 0 if nothing */
    double hz_calibrated;       /* median of the calibration windows, 0 if not calibrated */
    double calib_spread;        /* (max - min) / median of the windows: the calibration's
                                   uncertainty */
    uint64_t overhead_ticks;    /* median cost of an empty start→stop region */
    uint64_t overhead_min_ticks;
    uint64_t resolution_ticks;  /* smallest step two back-to-back reads can show (>= 1) */
    int invariant_tsc;          /* CPUID 0x80000007 EDX[8] (x86 only) */
    int has_rdtscp;             /* CPUID 0x80000001 EDX[27] */
    int in_vm;                  /* CPUID 1 ECX[31] */
    char vm_vendor[16];         /* CPUID 0x40000000 signature, "" if none */
    /* private */
    int chrono__kind;
    int chrono__clockid;
    uint64_t chrono__hz_int;    /* hz rounded, for integer tick→ns scaling */
    chrono_clock_read_fn chrono__read;
    void *chrono__ctx;
} chrono_clock;

/* ---- raw reads (chrono_tsc_read and chrono_tscp_read are public) -------- */
enum { CHRONO__KIND_TSC, CHRONO__KIND_TSCP, CHRONO__KIND_CNTVCT, CHRONO__KIND_POSIX,
       CHRONO__KIND_QPC, CHRONO__KIND_MACH, CHRONO__KIND_CUSTOM };
#if CHRONO_ARCH_X86
/* lfence waits for every earlier instruction to finish, so rdtsc cannot
   read before the code ahead of it is done.  Used for start, and for stop
   where RDTSCP is absent: a trailing lfence (lfence;rdtsc;lfence) would only
   hold back the code after the read and costs ~6 ns a read on this Zen 5
   VM (clockinfo: start+stop pair 1.18x the bare lfence;rdtsc pair with it,
   ~1.0x without). */
CHRONO__INLINE uint64_t chrono_tsc_read(void)
{
#  if defined(_MSC_VER)
    _mm_lfence();
    return __rdtsc();
#  else
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
#  endif
}
/* rdtscp waits for the region to finish; the lfence after it keeps later
   instructions from starting before the read. */
CHRONO__INLINE uint64_t chrono_tscp_read(void)
{
#  if defined(_MSC_VER)
    unsigned aux;
    uint64_t t = __rdtscp(&aux);
    _mm_lfence();
    return t;
#  else
    uint32_t lo, hi;
    __asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi) : : "ecx", "memory");
    return ((uint64_t)hi << 32) | lo;
#  endif
}
#endif

#if CHRONO_ARCH_ARM64
CHRONO__INLINE uint64_t chrono__cntvct(void)
{
    uint64_t v;
#  if defined(_MSC_VER)
    __isb(_ARM64_BARRIER_SY);
    v = (uint64_t)_ReadStatusReg(ARM64_CNTVCT);
#  else
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
#  endif
    return v;
}
CHRONO__INLINE uint64_t chrono__cntfrq(void)
{
    uint64_t f;
#  if defined(_MSC_VER)
    f = 0;
#  else
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
#  endif
    return f;
}
#endif

/* ---- functions ------------------------------------------------------------ */
CHRONO__EXTERN_C_BEGIN
/* One read of c, out of line, unserialized against the code around it except
   for the TSC (lfence;rdtsc): the OS clock, QPC, CNTVCT or a custom source as
   they read.  chrono_clock_start/_stop are the reads to put around a region
   (inline, serialized); this one is for what they fall back to, and for a
   timestamp outside any timed region (a deadline, an elapsed budget).  NULL
   or an unopened clock: undefined. */
CHRONO_API uint64_t chrono_clock_read(const chrono_clock *c);

/* Ticks to nanoseconds, as a double (exact to 53 bits); NAN without a clock. */
CHRONO_API double chrono_clock_ns(const chrono_clock *c, uint64_t ticks);

/* Ticks to whole nanoseconds, floor(t·1e9 / hz) exactly, for every hz the API
   accepts (< 1e12) and any tick count whose result fits in 64 bits: 128-bit
   arithmetic where the compiler has it, else q = t / hz, r = t % hz and
   r·1e9 / hz in two steps (r·1e4, then ·1e5: neither overflows below 1.8e15 Hz). */
CHRONO_API uint64_t chrono_clock_ns_u64(const chrono_clock *c, uint64_t ticks);

/* 1 if this machine has the source, 0 if not. */
CHRONO_API int chrono_clock_available(chrono_clock_source src);

CHRONO_API const char *chrono_clock_source_name(chrono_clock_source src);
CHRONO_API const char *chrono_clock_hz_method_name(chrono_hz_method m);
/* Ticks per second of c measured against the OS clock over `windows` spins
   of `window_ns` each; the median, with the windows' relative spread. */
CHRONO_API int chrono_clock_calibrate(const chrono_clock *c, int windows, uint64_t window_ns,
                                      double *hz, double *spread);

/* Detect, calibrate and measure the overhead of a tick source. */
CHRONO_API int chrono_clock_open(chrono_clock *c, chrono_clock_source src);

/* Time with read(ctx), which counts at hz ticks per second. */
CHRONO_API int chrono_clock_open_custom(chrono_clock *c, const char *name,
                                        chrono_clock_read_fn read, void *ctx, double hz);

CHRONO__EXTERN_C_END

/* The timer pair stays inline: a call would sit inside every timed region. */
/* Serialized read before a region.  c must be an opened clock (NULL reads 0). */
CHRONO__INLINE uint64_t chrono_clock_start(const chrono_clock *c)
{
    if (!c) return 0;
#if CHRONO_ARCH_X86
    if (c->chrono__kind <= CHRONO__KIND_TSCP) return chrono_tsc_read();
#endif
    return chrono_clock_read(c);
}
/* Serialized read after a region.  c must be an opened clock (NULL reads 0). */
CHRONO__INLINE uint64_t chrono_clock_stop(const chrono_clock *c)
{
    if (!c) return 0;
#if CHRONO_ARCH_X86
    if (c->chrono__kind == CHRONO__KIND_TSCP) return chrono_tscp_read();
    if (c->chrono__kind == CHRONO__KIND_TSC) return chrono_tsc_read();
#endif
    return chrono_clock_read(c);
}

#endif /* CHRONOSCOPE_CLOCK_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_CLOCK_IMPL)
#define CHRONOSCOPE_CLOCK_IMPL

#if CHRONO_OS_WINDOWS
#  ifndef WIN32_LEAN_AND_MEAN
#    define WIN32_LEAN_AND_MEAN
#  endif
#  include <windows.h>
#elif CHRONO_OS_APPLE
#  include <mach/mach_time.h>
#  include <time.h>
#else
#  include <time.h>
#  include <unistd.h>
#endif
#if !CHRONO_OS_WINDOWS && !CHRONO_OS_APPLE && !defined(CLOCK_MONOTONIC)
#  error "chronoscope implementation: clock_gettime is hidden (a strict -std such as -std=c99, and a system header came before the implementation): #define _GNU_SOURCE on the first line of this file (or -D_GNU_SOURCE), or include chronoscope.h with CHRONOSCOPE_IMPLEMENTATION (or CHRONO_STATIC) before any system header"
#endif

CHRONO__EXTERN_C_BEGIN

/* The OS's own monotonic clock in ns: the reference every calibration is
   measured against. */
CHRONO__PRIVATE uint64_t chrono__os_ns(int clockid)
{
#if CHRONO_OS_WINDOWS
    LARGE_INTEGER t, f;
    (void)clockid;
    QueryPerformanceCounter(&t);
    QueryPerformanceFrequency(&f);
    return (uint64_t)((double)t.QuadPart * (1e9 / (double)f.QuadPart));
#elif CHRONO_OS_APPLE
    (void)clockid;
    return clock_gettime_nsec_np(CLOCK_UPTIME_RAW);
#else
    struct timespec ts;
    clock_gettime((clockid_t)clockid, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

CHRONO__PRIVATE int chrono__reference_clockid(void)
{
#if defined(CLOCK_MONOTONIC_RAW)
    return (int)CLOCK_MONOTONIC_RAW;
#elif defined(CLOCK_MONOTONIC)
    return (int)CLOCK_MONOTONIC;
#else
    return 0;
#endif
}

CHRONO_API uint64_t chrono_clock_read(const chrono_clock *c)
{
    switch (c->chrono__kind) {
#if CHRONO_ARCH_X86
    case CHRONO__KIND_TSC:
    case CHRONO__KIND_TSCP:   return chrono_tsc_read();
#endif
#if CHRONO_ARCH_ARM64
    case CHRONO__KIND_CNTVCT: return chrono__cntvct();
#endif
#if CHRONO_OS_WINDOWS
    case CHRONO__KIND_QPC: {
        LARGE_INTEGER t;
        QueryPerformanceCounter(&t);
        return (uint64_t)t.QuadPart;
    }
#endif
#if CHRONO_OS_APPLE
    case CHRONO__KIND_MACH:   return mach_absolute_time();
#endif
    case CHRONO__KIND_CUSTOM: return c->chrono__read(c->chrono__ctx);
    default:                  return chrono__os_ns(c->chrono__clockid);
    }
}



CHRONO_API double chrono_clock_ns(const chrono_clock *c, uint64_t ticks)
{
    if (!c) return NAN;
    if (!(c->ns_per_tick > 0)) return NAN;   /* never opened (zeroed) */
    return (double)ticks * c->ns_per_tick;
}

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 chrono__u128;
#endif
CHRONO_API uint64_t chrono_clock_ns_u64(const chrono_clock *c, uint64_t ticks)
{
    uint64_t hz = c && c->chrono__hz_int ? c->chrono__hz_int : 0u;
    if (!hz) return 0;   /* no (opened) clock */
#if defined(__SIZEOF_INT128__)
    return (uint64_t)((chrono__u128)ticks * 1000000000u / hz);
#else
    {
        uint64_t q = ticks / hz, r = (ticks % hz) * 10000u;
        return q * 1000000000u + (r / hz) * 100000u + (r % hz) * 100000u / hz;
    }
#endif
}

/* ---- capabilities ------------------------------------------------------- */
typedef struct chrono__x86_facts {
    int tsc, rdtscp, invariant, hypervisor;
    char vendor[16];
    double hz15, hz_hv;
} chrono__x86_facts;

CHRONO__PRIVATE void chrono__x86_read(chrono__x86_facts *f)
{
    uint32_t r[4], hv_max;
    memset(f, 0, sizeof *f);
    if (chrono__cpuid(1, 0, r) == 0) f->tsc = (int)((r[3] >> 4) & 1u);
    f->hypervisor = chrono__hypervisor(f->vendor, &hv_max);
#if !defined(CHRONO_NO_RDTSCP)   /* forces lfence;rdtsc at the stop */
    /* Under valgrind stop with lfence;rdtsc: its CPUID may offer an RDTSCP it cannot run. */
    if (!chrono__under_valgrind() && chrono__cpuid(0x80000001u, 0, r) == 0)
        f->rdtscp = (int)((r[3] >> 27) & 1u);
#endif
    if (chrono__cpuid(0x80000007u, 0, r) == 0) f->invariant = (int)((r[3] >> 8) & 1u);
    /* CPUID 0x15: TSC = crystal (ECX Hz) × EBX / EAX. */
    if (chrono__cpuid(0x15, 0, r) == 0 && r[0] && r[1] && r[2])
        f->hz15 = (double)r[2] * (double)r[1] / (double)r[0];
    /* The leaf range is hypervisor-defined; 0x40000010 EAX = TSC kHz where
       the hypervisor advertises it (VMware, KVM with the timing leaf). */
    if (f->hypervisor && hv_max >= 0x40000010u && chrono__cpuid(0x40000010u, 0, r) == 0 && r[0])
        f->hz_hv = (double)r[0] * 1e3;
}

CHRONO_API int chrono_clock_available(chrono_clock_source src)
{
    switch (src) {
    case CHRONO_CLOCK_AUTO: return 1;
#if CHRONO_ARCH_X86
    case CHRONO_CLOCK_TSC: { chrono__x86_facts f; chrono__x86_read(&f); return f.tsc; }
#endif
#if CHRONO_ARCH_ARM64
    case CHRONO_CLOCK_CNTVCT: return chrono__cntfrq() != 0;
#endif
#if !CHRONO_OS_WINDOWS && !CHRONO_OS_APPLE
#  if defined(CLOCK_MONOTONIC_RAW)
    case CHRONO_CLOCK_MONOTONIC_RAW: {
        struct timespec ts;
        return clock_gettime(CLOCK_MONOTONIC_RAW, &ts) == 0;
    }
#  endif
    case CHRONO_CLOCK_MONOTONIC: {
        struct timespec ts;
        return clock_gettime(CLOCK_MONOTONIC, &ts) == 0;
    }
#endif
#if CHRONO_OS_WINDOWS
    case CHRONO_CLOCK_QPC: return 1;
#endif
#if CHRONO_OS_APPLE
    case CHRONO_CLOCK_MACH: return 1;
#endif
    default: return 0;
    }
}

CHRONO_API const char *chrono_clock_source_name(chrono_clock_source src)
{
    switch (src) {
    case CHRONO_CLOCK_AUTO:          return "auto";
    case CHRONO_CLOCK_TSC:           return "tsc";
    case CHRONO_CLOCK_CNTVCT:        return "cntvct_el0";
    case CHRONO_CLOCK_MONOTONIC_RAW: return "clock_gettime(CLOCK_MONOTONIC_RAW)";
    case CHRONO_CLOCK_MONOTONIC:     return "clock_gettime(CLOCK_MONOTONIC)";
    case CHRONO_CLOCK_QPC:           return "QueryPerformanceCounter";
    case CHRONO_CLOCK_MACH:          return "mach_absolute_time";
    case CHRONO_CLOCK_CUSTOM:        return "custom";
    default:                         return "unknown";
    }
}

CHRONO_API const char *chrono_clock_hz_method_name(chrono_hz_method m)
{
    switch (m) {
    case CHRONO_HZ_EXACT:      return "defined by the OS";
    case CHRONO_HZ_CPUID_15:   return "CPUID 0x15, confirmed by calibration";
    case CHRONO_HZ_HYPERVISOR: return "hypervisor CPUID 0x40000010, confirmed by calibration";
    case CHRONO_HZ_REGISTER:   return "cntfrq_el0, confirmed by calibration";
    case CHRONO_HZ_CALIBRATED: return "calibrated against the OS monotonic clock";
    case CHRONO_HZ_USER:       return "given by the user";
    default:                   return "unknown";
    }
}

/* ---- calibration -------------------------------------------------------- */
/* One (ticks, ns) point: the OS clock read bracketed by two tick reads, the
   tightest bracket of a few tries, the tick value taken at its middle. */
CHRONO__PRIVATE void chrono__calib_point(const chrono_clock *c, int refid, uint64_t *ticks,
                                         uint64_t *ns)
{
    uint64_t best = UINT64_MAX;
    int i;
    *ticks = 0;
    *ns = 0;
    for (i = 0; i < 7; i++) {
        uint64_t a = chrono_clock_read(c), t = chrono__os_ns(refid), b = chrono_clock_read(c);
        if (b >= a && b - a < best) { best = b - a; *ticks = a + (b - a) / 2; *ns = t; }
    }
}

/* Shell sort: small arrays, no allocation, no dependency on stats.h. */
CHRONO__PRIVATE void chrono__sort_small(double *v, int n)
{
    int gap, i, j;
    for (gap = n / 2; gap > 0; gap /= 2)
        for (i = gap; i < n; i++) {
            double x = v[i];
            for (j = i; j >= gap && v[j - gap] > x; j -= gap) v[j] = v[j - gap];
            v[j] = x;
        }
}

CHRONO_API int chrono_clock_calibrate(const chrono_clock *c, int windows, uint64_t window_ns,
                                      double *hz, double *spread)
{
    double v[16];
    int refid = chrono__reference_clockid(), i;
    if (!c || !hz || windows < 1 || windows > 16 || window_ns < 1000) return CHRONO_EINVAL;
    /* over 10 s a window: would spin for ages */
    if (window_ns > UINT64_C(10000000000)) return CHRONO_EINVAL;
    for (i = 0; i < windows; i++) {
        uint64_t t0, n0, t1, n1;
        chrono__calib_point(c, refid, &t0, &n0);
        do chrono__calib_point(c, refid, &t1, &n1); while (n1 - n0 < window_ns && n1 >= n0);
        if (n1 <= n0 || t1 <= t0) return CHRONO_ECALIBRATE;
        v[i] = (double)(t1 - t0) * 1e9 / (double)(n1 - n0);
    }
    chrono__sort_small(v, windows);
    *hz = (windows & 1) ? v[windows / 2] : 0.5 * (v[windows / 2 - 1] + v[windows / 2]);
    if (spread) *spread = (v[windows - 1] - v[0]) / *hz;
    return 0;
}

/* Overhead of an empty start→stop (median and minimum of 1001) and the
   resolution (the smallest non-zero step between back-to-back reads). */
CHRONO__PRIVATE int chrono__measure_overhead(chrono_clock *c)
{
    enum { N = 1001 };
    double d[N];
    uint64_t res = UINT64_MAX;
    int i;
    for (i = 0; i < N; i++) {
        uint64_t a = chrono_clock_start(c), b = chrono_clock_stop(c);
        d[i] = b >= a ? (double)(b - a) : 0.0;
    }
    chrono__sort_small(d, N);
    c->overhead_ticks = (uint64_t)d[N / 2];
    c->overhead_min_ticks = (uint64_t)d[0];
    for (i = 0; i < 20; i++) {
        uint64_t a = chrono_clock_read(c), b = a;
        long spins = 0;
        while (b == a && spins++ < 10000000L) b = chrono_clock_read(c);
        if (b < a) return CHRONO_ECLOCK;
        if (b == a) return CHRONO_ECLOCK;   /* no progress in 10^7 reads */
        if (b - a < res) res = b - a;
    }
    c->resolution_ticks = res;
    return 0;
}

CHRONO__PRIVATE void chrono__set_hz(chrono_clock *c, double hz, chrono_hz_method how)
{
    c->hz = hz;
    c->ns_per_tick = 1e9 / hz;
    c->hz_method = how;
    c->chrono__hz_int = (uint64_t)(hz + 0.5);
}

/* A source whose rate the OS states exactly (or the user gives): taken as it is. */
CHRONO__PRIVATE int chrono__exact_hz(chrono_clock *c, int kind, double hz, chrono_hz_method how)
{
    c->chrono__kind = kind;
    c->hz_reported = hz;
    chrono__set_hz(c, hz, how);
    return 0;
}

/* Use the reported rate when calibration confirms it (within 0.5%), else the calibration. */
CHRONO__PRIVATE int chrono__settle_hz(chrono_clock *c, double reported, chrono_hz_method how)
{
    double cal = 0, spread = 0;
    int rc = chrono_clock_calibrate(c, 5, 8000000u, &cal, &spread);
    if (rc < 0) return rc;
    c->hz_reported = reported;
    c->hz_calibrated = cal;
    c->calib_spread = spread;
    if (reported > 0 && fabs(cal / reported - 1.0) < 0.005) chrono__set_hz(c, reported, how);
    else chrono__set_hz(c, cal, CHRONO_HZ_CALIBRATED);
    return 0;
}

CHRONO__PRIVATE int chrono__open_source(chrono_clock *c, chrono_clock_source src)
{
    c->source = src;
    c->name = chrono_clock_source_name(src);
    c->chrono__clockid = chrono__reference_clockid();
    switch (src) {
#if CHRONO_ARCH_X86
    case CHRONO_CLOCK_TSC: {
        chrono__x86_facts f;
        chrono__x86_read(&f);
        if (!f.tsc) return CHRONO_ENOTSUP;
        c->chrono__kind = f.rdtscp ? CHRONO__KIND_TSCP : CHRONO__KIND_TSC;
        if (f.hz15 > 0) return chrono__settle_hz(c, f.hz15, CHRONO_HZ_CPUID_15);
        return chrono__settle_hz(c, f.hz_hv, CHRONO_HZ_HYPERVISOR);
    }
#endif
#if CHRONO_ARCH_ARM64
    case CHRONO_CLOCK_CNTVCT:
        c->chrono__kind = CHRONO__KIND_CNTVCT;
        return chrono__settle_hz(c, (double)chrono__cntfrq(), CHRONO_HZ_REGISTER);
#endif
#if !CHRONO_OS_WINDOWS && !CHRONO_OS_APPLE
#  if defined(CLOCK_MONOTONIC_RAW)
    case CHRONO_CLOCK_MONOTONIC_RAW:
        c->chrono__clockid = (int)CLOCK_MONOTONIC_RAW;
        return chrono__exact_hz(c, CHRONO__KIND_POSIX, 1e9, CHRONO_HZ_EXACT);
#  endif
    case CHRONO_CLOCK_MONOTONIC:
        c->chrono__clockid = (int)CLOCK_MONOTONIC;
        return chrono__exact_hz(c, CHRONO__KIND_POSIX, 1e9, CHRONO_HZ_EXACT);
#endif
#if CHRONO_OS_WINDOWS
    case CHRONO_CLOCK_QPC: {
        LARGE_INTEGER f;
        QueryPerformanceFrequency(&f);
        return chrono__exact_hz(c, CHRONO__KIND_QPC, (double)f.QuadPart, CHRONO_HZ_EXACT);
    }
#endif
#if CHRONO_OS_APPLE
    case CHRONO_CLOCK_MACH: {
        mach_timebase_info_data_t tb;
        mach_timebase_info(&tb);
        return chrono__exact_hz(c, CHRONO__KIND_MACH, 1e9 * (double)tb.denom / (double)tb.numer,
                                CHRONO_HZ_EXACT);
    }
#endif
    default:
        return CHRONO_ENOTSUP;
    }
}

CHRONO__PRIVATE void chrono__fill_x86_flags(chrono_clock *c)
{
#if CHRONO_ARCH_X86
    chrono__x86_facts f;
    chrono__x86_read(&f);
    c->invariant_tsc = f.invariant;
    c->has_rdtscp = f.rdtscp;
    c->in_vm = f.hypervisor;
    memcpy(c->vm_vendor, f.vendor, sizeof c->vm_vendor);
#else
    (void)c;
#endif
}

/* The source AUTO stands for: the invariant TSC, the arm64 virtual counter,
   or the OS's monotonic clock. */
CHRONO__PRIVATE chrono_clock_source chrono__auto_source(void)
{
#if CHRONO_ARCH_X86
    chrono__x86_facts f;
    chrono__x86_read(&f);
    if (f.tsc && f.invariant) return CHRONO_CLOCK_TSC;
#elif CHRONO_ARCH_ARM64
    if (chrono__cntfrq() != 0) return CHRONO_CLOCK_CNTVCT;
#endif
#if CHRONO_OS_WINDOWS
    return CHRONO_CLOCK_QPC;
#elif CHRONO_OS_APPLE
    return CHRONO_CLOCK_MACH;
#elif defined(CLOCK_MONOTONIC_RAW)
    return CHRONO_CLOCK_MONOTONIC_RAW;
#else
    return CHRONO_CLOCK_MONOTONIC;
#endif
}

CHRONO__PRIVATE int chrono__finish_open(chrono_clock *c)
{
    int rc = chrono__measure_overhead(c);
    if (rc == 0 && !(c->hz > 0 && c->hz < 1e12)) rc = CHRONO_ECALIBRATE;
    return rc;
}

CHRONO_API int chrono_clock_open(chrono_clock *c, chrono_clock_source src)
{
    int rc;
    if (!c || (int)src < 0 || src >= CHRONO_CLOCK_SOURCE_COUNT || src == CHRONO_CLOCK_CUSTOM)
        return CHRONO_EINVAL;
    memset(c, 0, sizeof *c);
    chrono__fill_x86_flags(c);
    if (src == CHRONO_CLOCK_AUTO) src = chrono__auto_source();
    if (!chrono_clock_available(src)) return CHRONO_ENOTSUP;
    rc = chrono__open_source(c, src);
    return rc < 0 ? rc : chrono__finish_open(c);
}

CHRONO_API int chrono_clock_open_custom(chrono_clock *c, const char *name,
                                        chrono_clock_read_fn read, void *ctx, double hz)
{
    if (!c || !read || !(hz > 0 && hz < 1e12)) return CHRONO_EINVAL;
    if (isinf(1e9 / hz)) return CHRONO_EINVAL;   /* so slow that ns per tick overflows a double */
    memset(c, 0, sizeof *c);
    chrono__fill_x86_flags(c);
    c->source = CHRONO_CLOCK_CUSTOM;
    c->name = name ? name : "custom";
    c->chrono__read = read;
    c->chrono__ctx = ctx;
    (void)chrono__exact_hz(c, CHRONO__KIND_CUSTOM, hz, CHRONO_HZ_USER);
    return chrono__finish_open(c);
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_CLOCK_IMPL */

/* chronoscope/base.h — what every module shares: the API macro, feature
   macros, allocation hooks, error codes and chrono_strerror.

   Usage: included by every module; users include <chronoscope.h>.

       int rc = chrono_clock_open(&clk, CHRONO_CLOCK_AUTO);
       if (rc < 0) fprintf(stderr, "clock: %s\n", chrono_strerror(rc));

   Error contract: every function returning int returns 0 on success or a
   negative CHRONO_E... code; chrono_strerror() names it.  The library never
   prints and never aborts. */
#ifndef CHRONOSCOPE_BASE_H
#define CHRONOSCOPE_BASE_H

/* ---- feature macros --------------------------------------------------
   glibc hides clock_gettime (POSIX) and sched_setaffinity/sched_getcpu
   (GNU) under strict -std=c99.  When chronoscope.h is the first header of
   the translation unit we ask for them ourselves; when a system header came
   first, the choice is already made and we can only say what to add. */
#if defined(__linux__) || defined(__GLIBC__) || defined(__CYGWIN__)
#  if !defined(_FEATURES_H) && !defined(_GNU_SOURCE)
#    define _GNU_SOURCE 1
#  endif
#  include <features.h>
#  if defined(__GLIBC__) && !defined(__USE_GNU)
#    error "chronoscope.h needs _GNU_SOURCE: add -D_GNU_SOURCE, or include <chronoscope.h> before any system header"
#  endif
#endif

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

#ifndef CHRONO_API
#  define CHRONO_API static inline
#endif

/* Allocation hooks: define both or neither. */
#if defined(CHRONO_MALLOC) != defined(CHRONO_FREE)
#  error "chronoscope.h: define both CHRONO_MALLOC and CHRONO_FREE, or neither"
#endif
#ifndef CHRONO_MALLOC
#  include <stdlib.h>
#  define CHRONO_MALLOC(size) malloc(size)
#  define CHRONO_FREE(ptr) free(ptr)
#endif

#if defined(_MSC_VER)
#  define CHRONO__NOINLINE __declspec(noinline)
#elif defined(__GNUC__) || defined(__clang__)
#  define CHRONO__NOINLINE __attribute__((noinline))
#else
#  define CHRONO__NOINLINE
#endif

/* snprintf for text the library truncates on purpose (names in fixed cells):
   through va_list, so gcc's -Wformat-truncation (at -O1) does not flag the
   truncation it is meant to do. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
CHRONO_API int chrono__bprintf(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}

/* ---- architecture ------------------------------------------------------ */
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
#  define CHRONO__X86 1
#elif defined(__aarch64__) || defined(_M_ARM64)
#  define CHRONO__ARM64 1
#endif

/* CPUID, shared by the clock (TSC features) and cpu (brand, hypervisor)
   modules.  Returns 0 and fills r[4] = eax, ebx, ecx, edx, or -1 where the
   leaf is beyond the maximum the CPU reports or there is no CPUID. */
#if defined(CHRONO__X86) && defined(_MSC_VER)
#  include <intrin.h>
#endif
CHRONO_API int chrono__cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
#if defined(CHRONO__X86) && (defined(__GNUC__) || defined(__clang__))
    uint32_t a, b, c, d, max;
    uint32_t base = leaf & 0xffff0000u;
    __asm__ __volatile__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(base), "c"(0));
    max = a;
    /* The hypervisor range (0x4000xxxx) is only meaningful with the CPUID
       hypervisor bit; its callers check that bit first. */
    if (leaf > max) { r[0] = r[1] = r[2] = r[3] = 0; return -1; }
    __asm__ __volatile__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(leaf), "c"(sub));
    r[0] = a; r[1] = b; r[2] = c; r[3] = d;
    return 0;
#elif defined(CHRONO__X86) && defined(_MSC_VER)
    int v[4];
    __cpuidex(v, (int)(leaf & 0xffff0000u), 0);
    if (leaf > (uint32_t)v[0]) { r[0] = r[1] = r[2] = r[3] = 0; return -1; }
    __cpuidex(v, (int)leaf, (int)sub);
    r[0] = (uint32_t)v[0]; r[1] = (uint32_t)v[1]; r[2] = (uint32_t)v[2]; r[3] = (uint32_t)v[3];
    return 0;
#else
    (void)leaf; (void)sub;
    r[0] = r[1] = r[2] = r[3] = 0;
    return -1;
#endif
}

/* ---- errors ------------------------------------------------------------ */
enum {
    CHRONO_OK = 0,
    CHRONO_EINVAL = -1,       /* an argument is NULL, zero, negative, NaN or out of range */
    CHRONO_ENOTSUP = -2,      /* this machine or platform does not have it */
    CHRONO_ENOMEM = -3,       /* CHRONO_MALLOC failed */
    CHRONO_ECALIBRATE = -4,   /* clock calibration failed or disagreed with itself */
    CHRONO_EPIN = -5,         /* the thread could not be pinned to the requested CPU */
    CHRONO_ECLOCK = -6,       /* the clock misbehaved (no progress, went backwards) */
    CHRONO_ENOSAMPLES = -7,   /* every sample was rejected: nothing left to summarise */
    CHRONO_EIO = -8,          /* writing a report failed */
    CHRONO_ERANGE = -9,       /* a value does not fit (name too long, count too large) */
    CHRONO_EBUSY = -10        /* the session is still open / already open */
};

CHRONO_API const char *chrono_strerror(int err)
{
    switch (err) {
    case CHRONO_OK:          return "success";
    case CHRONO_EINVAL:      return "invalid argument (NULL, zero, negative, NaN or out of range)";
    case CHRONO_ENOTSUP:     return "not supported on this machine or platform";
    case CHRONO_ENOMEM:      return "out of memory";
    case CHRONO_ECALIBRATE:  return "clock calibration failed";
    case CHRONO_EPIN:        return "could not pin the thread to the requested CPU";
    case CHRONO_ECLOCK:      return "the clock misbehaved (no progress or went backwards)";
    case CHRONO_ENOSAMPLES:  return "every sample was rejected";
    case CHRONO_EIO:         return "I/O error while writing";
    case CHRONO_ERANGE:      return "value out of range (too long or too large)";
    case CHRONO_EBUSY:       return "resource busy";
    default:                 return "unknown chronoscope error";
    }
}

#endif /* CHRONOSCOPE_BASE_H */

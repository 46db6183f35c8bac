/* chronoscope/base.h — what every module shares: the build model (declarations
   and one implementation), version, feature and platform macros, allocation hooks,
   error codes and chrono_strerror, warning bits (CHRONO_WARN_*: the environment's,
   the session's and the runs') and their texts.

   Usage: included by every module; users include <chronoscope.h>.  Programs may
   test the platform with its public facts (CHRONO_ARCH_*, CHRONO_OS_*, each 0/1)
   and keep a function out of line with CHRONO_NOINLINE:

       #if CHRONO_ARCH_X86 && CHRONO_OS_LINUX
       CHRONO_NOINLINE static unsigned leaf(unsigned a) { return a + 1; }
       #endif

       int rc = chrono_clock_open(&clk, CHRONO_CLOCK_AUTO);
       if (rc < 0) fprintf(stderr, "clock: %s\n", chrono_strerror(rc));

   Build model (stb / sokol): every module header declares its API; its
   implementation follows behind CHRONO__IMPLEMENT, which is set in the one file
   that defines CHRONOSCOPE_IMPLEMENTATION (an extern copy for the whole program)
   or CHRONO_STATIC (a private, static copy for a single-file program) before it
   includes <chronoscope.h>.  The declarations need only <stdint.h>, <stddef.h>
   and <stdio.h>, and can be included in any order, under any -std, in C and C++.

   Error contract: every function returning int returns 0 on success or a
   negative CHRONO_E... code; chrono_strerror() names it.  The library never
   prints and never aborts.

   Warnings: chrono_env.warnings, chrono_session.warnings, chrono_result.warnings
   and chrono_comparison.warnings hold CHRONO_WARN_* bits (the list below says
   who sets which); chrono_env_warning(bit) is one line of text for a bit,
   chrono_env_warning_name(bit) its short name ("SHARED_CORE"):

       for (b = 1; b != 0 && b <= CHRONO_WARN_LAST; b <<= 1)
           if (session.warnings & b) printf("warning: %s\n", chrono_env_warning(b));

   Interface for the modules above
     CHRONO__PRIVATE, CHRONO__INLINE     storage of a private / an inline function
     CHRONO__IMPLEMENT                   set where the implementation is compiled
     CHRONO__EXTERN_C_BEGIN, CHRONO__EXTERN_C_END   C linkage under C++
     CHRONO__CALLER                      the calling file's build facts (optimised, NDEBUG, version)
     CHRONO__XSTR(x)                     a macro's value as a string literal (cli.h's help)
     CHRONO__X86, CHRONO__ARM64          0/1: the instruction set
     CHRONO__OS_LINUX, CHRONO__OS_POSIX, CHRONO__OS_WINDOWS   0/1: the system
     chrono__bprintf(buf, n, fmt, ...)   snprintf that says when it truncated
     chrono__num(buf, n, fmt, v)         one figure, '.' whatever the locale
     chrono__u64(buf, v)                 a uint64_t in decimal
     chrono__finite(v)                   v neither NaN nor infinite
     chrono__str_copy, chrono__str_append, chrono__str_trim, chrono__is_space   bounded strings
     chrono__cpuid(leaf, sub, r), chrono__hypervisor(), chrono__under_valgrind()   what runs us
     chrono__popcount(x), chrono__mask_list(buf, n, mask)   CPU masks */

/* Outside the include guard: a file may include the declarations first and
   ask for the implementation later. */
#if defined(CHRONOSCOPE_IMPLEMENTATION) || defined(CHRONO_STATIC)
#  define CHRONO__IMPLEMENT 1
/* The implementation wants glibc's GNU extensions (affinity, getcpu).  When
   nothing was included before it, ask for them; otherwise it manages without
   (raw system calls), see cpu.h. */
#  if (defined(__linux__) || defined(__CYGWIN__)) && !defined(_GNU_SOURCE) \
      && !defined(_FEATURES_H) && !defined(_STDIO_H) && !defined(_STDINT_H) && !defined(_STDDEF_H)
#    define _GNU_SOURCE 1
#  endif
#endif

#ifndef CHRONOSCOPE_BASE_H
#define CHRONOSCOPE_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- version (meson.build checks that it agrees) ------------------------- */
#define CHRONO_VERSION_MAJOR 0
#define CHRONO_VERSION_MINOR 2
#define CHRONO_VERSION_PATCH 0
#define CHRONO_VERSION_STRING "0.2.0"
#define CHRONO_VERSION_NUM \
    (CHRONO_VERSION_MAJOR * 10000 + CHRONO_VERSION_MINOR * 100 + CHRONO_VERSION_PATCH)

/* ---- storage of the API -------------------------------------------------- */
#if defined(__GNUC__) || defined(__clang__)
#  define CHRONO__UNUSED __attribute__((unused))
#else
#  define CHRONO__UNUSED
#endif
#ifndef CHRONO_API
#  if defined(CHRONO_STATIC)
#    define CHRONO_API static CHRONO__UNUSED
#  else
#    define CHRONO_API extern
#  endif
#endif
#define CHRONO__PRIVATE static CHRONO__UNUSED   /* implementation-only helpers */
#define CHRONO__INLINE static inline            /* what must inline to be cheap */
#ifdef __cplusplus
#  define CHRONO__EXTERN_C_BEGIN extern "C" {
#  define CHRONO__EXTERN_C_END }
#else
#  define CHRONO__EXTERN_C_BEGIN
#  define CHRONO__EXTERN_C_END
#endif

/* ---- facts for programs: public, documented in the top comment -------------
   CHRONO_NOINLINE              keep a function out of line (a call stays a call)
   CHRONO_ARCH_X86              1 on x86 and x86-64, else 0
   CHRONO_ARCH_X86_64 / _I386   1 on the one of the two it is, else 0
   CHRONO_ARCH_ARM64            1 on aarch64, else 0
   CHRONO_OS_LINUX / _WINDOWS / _APPLE   1 on that system, else 0
   CHRONO_OS_POSIX              1 on another POSIX system (BSD, macOS), else 0 */
#if defined(_MSC_VER)
#  define CHRONO_NOINLINE __declspec(noinline)
#elif defined(__GNUC__) || defined(__clang__)
#  define CHRONO_NOINLINE __attribute__((noinline))
#else
#  define CHRONO_NOINLINE
#endif

#if defined(__x86_64__) || defined(_M_X64)
#  define CHRONO_ARCH_X86_64 1
#else
#  define CHRONO_ARCH_X86_64 0
#endif
#if defined(__i386__) || defined(_M_IX86)
#  define CHRONO_ARCH_I386 1
#else
#  define CHRONO_ARCH_I386 0
#endif
#define CHRONO_ARCH_X86 (CHRONO_ARCH_X86_64 || CHRONO_ARCH_I386)
#if defined(__aarch64__) || defined(_M_ARM64)
#  define CHRONO_ARCH_ARM64 1
#else
#  define CHRONO_ARCH_ARM64 0
#endif
#if CHRONO_ARCH_X86 && defined(_MSC_VER)
#  include <intrin.h>   /* the compiler's own: __rdtsc, _mm_lfence */
#endif

#if defined(_WIN32)
#  define CHRONO_OS_WINDOWS 1
#else
#  define CHRONO_OS_WINDOWS 0
#endif
#if defined(__APPLE__)
#  define CHRONO_OS_APPLE 1
#else
#  define CHRONO_OS_APPLE 0
#endif
#if defined(__linux__)
#  define CHRONO_OS_LINUX 1
#else
#  define CHRONO_OS_LINUX 0
#endif
#if !CHRONO_OS_WINDOWS && !CHRONO_OS_LINUX && \
    (CHRONO_OS_APPLE || defined(__unix__) || defined(__unix))
#  define CHRONO_OS_POSIX 1
#else
#  define CHRONO_OS_POSIX 0
#endif

/* The same facts under the private names the modules use inside (defined or
   not for the architecture, 0/1 for the system). */
#define CHRONO__NOINLINE CHRONO_NOINLINE
#if CHRONO_ARCH_X86
#  define CHRONO__X86 1
#endif
#if CHRONO_ARCH_ARM64
#  define CHRONO__ARM64 1
#endif
#define CHRONO__OS_WINDOWS CHRONO_OS_WINDOWS
#define CHRONO__OS_APPLE CHRONO_OS_APPLE
#define CHRONO__OS_LINUX CHRONO_OS_LINUX
#define CHRONO__OS_POSIX CHRONO_OS_POSIX

/* ---- facts about the caller's build --------------------------------------
   Taken where the user's code calls in (chrono_session_open and the other
   entry points are macros that pass CHRONO__CALLER), not where the library is
   compiled: a release library used from a debug test is a debug measurement. */
#if defined(__OPTIMIZE__)
#  define CHRONO__OPTIMIZED 1
#elif defined(__GNUC__) || defined(__clang__)
#  define CHRONO__OPTIMIZED 0           /* GCC-compatible: __OPTIMIZE__ whenever -O1 or more */
#elif defined(_MSC_VER) && defined(_DEBUG)
#  define CHRONO__OPTIMIZED 0           /* MSVC debug runtime: a debug build */
#else
#  define CHRONO__OPTIMIZED (-1)        /* the compiler does not tell */
#endif
#if defined(NDEBUG)
#  define CHRONO__ASSERTS 0
#else
#  define CHRONO__ASSERTS 1
#endif
/* version * 16 + (optimized + 1) * 4 + asserts */
#define CHRONO__CALLER \
    ((unsigned long)CHRONO_VERSION_NUM * 16ul + (unsigned long)(CHRONO__OPTIMIZED + 1) * 4ul \
                        + (unsigned long)CHRONO__ASSERTS)

/* ---- errors: one list, the codes and their strings ------------------------ */
#define CHRONO__ERRORS(X) \
    X(CHRONO_OK,          0,  "success") \
    X(CHRONO_EINVAL,     -1,  "invalid argument (NULL, zero, negative, NaN or out of range)") \
    X(CHRONO_ENOTSUP,    -2,  "not supported on this machine or platform") \
    X(CHRONO_ENOMEM,     -3,  "out of memory") \
    X(CHRONO_ECALIBRATE, -4,  "clock calibration failed") \
    X(CHRONO_EPIN,       -5,  "could not pin the thread to the requested CPU") \
    X(CHRONO_ECLOCK,     -6,  "the clock misbehaved (no progress or went backwards)") \
    X(CHRONO_ENOSAMPLES, -7,  "every sample was rejected") \
    X(CHRONO_EIO,        -8,  "I/O error while writing") \
    X(CHRONO_ERANGE,     -9,  "value out of range (too long or too large)") \
    X(CHRONO_EBUSY,      -10, "resource busy") \
    X(CHRONO_EVERSION,   -11, \
      "the caller was compiled against another chronoscope.h version than the library")

#define CHRONO__ERROR_ENUM(name, value, text) name = value,
enum { CHRONO__ERRORS(CHRONO__ERROR_ENUM) CHRONO__ERROR_END = 1 };
#undef CHRONO__ERROR_ENUM

/* A macro's value as a string literal (CHRONO__XSTR(CHRONO_DEFAULT_SAMPLES): "101"). */
#define CHRONO__STR(x) #x
#define CHRONO__XSTR(x) CHRONO__STR(x)

/* ---- warnings: one list, the bits, their texts and names ------------------ */
/* X(name, bit, text). */
#define CHRONO__WARNINGS(X) \
    X(CHRONO_WARN_DEBUG_BUILD, 0, \
      "compiled without optimisation: figures are not representative") \
    X(CHRONO_WARN_VM, 1, \
      "running under a hypervisor: the host can steal time and blur short intervals") \
    X(CHRONO_WARN_UNPINNED, 2, \
      "thread not pinned to a CPU: the scheduler may move it between samples") \
    X(CHRONO_WARN_FREQ_SCALING, 3, \
      "CPU frequency scaling or boost is active: the core clock can change during the run") \
    X(CHRONO_WARN_LOAD, 4, \
      "machine is busy (1-minute load above half the CPUs): other work competes for the CPU") \
    X(CHRONO_WARN_NO_INVARIANT_TSC, 5, \
      "TSC is not invariant: its rate follows the core frequency") \
    X(CHRONO_WARN_MIGRATED, 6, \
      "samples were taken on different CPUs: the thread migrated during the run") \
    X(CHRONO_WARN_ASSERTS, 7, \
      "assertions enabled (NDEBUG not defined): checks may distort the figures") \
    X(CHRONO_WARN_CONTENDED, 8, \
      "the core's front end was shared (SMT sibling or host) for most of a run: call- and " \
      "branch-heavy code reads slow, and those samples were kept") \
    X(CHRONO_WARN_SHARED_CORE, 9, \
      "the core was shared (SMT sibling or host) for most of a run: its samples were kept and " \
      "its figure may read slow (the row is marked)") \
    X(CHRONO_WARN_EMPTY_BODY, 10, \
      "an iteration cost about one cycle or less, the loop itself: the body may have been " \
      "optimised away: keep its result with chrono_keep()") \
    X(CHRONO_WARN_UNSTABLE, 11, \
      "a comparison's paired ratios changed level within the run: its interval was widened to " \
      "cover both levels") \
    X(CHRONO_WARN_INTERRUPTED, 12, \
      "every sample of a run was interrupted (the thread switched out, or the core clock changed " \
      "mid-sample): its figures are those samples', interruptions included") \
    X(CHRONO_WARN_SHORT_BODY, 13, \
      "a body timed call by call (chrono_run_setup) was shorter than the runner measures within " \
      "2%: the clock's fixed cost dominates its figure") \
    X(CHRONO_WARN_HOST_SLOWED, 14, \
      "control chains of known length, timed between the samples, read slow in more than 40% of " \
      "them: the host took the core in stretches the probes did not see, and the run's figure " \
      "may read slow (the row is marked)") \
    X(CHRONO_WARN_EMULATED, 15, \
      "emulated: timings are the emulator's (qemu, valgrind), not this machine's: read them for " \
      "correctness only; no cycles are estimated") \
    X(CHRONO_WARN_LOW_LEVEL, 16, \
      "too few samples, pairs or processes for the confidence asked: such an interval is shown " \
      "with the level it reaches, n/a for a single one, and its row is marked") \
    X(CHRONO_WARN_CYCLES_DISAGREE, 17, \
      "the PMU's core cycles and the reference chains' estimate disagree by more than 1%: one of " \
      "them is wrong here (the row is marked)") \
    X(CHRONO_WARN_OVERSUBSCRIBED, 18, \
      "a threaded run had more threads than CPUs it may use: its threads took turns, and their " \
      "times include each other's (the row is marked)")
/* Bits in chrono_env.warnings and chrono_session.warnings.  Set by the
   environment: DEBUG_BUILD, VM, FREQ_SCALING, LOAD, ASSERTS, EMULATED; by the
   session: UNPINNED, NO_INVARIANT_TSC, EMULATED (chrono_session_emulated); by a
   run (also in its chrono_result.warnings /
   chrono_comparison.warnings; the session keeps the union): MIGRATED,
   CONTENDED, SHARED_CORE, EMPTY_BODY, UNSTABLE, INTERRUPTED, SHORT_BODY, HOST_SLOWED,
   LOW_LEVEL (the statistics' ci_level below .confidence: 5 samples or fewer
   at 0.95), CYCLES_DISAGREE, OVERSUBSCRIBED (threads.h). */
/* CHRONO_WARN_LAST, the list's last bit, counted from the list; each entry's
   bit is its place in the list (a compile-time check), so the bits run from 1
   to CHRONO_WARN_LAST without a gap. */
#define CHRONO__WARNING_INDEX(name, bit, text) CHRONO__WARNING_AT_##name,
enum { CHRONO__WARNINGS(CHRONO__WARNING_INDEX) CHRONO__NWARNINGS };
#undef CHRONO__WARNING_INDEX
#define CHRONO__WARNING_ENUM(name, bit, text) name = 1u << bit,
enum { CHRONO__WARNINGS(CHRONO__WARNING_ENUM) CHRONO_WARN_LAST = 1u << (CHRONO__NWARNINGS - 1) };
#undef CHRONO__WARNING_ENUM
#define CHRONO__WARNING_PLACE(name, bit, text) \
    typedef char chrono__warning_place_##name[(bit) == CHRONO__WARNING_AT_##name ? 1 : -1];
CHRONO__WARNINGS(CHRONO__WARNING_PLACE)
#undef CHRONO__WARNING_PLACE

CHRONO__EXTERN_C_BEGIN
/* The text of an error code ("unknown chronoscope error" for any other int). */
CHRONO_API const char *chrono_strerror(int err);
/* One line of text for one CHRONO_WARN_* bit ("unknown environment warning" for
   anything else). */
CHRONO_API const char *chrono_env_warning(unsigned bit);
/* The bit's short name, its macro without CHRONO_WARN_ ("SHARED_CORE"); "UNKNOWN"
   for anything but one known bit.  CSV and JSON list a row's warnings by it. */
CHRONO_API const char *chrono_env_warning_name(unsigned bit);
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_BASE_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_BASE_IMPL)
#define CHRONOSCOPE_BASE_IMPL

#include <stdarg.h>
#include <string.h>
#include <math.h>
#include <stdlib.h>
#include <locale.h>

/* Allocation hooks: define both or neither. */
#if defined(CHRONO_MALLOC) != defined(CHRONO_FREE)
#  error "chronoscope.h: define both CHRONO_MALLOC and CHRONO_FREE, or neither"
#endif
#ifndef CHRONO_MALLOC
#  define CHRONO_MALLOC(size) malloc(size)
#  define CHRONO_FREE(ptr) free(ptr)
#endif

CHRONO__EXTERN_C_BEGIN

/* snprintf for text the library truncates on purpose (names in fixed cells):
   through va_list, so gcc's -Wformat-truncation (at -O1) does not flag the
   truncation it is meant to do. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
CHRONO__PRIVATE int chrono__bprintf(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}

/* CPUID, shared by the clock (TSC features) and cpu (brand, hypervisor)
   modules.  Returns 0 and fills r[4] = eax, ebx, ecx, edx, or -1 where the
   leaf is beyond the maximum the CPU reports or there is no CPUID. */
CHRONO__PRIVATE int chrono__cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
#if CHRONO_ARCH_X86 && (defined(__GNUC__) || defined(__clang__))
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
#elif CHRONO_ARCH_X86 && defined(_MSC_VER)
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

/* ---- small string helpers ---------------------------------------------- */
/* Truncating copy that always terminates dst. */
CHRONO__PRIVATE void chrono__str_copy(char *dst, size_t n, const char *src)
{
    size_t len = strlen(src);
    if (n == 0) return;
    if (len >= n) len = n - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* Truncating append to the terminated string in dst. */
CHRONO__PRIVATE void chrono__str_append(char *dst, size_t n, const char *src)
{
    size_t len = strlen(dst);
    if (len < n) chrono__str_copy(dst + len, n - len, src);
}

CHRONO__PRIVATE int chrono__is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Strip leading and trailing white space and fold inner runs to one space. */
CHRONO__PRIVATE void chrono__str_trim(char *s)
{
    size_t r = 0, w = 0;
    int space = 0;
    while (s[r] && chrono__is_space(s[r])) r++;
    for (; s[r]; r++) {
        if (chrono__is_space(s[r])) { space = 1; continue; }
        if (space && w > 0) s[w++] = ' ';
        space = 0;
        s[w++] = s[r];
    }
    s[w] = '\0';
}

/* "0,2,5-7" for the set bits of m. */
CHRONO__PRIVATE void chrono__mask_list(char *out, size_t n, unsigned long long m)
{
    size_t len = 0;
    int i, first = 1;
    char item[8];
    if (n == 0) return;
    out[0] = '\0';
    for (i = 0; i < 64; i++) {
        int j = i;
        if (!((m >> i) & 1u)) continue;
        while (j + 1 < 64 && ((m >> (j + 1)) & 1u)) j++;
        if (j > i + 1) (void)chrono__bprintf(item, sizeof item, "%s%d-%d", first ? "" : ",", i, j);
        else if (j == i + 1) {
            (void)chrono__bprintf(item, sizeof item, "%s%d,%d", first ? "" : ",", i, j);
        } else (void)chrono__bprintf(item, sizeof item, "%s%d", first ? "" : ",", i);
        if (len + strlen(item) + 1 > n) break;
        memcpy(out + len, item, strlen(item) + 1);
        len += strlen(item);
        first = 0;
        i = j;
    }
}

CHRONO__PRIVATE int chrono__popcount(unsigned long long m)
{
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

CHRONO__PRIVATE int chrono__finite(double v) { return v == v && v - v == 0; }

/* Decimal digits of v into buf (at least 21 bytes). */
CHRONO__PRIVATE const char *chrono__u64(char *buf, uint64_t v)
{
    char tmp[24];
    size_t n = 0, i;
    do { tmp[n++] = (char)('0' + (int)(v % 10)); v /= 10; } while (v);
    for (i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
    return buf;
}

/* snprintf of one double with '.' as the decimal point whatever LC_NUMERIC says. */
CHRONO__PRIVATE const char *chrono__num(char *buf, size_t n, const char *fmt, double v)
{
    const char *dp = localeconv()->decimal_point;
    char *p;
    if (chrono__bprintf(buf, n, fmt, v) < 0 && n) buf[0] = '\0';
    if (dp && dp[0] && dp[0] != '.' && !dp[1])
        for (p = buf; *p; p++)
            if (*p == dp[0]) *p = '.';
    return buf;
}

/* A signature that repeats one word to fill CPUID's 12 bytes, as "bhyve bhyve",
   "KVMKVMKVM" or "VMwareVMware", down to the word once. */
CHRONO__PRIVATE void chrono__str_unrepeat(char *s)
{
    size_t len = strlen(s), k, u, i;
    for (k = 4; k >= 2; k--) {
        for (u = 1; u * k <= len; u++) {
            size_t sep = (len - u * k) / (k - 1);
            int same = (len - u * k) % (k - 1) == 0 && sep <= 1;
            for (i = 1; same && i < k; i++) {
                same = memcmp(s, s + i * (u + sep), u) == 0;
                if (same && sep) same = s[i * (u + sep) - 1] == ' ';
            }
            if (same && u * k + sep * (k - 1) == len) { s[u] = '\0'; return; }
        }
    }
}

/* CPUID's hypervisor bit (leaf 1 ECX[31]) and, under a hypervisor, the
   signature of leaf 0x40000000 trimmed and without repeats ("KVM", "bhyve",
   "" elsewhere) and, when max_leaf is not NULL, the highest hypervisor leaf
   (0 when none).  The clock (its rate leaf) and the environment both ask. */
CHRONO__PRIVATE int chrono__hypervisor(char vendor[16], uint32_t *max_leaf)
{
    uint32_t r[4];
    int in_vm = chrono__cpuid(1, 0, r) == 0 && ((r[2] >> 31) & 1u);
    vendor[0] = '\0';
    if (max_leaf) *max_leaf = 0;
    if (in_vm && chrono__cpuid(0x40000000u, 0, r) == 0) {
        memcpy(vendor, &r[1], 4); memcpy(vendor + 4, &r[2], 4); memcpy(vendor + 8, &r[3], 4);
        vendor[12] = '\0';
        chrono__str_trim(vendor);
        chrono__str_unrepeat(vendor);
        if (max_leaf) *max_leaf = r[0];
    }
    return in_vm;
}

/* Nonzero when the program runs under valgrind: its documented client request
   RUNNING_ON_VALGRIND (0x1001), the "special instruction" sequence of
   valgrind.h.  The rotations add up to a whole turn and the xchg of a register
   with itself does nothing, so on real hardware the default (0) comes back;
   valgrind's JIT recognises the sequence and answers.  Its CPUID may offer
   RDTSCP that it cannot run (valgrind 3.19 on CPUs without it: SIGILL).  The
   clock (its stop instruction) and the environment (an emulator) both ask. */
CHRONO__PRIVATE int chrono__under_valgrind(void)
{
    volatile uintptr_t args[6] = { 0x1001, 0, 0, 0, 0, 0 };
    uintptr_t result = 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __asm__ __volatile__(
        "rolq $3, %%rdi\n\trolq $13, %%rdi\n\trolq $61, %%rdi\n\trolq $51, %%rdi\n\txchgq %%rbx, "
        "%%rbx"
        : "=d"(result)
        : "a"(&args[0]), "0"(result)
        : "cc", "memory");
#elif defined(__i386__) && (defined(__GNUC__) || defined(__clang__))
    __asm__ __volatile__(
        "roll $3, %%edi\n\troll $13, %%edi\n\troll $29, %%edi\n\troll $19, %%edi\n\txchgl %%ebx, "
        "%%ebx"
        : "=d"(result)
        : "a"(&args[0]), "0"(result)
        : "cc", "memory");
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
    __asm__ __volatile__(
        "mov x3, %1\n\tmov x4, %2\n\tror x12, x12, #3\n\tror x12, x12, #13\n\tror x12, x12, "
        "#51\n\tror x12, x12, #61\n\torr x10, x10, x10\n\tmov %0, x3"
        : "=r"(result)
        : "r"(result), "r"(&args[0])
        : "cc", "memory", "x3", "x4");
#endif
    (void)args;
    return result != 0;
}

CHRONO_API const char *chrono_strerror(int err)
{
#define CHRONO__ERROR_CASE(name, value, text) case name: return text;
    switch (err) {
    CHRONO__ERRORS(CHRONO__ERROR_CASE)
    default: return "unknown chronoscope error";
    }
#undef CHRONO__ERROR_CASE
}

CHRONO_API const char *chrono_env_warning(unsigned bit)
{
#define CHRONO__WARNING_CASE(name, b, text) case name: return text;
    switch (bit) {
    CHRONO__WARNINGS(CHRONO__WARNING_CASE)
    default: return "unknown environment warning";
    }
#undef CHRONO__WARNING_CASE
}

CHRONO_API const char *chrono_env_warning_name(unsigned bit)
{
#define CHRONO__WARNING_NAME(name, b, text) case name: return &#name[12];   /* past "CHRONO_WARN_" */
    switch (bit) {
    CHRONO__WARNINGS(CHRONO__WARNING_NAME)
    default: return "UNKNOWN";
    }
#undef CHRONO__WARNING_NAME
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_BASE_IMPL */

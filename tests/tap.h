/* tests/tap.h — a minimal TAP producer shared by the test programs.
   TAP_OK(cond, fmt, ...) prints "ok N - ..." or "not ok N - ..."; tap_done()
   prints the plan and returns the exit status (0 all passed, 1 otherwise —
   never a failure count, which meson would read as 77 = skipped). */
#ifndef CHRONO_TEST_TAP_H
#define CHRONO_TEST_TAP_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <math.h>
#include <time.h>

static int tap__n, tap__failed;

/* Whether a description holds what a TAP reader takes for a directive ('#',
   spaces, then SKIP... or TODO): meson would count such a check as skipped
   whatever it found, so tap_ok fails it instead. */
static inline int tap__reads_as_directive(const char *s)
{
    static const char *const words[] = { "skip", "todo" };
    for (s = strchr(s, '#'); s; s = strchr(s + 1, '#')) {
        const char *p = s + 1;
        size_t w, i;
        while (*p == ' ' || *p == '\t') p++;
        for (w = 0; w < 2; w++) {
            for (i = 0; i < 4 && tolower((unsigned char)p[i]) == words[w][i]; i++) {}
            if (i == 4) return 1;
        }
    }
    return 0;
}

static inline int tap_ok(int cond, const char *fmt, ...)
{
    char what[8192];
    const char *c;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (tap__reads_as_directive(what)) {
        printf("not ok %d - (a test's bug: its description holds a TAP directive) ", ++tap__n);
        for (c = what; *c; c++) {
            if (*c == '#') fputs("\\x23", stdout);
            else putchar(*c);
        }
        printf("\n");
        fflush(stdout);
        tap__failed++;
        return 0;
    }
    printf("%sok %d - %s\n", cond ? "" : "not ", ++tap__n, what);
    fflush(stdout);
    if (!cond) tap__failed++;
    return cond;
}

static inline void tap_skip(const char *why)
{
    printf("ok %d # SKIP %s\n", ++tap__n, why);
}

static inline void tap_diag(const char *fmt, ...)
{
    va_list ap;
    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

static inline int tap_done(void)
{
    printf("1..%d\n", tap__n);
    return tap__failed ? 1 : 0;
}

/* Emulators (qemu-user, wine) run correct but slow and jittery: tests that
   compare against the host's clock use loose bounds there.  CI sets
   CHRONO_TEST_EMULATED=1 for those runs. */
static inline int tap_emulated(void)
{
    const char *e = getenv("CHRONO_TEST_EMULATED");
    return e && *e && *e != '0';
}

/* Other work on the machine (Linux): how many CPUs' worth of time went to
   anything but this process (other programs, the kernel, the host's steal)
   between tap_load_start and tap_load_others, from /proc/stat's counters less
   this process's clock().  NAN where /proc/stat cannot be read.  A check that
   needs a quiet machine, and fails while that exceeds TAP_BUSY, skips with
   the reason instead (tap_ok_quiet): the figure it needs cannot be had on a
   busy machine, and a test that fails without a fault is a bug. */
#define TAP_BUSY 0.25
typedef struct tap_load { double busy, total, own; int ncpu; } tap_load;

static inline int tap__stat(double *busy, double *total, int *ncpu)
{
    FILE *f = fopen("/proc/stat", "r");
    char line[512];
    double v[10] = { 0 };
    int n;
    *busy = *total = NAN;
    *ncpu = 0;
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "cpu ", 4)) {
            n = sscanf(line + 4, "%lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                       &v[6], &v[7]);
            if (n < 4) break;
            *total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
            *busy = *total - v[3] - v[4];   /* less idle and iowait; steal counts as busy */
        } else if (!strncmp(line, "cpu", 3) && line[3] >= '0' && line[3] <= '9') {
            (*ncpu)++;
        }
    }
    fclose(f);
    return *total == *total && *ncpu > 0 ? 0 : -1;
}

static inline void tap_load_start(tap_load *l)
{
    if (tap__stat(&l->busy, &l->total, &l->ncpu) < 0) l->ncpu = 0;
    l->own = (double)clock() / CLOCKS_PER_SEC;
}

static inline double tap_load_others(const tap_load *l)
{
    double busy, total, own = (double)clock() / CLOCKS_PER_SEC, wall;
    int ncpu;
    if (l->ncpu <= 0 || tap__stat(&busy, &total, &ncpu) < 0 || total <= l->total) return NAN;
    wall = (total - l->total) / l->ncpu;              /* in clock ticks (USER_HZ) */
    return ((busy - l->busy) - (own - l->own) * 100.0) / wall;   /* USER_HZ is 100 on Linux */
}

/* tap_ok, except that a failure while other work took more than TAP_BUSY of
   a CPU (since l's start) is a skip naming that load. */
static inline int tap_ok_quiet(int cond, const tap_load *l, const char *fmt, ...)
{
    char what[512];
    double others = tap_load_others(l);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!cond && others > TAP_BUSY) {
        printf("ok %d # SKIP needs a quiet machine: other work took %.2f CPUs meanwhile (over %.2f): %s\n",
               ++tap__n, others, TAP_BUSY, what);
        fflush(stdout);
        return 1;
    }
    return tap_ok(cond, "%s", what);
}
/* TAP_ASAN: 1 when compiled with AddressSanitizer, whose checks slow the code
   under test (each load and store of a small body checked) and fault in shadow
   pages beside the program's own. */
#if defined(__SANITIZE_ADDRESS__)
#  define TAP_ASAN 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define TAP_ASAN 1
#  endif
#endif
#ifndef TAP_ASAN
#  define TAP_ASAN 0
#endif

#endif

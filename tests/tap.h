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
#include <math.h>

static int tap__n, tap__failed;

static inline int tap_ok(int cond, const char *fmt, ...)
{
    va_list ap;
    printf("%sok %d - ", cond ? "" : "not ", ++tap__n);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
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
#endif

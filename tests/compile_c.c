/* Compiles the whole library, declarations and implementation (a private
   copy: CHRONO_STATIC), under the C standard the build gives it, and touches
   enough of the API that a missing declaration fails the build. */
#define CHRONO_STATIC
#include <chronoscope.h>
#include <string.h>
int main(void)
{
    chrono_clock c;
    uint64_t t0, t1;
    int rc = chrono_clock_open(&c, CHRONO_CLOCK_AUTO);
    if (rc < 0) return 1;
    t0 = chrono_clock_start(&c);
    t1 = chrono_clock_stop(&c);
    chrono_keep(t1);                 /* an lvalue, everywhere */
#if !defined(CHRONO__KEEP_PORTABLE) || defined(__cplusplus)
    chrono_keep(t1 - t0);            /* any expression (GNU asm, or C++) */
    chrono_keep(strlen("abc") + 1);
#endif
    return t1 >= t0 ? 0 : 1;
}

/* tests/baseline_prog.c — a program table for --save / --compare's tests:
   "body" runs CHRONO_TEST_WORK (default 10) chains of 100 dependent adds an
   iteration (30: 3x the work), "fixed" always 10.  Every common flag is
   chrono_main's. */
#include <chronoscope.h>

#include <stdlib.h>

#include "chains.h"

#if TEST_HAVE_CHAINS
TEST_CHAIN(chain_100, "add", 100)
#else
static void chain_100(void *ctx, uint64_t iters)
{
    volatile uint64_t x = 0;
    uint64_t i, k;
    (void)ctx;
    for (i = 0; i < iters; i++)
        for (k = 0; k < 100; k++) x = x + 1;
}
#endif

static void work(void *ctx, uint64_t iters)
{
    uint64_t i;
    long k, n = *(const long *)ctx;
    for (i = 0; i < iters; i++)
        for (k = 0; k < n; k++) chain_100(NULL, 1);
}

int main(int argc, char **argv)
{
    static long body = 10, fixed = 10;
    const char *w = getenv("CHRONO_TEST_WORK");
    chrono_entry table[2];
    if (w) body = strtol(w, NULL, 10);
    table[0] = chrono_bench("body", work, &body);
    table[1] = chrono_bench("fixed", work, &fixed);
    return chrono_main(argc, argv, table, 2);
}

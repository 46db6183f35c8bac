/* tests/cmd_spin.c — a command of known work for chronoscope-cmd's tests:
       cmd_spin N [EXIT]
   runs N million dependent adds (1 core cycle each; tests/chains.h) and
   exits with EXIT (default 0).  Twice N is twice the work, whatever the clock. */
#include <stdint.h>
#include <stdlib.h>

#include "chains.h"

#if TEST_HAVE_CHAINS
TEST_CHAIN(spin_1000, "add", 1000)
#else
static void spin_1000(void *ctx, uint64_t iters)
{
    volatile uint64_t x = 0;
    uint64_t i, k;
    (void)ctx;
    for (i = 0; i < iters; i++)
        for (k = 0; k < 1000; k++) x = x + 1;
}
#endif

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1;
    if (n < 0) return 2;
    spin_1000(NULL, (uint64_t)n * 1000u);
    return argc > 2 ? atoi(argv[2]) : 0;
}

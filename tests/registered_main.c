/* registered_main — a benchmark program without a table: three
   CHRONO_BENCHMARK lines and CHRONO_MAIN() (program.h).  check_register.py
   runs it: --list names the three in source order (not alphabetical), a run
   measures each, --filter works on them. */
#include <chronoscope.h>

static void add_loop(void *ctx, uint64_t iters)
{
    uint64_t i, x = ctx ? *(const uint64_t *)ctx : 1;
    for (i = 0; i < iters; i++) { x += i; chrono_keep(x); }
}

static void mul_loop(void *ctx, uint64_t iters)
{
    uint64_t i, x = 3;
    (void)ctx;
    for (i = 0; i < iters; i++) { x *= 2862933555777941757ull; chrono_keep(x); }
}

static void xor_loop(void *ctx, uint64_t iters)
{
    uint64_t i, x = 7;
    (void)ctx;
    for (i = 0; i < iters; i++) { x ^= i << 3; chrono_keep(x); }
}

static uint64_t seed = 5;

CHRONO_BENCHMARK("zeta_add", add_loop, &seed);
CHRONO_BENCHMARK("alpha_mul", mul_loop, NULL);
CHRONO_BENCHMARK("mid_xor", xor_loop, NULL);

CHRONO_MAIN()

/* ab_module.c — a small benchmark module for check_ab.py, in three builds:
     AB_VARIANT=0  base: "add" (1000 steps of 4 dependent adds), "same" (the same), "only_base"
     AB_VARIANT=1  head: "add" does 3000 steps (its count is data: the code and its
                   addresses stay the base's), "same" unchanged, "only_head"
     AB_VARIANT=2  no entry in common with the others */
#include <chronoscope.h>

/* One add a step would leave the loop bound by its taken branch, whose speed on
   this Zen 5 VM switches between two modes (1.00 and 1.06 cycles a step, see
   examples/ab_suite.c): check_ab.py read "add" at 4.0x for 3x the work. */

#ifndef AB_VARIANT
#  define AB_VARIANT 0
#endif

static uint64_t same_n = 1000;
#if AB_VARIANT != 2
static uint64_t add_n = AB_VARIANT == 1 ? 3000 : 1000;
#endif

static void adds(void *ctx, uint64_t iters)
{
    uint64_t i, k, n = *(const uint64_t *)ctx, x = 1;
    for (i = 0; i < iters; i++)
        for (k = 0; k < n; k++) {   /* four dependent adds a step: bound by the adds, not the loop's branch */
            x += k; chrono_keep(x); x += k; chrono_keep(x);
            x += k; chrono_keep(x); x += k; chrono_keep(x);
        }
}

static size_t table(const chrono_entry **t)
{
    static chrono_entry e[3];
#if AB_VARIANT == 2
    e[0] = chrono_bench("other", adds, &same_n);
    *t = e;
    return 1;
#else
    e[0] = chrono_bench("add", adds, &add_n);
    e[1] = chrono_bench("same", adds, &same_n);
    e[2] = chrono_bench(AB_VARIANT ? "only_head" : "only_base", adds, &same_n);
    *t = e;
    return 3;
#endif
}

CHRONO_MODULE(table)

/* quickstart — sum an array in order and with a stride, then compare the two side by side. */
#include <chronoscope.h>
static double data[1 << 14];

static void sum(void *ctx, uint64_t iters) /* ctx: the stride */
{
    int stride = *(const int *)ctx;
    for (uint64_t i = 0; i < iters; i++) {
        double s = 0;
        for (int k = 0; k < stride; k++)
            for (int j = k; j < (1 << 14); j += stride) s += data[j];
        chrono_keep(s);
    }
}

int main(int argc, char **argv)
{
    static int one = 1, wide = 64;
    chrono_entry table[3];
    table[0] = chrono_with_bytes(chrono_bench("sum_in_order", sum, &one), sizeof data);
    table[1] = chrono_with_bytes(chrono_bench("sum_stride_64", sum, &wide), sizeof data);
    table[2] = chrono_versus("in_order", sum, &one, "stride_64", sum, &wide);
    return chrono_main(argc, argv, table, 3);   /* every common flag; 1 if a run failed */
}

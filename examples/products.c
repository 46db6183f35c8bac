/* products — a benchmark at every combination of parameter lists (Google
   Benchmark's ArgsProduct): sum n doubles with stride s, for n in {1024, 4096,
   16384} and s in {1, 16}; six runs named sum/1024/1 .. sum/16384/16, and a
   fit of ns against n for each stride.  Every common flag (--filter, --list ...). */
#include <chronoscope.h>

static double data[16384 * 16];

static void sum(void *ctx, const uint64_t *a, uint64_t iters)   /* a[0]: n, a[1]: the stride */
{
    const double *d = (const double *)ctx;   /* the data through ctx: its address escapes */
    for (uint64_t i = 0; i < iters; i++) {
        double s = 0;
        for (uint64_t j = 0; j < a[0]; j++) s += d[j * a[1]];
        chrono_keep(s);
    }
}

int main(int argc, char **argv)
{
    static const uint64_t sizes[] = { 1024, 4096, 16384 }, strides[] = { 1, 16 };
    chrono_entry table[1];
    for (size_t j = 0; j < sizeof data / sizeof data[0]; j++) data[j] = (double)(j % 7);
    table[0] = chrono_product_entry("sum", sum, data);
    table[0] = chrono_with_args(chrono_with_args(table[0], sizes, 3), strides, 2);
    table[0] = chrono_with_fit(table[0], 0);   /* ns = fixed + per_unit x n, one fit a stride */
    return chrono_main(argc, argv, table, 1);
}

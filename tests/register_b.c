/* register_b — a registration in a second file of test_register. */
#include <chronoscope.h>

static void body_b(void *ctx, uint64_t iters) { (void)ctx; (void)iters; }

const char *register_b_name = "from_b", *register_b_file = __FILE__;
CHRONO_BENCHMARK("from_b", body_b, NULL);

/* test_register — CHRONO_BENCHMARK / CHRONO_BENCHMARK_ENTRY (program.h): the
   registering functions ran before main, on every compiler CI has (gcc,
   clang, mingw under wine); the registry holds each entry as written, in
   source order (file name, then line), across two files; registering a node
   twice keeps it once; chrono_registered_entries fills at most cap. */
#include <chronoscope.h>
#include "tap.h"

static void body(void *ctx, uint64_t iters) { (void)ctx; (void)iters; }
static int ctx_a, ctx_b;
static const uint64_t params[2] = { 8, 64 };
static void sweep_body(void *ctx, uint64_t param, uint64_t iters) { (void)ctx; (void)param; (void)iters; }

CHRONO_BENCHMARK("zeta", body, &ctx_a);
CHRONO_BENCHMARK_ENTRY(chrono_with_bytes(chrono_bench("alpha", body, &ctx_b), 64));
CHRONO_BENCHMARK_ENTRY(chrono_sweep_entry("mid", sweep_body, NULL, params, 2));

extern const char *register_b_name, *register_b_file;   /* register_b.c: its registration's name, its __FILE__ */

int main(void)
{
    chrono_entry e[8];
    size_t n = chrono_registered_entries(e, 8), i, b_at = 8;
    const char *want[3] = { "zeta", "alpha", "mid" };
    chrono_registered again;
    int sorted = 1;
    tap_ok(n == 4, "four registrations before main (got %zu)", n);
    for (i = 0; i < n && i < 8; i++)
        if (e[i].name && !strcmp(e[i].name, register_b_name)) b_at = i;
    tap_ok(b_at < n, "register_b.c's entry is there (at %zu)", b_at);
    {
        size_t k = 0;
        int same = 1;
        for (i = 0; i < n && i < 8; i++) if (i != b_at) same &= k < 3 && !strcmp(e[i].name, want[k++]);
        tap_ok(same && k == 3, "this file's three in source order: zeta, alpha, mid (not alphabetical)");
    }
    /* register_b.c sorts before or after this file by its file name */
    tap_ok(b_at == (strcmp(register_b_file, __FILE__) < 0 ? 0u : 3u), "the other file's entry placed by file name (%s vs %s: at %zu)",
           register_b_file, __FILE__, b_at);
    for (i = 0; i < n && i < 8; i++) if (i != b_at) sorted &= e[i].fn == body || e[i].sweep_fn == sweep_body;
    tap_ok(sorted && e[b_at == 0 ? 1 : 0].ctx == &ctx_a && e[b_at <= 1 ? 2 : 1].bytes == 64 &&
           e[b_at <= 2 ? 3 : 2].kind == CHRONO_ENTRY_SWEEP && e[b_at <= 2 ? 3 : 2].nparams == 2,
           "each entry as its expression made it (body, ctx, bytes, a sweep's parameters)");
    tap_ok(chrono_registered_entries(e, 2) == 4 && chrono_registered_entries(NULL, 0) == 4,
           "chrono_registered_entries: the count of all, whatever cap");
    memset(&again, 0, sizeof again);
    again.entry = chrono_bench("late", body, NULL);
    again.file = "zzz.c";
    chrono_register(&again);
    chrono_register(&again);
    chrono_register(NULL);
    n = chrono_registered_entries(e, 8);
    tap_ok(n == 5 && !strcmp(e[4].name, "late"), "a node registered twice is there once, last by file name (n %zu)", n);
    return tap_done();
}

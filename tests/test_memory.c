/* Memory figures per run: page faults per iteration, peak RSS growth, and
   the allocator hook (chrono_config.memory_hook). */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#  define _GNU_SOURCE 1
#endif
#include <chronoscope.h>
#include "tap.h"
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#  include <sys/mman.h>
#  include <unistd.h>
#endif

static chrono_config cfg_quick(void)
{
    chrono_config c;
    memset(&c, 0, sizeof c);
    c.samples = 11;
    c.warmup_ms = 2;
    c.max_ms = 400;
    return c;
}

static void adds(void *ctx, uint64_t iters)
{
    uint64_t x = 0;
    (void)ctx;
    for (uint64_t i = 0; i < iters; i++) { x += i; chrono_keep(x); }
}

/* ---- the allocator hook: a counting malloc wrapper -------------------------------- */
typedef struct counter { uint64_t allocs, bytes; int on; } counter;
static counter g_count;
static void *counted_malloc(size_t n)
{
    if (g_count.on) { g_count.allocs++; g_count.bytes += n; }
    return malloc(n);
}
static void hook_start(void *user) { counter *c = (counter *)user; c->allocs = c->bytes = 0; c->on = 1; }
static void hook_stop(void *user, uint64_t *allocs, uint64_t *bytes)
{
    counter *c = (counter *)user;
    c->on = 0;
    *allocs = c->allocs;
    *bytes = c->bytes;
}
static void two_allocs(void *ctx, uint64_t iters)
{
    (void)ctx;
    for (uint64_t i = 0; i < iters; i++) {
        void *a = counted_malloc(100), *b = counted_malloc(28);
        chrono_keep(a); chrono_keep(b);
        free(a); free(b);
    }
}

static void test_hook(void)
{
    chrono_memory_hook h;
    chrono_config c = cfg_quick();
    chrono_session s;
    chrono_result r;
    int rc;
    h.start = hook_start; h.stop = hook_stop; h.user = &g_count;
    c.memory_hook = &h;
    rc = chrono_session_open(&s, &c);
    if (rc < 0) { tap_ok(0, "session opens (%s)", chrono_strerror(rc)); return; }
    rc = chrono_run(&s, "two allocs", two_allocs, NULL, &r);
    tap_ok(rc == 0 && r.allocs_per_iter == 2.0 && r.alloc_bytes_per_iter == 128.0,
           "the hook counts 2 allocations and 128 bytes an iteration (%.3f, %.3f)", r.allocs_per_iter, r.alloc_bytes_per_iter);
    chrono_session_close(&s);
    c.memory_hook = NULL;
    rc = chrono_session_open(&s, &c);
    if (rc == 0) {
        rc = chrono_run(&s, "adds", adds, NULL, &r);
        tap_ok(rc == 0 && r.allocs_per_iter != r.allocs_per_iter, "without a hook the allocation figures are NAN");
        chrono_session_close(&s);
    }
}

#if defined(__linux__)
#  define MAP_BYTES (4u << 20)
/* A fresh 4 MiB mapping an iteration, huge pages off, every page touched. */
static void fresh_map(void *ctx, uint64_t iters)
{
    long page = *(long *)ctx;
    for (uint64_t i = 0; i < iters; i++) {
        char *p = (char *)mmap(NULL, MAP_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        size_t k;
        if (p == MAP_FAILED) return;
#  if defined(MADV_NOHUGEPAGE)
        (void)madvise(p, MAP_BYTES, MADV_NOHUGEPAGE);
#  endif
        for (k = 0; k < MAP_BYTES; k += (size_t)page) p[k] = 1;
        chrono_keep(p);
        munmap(p, MAP_BYTES);
    }
}

static void test_faults(void)
{
    chrono_config c = cfg_quick();
    chrono_session s;
    chrono_result r;
    long page = sysconf(_SC_PAGESIZE);
    double pages = (double)MAP_BYTES / (double)page;
    int rc = chrono_session_open(&s, &c);
    if (rc < 0) { tap_ok(0, "session opens (%s)", chrono_strerror(rc)); return; }
    rc = chrono_run(&s, "fresh 4 MiB", fresh_map, &page, &r);
    tap_diag("fresh 4 MiB: %.2f minor, %.2f major faults an iteration, peak RSS +%.0f KiB, %llu iterations a sample",
             r.faults_minor_per_iter, r.faults_major_per_iter, r.max_rss_growth_bytes / 1024,
             (unsigned long long)r.iters_per_sample);
    tap_ok(rc == 0 && fabs(r.faults_minor_per_iter / pages - 1) <= 0.02,
           "a fresh 4 MiB mapping touched page by page: %.2f minor faults an iteration (%.0f pages +- 2%%)",
           r.faults_minor_per_iter, pages);
    rc = chrono_run(&s, "adds", adds, NULL, &r);
    tap_ok(rc == 0 && r.faults_minor_per_iter >= 0 && r.faults_minor_per_iter < 0.001 && r.faults_major_per_iter < 0.001,
           "a body touching nothing new: %.2g minor, %.2g major faults an iteration (~0)", r.faults_minor_per_iter,
           r.faults_major_per_iter);
    tap_ok(rc == 0 && r.max_rss_growth_bytes >= 0, "peak RSS growth is known on Linux (%.0f bytes)", r.max_rss_growth_bytes);
    chrono_session_close(&s);
}
#else
static void test_faults(void)
{
    tap_skip("page faults per iteration: the 4 MiB mapping test uses Linux's mmap/madvise");
    tap_skip("page faults per iteration: the 4 MiB mapping test uses Linux's mmap/madvise");
    tap_skip("page faults per iteration: the 4 MiB mapping test uses Linux's mmap/madvise");
}
#endif

/* Every format carries the figures. */
static void test_reports(void)
{
    chrono_config c = cfg_quick();
    chrono_session s;
    chrono_result r;
    char buf[65536];
    FILE *f;
    size_t n;
    int rc = chrono_session_open(&s, &c);
    if (rc < 0) { tap_ok(0, "session opens"); return; }
    (void)chrono_run(&s, "adds", adds, NULL, &r);
    s.results[0].faults_minor_per_iter = 1024;   /* as a faulting body would show */
    f = tmpfile();
    if (!f) { tap_skip("tmpfile"); chrono_session_close(&s); return; }
    chrono_report(&s, f, CHRONO_FORMAT_JSON);
    rewind(f); n = fread(buf, 1, sizeof buf - 1, f); buf[n] = 0;
    tap_ok(strstr(buf, "\"page_faults_minor_per_iteration\": 1024") && strstr(buf, "\"max_rss_growth_bytes\"") &&
           strstr(buf, "\"allocs_per_iteration\"") && strstr(buf, "\"alloc_bytes_per_iteration\""),
           "JSON: page_faults_minor_per_iteration, max_rss_growth_bytes, allocs_per_iteration, alloc_bytes_per_iteration");
    rewind(f); chrono_report(&s, f, CHRONO_FORMAT_CSV); fflush(f);
    n = (size_t)ftell(f); rewind(f); n = fread(buf, 1, n < sizeof buf - 1 ? n : sizeof buf - 1, f); buf[n] = 0;
    tap_ok(strstr(buf, "page_faults_minor_per_iteration,page_faults_major_per_iteration,max_rss_growth_bytes,"
                       "allocs_per_iteration,alloc_bytes_per_iteration") != NULL, "CSV: the memory columns");
    rewind(f); chrono_report(&s, f, CHRONO_FORMAT_TEXT); fflush(f);
    n = (size_t)ftell(f); rewind(f); n = fread(buf, 1, n < sizeof buf - 1 ? n : sizeof buf - 1, f); buf[n] = 0;
    tap_ok(strstr(buf, "memory adds: 1024 minor") != NULL, "text: a memory line for a run that faulted");
    fclose(f);
    chrono_session_close(&s);
}

int main(void)
{
    test_hook();
    test_faults();
    test_reports();
    return tap_done();
}

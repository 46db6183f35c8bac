/* counters: perf_event counters per iteration beside the time (counters.h).
   Two bodies whose counts are known: one sleeps 50 us an iteration (one
   context switch each), one touches a fresh page an iteration (one page
   fault each: the region is mapped outside the timed region, and given back
   with MADV_DONTNEED when the body has touched it all).  The third asks for
   its own counter in the table.

       ./counters --counters=context-switches,page-faults,task-clock
       ./counters --counters=instructions      (no PMU: said once, no figure)

   Linux only (the kernel's counters). */
#define _GNU_SOURCE 1
#include <chronoscope.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

typedef struct pages { char *base; size_t size, page, next; } pages;

static void sleep_50us(void *ctx, uint64_t iters)
{
    struct timespec ts = { 0, 50000 };
    (void)ctx;
    for (uint64_t i = 0; i < iters; i++) nanosleep(&ts, NULL);
}

static void fresh_page(void *ctx, uint64_t iters)
{
    pages *p = (pages *)ctx;
    for (uint64_t i = 0; i < iters; i++) {
        if (p->next + p->page > p->size) {   /* all touched: fresh again (rare; one outlier sample) */
            madvise(p->base, p->size, MADV_DONTNEED);
            p->next = 0;
        }
        p->base[p->next] = 1;
        p->next += p->page;
    }
    chrono_clobber();
}

static void add_chain(void *ctx, uint64_t iters)
{
    uint64_t x = (uint64_t)(uintptr_t)ctx;
    for (uint64_t i = 0; i < iters; i++) { x += i; chrono_keep(x); }
}

int main(int argc, char **argv)
{
    static pages p;
    chrono_entry table[3];
    p.page = (size_t)sysconf(_SC_PAGESIZE);
    p.size = (size_t)64 << 20;
    p.base = (char *)mmap(NULL, p.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p.base == MAP_FAILED) { perror("mmap"); return 1; }
#ifdef MADV_NOHUGEPAGE
    madvise(p.base, p.size, MADV_NOHUGEPAGE);   /* a huge page would be one fault for 512 pages */
#endif
    table[0] = chrono_with_blocking(chrono_bench("sleep_50us", sleep_50us, NULL));
    table[1] = chrono_bench("fresh_page", fresh_page, &p);
    table[2] = chrono_with_counters(chrono_bench("add_chain", add_chain, NULL), "task-clock");
    int rc = chrono_main(argc, argv, table, 3);
    munmap(p.base, p.size);
    return rc;
}

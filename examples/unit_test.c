/* unit_test — performance expectations as a unit test (TAP version 13).

   The claims: libc's memchr is at least 2x faster than a byte loop over
   4 KiB; binary search over 4096 sorted keys is at least 5x faster than a
   linear scan; a linear scan grows like O(n); one memchr of 4 KiB stays under
   10 us (an absolute budget: fragile across machines, shown for the form).

   Usage: unit_test [common flags] [--budget-ms=X] [--alpha=X]
   meson:  test('unit_test', exe, protocol: 'tap', is_parallel: false)
   prove:  prove --exec '' build/examples/unit_test */
#include <chronoscope.h>
#include <string.h>

#define KEYS 4096
/* next: the key searched next, kept here and not taken from the loop index:
   the two sides of a pair run different iteration counts (each sized on its
   own), and every sample of either must search the whole table alike.  A
   stride of 1597 (odd: it visits all 4096 keys) spreads even a few
   successive searches over the table. */
typedef struct { unsigned char bytes[4096]; uint32_t keys[KEYS]; uint32_t next; } data;

static uint32_t next_key(data *d) { d->next = (d->next + 1597) % KEYS; return d->next * 3; }

static void find_memchr(void *ctx, uint64_t iters)
{
    data *d = (data *)ctx;
    for (uint64_t i = 0; i < iters; i++) {
        const void *p = memchr(d->bytes, 0xff, sizeof d->bytes);
        chrono_keep(p);
    }
}

static void find_loop(void *ctx, uint64_t iters)
{
    data *d = (data *)ctx;
    for (uint64_t i = 0; i < iters; i++) {
        size_t k = 0;
        while (k < sizeof d->bytes && d->bytes[k] != 0xff) { k++; chrono_keep(k); }
        chrono_keep(k);
    }
}

static size_t linear(const uint32_t *keys, size_t n, uint32_t want)
{
    size_t k = 0;
    while (k < n && keys[k] != want) { k++; chrono_keep(k); }
    return k;
}

static size_t binary(const uint32_t *keys, size_t n, uint32_t want)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < want) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static void search_linear(void *ctx, uint64_t iters)
{
    data *d = (data *)ctx;
    for (uint64_t i = 0; i < iters; i++) { size_t k = linear(d->keys, KEYS, next_key(d)); chrono_keep(k); }
}

static void search_binary(void *ctx, uint64_t iters)
{
    data *d = (data *)ctx;
    for (uint64_t i = 0; i < iters; i++) { size_t k = binary(d->keys, KEYS, next_key(d)); chrono_keep(k); }
}

static void scan_n(void *ctx, uint64_t n, uint64_t iters)   /* a sweep body: n is the param */
{
    data *d = (data *)ctx;
    for (uint64_t i = 0; i < iters; i++) { size_t k = linear(d->keys, (size_t)n, UINT32_MAX); chrono_keep(k); }
}

static data d;
static const uint64_t sizes[] = { 256, 512, 1024, 2048, 4096 };
static const chrono_check_entry checks[] = {
    CHRONO_CHECK_FASTER("memchr at least 2x faster than a byte loop", find_memchr, &d, find_loop, &d, 2.0),
    CHRONO_CHECK_FASTER("binary search at least 5x faster than linear", search_binary, &d, search_linear, &d, 5.0),
    CHRONO_CHECK_SCALING("linear scan grows like O(n)", scan_n, &d, sizes, 5, CHRONO_O_N),
    CHRONO_CHECK_BELOW("memchr of 4 KiB under 10 us", find_memchr, &d, 10000.0),
};

int main(int argc, char **argv)
{
    for (size_t i = 0; i < KEYS; i++) d.keys[i] = (uint32_t)i * 3;
    return chrono_check_main(argc, argv, checks, sizeof checks / sizeof checks[0]);
}

/* ab_suite.c — a benchmark module of 20 entries of varied kinds, for
   chronoscope-ab and for measuring its error rates (scripts/ab-error-rates.sh).

   Built by meson as a module (ab_suite.so) and as a program (ab_suite); the
   same file, with CHRONO_MODULE at the end.  Variants, for the error rates:
     -DAB_SLOW_PCT=P   the five entries marked "planted" do P% more work (their
                       loop counts live in data, so the code and its addresses
                       stay those of the base build)
     -DAB_EXTRA_FN=1   an unrelated function is added before the benchmarks: the
                       code is the same, its addresses move, as in a real commit */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#  define _POSIX_C_SOURCE 200809L   /* getppid under -std=c99 */
#endif
#include <chronoscope.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>
#if !defined(_WIN32)
#  include <unistd.h>
#endif

#ifndef AB_SLOW_PCT
#  define AB_SLOW_PCT 0
#endif
#define AB_SCALED(n) ((n) + (n) * AB_SLOW_PCT / 100)

#if AB_EXTRA_FN
/* Unrelated to the benchmarks; exported, so that it stays in the module. */
unsigned ab_unrelated_checksum(const unsigned char *p, size_t n);
unsigned ab_unrelated_checksum(const unsigned char *p, size_t n)
{
    unsigned a = 1, b = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        a = (a + p[i]) % 65521u;
        b = (b + a) % 65521u;
        if (p[i] == 0x7f) b ^= 0x5bd1e995u;
    }
    return (b << 16) | a;
}
#endif

/* ---- the planted five: their work counts are data ------------------------------------------ */
static uint64_t add_n = AB_SCALED(1000), mul_n = AB_SCALED(400), xs_n = AB_SCALED(500);
static size_t fnv_n = AB_SCALED(2000), crc_n = AB_SCALED(256);
static unsigned char data[65536 + 64];

/* Four dependent adds a step, so that the chain's latency sets the pace.  With
   one add a step the loop ran at one taken branch a cycle and its cost per
   step was not its work: on this project's Zen 5 VM a 1000-step loop ran at
   1.00 or 1.06 cycles a step, switching every few tens of ms, a 1030-step
   one at 1.00 only, so the "3% slower" head read 3% faster against a base in
   its slow mode, interleaved or each alone.  Four adds a step: 1000 vs 1030
   steps cost 1.000x per step (20 of 20 blocks). */
static void add_chain(void *ctx, uint64_t iters)
{
    uint64_t i, k, n = *(const uint64_t *)ctx, x = 1;
    for (i = 0; i < iters; i++)
        for (k = 0; k < n; k++) {
            x += k; chrono_keep(x); x += k; chrono_keep(x);
            x += k; chrono_keep(x); x += k; chrono_keep(x);
        }
}

static void mul_chain(void *ctx, uint64_t iters)
{
    uint64_t i, k, n = *(const uint64_t *)ctx, x = 3;
    for (i = 0; i < iters; i++)
        for (k = 0; k < n; k++) { x *= 0x9E3779B97F4A7C15ull; chrono_keep(x); }
}

static void xorshift_chain(void *ctx, uint64_t iters)
{
    uint64_t i, k, n = *(const uint64_t *)ctx, x = 88172645463325252ull;
    for (i = 0; i < iters; i++)
        for (k = 0; k < n; k++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; chrono_keep(x); }
}

static void fnv1a(void *ctx, uint64_t iters)
{
    size_t n = *(const size_t *)ctx, k;
    uint64_t i;
    for (i = 0; i < iters; i++) {
        uint32_t h = 2166136261u;
        for (k = 0; k < n; k++) h = (h ^ data[k]) * 16777619u;
        chrono_keep(h);
    }
}

static void crc32_bitwise(void *ctx, uint64_t iters)
{
    size_t n = *(const size_t *)ctx, k;
    uint64_t i;
    int b;
    for (i = 0; i < iters; i++) {
        uint32_t c = 0xFFFFFFFFu;
        for (k = 0; k < n; k++) {
            c ^= data[k];
            for (b = 0; b < 8; b++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
        }
        chrono_keep(c);
    }
}

/* ---- the others ---------------------------------------------------------------------------- */
static unsigned char dst[65536 + 64];

static void copy_4k(void *ctx, uint64_t iters)
{
    unsigned char *d = dst;
    uint64_t i;
    (void)ctx;
    chrono_keep(d);
    for (i = 0; i < iters; i++) { memcpy(d, data, 4096); chrono_clobber(); }
}

static void copy_64k(void *ctx, uint64_t iters)
{
    unsigned char *d = dst;
    uint64_t i;
    (void)ctx;
    chrono_keep(d);
    for (i = 0; i < iters; i++) { memcpy(d, data, 65536); chrono_clobber(); }
}

static void set_4k(void *ctx, uint64_t iters)
{
    unsigned char *d = dst;
    uint64_t i;
    (void)ctx;
    chrono_keep(d);
    for (i = 0; i < iters; i++) { memset(d, (int)(i & 0xff), 4096); chrono_clobber(); }
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int sort_buf[4096];
static void sort_n(size_t n, uint64_t iters)
{
    uint64_t i;
    size_t k;
    for (i = 0; i < iters; i++) {
        for (k = 0; k < n; k++) sort_buf[k] = (int)((k * 2654435761u) ^ (unsigned)i) & 0xffff;
        qsort(sort_buf, n, sizeof sort_buf[0], cmp_int);
        chrono_keep(sort_buf[0]);
    }
}
static void qsort_256(void *ctx, uint64_t iters) { (void)ctx; sort_n(256, iters); }
static void qsort_4k(void *ctx, uint64_t iters) { (void)ctx; sort_n(4096, iters); }

static char text[1025];
static void strlen_1k(void *ctx, uint64_t iters)
{
    const char *t = text;
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) { size_t len; chrono_keep(t); len = strlen(t); chrono_keep(len); }
}

static void syscall_getppid(void *ctx, uint64_t iters)
{
    uint64_t i;
    (void)ctx;
#if !defined(_WIN32)
    for (i = 0; i < iters; i++) { pid_t pp = getppid(); chrono_keep(pp); }
#else
    for (i = 0; i < iters; i++) chrono_keep(i);
#endif
}

static void time_now(void *ctx, uint64_t iters)
{
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) { time_t now = time(NULL); chrono_keep(now); }
}

/* A branchy parser: integers separated by commas and spaces, some negative. */
static char csv[2048];
static void parse_ints(void *ctx, uint64_t iters)
{
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) {
        const char *p = csv;
        long sum = 0;
        while (*p) {
            long v = 0;
            int neg = 0;
            while (*p == ' ' || *p == ',') p++;
            if (*p == '-') { neg = 1; p++; }
            while (*p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
            sum += neg ? -v : v;
            if (*p && *p != ' ' && *p != ',' && *p != '-') p++;
        }
        chrono_keep(sum);
    }
}

/* A tokenizer of a JSON-like text: counts strings, numbers and punctuation. */
static char json[2048];
static void tokenize(void *ctx, uint64_t iters)
{
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) {
        const char *p = json;
        unsigned strs = 0, nums = 0, punct = 0;
        while (*p) {
            if (*p == '"') { for (p++; *p && *p != '"'; p++) if (*p == '\\' && p[1]) p++; if (*p) p++; strs++; }
            else if ((*p >= '0' && *p <= '9') || *p == '-') { while ((*p >= '0' && *p <= '9') || *p == '-' || *p == '.') p++; nums++; }
            else { if (*p == '{' || *p == '}' || *p == '[' || *p == ']' || *p == ':' || *p == ',') punct++; p++; }
        }
        strs += nums + punct;
        chrono_keep(strs);
    }
}

static int sorted[4096];
static void bsearch_4k(void *ctx, uint64_t iters)
{
    uint64_t i;
    (void)ctx;
    int k;
    for (i = 0; i < iters; i++) {   /* the same 32 keys each call: the work does not depend on i */
        int found = 0;
        for (k = 0; k < 32; k++) {
            int key = (int)(((unsigned)k * 2654435761u) % 8192u), lo = 0, hi = 4095;
            while (lo < hi) { int mid = (lo + hi) / 2; if (sorted[mid] < key) lo = mid + 1; else hi = mid; }
            found += lo;
        }
        chrono_keep(found);
    }
}

static uint32_t next_of[1024];
static void list_walk(void *ctx, uint64_t iters)
{
    uint64_t i;
    uint32_t at = 0;
    int k;
    (void)ctx;
    for (i = 0; i < iters; i++) {
        for (k = 0; k < 256; k++) at = next_of[at];
        chrono_keep(at);
    }
}

static double ma[16][16], mb[16][16], mc[16][16];
static void matmul_16(void *ctx, uint64_t iters)
{
    uint64_t i;
    int r, c, k;
    (void)ctx;
    for (i = 0; i < iters; i++) {
        for (r = 0; r < 16; r++)
            for (c = 0; c < 16; c++) {
                double s = 0;
                for (k = 0; k < 16; k++) s += ma[r][k] * mb[k][c];
                mc[r][c] = s;
            }
        chrono_keep(mc[3][5]);
        chrono_clobber();
    }
}

static void div_chain(void *ctx, uint64_t iters)
{
    uint64_t i;
    int k;
    double x = 1e300;
    (void)ctx;
    for (i = 0; i < iters; i++) {
        for (k = 0; k < 64; k++) { x = x / 1.0000001; chrono_keep(x); }
    }
}

static uint64_t words[512];
static void popcount_4k(void *ctx, uint64_t iters)
{
    uint64_t i, total = 0;
    int k;
    (void)ctx;
    for (i = 0; i < iters; i++) {
        for (k = 0; k < 512; k++) {
            uint64_t v = words[k];
            v = v - ((v >> 1) & 0x5555555555555555ull);
            v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
            total += (((v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full) * 0x0101010101010101ull) >> 56;
        }
        chrono_keep(total);
        chrono_clobber();
    }
}

static void fill(void)
{
    size_t i, at = 0;
    uint64_t x = 0x2545F4914F6CDD1Dull;
    for (i = 0; i < sizeof data; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; data[i] = (unsigned char)x; }
    for (i = 0; i < sizeof text - 1; i++) text[i] = (char)('a' + i % 26);
    for (i = 0; at + 12 < sizeof csv; i++)
        at += (size_t)snprintf(csv + at, sizeof csv - at, i % 3 ? "%d, " : "-%d,", (int)(i * 7919 % 100000));
    for (at = 0, i = 0; at + 40 < sizeof json; i++)
        at += (size_t)snprintf(json + at, sizeof json - at, "{\"k%d\": [%d, -%d.5, \"v\\\"%d\"]},", (int)i,
                               (int)(i * 31), (int)i, (int)(i * 7));
    for (i = 0; i < 4096; i++) sorted[i] = (int)(2 * i);
    for (i = 0; i < 1024; i++) next_of[i] = (uint32_t)((i * 389 + 1) % 1024);
    for (i = 0; i < 256; i++) { ma[i / 16][i % 16] = (double)i / 7; mb[i % 16][i / 16] = (double)i / 3; }
    for (i = 0; i < 512; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; words[i] = x; }
}

static size_t suite(const chrono_entry **table)
{
    static chrono_entry t[20];
    fill();
    t[0] = chrono_bench("add_chain/4x1000", add_chain, &add_n);        /* planted */
    t[1] = chrono_bench("mul_chain/400", mul_chain, &mul_n);           /* planted */
    t[2] = chrono_bench("xorshift/500", xorshift_chain, &xs_n);        /* planted */
    t[3] = chrono_with_bytes(chrono_bench("fnv1a/2000", fnv1a, &fnv_n), 2000);          /* planted */
    t[4] = chrono_with_bytes(chrono_bench("crc32_bitwise/256", crc32_bitwise, &crc_n), 256);   /* planted */
    t[5] = chrono_with_bytes(chrono_bench("memcpy/4KiB", copy_4k, NULL), 4096);
    t[6] = chrono_with_bytes(chrono_bench("memcpy/64KiB", copy_64k, NULL), 65536);
    t[7] = chrono_with_bytes(chrono_bench("memset/4KiB", set_4k, NULL), 4096);
    t[8] = chrono_bench("qsort/256", qsort_256, NULL);
    t[9] = chrono_bench("qsort/4096", qsort_4k, NULL);
    t[10] = chrono_bench("strlen/1KiB", strlen_1k, NULL);
    t[11] = chrono_bench("syscall/getppid", syscall_getppid, NULL);
    t[12] = chrono_bench("time(NULL)", time_now, NULL);
    t[13] = chrono_bench("parse/ints", parse_ints, NULL);
    t[14] = chrono_bench("parse/json_tokens", tokenize, NULL);
    t[15] = chrono_bench("bsearch/4096", bsearch_4k, NULL);
    t[16] = chrono_bench("list_walk/256", list_walk, NULL);
    t[17] = chrono_bench("matmul/16x16", matmul_16, NULL);
    t[18] = chrono_bench("div_chain/64", div_chain, NULL);
    t[19] = chrono_bench("popcount/4KiB", popcount_4k, NULL);
    *table = t;
    return sizeof t / sizeof t[0];
}

CHRONO_MODULE(suite)

/* Statistics tests: hand-worked cases (the working is in the comments),
   fixtures computed by tests/fixtures/make_stats_fixtures.py with exact
   rational arithmetic, edge cases and the error contract.  The allocation hooks
   are counted so that the scratch == NULL path is checked too. */
#include <stddef.h>

static void *test_malloc(size_t size);
static void test_free(void *p);
#define CHRONO_MALLOC(size) test_malloc(size)
#define CHRONO_FREE(ptr) test_free(ptr)
#include <chronoscope/stats.h>
#include "tap.h"
#include "fixtures/stats_fixtures.h"
#include <float.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define REL 1e-12   /* fixtures are exact; this is the double rounding we allow */

static int alloc_fails;
static size_t allocs, frees;

static void *test_malloc(size_t size)
{
    void *p = alloc_fails ? NULL : malloc(size);
    if (p) allocs++;
    return p;
}

static void test_free(void *p)
{
    if (p) frees++;
    free(p);
}

/* got within rel of want (rel 0: identical); NaN matches only NaN. */
static int same(const char *what, double got, double want, double rel)
{
    int ok = isnan(want) ? isnan(got) : (got == want || fabs(got - want) <= rel * fabs(want));
    if (!ok) tap_diag("%s: got %.17g, want %.17g", what, got, want);
    return ok;
}

static int same_size(const char *what, size_t got, size_t want)
{
    if (got != want) tap_diag("%s: got %zu, want %zu", what, got, want);
    return got == want;
}

/* A fixed pseudo-random sequence (64-bit LCG, top 53 bits). */
static double lcg_next(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) / 9007199254740992.0;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---- sorting ------------------------------------------------------------- */

enum { PATTERN_RANDOM, PATTERN_SORTED, PATTERN_REVERSED, PATTERN_EQUAL, PATTERN_FEW, PATTERN_ORGAN, PATTERN_COUNT };
static const char *const pattern_names[] = { "random", "sorted", "reversed", "all equal", "4 distinct", "organ pipe" };

static void fill_pattern(double *x, size_t n, int pattern, uint64_t seed)
{
    size_t i;
    for (i = 0; i < n; i++) {
        switch (pattern) {
        case PATTERN_RANDOM:   x[i] = lcg_next(&seed) * 2000.0 - 1000.0; break;
        case PATTERN_SORTED:   x[i] = (double)i; break;
        case PATTERN_REVERSED: x[i] = (double)(n - i); break;
        case PATTERN_EQUAL:    x[i] = 3.5; break;
        case PATTERN_FEW:      x[i] = (double)(int)(lcg_next(&seed) * 4.0); break;
        default:               x[i] = (double)(i < n / 2 ? i : n - i); break;
        }
    }
}

/* chrono_stats_sort agrees with the C library's qsort on every pattern and size. */
static void test_sort_patterns(void)
{
    static const size_t sizes[] = { 0, 1, 2, 3, 16, 17, 100, 1000, 100000, 1000000 };
    double *x = (double *)malloc(1000000 * sizeof(double)), *want = (double *)malloc(1000000 * sizeof(double));
    size_t s;
    int p;
    for (p = 0; p < PATTERN_COUNT; p++) {
        int ok = 1;
        for (s = 0; s < COUNT(sizes); s++) {
            size_t n = sizes[s];
            fill_pattern(x, n, p, 12345u + n);
            if (n) memcpy(want, x, n * sizeof(double));
            if (n) qsort(want, n, sizeof(double), compare_doubles);
            chrono_stats_sort(x, n);
            if (n && memcmp(x, want, n * sizeof(double)) != 0) {
                tap_diag("%s, n = %zu: differs from qsort", pattern_names[p], n);
                ok = 0;
            }
        }
        tap_ok(ok, "sort: %s input, n = 0 .. 10^6, equals qsort", pattern_names[p]);
    }
    free(x);
    free(want);
}

/* The fallback the introsort takes when its depth budget runs out. */
static void test_heap_sort(void)
{
    double x[1001], want[1001];
    uint64_t seed = 99;
    size_t i;
    for (i = 0; i < COUNT(x); i++) x[i] = want[i] = floor(lcg_next(&seed) * 300.0);
    qsort(want, COUNT(want), sizeof(double), compare_doubles);
    chrono__intro_sort(x, COUNT(x), 0);   /* no depth budget: heapsort from the start */
    tap_ok(memcmp(x, want, sizeof(x)) == 0, "sort: heapsort fallback (depth budget 0) equals qsort");
}

/* NaN has no order: the sort must still stay in bounds and lose nothing. */
static void test_sort_nan(void)
{
    double x[200];
    uint64_t seed = 5;
    size_t i, nans = 0;
    for (i = 0; i < COUNT(x); i++) x[i] = (i % 7 == 0) ? NAN : lcg_next(&seed);
    chrono_stats_sort(x, COUNT(x));
    for (i = 0; i < COUNT(x); i++) nans += isnan(x[i]) != 0;
    tap_ok(nans == 29, "sort: with NaNs stays in bounds and keeps all 29 NaNs (%zu)", nans);
}

/* ---- quantiles ------------------------------------------------------------- */

static void test_quantile_hand(void)
{
    /* {1, 2, 4, 8}, h = 3p:  p = .25: h = .75 -> 1 + .75 * (2 - 1) = 1.75
       p = .5: h = 1.5 -> 2 + .5 * 2 = 3;  p = .75: h = 2.25 -> 4 + .25 * 4 = 5
       p = .1: h = .3 -> 1.3;  p = 0 -> 1;  p = 1 -> 8 */
    static const double x[] = { 1, 2, 4, 8 };
    tap_ok(same("q.25", chrono_stats_quantile(x, 4, 0.25), 1.75, 0) &&
           same("q.5", chrono_stats_quantile(x, 4, 0.5), 3.0, 0) &&
           same("q.75", chrono_stats_quantile(x, 4, 0.75), 5.0, 0) &&
           same("q.1", chrono_stats_quantile(x, 4, 0.1), 1.3, REL) &&
           same("q0", chrono_stats_quantile(x, 4, 0.0), 1.0, 0) &&
           same("q1", chrono_stats_quantile(x, 4, 1.0), 8.0, 0),
           "quantile: type 7 on {1,2,4,8} by hand");
    tap_ok(isnan(chrono_stats_quantile(x, 0, 0.5)) && isnan(chrono_stats_quantile(NULL, 4, 0.5)) &&
           isnan(chrono_stats_quantile(x, 4, -0.01)) && isnan(chrono_stats_quantile(x, 4, 1.01)) &&
           isnan(chrono_stats_quantile(x, 4, NAN)),
           "quantile: NAN for n == 0, NULL, p outside [0,1] or NaN");
    tap_ok(same("n = 1", chrono_stats_quantile(x + 2, 1, 0.3), 4.0, 0), "quantile: n == 1 gives the value");
    {
        double odd[] = { 9, 1, 4 }, even[] = { 8, 2, 4, 1 }, one[] = { 7 };
        tap_ok(same("median odd", chrono_stats_median(odd, 3), 4.0, 0) && odd[0] == 1 && odd[2] == 9 &&
               same("median even", chrono_stats_median(even, 4), 3.0, 0) && even[3] == 8 &&
               same("median one", chrono_stats_median(one, 1), 7.0, 0) && isnan(chrono_stats_median(one, 0)) &&
               isnan(chrono_stats_median(NULL, 3)),
               "median: {9,1,4} 4 and {8,2,4,1} 3, sorted in place; n == 1 its value; NAN for n == 0 or NULL");
    }
}

/* ---- median CI ------------------------------------------------------------------ */

static void test_median_ci_hand(void)
{
    size_t lo = 99, hi = 99;
    double level = -1;
    int rc;
    /* n = 10, 95%: coverage(lo) = 1 - 2 P(B <= lo), B ~ bin(10, 1/2), 2^10 = 1024.
       lo = 2: 1 - 2 (1 + 10 + 45) / 1024 = .890625 < .95;  lo = 1: 1 - 2 * 11 / 1024 = .978515625 */
    rc = chrono_stats_median_ci(10, 0.95, &lo, &hi, &level);
    tap_ok(rc == 0 && lo == 1 && hi == 8 && level == 0.978515625, "median_ci: n = 10, 95%% -> ranks 1..8, coverage 1002/1024");
    /* n = 3: the pair (0, 2) covers 1 - 2/8 = .75 exactly: a tie that must count as reached */
    rc = chrono_stats_median_ci(3, 0.75, &lo, &hi, &level);
    tap_ok(rc == 0 && lo == 0 && hi == 2 && level == 0.75, "median_ci: n = 3, 75%% is reached exactly by [min, max]");
    /* n = 5: [min, max] covers 1 - 2/32 = .9375 < .95: returned anyway, with its coverage */
    rc = chrono_stats_median_ci(5, 0.95, &lo, &hi, &level);
    tap_ok(rc == 0 && lo == 0 && hi == 4 && level == 0.9375, "median_ci: n = 5, 95%% unreachable -> [0, 4] at .9375");
    /* n = 1: the only pair is (0, 0), which covers nothing */
    rc = chrono_stats_median_ci(1, 0.5, &lo, &hi, &level);
    tap_ok(rc == 0 && lo == 0 && hi == 0 && level == 0.0, "median_ci: n = 1 -> [0, 0] at 0");
    rc = chrono_stats_median_ci(10, 0.95, &lo, &hi, NULL);
    tap_ok(rc == 0 && lo == 1 && hi == 8, "median_ci: level may be NULL");
}

/* Normal approximation: half-width ~ 1.96 sqrt(n) / 2 = 980 for n = 10^6,
   30990 for n = 10^9. */
static void test_median_ci_large(void)
{
    static const struct { size_t n; double half; } cases[] = { { 1000000, 980.0 }, { 1000000000, 30990.0 } };
    size_t i, lo, hi;
    double level;
    for (i = 0; i < COUNT(cases); i++) {
        size_t n = cases[i].n;
        int rc = chrono_stats_median_ci(n, 0.95, &lo, &hi, &level);
        double half = (double)n / 2 - (double)lo;
        tap_ok(rc == 0 && hi == n - 1 - lo && fabs(half - cases[i].half) < 0.002 * cases[i].half + 2 &&
               level >= 0.95 && level < 0.9502,
               "median_ci: n = %zu, 95%% -> ranks %zu..%zu (n/2 - %.0f), coverage %.6f", n, lo, hi, half, level);
    }
}

static void test_median_ci_fixtures(void)
{
    size_t i, lo, hi, checked_exact = 0, failed = 0;
    for (i = 0; i < COUNT(fx_median_ci_table); i++) {
        const fx_median_ci *e = &fx_median_ci_table[i];
        double level = -1;
        char what[64];
        int ok;
        snprintf(what, sizeof(what), "n = %zu at %g", e->n, e->confidence);
        ok = chrono_stats_median_ci(e->n, e->confidence, &lo, &hi, &level) == 0 && same_size(what, lo, e->lo) &&
             same_size(what, hi, e->hi) && same(what, level, e->level, e->n <= 51 ? 0 : REL);
        if (e->n <= 51) checked_exact++;
        failed += !ok;
    }
    tap_ok(failed == 0 && checked_exact > 0,
           "median_ci: %zu fixture (n, confidence) pairs, n = 1..10^6; exact for n <= 51 (%zu failed)",
           COUNT(fx_median_ci_table), failed);
}

static void test_median_ci_errors(void)
{
    size_t lo, hi;
    double level;
    tap_ok(chrono_stats_median_ci(0, 0.95, &lo, &hi, &level) == CHRONO_EINVAL &&
           chrono_stats_median_ci(10, 0.0, &lo, &hi, &level) == CHRONO_EINVAL &&
           chrono_stats_median_ci(10, 1.0, &lo, &hi, &level) == CHRONO_EINVAL &&
           chrono_stats_median_ci(10, NAN, &lo, &hi, &level) == CHRONO_EINVAL &&
           chrono_stats_median_ci(10, -0.5, &lo, &hi, &level) == CHRONO_EINVAL &&
           chrono_stats_median_ci(10, 1.5, &lo, &hi, &level) == CHRONO_EINVAL &&
           chrono_stats_median_ci(10, 0.95, NULL, &hi, &level) == CHRONO_EINVAL &&
           chrono_stats_median_ci(10, 0.95, &lo, NULL, &level) == CHRONO_EINVAL,
           "median_ci: n == 0, confidence 0 / 1 / NaN / outside, NULL ranks -> CHRONO_EINVAL");
}

/* ---- chrono_stats_compute ---------------------------------------------------------- */

static void test_compute_hand(void)
{
    /* {5, 1, 4, 2, 3}: sorted 1..5, mean 3, squared deviations 4+1+0+1+4 = 10,
       stddev sqrt(10/4) = 1.5811388300841898, cv = stddev/3.  q1: h = 4 * .25 = 1
       -> 2, q3 -> 4, median 3, p99: h = 3.96 -> 4 + 0.96 = 4.96.  |x - 3| = 0,1,1,2,2 -> median 1 -> mad 1.4826.
       Fences 2 - 3 = -1 and 4 + 3 = 7: no outliers.  90%: [min, max] covers
       1 - 2/32 = .9375 >= .9, ranks (1, 3) only 1 - 2 * 6/32 = .625. */
    static const double x[] = { 5, 1, 4, 2, 3 };
    chrono_stats s;
    int rc = chrono_stats_compute(x, 5, 0.9, NULL, &s);
    tap_ok(rc == 0 && s.n == 5 && s.min == 1 && s.max == 5 && s.mean == 3 &&
           same("stddev", s.stddev, 1.5811388300841898, REL) && same("cv", s.cv, 1.5811388300841898 / 3, REL) &&
           s.median == 3 && s.q1 == 2 && s.q3 == 4 && same("p99", s.p99, 4.96, REL) && same("mad", s.mad, 1.4826, 0) &&
           s.ci_low == 1 && s.ci_high == 5 && s.ci_level == 0.9375 &&
           s.outliers_low == 0 && s.outliers_high == 0 && s.outliers_severe == 0,
           "compute: {5,1,4,2,3} by hand");
}

static void test_compute_outliers_hand(void)
{
    /* Sorted {-30, 10, 11, 12, 13, 14, 15, 24, 40}, n = 9: q1 = x[2] = 11,
       q3 = x[6] = 15, IQR 4.  Fences 5 / 21, severe -1 / 27.
       Low: -30 (severe).  High: 24, and 40 (severe).  Median x[4] = 13. */
    static const double x[] = { 24, 13, -30, 11, 40, 10, 15, 12, 14 };
    chrono_stats s;
    int rc = chrono_stats_compute(x, 9, 0.95, NULL, &s);
    tap_ok(rc == 0 && s.median == 13 && s.q1 == 11 && s.q3 == 15 && s.outliers_low == 1 && s.outliers_high == 2 &&
           s.outliers_severe == 2,
           "compute: Tukey fences by hand (1 low, 2 high, 2 severe)");
}

static void test_compute_doc_example(void)
{
    /* The usage block of stats.h.  Sorted 11.8 11.9 12.0 12.1 12.2 12.4 30.5:
       median 12.1, q1 (h = 1.5) 11.95, q3 (h = 4.5) 12.3, high fence
       12.3 + 1.5 * .35 = 12.825 -> 30.5 is out (and severe, > 13.35).
       95%: [min, max] covers 1 - 2/128 = .984375, ranks (1, 5) only .875. */
    double ns[] = { 12.1, 11.9, 12.4, 12.0, 30.5, 12.2, 11.8 };
    chrono_stats s;
    int rc = chrono_stats_compute(ns, 7, 0.95, NULL, &s);
    tap_ok(rc == 0 && s.median == (double)12.1 && same("q1", s.q1, 11.95, REL) && same("q3", s.q3, 12.3, REL) &&
           s.outliers_high == 1 && s.outliers_severe == 1 && s.outliers_low == 0 && s.ci_low == (double)11.8 &&
           s.ci_high == 30.5 && s.ci_level == 0.984375,
           "compute: the header's usage example");
}

static void test_compute_n1_n2(void)
{
    /* n = 1: everything is the value, spread 0 where defined, stddev and cv
       undefined, the CI is the value with coverage 0. */
    static const double one[] = { 7.0 };
    /* n = 2, {3, 1}: mean 2, stddev sqrt(2), q1 = 1 + .25 * 2 = 1.5, q3 2.5,
       |x - 2| = 1, 1 -> mad 1.4826; [min, max] covers 1 - 2/4 = .5. */
    static const double two[] = { 3.0, 1.0 };
    chrono_stats s;
    int rc = chrono_stats_compute(one, 1, 0.95, NULL, &s);
    tap_ok(rc == 0 && s.min == 7 && s.max == 7 && s.mean == 7 && isnan(s.stddev) && isnan(s.cv) && s.median == 7 &&
           s.q1 == 7 && s.q3 == 7 && s.mad == 0 && s.ci_low == 7 && s.ci_high == 7 && s.ci_level == 0 &&
           s.outliers_low + s.outliers_high + s.outliers_severe == 0,
           "compute: n = 1 (stddev and cv NAN, mad 0, CI [x, x] at 0)");
    rc = chrono_stats_compute(two, 2, 0.95, NULL, &s);
    tap_ok(rc == 0 && s.mean == 2 && same("stddev", s.stddev, sqrt(2.0), REL) && s.median == 2 && s.q1 == 1.5 &&
           s.q3 == 2.5 && s.mad == (double)1.4826 && s.ci_low == 1 && s.ci_high == 3 && s.ci_level == 0.5,
           "compute: n = 2 by hand");
}

static void test_compute_constant(void)
{
    double x[8];
    chrono_stats s;
    size_t i;
    int rc;
    for (i = 0; i < COUNT(x); i++) x[i] = 0.1;   /* 0.1 * 8 is not exactly 0.8: the mean must still be 0.1 */
    rc = chrono_stats_compute(x, COUNT(x), 0.95, NULL, &s);
    tap_ok(rc == 0 && s.mean == (double)0.1 && s.stddev == 0 && s.cv == 0 && s.mad == 0 && s.median == (double)0.1 &&
           s.q1 == (double)0.1 && s.q3 == (double)0.1 && s.outliers_low + s.outliers_high + s.outliers_severe == 0,
           "compute: all equal -> mean exact, stddev 0, cv 0, mad 0, no outliers");
}

static void test_compute_fixtures(void)
{
    double work[1000], sorted[1000];
    size_t i, k;
    for (i = 0; i < COUNT(fx_stats_sets); i++) {
        const fx_stats *e = &fx_stats_sets[i];
        chrono_stats s;
        int rc = chrono_stats_compute(e->x, e->n, e->confidence, work, &s);
        double level_rel = e->n <= 51 ? 0 : REL;
        int ok;
        if (rc != 0) {
            tap_ok(0, "%s: compute returned %d", e->name, rc);
            continue;
        }
        tap_ok(same_size("n", s.n, e->n) && same("min", s.min, e->min, 0) && same("max", s.max, e->max, 0) &&
               same("mean", s.mean, e->mean, REL) && same("stddev", s.stddev, e->stddev, REL) &&
               same("cv", s.cv, e->cv, REL),
               "%s: n, min, max, mean, stddev, cv", e->name);
        tap_ok(same("median", s.median, e->median, REL) && same("q1", s.q1, e->q1, REL) &&
               same("q3", s.q3, e->q3, REL) && same("mad", s.mad, e->mad, REL),
               "%s: median, q1, q3, mad", e->name);
        tap_ok(same("ci_low", s.ci_low, e->ci_low, 0) && same("ci_high", s.ci_high, e->ci_high, 0) &&
               same("ci_level", s.ci_level, e->ci_level, level_rel),
               "%s: %g CI of the median [x(%zu), x(%zu)] at %.6f", e->name, e->confidence, e->ci_lo, e->ci_hi,
               e->ci_level);
        tap_ok(same_size("low", s.outliers_low, e->outliers_low) &&
               same_size("high", s.outliers_high, e->outliers_high) &&
               same_size("severe", s.outliers_severe, e->outliers_severe),
               "%s: outliers %zu low, %zu high, %zu severe", e->name, e->outliers_low, e->outliers_high,
               e->outliers_severe);
        memcpy(sorted, e->x, e->n * sizeof(double));
        chrono_stats_sort(sorted, e->n);
        ok = 1;
        for (k = 0; k < COUNT(fx_quantile_ps); k++) {
            char what[32];
            snprintf(what, sizeof(what), "quantile %g", fx_quantile_ps[k]);
            ok &= same(what, chrono_stats_quantile(sorted, e->n, fx_quantile_ps[k]), e->quantiles[k], REL);
        }
        tap_ok(ok, "%s: quantiles at %zu p from 0 to 1", e->name, COUNT(fx_quantile_ps));
    }
}

/* x is not modified; scratch or CHRONO_MALLOC give the same answer; the
   allocation is freed, and none is made when scratch is given. */
static void test_compute_scratch(void)
{
    const fx_stats *e = fx_stats_sets;
    double x[1000], work[1000];
    chrono_stats with, without;
    size_t a0 = allocs, f0 = frees;
    int rc1, rc2;
    while (e->n != 1000) e++;
    memcpy(x, e->x, sizeof(x));
    rc1 = chrono_stats_compute(x, 1000, 0.95, work, &with);
    tap_ok(rc1 == 0 && allocs == a0 && memcmp(x, e->x, sizeof(x)) == 0,
           "compute: with scratch, x unchanged and nothing allocated");
    rc2 = chrono_stats_compute(x, 1000, 0.95, NULL, &without);
    tap_ok(rc2 == 0 && allocs == a0 + 1 && frees == f0 + 1 && memcmp(x, e->x, sizeof(x)) == 0 &&
           memcmp(&with, &without, sizeof(with)) == 0,
           "compute: scratch NULL allocates once, frees, same result, x unchanged");
    alloc_fails = 1;
    rc2 = chrono_stats_compute(x, 1000, 0.95, NULL, &without);
    alloc_fails = 0;
    tap_ok(rc2 == CHRONO_ENOMEM && memcmp(&with, &without, sizeof(with)) == 0,
           "compute: CHRONO_MALLOC failing -> CHRONO_ENOMEM, out untouched");
}

static int compute_rejects(const double *x, size_t n, double confidence, chrono_stats *out, int want)
{
    chrono_stats before;
    int rc;
    memset(out, 0xA5, sizeof(*out));
    before = *out;
    rc = chrono_stats_compute(x, n, confidence, NULL, out);
    if (rc != want || memcmp(&before, out, sizeof(before)) != 0) {
        tap_diag("n = %zu, confidence %g: rc %d (want %d)%s", n, confidence, rc, want,
                 memcmp(&before, out, sizeof(before)) ? ", out changed" : "");
        return 0;
    }
    return 1;
}

static void test_compute_errors(void)
{
    double good[] = { 1, 2, 3 }, with_nan[] = { 1, 2, NAN }, with_inf[] = { INFINITY, 2, 3 };
    double with_minus_inf[] = { 1, -INFINITY, 3 }, huge[] = { DBL_MAX, -DBL_MAX };
    chrono_stats s;
    size_t a0 = allocs, f0 = frees;
    tap_ok(compute_rejects(NULL, 3, 0.95, &s, CHRONO_EINVAL) && chrono_stats_compute(good, 3, 0.95, NULL, NULL) == CHRONO_EINVAL &&
           compute_rejects(good, 0, 0.95, &s, CHRONO_EINVAL),
           "compute: NULL x, NULL out, n == 0 -> CHRONO_EINVAL");
    tap_ok(compute_rejects(with_nan, 3, 0.95, &s, CHRONO_EINVAL) && compute_rejects(with_inf, 3, 0.95, &s, CHRONO_EINVAL) &&
           compute_rejects(with_minus_inf, 3, 0.95, &s, CHRONO_EINVAL),
           "compute: NaN, +inf, -inf in x -> CHRONO_EINVAL, out untouched");
    tap_ok(compute_rejects(good, 3, 0.0, &s, CHRONO_EINVAL) && compute_rejects(good, 3, 1.0, &s, CHRONO_EINVAL) &&
           compute_rejects(good, 3, NAN, &s, CHRONO_EINVAL) && compute_rejects(good, 3, -1.0, &s, CHRONO_EINVAL),
           "compute: confidence 0, 1, NaN, -1 -> CHRONO_EINVAL, out untouched");
    /* Finite data whose spread exceeds DBL_MAX: the stddev overflows. */
    tap_ok(compute_rejects(huge, 2, 0.95, &s, CHRONO_ERANGE) && allocs - a0 == frees - f0,
           "compute: {DBL_MAX, -DBL_MAX} -> CHRONO_ERANGE, out untouched, nothing leaked");
}

/* ---- ratio -------------------------------------------------------------------------- */

static void test_ratio_hand(void)
{
    /* a/b = 2, 4, 8: median of logs ln 4 -> ratio 4.  n = 3 at 95%: [min, max]
       covers .75 only, so the CI is [2, 8] at .75. */
    static const double a[] = { 2, 4, 8 }, b[] = { 1, 1, 1 };
    static const double c[] = { 1.5, 7, 0.25 };
    chrono_ratio r;
    int rc = chrono_stats_ratio(a, b, 3, 0.95, NULL, &r);
    tap_ok(rc == 0 && r.n == 3 && same("ratio", r.ratio, 4.0, REL) && same("low", r.ci_low, 2.0, REL) &&
           same("high", r.ci_high, 8.0, REL) && r.ci_level == 0.75,
           "ratio: a/b = {2, 4, 8} -> 4, CI [2, 8] at .75");
    rc = chrono_stats_ratio(c, c, 3, 0.95, NULL, &r);
    tap_ok(rc == 0 && r.ratio == 1 && r.ci_low == 1 && r.ci_high == 1, "ratio: a == b -> exactly 1");
}

static void test_ratio_fixtures(void)
{
    double work[200];
    size_t i;
    for (i = 0; i < COUNT(fx_ratio_sets); i++) {
        const fx_ratio *e = &fx_ratio_sets[i];
        chrono_ratio r;
        int rc = chrono_stats_ratio(e->a, e->b, e->n, e->confidence, work, &r);
        tap_ok(rc == 0 && same_size("n", r.n, e->n) && same("ratio", r.ratio, e->ratio, REL) &&
               same("ci_low", r.ci_low, e->ci_low, REL) && same("ci_high", r.ci_high, e->ci_high, REL) &&
               same("ci_level", r.ci_level, e->ci_level, REL),
               "%s: ratio %.6f, %g CI [%.6f, %.6f]", e->name, e->ratio, e->confidence, e->ci_low, e->ci_high);
    }
}

static void test_ratio_scratch(void)
{
    const fx_ratio *e = fx_ratio_sets;
    double a[200], b[200], work[200];
    chrono_ratio with, without;
    size_t a0 = allocs, f0 = frees;
    int rc1, rc2;
    while (e->n != 200) e++;
    memcpy(a, e->a, sizeof(a));
    memcpy(b, e->b, sizeof(b));
    rc1 = chrono_stats_ratio(a, b, 200, 0.95, work, &with);
    rc2 = chrono_stats_ratio(a, b, 200, 0.95, NULL, &without);
    tap_ok(rc1 == 0 && rc2 == 0 && memcmp(&with, &without, sizeof(with)) == 0 && allocs == a0 + 1 &&
           frees == f0 + 1 && memcmp(a, e->a, sizeof(a)) == 0 && memcmp(b, e->b, sizeof(b)) == 0,
           "ratio: scratch NULL allocates once and frees, same result, inputs unchanged");
}

static void test_ratio_errors(void)
{
    static const double one[] = { 1, 1 }, zero[] = { 1, 0 }, negative[] = { -1, 1 }, nan[] = { 1, NAN };
    static const double inf[] = { INFINITY, 1 }, huge[] = { 1e300, 1e300 }, tiny[] = { 1e-300, 1e-300 };
    chrono_ratio r, before;
    memset(&r, 0x5A, sizeof(r));
    before = r;
    tap_ok(chrono_stats_ratio(zero, one, 2, 0.95, NULL, &r) == CHRONO_EINVAL &&
           chrono_stats_ratio(one, zero, 2, 0.95, NULL, &r) == CHRONO_EINVAL &&
           chrono_stats_ratio(negative, one, 2, 0.95, NULL, &r) == CHRONO_EINVAL &&
           chrono_stats_ratio(one, negative, 2, 0.95, NULL, &r) == CHRONO_EINVAL &&
           chrono_stats_ratio(nan, one, 2, 0.95, NULL, &r) == CHRONO_EINVAL &&
           chrono_stats_ratio(one, inf, 2, 0.95, NULL, &r) == CHRONO_EINVAL &&
           memcmp(&r, &before, sizeof(r)) == 0,
           "ratio: a or b zero, negative, NaN or inf -> CHRONO_EINVAL, out untouched");
    tap_ok(chrono_stats_ratio(NULL, one, 2, 0.95, NULL, &r) == CHRONO_EINVAL &&
           chrono_stats_ratio(one, NULL, 2, 0.95, NULL, &r) == CHRONO_EINVAL &&
           chrono_stats_ratio(one, one, 2, 0.95, NULL, NULL) == CHRONO_EINVAL &&
           chrono_stats_ratio(one, one, 0, 0.95, NULL, &r) == CHRONO_EINVAL &&
           chrono_stats_ratio(one, one, 2, 1.0, NULL, &r) == CHRONO_EINVAL &&
           chrono_stats_ratio(one, one, 2, NAN, NULL, &r) == CHRONO_EINVAL,
           "ratio: NULL, n == 0, bad confidence -> CHRONO_EINVAL");
    /* 1e300 / 1e-300 = 1e600 is not a double */
    tap_ok(chrono_stats_ratio(huge, tiny, 2, 0.95, NULL, &r) == CHRONO_ERANGE && memcmp(&r, &before, sizeof(r)) == 0,
           "ratio: a ratio beyond DBL_MAX -> CHRONO_ERANGE, out untouched");
}

/* ---- fit ------------------------------------------------------------------------------- */

static void test_fit_hand(void)
{
    /* x 1..5, y {2,4,5,4,5}: means 3 and 4; dx -2..2, dy -2,0,1,0,1;
       sxx 10, sxy 4+0+0+0+2 = 6, syy 4+0+1+0+1 = 6.  slope .6,
       intercept 4 - .6 * 3 = 2.2, r2 = 36 / 60 = .6 */
    static const double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 5, 4, 5 };
    static const double flat[] = { 4, 4, 4 };
    chrono_fit f;
    int rc = chrono_stats_fit(x, y, 5, &f);
    tap_ok(rc == 0 && f.n == 5 && same("slope", f.slope, 0.6, REL) && same("intercept", f.intercept, 2.2, REL) &&
           same("r2", f.r2, 0.6, REL),
           "fit: slope .6, intercept 2.2, r2 .6 by hand");
    rc = chrono_stats_fit(x, flat, 3, &f);
    tap_ok(rc == 0 && f.slope == 0 && f.intercept == 4 && f.r2 == 1, "fit: all y equal -> slope 0, r2 1 (no NaN)");
}

static void test_fit_fixtures(void)
{
    size_t i;
    for (i = 0; i < COUNT(fx_fit_sets); i++) {
        const fx_fit *e = &fx_fit_sets[i];
        chrono_fit f;
        int rc = chrono_stats_fit(e->x, e->y, e->n, &f);
        tap_ok(rc == 0 && same_size("n", f.n, e->n) && same("intercept", f.intercept, e->intercept, REL) &&
               same("slope", f.slope, e->slope, REL) && same("r2", f.r2, e->r2, REL),
               "%s: y = %.6f + %.6f x, r2 %.6f", e->name, e->intercept, e->slope, e->r2);
    }
}

static void test_fit_errors(void)
{
    static const double x[] = { 1, 2, 3 }, same_x[] = { 2, 2, 2 }, nan_y[] = { 1, NAN, 3 }, inf_x[] = { 1, 2, INFINITY };
    static const double two[] = { 0, 1 }, huge[] = { -DBL_MAX, DBL_MAX };
    chrono_fit f, before;
    memset(&f, 0x3C, sizeof(f));
    before = f;
    tap_ok(chrono_stats_fit(x, x, 1, &f) == CHRONO_EINVAL && chrono_stats_fit(same_x, x, 3, &f) == CHRONO_EINVAL &&
           chrono_stats_fit(x, nan_y, 3, &f) == CHRONO_EINVAL && chrono_stats_fit(inf_x, x, 3, &f) == CHRONO_EINVAL &&
           chrono_stats_fit(NULL, x, 3, &f) == CHRONO_EINVAL && chrono_stats_fit(x, NULL, 3, &f) == CHRONO_EINVAL &&
           chrono_stats_fit(x, x, 3, NULL) == CHRONO_EINVAL && memcmp(&f, &before, sizeof(f)) == 0,
           "fit: n < 2, all x equal, NaN/inf, NULL -> CHRONO_EINVAL, out untouched");
    tap_ok(chrono_stats_fit(two, huge, 2, &f) == CHRONO_ERANGE && memcmp(&f, &before, sizeof(f)) == 0,
           "fit: a slope beyond DBL_MAX -> CHRONO_ERANGE, out untouched");
}

/* Data far from 1 in scale: centring and scaling keep the sums finite. */
static void test_fit_extreme_scale(void)
{
    static const double x[] = { 0, 1e155 }, y[] = { 0, 1 };
    static const double xs[] = { 1e-200, 2e-200, 3e-200 }, ys[] = { 1, 3, 5 };
    static const double big[] = { 1e154, 2e154, 3e154 };
    chrono_fit f;
    chrono_stats s;
    int rc = chrono_stats_fit(x, y, 2, &f);
    tap_ok(rc == 0 && same("slope", f.slope, 1e-155, REL) && fabs(f.intercept) < 1e-15 && same("r2", f.r2, 1.0, REL),
           "fit {0, 1e155} -> {0, 1}: slope %.6g (1e-155), intercept %.3g, r2 %.6f (1), rc %d", f.slope,
           f.intercept, f.r2, rc);
    rc = chrono_stats_fit(xs, ys, 3, &f);
    tap_ok(rc == 0 && same("slope", f.slope, 2e200, REL) && same("intercept", f.intercept, -1.0, 1e-9) &&
           same("r2", f.r2, 1.0, REL),
           "fit x 1e-200..3e-200 (squares underflow): slope %.6g (2e200), intercept %.6f, rc %d", f.slope, f.intercept, rc);
    rc = chrono_stats_compute(big, 3, 0.95, NULL, &s);
    tap_ok(rc == 0 && same("stddev", s.stddev, 1e154, REL) && same("mean", s.mean, 2e154, REL),
           "compute {1e154, 2e154, 3e154}: stddev %.6g (1e154, representable: no ERANGE), rc %d", s.stddev, rc);
}

/* ---- two predictors -------------------------------------------------------------------- */

/* Exact data y = 1500 calls + 0.05 bytes (a switch of 1.5 µs, 20 GB/s), points
   spanning five decades: both coefficients come back, with and without weights. */
static void test_fit2_exact(void)
{
    static const double calls[] = { 16, 256, 4096, 65536, 1048576, 32, 512, 8192 };
    static const double bytes[] = { 16777216, 16777216, 16777216, 16777216, 1048576, 33554432, 524288, 8192 };
    double y[8], resid[8];
    chrono_fit2 f;
    size_t i;
    int rc, ok = 1;
    for (i = 0; i < 8; i++) y[i] = 1500.0 * calls[i] + 0.05 * bytes[i];
    rc = chrono_stats_fit2(calls, bytes, y, 8, CHRONO_FIT2_RELATIVE, resid, &f);
    for (i = 0; i < 8; i++) ok &= fabs(resid[i]) <= 1e-9 * y[i];
    tap_ok(rc == 0 && f.n == 8 && same("a", f.a, 1500.0, 1e-10) && same("b", f.b, 0.05, 1e-10) && f.c == 0 &&
           f.max_rel_resid < 1e-12 && same("r2", f.r2, 1.0, 1e-12) && ok && f.se_a < 1e-6 && f.se_b < 1e-9,
           "fit2 relative: exact y = 1500 x1 + .05 x2 -> a %.9g, b %.9g, r2 %.12f, max rel resid %.2g", f.a, f.b, f.r2,
           f.max_rel_resid);
    rc = chrono_stats_fit2(calls, bytes, y, 8, 0, NULL, &f);
    tap_ok(rc == 0 && same("a", f.a, 1500.0, 1e-9) && same("b", f.b, 0.05, 1e-9), "fit2 unweighted: the same exact data -> a %.9g, b %.9g",
           f.a, f.b);
    for (i = 0; i < 8; i++) y[i] += 250.0;
    rc = chrono_stats_fit2(calls, bytes, y, 8, CHRONO_FIT2_RELATIVE | CHRONO_FIT2_INTERCEPT, NULL, &f);
    tap_ok(rc == 0 && same("a", f.a, 1500.0, 1e-9) && same("b", f.b, 0.05, 1e-9) && same("c", f.c, 250.0, 1e-6),
           "fit2 with intercept: y + 250 -> a %.9g, b %.9g, c %.9g", f.a, f.b, f.c);
}

/* Standard errors by hand: x1 = 1 (an intercept), x2 = x, unweighted. */
static void test_fit2_se(void)
{
    /* Least squares of y on (1, x): x = 0,1,2,3, y = 1,6,7,12: slope = 3.4,
       intercept = 1.4 (xbar 1.5, ybar 6.5, sxy 17, sxx 5); residuals
       -0.4, 1.2, -1.2, 0.4, SSR 3.2, sigma^2 1.6, se(slope) = sqrt(1.6/5),
       se(intercept) = sqrt(1.6 (1/4 + 2.25/5)). */
    static const double one[] = { 1, 1, 1, 1 }, x[] = { 0, 1, 2, 3 }, y[] = { 1, 6, 7, 12 };
    chrono_fit2 f;
    int rc = chrono_stats_fit2(one, x, y, 4, 0, NULL, &f);
    tap_ok(rc == 0 && same("a", f.a, 1.4, 1e-12) && same("b", f.b, 3.4, 1e-12) && same("se_b", f.se_b, sqrt(1.6 / 5), 1e-12) &&
           same("se_a", f.se_a, sqrt(1.6 * (0.25 + 2.25 / 5)), 1e-12) && same("r2", f.r2, 1 - 3.2 / 61.0, 1e-12),
           "fit2 by hand: a %.6f (1.4), b %.6f (3.4), se_b %.6f, se_a %.6f, r2 %.6f", f.a, f.b, f.se_b, f.se_a, f.r2);
}

/* Weights matter when the points span decades, as reads in chunks of 1 B to
   1 MiB do: y = 1000 calls + 0.1 bytes, each point 1% off (alternating).  The
   per-byte cost b shows only in the small (large-chunk) points; unweighted,
   the 1% errors of the large points swamp it, relative weights keep it. */
static void test_fit2_weights_matter(void)
{
    static const double chunk[] = { 1, 16, 256, 4096, 65536, 1048576 }, total[] = { 16777216, 4194304 };
    double calls[12], bytes[12], y[12];
    chrono_fit2 w, u;
    size_t i;
    int rc1, rc2;
    for (i = 0; i < 12; i++) {
        calls[i] = total[i / 6] / chunk[i % 6];
        bytes[i] = total[i / 6];
        y[i] = (1000.0 * calls[i] + 0.1 * bytes[i]) * (i % 2 ? 0.99 : 1.01);
    }
    rc1 = chrono_stats_fit2(calls, bytes, y, 12, CHRONO_FIT2_RELATIVE, NULL, &w);
    rc2 = chrono_stats_fit2(calls, bytes, y, 12, 0, NULL, &u);
    tap_ok(rc1 == 0 && rc2 == 0 && fabs(w.b - 0.1) < 0.005 && fabs(w.a - 1000) < 20 && fabs(u.b - 0.1) > 0.05,
           "fit2: points over 6 decades, each 1%% off: relative weights a %.1f b %.4f, unweighted a %.1f b %.4f (1000, 0.1)",
           w.a, w.b, u.a, u.b);
}

static void test_fit2_errors(void)
{
    static const double x[] = { 1, 2, 3 }, x2[] = { 2, 4, 6 }, z[] = { 0, 0, 0 }, y[] = { 1, 2, 4 }, y0[] = { 1, 0, 4 };
    static const double nan_y[] = { 1, NAN, 3 }, inf_x[] = { 1, 2, INFINITY }, other[] = { 1, 5, 2 };
    chrono_fit2 f, before;
    double resid[3] = { 7, 7, 7 };
    memset(&f, 0x3C, sizeof(f));
    before = f;
    tap_ok(chrono_stats_fit2(NULL, x, y, 3, 0, NULL, &f) == CHRONO_EINVAL &&
           chrono_stats_fit2(x, NULL, y, 3, 0, NULL, &f) == CHRONO_EINVAL &&
           chrono_stats_fit2(x, other, NULL, 3, 0, NULL, &f) == CHRONO_EINVAL &&
           chrono_stats_fit2(x, other, y, 3, 0, NULL, NULL) == CHRONO_EINVAL &&
           chrono_stats_fit2(x, other, y, 1, 0, NULL, &f) == CHRONO_EINVAL &&
           chrono_stats_fit2(x, other, y, 2, CHRONO_FIT2_INTERCEPT, NULL, &f) == CHRONO_EINVAL &&
           chrono_stats_fit2(x, other, y, 3, 8, NULL, &f) == CHRONO_EINVAL &&
           chrono_stats_fit2(x, x2, y, 3, 0, resid, &f) == CHRONO_EINVAL &&
           chrono_stats_fit2(x, z, y, 3, 0, resid, &f) == CHRONO_EINVAL &&
           chrono_stats_fit2(x, other, y0, 3, CHRONO_FIT2_RELATIVE, resid, &f) == CHRONO_EINVAL &&
           chrono_stats_fit2(x, other, nan_y, 3, 0, resid, &f) == CHRONO_EINVAL &&
           chrono_stats_fit2(inf_x, other, y, 3, 0, resid, &f) == CHRONO_EINVAL &&
           memcmp(&f, &before, sizeof(f)) == 0 && resid[0] == 7 && resid[2] == 7,
           "fit2: NULL, n < p, unknown flags, collinear, zero predictor, y 0 with weights, NaN/inf -> CHRONO_EINVAL, "
           "out and resid untouched");
    tap_ok(chrono_stats_fit2(x, other, y0, 3, 0, NULL, &f) == 0 && f.se_a == f.se_a,
           "fit2: a y of 0 is fine without relative weights");
    tap_ok(chrono_stats_fit2(x, other, y, 2, 0, NULL, &f) == 0 && isnan(f.se_a) && isnan(f.se_b),
           "fit2: n == p fits exactly, standard errors NAN");
}

/* ---- histogram ------------------------------------------------------------------------- */

static void test_histogram(void)
{
    /* [0, 2] in 4 bins of .5: 0 -> 0, .5 -> 1, 1 -> 2, 1.5 -> 3, 2 -> 3 (the
       top edge belongs to the last bin), -5 clamps to 0, 9 clamps to 3;
       NaN is not counted. */
    static const double x[] = { 0, 0.5, 1, 1.5, 2, 2, -5, 9, NAN };
    unsigned bins[4] = { 9, 9, 9, 9 }, one[3];
    chrono_stats_histogram(x, COUNT(x), 0.0, 2.0, bins, 4);
    tap_ok(bins[0] == 2 && bins[1] == 1 && bins[2] == 1 && bins[3] == 4, "histogram: edges, clamping, NaN skipped (%u %u %u %u)",
           bins[0], bins[1], bins[2], bins[3]);
    chrono_stats_histogram(x, 8, 1.0, 1.0, one, 3);
    tap_ok(one[0] == 8 && one[1] == 0 && one[2] == 0, "histogram: empty range [1, 1] counts everything in bin 0");
    chrono_stats_histogram(NULL, 5, 0.0, 1.0, one, 3);
    tap_ok(one[0] == 0 && one[1] == 0 && one[2] == 0, "histogram: x NULL leaves zeroed bins");
}

/* ---- pooling across processes ------------------------------------------------ */

/* Three processes whose medians differ by 10% (100, 105, 110), each with a
   narrow spread of its own (±0.5%): the pooled interval covers the spread of
   the medians, not one process's narrow interval; it says its level (three
   processes: 1 - 2^-2 = 75%); MAD, quartiles and extremes are those of all
   the samples together; the interval lies within [min, max]. */
static void test_pool_three(void)
{
    static double g[3][41], all[123];
    const double *x[3];
    size_t n[3] = { 41, 41, 41 }, i, k;
    chrono_stats p, c, one;
    uint64_t seed = 7;
    int rc, ok;
    for (k = 0; k < 3; k++) {
        for (i = 0; i < 41; i++) g[k][i] = (100.0 + 5.0 * (double)k) * (1.0 + 0.01 * (lcg_next(&seed) - 0.5));
        x[k] = g[k];
        memcpy(all + 41 * k, g[k], sizeof g[k]);
    }
    rc = chrono_stats_pool(x, n, 3, 0.95, &p);
    (void)chrono_stats_compute(all, 123, 0.95, NULL, &c);
    (void)chrono_stats_compute(g[0], 41, 0.95, NULL, &one);
    tap_ok(rc == 0 && p.n == 123, "pool of 3 x 41: 0, n 123 (rc %d)", rc);
    {
        double m[3];
        for (k = 0; k < 3; k++) { chrono_stats s; memset(&s, 0, sizeof s); (void)chrono_stats_compute(g[k], 41, 0.95, NULL, &s); m[k] = s.median; }
        qsort(m, 3, sizeof m[0], compare_doubles);
        ok = same("median of the medians", p.median, m[1], 0);
        ok &= p.ci_low <= m[0] && p.ci_high >= m[2];
        if (!ok) tap_diag("CI [%.4f, %.4f], medians %.4f %.4f %.4f", p.ci_low, p.ci_high, m[0], m[1], m[2]);
        tap_ok(ok, "pooled interval covers the three medians' spread [%.2f, %.2f] (a process's own is %.2f wide)", m[0], m[2],
               one.ci_high - one.ci_low);
    }
    tap_ok(p.ci_high - p.ci_low > 5 * (one.ci_high - one.ci_low), "pooled interval far wider than one process's own");
    tap_ok(same("level", p.ci_level, 0.75, 1e-12), "pooled level 0.75 over three processes (%.4f), below the 0.95 asked",
           p.ci_level);
    tap_ok(p.ci_low >= p.min && p.ci_high <= p.max && p.min <= p.median && p.median <= p.max,
           "pooled interval within [min, max] (%.3f <= %.3f, %.3f <= %.3f)", p.min, p.ci_low, p.ci_high, p.max);
    ok = same("min", p.min, c.min, 0) & same("max", p.max, c.max, 0) & same("mad", p.mad, c.mad, 0) &
         same("q1", p.q1, c.q1, 0) & same("q3", p.q3, c.q3, 0) & same("mean", p.mean, c.mean, 0) &
         same("stddev", p.stddev, c.stddev, 0) & same_size("outliers", p.outliers_high + p.outliers_low,
                                                           c.outliers_high + c.outliers_low);
    tap_ok(ok && p.mad > 3.0, "MAD, quartiles, extremes, mean, sd over all 123 samples (MAD %.3f, not one process's %.3f)",
           p.mad, one.mad);
}

/* Many processes: an order-statistic interval over their medians, at the level asked. */
static void test_pool_many(void)
{
    static double g[25][9];
    const double *x[25];
    size_t n[25], i, k;
    double lo = 1e300, hi = -1e300;
    chrono_stats p;
    uint64_t seed = 11;
    for (k = 0; k < 25; k++) {
        double base = 100.0 + 20.0 * lcg_next(&seed);
        for (i = 0; i < 9; i++) g[k][i] = base + 0.01 * (double)i;
        x[k] = g[k]; n[k] = 9;
        if (g[k][4] < lo) lo = g[k][4];
        if (g[k][4] > hi) hi = g[k][4];
    }
    int rc = chrono_stats_pool(x, n, 25, 0.95, &p);
    tap_ok(rc == 0 && p.ci_level >= 0.95 && p.ci_low > lo && p.ci_high < hi &&
           p.ci_low <= p.median && p.median <= p.ci_high,
           "25 processes: the interval of the median of medians at >= 95%% (%.4f), inside their range", p.ci_level);
}

static void test_pool_edges(void)
{
    static const double a[] = { 3, 1, 2, 5, 4 }, b[] = { 10, 11 };
    const double *x[3] = { a, NULL, b }, *bad[2] = { a, NULL };
    size_t n[3] = { 5, 0, 2 }, nbad[2] = { 5, 3 }, one_n[1] = { 5 };
    double nan_data[2] = { 1, NAN };
    const double *xn[1] = { nan_data };
    size_t nn[1] = { 2 };
    chrono_stats p, c;
    size_t before = allocs;
    (void)chrono_stats_compute(a, 5, 0.9, NULL, &c);
    tap_ok(chrono_stats_pool(x, one_n, 1, 0.9, &p) == 0 && p.median == c.median && p.ci_low == c.ci_low &&
           p.ci_high == c.ci_high && p.ci_level == c.ci_level && p.mad == c.mad, "one group: the same as chrono_stats_compute");
    int rc = chrono_stats_pool(x, n, 3, 0.95, &p);
    tap_ok(rc == 0 && p.n == 7 && p.median == 6.75 && p.ci_low == 3 && p.ci_high == 10.5 &&
           p.ci_level == 0.5, "an empty group is skipped: two groups, median of {3, 10.5} = 6.75 [3, 10.5], level 0.5 (%g [%g, %g] %g)",
           p.median, p.ci_low, p.ci_high, p.ci_level);
    tap_ok(chrono_stats_pool(bad, nbad, 2, 0.95, &p) == CHRONO_EINVAL && chrono_stats_pool(NULL, n, 3, 0.95, &p) == CHRONO_EINVAL &&
           chrono_stats_pool(x, NULL, 3, 0.95, &p) == CHRONO_EINVAL && chrono_stats_pool(x, n, 0, 0.95, &p) == CHRONO_EINVAL &&
           chrono_stats_pool(x, n, 3, 1.0, &p) == CHRONO_EINVAL && chrono_stats_pool(xn, nn, 1, 0.95, &p) == CHRONO_EINVAL &&
           chrono_stats_pool(x, n, 3, 0.95, NULL) == CHRONO_EINVAL,
           "chrono_stats_pool: NULL group with samples, NULL arrays, k 0, confidence 1, NaN, NULL out -> CHRONO_EINVAL");
    alloc_fails = 1;
    tap_ok(chrono_stats_pool(x, n, 3, 0.95, &p) == CHRONO_ENOMEM, "chrono_stats_pool: CHRONO_ENOMEM when allocation fails");
    alloc_fails = 0;
    {
        double med[3] = { 2, 1, 3 }, lo[3] = { 0.5, 0.4, 2.5 }, hi[3] = { 2.1, 1.2, 9 };
        chrono_stats m;
        tap_ok(chrono_stats_pool_median(med, NULL, NULL, 3, 0.95, NULL, &m) == 0 && m.median == 2 && m.ci_low == 1 &&
               m.ci_high == 3 && m.ci_level == 0.75, "pool_median of {2, 1, 3}: 2 [1, 3] at 0.75");
        tap_ok(chrono_stats_pool_median(med, lo, hi, 3, 0.95, NULL, &m) == 0 && m.ci_low == 0.5 && m.ci_high == 3,
               "pool_median widened to the median of the groups' own bounds (0.5 below; 2.1 is inside)");
        tap_ok(chrono_stats_pool_median(med, lo, NULL, 3, 0.95, NULL, &m) == CHRONO_EINVAL &&
               chrono_stats_pool_median(NULL, NULL, NULL, 3, 0.95, NULL, &m) == CHRONO_EINVAL,
               "pool_median: lo without hi, NULL medians -> CHRONO_EINVAL");
    }
    (void)before;
}

int main(void)
{
    test_sort_patterns();
    test_heap_sort();
    test_sort_nan();
    test_quantile_hand();
    test_median_ci_hand();
    test_median_ci_large();
    test_median_ci_fixtures();
    test_median_ci_errors();
    test_compute_hand();
    test_compute_outliers_hand();
    test_compute_doc_example();
    test_compute_n1_n2();
    test_compute_constant();
    test_compute_fixtures();
    test_compute_scratch();
    test_compute_errors();
    test_ratio_hand();
    test_ratio_fixtures();
    test_ratio_scratch();
    test_ratio_errors();
    test_fit_hand();
    test_fit_fixtures();
    test_fit_errors();
    test_fit_extreme_scale();
    test_fit2_exact();
    test_fit2_se();
    test_fit2_weights_matter();
    test_fit2_errors();
    test_histogram();
    test_pool_three();
    test_pool_many();
    test_pool_edges();
    tap_ok(allocs == frees, "every CHRONO_MALLOC was freed (%zu allocations)", allocs);
    return tap_done();
}

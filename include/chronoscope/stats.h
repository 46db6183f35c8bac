/* chronoscope/stats.h — pure statistics on arrays of doubles: summary,
   quantiles, a distribution-free confidence interval of the median, paired
   ratios, a least-squares line and a histogram.  No clock, no I/O.

   Usage:

       double ns[] = { 12.1, 11.9, 12.4, 12.0, 30.5, 12.2, 11.8 };
       chrono_stats s;
       if (chrono_stats_compute(ns, 7, 0.95, NULL, &s) == 0)
           printf("median %.2f ns, %.0f%% CI [%.2f, %.2f], %zu high outliers\n",
                  s.median, 100 * s.ci_level, s.ci_low, s.ci_high, s.outliers_high);

   Functions:
     chrono_stats_compute    the whole chrono_stats of x[0..n); x is not modified
     chrono_stats_ratio      median of paired ratios a_i/b_i with its confidence interval
     chrono_stats_pool       samples of k groups (processes) pooled, the groups the units of its CI
     chrono_stats_pool_median  the median of k groups' medians and its CI over the groups
     chrono_stats_pool_moments   n, mean, sd of k groups from their counts, means and sds
     chrono_stats_pool_summaries the chrono_stats of k groups from their summaries alone
     chrono_stats_scale      every figure times f (another unit)
     chrono_stats_fit        least squares y = intercept + slope * x, with r2
     chrono_stats_fit2       weighted least squares y = a x1 + b x2 (+ c), standard errors
     chrono_stats_median_ci  ranks of the order statistics that bound the median's CI
     chrono_stats_level_short  does an interval's level fall short of the confidence asked?
     chrono_stats_quantile   type-7 quantile (R's default, numpy 'linear') of sorted data
     chrono_stats_median     the median of x[0..n), x sorted in place
     chrono_stats_sort       ascending in place (introsort: no allocation, O(n log n))
     chrono_stats_histogram  counts in equal bins, for sparklines

   Scratch: compute and ratio need n doubles of workspace.  Pass them, or NULL
   to have CHRONO_MALLOC/CHRONO_FREE called once (CHRONO_ENOMEM if it fails).

   Definitions:
     stddev   sample standard deviation (n - 1); NAN when n == 1.
     cv       stddev / mean; NAN when n == 1 or mean == 0.
     mad      median absolute deviation × 1.4826 (estimates sigma for normal data).
     CI       [x(lo), x(hi)], the narrowest symmetric pair of order statistics whose
              coverage P(lo < B < n - lo), B ~ binomial(n, 1/2), reaches the requested
              confidence.  ci_level is that coverage (exact binomial); when [min, max] falls
              short (small n), the CI is [min, max] and ci_level says how short.
     outliers Tukey: below q1 - 1.5 IQR or above q3 + 1.5 IQR; severe beyond 3 IQR.

   Interface for the modules above
     chrono__all_finite(x, n)            1 when every x[i] is finite (no NaN, no infinity)
     chrono__interquartile_mean(sorted, n)   the mean of the middle half (engine.h's references)
     chrono__stats_nan(st, n)            every figure NAN (the statistics of nothing yet)
     CHRONO__STATS_FIGURES(X)            chrono_stats' figures, one list
     chrono__fences(st, k, &lo, &hi)     Tukey's fences, q1 - k IQR and q3 + k IQR (html.h's plots)
     chrono__sketch_top(st)              where a result's sketch and strip plot end: q3 + 3 IQR,
                                         at most st->max (a far outlier lands in the last bin instead
                                         of squashing the picture; engine.h, threads.h,
                                         processes.h, html.h)

   Errors: CHRONO_EINVAL for NULL, n == 0, NaN or infinite data, confidence
   outside (0, 1); CHRONO_ERANGE when finite data overflow a result (data near
   ±DBL_MAX); CHRONO_ENOMEM.  On error *out is left untouched.  Needs -lm. */
#ifndef CHRONOSCOPE_STATS_H
#define CHRONOSCOPE_STATS_H

#include "base.h"

/* chrono_stats' figures, one list: X(member, unit), unit 1 for a figure in
   the data's unit (scaled with it: chrono_stats_scale), 0 for a pure number.
   The struct, NAN-filling, scaling, the overflow check and the pooled
   figures' gaps come from it; a figure is added here, computed in
   chrono__stats_fill, and written by a report's field list.
     min max mean stddev cv median mad   as in the table above
     q1 q3 p99                           quantiles 0.25, 0.75 and 0.99, type 7
     ci_low ci_high                      distribution-free CI of the median
     ci_level                            coverage achieved (see above) */
#define CHRONO__STATS_FIGURES(X) \
    X(min, 1) X(max, 1) X(mean, 1) X(stddev, 1) X(cv, 0) X(median, 1) X(mad, 1) \
    X(q1, 1) X(q3, 1) X(p99, 1) X(ci_low, 1) X(ci_high, 1) X(ci_level, 0)

typedef struct chrono_stats {
    size_t n;
#define CHRONO__STATS_MEMBER(member, unit) double member;
    CHRONO__STATS_FIGURES(CHRONO__STATS_MEMBER)
#undef CHRONO__STATS_MEMBER
    size_t outliers_low, outliers_high;     /* beyond the 1.5 IQR fences, severe included */
    size_t outliers_severe;                 /* beyond 3 IQR, either side */
} chrono_stats;

typedef struct chrono_ratio {               /* median of paired log-ratios */
    size_t n;
    double ratio, ci_low, ci_high, ci_level; /* exp(median(ln a_i - ln b_i)) and exp of its CI */
} chrono_ratio;

typedef struct chrono_fit {                 /* least squares y = intercept + slope * x */
    size_t n;
    double intercept, slope, r2;            /* r2 = 1 when every y is equal */
} chrono_fit;

/* ---- functions ------------------------------------------------------------ */
CHRONO__EXTERN_C_BEGIN
/* Ascending, in place.  NaNs end up somewhere; nothing breaks. */
CHRONO_API void chrono_stats_sort(double *x, size_t n);

CHRONO_API double chrono_stats_quantile(const double *sorted, size_t n, double p);
/* The median of x[0..n): x sorted in place (chrono_stats_sort), then its
   middle value or the mean of its two middle ones; NAN for n == 0. */
CHRONO_API double chrono_stats_median(double *x, size_t n);
/* 0-based ranks of the CI of the median of n sorted values, and its coverage
   (level may be NULL).  Exact for n <= 51, within 1e-13 beyond; O(sqrt n) time. */
CHRONO_API int chrono_stats_median_ci(size_t n, double confidence, size_t *lo, size_t *hi,
                                      double *level);
/* Does an interval of coverage `level` fall short of the `confidence` asked?
   0: it reaches it (order statistics do whenever n allows: n >= 6 at 0.95),
   or either is unknown (NaN); 1: it falls short (shown with its own level);
   2: no interval at all (level 0: a single value).  The runner's
   CHRONO_WARN_LOW_LEVEL and the reports' "n/a" follow this one rule. */
CHRONO_API int chrono_stats_level_short(double level, double confidence);

CHRONO_API int chrono_stats_compute(const double *x, size_t n, double confidence, double *scratch,
                                    chrono_stats *out);
CHRONO_API int chrono_stats_ratio(const double *a, const double *b, size_t n, double confidence,
                                  double *scratch, chrono_ratio *out);

/* Pooled across k groups of samples (the processes of --processes, program.h):
   x[g][0..n[g]) are group g's samples (a group with n[g] == 0 is skipped).
   The groups are the units of variation: .median is the median of the
   groups' medians and [.ci_low, .ci_high] that median's order-statistic CI
   over the groups (chrono_stats_pool_median, each group's own CI of its
   median as .lo/.hi), always within [.min, .max]; .ci_level is its coverage
   over the groups, below `confidence` when they are too few (0.75 for three).
   Every other figure (.n, .min, .max, .mean, .stddev, .cv, .mad, .q1, .q3,
   outliers) is over all the samples together.  One group: the same as
   chrono_stats_compute of it.  Allocates 2 × (samples) + 3k doubles. */
CHRONO_API int chrono_stats_pool(const double *const *x, const size_t *n, size_t k,
                                 double confidence, chrono_stats *out);

/* The median of k groups' medians med[0..k) and its CI with the groups as
   the units: the order-statistic CI of the median over the k medians at
   `confidence` (the lowest to the highest when k is too few), widened, when
   lo and hi (the groups' own CIs of their medians) are given, to the median
   of their lower and of their upper bounds.  Fills .median .ci_low .ci_high
   and .ci_level (the coverage over k: 1 - 2^(1-k) lowest to highest, 0 for
   k = 1); the other fields of *out are left as they are.  scratch: k
   doubles, or NULL (allocated). */
CHRONO_API int chrono_stats_pool_median(const double *med, const double *lo, const double *hi,
                                        size_t k, double confidence, double *scratch,
                                        chrono_stats *out);

/* k groups known by their summaries alone (st[g]->n, .mean, .stddev): .n
   the counts added, .mean weighted by them, .stddev the spread within and
   between the groups (sum of (n_g - 1) sd_g^2 + n_g (mean_g - mean)^2 over
   n - 1; NAN for n < 2), .cv; the other fields of *out are left as they
   are.  A group with n_g == 0 is skipped; an unknown sd_g (NaN, or n_g == 1)
   counts as 0.  0, or CHRONO_EINVAL (NULL, k == 0). */
CHRONO_API int chrono_stats_pool_moments(const chrono_stats *const *st, size_t k,
                                         chrono_stats *out);

/* The whole chrono_stats of k groups from their summaries (when their
   samples are gone): .n, .min, .max exact, the moments as
   chrono_stats_pool_moments, the median and its interval over the groups
   (chrono_stats_pool_median of their medians and intervals, kept within
   [.min, .max]; NAN when one is unknown); what needs the samples (.mad,
   .q1, .q3) NAN, no outliers.  One group: its own figures.  0,
   CHRONO_EINVAL (NULL, k == 0), CHRONO_ENOMEM (4k doubles). */
CHRONO_API int chrono_stats_pool_summaries(const chrono_stats *const *st, size_t k,
                                           double confidence, chrono_stats *out);

/* src with every figure in another unit (times f: ns to ticks); counts and
   levels as they are.  dst may be src. */
CHRONO_API void chrono_stats_scale(const chrono_stats *src, double f, chrono_stats *dst);

CHRONO_API int chrono_stats_fit(const double *x, const double *y, size_t n, chrono_fit *out);
/* Zeroes bins[0..nbins), then counts each x; NaNs are not counted. */
CHRONO_API void chrono_stats_histogram(const double *x, size_t n, double lo, double hi,
                                       unsigned *bins, size_t nbins);

CHRONO__EXTERN_C_END

/* ---- two predictors --------------------------------------------------------- */
/* chrono_stats_fit2 flags. */
enum { CHRONO_FIT2_RELATIVE = 1,    /* weights 1/y^2: each point's relative error counts alike */
       CHRONO_FIT2_INTERCEPT = 2 }; /* fit a constant c too */

/* Weighted least squares y = a x1 + b x2 (+ c).  Standard errors from the
   weighted residuals (sigma^2 = sum w r^2 / (n - p), p = 2 or 3 parameters);
   NAN when n == p.  r2 = 1 - sum w r^2 / sum w (y - ybar_w)^2 (1 when every y
   is equal and the fit is exact; it may be below 0 without an intercept). */
typedef struct chrono_fit2 {
    size_t n;
    double a, b, c;                 /* c = 0 without CHRONO_FIT2_INTERCEPT */
    double se_a, se_b, se_c;        /* standard errors; se_c = 0 without an intercept */
    double r2;
    double max_rel_resid;           /* max |y_i - fit_i| / |y_i| */
} chrono_fit2;

CHRONO__EXTERN_C_BEGIN
/* resid (may be NULL): n doubles, y_i - fit_i.  CHRONO_EINVAL for NULL
   arrays or out, n < p, NaN or infinite data, unknown flags, a y of 0 with
   CHRONO_FIT2_RELATIVE, or predictors that cannot be told apart (collinear,
   or all zero); CHRONO_ERANGE when a result overflows.  On error *out and
   resid are left untouched.  No allocation. */
CHRONO_API int chrono_stats_fit2(const double *x1, const double *x2, const double *y, size_t n,
                                 int flags, double *resid, chrono_fit2 *out);

/* z with P(|Z| <= z) = confidence for a standard normal Z (1.95996 at 0.95);
   NAN outside (0, 1). */
CHRONO_API double chrono_stats_z(double confidence);
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_STATS_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_STATS_IMPL)
#define CHRONOSCOPE_STATS_IMPL

CHRONO__EXTERN_C_BEGIN

#define CHRONO__MAD_SCALE 1.4826
/* Binomial weights this far below the covered weight no longer change a
   coverage that a double can hold. */
#define CHRONO__NEGLIGIBLE 1e-40

/* ---- sorting ------------------------------------------------------------ */

CHRONO__PRIVATE void chrono__swap(double *a, double *b)
{
    double t = *a;
    *a = *b;
    *b = t;
}

CHRONO__PRIVATE void chrono__insertion_sort(double *x, size_t n)
{
    size_t i, j;
    for (i = 1; i < n; i++) {
        double v = x[i];
        for (j = i; j > 0 && x[j - 1] > v; j--) x[j] = x[j - 1];
        x[j] = v;
    }
}

CHRONO__PRIVATE void chrono__sift_down(double *x, size_t root, size_t n)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n) return;
        if (child + 1 < n && x[child + 1] > x[child]) child++;
        if (!(x[child] > x[root])) return;
        chrono__swap(&x[root], &x[child]);
        root = child;
    }
}

CHRONO__PRIVATE void chrono__heap_sort(double *x, size_t n)
{
    size_t i;
    for (i = n / 2; i-- > 0;) chrono__sift_down(x, i, n);
    for (i = n; i-- > 1;) {
        chrono__swap(&x[0], &x[i]);
        chrono__sift_down(x, 0, i);
    }
}

/* Hoare partition around the median of three (n >= 3).  Returns k with
   0 < k < n: x[0..k) <= pivot <= x[k..n). */
CHRONO__PRIVATE size_t chrono__partition(double *x, size_t n)
{
    size_t i = 0, j = n - 1, mid = (n - 1) / 2;
    double pivot;
    if (x[mid] < x[0]) chrono__swap(&x[mid], &x[0]);
    if (x[j] < x[0]) chrono__swap(&x[j], &x[0]);
    if (x[j] < x[mid]) chrono__swap(&x[j], &x[mid]);
    pivot = x[mid];
    for (;;) {
        while (x[i] < pivot) i++;
        while (pivot < x[j]) j--;
        if (i >= j) return j + 1;
        chrono__swap(&x[i++], &x[j--]);
    }
}

/* Quicksort on the larger side, recursion on the smaller (stack depth
   <= log2 n), heapsort once the depth budget is spent. */
CHRONO__PRIVATE void chrono__intro_sort(double *x, size_t n, unsigned depth_left)
{
    while (n > 16) {
        size_t k;
        if (depth_left-- == 0) {
            chrono__heap_sort(x, n);
            return;
        }
        k = chrono__partition(x, n);
        if (k < n - k) {
            chrono__intro_sort(x, k, depth_left);
            x += k;
            n -= k;
        } else {
            chrono__intro_sort(x + k, n - k, depth_left);
            n = k;
        }
    }
    chrono__insertion_sort(x, n);
}

CHRONO_API void chrono_stats_sort(double *x, size_t n)
{
    unsigned depth = 0;
    size_t m;
    if (!x) return;
    if (n > (size_t)-1 / sizeof(double)) return;   /* more doubles than memory holds */
    for (m = n; m > 1; m /= 2) depth += 2;
    chrono__intro_sort(x, n, depth);
}

CHRONO_API double chrono_stats_median(double *x, size_t n)
{
    if (!x || n == 0) return NAN;
    chrono_stats_sort(x, n);
    return n & 1 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* ---- quantiles and the median's confidence interval ---------------------- */

CHRONO_API double chrono_stats_quantile(const double *sorted, size_t n, double p)
{
    double h, frac;
    size_t i;
    if (!sorted || n == 0 || !(p >= 0.0 && p <= 1.0)) return NAN;
    if (n > (size_t)-1 / sizeof(double)) return NAN;   /* more doubles than memory holds */
    h = (double)(n - 1) * p;
    i = (size_t)h;
    if (i >= n - 1) return sorted[n - 1];
    frac = h - (double)i;
    return sorted[i] + frac * (sorted[i + 1] - sorted[i]);
}

CHRONO__PRIVATE int chrono__confidence_valid(double confidence)
{
    return confidence > 0.0 && confidence < 1.0;
}

/* The CI walks outward from the middle of the sorted data one symmetric pair
   of ranks (lo, n-1-lo) at a time.  The pair misses the median only when at
   most lo values fall below it, or above, so it covers with probability
   P(lo < B < n - lo), B ~ binomial(n, 1/2).  Weights proportional to C(n, j)
   are exact integers while n <= 51 (so is the coverage, a ratio to 2^n);
   beyond, they start at 1 in the middle: only ratios matter, and walking
   outward from the largest term nothing overflows or underflows. */
typedef struct chrono__median_walk {
    size_t n, lo;       /* the current pair of ranks: lo and n - 1 - lo */
    double covered;     /* weight of the ranks strictly inside the pair */
    double w;           /* weight of rank lo, added twice on widening */
} chrono__median_walk;

/* C(n, n/2) when every step of the walk stays exact in a double, else 1. */
CHRONO__PRIVATE double chrono__binomial_centre(size_t n)
{
    double c = 1.0;
    size_t k, m = n / 2;
    if (n > 51) return 1.0;
    for (k = 1; k <= m; k++) c = c * (double)(n - m + k) / (double)k;
    return c;
}

CHRONO__PRIVATE chrono__median_walk chrono__median_walk_start(size_t n)
{
    chrono__median_walk wk;
    double centre = chrono__binomial_centre(n);
    size_t m = n / 2;
    wk.n = n;
    if (n % 2) {             /* the pair (m, m) holds nothing inside */
        wk.lo = m;
        wk.covered = 0.0;
        wk.w = centre;
    } else {                 /* the pair (m-1, m) holds rank m's weight */
        wk.lo = m - 1;
        wk.covered = centre;
        wk.w = centre * (double)m / (double)(m + 1);
    }
    return wk;
}

/* One pair wider: ranks lo and n-1-lo move inside.  Returns 0 instead when
   lo is 0 or what is left outside cannot change the coverage any more. */
CHRONO__PRIVATE int chrono__median_walk_widen(chrono__median_walk *wk)
{
    if (wk->lo == 0 || wk->w < wk->covered * CHRONO__NEGLIGIBLE) return 0;
    wk->covered += 2.0 * wk->w;
    /* C(n, lo-1) = C(n, lo) lo / (n-lo+1) */
    wk->w *= (double)wk->lo / (double)(wk->n - wk->lo + 1);
    wk->lo--;
    return 1;
}

CHRONO_API int chrono_stats_median_ci(size_t n, double confidence, size_t *lo, size_t *hi,
                                      double *level)
{
    chrono__median_walk wk;
    double total, need;
    if (n == 0 || !lo || !hi || !chrono__confidence_valid(confidence)) return CHRONO_EINVAL;
    wk = chrono__median_walk_start(n);
    while (chrono__median_walk_widen(&wk)) {}
    total = wk.covered + 2.0 * wk.w;
    need = confidence * total;
    wk = chrono__median_walk_start(n);
    while (wk.covered < need && chrono__median_walk_widen(&wk)) {}
    *lo = wk.lo;
    *hi = n - 1 - wk.lo;
    if (level) *level = wk.covered / total;
    return 0;
}

CHRONO_API int chrono_stats_level_short(double level, double confidence)
{
    if (level != level || confidence != confidence || level >= confidence - 1e-9) return 0;
    return level > 0 ? 1 : 2;
}

/* ---- moments ------------------------------------------------------------ */

CHRONO__PRIVATE int chrono__all_finite(const double *x, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

/* Two passes, the second adding back what the first lost to rounding; kept
   within [min, max] so that constant data have exactly that mean. */
CHRONO__PRIVATE double chrono__mean(const double *x, size_t n)
{
    double sum = 0.0, residual = 0.0, lo = x[0], hi = x[0], mean;
    size_t i;
    for (i = 0; i < n; i++) {
        sum += x[i];
        if (x[i] < lo) lo = x[i];
        if (x[i] > hi) hi = x[i];
    }
    mean = sum / (double)n;
    for (i = 0; i < n; i++) residual += x[i] - mean;
    mean += residual / (double)n;
    return mean < lo ? lo : (mean > hi ? hi : mean);
}

/* The largest |x - mean|, 1 when every x is the mean: a scale that keeps
   squared deviations from overflowing (or underflowing). */
CHRONO__PRIVATE double chrono__deviation_scale(const double *x, size_t n, double mean)
{
    double m = 0.0;
    size_t i;
    for (i = 0; i < n; i++)
        if (fabs(x[i] - mean) > m) m = fabs(x[i] - mean);
    return m > 0.0 ? m : 1.0;
}

/* Sum of squared deviations divided by scale², corrected two-pass (Chan,
   Golub & LeVeque): representable whenever the standard deviation is. */
CHRONO__PRIVATE double chrono__sum_squared_deviations(const double *x, size_t n, double mean,
                                                      double scale)
{
    double ss = 0.0, s = 0.0;
    size_t i;
    for (i = 0; i < n; i++) {
        double d = (x[i] - mean) / scale;
        s += d;
        ss += d * d;
    }
    ss -= s * s / (double)n;
    return ss > 0.0 ? ss : 0.0;
}

/* ---- chrono_stats_compute ------------------------------------------------- */

CHRONO__PRIVATE double *chrono__alloc_doubles(size_t n)
{
    if (n > (size_t)-1 / sizeof(double)) return NULL;
    return (double *)CHRONO_MALLOC(n * sizeof(double));
}

/* Tukey's fences: q1 - k IQR and q3 + k IQR (k 1.5: outliers; 3: far ones). */
CHRONO__PRIVATE void chrono__fences(const chrono_stats *s, double k, double *lo, double *hi)
{
    double iqr = s->q3 - s->q1;
    *lo = s->q1 - k * iqr;
    *hi = s->q3 + k * iqr;
}

CHRONO__PRIVATE void chrono__count_outliers(const double *sorted, size_t n, chrono_stats *s)
{
    double fence_low, fence_high, severe_low, severe_high;
    size_t i;
    chrono__fences(s, 1.5, &fence_low, &fence_high);
    chrono__fences(s, 3.0, &severe_low, &severe_high);
    s->outliers_low = s->outliers_high = s->outliers_severe = 0;
    for (i = 0; i < n; i++) {
        if (sorted[i] < fence_low) s->outliers_low++;
        if (sorted[i] > fence_high) s->outliers_high++;
        if (sorted[i] < severe_low || sorted[i] > severe_high) s->outliers_severe++;
    }
}

/* Median absolute deviation; overwrites the sorted data. */
CHRONO__PRIVATE double chrono__mad(double *sorted, size_t n, double median)
{
    size_t i;
    for (i = 0; i < n; i++) sorted[i] = fabs(sorted[i] - median);
    chrono_stats_sort(sorted, n);
    return CHRONO__MAD_SCALE * chrono_stats_quantile(sorted, n, 0.5);
}

/* The top of a result's sketch: q3 + 3 IQR, at most max. */
CHRONO__PRIVATE double chrono__sketch_top(const chrono_stats *st)
{
    double lo, fence;
    chrono__fences(st, 3.0, &lo, &fence);
    return fence < st->max ? fence : st->max;
}

/* Nothing overflowed: no figure is infinite, and those every sample defines
   are numbers (a spread that overflows can come out NaN, as under x87: the
   stddev of more than one sample, the quartiles, the MAD). */
CHRONO__PRIVATE int chrono__stats_finite(const chrono_stats *s)
{
    int ok = isfinite(s->mean) && (s->n == 1 || isfinite(s->stddev)) && isfinite(s->median) &&
             isfinite(s->q1) && isfinite(s->q3) && isfinite(s->mad);
#define CHRONO__STATS_NOT_INF(member, unit) ok = ok && !isinf(s->member);
    CHRONO__STATS_FIGURES(CHRONO__STATS_NOT_INF)
#undef CHRONO__STATS_NOT_INF
    return ok;
}

/* Every figure NAN, n as given, no outliers: the statistics of nothing yet. */
CHRONO__PRIVATE void chrono__stats_nan(chrono_stats *st, size_t n)
{
    st->n = n;
#define CHRONO__STATS_SET_NAN(member, unit) st->member = NAN;
    CHRONO__STATS_FIGURES(CHRONO__STATS_SET_NAN)
#undef CHRONO__STATS_SET_NAN
    st->outliers_low = st->outliers_high = st->outliers_severe = 0;
}

/* Fills *s from x, using work (n doubles). */
CHRONO__PRIVATE int chrono__stats_fill(const double *x, size_t n, double confidence, double *work,
                                       chrono_stats *s)
{
    size_t lo = 0, hi = n - 1;
    memcpy(work, x, n * sizeof(double));
    chrono_stats_sort(work, n);
    s->n = n;
    s->min = work[0];
    s->max = work[n - 1];
    s->mean = chrono__mean(work, n);
    if (n > 1) {
        double scale = chrono__deviation_scale(work, n, s->mean);
        s->stddev = scale *
                    sqrt(chrono__sum_squared_deviations(work, n, s->mean, scale) / (double)(n - 1));
    } else {
        s->stddev = NAN;
    }
    s->cv = (n > 1 && s->mean != 0.0) ? s->stddev / s->mean : NAN;
    s->median = chrono_stats_quantile(work, n, 0.5);
    s->q1 = chrono_stats_quantile(work, n, 0.25);
    s->q3 = chrono_stats_quantile(work, n, 0.75);
    s->p99 = chrono_stats_quantile(work, n, 0.99);
    chrono_stats_median_ci(n, confidence, &lo, &hi, &s->ci_level);
    s->ci_low = work[lo];
    s->ci_high = work[hi];
    chrono__count_outliers(work, n, s);
    s->mad = chrono__mad(work, n, s->median);
    return chrono__stats_finite(s) ? 0 : CHRONO_ERANGE;
}

CHRONO_API int chrono_stats_compute(const double *x, size_t n, double confidence, double *scratch,
                                    chrono_stats *out)
{
    chrono_stats s;
    double *work = scratch;
    int rc;
    /* more doubles than memory holds */
    if (n > (size_t)-1 / sizeof(double)) return CHRONO_ERANGE;
    if (!x || !out || n == 0 || !chrono__confidence_valid(confidence) || !chrono__all_finite(x, n))
        return CHRONO_EINVAL;
    if (!work && !(work = chrono__alloc_doubles(n))) return CHRONO_ENOMEM;
    rc = chrono__stats_fill(x, n, confidence, work, &s);
    if (!scratch) CHRONO_FREE(work);
    if (rc == 0) *out = s;
    return rc;
}

/* ---- pooled across groups (processes) ------------------------------------------ */

CHRONO_API int chrono_stats_pool_median(const double *med, const double *lo, const double *hi,
                                        size_t k, double confidence, double *scratch,
                                        chrono_stats *out)
{
    double *work = scratch, m, wl, wh, level = 0;
    size_t a = 0, b;
    if (!med || !out || k == 0 || (!lo) != (!hi) || !chrono__confidence_valid(confidence) ||
        !chrono__all_finite(med, k) ||
        (lo && (!chrono__all_finite(lo, k) || !chrono__all_finite(hi, k))))
        return CHRONO_EINVAL;
    if (k > (size_t)-1 / sizeof(double)) return CHRONO_ERANGE;
    if (!work && !(work = chrono__alloc_doubles(k))) return CHRONO_ENOMEM;
    memcpy(work, med, k * sizeof *work);
    chrono_stats_sort(work, k);
    m = chrono_stats_quantile(work, k, 0.5);
    b = k - 1;
    /* all k when too few */
    if (k > 1) (void)chrono_stats_median_ci(k, confidence, &a, &b, &level);
    wl = work[a];
    wh = work[b];
    if (lo) {   /* never narrower than a typical group's own interval */
        double l, h;
        memcpy(work, lo, k * sizeof *work);
        chrono_stats_sort(work, k);
        l = chrono_stats_quantile(work, k, 0.5);
        memcpy(work, hi, k * sizeof *work);
        chrono_stats_sort(work, k);
        h = chrono_stats_quantile(work, k, 0.5);
        if (l < wl) wl = l;
        if (h > wh) wh = h;
    }
    if (!scratch) CHRONO_FREE(work);
    out->median = m;
    out->ci_low = wl < m ? wl : m;
    out->ci_high = wh > m ? wh : m;
    out->ci_level = level;
    return 0;
}

CHRONO_API int chrono_stats_pool(const double *const *x, const size_t *n, size_t k,
                                 double confidence, chrono_stats *out)
{
    chrono_stats s;
    double *all, *work, *med, *lo, *hi;
    size_t total = 0, g, m = 0, at = 0;
    int rc;
    if (!x || !n || !out || k == 0 || !chrono__confidence_valid(confidence)) return CHRONO_EINVAL;
    for (g = 0; g < k; g++) {
        if (n[g] && (!x[g] || !chrono__all_finite(x[g], n[g]))) return CHRONO_EINVAL;
        if (n[g] > (size_t)-1 / 4 / sizeof(double) - total - k) return CHRONO_ERANGE;
        total += n[g];
        m += n[g] > 0;
    }
    if (total == 0) return CHRONO_EINVAL;
    if (!(all = chrono__alloc_doubles(2 * total + 3 * m))) return CHRONO_ENOMEM;
    work = all + total;
    med = work + total; lo = med + m; hi = lo + m;
    for (g = 0; g < k; g++) { if (n[g]) memcpy(all + at, x[g], n[g] * sizeof *all); at += n[g]; }
    /* every figure over all the samples */
    rc = chrono__stats_fill(all, total, confidence, work, &s);
    /* each group's median and own interval */
    for (g = 0, at = 0; rc == 0 && m > 1 && g < k; g++) {
        size_t a = 0, b = 0;
        if (!n[g]) continue;
        memcpy(work, x[g], n[g] * sizeof *work);
        chrono_stats_sort(work, n[g]);
        med[at] = chrono_stats_quantile(work, n[g], 0.5);
        (void)chrono_stats_median_ci(n[g], confidence, &a, &b, NULL);
        lo[at] = work[a]; hi[at] = work[b];
        at++;
    }
    if (rc == 0 && m > 1) rc = chrono_stats_pool_median(med, lo, hi, m, confidence, work, &s);
    CHRONO_FREE(all);
    if (rc < 0) return rc;
    if (s.ci_low < s.min) s.ci_low = s.min;   /* within [min, max] by construction; kept so */
    if (s.ci_high > s.max) s.ci_high = s.max;
    *out = s;
    return 0;
}

CHRONO_API int chrono_stats_pool_moments(const chrono_stats *const *st, size_t k, chrono_stats *out)
{
    double n = 0, sum = 0, ss = 0, nan = NAN;
    size_t g;
    if (!st || !out || k == 0) return CHRONO_EINVAL;
    for (g = 0; g < k; g++)
        if (st[g]->n) { n += (double)st[g]->n; sum += (double)st[g]->n * st[g]->mean; }
    out->n = (size_t)n;
    out->mean = n > 0 ? sum / n : nan;
    for (g = 0; g < k; g++) {
        double d = st[g]->mean - out->mean,
               v = st[g]->n > 1 && st[g]->stddev == st[g]->stddev ? st[g]->stddev : 0.0;
        if (st[g]->n) ss += (double)(st[g]->n - 1) * v * v + (double)st[g]->n * d * d;
    }
    out->stddev = n > 1 ? sqrt(ss / (n - 1)) : nan;
    out->cv = n > 1 && out->mean != 0 ? out->stddev / out->mean : nan;
    return 0;
}

CHRONO_API int chrono_stats_pool_summaries(const chrono_stats *const *st, size_t k,
                                           double confidence, chrono_stats *out)
{
    double *med, *lo, *hi;
    size_t g;
    if (!st || !out || k == 0) return CHRONO_EINVAL;
    if (k == 1) { *out = *st[0]; return 0; }   /* one group: its own figures */
    if (k > (size_t)-1 / 4 / sizeof(double)) return CHRONO_ERANGE;
    if (!(med = chrono__alloc_doubles(4 * k))) return CHRONO_ENOMEM;
    lo = med + k; hi = lo + k;
    chrono__stats_nan(out, 0);   /* what needs the samples stays NAN */
    out->min = st[0]->min; out->max = st[0]->max;
    for (g = 0; g < k; g++) {
        med[g] = st[g]->median; lo[g] = st[g]->ci_low; hi[g] = st[g]->ci_high;
        if (st[g]->min < out->min) out->min = st[g]->min;
        if (st[g]->max > out->max) out->max = st[g]->max;
    }
    (void)chrono_stats_pool_moments(st, k, out);
    if (chrono_stats_pool_median(med, lo, hi, k, confidence, hi + k, out) == 0) {
        if (out->ci_low < out->min) out->ci_low = out->min;
        if (out->ci_high > out->max) out->ci_high = out->max;
    }
    CHRONO_FREE(med);
    return 0;
}

CHRONO_API void chrono_stats_scale(const chrono_stats *src, double f, chrono_stats *dst)
{
    if (!src || !dst) return;
    *dst = *src;
#define CHRONO__STATS_SCALE(member, unit) if (unit) dst->member *= f;
    CHRONO__STATS_FIGURES(CHRONO__STATS_SCALE)
#undef CHRONO__STATS_SCALE
}

/* ---- paired ratios ---------------------------------------------------------- */

CHRONO__PRIVATE int chrono__all_positive_finite(const double *x, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (!(x[i] > 0.0) || !isfinite(x[i])) return 0;
    return 1;
}

CHRONO_API int chrono_stats_ratio(const double *a, const double *b, size_t n, double confidence,
                                  double *scratch, chrono_ratio *out)
{
    chrono_ratio r;
    double *logs = scratch;
    size_t i, lo = 0, hi = 0;
    /* more doubles than memory holds */
    if (n > (size_t)-1 / sizeof(double)) return CHRONO_ERANGE;
    if (!a || !b || !out || n == 0 || !chrono__confidence_valid(confidence) ||
        !chrono__all_positive_finite(a, n) || !chrono__all_positive_finite(b, n))
        return CHRONO_EINVAL;
    if (!logs && !(logs = chrono__alloc_doubles(n))) return CHRONO_ENOMEM;
    /* log(a/b), not log a - log b: equal pairs must give exactly 0 even where
       log returns excess precision (x87); a/b cannot overflow for finite positive
       inputs of a timing ratio in practice, and overflow is caught below. */
    for (i = 0; i < n; i++) logs[i] = log(a[i] / b[i]);
    chrono_stats_sort(logs, n);
    chrono_stats_median_ci(n, confidence, &lo, &hi, &r.ci_level);
    r.n = n;
    r.ratio = exp(chrono_stats_quantile(logs, n, 0.5));
    r.ci_low = exp(logs[lo]);
    r.ci_high = exp(logs[hi]);
    if (!scratch) CHRONO_FREE(logs);
    if (!(r.ci_low > 0.0) || !isfinite(r.ci_high)) return CHRONO_ERANGE;
    *out = r;
    return 0;
}

/* ---- least squares ------------------------------------------------------------ */

CHRONO_API int chrono_stats_fit(const double *x, const double *y, size_t n, chrono_fit *out)
{
    chrono_fit f;
    double mx, my, kx, ky, sxx = 0.0, sxy = 0.0, syy = 0.0;
    size_t i;
    /* more doubles than memory holds */
    if (n > (size_t)-1 / sizeof(double)) return CHRONO_ERANGE;
    if (!x || !y || !out || n < 2 || !chrono__all_finite(x, n) || !chrono__all_finite(y, n))
        return CHRONO_EINVAL;
    mx = chrono__mean(x, n);
    my = chrono__mean(y, n);
    /* Centred and scaled to [-1, 1]: the sums cannot overflow or underflow. */
    kx = chrono__deviation_scale(x, n, mx);
    ky = chrono__deviation_scale(y, n, my);
    for (i = 0; i < n; i++) {
        double dx = (x[i] - mx) / kx, dy = (y[i] - my) / ky;
        sxx += dx * dx;
        sxy += dx * dy;
        syy += dy * dy;
    }
    if (sxx == 0.0) return CHRONO_EINVAL;   /* every x equal: no slope */
    f.n = n;
    f.slope = sxy / sxx * (ky / kx);
    f.intercept = my - f.slope * mx;
    f.r2 = syy == 0.0 ? 1.0 : (sxy / sxx) * (sxy / syy);
    if (f.r2 > 1.0) f.r2 = 1.0;
    if (!isfinite(f.slope) || !isfinite(f.intercept) || !isfinite(f.r2)) return CHRONO_ERANGE;
    *out = f;
    return 0;
}

/* ---- histogram ------------------------------------------------------------------ */

/* The bin of v; outside [lo, hi] clamps to the first or last bin, and a
   degenerate range (hi <= lo, NaN) puts everything in bin 0. */
CHRONO__PRIVATE size_t chrono__histogram_bin(double v, double lo, double hi, size_t nbins)
{
    double t = (v - lo) / (hi - lo) * (double)nbins;
    if (!(hi > lo) || !(t > 0.0)) return 0;
    if (t >= (double)nbins) return nbins - 1;
    return (size_t)t;
}

CHRONO_API void chrono_stats_histogram(const double *x, size_t n, double lo, double hi,
                                       unsigned *bins, size_t nbins)
{
    size_t i;
    if (!bins || nbins == 0) return;
    if (nbins > (size_t)-1 / sizeof(unsigned)) return;   /* more bins than memory holds */
    if (n > (size_t)-1 / sizeof(double)) n = 0;          /* no array is that long: count nothing */
    for (i = 0; i < nbins; i++) bins[i] = 0;
    if (!x) return;
    for (i = 0; i < n; i++)
        if (x[i] == x[i]) bins[chrono__histogram_bin(x[i], lo, hi, nbins)]++;
}

/* ---- two predictors (chrono_stats_fit2) ------------------------------------------ */

/* Row i of the design matrix, weighted by sqrt(w_i) and divided column by
   column by scale[] (so the normal equations stay well scaled). */
CHRONO__PRIVATE int chrono__fit2_row(const double *x1, const double *x2, const double *y, size_t i,
                                     int flags, const double *scale, double *row, double *yw)
{
    double sw = (flags & CHRONO_FIT2_RELATIVE) ? 1.0 / fabs(y[i]) : 1.0;
    int p = 2;
    row[0] = x1[i] * sw / scale[0];
    row[1] = x2[i] * sw / scale[1];
    if (flags & CHRONO_FIT2_INTERCEPT) row[p++] = sw / scale[2];
    *yw = y[i] * sw;
    return p;
}

/* Invert the symmetric p x p matrix m (p <= 3) by Gauss-Jordan with partial
   pivoting.  -1 when it is singular relative to its largest diagonal. */
CHRONO__PRIVATE int chrono__fit2_invert(double m[3][3], int p, double inv[3][3])
{
    double a[3][6], big = 0.0;
    int i, j, k;
    for (i = 0; i < p; i++) {
        if (m[i][i] > big) big = m[i][i];
        for (j = 0; j < p; j++) { a[i][j] = m[i][j]; a[i][p + j] = i == j ? 1.0 : 0.0; }
    }
    if (!(big > 0.0)) return -1;
    for (k = 0; k < p; k++) {
        int piv = k;
        double f;
        for (i = k + 1; i < p; i++) if (fabs(a[i][k]) > fabs(a[piv][k])) piv = i;
        if (!(fabs(a[piv][k]) > 1e-12 * big)) return -1;
        if (piv != k)
            for (j = 0; j < 2 * p; j++) {
                double t = a[k][j];
                a[k][j] = a[piv][j];
                a[piv][j] = t;
            }
        f = a[k][k];
        for (j = 0; j < 2 * p; j++) a[k][j] /= f;
        for (i = 0; i < p; i++) {
            if (i == k || a[i][k] == 0.0) continue;
            f = a[i][k];
            for (j = 0; j < 2 * p; j++) a[i][j] -= f * a[k][j];
        }
    }
    for (i = 0; i < p; i++) for (j = 0; j < p; j++) inv[i][j] = a[i][p + j];
    return 0;
}

/* The mean of the middle half of v (sorted in place): robust to a few slow
   readings, finer than a median where the values are quantised. */
CHRONO__PRIVATE double chrono__interquartile_mean(double *v, int n)
{
    double sum = 0;
    int i;
    chrono_stats_sort(v, (size_t)n);
    for (i = n / 4; i < n - n / 4; i++) sum += v[i];
    return sum / (n - 2 * (n / 4));
}

/* By bisection on erf: no table, any level, to double precision. */
CHRONO_API double chrono_stats_z(double confidence)
{
    double lo = 0.0, hi = 40.0;
    int i;
    if (!(confidence > 0 && confidence < 1)) return NAN;
    for (i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if (erf(mid / sqrt(2.0)) < confidence) lo = mid; else hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Each column's scale (its largest weighted magnitude; the intercept's the
   largest weight) into scale[3]; -1 for a zero y under RELATIVE or a
   predictor that is zero everywhere. */
CHRONO__PRIVATE int chrono__fit2_scale(const double *x1, const double *x2, const double *y,
                                       size_t n, int flags, double *scale)
{
    size_t i;
    for (i = 0; i < n; i++) {
        double w = 1.0;
        if (flags & CHRONO_FIT2_RELATIVE) {
            if (y[i] == 0.0) return -1;
            w = 1.0 / fabs(y[i]);
        }
        if (fabs(x1[i]) * w > scale[0]) scale[0] = fabs(x1[i]) * w;
        if (fabs(x2[i]) * w > scale[1]) scale[1] = fabs(x2[i]) * w;
        if ((flags & CHRONO_FIT2_INTERCEPT) && (i == 0 || w > scale[2])) scale[2] = w;
    }
    return scale[0] > 0.0 && scale[1] > 0.0 && isfinite(scale[0]) && isfinite(scale[1]) &&
           isfinite(scale[2]) ? 0 : -1;
}

CHRONO_API int chrono_stats_fit2(const double *x1, const double *x2, const double *y, size_t n,
                                 int flags, double *resid, chrono_fit2 *out)
{
    chrono_fit2 f;
    double scale[3] = { 0.0, 0.0, 1.0 }, m[3][3] = { { 0 } }, v[3] = { 0 }, inv[3][3],
           coef[3] = { 0 };
    double row[3], yw, ssr = 0.0, sw = 0.0, swy = 0.0, sst = 0.0, ymean, worst = 0.0, sigma2;
    size_t i;
    int p = (flags & CHRONO_FIT2_INTERCEPT) ? 3 : 2, j, k;
    /* more doubles than memory holds */
    if (n > (size_t)-1 / sizeof(double)) return CHRONO_ERANGE;
    if (!x1 || !x2 || !y || !out || (flags & ~(CHRONO_FIT2_RELATIVE | CHRONO_FIT2_INTERCEPT)) ||
        n < (size_t)p || !chrono__all_finite(x1, n) || !chrono__all_finite(x2, n) ||
        !chrono__all_finite(y, n))
        return CHRONO_EINVAL;
    if (chrono__fit2_scale(x1, x2, y, n, flags, scale) < 0) return CHRONO_EINVAL;
    for (i = 0; i < n; i++) {
        chrono__fit2_row(x1, x2, y, i, flags, scale, row, &yw);
        for (j = 0; j < p; j++) {
            v[j] += row[j] * yw;
            for (k = 0; k < p; k++) m[j][k] += row[j] * row[k];
        }
    }
    if (chrono__fit2_invert(m, p, inv) < 0) return CHRONO_EINVAL;   /* collinear */
    for (j = 0; j < p; j++) for (k = 0; k < p; k++) coef[j] += inv[j][k] * v[k];
    f.n = n;
    f.a = coef[0] / scale[0];
    f.b = coef[1] / scale[1];
    f.c = p == 3 ? coef[2] / scale[2] : 0.0;
    /* weighted residuals, weighted mean of y */
    for (i = 0; i < n; i++) {
        double w = (flags & CHRONO_FIT2_RELATIVE) ? 1.0 / (y[i] * y[i]) : 1.0;
        double r = y[i] - (f.a * x1[i] + f.b * x2[i] + f.c);
        ssr += w * r * r;
        sw += w;
        swy += w * y[i];
        if (y[i] != 0.0 && fabs(r / y[i]) > worst) worst = fabs(r / y[i]);
    }
    ymean = swy / sw;
    for (i = 0; i < n; i++) {
        double w = (flags & CHRONO_FIT2_RELATIVE) ? 1.0 / (y[i] * y[i]) : 1.0;
        sst += w * (y[i] - ymean) * (y[i] - ymean);
    }
    f.r2 = sst > 0.0 ? 1.0 - ssr / sst : (ssr == 0.0 ? 1.0 : 0.0);
    f.max_rel_resid = worst;
    sigma2 = n > (size_t)p ? ssr / (double)(n - (size_t)p) : NAN;
    f.se_a = sqrt(sigma2 * inv[0][0]) / scale[0];
    f.se_b = sqrt(sigma2 * inv[1][1]) / scale[1];
    f.se_c = p == 3 ? sqrt(sigma2 * inv[2][2]) / scale[2] : 0.0;
    if (!isfinite(f.a) || !isfinite(f.b) || !isfinite(f.c) || !isfinite(f.r2)) return CHRONO_ERANGE;
    if (resid)
        for (i = 0; i < n; i++) resid[i] = y[i] - (f.a * x1[i] + f.b * x2[i] + f.c);
    *out = f;
    return 0;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_STATS_IMPL */

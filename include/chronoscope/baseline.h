/* chronoscope/baseline.h — the change rule, and named baselines.

   The rule (chronoscope-ab's, chronoscope-cmd's, --compare's): a ratio new/old
   with its interval is called faster, slower, no clear difference or
   inconclusive (chrono_change_decide).  Named baselines: a program's run
   saved under a name (--save=NAME) and a later run compared with it entry by
   entry (--compare=NAME --fail-above=PCT), each entry's verdict by the same
   rule; program.h wires both flags into every program table.

   Usage:

       chrono_change_verdict v;
       chrono_change_decide(&cmp, 0.02, 0.95, &v);   // cmp: A the base, B the head
       printf("%s: %s\n", chrono_change_name(v.change), v.why);

       char path[512], why[300];
       chrono_baseline_path(path, sizeof path, "main");    // ".chronoscope/main.json"
       chrono_baseline_save(&session, "main", why, sizeof why);   // 0, or an error and why
       chrono_baseline_row rows[64];
       size_t n;
       int rc = chrono_baseline_compare(&session, "main", 5.0, rows, 64, &n, why, sizeof why);
       // rc: 0 (rows[i].v.change per entry), or an error and why names the file

   Where a baseline lives: NAME alone is .chronoscope/NAME.json under the
   current directory (the directory made on the first save); a NAME holding
   a '/' or ending in ".json" is that path as given.  The file is the run's
   JSON report (--format=json's, the layout check.h's CHRONO_CHECK_SAVED
   reads), written to NAME.json.tmp first and renamed, so a reader never sees
   half a file.

   How --compare decides, per entry found in both (matched by name): now/saved
   with the interval [now ci_low / saved ci_high, now ci_high / saved ci_low]
   (the two medians' intervals, each at the level each run reached; the pair
   at the lower of the two levels, a union bound: both hold at 1 - (1 -
   level_now) - (1 - level_saved)), decided by chrono_change_decide with
   threshold PCT / 100: "slower" needs the interval entirely above 1 and
   now/saved above 1 + PCT / 100.  An entry of this run that the baseline
   lacks is "not in the baseline" (no verdict).  A missing file, one that is
   not a JSON report, or one holding none of this run's entries is an error
   (CHRONO_EIO, CHRONO_EINVAL) whose why names the file.
   THE MACHINE'S DRIFT: a baseline is a separate run, minutes or days ago; what
   changed on the machine since (its load, its host, its clock, the compiler)
   is in the ratio.  An interleaved A/B (chronoscope-ab, chronoscope-cmd)
   measures both sides in the same seconds and does not carry it.  What a
   baseline can do: --save also runs a fixed calibration body (chains of
   dependent adds, the same in every build) three times and saves those runs
   with the report ("chrono:calibration 1" .. " 3"); --compare runs them
   again, and the calibration's now/saved (the median of each side's three
   over each other) is taken out of every row: now/saved/drift.  The
   interval widens by the range the six calibration runs allow, [lowest now
   / highest saved, highest now / lowest saved], so a machine whose speed
   moves within a run shows as an interval too wide to call.  It takes out
   a drift that slows every code alike (the clock, the host's share, load
   that lasts); not one the calibration does not see (a load spell of a few
   hundred ms during one entry only, a contention that slows the entry's
   code and not chains of adds).  Each row's why names the drift taken out;
   a baseline saved without calibration runs is compared as it is, and its
   rows say so.

   Functions:
     chrono_change_decide(c, threshold, conf, out)   the A/B rule on one comparison
     chrono_change_name(change)                 "faster", "slower", ...
     chrono_baseline_path(buf, n, name)         where NAME lives; 0, CHRONO_EINVAL, CHRONO_ERANGE
     chrono_baseline_save(s, name, why, n)      the session's JSON report and the calibration runs under NAME
     chrono_baseline_compare(s, name, pct, rows, cap, nrows, why, n)   a verdict per entry

   Every function returning int returns 0 or a negative CHRONO_E... code. */
#ifndef CHRONOSCOPE_BASELINE_H
#define CHRONOSCOPE_BASELINE_H

#include "check.h"

/* What an A/B comparison of two builds found for one entry. */
typedef enum chrono_change {
    CHRONO_CHANGE_NONE = 0,       /* no clear difference */
    CHRONO_CHANGE_FASTER,
    CHRONO_CHANGE_SLOWER,         /* a regression: the gate fails */
    CHRONO_CHANGE_INCONCLUSIVE    /* the interval cannot decide (why says) */
} chrono_change;

typedef struct chrono_change_verdict {
    chrono_change change;
    double ratio, ci_low, ci_high;   /* head/base and its interval (NAN when there is none:
                                        a level of 0, as the comparison's report shows it) */
    double cycles_ratio;             /* head/base in estimated cycles, NAN if unknown */
    char why[160];                   /* one line: the figures against the rule */
} chrono_change_verdict;


#define CHRONO_BASELINE_DIR ".chronoscope"
#define CHRONO_BASELINE_PATH_MAX 512
#define CHRONO_BASELINE_CALIBRATION "chrono:calibration"   /* its runs' names: this, then " 1" " 2" " 3" */
#define CHRONO_BASELINE_CALIBRATIONS 3

/* One entry of a run against its baseline. */
typedef struct chrono_baseline_row {
    char name[CHRONO_NAME_MAX];
    int found;                   /* 1: in the baseline (v holds the verdict); 0: not in it */
    double now_ns, saved_ns;     /* the medians, ns per iteration */
    double drift, drift_lo, drift_hi;   /* the calibration body's now/saved (NAN: none), and its
                                           range */
    chrono_change_verdict v;     /* head/base = now/saved/drift */
} chrono_baseline_row;

CHRONO__EXTERN_C_BEGIN
/* The rule of chronoscope-ab, on a comparison whose A is the base and B the
   head (chrono_compare, pooled or not): head/base = 1 / c->ratio with the
   interval [1 / c->ci_high, 1 / c->ci_low].
     SLOWER        the interval lies entirely above 1 and head/base > 1 + threshold;
     FASTER        the interval lies entirely below 1 and head/base < 1 - threshold;
     INCONCLUSIVE  no interval (a NaN, one pair), an interval whose level falls
                   short of `confidence` (too few processes), or else one that
                   reaches beyond 1 +- threshold (too wide to tell such a change
                   from none);
     NONE          otherwise: the interval lies within 1 +- threshold (it holds
                   1, or the change is real but within the threshold).
   threshold: a fraction (0.02 for 2%), 0..10; confidence 0 means 0.95.
   0, or CHRONO_EINVAL (NULL, a threshold out of range). */
CHRONO_API int chrono_change_decide(const chrono_comparison *c, double threshold, double confidence,
                                    chrono_change_verdict *out);
/* "faster", "slower", "no clear difference", "inconclusive". */
CHRONO_API const char *chrono_change_name(chrono_change change);
CHRONO_API int chrono_baseline_path(char *buf, size_t n, const char *name);
/* The session's JSON report and the calibration runs, under NAME. */
CHRONO_API int chrono_baseline_save(chrono_session *s, const char *name, char *why, size_t n);
/* Rows for the session's results in order, at most cap; *nrows how many.
   fail_above: percent, 0..1000.  The calibration runs again first. */
CHRONO_API int chrono_baseline_compare(chrono_session *s, const char *name, double fail_above,
                                       chrono_baseline_row *rows, size_t cap, size_t *nrows,
                                       char *why, size_t n);
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_BASELINE_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_BASELINE_IMPL)
#define CHRONOSCOPE_BASELINE_IMPL

#include <errno.h>
#if CHRONO_OS_WINDOWS
#  include <direct.h>     /* _mkdir */
#else
#  include <sys/stat.h>   /* mkdir */
#  include <sys/types.h>
#  if defined(__GLIBC__) && !defined(__USE_POSIX)
int mkdir(const char *path, mode_t mode);
#  endif
#endif

CHRONO__EXTERN_C_BEGIN

CHRONO_API const char *chrono_change_name(chrono_change change)
{
    switch (change) {
    case CHRONO_CHANGE_NONE:         return "no clear difference";
    case CHRONO_CHANGE_FASTER:       return "faster";
    case CHRONO_CHANGE_SLOWER:       return "slower";
    case CHRONO_CHANGE_INCONCLUSIVE: return "inconclusive";
    }
    return "?";
}

/* "+2.3%" / "-1.0%": head/base as a change in percent. */
CHRONO__PRIVATE const char *chrono__pct(char *buf, size_t n, double ratio)
{
    return chrono__num(buf, n, "%+.1f%%", (ratio - 1) * 100);
}

CHRONO_API int chrono_change_decide(const chrono_comparison *c, double threshold, double confidence,
                                    chrono_change_verdict *out)
{
    char r[24], lo[24], hi[24], t[24];
    double up, down;
    int short_level;
    if (!out) return CHRONO_EINVAL;
    memset(out, 0, sizeof *out);
    out->ratio = out->ci_low = out->ci_high = out->cycles_ratio = NAN;
    if (!c || !(threshold >= 0 && threshold <= 10)) return CHRONO_EINVAL;
    if (!(confidence > 0 && confidence < 1)) confidence = 0.95;
    up = 1 + threshold;
    down = 1 - threshold;
    out->ratio = c->ratio > 0 ? 1 / c->ratio : NAN;
    out->ci_low = c->ci_high > 0 ? 1 / c->ci_high : NAN;
    out->ci_high = c->ci_low > 0 ? 1 / c->ci_low : NAN;
    out->cycles_ratio = c->cycles_ratio > 0 ? 1 / c->cycles_ratio : NAN;
    (void)chrono__pct(r, sizeof r, out->ratio);
    (void)chrono__pct(lo, sizeof lo, out->ci_low);
    (void)chrono__pct(hi, sizeof hi, out->ci_high);
    (void)chrono__num(t, sizeof t, "%.3g%%", threshold * 100);
    short_level = chrono_stats_level_short(c->ci_level, confidence);
    if (!chrono__finite(out->ratio) || !chrono__finite(out->ci_low) ||
        !chrono__finite(out->ci_high) || short_level == 2) {
        out->change = CHRONO_CHANGE_INCONCLUSIVE;
        out->ci_low = out->ci_high = NAN;   /* the bounds of a level-0 "interval" are no interval */
        (void)chrono__bprintf(out->why, sizeof out->why,
                              "no interval (too few pairs or processes)");
    } else if (short_level) {
        out->change = CHRONO_CHANGE_INCONCLUSIVE;
        (void)chrono__bprintf(out->why, sizeof out->why,
                              "the interval's level is %.0f%%, not %.0f%% (too few processes)",
                              c->ci_level * 100, confidence * 100);
    } else if (out->ci_low > 1 && out->ratio > up) {
        out->change = CHRONO_CHANGE_SLOWER;
        (void)chrono__bprintf(out->why, sizeof out->why,
                              "%s [%s, %s]: above 1 and beyond the %s threshold", r, lo, hi, t);
    } else if (out->ci_high < 1 && out->ratio < down) {
        out->change = CHRONO_CHANGE_FASTER;
        (void)chrono__bprintf(out->why, sizeof out->why,
                              "%s [%s, %s]: below 1 and beyond the %s threshold", r, lo, hi, t);
    } else if (out->ci_high > up || out->ci_low < down) {
        out->change = CHRONO_CHANGE_INCONCLUSIVE;
        (void)chrono__bprintf(out->why, sizeof out->why,
                              "%s [%s, %s]: too wide to tell a change beyond %s from none", r, lo,
                              hi, t);
    } else {
        out->change = CHRONO_CHANGE_NONE;
        (void)chrono__bprintf(out->why, sizeof out->why,
                              out->ci_low > 1 || out->ci_high < 1
                                  ? "%s [%s, %s]: a change within the %s threshold"
                                  : "%s [%s, %s]: holds 1, within %s",
                              r, lo, hi, t);
    }
    return 0;
}


CHRONO_API int chrono_baseline_path(char *buf, size_t n, const char *name)
{
    size_t len;
    int w;
    if (!buf || !n || !name || !*name) return CHRONO_EINVAL;
    len = strlen(name);
    if (strchr(name, '/') || (len >= 5 && !strcmp(name + len - 5, ".json")))
        w = chrono__bprintf(buf, n, "%s", name);
    else
        w = chrono__bprintf(buf, n, "%s/%s.json", CHRONO_BASELINE_DIR, name);
    return w >= 0 && (size_t)w < n ? 0 : CHRONO_ERANGE;
}

/* The calibration body: chains of dependent adds, the same work in every run
   of every build (not the program's code: what it measures is the machine). */
CHRONO__PRIVATE void chrono__baseline_cal_body(void *ctx, uint64_t iters)
{
    uint64_t i;
    (void)ctx;
#if CHRONO__HAS_REF_CHAIN
    for (i = 0; i < iters; i++) chrono__ref_chain(1024);
#else
    for (i = 0; i < iters; i++) {
        volatile uint64_t x = 0;
        int k;
        for (k = 0; k < 256; k++) x = x + 1;
    }
#endif
}

/* The calibration runs, appended to the session's results: the caller puts
   s->nresults and s->warnings back.  0 or an error. */
CHRONO__PRIVATE int chrono__baseline_calibrate(chrono_session *s)
{
    char name[64];
    int k, rc;
    for (k = 1; k <= CHRONO_BASELINE_CALIBRATIONS; k++) {
        (void)chrono__bprintf(name, sizeof name, "%s %d", CHRONO_BASELINE_CALIBRATION, k);
        if ((rc = chrono_run(s, name, chrono__baseline_cal_body, NULL, NULL)) < 0) return rc;
    }
    return 0;
}

CHRONO_API int chrono_baseline_save(chrono_session *s, const char *name, char *why, size_t n)
{
    char path[CHRONO_BASELINE_PATH_MAX], tmp[CHRONO_BASELINE_PATH_MAX + 8];
    FILE *f;
    int rc = chrono_baseline_path(path, sizeof path, name), werr;
    size_t nres;
    unsigned warn;
    char spare[8];
    if (!why || !n) { why = spare; n = sizeof spare; }
    why[0] = '\0';
    if (rc < 0 || !s) {
        (void)chrono__bprintf(why, n, "'%s' cannot name a baseline", name ? name : "");
        return rc < 0 ? rc : CHRONO_EINVAL;
    }
    if (!strchr(name, '/') && !(strlen(name) >= 5 && !strcmp(name + strlen(name) - 5, ".json"))) {
#if CHRONO_OS_WINDOWS
        (void)_mkdir(CHRONO_BASELINE_DIR);
#else
        (void)mkdir(CHRONO_BASELINE_DIR, 0777);
#endif
    }
    (void)chrono__bprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (!(f = fopen(tmp, "w"))) {
        (void)chrono__bprintf(why, n, "cannot write the baseline '%s': %s", tmp, strerror(errno));
        return CHRONO_EIO;
    }
    nres = s->nresults;
    warn = s->warnings;
    rc = chrono__baseline_calibrate(s);
    if (rc == 0) rc = chrono_report(s, f, CHRONO_FORMAT_JSON);
    s->nresults = nres;
    s->warnings = warn;
    werr = ferror(f);
    if (fclose(f) != 0 || werr || rc < 0 || rename(tmp, path) != 0) {
        (void)chrono__bprintf(why, n, "cannot write the baseline '%s': %s", path, strerror(errno));
        (void)remove(tmp);
        return CHRONO_EIO;
    }
    return 0;
}

/* A median's interval ends, the median itself where an end is unknown. */
CHRONO__PRIVATE void chrono__baseline_ends(double med, double lo, double hi, double *l, double *h)
{
    *l = chrono__finite(lo) ? lo : med;
    *h = chrono__finite(hi) ? hi : med;
}

/* The machine's drift between the baseline and now: the calibration's
   now/saved, from the runs just taken (s->results[from..]) and the
   baseline's, d[0] the median of each side's three medians over each other,
   [d[1], d[2]] the range the six intervals allow (lowest now over highest
   saved, highest now over lowest saved).  0, or 1 when either side lacks
   them (a baseline saved before calibrations were). */
CHRONO__PRIVATE int chrono__baseline_drift(const chrono_session *s, size_t from, const char *text,
                                           double d[3])
{
    double now[CHRONO_BASELINE_CALIBRATIONS], sav[CHRONO_BASELINE_CALIBRATIONS];
    double nlo = INFINITY, nhi = 0, slo = INFINITY, shi = 0, l, h;
    char name[64];
    int k;
    if (s->nresults < from + CHRONO_BASELINE_CALIBRATIONS) return 1;
    for (k = 0; k < CHRONO_BASELINE_CALIBRATIONS; k++) {
        const chrono_result *r = &s->results[from + (size_t)k];
        chrono_saved sv;
        (void)chrono__bprintf(name, sizeof name, "%s %d", CHRONO_BASELINE_CALIBRATION, k + 1);
        if (chrono_saved_find(text, name, &sv) < 0 || !(sv.median_ns > 0) || !(r->ns.median > 0))
            return 1;
        now[k] = r->ns.median;
        sav[k] = sv.median_ns;
        chrono__baseline_ends(now[k], r->ns.ci_low, r->ns.ci_high, &l, &h);
        if (l < nlo) nlo = l;
        if (h > nhi) nhi = h;
        chrono__baseline_ends(sav[k], sv.ci_low_ns, sv.ci_high_ns, &l, &h);
        if (l < slo) slo = l;
        if (h > shi) shi = h;
    }
    d[0] = chrono_stats_median(now, CHRONO_BASELINE_CALIBRATIONS) /
           chrono_stats_median(sav, CHRONO_BASELINE_CALIBRATIONS);
    d[1] = nlo / shi;
    d[2] = nhi / slo;
    return 0;
}

/* One entry's verdict: now/saved/drift as head/base (A = saved x drift, B =
   now), the interval the entry's two and the drift's range allow; the drift
   in why.  d NULL: no drift figure (not taken out, why says so). */
CHRONO__PRIVATE void chrono__baseline_row(const chrono_result *r, const chrono_saved *sv,
                                          double threshold, double confidence, const double *d,
                                          chrono_baseline_row *row)
{
    chrono_comparison c;
    double slo, shi, nlo, nhi, dm = d ? d[0] : 1, dl = d ? d[1] : 1, dh = d ? d[2] : 1;
    double level = chrono__finite(sv->ci_level) && sv->ci_level < r->ns.ci_level ? sv->ci_level
                                                                                 : r->ns.ci_level;
    size_t len;
    chrono__baseline_ends(sv->median_ns, sv->ci_low_ns, sv->ci_high_ns, &slo, &shi);
    chrono__baseline_ends(r->ns.median, r->ns.ci_low, r->ns.ci_high, &nlo, &nhi);
    memset(&c, 0, sizeof c);
    c.ratio = r->ns.median > 0 ? sv->median_ns * dm / r->ns.median : NAN;
    c.ci_low = nhi > 0 ? slo * dl / nhi : NAN;
    c.ci_high = nlo > 0 ? shi * dh / nlo : NAN;
    c.ci_level = level;
    c.cycles_ratio = NAN;
    row->found = 1;
    row->saved_ns = sv->median_ns;
    row->drift = d ? dm : NAN;
    row->drift_lo = d ? dl : NAN;
    row->drift_hi = d ? dh : NAN;
    (void)chrono_change_decide(&c, threshold, confidence, &row->v);
    len = strlen(row->v.why);
    if (d)
        (void)chrono__bprintf(row->v.why + len, sizeof row->v.why - len,
                              "; drift %.3f [%.3f, %.3f] taken out", dm, dl, dh);
    else
        (void)chrono__bprintf(row->v.why + len, sizeof row->v.why - len,
                              "; no calibration in the baseline: drift in");
}

/* Each of the session's first nres results against the baseline's text. */
CHRONO__PRIVATE size_t chrono__baseline_rows(const chrono_session *s, size_t nres, const char *text,
                                             double pct, const double *d, chrono_baseline_row *rows,
                                             size_t cap, size_t *nrows)
{
    size_t i, found = 0;
    for (i = 0; i < nres && *nrows < cap; i++) {
        chrono_baseline_row *row = &rows[(*nrows)++];
        chrono_saved sv;
        memset(row, 0, sizeof *row);
        chrono__str_copy(row->name, sizeof row->name, s->results[i].name);
        row->now_ns = s->results[i].ns.median;
        row->saved_ns = row->drift = row->drift_lo = row->drift_hi = NAN;
        row->v.change = CHRONO_CHANGE_INCONCLUSIVE;
        if (chrono_saved_find(text, s->results[i].name, &sv) == 0 && chrono__finite(sv.median_ns)) {
            chrono__baseline_row(&s->results[i], &sv, pct / 100, s->cfg.confidence, d, row);
            found++;
        }
    }
    return found;
}

CHRONO_API int chrono_baseline_compare(chrono_session *s, const char *name, double fail_above,
                                       chrono_baseline_row *rows, size_t cap, size_t *nrows,
                                       char *why, size_t n)
{
    char path[CHRONO_BASELINE_PATH_MAX], spare[8];
    char *text;
    double d[3];
    size_t found, nres;
    unsigned warn;
    int rc, nodrift;
    if (!why || !n) { why = spare; n = sizeof spare; }
    why[0] = '\0';
    if (!s || !rows || !nrows || !(fail_above >= 0 && fail_above <= 1000)) return CHRONO_EINVAL;
    *nrows = 0;
    if ((rc = chrono_baseline_path(path, sizeof path, name)) < 0) {
        (void)chrono__bprintf(why, n, "'%s' cannot name a baseline", name ? name : "");
        return rc;
    }
    if (!(text = chrono__read_file(path))) {
        (void)chrono__bprintf(why, n, "baseline '%s': %s", path, strerror(errno ? errno : EIO));
        return CHRONO_EIO;
    }
    nres = s->nresults;
    warn = s->warnings;
    nodrift = chrono__baseline_calibrate(s) < 0 || chrono__baseline_drift(s, nres, text, d) != 0;
    s->nresults = nres;
    s->warnings = warn;
    found = chrono__baseline_rows(s, nres, text, fail_above, nodrift ? NULL : d, rows, cap, nrows);
    CHRONO_FREE(text);
    if (nres && !found) {
        (void)chrono__bprintf(why, n,
                              "baseline '%s' is malformed or holds none of this run's entries "
                              "(a JSON report, --format=json, is expected)",
                              path);
        return CHRONO_EINVAL;
    }
    return 0;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_BASELINE_IMPL */

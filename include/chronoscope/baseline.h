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
   measures both sides in the same seconds and does not carry it.

   Functions:
     chrono_change_decide(c, threshold, conf, out)   the A/B rule on one comparison
     chrono_change_name(change)                 "faster", "slower", ...
     chrono_baseline_path(buf, n, name)         where NAME lives; 0, CHRONO_EINVAL, CHRONO_ERANGE
     chrono_baseline_save(s, name, why, n)      the session's JSON report under NAME
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
    double ratio, ci_low, ci_high;   /* head/base and its interval */
    double cycles_ratio;             /* head/base in estimated cycles, NAN if unknown */
    char why[160];                   /* one line: the figures against the rule */
} chrono_change_verdict;


#define CHRONO_BASELINE_DIR ".chronoscope"
#define CHRONO_BASELINE_PATH_MAX 512

/* One entry of a run against its baseline. */
typedef struct chrono_baseline_row {
    char name[CHRONO_NAME_MAX];
    int found;                   /* 1: in the baseline (v holds the verdict); 0: not in it */
    double now_ns, saved_ns;     /* the medians, ns per iteration */
    chrono_change_verdict v;     /* head/base = now/saved */
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
CHRONO_API int chrono_baseline_save(const chrono_session *s, const char *name, char *why, size_t n);
/* Rows for the session's results in order, at most cap; *nrows how many.
   fail_above: percent, 0..1000. */
CHRONO_API int chrono_baseline_compare(const chrono_session *s, const char *name, double fail_above,
                                       chrono_baseline_row *rows, size_t cap, size_t *nrows, char *why, size_t n);
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
    if (!chrono__finite(out->ratio) || !chrono__finite(out->ci_low) || !chrono__finite(out->ci_high) || short_level == 2) {
        out->change = CHRONO_CHANGE_INCONCLUSIVE;
        (void)chrono__bprintf(out->why, sizeof out->why, "no interval (too few pairs or processes)");
    } else if (short_level) {
        out->change = CHRONO_CHANGE_INCONCLUSIVE;
        (void)chrono__bprintf(out->why, sizeof out->why, "the interval's level is %.0f%%, not %.0f%% (too few processes)",
                              c->ci_level * 100, confidence * 100);
    } else if (out->ci_low > 1 && out->ratio > up) {
        out->change = CHRONO_CHANGE_SLOWER;
        (void)chrono__bprintf(out->why, sizeof out->why, "%s [%s, %s]: above 1 and beyond the %s threshold", r, lo, hi, t);
    } else if (out->ci_high < 1 && out->ratio < down) {
        out->change = CHRONO_CHANGE_FASTER;
        (void)chrono__bprintf(out->why, sizeof out->why, "%s [%s, %s]: below 1 and beyond the %s threshold", r, lo, hi, t);
    } else if (out->ci_high > up || out->ci_low < down) {
        out->change = CHRONO_CHANGE_INCONCLUSIVE;
        (void)chrono__bprintf(out->why, sizeof out->why, "%s [%s, %s]: too wide to tell a change beyond %s from none",
                              r, lo, hi, t);
    } else {
        out->change = CHRONO_CHANGE_NONE;
        (void)chrono__bprintf(out->why, sizeof out->why, out->ci_low > 1 || out->ci_high < 1
                              ? "%s [%s, %s]: a change within the %s threshold" : "%s [%s, %s]: holds 1, within %s",
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

CHRONO_API int chrono_baseline_save(const chrono_session *s, const char *name, char *why, size_t n)
{
    char path[CHRONO_BASELINE_PATH_MAX], tmp[CHRONO_BASELINE_PATH_MAX + 8];
    FILE *f;
    int rc = chrono_baseline_path(path, sizeof path, name), werr;
    char spare[8];
    if (!why || !n) { why = spare; n = sizeof spare; }
    why[0] = '\0';
    if (rc < 0 || !s) { (void)chrono__bprintf(why, n, "'%s' cannot name a baseline", name ? name : ""); return rc < 0 ? rc : CHRONO_EINVAL; }
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
    rc = chrono_report(s, f, CHRONO_FORMAT_JSON);
    werr = ferror(f);
    if (fclose(f) != 0 || werr || rc < 0 || rename(tmp, path) != 0) {
        (void)chrono__bprintf(why, n, "cannot write the baseline '%s': %s", path, strerror(errno));
        (void)remove(tmp);
        return CHRONO_EIO;
    }
    return 0;
}

/* One entry's verdict: now/saved as head/base (A = saved, B = now). */
CHRONO__PRIVATE void chrono__baseline_row(const chrono_result *r, const chrono_saved *sv, double threshold,
                                          double confidence, chrono_baseline_row *row)
{
    chrono_comparison c;
    double slo = chrono__finite(sv->ci_low_ns) ? sv->ci_low_ns : sv->median_ns;
    double shi = chrono__finite(sv->ci_high_ns) ? sv->ci_high_ns : sv->median_ns;
    double level = chrono__finite(sv->ci_level) && sv->ci_level < r->ns.ci_level ? sv->ci_level : r->ns.ci_level;
    memset(&c, 0, sizeof c);
    c.ratio = r->ns.median > 0 ? sv->median_ns / r->ns.median : NAN;
    c.ci_low = r->ns.ci_high > 0 ? slo / r->ns.ci_high : NAN;
    c.ci_high = r->ns.ci_low > 0 ? shi / r->ns.ci_low : NAN;
    c.ci_level = level;
    c.cycles_ratio = NAN;
    row->found = 1;
    row->saved_ns = sv->median_ns;
    (void)chrono_change_decide(&c, threshold, confidence, &row->v);
}

CHRONO_API int chrono_baseline_compare(const chrono_session *s, const char *name, double fail_above,
                                       chrono_baseline_row *rows, size_t cap, size_t *nrows, char *why, size_t n)
{
    char path[CHRONO_BASELINE_PATH_MAX], spare[8];
    char *text;
    size_t i, found = 0;
    int rc;
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
    for (i = 0; i < s->nresults && *nrows < cap; i++) {
        chrono_baseline_row *row = &rows[(*nrows)++];
        chrono_saved sv;
        memset(row, 0, sizeof *row);
        chrono__str_copy(row->name, sizeof row->name, s->results[i].name);
        row->now_ns = s->results[i].ns.median;
        row->saved_ns = NAN;
        row->v.change = CHRONO_CHANGE_INCONCLUSIVE;
        if (chrono_saved_find(text, s->results[i].name, &sv) == 0 && chrono__finite(sv.median_ns)) {
            chrono__baseline_row(&s->results[i], &sv, fail_above / 100, s->cfg.confidence, row);
            found++;
        }
    }
    CHRONO_FREE(text);
    if (s->nresults && !found) {
        (void)chrono__bprintf(why, n, "baseline '%s' is malformed or holds none of this run's entries "
                              "(a JSON report, --format=json, is expected)", path);
        return CHRONO_EINVAL;
    }
    return 0;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_BASELINE_IMPL */

/* chronoscope/check.h — performance expectations for unit tests: verdicts
   with stated, measured error rates, and TAP output.

   TABLE OF CONTENTS
     1. Usage            4. Error rates (measured)
     2. Expectations     5. The TAP stream and the exit status
     3. How it decides   6. Functions

   1. USAGE ---------------------------------------------------------------------
   The claim "slow takes at least 1.2x the time of fast", checked on the CI of
   interleaved pairs (examples/unit_test.c is whole):

       static const chrono_check_entry checks[] = {
           CHRONO_CHECK_FASTER("memchr beats a naive loop", fast_find, &buf, naive_find, &buf, 1.2),
           CHRONO_CHECK_BELOW("lookup under 1 us", lookup, &table, 1000.0),
       };
       int main(int argc, char **argv)
       {
           return chrono_check_main(argc, argv, checks, sizeof checks / sizeof checks[0]);
       }

   which prints TAP version 13 and exits 0 (nothing failed) or 1 (something
   failed), 2 on a bad command line.  By hand, with a checker of your own:

       chrono_checker ck;
       chrono_checker_open(&ck, &session, NULL);             // NULL: 0.5 s budget, alpha 0.01
       chrono_check_faster(&ck, "memchr", fast, ctx, slow, ctx, 1.2);   // CHRONO_PASS, ...
       chrono_checker_tap(&ck, stdout);
       rc = chrono_checker_exit_status(&ck);                // 0 or 1
       chrono_checker_close(&ck);

   or with no checker at all: chrono_expect_faster(&session, "memchr", fast,
   ctx, slow, ctx, 1.2) returns the verdict alone.  Every expectation also
   stores what it measured in the session, so chrono_report() shows it.

   2. EXPECTATIONS ----------------------------------------------------------------
     faster   slow takes >= min_speedup x the time of fast.  Interleaved pairs
              (ABBA, each side sized on its own); the figure is the median of the
              per-pair ratios slow/fast.  Stored as the comparison
              "name/slow" vs "name/fast" (its ratio is the speedup).
     below    the median time of one iteration is <= max_ns.  An absolute
              budget: FRAGILE ACROSS MACHINES (a slower CI runner, another
              compiler or a shared core moves it); prefer "faster".  Stored as
              the result "name".
     scaling  over a sweep of n, time grows like the claimed class: O(1),
              O(log n), O(n), O(n log n) or O(n^2).  Stored as a sweep.
     saved    not slower than a saved run of the same program by more than
              max_slowdown x.  The saved run is the Google-Benchmark-schema JSON
              that chrono_report(..., CHRONO_FORMAT_JSON) or --format=json
              writes; the entry of the same name is compared.  VALID ONLY ON THE
              MACHINE THAT SAVED IT (same CPU, clock, compiler, flags).

   3. HOW IT DECIDES --------------------------------------------------------------
   faster / below / saved are sequential tests with a bounded budget:
     - look k (k = 1, 2, ...) comes after first_look x 2^(k-1) accepted
       samples (pairs), or when the budget (default 500 ms, everything
       included: sizing, warm-up, samples) runs out; no sample starts that
       would end past it (a check ends within 1.25x its budget, the one
       call that sizes a body longer than the budget excepted);
     - each side of a pair has its own iteration count, sized to the target
       sample length (sides within 4x share the larger): a 13 ns body
       against a 54 us one gets samples of one length on both sides;
     - at look k, each wrong verdict may have probability
           alpha_k = alpha * 6 / (pi^2 k^2)            (alpha default 0.01)
       and since sum_k 6/(pi^2 k^2) = 1, the looks together spend at most
       alpha on each side, however many there are (alpha spending; a union
       bound, so it holds for any stopping time);
     - the interval is distribution-free: the order statistics of the
       per-sample figures that bound their median with two-sided coverage
       >= 1 - 2 alpha_k (sign test, exact binomial; stats.h), each side
       missing with probability <= alpha_k;
     - PASS when the whole interval satisfies the claim, FAIL when the whole
       interval violates it, else another look; INCONCLUSIVE when the budget
       is spent undecided (TAP: ok ... # SKIP);
     - too few samples for the interval at alpha_k (n < 8 at look 1): no
       decision at that look.  A run whose every sample was rejected (a busy or
       migrating machine) is INCONCLUSIVE with that reason: the machine,
       not the claim.
   So: P(FAIL | the claim holds) <= alpha and P(PASS | the claim is false)
   <= alpha, for independent samples of a fixed distribution; the median is
   what the claim is about.  What the sign test cannot see is bias: code whose
   speed depends on the order it runs in, or a host that slows one side only.
   Samples taken while the core was shared (bench.h's front-end probe) are
   dropped, as in chrono_compare.
   saved: the interval of now/saved is [now_lo / saved_ci_high, now_hi /
   saved_ci_low]; a wrong verdict needs either interval to miss, so its rate
   is <= alpha + (1 - saved ci_level) / 2 (0.035 with a 0.95 save; save at
   confidence 0.99 for 0.015).
   scaling: each class c is fitted by least squares, y = a (O(1)) or
   y = a + b f(n) with b >= 0 (f = log n, n, n log n, n^2), on the medians.
   Its error e_c is the RMS of the relative residuals (y_i - fit_i) / y_i,
   floored at the sweep's noise (the RMS of the points' relative CI
   half-widths): a class cannot fit better than the data are known.
   THE RULE: FAIL when another class c has e_c < e_claimed / 2; FAIL when the
   claimed class is not O(1) and its fitted growth over the sweep,
   b (f(n_max) - f(n_min)), is below the noise (time did not grow);
   otherwise PASS.  A FAIL is looked at again, up to twice: the sweep again,
   the rule applied to each point's smallest median of the looks so far and,
   failing that, to the new look alone (other programs only add time: a spell
   that slowed one point in one look does not make a shape in the smallest
   medians, nor one that began partway through a look and lasted through the
   next in that next look alone; code that has the shape has it in all).  The
   best class (least e_c, ties to the simpler) and its R^2 are reported, and
   the reason begins "look K alone: " when a look alone passed.  No stated
   error rate.

   4. ERROR RATES (measured) -------------------------------------------------------
   examples/check_rates.c, default settings (alpha 0.01, budget 500 ms,
   first look 16 pairs, session defaults), a fresh session per trial, on a
   2-vCPU Zen 5 VM shared with other work (load average 5-7 during the busy
   runs); "busy": `yes > /dev/null` pinned to the other vCPU.  PASS/FAIL/skip:
     truth, claim                      trials  quiet          busy
     1.5x gap, claim >= 1.2x            100    100/0/0        100/0/0
     identical, claim >= 1.2x           100    0/100/0        0/100/0
     1.1x gap, claim >= 1.05x           100    100/0/0        100/0/0
   With the first look at 32 pairs: quiet, 1000 trials each: 1000/0/0,
   0/1000/0, 1000/0/0; busy, 100 each: 83/0/17, 0/93/7, 87/0/13 (the warm-up
   then took most of the budget on a starved CPU: it is now capped at a tenth).
   No wrong verdict was seen in any run.
   The synthetic-data test (tests/test_check.c) runs the decision procedure
   on 4000 seeded trials with the median exactly at the claim: PASS and FAIL
   rates <= alpha, where looking without spending (alpha at every look)
   exceeds it.

   5. THE TAP STREAM AND THE EXIT STATUS ---------------------------------------------
       TAP version 13
       # chronoscope 0.2.0  2026-01-01T12:00:00+00:00
       # cpu      ...       (the text report's header, chrono_report_environment:
       # ...                 CPU, pinned CPU, clock, core, machine, build, run,
       # warning  ...        then the session's warnings, as TAP comments)
       1..3
       ok 1 - memchr beats a naive loop # ratio 1.52 [1.49, 1.55]
       not ok 2 - lookup under 1 us
         ---
         kind: below
         claim: 1000
         ...
       ok 3 - scaling # SKIP inconclusive after 500 ms: ratio 1.21 [1.18, 1.24], claim 1.2
   A verdict error (bad input) is `not ok` with its reason in the YAML block.
   An INCONCLUSIVE's reason says what would decide it ("12 pairs in 500 ms,
   fewer than the 8 ...: --budget-ms=2000 would give ~48"); a body too long for
   the budget to hold the fewest samples that can decide is INCONCLUSIVE at
   once, after the one call that measured it, naming the budget that would.
   chrono_checker_exit_status(): 0 when nothing failed (skips included: a run
   where everything was inconclusive is all `# SKIP`, exit 0), 1 when something
   failed or erred; never a count.  STRICT (.strict = 1, --strict, or
   CHRONO_CHECK_STRICT=1 in the environment, for CI): an INCONCLUSIVE is
   `not ok` with its reason in the YAML block, and exit 1 -- a claim the
   machine could not decide does not pass silently (timed under an emulator
   it stays a skip: there it says nothing about the code).  With nothing to run (a --filter that
   matches nothing) the plan is `1..0 # SKIP nothing selected`, exit 0.

   6. FUNCTIONS -----------------------------------------------------------------------
     chrono_expect_config_default()             budget 500 ms, alpha 0.01, first look 16, not strict
     chrono_checker_open(ck, s, cfg)            cfg may be NULL; 0 or CHRONO_EINVAL
     chrono_checker_close(ck)
     chrono_check_faster(ck, name, fast, fctx, slow, sctx, min_speedup)     verdict
     chrono_check_below(ck, name, fn, ctx, max_ns)                          verdict
     chrono_check_scaling(ck, name, sweep_fn, ctx, params, n, claimed)      verdict
     chrono_check_saved(ck, name, fn, ctx, json_path, max_slowdown)         verdict
     chrono_check_entry_run(ck, entry)                                      verdict
     chrono_expect_faster(s, name, fast, fctx, slow, sctx, min_speedup)     verdict, no checker
     chrono_expect_below(s, name, fn, ctx, max_ns)                          verdict, no checker
     chrono_checker_tap(ck, out)                TAP version 13; 0 or CHRONO_EIO
     chrono_checker_exit_status(ck)             0 or 1
     chrono_check_main(argc, argv, entries, n)  the whole program: flags, checks, TAP
     chrono_expect_decide(x, n, claim, dir, look, alpha, scratch, out)   one look, pure
     chrono_expect_alpha(alpha, look)           alpha_k
     chrono_saved_find(json, name, out)         an entry of a saved JSON report
     chrono_verdict_name(v) / chrono_complexity_name(c)
   ck->items[ck->n - 1] holds the figures of the last verdict.
   Bad input (NULL body or name, min_speedup <= 0 or NaN, ...) gives
   CHRONO_VERDICT_ERROR with .error (a CHRONO_E... code) and .reason set. */
#ifndef CHRONOSCOPE_CHECK_H
#define CHRONOSCOPE_CHECK_H

#include "engine.h"
#include "bench.h"
#include "cli.h"

/* ==== declarations =================================================================== */
typedef enum chrono_verdict {
    CHRONO_PASS = 0,          /* the claim holds, with the stated confidence */
    CHRONO_FAIL,              /* the claim is false, with the stated confidence */
    CHRONO_INCONCLUSIVE,      /* the budget ran out undecided */
    CHRONO_VERDICT_ERROR      /* bad input or a failed measurement: .error, .reason */
} chrono_verdict;

typedef enum chrono_expect_kind {
    CHRONO_EXPECT_FASTER = 0, CHRONO_EXPECT_BELOW, CHRONO_EXPECT_SCALING, CHRONO_EXPECT_SAVED
} chrono_expect_kind;

typedef enum chrono_complexity {
    CHRONO_O_1 = 0, CHRONO_O_LOG_N, CHRONO_O_N, CHRONO_O_N_LOG_N, CHRONO_O_N2,
    CHRONO_COMPLEXITY_COUNT
} chrono_complexity;

/* Zero means default for every field. */
typedef struct chrono_expect_config {
    double budget_ms;         /* whole expectation, sizing and warm-up included; default 500 */
    double alpha;             /* each wrong verdict at most this often; default 0.01, (0, 0.5) */
    size_t first_look;        /* samples (pairs) at look 1, doubling; default 16, 9..1e6 */
    int strict;               /* 1: an INCONCLUSIVE verdict fails (TAP not ok, exit 1), as CI wants;
                                 default 0 (a SKIP).  Timed under an emulator it stays a SKIP. */
} chrono_expect_config;

/* One verdict and its figures. */
typedef struct chrono_expectation {
    char name[CHRONO_NAME_MAX];
    chrono_expect_kind kind;
    chrono_verdict verdict;
    double claim;             /* min_speedup, max_ns or max_slowdown; scaling: NAN */
    /* faster: median ratio slow/fast; below: median ns; saved: now/saved */
    double estimate;
    double ci_low, ci_high;   /* of the estimate, at the last look */
    double ci_level;          /* its two-sided coverage: >= 1 - 2 alpha_k */
    size_t rounds;            /* samples (pairs) behind the estimate */
    int looks;
    double spent_ms;
    int error;                /* the CHRONO_E... code behind CHRONO_VERDICT_ERROR, else 0 */
    char reason[192];         /* why (error, or the scaling rule that decided) */
    chrono_complexity claimed, best;              /* scaling */
    double fit_error[CHRONO_COMPLEXITY_COUNT];    /* scaling: e_c of each class (NAN: not fitted) */
    /* scaling: R^2 of the best class; the noise floor */
    double r2, noise;
} chrono_expectation;

typedef struct chrono_checker {
    chrono_session *session;
    chrono_expect_config cfg;          /* defaults filled in */
    chrono_expectation *items;         /* in the order they ran */
    size_t n;
    /* private */
    size_t chrono__items_cap;
    size_t chrono__lost_failed;        /* failed verdicts that could not be kept (out of memory) */
} chrono_checker;

/* An expectation as data: one row of a program's table (chrono_check_main).
   Its fields, and what each CHRONO_CHECK_* row puts in them, are one list:
   X(K, type, field, faster, below, scaling, saved), a column per kind whose
   _1 .. _6 are that row macro's arguments in order; the struct and the four
   row macros are generated from it, so a field is added in one place. */
#define CHRONO__CHECK_FIELDS(X, K, _1, _2, _3, _4, _5, _6)                        \
    X(K, const char *,      name,       _1,         _1,         _1,   _1)         \
    X(K, chrono_expect_kind, kind, CHRONO_EXPECT_FASTER, CHRONO_EXPECT_BELOW,     \
      CHRONO_EXPECT_SCALING, CHRONO_EXPECT_SAVED)                                 \
    X(K, chrono_fn,         fn,         _2,         _2,         NULL, _2)         \
    X(K, void *,            ctx,        _3,         _3,         _3,   _3)         \
    X(K, chrono_fn,         slow,       _4,         NULL,       NULL, NULL)       \
    X(K, void *,            slow_ctx,   _5,         NULL,       NULL, NULL)       \
    X(K, double,            claim,      _6,         _4,         0.0,  _5)         \
    X(K, chrono_sweep_fn,   sweep,      NULL,       NULL,       _2,   NULL)       \
    X(K, const uint64_t *,  params,     NULL,       NULL,       _4,   NULL)       \
    X(K, size_t,            nparams,    0,          0,          _5,   0)          \
    X(K, chrono_complexity, complexity, CHRONO_O_1, CHRONO_O_1, _6,   CHRONO_O_1) \
    X(K, const char *,      saved_path, NULL,       NULL,       NULL, _4)
/* fn, ctx: the body (faster: the fast one; scaling: ctx only, for sweep); slow, slow_ctx:
   faster's slow body; claim: min_speedup, max_ns or max_slowdown; sweep, params, nparams,
   complexity: scaling's body, its params and the claimed class; saved_path: the JSON report */
#define CHRONO__CHECK_MEMBER(K, type, field, faster, below, scaling, saved) type field;
typedef struct chrono_check_entry {
    CHRONO__CHECK_FIELDS(CHRONO__CHECK_MEMBER, 0, 0, 0, 0, 0, 0, 0)
} chrono_check_entry;
#undef CHRONO__CHECK_MEMBER

#define CHRONO__CHECK_PICK_FASTER(faster, below, scaling, saved) faster
#define CHRONO__CHECK_PICK_BELOW(faster, below, scaling, saved) below
#define CHRONO__CHECK_PICK_SCALING(faster, below, scaling, saved) scaling
#define CHRONO__CHECK_PICK_SAVED(faster, below, scaling, saved) saved
#define CHRONO__CHECK_VALUE(K, type, field, faster, below, scaling, saved) \
    CHRONO__CHECK_PICK_##K(faster, below, scaling, saved),
#define CHRONO_CHECK_FASTER(name, fast, fast_ctx, slow, slow_ctx, min_speedup) \
    { CHRONO__CHECK_FIELDS(CHRONO__CHECK_VALUE, FASTER, name, fast, fast_ctx, slow, slow_ctx, \
                           min_speedup) }
#define CHRONO_CHECK_BELOW(name, fn, ctx, max_ns) \
    { CHRONO__CHECK_FIELDS(CHRONO__CHECK_VALUE, BELOW, name, fn, ctx, max_ns, 0, 0) }
#define CHRONO_CHECK_SCALING(name, sweep_fn, ctx, params, nparams, complexity) \
    { CHRONO__CHECK_FIELDS(CHRONO__CHECK_VALUE, SCALING, name, sweep_fn, ctx, params, nparams, \
                           complexity) }
#define CHRONO_CHECK_SAVED(name, fn, ctx, json_path, max_slowdown) \
    { CHRONO__CHECK_FIELDS(CHRONO__CHECK_VALUE, SAVED, name, fn, ctx, json_path, max_slowdown, 0) }

CHRONO__EXTERN_C_BEGIN
CHRONO_API chrono_expect_config chrono_expect_config_default(void);
CHRONO_API int chrono_checker_open(chrono_checker *ck, chrono_session *s,
                                   const chrono_expect_config *cfg);
CHRONO_API void chrono_checker_close(chrono_checker *ck);
CHRONO_API chrono_verdict chrono_check_faster(chrono_checker *ck, const char *name, chrono_fn fast,
                                              void *fast_ctx, chrono_fn slow, void *slow_ctx,
                                              double min_speedup);
CHRONO_API chrono_verdict chrono_check_below(chrono_checker *ck, const char *name, chrono_fn fn,
                                             void *ctx, double max_ns);
CHRONO_API chrono_verdict chrono_check_scaling(chrono_checker *ck, const char *name,
                                               chrono_sweep_fn fn, void *ctx,
                                               const uint64_t *params, size_t nparams,
                                               chrono_complexity claimed);
CHRONO_API chrono_verdict chrono_check_saved(chrono_checker *ck, const char *name, chrono_fn fn,
                                             void *ctx, const char *json_path, double max_slowdown);
CHRONO_API chrono_verdict chrono_check_entry_run(chrono_checker *ck, const chrono_check_entry *e);
CHRONO_API chrono_verdict chrono_expect_faster(chrono_session *s, const char *name, chrono_fn fast,
                                               void *fast_ctx, chrono_fn slow, void *slow_ctx,
                                               double min_speedup);
CHRONO_API chrono_verdict chrono_expect_below(chrono_session *s, const char *name, chrono_fn fn,
                                              void *ctx, double max_ns);
CHRONO_API int chrono_checker_tap(const chrono_checker *ck, FILE *out);
CHRONO_API int chrono_checker_exit_status(const chrono_checker *ck);
CHRONO_API int chrono_check_main_at(int argc, char **argv, const chrono_check_entry *entries,
                                    size_t n, unsigned long caller);
#define chrono_check_main(argc, argv, entries, n) \
    chrono_check_main_at((argc), (argv), (entries), (n), CHRONO__CALLER)
CHRONO_API double chrono_expect_alpha(double alpha, int look);
CHRONO_API chrono_verdict chrono_expect_decide(const double *x, size_t n, double claim,
                                               int claim_is_max, int look, double alpha,
                                               double *scratch, chrono_expectation *out);
CHRONO_API const char *chrono_verdict_name(chrono_verdict v);
CHRONO_API const char *chrono_complexity_name(chrono_complexity c);
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_CHECK_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_CHECK_IMPL)
#define CHRONOSCOPE_CHECK_IMPL

CHRONO__EXTERN_C_BEGIN

CHRONO_API const char *chrono_verdict_name(chrono_verdict v)
{
    switch (v) {
    case CHRONO_PASS: return "pass";
    case CHRONO_FAIL: return "fail";
    case CHRONO_INCONCLUSIVE: return "inconclusive";
    case CHRONO_VERDICT_ERROR: return "error";
    default: return "unknown";
    }
}

CHRONO_API const char *chrono_complexity_name(chrono_complexity c)
{
    static const char *const names[CHRONO_COMPLEXITY_COUNT] = { "O(1)", "O(log n)", "O(n)",
                                                                "O(n log n)", "O(n^2)" };
    return (int)c >= 0 && c < CHRONO_COMPLEXITY_COUNT ? names[c] : "O(?)";
}

CHRONO__PRIVATE const char *chrono__kind_name(chrono_expect_kind k)
{
    switch (k) {
    case CHRONO_EXPECT_FASTER: return "faster";
    case CHRONO_EXPECT_BELOW: return "below";
    case CHRONO_EXPECT_SCALING: return "scaling";
    case CHRONO_EXPECT_SAVED: return "saved";
    default: return "unknown";
    }
}

CHRONO_API chrono_expect_config chrono_expect_config_default(void)
{
    chrono_expect_config c;
    c.budget_ms = 500;
    c.alpha = 0.01;
    c.first_look = 16;
    c.strict = 0;
    return c;
}

/* alpha_k = alpha 6 / (pi^2 k^2): the looks together spend alpha. */
CHRONO_API double chrono_expect_alpha(double alpha, int look)
{
    double k = look < 1 ? 1.0 : (double)look;
    return alpha * 6.0 / (3.14159265358979323846 * 3.14159265358979323846 * k * k);
}

CHRONO__PRIVATE int chrono__expect_config_resolve(const chrono_expect_config *in,
                                                  chrono_expect_config *out)
{
    chrono_expect_config d = chrono_expect_config_default();
    if (!in) { *out = d; return 0; }
    if (!(in->budget_ms == 0 || (in->budget_ms > 0 && in->budget_ms <= 86400000.0)))
        return CHRONO_EINVAL;
    if (!(in->alpha == 0 || (in->alpha > 0 && in->alpha < 0.5))) return CHRONO_EINVAL;
    if (in->first_look != 0 && (in->first_look < 9 || in->first_look > 1000000))
        return CHRONO_EINVAL;
    if (in->strict != 0 && in->strict != 1) return CHRONO_EINVAL;
    *out = *in;
    if (in->budget_ms == 0) out->budget_ms = d.budget_ms;
    if (in->alpha == 0) out->alpha = d.alpha;
    if (in->first_look == 0) out->first_look = d.first_look;
    return 0;
}

CHRONO__PRIVATE void chrono__expectation_init(chrono_expectation *e, const char *name,
                                              chrono_expect_kind kind, double claim)
{
    int c;
    memset(e, 0, sizeof *e);
    (void)chrono__bprintf(e->name, sizeof e->name, "%s", name ? name : "(null)");
    e->kind = kind;
    e->verdict = CHRONO_VERDICT_ERROR;
    e->claim = claim;
    e->estimate = e->ci_low = e->ci_high = e->ci_level = NAN;
    e->r2 = e->noise = NAN;
    e->claimed = e->best = CHRONO_O_1;
    for (c = 0; c < CHRONO_COMPLEXITY_COUNT; c++) e->fit_error[c] = NAN;
}

CHRONO__PRIVATE chrono_verdict chrono__expect_error(chrono_expectation *e, int err, const char *why)
{
    e->verdict = CHRONO_VERDICT_ERROR;
    e->error = err < 0 ? err : CHRONO_EINVAL;
    (void)chrono__bprintf(e->reason, sizeof e->reason, "%s", why);
    return CHRONO_VERDICT_ERROR;
}

/* ---- one look: the decision on the median ------------------------------------------ */
/* The claim "median of x >= claim" (claim_is_max 0) or "<= claim" (1), at
   look `look` of a sequence spending alpha.  x is not modified; scratch holds
   n doubles (NULL: allocated).  Fills out's estimate, CI, level, rounds, looks
   and verdict (INCONCLUSIVE: not decided at this look). */
CHRONO_API chrono_verdict chrono_expect_decide(const double *x, size_t n, double claim,
                                               int claim_is_max, int look, double alpha,
                                               double *scratch, chrono_expectation *out)
{
    double *v = scratch, level = 0, want;
    size_t lo = 0, hi = 0;
    chrono_verdict verdict = CHRONO_INCONCLUSIVE;
    if (!x || !out || n == 0 || n > (size_t)-1 / sizeof(double) || look < 1 ||
        !(alpha > 0 && alpha < 0.5) || !(claim == claim) || !chrono__all_finite(x, n))
        return CHRONO_VERDICT_ERROR;
    /* n checked above */
    if (!v && !(v = (double *)CHRONO_MALLOC(n * sizeof *v))) return CHRONO_VERDICT_ERROR;
    memcpy(v, x, n * sizeof *v);
    chrono_stats_sort(v, n);
    want = 1.0 - 2.0 * chrono_expect_alpha(alpha, look);
    (void)chrono_stats_median_ci(n, want, &lo, &hi, &level);
    out->estimate = chrono_stats_quantile(v, n, 0.5);
    out->ci_low = v[lo];
    out->ci_high = v[hi];
    out->ci_level = level;
    out->rounds = n;
    out->looks = look;
    if (level >= want) {   /* [min, max] short of the level: no decision at this look */
        if (claim_is_max ? v[hi] <= claim : v[lo] >= claim) verdict = CHRONO_PASS;
        else if (claim_is_max ? v[lo] > claim : v[hi] < claim) verdict = CHRONO_FAIL;
    }
    if (!scratch) CHRONO_FREE(v);
    out->verdict = verdict;
    return verdict;
}

/* ---- the sequential verdicts: looks at the engine's rows ------------------------------- */
/* What the looks carry between the engine's calls of chrono__looks_decide:
   the claim, the look reached, its verdict, and the figures' buffer (the
   figures, then as many doubles for their sort). */
typedef struct chrono__looks {
    const chrono_checker *ck;
    chrono_expectation *e;
    double claim;
    int claim_is_max, look, rc;
    chrono_verdict v;
    double *buf;
    size_t cap;
} chrono__looks;

/* The fewest samples (pairs) whose [min, max] reaches the level of look 1:
   no look can decide on fewer. */
CHRONO__PRIVATE size_t chrono__looks_fewest(double alpha)
{
    double want = 1.0 - 2.0 * chrono_expect_alpha(alpha, 1), level = 0;
    size_t n, lo, hi;
    for (n = 1; n < 64; n++)
        if (chrono_stats_median_ci(n, want, &lo, &hi, &level) == 0 && level >= want) break;
    return n;
}

/* ms in words: whole from 100 up ("18000"), else three significant figures ("0.281", "1.13"). */
CHRONO__PRIVATE const char *chrono__ms_text(char *buf, size_t n, double ms)
{
    return chrono__num(buf, n, ms >= 100 ? "%.0f" : "%.3g", ms);
}

/* x rounded up to two significant figures (a budget to suggest: 3.75 -> 3.8, 22500 -> 23000). */
CHRONO__PRIVATE double chrono__round_up2(double x)
{
    double p = x > 0 ? pow(10.0, floor(log10(x)) - 1) : 1;
    return ceil(x / p) * p;
}

/* Whether the budget can hold the fewest samples that decide, from what
   sizing measured of one round; if not, INCONCLUSIVE at once with what
   would. */
CHRONO__PRIVATE int chrono__looks_fit(const chrono_engine *en, const chrono_checker *ck,
                                      chrono_expectation *e)
{
    size_t fewest = chrono__looks_fewest(ck->cfg.alpha);
    double spent = chrono_engine_ms(en), round = 0, need;
    char t[4][32];
    int k;
    for (k = 0; k < en->sides; k++)
        round += chrono_clock_ns(&en->s->clock, en->sample_ticks[k]) / 1e6;
    need = spent + (double)fewest * round;
    if (need <= ck->cfg.budget_ms) return 1;
    e->verdict = CHRONO_INCONCLUSIVE;
    (void)chrono__bprintf(
        e->reason, sizeof e->reason,
        "one %s takes %s ms: the %lu that can decide need %s ms, past the %s ms budget "
        "(--budget-ms=%s would hold them)",
        en->sides == 2 ? "pair" : "sample", chrono__ms_text(t[0], sizeof t[0], round),
        (unsigned long)fewest, chrono__ms_text(t[1], sizeof t[1], need),
        chrono__ms_text(t[2], sizeof t[2], ck->cfg.budget_ms),
        chrono__ms_text(t[3], sizeof t[3], chrono__round_up2(need * 1.25)));
    return 0;
}

/* The engine on one side or two: each side's batch sized; then, when the
   budget holds the fewest samples that can decide (chrono__looks_fit),
   warmed up (alternating) and sized again.  As in chrono_compare, each side
   has its own iteration count (sides within 4x share the larger), so a
   lopsided pair's samples are of one length on both sides.  0, 1 (the
   budget cannot hold them: e INCONCLUSIVE with the reason) or the error. */
CHRONO__PRIVATE int chrono__looks_open(chrono_engine *en, const chrono_checker *ck,
                                       const chrono_engine_side *side, int sides,
                                       chrono_expectation *e)
{
    chrono_session *s = ck->session;
    double budget = ck->cfg.budget_ms,
           warm = s->cfg.warmup_ms < budget / 10 ? s->cfg.warmup_ms : budget / 10;
    int rc = chrono_engine_open(en, s, side, sides, ck->cfg.first_look);
    if (rc < 0) return rc;
    (void)chrono_engine_size(en, 1, budget / 8, budget / 8);
    if (!chrono__looks_fit(en, ck, e)) return 1;
    /* a warm-up may stretch to 4x its time: at most `warm` */
    (void)chrono_engine_warm(en, warm / (8 * sides), 2);
    /* warm now: both must reach the target */
    (void)chrono_engine_size(en, 0, budget / 4, budget / 4);
    return 0;
}

/* The per-row figure the claim is about, into out, of the rows that count
   (those CHRONO_ENGINE_DROP_DECIDED keeps): slow/fast for two sides, ns
   for one.  Their count. */
CHRONO__PRIVATE size_t chrono__looks_figures(const chrono_engine *en, double *out)
{
    size_t i, m = 0;
    for (i = 0; i < en->n; i++)
        if (chrono_engine_row_kept(en, i))
            out[m++] = en->sides == 2 ? en->col[1].ns[i] / en->col[0].ns[i] : en->col[0].ns[i];
    return m;
}

/* Every sample rejected, the budget spent: the machine, not the claim (a
   skip, not a failure).  The reason counts each cause (CHRONO__REJECTIONS'
   words) over the sides; none counted: no sample was taken. */
CHRONO__PRIVATE void chrono__looks_rejected(const chrono_engine *en, chrono__looks *lk)
{
#define CHRONO__REJECTION_SUM(field, words, key) count[i++] += (unsigned long)en->r[k]->field;
    static const char *const words[CHRONO__NREJECTIONS] = { CHRONO__REJECTIONS(
        CHRONO__REJECTION_WORD) };
    unsigned long count[CHRONO__NREJECTIONS] = { 0 };
    char *why = lk->e->reason;
    size_t n = sizeof lk->e->reason, at;
    int i, k, any = 0;
    for (k = 0; k < en->sides; k++) {
        i = 0;
        CHRONO__REJECTIONS(CHRONO__REJECTION_SUM)
    }
#undef CHRONO__REJECTION_SUM
    lk->v = lk->e->verdict = CHRONO_INCONCLUSIVE;
    lk->e->looks = lk->look;
    (void)chrono__bprintf(why, n, "every sample was rejected (");
    for (i = 0; i < CHRONO__NREJECTIONS; i++)
        if (count[i] && (at = strlen(why)) < n)
            (void)chrono__bprintf(why + at, n - at, "%s%lu %s", any++ ? ", " : "", count[i],
                                  words[i]);
    if ((at = strlen(why)) < n) (void)chrono__bprintf(why + at, n - at, ")");
    if (!any)
        (void)chrono__bprintf(
            why, n, "no sample was taken within the budget (sizing and warm-up spent it)");
}

/* The budget spent undecided: the reason says what the pairs showed and
   what would decide (4x the budget gives ~4x the pairs; a claim the truth
   sits on may need more than any budget). */
CHRONO__PRIVATE void chrono__looks_undecided(const chrono_engine *en, chrono__looks *lk, size_t m)
{
    const chrono_expectation *e = lk->e;
    size_t fewest = chrono__looks_fewest(lk->ck->cfg.alpha);
    double b = lk->ck->cfg.budget_ms;
    if (m < fewest)
        (void)chrono__bprintf(lk->e->reason, sizeof lk->e->reason,
                              "%lu %s in %.0f ms, fewer than the %lu that can decide: "
                              "--budget-ms=%.0f would give ~%lu",
                              (unsigned long)m, en->sides == 2 ? "pairs" : "samples", b,
                              (unsigned long)fewest, 4 * b, (unsigned long)(4 * m));
    else
        (void)chrono__bprintf(lk->e->reason, sizeof lk->e->reason,
                              "%.5g [%.5g, %.5g] straddles the claim %.4g after %lu %s: "
                              "--budget-ms=%.0f would give ~%lu",
                              e->estimate, e->ci_low, e->ci_high, e->claim, (unsigned long)m,
                              en->sides == 2 ? "pairs" : "samples", 4 * b, (unsigned long)(4 * m));
}

/* The engine's decide callback, when it has the rows of this look (first_look
   2^(k-1)) or the budget is spent: look k at the figures.  1 asks for twice
   the rows (another look), 0 stops: decided, out of budget, or out of memory. */
CHRONO__PRIVATE int chrono__looks_decide(chrono_engine *en, void *user)
{
    chrono__looks *lk = (chrono__looks *)user;
    int over = chrono_engine_ms(en) >= en->target.ms || en->n < en->target.n;
    size_t m;
    lk->look++;
    if ((lk->rc = chrono__grow((void **)&lk->buf, &lk->cap, 2 * en->n, sizeof(double))) < 0)
        return 0;
    m = chrono__looks_figures(en, lk->buf);
    if (m == 0 && over) { chrono__looks_rejected(en, lk); return 0; }
    if (m) {
        lk->v = chrono_expect_decide(lk->buf, m, lk->claim, lk->claim_is_max, lk->look,
                                     lk->ck->cfg.alpha, lk->buf + m, lk->e);
        if (lk->v == CHRONO_INCONCLUSIVE && over) chrono__looks_undecided(en, lk, m);
        if (lk->v != CHRONO_INCONCLUSIVE || over) return 0;
    }
    en->target.n *= 2;
    return 1;
}

/* The looks, until decided or out of budget: the engine samples on to
   first_look 2^(k-1) rows for look k.  The claim is on the median of the
   figures (chrono__looks_figures). */
CHRONO__PRIVATE chrono_verdict chrono__looks_run(chrono_engine *en, const chrono_checker *ck,
                                                 double claim, int claim_is_max,
                                                 chrono_expectation *e)
{
    chrono_engine_target t;
    chrono__looks lk;
    int rc;
    memset(&lk, 0, sizeof lk);
    lk.ck = ck;
    lk.e = e;
    lk.claim = claim;
    lk.claim_is_max = claim_is_max;
    lk.v = CHRONO_INCONCLUSIVE;
    t.until = CHRONO_ENGINE_ROWS; t.n = ck->cfg.first_look; t.ms = ck->cfg.budget_ms;
    t.decide = chrono__looks_decide; t.user = &lk;
    rc = chrono_engine_run(en, &t);
    CHRONO_FREE(lk.buf);
    if (rc == 0) rc = lk.rc;
    if (rc < 0)
        return chrono__expect_error(e, rc,
                                    rc == CHRONO_ENOMEM ? "out of memory" : chrono_strerror(rc));
    if (lk.v == CHRONO_VERDICT_ERROR)
        return chrono__expect_error(e, CHRONO_ERANGE, "figures not finite and positive");
    return lk.v;
}

/* A faster check stored like any comparison: a = slow (side 1), b = fast,
   the decision's ratio and interval. */
CHRONO__PRIVATE int chrono__looks_keep_pair(chrono_engine *en, const chrono_expectation *e)
{
    chrono_comparison cmp;
    chrono_ratio cr;
    memset(&cmp, 0, sizeof cmp);
    cmp.a = *en->r[1]; cmp.b = *en->r[0];
    cmp.rounds = en->n;
    cmp.ratio = e->estimate;
    cmp.ci_low = e->ci_low;
    cmp.ci_high = e->ci_high;
    cmp.ci_level = e->ci_level;
    cmp.process_min_ratio = cmp.process_max_ratio = e->estimate;   /* one process */
    cmp.cycles_ratio = NAN;
    if (en->s->has_cycles && chrono_stats_ratio(en->col[1].cycles, en->col[0].cycles, en->n, 0.5,
                                                en->col[0].scratch, &cr) == 0)
        cmp.cycles_ratio = cr.ratio;
    return chrono_engine_keep(en, &cmp);
}

/* An expectation on the engine: sized and warmed, the looks, then the rows
   that counted kept (as the decision did), each side summarised and what was
   measured kept in the session (two sides: the comparison; one: the result).
   e's spent_ms; the verdict. */
CHRONO__PRIVATE chrono_verdict chrono__looks_expect(const chrono_checker *ck, chrono_expectation *e,
                                                    const chrono_engine_side *side, int sides,
                                                    double claim, int claim_is_max)
{
    chrono_engine en;
    chrono_verdict v;
    int rc = chrono__looks_open(&en, ck, side, sides, e), k;
    if (rc < 0)
        return chrono__expect_error(e, rc,
                                    rc == CHRONO_ENOMEM ? "out of memory" : chrono_strerror(rc));
    if (rc == 1) {
        e->spent_ms = chrono_engine_ms(&en);
        return CHRONO_INCONCLUSIVE;
    }
    v = chrono__looks_run(&en, ck, claim, claim_is_max, e);
    if (v != CHRONO_VERDICT_ERROR && en.n) {
        (void)chrono_engine_drop(&en, CHRONO_ENGINE_DROP_DECIDED);
        for (k = 0; k < sides; k++)
            if (en.r[k]->migrated) en.s->warnings |= CHRONO_WARN_MIGRATED;
        rc = chrono_engine_summarise(&en);
        if (rc == 0)
            rc = sides == 2 ? chrono__looks_keep_pair(&en, e) : chrono_engine_keep(&en, NULL);
    }
    e->spent_ms = chrono_engine_ms(&en);
    if (rc < 0) return chrono__expect_error(e, rc, chrono_strerror(rc));
    return v;
}

/* ---- the checker ------------------------------------------------------------------------ */
CHRONO_API int chrono_checker_open(chrono_checker *ck, chrono_session *s,
                                   const chrono_expect_config *cfg)
{
    int rc;
    if (!ck) return CHRONO_EINVAL;
    memset(ck, 0, sizeof *ck);
    if ((rc = chrono__check_session(s)) < 0) return rc;
    if ((rc = chrono__expect_config_resolve(cfg, &ck->cfg)) < 0) return rc;
    ck->session = s;
    return 0;
}

CHRONO_API void chrono_checker_close(chrono_checker *ck)
{
    if (!ck) return;
    CHRONO_FREE(ck->items);
    ck->items = NULL;
    ck->n = ck->chrono__items_cap = 0;
    ck->session = NULL;
}

/* Append e; where the array cannot grow, it is still the last verdict. */
/* Keep the verdict.  Under an emulator (valgrind, qemu) a timing verdict
   says nothing about the code: PASS and FAIL become INCONCLUSIVE (a SKIP). */
CHRONO__PRIVATE chrono_verdict chrono__checker_keep(chrono_checker *ck,
                                                    const chrono_expectation *in)
{
    chrono_expectation x = *in, *e = &x;
    if ((e->verdict == CHRONO_PASS || e->verdict == CHRONO_FAIL) &&
        chrono_session_emulated(ck->session)) {
        (void)chrono__bprintf(e->reason, sizeof e->reason,
                              "timed under an emulator (valgrind or qemu): it would have read %s",
                              chrono_verdict_name(e->verdict));
        e->verdict = CHRONO_INCONCLUSIVE;
    }
    if (chrono__grow((void **)&ck->items, &ck->chrono__items_cap, ck->n + 1, sizeof *e) == 0)
        ck->items[ck->n++] = *e;
    else if (e->verdict == CHRONO_FAIL || e->verdict == CHRONO_VERDICT_ERROR)
        ck->chrono__lost_failed++;
    return e->verdict;
}

CHRONO__PRIVATE int chrono__expect_name_ok(chrono_expectation *e, const char *name, size_t extra)
{
    if (!name || !*name) {
        chrono__expect_error(e, CHRONO_EINVAL, "the name is NULL or empty");
        return 0;
    }
    if (strlen(name) + extra >= CHRONO_NAME_MAX) {
        chrono__expect_error(e, CHRONO_ERANGE, "the name is too long");
        return 0;
    }
    return 1;
}

CHRONO__PRIVATE int chrono__expect_ready(chrono_checker *ck, chrono_expectation *e)
{
    if (!ck->session || chrono__check_session(ck->session) < 0) {
        chrono__expect_error(e, CHRONO_EINVAL, "the checker has no open session");
        return 0;
    }
    return 1;
}

CHRONO__PRIVATE chrono_verdict chrono__check_faster(chrono_checker *ck, chrono_expectation *e,
                                                    const char *name, chrono_fn fast,
                                                    void *fast_ctx, chrono_fn slow, void *slow_ctx,
                                                    double min_speedup)
{
    chrono_engine_side side[2];
    chrono_result r[2];
    char na[CHRONO_NAME_MAX], nb[CHRONO_NAME_MAX];
    if (!chrono__expect_name_ok(e, name, 5) || !chrono__expect_ready(ck, e)) return e->verdict;
    if (!fast || !slow)
        return chrono__expect_error(e, CHRONO_EINVAL, "a body (fast or slow) is NULL");
    if (!(min_speedup > 0) || !(min_speedup < 1e12))
        return chrono__expect_error(e, CHRONO_EINVAL, "min_speedup must be a finite number > 0");
    (void)chrono__bprintf(na, sizeof na, "%s/slow", name);
    (void)chrono__bprintf(nb, sizeof nb, "%s/fast", name);
    side[0].name = nb; side[0].fn = fast; side[0].ctx = fast_ctx; side[0].result = &r[0];
    side[1].name = na; side[1].fn = slow; side[1].ctx = slow_ctx; side[1].result = &r[1];
    return chrono__looks_expect(ck, e, side, 2, min_speedup, 0);
}

CHRONO_API chrono_verdict chrono_check_faster(chrono_checker *ck, const char *name, chrono_fn fast,
                                              void *fast_ctx, chrono_fn slow, void *slow_ctx,
                                              double min_speedup)
{
    chrono_expectation e;
    chrono__expectation_init(&e, name, CHRONO_EXPECT_FASTER, min_speedup);
    if (!ck) return CHRONO_VERDICT_ERROR;
    chrono__check_faster(ck, &e, name, fast, fast_ctx, slow, slow_ctx, min_speedup);
    return chrono__checker_keep(ck, &e);
}

/* One body, sequentially: the median ns against max_ns / scale. */
CHRONO__PRIVATE chrono_verdict chrono__check_one(chrono_checker *ck, chrono_expectation *e,
                                                 const char *name, chrono_fn fn, void *ctx,
                                                 double claim_ns)
{
    chrono_engine_side side;
    chrono_result r;
    side.name = name; side.fn = fn; side.ctx = ctx; side.result = &r;
    return chrono__looks_expect(ck, e, &side, 1, claim_ns, 1);
}

CHRONO_API chrono_verdict chrono_check_below(chrono_checker *ck, const char *name, chrono_fn fn,
                                             void *ctx, double max_ns)
{
    chrono_expectation e;
    chrono__expectation_init(&e, name, CHRONO_EXPECT_BELOW, max_ns);
    if (!ck) return CHRONO_VERDICT_ERROR;
    if (!chrono__expect_name_ok(&e, name, 0) || !chrono__expect_ready(ck, &e))
        return chrono__checker_keep(ck, &e);
    if (!fn) chrono__expect_error(&e, CHRONO_EINVAL, "the body is NULL");
    else if (!(max_ns > 0) || !(max_ns < 1e15))
        chrono__expect_error(&e, CHRONO_EINVAL, "max_ns must be a finite number > 0");
    else chrono__check_one(ck, &e, name, fn, ctx, max_ns);
    return chrono__checker_keep(ck, &e);
}

/* ---- against a saved result (read by chrono_saved_find, report.h) ------------------------ */
CHRONO__PRIVATE chrono_verdict chrono__check_saved(chrono_checker *ck, chrono_expectation *e,
                                                   const char *name, chrono_fn fn, void *ctx,
                                                   const char *json_path, double max_slowdown)
{
    chrono_saved sv;
    char *text;
    int rc;
    double lo, hi;
    if (!fn) return chrono__expect_error(e, CHRONO_EINVAL, "the body is NULL");
    if (!(max_slowdown > 0) || !(max_slowdown < 1e12))
        return chrono__expect_error(e, CHRONO_EINVAL, "max_slowdown must be a finite number > 0");
    if (!(text = chrono__read_file(json_path)))
        return chrono__expect_error(e, CHRONO_EIO, "cannot read the saved JSON file");
    rc = chrono_saved_find(text, name, &sv);
    CHRONO_FREE(text);
    if (rc < 0)
        return chrono__expect_error(e, rc,
                                    "no entry of this name with a median_ns in the saved JSON");
    lo = sv.ci_low_ns > 0 && sv.ci_low_ns <= sv.median_ns ? sv.ci_low_ns : sv.median_ns;
    hi = sv.ci_high_ns >= sv.median_ns && sv.ci_high_ns < 1e300 ? sv.ci_high_ns : sv.median_ns;
    /* Decide on ns against max_slowdown x the saved median, then state the
       ratio's interval widened by the saved CI. */
    (void)chrono__check_one(ck, e, name, fn, ctx, max_slowdown * sv.median_ns);
    if (e->verdict == CHRONO_VERDICT_ERROR) return e->verdict;
    if (e->verdict == CHRONO_PASS && !(e->ci_high / lo <= max_slowdown))
        e->verdict = CHRONO_INCONCLUSIVE;
    if (e->verdict == CHRONO_FAIL && !(e->ci_low / hi > max_slowdown))
        e->verdict = CHRONO_INCONCLUSIVE;
    e->estimate /= sv.median_ns;
    e->ci_low /= hi;
    e->ci_high /= lo;
    return e->verdict;
}

CHRONO_API chrono_verdict chrono_check_saved(chrono_checker *ck, const char *name, chrono_fn fn,
                                             void *ctx, const char *json_path, double max_slowdown)
{
    chrono_expectation e;
    chrono__expectation_init(&e, name, CHRONO_EXPECT_SAVED, max_slowdown);
    if (!ck) return CHRONO_VERDICT_ERROR;
    if (chrono__expect_name_ok(&e, name, 0) && chrono__expect_ready(ck, &e))
        chrono__check_saved(ck, &e, name, fn, ctx, json_path, max_slowdown);
    return chrono__checker_keep(ck, &e);
}

/* ---- scaling ---------------------------------------------------------------------------------- */
CHRONO__PRIVATE double chrono__growth(chrono_complexity c, double n)
{
    double ln = n > 1 ? log(n) : 0.0;
    switch (c) {
    case CHRONO_O_LOG_N: return ln;
    case CHRONO_O_N: return n;
    case CHRONO_O_N_LOG_N: return n * ln;
    case CHRONO_O_N2: return n * n;
    default: return 0.0;
    }
}

/* Fit class c to (x, y): y = a + b f(x), b >= 0 (O(1): y = a).  Returns the
   RMS relative residual, floored at `noise`; *slope gets b. */
CHRONO__PRIVATE double chrono__class_error(chrono_complexity c, const double *x, const double *y,
                                           size_t n, double noise, double *slope)
{
    double mf = 0, my = 0, sff = 0, sfy = 0, a, b = 0, sum = 0, e;
    size_t i;
    for (i = 0; i < n; i++) { mf += chrono__growth(c, x[i]); my += y[i]; }
    mf /= (double)n; my /= (double)n;
    for (i = 0; i < n; i++) {
        double df = chrono__growth(c, x[i]) - mf;
        sff += df * df;
        sfy += df * (y[i] - my);
    }
    if (c != CHRONO_O_1 && sff > 0 && sfy > 0) b = sfy / sff;
    a = my - b * mf;
    for (i = 0; i < n; i++) {
        double r = (y[i] - (a + b * chrono__growth(c, x[i]))) / y[i];
        sum += r * r;
    }
    e = sqrt(sum / (double)n);
    *slope = b;
    return e > noise ? e : noise;
}

/* One sweep of the points (in the order given): each point's median into y,
   and into *noise the RMS of the points' relative CI half-widths.  0, or the
   error with e's reason set. */
CHRONO__PRIVATE int chrono__scaling_look(chrono_session *s, chrono_expectation *e, const char *name,
                                         chrono_sweep_fn fn, void *ctx, const uint64_t *params,
                                         size_t nparams, double *y, double *noise)
{
    chrono_sweep_result sw;
    double sq = 0;
    size_t i;
    int rc;
    if ((rc = chrono_sweep(s, name, fn, ctx, params, nparams, &sw)) < 0) {
        chrono__expect_error(e, rc, chrono_strerror(rc));
        return rc;
    }
    for (i = 0; i < nparams; i++) {
        const chrono_result *r = &s->results[sw.first_result + i];
        double h = (r->ns.ci_high - r->ns.ci_low) / 2 / r->ns.median;
        if (!(r->ns.median > 0)) {
            chrono__expect_error(e, CHRONO_ERANGE, "a point's median is not positive");
            return CHRONO_ERANGE;
        }
        y[i] = r->ns.median;
        sq += h * h;
    }
    *noise = sqrt(sq / (double)nparams);
    return 0;
}

/* The scaling rule (see "scaling" above) on the points (x, y) with their
   noise: the verdict, best class, R^2 and reason into e. */
CHRONO__PRIVATE void chrono__scaling_verdict(chrono_expectation *e, const double *x,
                                             const double *y, size_t nparams, double noise,
                                             chrono_complexity claimed, double pmin, double pmax)
{
    double slope[CHRONO_COMPLEXITY_COUNT], ss = 0, my = 0, grow;
    size_t i;
    int c;
    for (i = 0; i < nparams; i++) my += y[i];
    my /= (double)nparams;
    for (i = 0; i < nparams; i++) ss += (y[i] - my) * (y[i] - my) / (y[i] * y[i]);
    e->noise = noise;
    e->best = CHRONO_O_1;
    for (c = 0; c < CHRONO_COMPLEXITY_COUNT; c++) {
        e->fit_error[c] =
            chrono__class_error((chrono_complexity)c, x, y, nparams, noise, &slope[c]);
        if (e->fit_error[c] < e->fit_error[e->best]) e->best = (chrono_complexity)c;
    }
    e->r2 = ss > 0 ? 1.0 - e->fit_error[e->best] * e->fit_error[e->best] * (double)nparams / ss
                   : 1.0;
    if (e->r2 < 0) e->r2 = 0;
    e->estimate = e->fit_error[claimed];
    e->verdict = CHRONO_PASS;
    grow = slope[claimed] * (chrono__growth(claimed, pmax) - chrono__growth(claimed, pmin)) / my;
    if (e->fit_error[e->best] < e->fit_error[claimed] / 2) {
        e->verdict = CHRONO_FAIL;
        (void)chrono__bprintf(e->reason, sizeof e->reason,
                              "%s fits with %.3g < half the error of %s (%.3g)",
                              chrono_complexity_name(e->best), e->fit_error[e->best],
                              chrono_complexity_name(claimed), e->fit_error[claimed]);
    } else if (claimed != CHRONO_O_1 && !(grow > noise)) {
        e->verdict = CHRONO_FAIL;
        (void)chrono__bprintf(e->reason, sizeof e->reason,
                              "time did not grow: fitted growth %.3g of the mean is "
                              "within the noise %.3g",
                              grow, noise);
    } else {
        (void)chrono__bprintf(e->reason, sizeof e->reason,
                              "no class fits with less than half the error of %s (%.3g)",
                              chrono_complexity_name(claimed), e->fit_error[claimed]);
    }
}

/* The sweep looked at, up to CHRONO__SCALING_LOOKS times, until the rule
   passes: the first look; then, for each later look, each point's smallest
   median of the looks so far (with their largest noise), and failing that the
   look alone.  Other programs only ever add time.  A spell that slowed a point
   in one look is not in every look unless it outlasts the sweeps, so the
   smallest medians are clean.  A spell that began partway through one look
   and lasted through the next slowed the later points of the one and every
   point of the next alike: the smallest medians then mix quick points and
   slow ones into a shape the code does not have, and the next look alone is
   clean.  A shape the code really has is in every look, and in their smallest
   medians.  (Three looks, not two: on a shared 2-vCPU host under seven builds
   one O(n) check in 60 needed its second look, and examples/unit_test's O(n)
   claim failed both looks once in 20 runs.  Looks alone: with the smallest
   medians only, that claim failed all three looks once in 20 quiet runs, its
   largest point read 1.9x slow, O(n^2) fitting best.) */
#define CHRONO__SCALING_LOOKS 3
CHRONO__PRIVATE void chrono__scaling_looks(chrono_session *s, chrono_expectation *e, const char *name,
                                           chrono_sweep_fn fn, void *ctx, const uint64_t *params,
                                           size_t nparams, const double *x, chrono_complexity claimed,
                                           double pmin, double pmax)
{
    double least[64], y[64], noise, most_noise;
    chrono_expectation alone;
    size_t i, k;
    if (chrono__scaling_look(s, e, name, fn, ctx, params, nparams, least, &most_noise) < 0) return;
    chrono__scaling_verdict(e, x, least, nparams, most_noise, claimed, pmin, pmax);
    e->rounds = nparams;
    for (k = 1; k < CHRONO__SCALING_LOOKS && e->verdict == CHRONO_FAIL; k++) {
        if (chrono__scaling_look(s, e, name, fn, ctx, params, nparams, y, &noise) < 0) return;
        for (i = 0; i < nparams; i++) least[i] = y[i] < least[i] ? y[i] : least[i];
        most_noise = noise > most_noise ? noise : most_noise;
        e->rounds = (k + 1) * nparams;
        chrono__scaling_verdict(e, x, least, nparams, most_noise, claimed, pmin, pmax);
        if (e->verdict == CHRONO_PASS) break;
        alone = *e;
        chrono__scaling_verdict(&alone, x, y, nparams, noise, claimed, pmin, pmax);
        if (alone.verdict == CHRONO_PASS) {
            *e = alone;
            (void)chrono__bprintf(e->reason, sizeof e->reason, "look %lu alone: %s",
                                  (unsigned long)(k + 1), alone.reason);
        }
    }
}

CHRONO__PRIVATE void chrono__check_scaling(chrono_checker *ck, chrono_expectation *e,
                                           const char *name, chrono_sweep_fn fn, void *ctx,
                                           const uint64_t *params, size_t nparams,
                                           chrono_complexity claimed)
{
    chrono_session *s = ck->session;
    double x[64], pmin = INFINITY, pmax = 0;
    size_t i;
    uint64_t t0 = chrono_clock_read(&s->clock), t1;   /* for spent_ms, outside any sample */
    e->claimed = claimed;
    if (!fn || !params) {
        chrono__expect_error(e, CHRONO_EINVAL, "the body or the params are NULL");
        return;
    }
    if ((int)claimed < 0 || claimed >= CHRONO_COMPLEXITY_COUNT) {
        chrono__expect_error(e, CHRONO_EINVAL, "unknown complexity class");
        return;
    }
    if (nparams < 3 || nparams > 64) {
        chrono__expect_error(e, CHRONO_EINVAL, "a sweep needs 3..64 params");
        return;
    }
    for (i = 0; i < nparams; i++) {
        if (params[i] < 1) {
            chrono__expect_error(e, CHRONO_EINVAL, "params must be >= 1");
            return;
        }
        pmin = (double)params[i] < pmin ? (double)params[i] : pmin;
        pmax = (double)params[i] > pmax ? (double)params[i] : pmax;
        x[i] = (double)params[i];
    }
    if (pmax < 4 * pmin) {
        chrono__expect_error(e, CHRONO_EINVAL, "the sweep must span at least 4x (max >= 4 min)");
        return;
    }
    chrono__scaling_looks(s, e, name, fn, ctx, params, nparams, x, claimed, pmin, pmax);
    t1 = chrono_clock_read(&s->clock);
    e->spent_ms = t1 > t0 ? chrono_clock_ns(&s->clock, t1 - t0) / 1e6 : 0.0;
}

CHRONO_API chrono_verdict chrono_check_scaling(chrono_checker *ck, const char *name,
                                               chrono_sweep_fn fn, void *ctx,
                                               const uint64_t *params, size_t nparams,
                                               chrono_complexity claimed)
{
    chrono_expectation e;
    chrono__expectation_init(&e, name, CHRONO_EXPECT_SCALING, NAN);
    if (!ck) return CHRONO_VERDICT_ERROR;
    if (chrono__expect_name_ok(&e, name, 22) && chrono__expect_ready(ck, &e))
        chrono__check_scaling(ck, &e, name, fn, ctx, params, nparams, claimed);
    return chrono__checker_keep(ck, &e);
}

CHRONO_API chrono_verdict chrono_check_entry_run(chrono_checker *ck, const chrono_check_entry *e)
{
    chrono_expectation x;
    if (!ck) return CHRONO_VERDICT_ERROR;
    if (!e) {
        chrono__expectation_init(&x, "(null entry)", CHRONO_EXPECT_FASTER, NAN);
        chrono__expect_error(&x, CHRONO_EINVAL, "the entry is NULL");
        return chrono__checker_keep(ck, &x);
    }
    switch (e->kind) {
    case CHRONO_EXPECT_FASTER:
        return chrono_check_faster(ck, e->name, e->fn, e->ctx, e->slow, e->slow_ctx, e->claim);
    case CHRONO_EXPECT_BELOW: return chrono_check_below(ck, e->name, e->fn, e->ctx, e->claim);
    case CHRONO_EXPECT_SCALING:
        return chrono_check_scaling(ck, e->name, e->sweep, e->ctx, e->params, e->nparams,
                                    e->complexity);
    case CHRONO_EXPECT_SAVED:
        return chrono_check_saved(ck, e->name, e->fn, e->ctx, e->saved_path, e->claim);
    default:
        chrono__expectation_init(&x, e->name, e->kind, NAN);
        chrono__expect_error(&x, CHRONO_EINVAL, "unknown expectation kind");
        return chrono__checker_keep(ck, &x);
    }
}

/* ---- without a checker ---------------------------------------------------------------------- */
CHRONO_API chrono_verdict chrono_expect_faster(chrono_session *s, const char *name, chrono_fn fast,
                                               void *fast_ctx, chrono_fn slow, void *slow_ctx,
                                               double min_speedup)
{
    chrono_checker ck;
    chrono_expectation e;
    if (chrono_checker_open(&ck, s, NULL) < 0) return CHRONO_VERDICT_ERROR;
    chrono__expectation_init(&e, name, CHRONO_EXPECT_FASTER, min_speedup);
    return chrono__check_faster(&ck, &e, name, fast, fast_ctx, slow, slow_ctx, min_speedup);
}

CHRONO_API chrono_verdict chrono_expect_below(chrono_session *s, const char *name, chrono_fn fn,
                                              void *ctx, double max_ns)
{
    chrono_checker ck;
    chrono_verdict v;
    if (chrono_checker_open(&ck, s, NULL) < 0) return CHRONO_VERDICT_ERROR;
    v = chrono_check_below(&ck, name, fn, ctx, max_ns);
    chrono_checker_close(&ck);
    return v;
}

/* ---- TAP version 13 ---------------------------------------------------------------------------- */
/* A name on one line, '#' escaped (it would start a directive). */
CHRONO__PRIVATE void chrono__tap_name(FILE *out, const char *name)
{
    for (; *name; name++) {
        if (*name == '#') fputs("\\#", out);
        else if (*name == '\n' || *name == '\r') fputc(' ', out);
        else fputc(*name, out);
    }
}

CHRONO__PRIVATE const char *chrono__tap_fig(const chrono_expectation *e)
{
    return e->kind == CHRONO_EXPECT_BELOW ? "ns" : "ratio";
}

/* "ratio 1.52 [1.49, 1.55]" or "ns 812 [801, 820]" or "O(n), R^2 0.998". */
CHRONO__PRIVATE void chrono__tap_figures(char *buf, size_t n, const chrono_expectation *e)
{
    if (e->kind == CHRONO_EXPECT_SCALING)
        (void)chrono__bprintf(buf, n, "best %s, R^2 %.3f", chrono_complexity_name(e->best), e->r2);
    else if (e->kind == CHRONO_EXPECT_BELOW)
        (void)chrono__bprintf(buf, n, "ns %.4g [%.4g, %.4g]", e->estimate, e->ci_low, e->ci_high);
    else
        (void)chrono__bprintf(buf, n, "ratio %.2f [%.2f, %.2f]", e->estimate, e->ci_low,
                              e->ci_high);
}

CHRONO__PRIVATE void chrono__tap_yaml_num(FILE *out, const char *key, double v)
{
    if (v == v && v - v == 0) fprintf(out, "  %s: %.6g\n", key, v);
    else fprintf(out, "  %s: ~\n", key);
}

CHRONO__PRIVATE void chrono__tap_yaml(FILE *out, const chrono_expectation *e)
{
    int c;
    fputs("  ---\n", out);
    fprintf(out, "  kind: %s\n  verdict: %s\n", chrono__kind_name(e->kind),
            chrono_verdict_name(e->verdict));
    if (e->reason[0]) {
        fputs("  reason: \"", out);
        /* a JSON string is a YAML double-quoted scalar */
        (void)chrono_json_escape(out, e->reason);
        fputs("\"\n", out);
    }
    if (e->verdict != CHRONO_VERDICT_ERROR || e->rounds) {
        if (e->kind == CHRONO_EXPECT_SCALING) {
            fprintf(out, "  claimed: \"%s\"\n  best: \"%s\"\n", chrono_complexity_name(e->claimed),
                    chrono_complexity_name(e->best));
            chrono__tap_yaml_num(out, "r2", e->r2);
            chrono__tap_yaml_num(out, "noise", e->noise);
            for (c = 0; c < CHRONO_COMPLEXITY_COUNT; c++) {
                fprintf(out, "  \"error %s\": ", chrono_complexity_name((chrono_complexity)c));
                if (e->fit_error[c] == e->fit_error[c]) fprintf(out, "%.6g\n", e->fit_error[c]);
                else fputs("~\n", out);
            }
        } else {
            chrono__tap_yaml_num(out, "claim", e->claim);
            chrono__tap_yaml_num(out, chrono__tap_fig(e), e->estimate);
            chrono__tap_yaml_num(out, "ci_low", e->ci_low);
            chrono__tap_yaml_num(out, "ci_high", e->ci_high);
            chrono__tap_yaml_num(out, "ci_level", e->ci_level);
            fprintf(out, "  looks: %d\n", e->looks);
        }
        fprintf(out, "  rounds: %lu\n", (unsigned long)e->rounds);
        chrono__tap_yaml_num(out, "spent_ms", e->spent_ms);
    }
    fputs("  ...\n", out);
}

/* Whether e fails the run: FAIL, an error, or under strict an
   INCONCLUSIVE that was measured (timed under an emulator it stays a skip). */
CHRONO__PRIVATE int chrono__expect_fails(const chrono_checker *ck, const chrono_expectation *e)
{
    if (e->verdict == CHRONO_FAIL || e->verdict == CHRONO_VERDICT_ERROR) return 1;
    return e->verdict == CHRONO_INCONCLUSIVE && ck->cfg.strict &&
           !chrono_session_emulated(ck->session);
}

CHRONO__PRIVATE void chrono__tap_line(FILE *out, size_t i, const chrono_checker *ck,
                                      const chrono_expectation *e)
{
    char fig[128];
    int fails = chrono__expect_fails(ck, e);
    chrono__tap_figures(fig, sizeof fig, e);
    fprintf(out, "%sok %lu - ", fails ? "not " : "", (unsigned long)(i + 1));
    chrono__tap_name(out, e->name);
    if (e->verdict == CHRONO_PASS) {
        fprintf(out, " # %s\n", fig);
    } else if (e->verdict == CHRONO_INCONCLUSIVE && fails) {
        fputc('\n', out);   /* strict: the YAML block says inconclusive, and why */
        chrono__tap_yaml(out, e);
    } else if (e->verdict == CHRONO_INCONCLUSIVE) {
        if (e->reason[0])
            fprintf(out, " # SKIP inconclusive after %.0f ms: %s\n", e->spent_ms, e->reason);
        else
            fprintf(out, " # SKIP inconclusive after %.0f ms: %s, claim %.4g\n", e->spent_ms, fig,
                    e->claim);
    } else {
        fputc('\n', out);
        chrono__tap_yaml(out, e);
    }
}

/* TAP version 13: the session's environment as comments (the text report's
   header: a CI log shows the conditions), the plan, a line for each verdict. */
CHRONO_API int chrono_checker_tap(const chrono_checker *ck, FILE *out)
{
    size_t i;
    if (!ck || !out) return CHRONO_EINVAL;
    fputs("TAP version 13\n", out);
    if (ck->session && ck->session->is_open)
        (void)chrono_report_environment(ck->session, out, "# ");
    if (ck->n == 0) fputs("1..0 # SKIP nothing selected\n", out);
    else fprintf(out, "1..%lu\n", (unsigned long)ck->n);
    for (i = 0; i < ck->n; i++) chrono__tap_line(out, i, ck, &ck->items[i]);
    return fflush(out) == 0 && !ferror(out) ? 0 : CHRONO_EIO;
}

/* 0 when nothing failed or erred (inconclusive ones are skips, failures
   under .strict), else 1. */
CHRONO_API int chrono_checker_exit_status(const chrono_checker *ck)
{
    size_t i;
    if (!ck) return 1;
    if (ck->chrono__lost_failed) return 1;   /* a failed verdict could not be kept */
    for (i = 0; i < ck->n; i++)
        if (chrono__expect_fails(ck, &ck->items[i])) return 1;
    return 0;
}

/* CHRONO_CHECK_STRICT in the environment: unset, empty or 0 leaves *strict
   as it is, 1 sets it; anything else is named on stderr, -1 (exit 2). */
CHRONO__PRIVATE int chrono__check_strict_env(const char *prog, int *strict)
{
    const char *v = getenv("CHRONO_CHECK_STRICT");
    if (!v || !*v || !strcmp(v, "0")) return 0;
    if (strcmp(v, "1") != 0) {
        fprintf(stderr, "%s: CHRONO_CHECK_STRICT='%s': expected 1 or 0\n", prog, v);
        return -1;
    }
    *strict = 1;
    return 0;
}

/* Flags a check refuses (exit 2): --processes (a check decides as it
   samples, in this one process: pooling fresh processes is not what its
   verdicts are made of), and a program's named baselines (--save,
   --compare, --fail-above: a saved run is a claim of its own,
   CHRONO_CHECK_SAVED).  0 or CHRONO_EINVAL. */
CHRONO__PRIVATE int chrono__check_refuse_flags(chrono_cli *cli)
{
    static const char *const flags[] = { "--save", "--compare", "--fail-above" };
    size_t i;
    if (chrono_cli_refuse(cli, "--processes",
                          "a check decides its verdicts within this one process") < 0)
        return CHRONO_EINVAL;
    for (i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (chrono_cli_refuse(cli, flags[i],
                              "a check's claims are its verdicts: CHRONO_CHECK_SAVED compares "
                              "with a saved run") < 0)
            return CHRONO_EINVAL;
    return 0;
}

/* A check program's own flags: --budget-ms, --alpha and --strict, into the three values. */
CHRONO__PRIVATE void chrono__check_flags(chrono_cli_flag extra[3], double *budget, double *alpha,
                                         int *strict)
{
    extra[0].name = "--budget-ms"; extra[0].kind = CHRONO_CLI_DOUBLE; extra[0].value = budget;
    extra[0].min = 1; extra[0].max = 86400000;
    extra[0].help = "time budget of each expectation in ms (default 500)";
    extra[1].name = "--alpha"; extra[1].kind = CHRONO_CLI_DOUBLE; extra[1].value = alpha;
    extra[1].min = 1e-9; extra[1].max = 0.49;
    extra[1].help = "rate of each wrong verdict (default 0.01)";
    extra[2].name = "--strict"; extra[2].kind = CHRONO_CLI_BOOL; extra[2].value = strict;
    extra[2].min = extra[2].max = 0;
    extra[2].help =
        "an inconclusive claim fails (exit 1); also CHRONO_CHECK_STRICT=1 in the environment";
}

/* ---- the check main ----------------------------------------------------------------------------- */
/* Flags: the common ones (cli.h) but --processes (refused: exit 2, and not
   in --help), where --quick also shortens the budget to 150 ms, plus
   --budget-ms=X and --alpha=X.  The TAP stream goes to stdout;
   the session's report goes to --out in --format when --out is given.  Exit
   0 (nothing failed), 1 (something failed or the session did not open), 2
   (bad command line). */
CHRONO_API int chrono_check_main_at(int argc, char **argv, const chrono_check_entry *entries,
                                    size_t n, unsigned long caller)
{
    chrono_config cfg = chrono_config_default();
    chrono_expect_config ecfg = chrono_expect_config_default();
    double budget = 0, alpha = 0;
    int strict = 0;
    chrono_cli_flag extra[3];
    chrono_cli cli;
    chrono_session s;
    chrono_checker ck;
    size_t i;
    int rc, status;
    chrono__check_flags(extra, &budget, &alpha, &strict);
    if (chrono_cli_parse_ex(&cfg, &cli, argc, argv, extra, 3) < 0)
        return chrono_cli_fail(&cli, argc > 0 ? argv[0] : NULL);
    if (chrono__check_strict_env(argc > 0 ? argv[0] : "check", &strict) < 0) {
        chrono_cli_close(&cli);
        return 2;
    }
    if (chrono__check_refuse_flags(&cli) < 0)
        return chrono_cli_fail(&cli, argc > 0 ? argv[0] : NULL);
    if (chrono_cli_handle_info(&cli, argc > 0 ? argv[0] : NULL) || cli.list) {
        for (i = 0; cli.list && i < n; i++)
            if (entries && entries[i].name) (void)chrono_cli_want(&cli, entries[i].name);
        chrono_cli_close(&cli);
        return 0;
    }
    if (cli.quick) ecfg.budget_ms = 150;
    if (budget > 0) ecfg.budget_ms = budget;
    if (alpha > 0) ecfg.alpha = alpha;
    ecfg.strict = strict != 0;
    if ((rc = chrono_session_open_at(&s, &cfg, caller)) < 0) {
        chrono_cli_close(&cli);
        printf("TAP version 13\n1..0\nBail out! session: %s\n", chrono_strerror(rc));
        return 1;
    }
    (void)chrono_checker_open(&ck, &s, &ecfg);
    for (i = 0; entries && i < n; i++)
        if (entries[i].name && chrono_cli_want(&cli, entries[i].name))
            (void)chrono_check_entry_run(&ck, &entries[i]);
    rc = chrono_checker_tap(&ck, stdout);
    status = rc < 0 ? 1 : chrono_checker_exit_status(&ck);
    if (cli.out_path && chrono_cli_finish(&cli, &s) < 0) {
        fprintf(stderr, "%s: %s\n", cli.prog, cli.error);
        status = 1;
    }
    chrono_cli_close(&cli);
    chrono_checker_close(&ck);
    chrono_session_close(&s);
    return status;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_CHECK_IMPL */

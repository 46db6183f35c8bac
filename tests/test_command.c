/* tests/test_command.c — command.h and baseline.h on values known in advance:
   the ratio of two series of fabricated runs (exact), the summary, hyperfine's
   JSON export read back field by field, the interleaved order (ABBA) seen by
   the commands themselves, a failure stopping the rounds, the looks at the
   rounds (their levels, how often the caller is asked), where a baseline's
   name leads and how a baseline row takes the machine's drift out. */
#include <chronoscope.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

static void fill(chrono_command_series *s, const double *wall, size_t n, int code)
{
    size_t i;
    s->runs = (chrono_command_time *)malloc(n * sizeof *s->runs);
    s->n = n;
    for (i = 0; i < n; i++) {
        s->runs[i].wall_ns = wall[i];
        s->runs[i].user_ns = 1e6 * (double)(i + 1);
        s->runs[i].sys_ns = 5e5;
        s->runs[i].exit_code = code;
    }
}

static void check_ratio(void)
{
    static const double a[7] = { 10e6, 12e6, 9e6, 30e6, 11e6, 10e6, 10.5e6 };
    double b[7];
    chrono_command_series sa = { "a", 0, NULL, NULL, NULL }, sb = { "b", 0, NULL, NULL, NULL };
    chrono_command_summary m;
    chrono_comparison c;
    int src;
    chrono_change_verdict v;
    size_t i;
    for (i = 0; i < 7; i++) b[i] = a[i] * 2;   /* B twice A, round by round, whatever the drift */
    fill(&sa, a, 7, 0);
    fill(&sb, b, 7, 0);
    {
    int rc = chrono_command_compare(&sa, &sb, 0.95, &c);
    tap_ok(rc == 0 && c.ratio == 0.5 && c.ci_low == 0.5 && c.ci_high == 0.5 &&
           c.rounds == 7, "paired ratio A/B of runs with B = 2A each round: exactly 0.5 [0.5, 0.5] (%g)", c.ratio);
    }
    tap_ok(chrono_change_decide(&c, 0.02, 0.95, &v) == 0 && v.change == CHRONO_CHANGE_SLOWER && v.ratio == 2,
           "the rule on it: B slower, B/A 2 (%s)", v.why);
    src = chrono_command_summarise(&sa, 0.95, &m);
    tap_ok(src == 0 && m.wall.median == 10.5e6 && m.wall.min == 9e6 &&
           m.wall.max == 30e6 && fabs(m.user_mean_ns - 4e6) < 1e-3 && fabs(m.sys_mean_ns - 5e5) < 1e-6 && m.failures == 0,
           "summary: median 10.5 ms, min 9, max 30, user 4 ms, system 0.5 ms (%g %g)", m.wall.median, m.user_mean_ns);
    sb.n = 6;
    tap_ok(chrono_command_compare(&sa, &sb, 0.95, &c) == CHRONO_EINVAL, "series of different lengths: CHRONO_EINVAL");
    chrono_command_series_free(&sa, 1);
    chrono_command_series_free(&sb, 1);
}

static void check_export(void)
{
    static const double w[3] = { 1e9, 2e9, 4e9 };
    chrono_command_series s = { "echo \"hi\"", 0, NULL, "n", "3" };
    char buf[2048];
    size_t len;
    FILE *f = tmpfile();
    fill(&s, w, 3, 1);
    tap_ok(f && chrono_command_export_json(f, &s, 1) == 0, "export written");
    rewind(f);
    len = fread(buf, 1, sizeof buf - 1, f);
    buf[len] = '\0';
    tap_ok(strstr(buf, "\"command\": \"echo \\\"hi\\\"\"") && strstr(buf, "\"mean\": 2.33333333") &&
           strstr(buf, "\"median\": 2,") && strstr(buf, "\"min\": 1,") && strstr(buf, "\"max\": 4,") &&
           strstr(buf, "\"user\": 0.002,") && strstr(buf, "\"system\": 0.0005,") && strstr(buf, "\"times\": [1, 2, 4]") &&
           strstr(buf, "\"exit_codes\": [1, 1, 1]") && strstr(buf, "\"parameters\": {\"n\": \"3\"}") &&
           !strncmp(buf, "{\n  \"results\": [", 16),
           "hyperfine's layout, in seconds, the command escaped");
    fclose(f);
    chrono_command_series_free(&s, 1);
}

/* Each run appends its letter to a file: the order the rounds ran in. */
static void check_order(void)
{
    char path[64], ca[160], cb[160], got[64] = "";
    chrono_command_series s[2];
    chrono_command_config cfg = chrono_command_config_default();
    size_t failed = 9, len = 0;
    FILE *f;
    if (CHRONO_OS_WINDOWS) {   /* no fork: command.h runs nothing there (CHRONO_ENOTSUP) */
        int k;
        for (k = 0; k < 4; k++) tap_skip("commands run through fork and a shell (not on Windows)");
        return;
    }
    snprintf(path, sizeof path, "/tmp/test_command_%d.txt", (int)getpid());
    snprintf(ca, sizeof ca, "printf A >> %s", path);
    snprintf(cb, sizeof cb, "printf B >> %s", path);
    memset(s, 0, sizeof s);
    s[0].command = ca; s[1].command = cb;
    cfg.runs = 4; cfg.warmup = 1;
    remove(path);
    tap_ok(chrono_command_bench(s, 2, &cfg, &failed) == 0 && failed == 0 && s[0].n == 4 && s[1].n == 4,
           "4 rounds of 2 commands, none failed");
    if ((f = fopen(path, "r"))) { len = fread(got, 1, sizeof got - 1, f); got[len] = '\0'; fclose(f); }
    tap_ok(!strcmp(got, "ABABBAABBA"), "warm-up A B, then A B, B A, A B, B A (%s)", got);
    tap_ok(s[0].runs[0].exit_code == 0 && s[0].runs[0].wall_ns > 0, "exit code 0, wall time above 0");
    chrono_command_series_free(s, 2);
    s[0].command = "exit 3";
    cfg.warmup = 0;
    tap_ok(chrono_command_bench(s, 2, &cfg, &failed) == 0 && failed == 1 && s[0].n == 1 && s[1].n == 0 &&
           s[0].runs[0].exit_code == 3, "a command exiting 3 stops the rounds: failed = 1, its code kept");
    chrono_command_series_free(s, 2);
    remove(path);
}

/* The Hodges-Lehmann ratio and its signed-rank interval on ten rounds whose
   log ratios are 0.01, 0.02, ... 0.10: the Walsh averages (i + j) / 200,
   the median 0.055, and at 95% the 9th from each end (P(T <= 8) = 25/1024
   for ten pairs): 0.03 and 0.08, at the level 1 - 50/1024. */
static void check_signed_rank(void)
{
    double a[10], b[10];
    chrono_command_series sa, sb;
    chrono_comparison c;
    size_t i, d = 0;
    double level = 0;
    int rc;
    for (i = 0; i < 10; i++) { a[i] = 1e7 * exp(0.01 * (double)(i + 1)); b[i] = 1e7; }
    memset(&sa, 0, sizeof sa); memset(&sb, 0, sizeof sb);
    sa.command = "a"; sb.command = "b";
    fill(&sa, a, 10, 0); fill(&sb, b, 10, 0);
    rc = chrono_command_compare(&sa, &sb, 0.95, &c);
    tap_ok(rc == 0 && fabs(c.ratio / exp(0.055) - 1) < 1e-12 && fabs(c.ci_low / exp(0.03) - 1) < 1e-12 &&
           fabs(c.ci_high / exp(0.08) - 1) < 1e-12 && c.ci_level == 1 - 50.0 / 1024,
           "ten rounds, log ratios 0.01..0.10: exp(0.055) [exp(0.03), exp(0.08)] at 1 - 50/1024 (%.6g [%.6g, %.6g] %.6g)",
           c.ratio, c.ci_low, c.ci_high, c.ci_level);
    rc = chrono__signed_rank_cut(10, 0.0125, &d, &level);
    tap_ok(rc == 0 && d == 4 && level == 1 - 10.0 / 1024,
           "ten pairs at 98.75%%: from W[3] (P(T <= 3) = 5/1024; P(T <= 4) = 7/1024 is too much), level 1 - 10/1024: "
           "%zu %.6g", d, level);
    rc = chrono__signed_rank_cut(300, 0.05, &d, &level);
    tap_ok(rc == 0 && d > 19500 && d < 19750 && level > 0.949 && level < 0.951,
           "300 pairs (normal, continuity-corrected): from W[19627] of 45150, about 95%% (%zu, %.4f)", d, level);
    chrono_command_series_free(&sa, 1); chrono_command_series_free(&sb, 1);
}

/* The levels of the looks: half of 1 - confidence at the last, the rest shared. */
static void check_levels(void)
{
    double l1 = chrono_command_look_level(0.95, 1, 3), l2 = chrono_command_look_level(0.95, 2, 3),
           l3 = chrono_command_look_level(0.95, 3, 3);
    tap_ok(fabs(l1 - 0.9875) < 1e-12 && fabs(l2 - 0.9875) < 1e-12 && fabs(l3 - 0.975) < 1e-12 &&
           fabs((1 - l1) + (1 - l2) + (1 - l3) - 0.05) < 1e-12,
           "3 looks at 95%%: 98.75%%, 98.75%%, 97.5%%, together 5%% (%.6g %.6g %.6g)", l1, l2, l3);
    tap_ok(fabs(chrono_command_look_level(0.95, 1, 1) - 0.95) < 1e-12 && fabs(chrono_command_look_level(0.9, 2, 2) - 0.95) < 1e-12,
           "one look: the level itself; 2 looks at 90%%: 95%% each");
    tap_ok(isnan(chrono_command_look_level(0.95, 0, 3)) && isnan(chrono_command_look_level(0.95, 4, 3)) &&
           isnan(chrono_command_look_level(0.95, 1, CHRONO_COMMAND_LOOKS_MAX + 1)), "a look out of range: NAN");
}

typedef struct looks_seen {
    int calls, look[8], looks;
    double level[8];
    size_t n[8];
    int answer;
} looks_seen;

static int on_look(const chrono_command_series *s, size_t n, int look, int looks, double level, void *ctx)
{
    looks_seen *ls = (looks_seen *)ctx;
    (void)n;
    if (ls->calls < 8) { ls->look[ls->calls] = look; ls->level[ls->calls] = level; ls->n[ls->calls] = s[0].n; }
    ls->looks = looks;
    ls->calls++;
    return ls->answer;
}

/* Undecided at every look: asked at looks 1, 2, 3 with their levels, the
   rounds growing; decided at once: asked once; with .runs: never. */
static void check_looks(void)
{
    chrono_command_series s[2];
    chrono_command_config cfg = chrono_command_config_default();
    looks_seen ls;
    size_t failed = 9;
    int rc;
    if (CHRONO_OS_WINDOWS) {
        int k;
        for (k = 0; k < 3; k++) tap_skip("commands run through fork and a shell (not on Windows)");
        return;
    }
    memset(s, 0, sizeof s); memset(&ls, 0, sizeof ls);
    s[0].command = s[1].command = "true";
    cfg.min_runs = 3; cfg.max_ms = 1; cfg.decided = on_look; cfg.ctx = &ls; cfg.confidence = 0.95;
    rc = chrono_command_bench(s, 2, &cfg, &failed);
    tap_ok(rc == 0 && ls.calls == 3 && ls.looks == 3 && ls.look[0] == 1 && ls.look[2] == 3 &&
           ls.level[0] == chrono_command_look_level(0.95, 1, 3) && ls.level[2] == chrono_command_look_level(0.95, 3, 3) &&
           ls.n[0] >= 3 && ls.n[0] <= ls.n[1] && ls.n[1] <= ls.n[2] && s[0].n == ls.n[2],
           "undecided: asked at looks 1 2 3 of 3, at their levels, rounds %zu <= %zu <= %zu", ls.n[0], ls.n[1], ls.n[2]);
    chrono_command_series_free(s, 2);
    memset(&ls, 0, sizeof ls);
    ls.answer = 1;
    rc = chrono_command_bench(s, 2, &cfg, &failed);
    tap_ok(rc == 0 && ls.calls == 1 && ls.look[0] == 1 && s[0].n == ls.n[0], "decided at look 1: asked once, stopped there");
    chrono_command_series_free(s, 2);
    memset(&ls, 0, sizeof ls);
    cfg.runs = 4;
    rc = chrono_command_bench(s, 2, &cfg, &failed);
    tap_ok(rc == 0 && ls.calls == 0 && s[0].n == 4, "--runs=4: 4 rounds, never asked");
    chrono_command_series_free(s, 2);
    cfg.runs = 0; cfg.looks = CHRONO_COMMAND_LOOKS_MAX + 1;
    tap_ok(chrono_command_bench(s, 2, &cfg, &failed) == CHRONO_EINVAL, "looks beyond the most: CHRONO_EINVAL");
}

/* A row against its baseline: saved 100 [99, 101], now 120 [119, 121]; the
   calibration read 1.2 now/saved, [1.1, 1.3]: drift taken out, the ratio is
   1.0 and its interval [119 / (101 x 1.3), 121 / (99 x 1.1)]: no verdict of
   slower; without a drift figure the same row is 20% slower. */
static void check_drift_row(void)
{
    static const double d[3] = { 1.2, 1.1, 1.3 };
    chrono_result r;
    chrono_saved sv;
    chrono_baseline_row row;
    memset(&r, 0, sizeof r); memset(&sv, 0, sizeof sv); memset(&row, 0, sizeof row);
    r.ns.median = 120; r.ns.ci_low = 119; r.ns.ci_high = 121; r.ns.ci_level = 0.95;
    sv.median_ns = 100; sv.ci_low_ns = 99; sv.ci_high_ns = 101; sv.ci_level = 0.95;
    chrono__baseline_row(&r, &sv, 0.05, 0.95, d, &row);
    tap_ok(fabs(row.v.ratio - 1) < 1e-12 && fabs(row.v.ci_low - 119 / (101 * 1.3)) < 1e-12 &&
           fabs(row.v.ci_high - 121 / (99 * 1.1)) < 1e-12 && row.v.change == CHRONO_CHANGE_INCONCLUSIVE &&
           fabs(row.drift - 1.2) < 1e-12 && fabs(row.drift_lo - 1.1) < 1e-12 && fabs(row.drift_hi - 1.3) < 1e-12 && strstr(row.v.why, "drift 1.200 [1.100, 1.300]"),
           "drift 1.2 [1.1, 1.3] taken out: 1.0 [%.4f, %.4f], %s (%s)", row.v.ci_low, row.v.ci_high,
           chrono_change_name(row.v.change), row.v.why);
    chrono__baseline_row(&r, &sv, 0.05, 0.95, NULL, &row);
    tap_ok(fabs(row.v.ratio - 1.2) < 1e-12 && row.v.change == CHRONO_CHANGE_SLOWER && isnan(row.drift) &&
           strstr(row.v.why, "no calibration"), "no drift figure: 1.2, slower, and why says so (%s)", row.v.why);
}

static void check_paths(void)
{
    char p[64];
    tap_ok(chrono_baseline_path(p, sizeof p, "main") == 0 && !strcmp(p, ".chronoscope/main.json"), "main: %s", p);
    tap_ok(chrono_baseline_path(p, sizeof p, "out/b.json") == 0 && !strcmp(p, "out/b.json"), "a path as given: %s", p);
    tap_ok(chrono_baseline_path(p, sizeof p, "x.json") == 0 && !strcmp(p, "x.json"), "a .json name as given: %s", p);
    tap_ok(chrono_baseline_path(p, sizeof p, "") == CHRONO_EINVAL, "an empty name: CHRONO_EINVAL");
    tap_ok(chrono_baseline_path(p, 8, "a-long-name") == CHRONO_ERANGE, "too long for the buffer: CHRONO_ERANGE");
}

int main(void)
{
    check_ratio();
    check_export();
    check_order();
    check_paths();
    check_signed_rank();
    check_levels();
    check_looks();
    check_drift_row();
    return tap_done();
}

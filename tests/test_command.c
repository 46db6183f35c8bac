/* tests/test_command.c — command.h and baseline.h on values known in advance:
   the ratio of two series of fabricated runs (exact), the summary, hyperfine's
   JSON export read back field by field, the interleaved order (ABBA) seen by
   the commands themselves, a failure stopping the rounds, and where a
   baseline's name leads. */
#include <chronoscope.h>

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
    return tap_done();
}

/* chronoscope-cmd — whole commands timed interleaved: hyperfine's job, with
   the A/B rule of chronoscope-ab.

       chronoscope-cmd [flags] 'CMD A' 'CMD B' ...

   Every command runs once a round, in order in even rounds and reversed in
   odd ones (A B, B A, A B ...), so a load spike or a drift of the machine
   hits every command alike; --warmup=N untimed rounds first; --prepare=CMD
   untimed before every run.  Each run is `/bin/sh -c CMD`, its output to
   /dev/null (--show-output keeps it), timed from fork to exit, with the
   child's user and system CPU time (wait4).  A non-zero exit stops the runs
   (exit 1, the command and its status named) unless --ignore-failure (-i).
   Rounds: --runs=N, else at least 10 and on while the budget allows, at
   most 1000: --max-ms, by default 3 s a command (hyperfine's time: two
   commands 6 s; --quick 300 ms).

   Every command after the first is compared with the first (with a
   parameter scan and two or more commands: with the first command at the
   same value): the ratio command/first is the Hodges-Lehmann median of the
   per-round ratios, with its signed-rank interval (command.h), and its
   verdict is chronoscope-ab's rule (baseline.h's chrono_change_decide,
   --threshold, default 2%): slower, faster, no clear difference or
   inconclusive.  While one is inconclusive at the end of the budget, the
   budget doubles and the rounds go on, --looks of them (default 3: up to
   4 x --max-ms), each look's interval at its share of the level
   (command.h's chrono_command_look_level); --runs=N is one look.

   -P NAME MIN MAX (--parameter-scan) runs each command at NAME = MIN..MAX,
   {NAME} replaced in it (hyperfine's syntax).  -w N, -r N, -p CMD and -i are
   --warmup, --runs, --prepare and --ignore-failure.  The report comes in
   every format of the library (--format, --out: text, md, csv, json, html);
   --export-json=FILE writes hyperfine's JSON layout.  Bad input exits 2 with
   the bad value named; the --export-json file is written beside its place
   and renamed at the end, removed on an error or a signal.  A thin client:
   command.h runs and summarises, baseline.h decides, program.h reports. */
#include <chronoscope.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD_MAX 64          /* commands after a scan's expansion */
#define CMD_SCAN_MAX 100    /* values of one parameter scan */
#define CMD_LEN 4096

typedef struct cmd_state {
    const char *tmpl[CMD_MAX];   /* the commands as given */
    size_t ntmpl;
    const char *scan_name;       /* -P NAME MIN MAX; NULL: none */
    long long scan_min, scan_max;
    char text[CMD_MAX][CMD_LEN]; /* the commands run (a scan's value in place) */
    char value[CMD_MAX][24];
    chrono_command_series s[CMD_MAX];
    size_t n;
    int budget_given;            /* --max-ms or --quick on the command line */
    double threshold;            /* --threshold as a fraction */
    double level;                /* the comparisons' level: the last look's (chrono_command_look_level) */
    int look, looks;             /* looks taken and allowed (0 0: --runs, one look at the session's level) */
    chrono_table_builder tb[2];
} cmd_state;

static chrono_tmp cmd_tmp;   /* the --export-json file being written, and the running child */
static void cmd_on_signal(int sig) { chrono_tmp_signal(&cmd_tmp, sig); }

/* The built-in and own flags that take their value in the next argument. */
static int cmd_takes_value(const char *a)
{
    static const char *const v[] = { "--format", "--out", "--cpu", "--samples", "--warmup-ms", "--max-ms", "--filter",
                                     "--baseline", "--counters", "--processes", "--threads", "--save", "--compare",
                                     "--fail-above", "--runs", "--warmup", "--prepare", "--export-json",
                                     "--threshold", "--looks" };
    size_t i;
    for (i = 0; i < sizeof v / sizeof v[0]; i++) if (!strcmp(a, v[i])) return 1;
    return 0;
}

/* An integer of -P, whole; 0, or 2 with the value named. */
static int cmd_int(const char *what, const char *v, long long *out)
{
    char *end = NULL;
    errno = 0;
    *out = strtoll(v, &end, 10);
    if (!*v || errno || !end || *end) {
        fprintf(stderr, "chronoscope-cmd: -P: %s '%s' is not an integer\n", what, v);
        return 2;
    }
    return 0;
}

/* hyperfine's short flags and -P into the library's flags; commands apart.  0 or 2. */
static int cmd_args(cmd_state *st, int argc, char **argv, char **av, int *ac)
{
    int i, rest = 0;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!rest && !strcmp(a, "--")) { rest = 1; continue; }
        if (!rest && (!strcmp(a, "-P") || !strcmp(a, "--parameter-scan"))) {
            if (i + 3 >= argc) { fprintf(stderr, "chronoscope-cmd: %s needs NAME MIN MAX\n", a); return 2; }
            st->scan_name = argv[i + 1];
            if (cmd_int("MIN", argv[i + 2], &st->scan_min) || cmd_int("MAX", argv[i + 3], &st->scan_max)) return 2;
            i += 3;
        } else if (!rest && !strcmp(a, "-i")) {
            av[(*ac)++] = (char *)"--ignore-failure";
        } else if (!rest && (!strcmp(a, "-w") || !strcmp(a, "-r") || !strcmp(a, "-p")) && i + 1 < argc) {
            av[(*ac)++] = (char *)(a[1] == 'w' ? "--warmup" : a[1] == 'r' ? "--runs" : "--prepare");
            av[(*ac)++] = argv[++i];
        } else if (!rest && a[0] == '-' && a[1]) {
            if (!strncmp(a, "--max-ms", 8) || !strcmp(a, "--quick")) st->budget_given = 1;
            av[(*ac)++] = argv[i];
            if (!strchr(a, '=') && cmd_takes_value(a) && i + 1 < argc) av[(*ac)++] = argv[++i];
        } else if (st->ntmpl == CMD_MAX) {
            fprintf(stderr, "chronoscope-cmd: '%.60s' is one command too many (at most %d)\n", a, CMD_MAX);
            return 2;
        } else {
            st->tmpl[st->ntmpl++] = a;
        }
    }
    av[*ac] = NULL;
    return 0;
}

/* tmpl with every {NAME} replaced by value, into out; 0 or 2 (too long). */
static int cmd_subst(const char *tmpl, const char *name, const char *value, char *out)
{
    char key[128];
    size_t w = 0, kl;
    if (!name) { if (strlen(tmpl) >= CMD_LEN) goto long_; strcpy(out, tmpl); return 0; }
    (void)snprintf(key, sizeof key, "{%s}", name);
    kl = strlen(key);
    while (*tmpl) {
        const char *piece = strncmp(tmpl, key, kl) ? NULL : value;
        size_t len = piece ? strlen(piece) : 1;
        if (w + len >= CMD_LEN) goto long_;
        memcpy(out + w, piece ? piece : tmpl, len);
        w += len;
        tmpl += piece ? kl : 1;
    }
    out[w] = '\0';
    return 0;
long_:
    fprintf(stderr, "chronoscope-cmd: the command '%.60s...' is longer than %d bytes\n", tmpl, CMD_LEN - 1);
    return 2;
}

/* The commands to run: each template at each value of the scan.  0 or 2. */
static int cmd_expand(cmd_state *st)
{
    long long v, nv = 1;
    size_t k;
    if (!st->ntmpl) { fprintf(stderr, "chronoscope-cmd: no command given: chronoscope-cmd [flags] 'CMD' ['CMD' ...]\n"); return 2; }
    for (k = 0; k < st->ntmpl; k++)
        if (!st->tmpl[k][0]) { fprintf(stderr, "chronoscope-cmd: command %zu is empty ('')\n", k + 1); return 2; }
    if (st->scan_name) {
        if (!st->scan_name[0] || strlen(st->scan_name) > 100) {
            fprintf(stderr, "chronoscope-cmd: -P: NAME '%.60s' must be 1..100 characters\n", st->scan_name);
            return 2;
        }
        nv = st->scan_max - st->scan_min + 1;
        if (st->scan_max < st->scan_min || nv > CMD_SCAN_MAX || nv * (long long)st->ntmpl > CMD_MAX) {
            fprintf(stderr, "chronoscope-cmd: -P: %lld..%lld is not a range of 1..%d values (%zu commands, at most %d runs "
                    "of a round)\n", st->scan_min, st->scan_max, CMD_SCAN_MAX, st->ntmpl, CMD_MAX);
            return 2;
        }
    }
    for (v = 0; v < nv; v++)
        for (k = 0; k < st->ntmpl; k++) {
            chrono_command_series *s = &st->s[st->n];
            (void)snprintf(st->value[st->n], sizeof st->value[0], "%lld", st->scan_min + v);
            if (cmd_subst(st->tmpl[k], st->scan_name, st->value[st->n], st->text[st->n])) return 2;
            memset(s, 0, sizeof *s);
            s->command = st->text[st->n];
            if (st->scan_name) { s->param_name = st->scan_name; s->param_value = st->value[st->n]; }
            st->n++;
        }
    return 0;
}

/* The "commands" table: each command's wall-time statistics and CPU time, in ms. */
static void cmd_summary_table(chrono_program *p, cmd_state *st)
{
    static const char *const cols[] = { "command", "runs", "mean_ms", "stddev_ms", "median_ms", "ci_low_ms",
                                        "ci_high_ms", "min_ms", "max_ms", "user_ms", "system_ms", "failed_runs" };
    chrono_table_builder *tb = &st->tb[0];
    size_t k;
    (void)chrono_table_init(tb, "commands", "Commands: wall time of each run (fork to exit) and the child's CPU time, "
                            "in ms", cols, 12);
    for (k = 0; k < st->n; k++) {
        chrono_command_summary m;
        if (chrono_command_summarise(&st->s[k], p->cfg.confidence, &m) < 0) continue;
        (void)chrono_table_text(tb, st->s[k].command);
        (void)chrono_table_integer(tb, (long long)st->s[k].n);
        (void)chrono_table_number(tb, m.wall.mean / 1e6, "%.4f", NULL);
        (void)chrono_table_number(tb, st->s[k].n > 1 ? m.wall.stddev / 1e6 : NAN, "%.4f", NULL);
        (void)chrono_table_number(tb, m.wall.median / 1e6, "%.4f", NULL);
        (void)chrono_table_number(tb, m.wall.ci_low / 1e6, "%.4f", NULL);
        (void)chrono_table_number(tb, m.wall.ci_high / 1e6, "%.4f", NULL);
        (void)chrono_table_number(tb, m.wall.min / 1e6, "%.4f", NULL);
        (void)chrono_table_number(tb, m.wall.max / 1e6, "%.4f", NULL);
        (void)chrono_table_number(tb, m.user_mean_ns / 1e6, "%.4f", NULL);
        (void)chrono_table_number(tb, m.sys_mean_ns / 1e6, "%.4f", NULL);
        (void)chrono_table_integer(tb, (long long)m.failures);
    }
    if (!tb->error) (void)chrono_program_table(p, &tb->table);
}

/* Command k's comparison with its reference (the first, or the first at the
   same value of a scan) at the level of the last look; 0 (k is a
   reference, or no comparison), 1 (*v holds the verdict). */
static int cmd_verdict(const cmd_state *st, size_t k, double level, chrono_change_verdict *v)
{
    size_t group = st->scan_name && st->ntmpl > 1 ? st->ntmpl : st->n;
    chrono_comparison c;
    if (k % group == 0 || chrono_command_compare(&st->s[k - k % group], &st->s[k], level, &c) < 0) return 0;
    return chrono_change_decide(&c, st->threshold, level, v) == 0;
}

/* chrono_command_config.decided: every comparison decided at this look's level? */
static int cmd_decided(const chrono_command_series *s, size_t n, int look, int looks, double level, void *ctx)
{
    cmd_state *st = (cmd_state *)ctx;
    chrono_change_verdict v;
    size_t k;
    (void)s;
    st->look = look; st->looks = looks; st->level = level;
    for (k = 1; k < n; k++)
        if (cmd_verdict(st, k, level, &v) && v.change == CHRONO_CHANGE_INCONCLUSIVE) return 0;
    return 1;
}

/* The "ab" table: each command against its reference, the verdict by the rule. */
static void cmd_ab_table(chrono_program *p, cmd_state *st)
{
    static const char *const cols[] = { "command", "reference", "ratio", "ci_low", "ci_high", "verdict", "why" };
    chrono_table_builder *tb = &st->tb[1];
    char title[400];
    size_t k, group = st->scan_name && st->ntmpl > 1 ? st->ntmpl : st->n;
    if (st->n < 2) return;
    (void)snprintf(title, sizeof title, "A/B, interleaved: command/reference, the Hodges-Lehmann median of the per-round "
                   "ratios with its signed-rank interval at %.4g%% (slower: the interval entirely above 1 and the ratio "
                   "above %.4g, --threshold=%g%%)", st->level * 100, 1 + st->threshold, st->threshold * 100);
    (void)chrono_table_init(tb, "ab", title, cols, 7);
    for (k = 0; k < st->n; k++) {
        chrono_change_verdict v;
        if (!cmd_verdict(st, k, st->level, &v)) continue;
        (void)chrono_table_text(tb, st->s[k].command);
        (void)chrono_table_text(tb, st->s[k - k % group].command);
        (void)chrono_table_number(tb, v.ratio, "%.4f", NULL);
        (void)chrono_table_number(tb, v.ci_low, "%.4f", NULL);
        (void)chrono_table_number(tb, v.ci_high, "%.4f", NULL);
        (void)chrono_table_text(tb, chrono_change_name(v.change));
        (void)chrono_table_text(tb, v.why);
    }
    if (!tb->error) (void)chrono_program_table(p, &tb->table);
}

/* --export-json: the temp file beside FILE, tracked; NULL and 2 in *status when it cannot be made. */
static FILE *cmd_export_open(const char *path, int *status)
{
    char dir[CHRONO_TMP_PATH], name[CHRONO_TMP_PATH];
    const char *slash = strrchr(path, '/'), *tmp;
    FILE *f;
    if (!*path || strlen(path) + 8 >= CHRONO_TMP_PATH) {
        fprintf(stderr, "chronoscope-cmd: --export-json: '%.60s' is not a usable file name\n", path);
        *status = 2;
        return NULL;
    }
    (void)snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? (slash == path ? "/" : path) : ".");
    (void)snprintf(name, sizeof name, "%s.tmp", slash ? slash + 1 : path);
    if (!(tmp = chrono_tmp_track(&cmd_tmp, dir, name)) || !(f = fopen(tmp, "w"))) {
        fprintf(stderr, "chronoscope-cmd: --export-json: cannot write '%s': %s\n", path, strerror(errno));
        chrono_tmp_remove(&cmd_tmp);
        *status = 2;
        return NULL;
    }
    return f;
}

/* Write the export and rename it into place; 0, or 1 (said on stderr). */
static int cmd_export_close(FILE *f, const char *path, const cmd_state *st)
{
    int rc = chrono_command_export_json(f, st->s, st->n);
    if (fclose(f) != 0 || rc < 0 || rename(cmd_tmp.path[cmd_tmp.n - 1], path) != 0) {
        fprintf(stderr, "chronoscope-cmd: --export-json: cannot write '%s': %s\n", path, strerror(errno));
        return 1;
    }
    cmd_tmp.n--;   /* in place now: no longer ours to remove */
    return 0;
}

/* The runs; 0, 1 (a command failed: named) or 2. */
static int cmd_run(cmd_state *st, const chrono_command_config *cfg)
{
    size_t failed = 0;
    int rc = chrono_command_bench(st->s, st->n, cfg, &failed);
    if (rc < 0) {
        fprintf(stderr, "chronoscope-cmd: the commands could not be run: %s\n", chrono_strerror(rc));
        return 1;
    }
    if (failed) {
        const chrono_command_series *s = &st->s[failed - 1];
        int code = s->n ? s->runs[s->n - 1].exit_code : -1;
        fprintf(stderr, "chronoscope-cmd: command '%s' %s with status %d%s; -i (--ignore-failure) records such runs "
                "instead\n", s->n ? s->command : cfg->prepare, s->n ? "exited" : "(--prepare) exited", code,
                s->n ? "" : " or before it");
        return 1;
    }
    return 0;
}

/* The tables, then a line on how the rounds ran. */
static void cmd_report(chrono_program *p, cmd_state *st, const chrono_command_config *cfg)
{
    cmd_summary_table(p, st);
    cmd_ab_table(p, st);
    if (st->looks)
        chrono_program_note(p, "%zu commands, %zu rounds interleaved (A B, B A, ...); look %d of %d (the budget doubled "
                            "while undecided; the looks together at %.4g%%)%s%s", st->n, st->s[0].n, st->look, st->looks,
                            p->cfg.confidence * 100, cfg->prepare ? "; before every run: " : "",
                            cfg->prepare ? cfg->prepare : "");
    else
        chrono_program_note(p, "%zu commands, %zu rounds interleaved (A B, B A, ...)%s%s", st->n, st->s[0].n,
                            cfg->prepare ? "; before every run: " : "", cfg->prepare ? cfg->prepare : "");
}

static void cmd_help(void)
{
    printf("\nchronoscope-cmd [flags] 'CMD A' ['CMD B' ...]: whole commands timed interleaved (A B, B A, ...).\n"
           "Each command after the first is compared with the first: command/first, the Hodges-Lehmann median of the per-round\n"
           "ratios with its interval, and chronoscope-ab's verdict (slower, faster, no clear difference,\n"
           "inconclusive; --threshold).  -P NAME MIN MAX (--parameter-scan): each command at NAME = MIN..MAX,\n"
           "{NAME} replaced; -w N, -r N, -p CMD, -i: --warmup, --runs, --prepare, --ignore-failure.\n"
           "--max-ms is the first look's budget (default 3000 a command; at least 10 rounds); while a comparison is\n"
           "inconclusive the budget doubles for the next look, --looks of them (default 3: up to 4 x the budget),\n"
           "each look's interval at its share of the level (1 - confidence spent 1/4, 1/4, 1/2).  Exit status: 0; 1 when\n"
           "a command"
           " failed (non-zero exit, without -i); 2 on bad input.\n");
}

int main(int argc, char **argv)
{
    static cmd_state st;
    static const char *prepare = NULL, *export_path = NULL;
    static int runs = 0, warmup = 0, ignore = 0, show = 0, looks = 3;
    static double threshold_pct = 2.0;
    const chrono_cli_flag flags[] = {
        { "--runs", CHRONO_CLI_INT, &runs, 1, 1000000, "rounds (each command once a round); default: by --max-ms" },
        { "--warmup", CHRONO_CLI_INT, &warmup, 0, 100000, "untimed rounds first (default 0)" },
        { "--prepare", CHRONO_CLI_STRING, &prepare, 0, 0, "a command run untimed before every run" },
        { "--ignore-failure", CHRONO_CLI_BOOL, &ignore, 0, 1, "record a non-zero exit instead of stopping" },
        { "--show-output", CHRONO_CLI_BOOL, &show, 0, 1, "the commands' output on this terminal" },
        { "--export-json", CHRONO_CLI_STRING, &export_path, 0, 0, "hyperfine's JSON layout to FILE" },
        { "--looks", CHRONO_CLI_INT, &looks, 1, CHRONO_COMMAND_LOOKS_MAX,
          "without --runs: looks at the rounds, the budget doubled while a comparison is undecided (default 3)" },
        { "--threshold", CHRONO_CLI_DOUBLE, &threshold_pct, 0, 1000,
          "percent: slower needs the ratio above 1 + it, and the interval above 1 (default 2)" },
    };
    char **av = (char **)malloc(((size_t)argc + 3) * sizeof *av);
    chrono_command_config cfg = chrono_command_config_default();
    chrono_program p;
    FILE *ex = NULL;
    int ac = 1, rc, status;
    if (!av) return 2;
    av[0] = argv[0];
    if (cmd_args(&st, argc, argv, av, &ac)) { free(av); return 2; }
    rc = chrono_program_begin(&p, ac, av, flags, sizeof flags / sizeof flags[0]);
    if (rc != 1) {
        if (rc == 0 && p.cli.help) cmd_help();
        status = chrono_program_end(&p);
        free(av);
        return status;
    }
    (void)chrono_tmp_catch(cmd_on_signal);
    if (p.cli.processes > 1) { fprintf(stderr, "chronoscope-cmd: --processes: the commands are processes already\n"); p.status = 2; }
    else if (cmd_expand(&st)) p.status = 2;
    else if (export_path && !(ex = cmd_export_open(export_path, &p.status))) p.status = 2;
    if (p.status != 2) {
        cfg.runs = runs; cfg.warmup = warmup; cfg.prepare = prepare; cfg.ignore_failure = ignore;
        cfg.flags = show ? CHRONO_COMMAND_SHOW_OUTPUT : 0;
        cfg.max_ms = st.budget_given ? p.cfg.max_ms : 3000.0 * (double)st.n;
        cfg.clock = &p.session.clock; cfg.tmp = &cmd_tmp;
        cfg.confidence = p.cfg.confidence; cfg.looks = looks; cfg.ctx = &st;
        cfg.decided = runs || st.n < 2 ? NULL : cmd_decided;
        st.threshold = threshold_pct / 100; st.level = p.cfg.confidence;
        p.status = cmd_run(&st, &cfg);
        if (p.status == 0) cmd_report(&p, &st, &cfg);
        if (ex && p.status == 0) p.status = cmd_export_close(ex, export_path, &st);
        else if (ex) fclose(ex);
    }
    chrono_tmp_remove(&cmd_tmp);
    status = chrono_program_end(&p);
    chrono_table_free(&st.tb[0]); chrono_table_free(&st.tb[1]);
    chrono_command_series_free(st.s, st.n);
    free(av);
    return status;
}

/* chronoscope/cli.h — the common command line of programs built on the
   library: report format and file, pinning, sample count, time budgets,
   a name filter, --quick, --list, --help, --version; plus the program's own
   flags.

   Usage:

       int main(int argc, char **argv)
       {
           chrono_config cfg = chrono_config_default();
           chrono_cli cli;
           chrono_session s;
           int rc;
           if (chrono_cli_parse(&cfg, &cli, argc, argv) < 0) return chrono_cli_fail(&cli, argv[0]);  // exit 2
           if (chrono_cli_handle_info(&cli, argv[0])) return 0;     // printed --help / --version
           if (chrono_session_open(&s, &cfg) < 0) return 1;
           if (chrono_cli_want(&cli, "sum")) chrono_run(&s, "sum", sum, NULL, NULL);
           rc = chrono_cli_finish(&cli, &s);                        // report to --out in --format
           chrono_session_close(&s);
           return rc < 0 ? 1 : 0;
       }

   Flags (both --flag=value and --flag value):
     --format=text|md|csv|json|html|bmf   report format (default text; "markdown" too;
                                 html: a page with plots, html.h; bmf: Bencher's
                                 metric format, report.h)
     --out=FILE                  write the report to FILE ("-": standard output), in
                                 --format when given, else the format its extension
                                 names (.txt .md .csv .json .html .htm; none: text);
                                 an unknown extension is bad input (.out_format)
     --cpu=N                     pin to CPU N: cfg.pin = CHRONO_PIN_CPU, cfg.cpu = N;
                                 N must be online and in the thread's affinity mask
     --no-pin                    cfg.pin = CHRONO_PIN_OFF
     --samples=N                 1..1000000
     --warmup-ms=X               0.001..3600000
     --max-ms=X                  1..86400000
     --filter=REGEX              chrono_cli_want() is 1 only for the names it selects
                                 (program.h: one that selects no entry exits 2).
                                 REGEX is a POSIX extended regular expression
                                 (regcomp, REG_EXTENDED | REG_NOSUB, unanchored:
                                 '^sum_.*64$'); a name is also selected when REGEX
                                 occurs in it literally, so a plain substring keeps
                                 working even with metacharacters ('a+b' selects
                                 "a+b"; '/' is not special).  A leading '-' excludes:
                                 '-stride'.  The flag may be given up to
                                 CHRONO_CLI_FILTERS_MAX times: a name is wanted when
                                 it is selected by any of the positive patterns (or
                                 there is none) and by none of the negative ones.
                                 A pattern that does not compile ('(') is bad input
                                 (exit 2, named).  Windows (no <regex.h>): substring
                                 only, with the same '-' and combination rules;
                                 --help says so.  The compiled patterns live until
                                 chrono_cli_close (chrono_cli_finish calls it).
     --quick                     samples 11, warmup 5 ms, budget 300 ms, min sample
                                 20 µs; a flag given explicitly wins, in any order
     --list                      chrono_cli_want() prints each wanted name, runs nothing
     --keep-contended            cfg.contention_tolerance = CHRONO_CONTENTION_OFF
     --baseline=NAME             each text/markdown row also reads "1.52x NAME" (median
                                 against NAME's, three significant figures; JSON:
                                 "relative_to_baseline"); program.h runs NAME's entry
                                 first and refuses a NAME no entry measures (exit 2)
     --processes=N               .processes: programs of program.h run their benchmarks
                                 in N fresh processes and pool them (1..1000)
     --threads=N                 .threads: program.h's entries made with
                                 chrono_with_threads(e, CHRONO_THREADS_CLI) run in N
                                 threads (1..256; default: the online CPUs)
     --save=NAME                 .save: program.h saves the run as a named baseline
                                 (baseline.h: .chronoscope/NAME.json, or the path NAME)
     --compare=NAME              .compare: program.h compares each entry with it,
                                 a verdict a row; exit 1 when one is slower, 2 when
                                 the baseline is missing or malformed (named)
     --fail-above=PCT            .fail_above (default 5): the --compare threshold,
                                 0..1000
     --help, -h / --version      set .help / .version; chrono_cli_handle_info prints
                                 (the version is CHRONO_VERSION_STRING: include
                                 <chronoscope.h>, not this header alone)
   A program's own flags: a table of chrono_cli_flag given to chrono_cli_parse_ex.

   Bad input (an unknown flag, a missing, empty, non-numeric, NaN, infinite,
   overflowing or out-of-range value, --format=xml, --out=r.xyz without
   --format, --cpu and --no-pin together) makes the parser return CHRONO_EINVAL with .error set to one
   line that names the flag and the value, e.g.
       --samples: '0' is out of range (1..1000000)
   chrono_cli_fail() prints it and a usage hint on stderr and returns 2, the
   exit status.  Nothing is set to a default silently.

   The parser itself prints nothing.  chrono_cli_fail, chrono_cli_usage,
   chrono_cli_handle_info and chrono_cli_want (with --list) are for programs:
   they write to stderr / stdout.

   Functions:
     chrono_cli_parse(cfg, cli, argc, argv)          0 or CHRONO_EINVAL
     chrono_cli_parse_ex(..., extra, nextra)         with the program's flags
     chrono_cli_fail(cli, prog)                      print .error + hint, return 2
     chrono_cli_usage(f, prog)                       the flag list
     chrono_cli_handle_info(cli, prog)               1 when it printed help or version
     chrono_cli_want(cli, name)                      1: run this benchmark
     chrono_cli_match(cli, name)                     1: --filter selects the name (no printing)
     chrono_cli_close(cli)                           free the compiled --filter patterns, close --out
     chrono_cli_output(cli)                          the --out stream (or stdout), NULL + .error
     chrono_cli_refuse(cli, flag, why)               a common flag this program does not do:
                                                     out of --help, CHRONO_EINVAL when given
     chrono_cli_reject(cli, flag, value, what)       .error for a value found bad after parsing
     chrono_cli_finish(cli, s)                       report, close (chrono_cli_close): 0 or CHRONO_EIO
     chrono_cli_finish_ex(cli, s, tables, n)         the same with the program's own tables */
#ifndef CHRONOSCOPE_CLI_H
#define CHRONOSCOPE_CLI_H

#include "report.h"

/* ---- types ----------------------------------------------------------------- */
enum { CHRONO_CLI_INT = 0, CHRONO_CLI_DOUBLE, CHRONO_CLI_BOOL, CHRONO_CLI_STRING };

/* A program's own flag.  value points to an int (INT, BOOL), a double
   (DOUBLE) or a const char * (STRING, pointing into argv).  min..max bound
   INT and DOUBLE values when min < max.  A BOOL flag takes no value, or
   =1/0, true/false, yes/no, on/off. */
typedef struct chrono_cli_flag {
    const char *name;        /* "--reads" */
    int kind;                /* CHRONO_CLI_INT, _DOUBLE, _BOOL, _STRING */
    void *value;
    double min, max;
    const char *help;        /* one line for --help */
} chrono_cli_flag;

#define CHRONO_CLI_FILTERS_MAX 16   /* --filter flags one command line may give */

typedef struct chrono_cli {
    chrono_format format;    /* --format, default CHRONO_FORMAT_TEXT */
    const char *out_path;    /* --out, NULL: standard output */
    chrono_format out_format;   /* the --out file's: --format when given, else its extension's */
    const char *filter;      /* the first --filter, NULL: every name */
    /* every --filter in order ('-' first: excludes) */
    const char *filters[CHRONO_CLI_FILTERS_MAX];
    int nfilters;
    const char *baseline;    /* --baseline, NULL: no relative column */
    const char *save;        /* --save, NULL: none (program.h writes baseline.h's file) */
    const char *compare;     /* --compare, NULL: none (program.h compares, baseline.h's rule) */
    double fail_above;       /* --fail-above, percent (default 5) */
    const char *prog;        /* argv[0] */
    int list, help, version, quick;
    int processes;           /* --processes, 0: not given (one process, this one) */
    int threads;             /* --threads, 0: not given */
    char error[256];         /* after CHRONO_EINVAL: the flag, the value, what is wrong */
    FILE *out;               /* opened by chrono_cli_output */
    /* private */
    const chrono_cli_flag *chrono__extra;
    size_t chrono__nextra;
    unsigned chrono__set;    /* config fields given explicitly (CHRONO__SET_*) */
    unsigned chrono__given;  /* built-in flags given: 1u << their index in CHRONO__CLI_BUILTINS */
    unsigned chrono__refused;   /* built-in flags refused (chrono_cli_refuse): left out of --help */
    const char *chrono__cpu_arg;   /* --cpu's value as typed, for the --no-pin message */
    void *chrono__re;        /* the compiled --filter patterns (regex_t[nfilters]), NULL: none */
} chrono_cli;

/* ---- functions ------------------------------------------------------------ */
CHRONO__EXTERN_C_BEGIN
/* Parse argv[1..argc) into *cfg (only the fields a flag names change) and
   *opts (reset first).  extra: the program's own flags (may be NULL when
   nextra is 0).  0, or CHRONO_EINVAL with opts->error set. */
CHRONO_API int chrono_cli_parse_ex(chrono_config *cfg, chrono_cli *opts, int argc, char **argv,
                                   const chrono_cli_flag *extra, size_t nextra);

/* The common flags only. */
CHRONO_API int chrono_cli_parse(chrono_config *cfg, chrono_cli *opts, int argc, char **argv);

/* Write the usage of the common flags to f. */
CHRONO_API void chrono_cli_usage(FILE *f, const char *prog);

/* Print .error and a usage hint on stderr; returns 2, the exit status for bad input. */
CHRONO_API int chrono_cli_fail(const chrono_cli *o, const char *prog);

/* --help: the usage on stdout; --version: "PROG (chronoscope X.Y.Z)".
   Returns 1 when it printed (the program then exits 0), else 0. */
CHRONO_API int chrono_cli_handle_info(const chrono_cli *o, const char *prog);

/* 1 when the benchmark called `name` should run: --filter selects it (or
   there is none).  With --list (and for --help / --version) it runs
   nothing: a wanted name is printed on stdout (--list) and the answer is 0. */
CHRONO_API int chrono_cli_want(const chrono_cli *o, const char *name);

/* 1 when the --filter patterns select `name` (see the flag list above),
   0 when not or when o or name is NULL.  Prints nothing, allocates nothing. */
CHRONO_API int chrono_cli_match(const chrono_cli *o, const char *name);

/* Free what parsing holds (the compiled --filter patterns) and close an
   --out file chrono_cli_output opened.  Safe to call twice, and on options
   whose parse failed (the parser frees on failure).  Call it before parsing
   into the same chrono_cli again. */
CHRONO_API void chrono_cli_close(chrono_cli *o);

/* A common flag that this program does not do (check.h refuses --processes):
   it is left out of --help (chrono_cli_handle_info), and when it was given
   .error says so, with `why`, and the answer is CHRONO_EINVAL (exit 2 with
   chrono_cli_fail).  Call it after parsing; 0 when the flag was not given.
   CHRONO_EINVAL too for a name that is not a common flag. */
CHRONO_API int chrono_cli_refuse(chrono_cli *o, const char *flag, const char *why);

/* For a value the program finds bad after parsing (a --baseline that names
   no benchmark): .error = "FLAG: 'VALUE' WHAT" (value NULL: "FLAG: WHAT"),
   one printable line.  Returns CHRONO_EINVAL; chrono_cli_fail prints it. */
CHRONO_API int chrono_cli_reject(chrono_cli *o, const char *flag, const char *value,
                                 const char *what);

/* The report stream: --out opened for writing (once), else stdout.  NULL
   with .error set when the file cannot be opened. */
CHRONO_API FILE *chrono_cli_output(chrono_cli *o);

/* Write the session's report to --out in .out_format, or to stdout in
   --format (not with --list, --help or --version), close the file.  0, CHRONO_EIO (cannot open, write or
   close; .error says which) or chrono_report's error. */
CHRONO_API int chrono_cli_finish(chrono_cli *o, const chrono_session *s);

/* The same, with the program's own tables after the benchmarks (report.h's
   chrono_table; tables may be NULL when ntables is 0). */
CHRONO_API int chrono_cli_finish_ex(chrono_cli *o, const chrono_session *s,
                                    const chrono_table *tables, size_t ntables);

CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_CLI_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_CLI_IMPL)
#define CHRONOSCOPE_CLI_IMPL

#include <errno.h>
#include <limits.h>

/* --filter: a POSIX extended regular expression where <regex.h> exists. */
#if CHRONO__OS_LINUX || CHRONO__OS_POSIX
#  define CHRONO__CLI_REGEX 1
#  include <regex.h>
#  define CHRONO__CLI_FILTER_HELP                                                                 \
      "run only the benchmarks whose name matches REGEX (POSIX extended, or a plain substring); " \
      "-REGEX excludes; repeatable: any positive, no negative"
#else
#  define CHRONO__CLI_REGEX 0
#  define CHRONO__CLI_FILTER_HELP                                                              \
      "run only the benchmarks whose name contains REGEX (a plain substring here: no regular " \
      "expressions on this platform); -TEXT excludes; repeatable: any positive, no negative"
#endif

CHRONO__EXTERN_C_BEGIN

enum {
    CHRONO__SET_SAMPLES = 1,
    CHRONO__SET_WARMUP = 2,
    CHRONO__SET_MAX = 4,
    CHRONO__SET_CPU = 8,
    CHRONO__SET_NOPIN = 16
};

/* The built-in flags, one line each: X(id, flag, argument or NULL, help, takes a value). */
#define CHRONO__CLI_BUILTINS(X)                                                                    \
    X(FORMAT, "--format", "FMT", "report format: text, md, csv, json, html or bmf (default text)", \
      1)                                                                                           \
    X(OUT, "--out", "FILE", "write the report to FILE (default: standard output)", 1)              \
    X(CPU, "--cpu", "N", "pin the benchmark thread to CPU N", 1)                                   \
    X(NOPIN, "--no-pin", NULL, "do not pin the thread", 0)                                         \
    X(SAMPLES, "--samples", "N",                                                                   \
      "samples per benchmark, 1..1000000 (default " CHRONO__XSTR(CHRONO_DEFAULT_SAMPLES) ")", 1)   \
    X(WARMUP, "--warmup-ms", "X", "warm-up per benchmark in ms, 0.001..3600000 (default "          \
      CHRONO__XSTR(CHRONO_DEFAULT_WARMUP_MS) ")", 1)                                               \
    X(MAX, "--max-ms", "X", "time budget per benchmark in ms, 1..86400000 (default "               \
      CHRONO__XSTR(CHRONO_DEFAULT_MAX_MS) ")", 1)                                                  \
    X(FILTER, "--filter", "REGEX", CHRONO__CLI_FILTER_HELP, 1)                                     \
    X(QUICK, "--quick", NULL,                                                                      \
      "fast, less precise run for smoke tests (" CHRONO__XSTR(CHRONO_QUICK_SAMPLES)                \
      " samples, " CHRONO__XSTR(CHRONO_QUICK_WARMUP_MS) " ms warmup, "                             \
      "" CHRONO__XSTR(CHRONO_QUICK_MAX_MS) " ms budget)", 0)                                       \
    X(LIST, "--list", NULL, "list the benchmarks' names and exit", 0)                              \
    X(HELP, "--help", NULL, "show this help and exit", 0)                                          \
    X(VERSION, "--version", NULL, "show the version and exit", 0)                                  \
    X(KEEP_CONTENDED, "--keep-contended", NULL,                                                    \
      "keep samples taken while another thread shared the core (no front-end probe)", 0)           \
    X(BASELINE, "--baseline", "NAME", "show every row's median relative to the benchmark NAME", 1) \
    X(COUNTERS, "--counters", "LIST",                                                              \
      "perf_event counters per iteration, comma-separated: instructions, cycles, branches, "       \
      "branch-misses, cache-references, cache-misses, task-clock, context-switches, "              \
      "cpu-migrations, page-faults (Linux; those the kernel refuses are named in the "             \
      "environment)", 1)                                                                           \
    X(PROCESSES, "--processes", "N",                                                               \
      "run the benchmarks in N fresh processes and pool them (program.h), 1..1000", 1)             \
    X(THREADS, "--threads", "N",                                                                   \
      "threads of the entries that ask for --threads (chrono_with_threads), 1..256", 1)            \
    X(SAVE, "--save", "NAME",                                                                      \
      "save this run as the baseline NAME (.chronoscope/NAME.json; NAME with a '/' or ending in "  \
      ".json: that path)", 1)                                                                      \
    X(COMPARE, "--compare", "NAME",                                                                \
      "compare each entry with the baseline NAME (a separate run: it carries the machine's "       \
      "drift); exit 1 when one is slower beyond --fail-above, 2 when NAME is missing or "          \
      "malformed", 1)                                                                              \
    X(FAIL_ABOVE, "--fail-above", "PCT",                                                           \
      "with --compare: slower is now/saved above 1 + PCT/100 with its interval above 1, 0..1000 "  \
      "(default 5)", 1)

#define CHRONO__CLI_BUILTIN_ID(id, flag, arg, help, takes) CHRONO__F_##id,
enum { CHRONO__CLI_BUILTINS(CHRONO__CLI_BUILTIN_ID) CHRONO__F_COUNT };
#undef CHRONO__CLI_BUILTIN_ID

typedef struct chrono__cli_builtin {
    const char *name, *arg, *help;
    int takes_value;
} chrono__cli_builtin;

#define CHRONO__CLI_BUILTIN_ROW(id, flag, arg, help, takes) { flag, arg, help, takes },
static const chrono__cli_builtin chrono__cli_builtins[CHRONO__F_COUNT] = { CHRONO__CLI_BUILTINS(
    CHRONO__CLI_BUILTIN_ROW) };
#undef CHRONO__CLI_BUILTIN_ROW

/* ---- errors ------------------------------------------------------------------ */
/* The value as the message quotes it: at most 48 bytes, control characters as '?'. */
CHRONO__PRIVATE const char *chrono__cli_quote(char *buf, size_t n, const char *v)
{
    size_t i, w = 0;
    for (i = 0; v[i] && w + 4 < n && i < 48; i++)
        buf[w++] = (unsigned char)v[i] < 0x20 || v[i] == 0x7F ? '?' : v[i];
    if (v[i]) { buf[w++] = '.'; buf[w++] = '.'; buf[w++] = '.'; }
    buf[w] = '\0';
    return buf;
}

/* .error = "FLAG: 'VALUE' WHAT"; returns CHRONO_EINVAL. */
CHRONO__PRIVATE int chrono__cli_bad(chrono_cli *o, const char *flag, const char *value,
                                    const char *what)
{
    char q[64], *p;
    if (value)
        (void)chrono__bprintf(o->error, sizeof o->error, "%s: '%s' %s", flag,
                              chrono__cli_quote(q, sizeof q, value), what);
    else
        (void)chrono__bprintf(o->error, sizeof o->error, "%s: %s", flag, what);
    for (p = o->error; *p; p++)   /* one printable line, whatever argv held */
        if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
    return CHRONO_EINVAL;
}

/* "(1..1000000)" for the message, '.' decimals whatever the locale. */
CHRONO__PRIVATE const char *chrono__cli_range(char *buf, size_t n, double lo, double hi)
{
    char a[40], b[40];
    (void)chrono__bprintf(buf, n, "is out of range (%s..%s)", chrono__num(a, sizeof a, "%.15g", lo),
                   chrono__num(b, sizeof b, "%.15g", hi));
    return buf;
}

/* ---- strict numbers ------------------------------------------------------------ */
/* Whole-string decimal integer: optional sign, digits, nothing else.
   0, CHRONO_EINVAL (not an integer) or CHRONO_ERANGE (overflows long long). */
CHRONO__PRIVATE int chrono__cli_int(const char *s, long long *out)
{
    unsigned long long v = 0, limit;
    int neg = 0;
    if (*s == '+' || *s == '-') neg = *s++ == '-';
    if (!*s) return CHRONO_EINVAL;
    limit = neg ? (unsigned long long)LLONG_MAX + 1u : (unsigned long long)LLONG_MAX;
    for (; *s; s++) {
        unsigned d;
        if (*s < '0' || *s > '9') return CHRONO_EINVAL;
        d = (unsigned)(*s - '0');
        if (v > (limit - d) / 10) {
            /* keep checking the syntax: "99999999999999999999x" is not a number */
            for (; *s; s++) if (*s < '0' || *s > '9') return CHRONO_EINVAL;
            return CHRONO_ERANGE;
        }
        v = v * 10 + d;
    }
    *out = neg ? (v == (unsigned long long)LLONG_MAX + 1u ? LLONG_MIN : -(long long)v)
               : (long long)v;
    return 0;
}

/* Whole-string decimal number: [sign] digits [. digits] [e [sign] digits],
   at least one digit before the exponent; no NaN, no infinity, no hex.
   '.' is the decimal point whatever the locale.  0, CHRONO_EINVAL or
   CHRONO_ERANGE (too large for a double). */
CHRONO__PRIVATE int chrono__cli_double(const char *s, double *out)
{
    char buf[128], *end;
    const char *p = s, *dp = localeconv()->decimal_point;
    size_t digits = 0, i;
    double v;
    if (*p == '+' || *p == '-') p++;
    for (; *p >= '0' && *p <= '9'; p++) digits++;
    if (*p == '.') for (p++; *p >= '0' && *p <= '9'; p++) digits++;
    if (!digits) return CHRONO_EINVAL;
    if (*p == 'e' || *p == 'E') {
        size_t ed = 0;
        p++;
        if (*p == '+' || *p == '-') p++;
        for (; *p >= '0' && *p <= '9'; p++) ed++;
        if (!ed) return CHRONO_EINVAL;
    }
    if (*p || strlen(s) >= sizeof buf) return *p ? CHRONO_EINVAL : CHRONO_ERANGE;
    for (i = 0; s[i]; i++) buf[i] = s[i] == '.' && dp && dp[0] && !dp[1] ? dp[0] : s[i];
    buf[i] = '\0';
    errno = 0;
    v = strtod(buf, &end);
    if (*end) return CHRONO_EINVAL;
    if (!chrono__finite(v) || (errno == ERANGE && fabs(v) > 1.0)) return CHRONO_ERANGE;
    *out = v;
    return 0;
}

/* An integer flag value within lo..hi into *out, or .error (the caller stores it only on success). */
CHRONO__PRIVATE int chrono__cli_get_int(chrono_cli *o, const char *flag, const char *v,
                                        long long lo, long long hi, long long *out)
{
    char range[128];
    int rc = chrono__cli_int(v, out);
    if (rc == CHRONO_EINVAL) return chrono__cli_bad(o, flag, v, "is not an integer");
    if (rc < 0 || *out < lo || *out > hi)
        return chrono__cli_bad(o, flag, v,
                               chrono__cli_range(range, sizeof range, (double)lo, (double)hi));
    return 0;
}

/* A number flag value within lo..hi into *out (untouched on error), or .error. */
CHRONO__PRIVATE int chrono__cli_get_double(chrono_cli *o, const char *flag, const char *v,
                                           double lo, double hi, double *out)
{
    char range[128];
    double x = 0;
    int rc = chrono__cli_double(v, &x);
    if (rc == CHRONO_EINVAL) return chrono__cli_bad(o, flag, v, "is not a number");
    if (rc < 0 || x < lo || x > hi)
        return chrono__cli_bad(o, flag, v, chrono__cli_range(range, sizeof range, lo, hi));
    *out = x;
    return 0;
}

/* 1/0 for a boolean value ("1", "true", "yes", "on" / "0", "false", "no", "off"), -1 otherwise. */
CHRONO__PRIVATE int chrono__cli_bool(const char *v)
{
    static const char *const yes[] = { "1", "true", "yes", "on" }, *const no[] = { "0", "false",
                                                                                   "no", "off" };
    int i;
    for (i = 0; i < 4; i++) {
        if (!strcmp(v, yes[i])) return 1;
        if (!strcmp(v, no[i])) return 0;
    }
    return -1;
}

/* ---- the built-in flags --------------------------------------------------------- */
CHRONO__PRIVATE int chrono__cli_cpu(chrono_cli *o, chrono_config *cfg, const char *v)
{
    long long n = 0;
    int count = chrono_cpu_count(), allowed, rc;
    long long hi = count >= 1 ? count - 1 : INT_MAX;
    if ((rc = chrono__cli_get_int(o, "--cpu", v, 0, hi, &n)) < 0) return rc;
    allowed = chrono_cpu_allowed((int)n);
    if (allowed == CHRONO_ENOTSUP)
        return chrono__cli_bad(o, "--cpu", v, "cannot be used: pinning is not supported here");
    if (allowed == 0)
        return chrono__cli_bad(o, "--cpu", v,
                               "is not in this thread's allowed CPUs (affinity mask)");
    cfg->pin = CHRONO_PIN_CPU;
    cfg->cpu = (int)n;
    o->chrono__set |= CHRONO__SET_CPU;
    o->chrono__cpu_arg = v;
    return 0;
}

/* --counters LIST into cfg->counters, or .error naming the unknown counter. */
CHRONO__PRIVATE int chrono__cli_counters(chrono_cli *o, chrono_config *cfg, const char *v)
{
    char bad[40], what[96];
    if (chrono_counters_parse(v, &cfg->counters, bad, sizeof bad) < 0) {
        (void)chrono__bprintf(what, sizeof what,
                              "names an unknown counter '%s' (--help lists them)", bad);
        return chrono__cli_bad(o, "--counters", v, what);
    }
    return 0;
}

/* Apply a built-in flag that takes a value. */
CHRONO__PRIVATE int chrono__cli_builtin_value(chrono_cli *o, chrono_config *cfg, int id,
                                              const char *v)
{
    long long n = 0;
    int rc = 0;
    switch (id) {
    case CHRONO__F_FORMAT:
        if (chrono_format_parse(v, &o->format) < 0)
            return chrono__cli_bad(o, "--format", v,
                                   "is not one of text, md, csv, json, html, bmf");
        o->out_format = o->format;
        break;
    case CHRONO__F_OUT: o->out_path = v; break;
    case CHRONO__F_FILTER:
        if (o->nfilters == CHRONO_CLI_FILTERS_MAX) {
            char what[64];
            (void)chrono__bprintf(what, sizeof what, "is one --filter too many (at most %d)",
                                  CHRONO_CLI_FILTERS_MAX);
            return chrono__cli_bad(o, "--filter", v, what);
        }
        o->filters[o->nfilters++] = v;
        if (!o->filter) o->filter = v;
        break;
    case CHRONO__F_BASELINE: o->baseline = v; break;
    case CHRONO__F_SAVE: o->save = v; break;
    case CHRONO__F_COMPARE: o->compare = v; break;
    case CHRONO__F_FAIL_ABOVE:
        rc = chrono__cli_get_double(o, "--fail-above", v, 0.0, 1000.0, &o->fail_above);
        break;
    case CHRONO__F_COUNTERS: rc = chrono__cli_counters(o, cfg, v); break;
    case CHRONO__F_CPU: rc = chrono__cli_cpu(o, cfg, v); break;
    case CHRONO__F_PROCESSES:
        if ((rc = chrono__cli_get_int(o, "--processes", v, 1, 1000, &n)) == 0)
            o->processes = (int)n;
        break;
    case CHRONO__F_THREADS:
        if ((rc = chrono__cli_get_int(o, "--threads", v, 1, 256, &n)) == 0) o->threads = (int)n;
        break;
    case CHRONO__F_SAMPLES:
        if ((rc = chrono__cli_get_int(o, "--samples", v, 1, CHRONO_SAMPLES_MAX, &n)) == 0) {
            cfg->samples = (int)n;
            o->chrono__set |= CHRONO__SET_SAMPLES;
        }
        break;
    case CHRONO__F_WARMUP:
        rc = chrono__cli_get_double(o, "--warmup-ms", v, 0.001, 3600000.0, &cfg->warmup_ms);
        if (rc == 0) o->chrono__set |= CHRONO__SET_WARMUP;
        break;
    case CHRONO__F_MAX:
        if ((rc = chrono__cli_get_double(o, "--max-ms", v, 1.0, 86400000.0, &cfg->max_ms)) == 0)
            o->chrono__set |= CHRONO__SET_MAX;
        break;
    }
    return rc;
}

CHRONO__PRIVATE void chrono__cli_builtin_switch(chrono_cli *o, chrono_config *cfg, int id)
{
    switch (id) {
    case CHRONO__F_NOPIN:
        cfg->pin = CHRONO_PIN_OFF;
        cfg->cpu = CHRONO_CPU_CURRENT;
        o->chrono__set |= CHRONO__SET_NOPIN;
        break;
    case CHRONO__F_QUICK: o->quick = 1; break;
    case CHRONO__F_LIST: o->list = 1; break;
    case CHRONO__F_HELP: o->help = 1; break;
    case CHRONO__F_VERSION: o->version = 1; break;
    case CHRONO__F_KEEP_CONTENDED: cfg->contention_tolerance = CHRONO_CONTENTION_OFF; break;
    }
}

/* ---- the program's flags ---------------------------------------------------------- */
CHRONO__PRIVATE int chrono__cli_extra_value(chrono_cli *o, const chrono_cli_flag *f, const char *v)
{
    long long n = 0;
    double lo = f->min < f->max ? f->min
                                : (f->kind == CHRONO_CLI_INT ? (double)INT_MIN : -1.79e308);
    double hi = f->min < f->max ? f->max : (f->kind == CHRONO_CLI_INT ? (double)INT_MAX : 1.79e308);
    int rc = 0, b;
    switch (f->kind) {
    case CHRONO_CLI_INT:
        if (lo < (double)INT_MIN) lo = (double)INT_MIN;
        if (hi > (double)INT_MAX) hi = (double)INT_MAX;
        if ((rc = chrono__cli_get_int(o, f->name, v, (long long)ceil(lo), (long long)floor(hi),
                                      &n)) == 0)
            *(int *)f->value = (int)n;
        break;
    case CHRONO_CLI_DOUBLE:
        rc = chrono__cli_get_double(o, f->name, v, lo, hi, (double *)f->value);
        break;
    case CHRONO_CLI_STRING: *(const char **)f->value = v; break;
    case CHRONO_CLI_BOOL:
        if ((b = chrono__cli_bool(v)) < 0)
            rc = chrono__cli_bad(o, f->name, v,
                                 "is not one of 1, 0, true, false, yes, no, on, off");
        else *(int *)f->value = b;
        break;
    }
    return rc;
}

CHRONO__PRIVATE int chrono__cli_builtin_id(const char *name)
{
    int i;
    for (i = 0; i < CHRONO__F_COUNT; i++)
        if (!strcmp(name, chrono__cli_builtins[i].name)) return i;
    return -1;
}

/* The table must be usable: names "--x" not shadowing a built-in, a value, a known kind. */
CHRONO__PRIVATE int chrono__cli_check_extra(chrono_cli *o, const chrono_cli_flag *extra,
                                            size_t nextra)
{
    size_t i;
    if (nextra && !extra) return chrono__cli_bad(o, "program flags", NULL, "table is NULL");
    for (i = 0; i < nextra; i++) {
        const chrono_cli_flag *f = &extra[i];
        if (!f->name || strncmp(f->name, "--", 2) != 0 || !f->name[2] || strchr(f->name, '=') ||
            chrono__cli_builtin_id(f->name) >= 0 || !f->value || f->kind < CHRONO_CLI_INT ||
            f->kind > CHRONO_CLI_STRING)
            return chrono__cli_bad(
                o, f->name ? f->name : "program flags", NULL,
                "invalid entry in the program's flag table (name, kind or value)");
    }
    return 0;
}

/* ---- parsing ------------------------------------------------------------------------ */
/* The value of a flag that takes one: after '=', else the next argument
   unless it is another flag.  NULL when missing or empty (.error set). */
CHRONO__PRIVATE const char *chrono__cli_value(chrono_cli *o, const char *flag, const char *eq,
                                              int argc, char **argv, int *i)
{
    const char *v = eq;
    if (!v && *i + 1 < argc && argv[*i + 1] && strncmp(argv[*i + 1], "--", 2) != 0) v = argv[++*i];
    if (!v || !*v) { chrono__cli_bad(o, flag, NULL, "missing value"); return NULL; }
    return v;
}

/* One argument (and perhaps the next, its value). */
CHRONO__PRIVATE int chrono__cli_arg(chrono_config *cfg, chrono_cli *o, int argc, char **argv,
                                    int *i, const chrono_cli_flag *extra, size_t nextra)
{
    const char *arg = argv[*i], *eq, *v;
    char name[64];
    size_t len, k;
    int id;
    if (!strcmp(arg, "-h")) { o->help = 1; return 0; }
    if (strncmp(arg, "--", 2) != 0 || !arg[2])
        return chrono__cli_bad(o, arg, NULL, "unexpected argument (flags start with --)");
    eq = strchr(arg, '=');
    len = eq ? (size_t)(eq - arg) : strlen(arg);
    if (eq) eq++;
    if (len >= sizeof name)
        return chrono__cli_bad(o, "unknown flag", arg, "is not a flag of this program");
    memcpy(name, arg, len);
    name[len] = '\0';
    if ((id = chrono__cli_builtin_id(name)) >= 0) {
        o->chrono__given |= 1u << id;
        if (!chrono__cli_builtins[id].takes_value) {
            if (eq) return chrono__cli_bad(o, name, eq, "given, but the flag takes no value");
            chrono__cli_builtin_switch(o, cfg, id);
            return 0;
        }
        if (!(v = chrono__cli_value(o, name, eq, argc, argv, i))) return CHRONO_EINVAL;
        return chrono__cli_builtin_value(o, cfg, id, v);
    }
    for (k = 0; k < nextra; k++) {
        const chrono_cli_flag *f = &extra[k];
        if (strcmp(name, f->name) != 0) continue;
        if (f->kind == CHRONO_CLI_BOOL && !eq) { *(int *)f->value = 1; return 0; }
        if (f->kind == CHRONO_CLI_BOOL && !*eq)
            return chrono__cli_bad(o, name, NULL, "missing value");
        if (!(v = f->kind == CHRONO_CLI_BOOL ? eq : chrono__cli_value(o, name, eq, argc, argv, i)))
            return CHRONO_EINVAL;
        return chrono__cli_extra_value(o, f, v);
    }
    if (eq) {
        char what[96], q[64];
        (void)chrono__bprintf(what, sizeof what, "unknown flag (with value '%s')",
                              chrono__cli_quote(q, sizeof q, eq));
        return chrono__cli_bad(o, name, NULL, what);
    }
    return chrono__cli_bad(o, name, NULL, "unknown flag");
}

/* ASCII case-insensitive equality. */
CHRONO__PRIVATE int chrono__cli_same(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a,
             y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
        if (x != y) return 0;
    }
    return *a == *b;
}

/* The --out file's format: --format when given, else the one its extension
   (that of its last path component) names, else --format's default.  *ext
   is the extension ("" for none); 0, or -1 when it names no format. */
CHRONO__PRIVATE int chrono__cli_file_format(const chrono_cli *o, chrono_format *fmt,
                                            const char **ext)
{
    const char *base, *dot, *p;
    int i;
    *fmt = o->format;
    *ext = "";
    if (!o->out_path || (o->chrono__given & (1u << CHRONO__F_FORMAT))) return 0;
    for (base = p = o->out_path; *p; p++)
        if (*p == '/' || *p == '\\') base = p + 1;
    dot = strrchr(base, '.');
    if (!dot || dot == base) return 0;   /* "report", ".hidden": no extension */
    *ext = dot;
    for (i = 0; i < CHRONO__NFORMATS; i++)   /* the formats' extensions (table.h's list) */
        if ((*chrono__format_defs[i].ext && chrono__cli_same(dot, chrono__format_defs[i].ext)) ||
            (*chrono__format_defs[i].ext2 && chrono__cli_same(dot, chrono__format_defs[i].ext2))) {
            *fmt = (chrono_format)i;
            return 0;
        }
    return -1;
}

/* .out_format after parsing; an extension that names no format is bad input
   rather than a text file in disguise. */
CHRONO__PRIVATE int chrono__cli_out_format(chrono_cli *o)
{
    const char *dot;
    char what[160], q[64];
    if (chrono__cli_file_format(o, &o->out_format, &dot) == 0) return 0;
    (void)chrono__bprintf(
        what, sizeof what,
        "has an unknown extension '%s' (known: .txt .md .csv .json .html .htm; or give --format)",
        chrono__cli_quote(q, sizeof q, dot));
    return chrono__cli_bad(o, "--out", o->out_path, what);
}

/* ---- --filter ------------------------------------------------------------------------ */
/* A pattern's text without its leading '-' (an exclusion). */
CHRONO__PRIVATE const char *chrono__cli_pattern(const char *f, int *negative)
{
    *negative = f[0] == '-';
    return f + *negative;
}

#if CHRONO__CLI_REGEX
#define CHRONO__CLI_DEPTH 64       /* nested groups a pattern may open */
#define CHRONO__CLI_NESTED_REPEATS 4 /* repetitions that may apply to one atom */
#define CHRONO__CLI_COPIES 1000      /* atoms regcomp may build beyond the pattern's own */

/* 1 when *re starts a repetition ('*', '?', '+', '{m}', '{m,}', '{m,n}'): *copies
   is how many copies of the atom before it regcomp builds, and *re is left on the
   repetition's last character. */
CHRONO__PRIVATE int chrono__cli_repetition(const char **re, double *copies)
{
    unsigned long m = 0, most = 0;
    *copies = **re == '+' ? 2 : 1;
    if (**re == '*' || **re == '?' || **re == '+') return 1;
    if (**re != '{' || (*re)[1] < '0' || (*re)[1] > '9') return 0;
    for ((*re)++; **re == ',' || (**re >= '0' && **re <= '9'); (*re)++)
        if (**re == ',') { most = m; m = 0; }
        else if (m < 100000) m = m * 10 + (unsigned long)(**re - '0');
    if (!**re) (*re)--;   /* an unclosed brace: regcomp refuses it */
    *copies = (double)(m > most ? m : most) + 1;
    return 1;
}

/* Past a bracket expression starting at *re ('['): "[]a]", "[^]a]", "[[:alpha:]]". */
CHRONO__PRIVATE void chrono__cli_skip_bracket(const char **re)
{
    const char *p = *re + 1;
    if (*p == '^') p++;
    if (*p == ']') p++;
    for (; *p && *p != ']'; p++)
        if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
            const char *end = strchr(p + 2, p[1]);
            if (!end || end[1] != ']') break;
            p = end + 1;
        }
    *re = *p ? p : p - 1;
}

/* One group level of a pattern being sized: the atoms it holds so far, the
   size of its last atom, how many repetitions apply to that atom and the most
   that apply to any atom inside. */
typedef struct { double size, last; int last_repeats, repeats; } chrono__cli_level;

/* Why regcomp must not be given the pattern, or NULL: glibc copies the atom
   before '+' and '{m,n}' (a group with all it holds) and builds epsilon closures
   that grow exponentially with repetitions applied on repetitions, so
   "((a{99}){99}){99}", "x+*+++++++" or "((((x?)+)?)+)?" would take it seconds to
   minutes and gigabytes; names never need that. */
CHRONO__PRIVATE const char *chrono__cli_pattern_too_costly(const char *re)
{
    chrono__cli_level g[CHRONO__CLI_DEPTH];
    const double limit = CHRONO__CLI_COPIES + (double)strlen(re);
    double copies;
    int d = 0, after_repeat = 0;
    memset(g, 0, sizeof g);
    for (; *re; re++) {
        if (chrono__cli_repetition(&re, &copies)) {
            if (after_repeat)
                return "it repeats a repetition (undefined in POSIX; write one operator)";
            g[d].size += g[d].last * (copies - 1);
            g[d].last *= copies;
            if (++g[d].last_repeats > g[d].repeats) g[d].repeats = g[d].last_repeats;
            after_repeat = 1;
            if (g[d].repeats > CHRONO__CLI_NESTED_REPEATS)
                return "it nests repetitions more than 4 deep";
            if (g[d].size > limit) return "its repetitions expand past 1000 copies";
            continue;
        }
        after_repeat = 0;
        if (*re == '(') {
            if (++d == CHRONO__CLI_DEPTH) return "it nests groups more than 63 deep";
            memset(&g[d], 0, sizeof g[d]);
        } else if (*re == ')' && d > 0) {
            g[d - 1].last = g[d].size + 1;
            g[d - 1].size += g[d - 1].last;
            g[d - 1].last_repeats = g[d].repeats;
            d--;
        } else if (*re != '|' && *re != '^' && *re != '$') {
            if (*re == '\\' && re[1]) re++;
            else if (*re == '[') chrono__cli_skip_bracket(&re);
            g[d].last = 1;
            g[d].size += 1;
            g[d].last_repeats = 0;
        }
    }
    return NULL;
}

/* Compile every --filter (REG_EXTENDED | REG_NOSUB) into o->chrono__re;
   one that does not compile is bad input, named with regerror's reason. */
CHRONO__PRIVATE int chrono__cli_compile(chrono_cli *o)
{
    regex_t *re;
    int k, neg;
    if (!o->nfilters) return 0;
    if (!(re = (regex_t *)CHRONO_MALLOC((size_t)o->nfilters * sizeof *re)))
        return chrono__cli_bad(o, "--filter", NULL, "out of memory compiling the patterns");
    for (k = 0; k < o->nfilters; k++) {
        const char *given = o->filters[k], *pat = chrono__cli_pattern(given, &neg);
        char why[160], msg[96];
        const char *costly = chrono__cli_pattern_too_costly(pat);
        int rc = costly ? -1 : regcomp(&re[k], pat, REG_EXTENDED | REG_NOSUB);
        if (rc == 0) continue;
        if (rc > 0) (void)regerror(rc, &re[k], msg, sizeof msg);
        else (void)chrono__bprintf(msg, sizeof msg, "%s", costly);
        while (k-- > 0) regfree(&re[k]);
        CHRONO_FREE(re);
        (void)chrono__bprintf(why, sizeof why, "is not a valid extended regular expression: %s",
                              msg);
        return chrono__cli_bad(o, "--filter", given, why);
    }
    o->chrono__re = re;
    return 0;
}
#endif

/* 1 when pattern k (its text `pat`) selects `name`: as a regular expression, or
   occurring in it literally. */
CHRONO__PRIVATE int chrono__cli_hit(const chrono_cli *o, int k, const char *pat, const char *name)
{
    if (strstr(name, pat)) return 1;
#if CHRONO__CLI_REGEX
    if (o->chrono__re && k >= 0)
        return regexec((const regex_t *)o->chrono__re + k, name, 0, NULL, 0) == 0;
#else
    (void)o; (void)k;
#endif
    return 0;
}

CHRONO_API int chrono_cli_match(const chrono_cli *o, const char *name)
{
    int k, neg, positives = 0, hit = 0;
    if (!o || !name) return 0;
    if (!o->nfilters)   /* options filled by hand: .filter alone, as a pattern */
        return !o->filter || (o->filter[0] == '-' ? !strstr(name, o->filter + 1)
                                                  : strstr(name, o->filter) != NULL);
    for (k = 0; k < o->nfilters && k < CHRONO_CLI_FILTERS_MAX; k++) {
        const char *pat = chrono__cli_pattern(o->filters[k], &neg);
        if (neg) {
            if (chrono__cli_hit(o, k, pat, name)) return 0;
        } else {
            positives++;
            hit = hit || chrono__cli_hit(o, k, pat, name);
        }
    }
    return !positives || hit;
}

CHRONO_API void chrono_cli_close(chrono_cli *o)
{
    if (!o) return;
#if CHRONO__CLI_REGEX
    if (o->chrono__re) {
        int k;
        for (k = 0; k < o->nfilters; k++) regfree((regex_t *)o->chrono__re + k);
        CHRONO_FREE(o->chrono__re);
    }
#endif
    o->chrono__re = NULL;
    if (o->out && o->out != stdout) fclose(o->out);
    o->out = NULL;
}

/* --quick fills what no flag set explicitly. */
CHRONO__PRIVATE void chrono__cli_quick(chrono_config *cfg, const chrono_cli *o)
{
    if (!o->quick) return;
    if (!(o->chrono__set & CHRONO__SET_SAMPLES)) cfg->samples = CHRONO_QUICK_SAMPLES;
    if (!(o->chrono__set & CHRONO__SET_WARMUP)) cfg->warmup_ms = CHRONO_QUICK_WARMUP_MS;
    if (!(o->chrono__set & CHRONO__SET_MAX)) cfg->max_ms = CHRONO_QUICK_MAX_MS;
    cfg->min_sample_us = 20;
}

CHRONO_API int chrono_cli_parse_ex(chrono_config *cfg, chrono_cli *opts, int argc, char **argv,
                                   const chrono_cli_flag *extra, size_t nextra)
{
    int i, rc;
    size_t k;
    if (!opts) return CHRONO_EINVAL;
    memset(opts, 0, sizeof *opts);
    opts->format = CHRONO_FORMAT_TEXT;
    opts->fail_above = 5;
    opts->prog = argc > 0 && argv && argv[0] ? argv[0] : "program";
    opts->chrono__extra = extra;
    opts->chrono__nextra = nextra;
    if (!cfg || argc < 0 || (argc > 0 && !argv))
        return chrono__cli_bad(opts, "chrono_cli_parse", NULL, "called with a NULL config or argv");
    if (nextra > (size_t)-1 / sizeof *extra)
        return chrono__cli_bad(opts, "program flags", NULL,
                               "table larger than memory (nextra too large)");
    if ((rc = chrono__cli_check_extra(opts, extra, nextra)) < 0) return rc;
    for (k = 0; k < nextra; k++)   /* INT bounds that no int meets would be cast out of range */
        if (extra[k].kind == CHRONO_CLI_INT && extra[k].min < extra[k].max &&
            (extra[k].min > (double)INT_MAX || extra[k].max < (double)INT_MIN))
            return chrono__cli_bad(
                opts, extra[k].name, NULL,
                "invalid entry in the program's flag table (INT bounds outside int)");
    for (i = 1; i < argc; i++) {
        if (!argv[i]) break;
        if ((rc = chrono__cli_arg(cfg, opts, argc, argv, &i, extra, nextra)) < 0) return rc;
    }
    if ((opts->chrono__set & CHRONO__SET_CPU) && (opts->chrono__set & CHRONO__SET_NOPIN)) {
        char what[96], q[64];   /* the value as typed: --no-pin after --cpu has reset cfg->cpu */
        (void)chrono__bprintf(
            what, sizeof what, "conflicts with --cpu=%s (choose one)",
            chrono__cli_quote(q, sizeof q, opts->chrono__cpu_arg ? opts->chrono__cpu_arg : "?"));
        return chrono__cli_bad(opts, "--no-pin", NULL, what);
    }
    if ((rc = chrono__cli_out_format(opts)) < 0) return rc;
#if CHRONO__CLI_REGEX
    if ((rc = chrono__cli_compile(opts)) < 0) return rc;
#endif
    chrono__cli_quick(cfg, opts);
    return 0;
}

CHRONO_API int chrono_cli_parse(chrono_config *cfg, chrono_cli *opts, int argc, char **argv)
{
    return chrono_cli_parse_ex(cfg, opts, argc, argv, NULL, 0);
}

/* ---- for programs: messages ------------------------------------------------------------ */
CHRONO__PRIVATE const char *chrono__cli_prog(const chrono_cli *o, const char *prog)
{
    if (prog && *prog) return prog;
    return o && o->prog ? o->prog : "program";
}

/* The usage: every common flag, then the program's. */
CHRONO__PRIVATE void chrono__cli_usage_ex(FILE *f, const char *prog, const chrono_cli_flag *extra,
                                          size_t nextra, unsigned refused)
{
    static const char *const kinds[] = { "N", "X", NULL, "TEXT" };
    char left[96];
    size_t i;
    fprintf(f, "usage: %s [flags]\n", prog ? prog : "program");
    for (i = 0; i < CHRONO__F_COUNT; i++) {
        const chrono__cli_builtin *b = &chrono__cli_builtins[i];
        if (refused & (1u << i)) continue;   /* chrono_cli_refuse: not a flag of this program */
        (void)chrono__bprintf(left, sizeof left, "%s%s%s", b->name, b->arg ? "=" : "",
                              b->arg ? b->arg : "");
        fprintf(f, "  %-18s %s\n", left, b->help);
    }
    if (nextra && extra) fputs("program flags:\n", f);
    for (i = 0; extra && i < nextra; i++) {
        const chrono_cli_flag *x = &extra[i];
        const char *arg =
            x->kind >= CHRONO_CLI_INT && x->kind <= CHRONO_CLI_STRING ? kinds[x->kind] : NULL;
        char range[128] = "";
        if ((x->kind == CHRONO_CLI_INT || x->kind == CHRONO_CLI_DOUBLE) && x->min < x->max) {
            char a[40], b[40];
            (void)chrono__bprintf(range, sizeof range, " (%s..%s)",
                                  chrono__num(a, sizeof a, "%.15g", x->min),
                                  chrono__num(b, sizeof b, "%.15g", x->max));
        }
        (void)chrono__bprintf(left, sizeof left, "%s%s%s", x->name ? x->name : "?", arg ? "=" : "",
                              arg ? arg : "");
        fprintf(f, "  %-18s %s%s\n", left, x->help ? x->help : "", range);
    }
    fputs("Both --flag=value and --flag value are accepted.\n", f);
}

CHRONO_API void chrono_cli_usage(FILE *f, const char *prog)
{
    if (f) chrono__cli_usage_ex(f, prog, NULL, 0, 0);
}

CHRONO_API int chrono_cli_fail(const chrono_cli *o, const char *prog)
{
    const char *p = chrono__cli_prog(o, prog);
    fprintf(stderr, "%s: %s\n", p, o && o->error[0] ? o->error : "invalid arguments");
    fprintf(stderr, "usage: %s [flags]; try '%s --help' for the list\n", p, p);
    return 2;
}

CHRONO_API int chrono_cli_handle_info(const chrono_cli *o, const char *prog)
{
    const char *p = chrono__cli_prog(o, prog);
    if (!o) return 0;
    if (o->help) {
        chrono__cli_usage_ex(stdout, p, o->chrono__extra, o->chrono__nextra, o->chrono__refused);
        fflush(stdout);
        return 1;
    }
    if (o->version) {
        printf("%s (chronoscope %s)\n", p, CHRONO_VERSION_STRING);
        fflush(stdout);
        return 1;
    }
    return 0;
}

CHRONO_API int chrono_cli_refuse(chrono_cli *o, const char *flag, const char *why)
{
    int id;
    if (!o || !flag) return CHRONO_EINVAL;
    if ((id = chrono__cli_builtin_id(flag)) < 0)
        return chrono__cli_bad(o, flag, NULL, "is not a common flag (chrono_cli_refuse)");
    o->chrono__refused |= 1u << id;
    if (!(o->chrono__given & (1u << id))) return 0;
    {
        char what[200];
        (void)chrono__bprintf(what, sizeof what, "is not supported by this program%s%s",
                              why && *why ? ": " : "", why ? why : "");
        return chrono__cli_bad(o, flag, NULL, what);
    }
}

CHRONO_API int chrono_cli_reject(chrono_cli *o, const char *flag, const char *value,
                                 const char *what)
{
    if (!o) return CHRONO_EINVAL;
    return chrono__cli_bad(o, flag ? flag : "argument", value, what ? what : "is not valid here");
}

CHRONO_API int chrono_cli_want(const chrono_cli *o, const char *name)
{
    if (!o || !name || !chrono_cli_match(o, name)) return 0;
    if (o->help || o->version) return 0;
    if (o->list) { printf("%s\n", name); return 0; }
    return 1;
}

CHRONO_API FILE *chrono_cli_output(chrono_cli *o)
{
    if (!o) return NULL;
    if (o->out) return o->out;
    if (!o->out_path || !strcmp(o->out_path, "-")) return o->out = stdout;
    o->out = fopen(o->out_path, "wb");
    if (!o->out) {
        int e = errno;
        char what[160];
        (void)chrono__bprintf(what, sizeof what, "cannot be opened for writing: %s", strerror(e));
        (void)chrono__cli_bad(o, "--out", o->out_path, what);
    }
    return o->out;
}

CHRONO_API int chrono_cli_finish(chrono_cli *o, const chrono_session *s)
{
    return chrono_cli_finish_ex(o, s, NULL, 0);
}

CHRONO_API int chrono_cli_finish_ex(chrono_cli *o, const chrono_session *s,
                                    const chrono_table *tables, size_t ntables)
{
    chrono_report_options ro;
    FILE *f;
    int rc;
    if (!o) return CHRONO_EINVAL;
    if (o->list || o->help || o->version) {
        chrono_cli_close(o);
        return fflush(stdout) == 0 ? 0 : CHRONO_EIO;
    }
    if (!(f = chrono_cli_output(o))) { chrono_cli_close(o); return CHRONO_EIO; }
    memset(&ro, 0, sizeof ro);
    ro.executable = o->prog;
    ro.baseline = o->baseline;
    ro.tables = tables;
    ro.ntables = tables ? ntables : 0;
    {
        chrono_format fmt = o->format;
        const char *ext;
        /* parse refused an unknown extension */
        if (f != stdout) (void)chrono__cli_file_format(o, &fmt, &ext);
        rc = chrono_report_write(s, f, fmt, &ro);
    }
    if (f != stdout) {
        if (fclose(f) != 0 && rc == 0) rc = CHRONO_EIO;
    } else if (fflush(f) != 0 && rc == 0) {
        rc = CHRONO_EIO;
    }
    o->out = NULL;
    chrono_cli_close(o);   /* the compiled --filter patterns */
    if (rc == CHRONO_EIO)
        (void)chrono__cli_bad(o, "--out", o->out_path ? o->out_path : "-", "could not be written");
    return rc;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_CLI_IMPL */

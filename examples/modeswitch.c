/* modeswitch — what a mode switch costs today, against a DJGPP user's 1994 figures
   (seeds/003: ~40 µs / 2400 cycles a real<->protected round trip on a 60 MHz
   Pentium, 4-6 switches per 4 KB disk read, a compile 1.20x slower with temp
   files on disk than on a RAM disk and 1.52x without a write cache).

   Part 1  one transition: user-only calls, system calls, a signal, a context
           switch between two processes, a VM exit (cpuid)
   Part 2  the transfer-buffer effect: reads in chunks of 1 B .. 1 MiB, fitted
           as time = a calls + b bytes (chrono_stats_fit2, relative weights)
   Part 3  RAM disk against disk: cc -O2 -c of a generated 8,800-line file with
           TMPDIR on tmpfs, on --dir, and -pipe; O_DSYNC writes for "no write cache"
   Part 4  then vs now: a chrono_table written after the benchmarks in every format

   Flags: the common ones (cli.h), --bytes=N (the most read per point in Part
   2, default 16 MiB), --dir=PATH (page-cache file and temp files; default
   /tmp or "." ).  Temp files are removed on exit, on error and on SIGINT/SIGTERM. */
#define _GNU_SOURCE
#include <chronoscope.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#  include <fcntl.h>
#  include <sched.h>
#  include <sys/stat.h>
#  include <sys/syscall.h>
#  include <sys/wait.h>
#  include <time.h>
#  include <unistd.h>
#  define MS_LINUX 1
#else
#  define MS_LINUX 0
#endif
#if defined(__x86_64__) || defined(__i386__)
#  define MS_X86 1
#else
#  define MS_X86 0
#endif

/* ---- clean-up: the program's own state (the library keeps none) ---------------- */
#define MS_NPATHS 12
static char ms_paths[MS_NPATHS][512];     /* files to unlink; a trailing '/' marks a directory */
static volatile sig_atomic_t ms_npaths;

static void ms_cleanup(void)
{
#if MS_LINUX
    int i;
    for (i = (int)ms_npaths - 1; i >= 0; i--) {   /* newest first: files before their directory */
        size_t n = strlen(ms_paths[i]);
        if (n && ms_paths[i][n - 1] == '/') rmdir(ms_paths[i]);
        else if (n) unlink(ms_paths[i]);
    }
#else
    (void)ms_paths;
#endif
    ms_npaths = 0;
}

static void ms_on_signal(int sig)
{
    ms_cleanup();                 /* unlink and rmdir are async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Remember a path for clean-up; returns it (NULL when the list is full or it is too long). */
#if MS_LINUX
static const char *ms_track(const char *dir, const char *name)
{
    int i = (int)ms_npaths;
    if (i >= MS_NPATHS || strlen(dir) + strlen(name) + 2 > sizeof ms_paths[0]) return NULL;
    sprintf(ms_paths[i], "%s/%s", dir, name);
    ms_npaths = i + 1;
    return ms_paths[i];
}
#endif

/* ==== generic helpers (candidates for experiment.h at merge time) ================ */
/* A then-vs-now row: what, then, now, now/then, a sentence. */
typedef struct ms_row { char cell[5][160]; } ms_row;

static void ms_row_set(ms_row *r, const char *what, double then, double now, const char *unit, const char *why)
{
    snprintf(r->cell[0], sizeof r->cell[0], "%s", what);
    if (then == then) snprintf(r->cell[1], sizeof r->cell[1], "%.4g %s", then, unit);
    else snprintf(r->cell[1], sizeof r->cell[1], "n/a");
    if (now == now) snprintf(r->cell[2], sizeof r->cell[2], "%.4g %s", now, unit);
    else snprintf(r->cell[2], sizeof r->cell[2], "n/a");
    if (now == now && then == then && then != 0) snprintf(r->cell[3], sizeof r->cell[3], "%.3g", now / then);
    else snprintf(r->cell[3], sizeof r->cell[3], "n/a");
    snprintf(r->cell[4], sizeof r->cell[4], "%s", why);
}
/* ==== end of generic helpers ====================================================== */

/* ---- Part 1: what one transition costs ------------------------------------------ */
static void nothing(void) { }
static void (*volatile ms_fp)(void) = nothing;

static void empty_call(void *ctx, uint64_t iters)
{
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) ms_fp();
}

#if MS_X86 && (defined(__GNUC__) || defined(__clang__))
#  define MS_HAVE_ASM 1
static void rdtsc_loop(void *ctx, uint64_t iters)
{
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) {
        unsigned lo, hi;
        __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
        chrono_keep(lo);
        chrono_keep(hi);
    }
}

static void cpuid_loop(void *ctx, uint64_t iters)
{
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) {
        unsigned a = 0, b, c = 0, d;
        __asm__ __volatile__("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
        chrono_keep(b);
    }
}
#else
#  define MS_HAVE_ASM 0
#endif

#if MS_LINUX
static void vdso_gettime(void *ctx, uint64_t iters)
{
    struct timespec ts;
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) { clock_gettime(CLOCK_MONOTONIC, &ts); chrono_keep(ts.tv_nsec); }
}

static void syscall_gettime(void *ctx, uint64_t iters)
{
    struct timespec ts;
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) { syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts); chrono_keep(ts.tv_nsec); }
}

static void getppid_libc(void *ctx, uint64_t iters)
{
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) { pid_t p = getppid(); chrono_keep(p); }
}

#  if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#    define MS_HAVE_RAW_SYSCALL 1
static void getppid_raw(void *ctx, uint64_t iters)
{
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) {
        long r = SYS_getppid;
        __asm__ __volatile__("syscall" : "+a"(r) : : "rcx", "r11", "memory");
        chrono_keep(r);
    }
}
#  else
#    define MS_HAVE_RAW_SYSCALL 0
#  endif

static char ms_byte[1];
static void read1(void *ctx, uint64_t iters)
{
    int fd = *(int *)ctx;
    uint64_t i;
    for (i = 0; i < iters; i++) if (read(fd, ms_byte, 1) != 1) abort();
}

static void write1(void *ctx, uint64_t iters)
{
    int fd = *(int *)ctx;
    uint64_t i;
    for (i = 0; i < iters; i++) if (write(fd, ms_byte, 1) != 1) abort();
}

static void fstat_loop(void *ctx, uint64_t iters)
{
    int fd = *(int *)ctx;
    struct stat st;
    uint64_t i;
    for (i = 0; i < iters; i++) { fstat(fd, &st); chrono_keep(st.st_size); }
}

static void stat_loop(void *ctx, uint64_t iters)
{
    struct stat st;
    uint64_t i;
    for (i = 0; i < iters; i++) { stat((const char *)ctx, &st); chrono_keep(st.st_size); }
}

static void open_close(void *ctx, uint64_t iters)
{
    uint64_t i;
    for (i = 0; i < iters; i++) { int fd = open((const char *)ctx, O_RDONLY); if (fd >= 0) close(fd); }
}

static volatile sig_atomic_t ms_caught;
static void on_usr1(int sig) { (void)sig; ms_caught++; }
static void raise_loop(void *ctx, uint64_t iters)
{
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) raise(SIGUSR1);
}

/* Ping-pong: one byte to the child and back, a round trip of two context switches. */
typedef struct pingpong { int to[2], from[2]; pid_t child; } pingpong;
static void pingpong_loop(void *ctx, uint64_t iters)
{
    pingpong *p = (pingpong *)ctx;
    uint64_t i;
    for (i = 0; i < iters; i++)
        if (write(p->to[1], ms_byte, 1) != 1 || read(p->from[0], ms_byte, 1) != 1) abort();
}

static int pingpong_start(pingpong *p, int cpu)
{
    if (pipe(p->to) < 0) return -1;
    if (pipe(p->from) < 0) { close(p->to[0]); close(p->to[1]); return -1; }
    p->child = fork();
    if (p->child < 0) return -1;
    if (p->child == 0) {
        char c;
        cpu_set_t set;
        signal(SIGINT, SIG_DFL);   /* the parent cleans up */
        signal(SIGTERM, SIG_DFL);
        if (cpu >= 0) { CPU_ZERO(&set); CPU_SET(cpu, &set); sched_setaffinity(0, sizeof set, &set); }
        close(p->to[1]);
        close(p->from[0]);
        while (read(p->to[0], &c, 1) == 1) if (write(p->from[1], &c, 1) != 1) break;
        _exit(0);
    }
    close(p->to[0]);
    close(p->from[1]);
    return 0;
}

static void pingpong_stop(pingpong *p)
{
    close(p->to[1]);
    close(p->from[0]);
    waitpid(p->child, NULL, 0);
}

/* ---- Part 2: reads in chunks ------------------------------------------------------ */
typedef struct reader { int fd, seekable; size_t chunk, calls; char *buf; off_t size; } reader;
static void read_chunks(void *ctx, uint64_t iters)
{
    reader *r = (reader *)ctx;
    uint64_t i;
    size_t k;
    for (i = 0; i < iters; i++) {
        off_t off = 0;
        for (k = 0; k < r->calls; k++) {
            ssize_t got = r->seekable ? pread(r->fd, r->buf, r->chunk, off) : read(r->fd, r->buf, r->chunk);
            if (got != (ssize_t)r->chunk) abort();
            off += (off_t)r->chunk;
            if (off + (off_t)r->chunk > r->size) off = 0;
        }
    }
}

static int write_file(const char *path, size_t bytes, int flags)
{
    static char block[4096];
    size_t done = 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | flags, 0600);
    if (fd < 0) return -1;
    memset(block, 'x', sizeof block);
    while (done < bytes) {
        size_t n = bytes - done < sizeof block ? bytes - done : sizeof block;
        if (write(fd, block, n) != (ssize_t)n) { close(fd); return -1; }
        done += n;
    }
    return close(fd);
}

/* Write the file in 4 KiB writes (O_DSYNC or not), from the start each time. */
typedef struct wfile { const char *p; size_t n; int fl; } wfile;
static void write_loop(void *ctx, uint64_t iters)
{
    const wfile *w = (const wfile *)ctx;
    uint64_t i;
    for (i = 0; i < iters; i++) if (write_file(w->p, w->n, w->fl) < 0) abort();
}

/* ---- Part 3: compiling ------------------------------------------------------------ */
typedef struct compile { const char *cc, *src, *obj, *tmpdir; int pipe; } compile;
static void compile_loop(void *ctx, uint64_t iters)
{
    compile *c = (compile *)ctx;
    uint64_t i;
    for (i = 0; i < iters; i++) {
        int st = -1;
        pid_t pid = fork();
        if (pid == 0) {
            signal(SIGINT, SIG_DFL);
            signal(SIGTERM, SIG_DFL);
            setenv("TMPDIR", c->tmpdir, 1);
            if (c->pipe) execlp(c->cc, c->cc, "-O2", "-pipe", "-c", c->src, "-o", c->obj, (char *)NULL);
            else execlp(c->cc, c->cc, "-O2", "-c", c->src, "-o", c->obj, (char *)NULL);
            _exit(127);
        }
        if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) abort();
    }
}

static int run_cc(const char *cc, const char *opt, const char *src, const char *out)
{
    int st = -1;
    pid_t pid = fork();
    if (pid == 0) { execlp(cc, cc, "-O2", opt, src, "-o", out, (char *)NULL); _exit(127); }
    if (pid < 0 || waitpid(pid, &st, 0) < 0) return -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* ~8,800 lines of ordinary C: 400 functions of 22 lines. */
static int generate_source(const char *path)
{
    FILE *f = fopen(path, "w");
    int i;
    if (!f) return -1;
    fprintf(f, "/* generated by modeswitch: a stand-in for makeinfo.c after cpp */\n");
    for (i = 0; i < 400; i++) {
        fprintf(f, "struct s%d { int a, b; double c[8]; };\n", i);
        fprintf(f, "int f%d(struct s%d *p, const int *v, int n)\n{\n", i, i);
        fprintf(f, "    int i, acc = %d;\n    double d = 0;\n", i);
        fprintf(f, "    for (i = 0; i < n; i++) {\n");
        fprintf(f, "        if (v[i] %% %d == 0)\n            acc += v[i] * %d;\n", i % 7 + 2, i + 1);
        fprintf(f, "        else if (v[i] > p->a)\n            acc ^= v[i] >> %d;\n", i % 5 + 1);
        fprintf(f, "        else\n            acc -= p->b;\n");
        fprintf(f, "        d += p->c[i & 7] * (double)acc;\n    }\n");
        fprintf(f, "    switch (acc & 3) {\n    case 0: p->a += acc; break;\n    case 1: p->b -= acc; break;\n");
        fprintf(f, "    default: p->c[acc & 7] = d; break;\n    }\n    return acc + (int)d;\n}\n");
    }
    return fclose(f);
}

static int dir_ok(const char *dir)
{
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) == 0;
}
#endif /* MS_LINUX */

/* ---- the program --------------------------------------------------------------- */
static int failed(const char *name, int rc)
{
    if (rc < 0) fprintf(stderr, "modeswitch: %s: %s\n", name, chrono_strerror(rc));
    return rc < 0;
}

static double med(const chrono_result *r) { return r->ns.median; }

int main(int argc, char **argv)
{
    chrono_config cfg = chrono_config_default();
    chrono_cli cli;
    chrono_session s;
    int bytes = 16 << 20, bad = 0, rc, compile_too = 0;
    const char *dir = NULL;
    const chrono_cli_flag extra[] = {
        {"--bytes", CHRONO_CLI_INT, &bytes, 4096, 1 << 30, "most bytes read per point in Part 2 (default 16 MiB)"},
        {"--dir", CHRONO_CLI_STRING, &dir, 0, 0, "directory for the page-cache file and temp files (default /tmp)"},
        {"--compile", CHRONO_CLI_BOOL, &compile_too, 0, 1, "run Part 3 (compiles) although the runner rejects its samples"},
    };
    FILE *note;
    static ms_row rows[12];
    size_t nrows = 0;
    static const char *cols[] = { "what", "then (1994)", "now", "now/then", "what changed" };
    const char *cells[12 * 5];
    chrono_table table;
    chrono_report_options opt;
    /* figures Part 4 reads (NAN: not measured) */
    double ns_getppid = NAN, cy_getppid = NAN, ns_cpuid = NAN, ns_read1 = NAN, a_zero = NAN;
    double frac4k = NAN, r_disk = NAN, r_pipe = NAN, r_dsync = NAN;
    size_t i;

    (void)a_zero;
    (void)ns_read1;
    (void)compile_too;
    if (chrono_cli_parse_ex(&cfg, &cli, argc, argv, extra, 3) < 0) return chrono_cli_fail(&cli, argv[0]);
    if (chrono_cli_handle_info(&cli, argv[0])) return 0;
    if (cli.quick && bytes == 16 << 20) bytes = 1 << 20;
#if MS_LINUX
    if (!dir) dir = access("/tmp", W_OK) == 0 ? "/tmp" : ".";
    if (!dir_ok(dir)) {
        fprintf(stderr, "modeswitch: --dir '%s' does not exist or is not a writable directory\n", dir);
        return 2;
    }
#endif
    signal(SIGINT, ms_on_signal);
    signal(SIGTERM, ms_on_signal);
    if ((rc = chrono_session_open(&s, &cfg)) < 0) {
        fprintf(stderr, "modeswitch: cannot open a session: %s\n", chrono_strerror(rc));
        return 1;
    }
    note = cli.format == CHRONO_FORMAT_TEXT && !cli.out_path ? stdout : stderr;   /* keep json/csv clean */
    if (cli.list) note = fopen(MS_LINUX ? "/dev/null" : "NUL", "w");
    if (!note) note = stderr;

    /* ---- environment: what dominates the cost here ---- */
    {
        char pti[128] = "unknown";
#if MS_LINUX
        FILE *f = fopen("/sys/devices/system/cpu/vulnerabilities/meltdown", "r");
        if (f) { if (fgets(pti, sizeof pti, f)) pti[strcspn(pti, "\n")] = 0; fclose(f); }
#endif
        fprintf(note, "modeswitch: %s%s%s; meltdown: %s%s\n",
                s.env.in_vm ? "a VM guest (hypervisor " : "bare metal (no hypervisor bit)",
                s.env.in_vm ? (s.env.hypervisor[0] ? s.env.hypervisor : "unnamed") : "", s.env.in_vm ? ")" : "", pti,
                strstr(pti, "PTI") ? " (page-table isolation: every system call switches page tables)" : "");
    }

    /* ---- Part 1 ---- */
    if (chrono_cli_want(&cli, "empty_call")) bad |= failed("empty_call", chrono_run(&s, "empty_call", empty_call, NULL, NULL));
#if MS_HAVE_ASM
    if (chrono_cli_want(&cli, "rdtsc")) bad |= failed("rdtsc", chrono_run(&s, "rdtsc", rdtsc_loop, NULL, NULL));
#else
    fprintf(note, "modeswitch: rdtsc and cpuid skipped: not an x86 target\n");
#endif
#if MS_LINUX
    {
        chrono_comparison c;
        chrono_result r;
        int zero = open("/dev/zero", O_RDONLY), null = open("/dev/null", O_WRONLY);
        const char *probe = ms_track(dir, "modeswitch-probe.tmp");
        if (zero < 0 || null < 0 || !probe || write_file(probe, 4096, 0) < 0) {
            fprintf(stderr, "modeswitch: cannot open /dev/zero, /dev/null or write in %s: %s\n", dir, strerror(errno));
            bad = 1;
        } else {
            if (chrono_cli_want(&cli, "vdso_gettime_vs_syscall")) {
                bad |= failed("vdso", chrono_compare(&s, "syscall_clock_gettime", syscall_gettime, NULL, "vdso_clock_gettime",
                                                      vdso_gettime, NULL, &c));
                if (!bad) fprintf(note, "modeswitch: syscall(SYS_clock_gettime) / vDSO clock_gettime = %.1fx [%.1f, %.1f] "
                                  "(%.0f%% CI): the same work with a user->kernel->user switch\n",
                                  c.ratio, c.ci_low, c.ci_high, 100 * c.ci_level);
            }
            if (chrono_cli_want(&cli, "getppid_libc") && !(bad |= failed("getppid", chrono_run(&s, "getppid_libc", getppid_libc, NULL, &r))))
                ns_getppid = med(&r), cy_getppid = r.cycles.median;
#  if MS_HAVE_RAW_SYSCALL
            if (chrono_cli_want(&cli, "getppid_raw_syscall"))
                bad |= failed("getppid_raw", chrono_run(&s, "getppid_raw_syscall", getppid_raw, NULL, NULL));
#  else
            fprintf(note, "modeswitch: raw syscall instruction skipped: x86-64 only\n");
#  endif
            if (chrono_cli_want(&cli, "read_1B_dev_zero") && !(bad |= failed("read", chrono_run(&s, "read_1B_dev_zero", read1, &zero, &r))))
                ns_read1 = med(&r);
            if (chrono_cli_want(&cli, "write_1B_dev_null")) bad |= failed("write", chrono_run(&s, "write_1B_dev_null", write1, &null, NULL));
            if (chrono_cli_want(&cli, "fstat")) bad |= failed("fstat", chrono_run(&s, "fstat", fstat_loop, &zero, NULL));
            if (chrono_cli_want(&cli, "stat")) bad |= failed("stat", chrono_run(&s, "stat", stat_loop, (void *)probe, NULL));
            if (chrono_cli_want(&cli, "open_close")) bad |= failed("open", chrono_run(&s, "open_close", open_close, (void *)probe, NULL));
            if (chrono_cli_want(&cli, "signal_raise_handler_return")) {
                signal(SIGUSR1, on_usr1);
                bad |= failed("signal", chrono_run(&s, "signal_raise_handler_return", raise_loop, NULL, NULL));
                signal(SIGUSR1, SIG_DFL);
            }
            {
                int cpus[2], k;
                cpus[0] = s.pin.pinned ? s.pin.cpu : -1;
                cpus[1] = -1;
                for (k = 0; k < 1024 && s.env.online_cpus > 1 && cpus[0] >= 0; k++) {
                    cpu_set_t set;
                    CPU_ZERO(&set);
                    if (k != cpus[0] && sched_getaffinity(0, sizeof set, &set) == 0) { cpus[1] = k; break; }
                }
                for (k = 0; k < 2; k++) {
                    const char *name = k ? "pipe_roundtrip_two_cpus" : "pipe_roundtrip_one_cpu";
                    pingpong p;
                    if (!chrono_cli_want(&cli, name)) continue;
                    if (cpus[k] < 0) { fprintf(note, "modeswitch: %s skipped: %s\n", name, k ? "one CPU only" : "not pinned"); continue; }
                    if (pingpong_start(&p, cpus[k]) < 0) { fprintf(stderr, "modeswitch: fork/pipe: %s\n", strerror(errno)); bad = 1; continue; }
                    /* The runner rejects a sample in which the thread was switched out, and a
                       ping-pong always is: until the library can keep voluntary switches, a
                       rejected run is reported and skipped, not a failure. */
                    rc = chrono_run(&s, name, pingpong_loop, &p, NULL);
                    if (rc < 0) fprintf(note, "modeswitch: %s skipped: %s (the runner rejects samples with a context switch)\n",
                                        name, chrono_strerror(rc));
                    pingpong_stop(&p);
                }
            }
        }
        if (zero >= 0) close(zero);
        if (null >= 0) close(null);
    }
#else
    fprintf(note, "modeswitch: system calls, signals, fork and /dev files skipped: not Linux\n");
#endif
#if MS_HAVE_ASM
    if (chrono_cli_want(&cli, s.env.in_vm ? "cpuid_vm_exit" : "cpuid_serialising")) {
        chrono_result r;
        if (!(bad |= failed("cpuid", chrono_run(&s, s.env.in_vm ? "cpuid_vm_exit" : "cpuid_serialising", cpuid_loop, NULL, &r))))
            ns_cpuid = med(&r);
    }
#endif

    /* ---- Part 2: a calls + b bytes ---- */
#if MS_LINUX
    if (!bad) {
        static const size_t chunks[] = { 1, 64, 512, 4096, 65536, 1 << 20 };
        const char *srcs[3] = { NULL, NULL, "/dev/zero" }, *labels[3] = { "page_cache", "tmpfs", "dev_zero" };
        size_t file_size = (size_t)bytes < (size_t)(2 << 20) ? (size_t)(2 << 20) : (size_t)bytes;
        char *buf = (char *)malloc(1 << 20);
        int src, t, ntot = cli.quick ? 1 : 2;
        srcs[0] = ms_track(dir, "modeswitch-pagecache.tmp");
        if (dir_ok("/dev/shm")) srcs[1] = ms_track("/dev/shm", "modeswitch-tmpfs.tmp");
        else fprintf(note, "modeswitch: tmpfs source skipped: no writable /dev/shm\n");
        fprintf(note, "modeswitch: Part 2: a pass reads min(%d bytes, 4096 chunks); fit time = a calls + b bytes, weights 1/time^2\n", bytes);
        for (src = 0; src < 3 && buf && !bad; src++) {
            double xc[12], xb[12], y[12], res[12];
            size_t n = 0;
            chrono_fit2 f;
            reader rd;
            if (!srcs[src]) continue;
            if (src < 2 && write_file(srcs[src], file_size, 0) < 0) {
                fprintf(stderr, "modeswitch: cannot write %s: %s\n", srcs[src], strerror(errno));
                bad = 1;
                break;
            }
            rd.fd = open(srcs[src], O_RDONLY);
            rd.seekable = src < 2;
            rd.size = (off_t)(src < 2 ? file_size : (size_t)1 << 40);
            rd.buf = buf;
            if (rd.fd < 0) { bad = 1; break; }
            for (t = 0; t < ntot; t++)
                for (i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
                    char name[96];
                    chrono_result r;
                    size_t total = (size_t)bytes >> (2 * t);
                    if (chunks[i] > total) continue;
                    rd.chunk = chunks[i];
                    rd.calls = total / chunks[i] < 4096 ? total / chunks[i] : 4096;
                    snprintf(name, sizeof name, "read_%s/%zuB_x%zu", labels[src], rd.chunk, rd.calls);
                    if (!chrono_cli_want(&cli, name)) continue;
                    if ((bad |= failed(name, chrono_run(&s, name, read_chunks, &rd, &r)))) break;
                    xc[n] = (double)rd.calls;
                    xb[n] = (double)(rd.calls * rd.chunk);
                    y[n++] = med(&r);
                }
            close(rd.fd);
            if (n >= 3 && chrono_stats_fit2(xc, xb, y, n, CHRONO_FIT2_RELATIVE, res, &f) == 0) {
                double worst = 0;
                for (i = 0; i < n; i++) if (fabs(res[i] / y[i]) > worst) worst = fabs(res[i] / y[i]);
                fprintf(note, "modeswitch: %-10s a = %.3g µs/call ± %.2g, b = %.3g ns/KiB (%.2f GB/s) ± %.1f%%, R² %.4f, "
                        "worst residual %.1f%%; a 4 KiB read is %.0f%% switch\n",
                        labels[src], f.a / 1e3, 2 * f.se_a / 1e3, f.b * 1024, 1.0 / f.b, 200 * f.se_b / f.b, f.r2, 100 * worst,
                        100 * f.a / (f.a + 4096 * f.b));
                if (src == 2) { a_zero = f.a; frac4k = f.a / (f.a + 4096 * f.b); }
            }
        }
        free(buf);
        if (a_zero == a_zero && ns_read1 == ns_read1)
            fprintf(note, "modeswitch: per-call cost: fitted a (/dev/zero) %.0f ns, direct 1-byte read %.0f ns: %+.0f%% (bar: within 50%%) %s\n",
                    a_zero, ns_read1, 100 * (a_zero / ns_read1 - 1), fabs(a_zero / ns_read1 - 1) <= 0.5 ? "ok" : "MISSED");
    }

    /* ---- Part 3: RAM disk against disk ---- */
    if (!bad && cli.quick) fprintf(note, "modeswitch: Part 3 (compiles) skipped under --quick\n");
    else if (!bad && !compile_too)
        fprintf(note, "modeswitch: Part 3 (compiles) skipped: a compile forks and waits, and the runner rejects every sample "
                      "in which the thread was switched out; --compile tries anyway\n");
    else if (!bad) {
        const char *cc = getenv("CC") ? getenv("CC") : "cc";
        const char *src = ms_track(dir, "modeswitch-gen.c"), *obj = ms_track(dir, "modeswitch-gen.o");
        const char *asmf = ms_track(dir, "modeswitch-gen.s");
        const char *dtmp = ms_track(dir, "modeswitch-tmp/"), *rtmp = dir_ok("/dev/shm") ? ms_track("/dev/shm", "modeswitch-tmp/") : NULL;
        if (!src || !obj || !asmf || !dtmp || generate_source(src) < 0) {
            fprintf(stderr, "modeswitch: cannot write the generated source in %s\n", dir);
            bad = 1;
        } else if (run_cc(cc, "-S", src, asmf) < 0) {
            fprintf(note, "modeswitch: Part 3 skipped: no working C compiler ('%s'; set CC)\n", cc);
        } else if (!rtmp) {
            fprintf(note, "modeswitch: Part 3 skipped: no /dev/shm for a tmpfs TMPDIR\n");
        } else {
            char d1[512], d2[512];
            struct stat st;
            chrono_comparison c1, c2;
            compile ram = { NULL, NULL, NULL, NULL, 0 }, disk, piped;
            chrono_result plain, dsync;
            int saved_samples = s.cfg.samples;
            double saved_max = s.cfg.max_ms;
            snprintf(d1, sizeof d1, "%.*s", (int)strlen(rtmp) - 1, rtmp);
            snprintf(d2, sizeof d2, "%.*s", (int)strlen(dtmp) - 1, dtmp);
            mkdir(d1, 0700);
            mkdir(d2, 0700);
            ram.cc = cc; ram.src = src; ram.obj = obj; ram.tmpdir = d1;
            disk = ram; disk.tmpdir = d2;
            piped = ram; piped.pipe = 1;
            fprintf(note, "modeswitch: Part 3: %s -O2 -c of an 8,800-line generated file; TMPDIR %s (tmpfs) vs %s (--dir) vs -pipe\n",
                    cc, d1, d2);
            s.cfg.samples = saved_samples < 9 ? saved_samples : 9;   /* a compile takes ~1 s */
            s.cfg.max_ms = 30000;
            if (chrono_cli_want(&cli, "cc_tmpdir_disk_vs_tmpfs") &&
                !(bad |= failed("cc", chrono_compare(&s, "cc_tmpdir_disk", compile_loop, &disk, "cc_tmpdir_tmpfs", compile_loop, &ram, &c1))))
                r_disk = c1.ratio;
            if (!bad && chrono_cli_want(&cli, "cc_pipe_vs_tmpfs") &&
                !(bad |= failed("cc", chrono_compare(&s, "cc_pipe", compile_loop, &piped, "cc_tmpdir_tmpfs", compile_loop, &ram, &c2))))
                r_pipe = c2.ratio;
            s.cfg.samples = saved_samples;
            s.cfg.max_ms = saved_max;
            if (!bad && stat(asmf, &st) == 0 && r_disk == r_disk) {
                /* "no write cache": the assembler's temp file written in 4 KiB O_DSYNC writes, minus cached writes */
                static wfile wc[2];
                const char *wp = ms_track(dir, "modeswitch-dsync.tmp");
                fprintf(note, "modeswitch: O_DSYNC stand-in: the assembler's temp file, %lld bytes, in 4 KiB writes to %s\n",
                        (long long)st.st_size, dir);
                wc[0].p = wc[1].p = wp;
                wc[0].n = wc[1].n = (size_t)st.st_size;
                wc[0].fl = 0;
                wc[1].fl = O_DSYNC;
                if (wp) {
                    bad |= failed("write", chrono_run(&s, "write_asm_file_cached", write_loop, &wc[0], &plain));
                    if (!bad) bad |= failed("dsync", chrono_run(&s, "write_asm_file_O_DSYNC", write_loop, &wc[1], &dsync));
                    if (!bad) r_dsync = r_disk + (med(&dsync) - med(&plain)) / med(&c1.b);
                }
            }
        }
    }
#endif

    /* ---- Part 4: then vs now ---- */
    {
        double ghz = s.core_ghz;
        ms_row_set(&rows[nrows++], "real->protected switch, µs (now: half a getppid)", 21, ns_getppid / 2e3, "µs",
                   "a ring switch (syscall/sysret) replaced a real<->protected mode switch");
        ms_row_set(&rows[nrows++], "protected->real switch, µs (now: half a getppid)", 19, ns_getppid / 2e3, "µs",
                   "the way back costs the same half of the round trip");
        ms_row_set(&rows[nrows++], "round trip, µs (now: getppid)", 40, ns_getppid / 1e3, "µs", "the clock is 60x faster; the switch is not");
        ms_row_set(&rows[nrows++], "round trip, est. core cycles (now: getppid)", 2400, cy_getppid == cy_getppid ? cy_getppid : ns_getppid * ghz,
                   "cycles", "cycles, not µs, carry over: ~100 ns bare metal, ~1 µs with PTI in a PVM guest (see the header)");
        if (ns_cpuid == ns_cpuid)
            ms_row_set(&rows[nrows++], s.env.in_vm ? "round trip to the hypervisor (cpuid VM exit), µs" : "cpuid (no VM exit), µs", 40,
                       ns_cpuid / 1e3, "µs", "the guest->host transition is today's costliest switch");
        ms_row_set(&rows[nrows++], "switches per 4 KB chunk (then 4-6; ratio against 5)", 5, frac4k == frac4k ? 2 : NAN, "switches",
                   "one read() is one round trip; there is no real-mode buffer to bounce through");
        snprintf(rows[nrows - 1].cell[1], sizeof rows[0].cell[1], "4-6 switches");
        ms_row_set(&rows[nrows++], "switch share of a 4 KiB read (now: fitted a/(a+4096 b))", NAN, frac4k, "",
                   "then unknown; now the switch is most of a small read from the page cache");
        ms_row_set(&rows[nrows++], "compile, temp files on RAM disk (tmpfs)", 1.00, r_disk == r_disk ? 1.0 : NAN, "x",
                   "the baseline");
        ms_row_set(&rows[nrows++], "compile, temp files on disk with write cache", 1.20, r_disk, "x",
                   "the page cache absorbs temp files: disk or RAM no longer matters");
        ms_row_set(&rows[nrows++], "compile, -pipe (no temp files)", NAN, r_pipe, "x", "no 1994 figure; pipes avoid the files entirely");
        ms_row_set(&rows[nrows++], "compile, no write cache (O_DSYNC stand-in)", 1.52, r_dsync, "x",
                   "synchronous writes of the .s file only; the rest stays cached");
        for (i = 0; i < nrows; i++) {
            int k;
            for (k = 0; k < 5; k++) cells[i * 5 + (size_t)k] = rows[i].cell[k];
        }
    }
    table.key = "then_vs_now";
    table.title = "Then (60 MHz Pentium, DJGPP, 1994) vs now";
    table.ncols = 5;
    table.nrows = nrows;
    table.cols = cols;
    table.cells = cells;
    if (ns_getppid == ns_getppid)
        fprintf(note, "modeswitch: null system call here %.2f µs, against ~0.1 µs on bare metal without PTI\n", ns_getppid / 1e3);

    ms_cleanup();
    if (note != stdout && note != stderr) fclose(note);
    if (cli.list) { chrono_session_close(&s); return 0; }
    if (bad) { chrono_session_close(&s); return 1; }
    memset(&opt, 0, sizeof opt);
    opt.tables = &table;
    opt.ntables = 1;
    {
        FILE *out = chrono_cli_output(&cli);
        rc = out ? chrono_report_ex(&s, out, cli.format, &opt) : CHRONO_EIO;
        if (out && out != stdout && fclose(out) != 0) rc = CHRONO_EIO;
        if (rc < 0) fprintf(stderr, "modeswitch: report: %s %s\n", chrono_strerror(rc), cli.error);
    }
    chrono_session_close(&s);
    return rc < 0 ? 1 : 0;
}


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
           (the compiler checked first by one command.h chrono_command_run; the
           timed compiles are engine entries: docs/commands.md says why)
   Part 4  then vs now: a chrono_table written after the benchmarks in every format
   (the program's tables are table.h's chrono_table_builder)

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
#if CHRONO_OS_LINUX
#  include <fcntl.h>
#  include <sched.h>
#  include <sys/stat.h>
#  include <sys/syscall.h>
#  include <sys/wait.h>
#  include <spawn.h>
#  include <time.h>
#  include <unistd.h>
extern char **environ;
#endif

/* ---- clean-up: the program's own state (the library keeps none) ---------------- */
static chrono_tmp ms_tmp;         /* temp files, and a compiler running now: stopped before the clean-up */
static void ms_on_signal(int sig) { chrono_tmp_signal(&ms_tmp, sig); }

/* ---- Part 1: what one transition costs ------------------------------------------ */
static void nothing(void) { }
static void (*volatile ms_fp)(void) = nothing;

static void empty_call(void *ctx, uint64_t iters)
{
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) ms_fp();
}

#if CHRONO_ARCH_X86 && (defined(__GNUC__) || defined(__clang__))
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

/* One Part 2 point: a source read in chunks (its fields are used on every
   platform; reading it is Linux-only). */
typedef struct reader { int fd, seekable; size_t chunk, calls; char *buf; off_t size; } reader;

#if CHRONO_OS_LINUX
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
        {   /* SCHED_BATCH: the child's wake-up does not preempt the parent on a
               shared CPU, so the parent gives up the CPU only by blocking in
               read() (a voluntary switch, the work being measured) */
            struct sched_param sp;
            memset(&sp, 0, sizeof sp);
            (void)sched_setscheduler(0, SCHED_BATCH, &sp);
        }
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
typedef struct compile { const char *cc, *src, *obj; char **env; int pipe; } compile;

/* This environment with TMPDIR=dir (malloc'd; free the array and its last string). */
static char **ms_env_tmpdir(const char *dir)
{
    size_t n = 0, k = 0, i;
    char **env, *t;
    while (environ[n]) n++;
    env = (char **)malloc((n + 2) * sizeof *env);
    t = (char *)malloc(strlen(dir) + 8);
    if (!env || !t) { free(env); free(t); return NULL; }
    for (i = 0; i < n; i++) if (strncmp(environ[i], "TMPDIR=", 7) != 0) env[k++] = environ[i];
    sprintf(t, "TMPDIR=%s", dir);
    env[k++] = t;
    env[k] = NULL;
    return env;
}
static void ms_env_free(char **env)
{
    size_t k = 0;
    if (!env) return;
    while (env[k]) k++;
    if (k) free(env[k - 1]);
    free(env);
}

/* posix_spawn starts the compiler like vfork: this (pinned) thread sleeps
   until the child has exec'd and then waits for it, so it never shares its
   CPU with a runnable child and switches out only voluntarily (a fork would
   let the child's first wake-up preempt it: an involuntary switch). */
static void compile_loop(void *ctx, uint64_t iters)
{
    compile *c = (compile *)ctx;
    uint64_t i;
    for (i = 0; i < iters; i++) {
        char *args[9];
        int st = -1, k = 0;
        pid_t pid;
        args[k++] = (char *)c->cc;
        args[k++] = (char *)"-O2";
        if (c->pipe) args[k++] = (char *)"-pipe";
        args[k++] = (char *)"-c";
        args[k++] = (char *)c->src;
        args[k++] = (char *)"-o";
        args[k++] = (char *)c->obj;
        args[k] = NULL;
        if (posix_spawnp(&pid, c->cc, NULL, NULL, args, c->env) != 0) abort();
        ms_tmp.child = pid;
        if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) abort();
        ms_tmp.child = 0;
    }
}

/* s in single quotes for /bin/sh (a ' as '\''), appended to buf; 0, or -1 when it does not fit. */
static int ms_quote(char *buf, size_t n, const char *s)
{
    size_t w = strlen(buf);
    if (w + 3 > n) return -1;
    buf[w++] = '\'';
    for (; *s; s++) {
        const char *piece = *s == '\'' ? "'\\''" : NULL;
        size_t len = piece ? 4 : 1;
        if (w + len + 2 > n) return -1;
        memcpy(buf + w, piece ? piece : s, len);
        w += len;
    }
    buf[w++] = '\'';
    buf[w] = '\0';
    return 0;
}

/* Does the compiler work?  cc -O2 OPT SRC -o OUT, one run of command.h's
   chrono_command_run (a shell, output to /dev/null, the child in ms_tmp):
   0 when it exits 0.  The timed compiles are Part 3's entries, not this. */
static int run_cc(const chrono_clock *clk, const char *cc, const char *opt, const char *src, const char *out)
{
    char cmd[4 * CHRONO_TMP_PATH + 64] = "";
    chrono_command_time t;
    if (ms_quote(cmd, sizeof cmd, cc) < 0) return -1;
    (void)snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), " -O2 %s ", opt);
    if (ms_quote(cmd, sizeof cmd, src) < 0 || strlen(cmd) + 4 >= sizeof cmd) return -1;
    strcat(cmd, " -o ");
    if (ms_quote(cmd, sizeof cmd, out) < 0) return -1;
    return chrono_command_run(clk, cmd, 0, &ms_tmp.child, &t) == 0 && t.exit_code == 0 ? 0 : -1;
}

/* ~8,800 lines of ordinary C: 419 functions of 21 lines. */
static int generate_source(const char *path)
{
    FILE *f = fopen(path, "w");
    int i;
    if (!f) return -1;
    fprintf(f, "/* generated by modeswitch: a stand-in for makeinfo.c after cpp */\n");
    for (i = 0; i < 419; i++) {
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
#endif /* CHRONO_OS_LINUX */

/* ---- the program ------------------------------------------------------------------ */
#define MS_CELL 256
static const char *const env_cols[] = { "note" };
static const char *const fit_cols[] = { "source", "a_us_per_call", "a_ci95_us", "b_ns_per_KiB", "b_GB_per_s",
                                        "b_ci95_pct", "r2", "worst_residual_pct", "switch_share_4KiB", "direct_read_1B_us" };
static const char *const labels[3] = { "page_cache", "tmpfs", "dev_zero" };   /* Part 2's sources */

/* Everything one run of the program holds: flags, entries, what they read and
   write, the figures taken from the results, the tables (the report keeps
   views of them until it is written). */
typedef struct ms_prog {
    chrono_program p;
    int bytes, compile_quick;
    const char *dir;
    chrono_entry e[64];
    size_t n;
    char notes[9][MS_CELL];
    reader rd[3][12];            /* Part 2: three sources, up to 12 points each */
    char p2names[3][12][64];
    size_t np2[3];
    double ns_read1, ns_getppid, ns_cpuid, a_zero, frac4k, ns_ram, ns_disk, ns_pipe, ns_dsync_extra;
    int zero, null;
    const char *probe;
#if CHRONO_OS_LINUX
    const char *srcs[3];
    pingpong pp[2];
    int pp_on[2];
    char *buf;
    compile cram, cdisk, cpipe;
    wfile wc[2];
    char d1[512], d2[512];
#endif
    chrono_table_builder envtab, fittab;
    chrono_then_now tn;
    int have_tn;
} ms_prog;

/* The median ns of a result (NAN when it did not run). */
static double ms_ns(const chrono_program *p, const char *name)
{
    const chrono_result *r = chrono_program_find(p, name);
    return r ? r->ns.median : NAN;
}

/* Page-table isolation as the session's environment read it. */
static const char *ms_pti(const chrono_env *env) { return env->pti == 1 ? "on" : env->pti == 0 ? "off" : "unknown"; }

#if CHRONO_OS_LINUX
/* process -> process: the child on our CPU, then on another one */
static void ms_pingpong(ms_prog *st)
{
    chrono_program *p = &st->p;
    int cpus[2], k;
    cpus[0] = p->session.pin.pinned ? p->session.pin.cpu : -1;
    cpus[1] = -1;
    for (k = 0; k < 1024 && p->session.env.online_cpus > 1 && cpus[0] >= 0 && cpus[1] < 0; k++)
        if (k != cpus[0] && chrono_cpu_allowed(k) != 0) cpus[1] = k;
    if (cpus[1] < 0 && cpus[0] >= 0 && p->session.env.online_cpus > 1) cpus[1] = cpus[0] == 0 ? 1 : 0;
    for (k = 0; k < 2; k++) {
        const char *name = k ? "pipe_roundtrip_two_cpus" : "pipe_roundtrip_one_cpu";
        if (cpus[k] < 0) { chrono_table_text(&st->envtab, k ? "pipe_roundtrip_two_cpus skipped: one CPU only" : "pipe round trips skipped: not pinned"); continue; }
        if (p->cli.list) { st->e[st->n++] = chrono_bench(name, pingpong_loop, &st->pp[k]); continue; }
        if (pingpong_start(&st->pp[k], cpus[k]) < 0) { fprintf(stderr, "modeswitch: fork/pipe: %s\n", strerror(errno)); p->status = 1; continue; }
        st->pp_on[k] = 1;
        /* a round trip blocks on the pipe by design: only involuntary switches reject a sample */
        st->e[st->n++] = chrono_with_blocking(chrono_bench(name, pingpong_loop, &st->pp[k]));
    }
}
#endif

/* Part 1: one transition.  -1 when the files it needs cannot be opened. */
static int ms_part1(ms_prog *st)
{
    chrono_program *p = &st->p;
    chrono_entry *e = st->e;
    e[st->n++] = chrono_bench("empty_call", empty_call, NULL);
#if MS_HAVE_ASM
    e[st->n++] = chrono_bench("rdtsc", rdtsc_loop, NULL);
#else
    chrono_table_text(&st->envtab, "rdtsc and cpuid skipped: not an x86 target");
#endif
#if CHRONO_OS_LINUX
    st->zero = open("/dev/zero", O_RDONLY);
    st->null = open("/dev/null", O_WRONLY);
    st->probe = p->cli.list ? NULL : chrono_tmp_track(&ms_tmp, st->dir, "modeswitch-probe.tmp");
    if (!p->cli.list && (st->zero < 0 || st->null < 0 || !st->probe || write_file(st->probe, 4096, 0) < 0)) {
        fprintf(stderr, "modeswitch: cannot open /dev/zero, /dev/null or write in %s: %s\n", st->dir, strerror(errno));
        p->status = 1;
        return -1;
    }
    e[st->n++] = chrono_versus("syscall_clock_gettime", syscall_gettime, NULL, "vdso_clock_gettime", vdso_gettime, NULL);
    e[st->n++] = chrono_bench("getppid_libc", getppid_libc, NULL);
#  if MS_HAVE_RAW_SYSCALL
    e[st->n++] = chrono_bench("getppid_raw_syscall", getppid_raw, NULL);
#  else
    chrono_table_text(&st->envtab, "raw syscall instruction skipped: x86-64 only");
#  endif
    e[st->n++] = chrono_with_bytes(chrono_bench("read_1B_dev_zero", read1, &st->zero), 1);
    e[st->n++] = chrono_with_bytes(chrono_bench("write_1B_dev_null", write1, &st->null), 1);
    e[st->n++] = chrono_bench("fstat", fstat_loop, &st->zero);
    e[st->n++] = chrono_bench("stat", stat_loop, (void *)st->probe);
    e[st->n++] = chrono_bench("open_close", open_close, (void *)st->probe);
    e[st->n++] = chrono_bench("signal_raise_handler_return", raise_loop, NULL);
    signal(SIGUSR1, on_usr1);
    ms_pingpong(st);
#else
    chrono_table_text(&st->envtab, "system calls, signals, fork and /dev files skipped: not Linux");
#endif
#if MS_HAVE_ASM
    e[st->n++] = chrono_bench(p->session.env.in_vm ? "cpuid_vm_exit" : "cpuid_serialising", cpuid_loop, NULL);
#endif
    return 0;
}

#if CHRONO_OS_LINUX
/* Part 2's points of one source (an open descriptor; -1 when only listing). */
static void ms_part2_points(ms_prog *st, int src, int fd, size_t file_size)
{
    static const size_t chunks[] = { 1, 64, 512, 4096, 65536, 1 << 20 };
    int t, ntot = st->p.cli.quick ? 1 : 2;
    size_t i;
    for (t = 0; t < ntot; t++)
        for (i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
            reader *r = &st->rd[src][st->np2[src]];
            size_t total = (size_t)st->bytes >> (2 * t);
            if (chunks[i] > total) continue;
            r->fd = fd;
            r->seekable = src < 2;
            r->size = (src < 2 ? (off_t)file_size : (off_t)1 << 40);
            r->buf = st->buf;
            r->chunk = chunks[i];
            r->calls = total / chunks[i] < 4096 ? total / chunks[i] : 4096;
            snprintf(st->p2names[src][st->np2[src]], sizeof st->p2names[0][0], "read_%s/%zuB_x%zu", labels[src], r->chunk, r->calls);
            st->e[st->n++] = chrono_with_bytes(chrono_bench(st->p2names[src][st->np2[src]], read_chunks, r),
                                               (double)(r->chunk * r->calls));
            st->np2[src]++;
        }
}

/* Part 2: reads in chunks, from a page-cache file, tmpfs and /dev/zero. */
static void ms_part2(ms_prog *st)
{
    chrono_program *p = &st->p;
    size_t file_size = (size_t)st->bytes < (size_t)(2 << 20) ? (size_t)(2 << 20) : (size_t)st->bytes;
    int src;
    st->srcs[2] = "/dev/zero";
    st->buf = (char *)malloc(1 << 20);
    if (!p->cli.list) {
        st->srcs[0] = chrono_tmp_track(&ms_tmp, st->dir, "modeswitch-pagecache.tmp");
        if (dir_ok("/dev/shm")) st->srcs[1] = chrono_tmp_track(&ms_tmp, "/dev/shm", "modeswitch-tmpfs.tmp");
        else chrono_table_text(&st->envtab, "tmpfs source skipped: no writable /dev/shm");
    } else st->srcs[0] = st->srcs[1] = "(listed)";
    for (src = 0; src < 3 && st->buf; src++) {
        int fd;
        if (!st->srcs[src]) continue;
        if (!p->cli.list && src < 2 && write_file(st->srcs[src], file_size, 0) < 0) {
            fprintf(stderr, "modeswitch: cannot write %s: %s\n", st->srcs[src], strerror(errno));
            p->status = 1;
            continue;
        }
        fd = p->cli.list ? -1 : open(st->srcs[src], O_RDONLY);
        if (!p->cli.list && fd < 0) { p->status = 1; continue; }
        ms_part2_points(st, src, fd, file_size);
    }
}

/* Part 3's entries once the compiler works: TMPDIR on tmpfs, on --dir, -pipe; O_DSYNC writes. */
static void ms_part3_entries(ms_prog *st, const char *cc, const char *src, const char *obj, const char *rtmp,
                             const char *dtmp, long long asm_size)
{
    const char *wp = chrono_tmp_track(&ms_tmp, st->dir, "modeswitch-dsync.tmp");
    snprintf(st->d1, sizeof st->d1, "%.*s", (int)strlen(rtmp) - 1, rtmp);
    snprintf(st->d2, sizeof st->d2, "%.*s", (int)strlen(dtmp) - 1, dtmp);
    mkdir(st->d1, 0700);
    mkdir(st->d2, 0700);
    st->cram.cc = cc; st->cram.src = src; st->cram.obj = obj; st->cram.env = ms_env_tmpdir(st->d1); st->cram.pipe = 0;
    st->cdisk = st->cram; st->cdisk.env = ms_env_tmpdir(st->d2);
    st->cpipe = st->cram; st->cpipe.pipe = 1;
    snprintf(st->notes[1], MS_CELL, "Part 3: %.40s -O2 -c of an 8,800-line generated file; TMPDIR %.60s (tmpfs) vs %.60s (--dir) vs -pipe",
             cc, st->d1, st->d2);
    chrono_table_text(&st->envtab, st->notes[1]);
    /* a compile takes seconds and forks: few samples, a long budget, blocking */
    st->e[st->n++] = chrono_with_blocking(chrono_with_budget(chrono_with_samples(
        chrono_versus("cc_tmpdir_disk", compile_loop, &st->cdisk, "cc_tmpdir_tmpfs", compile_loop, &st->cram), 5), 90000));
    st->e[st->n++] = chrono_with_blocking(chrono_with_budget(chrono_with_samples(
        chrono_versus("cc_pipe", compile_loop, &st->cpipe, "cc_tmpdir_tmpfs", compile_loop, &st->cram), 5), 90000));
    /* "no write cache": the assembler's temp file in 4 KiB O_DSYNC writes, against cached writes */
    st->wc[0].p = st->wc[1].p = wp;
    st->wc[0].n = st->wc[1].n = (size_t)asm_size;
    st->wc[0].fl = 0;
    st->wc[1].fl = O_DSYNC;
    snprintf(st->notes[2], MS_CELL, "O_DSYNC stand-in: the assembler's temp file, %lld bytes, in 4 KiB writes to %.100s",
             asm_size, st->dir);
    chrono_table_text(&st->envtab, st->notes[2]);
    if (wp) st->e[st->n++] = chrono_with_blocking(chrono_with_bytes(
        chrono_versus("write_asm_file_O_DSYNC", write_loop, &st->wc[1], "write_asm_file_cached", write_loop, &st->wc[0]),
        (double)asm_size));
}

/* Part 3: RAM disk against disk (compiles: seconds each). */
static void ms_part3(ms_prog *st)
{
    chrono_program *p = &st->p;
    const char *cc, *src, *obj, *asmf, *dtmp, *rtmp;
    struct stat sb;
    if (p->cli.quick && !st->compile_quick) {
        chrono_table_text(&st->envtab, "Part 3 (compiles) skipped under --quick (--compile runs it)");
        return;
    }
    if (p->cli.list) return;
    cc = getenv("CC") ? getenv("CC") : "cc";
    src = chrono_tmp_track(&ms_tmp, st->dir, "modeswitch-gen.c");
    obj = chrono_tmp_track(&ms_tmp, st->dir, "modeswitch-gen.o");
    asmf = chrono_tmp_track(&ms_tmp, st->dir, "modeswitch-gen.s");
    dtmp = chrono_tmp_track(&ms_tmp, st->dir, "modeswitch-tmp/");
    rtmp = dir_ok("/dev/shm") ? chrono_tmp_track(&ms_tmp, "/dev/shm", "modeswitch-tmp/") : NULL;
    if (!src || !obj || !asmf || !dtmp || generate_source(src) < 0) {
        fprintf(stderr, "modeswitch: cannot write the generated source in %s\n", st->dir);
        p->status = 1;
    } else if (run_cc(&p->session.clock, cc, "-S", src, asmf) < 0 || stat(asmf, &sb) < 0) {
        snprintf(st->notes[0], MS_CELL, "Part 3 skipped: no working C compiler ('%.60s'; set CC)", cc);
        chrono_table_text(&st->envtab, st->notes[0]);
    } else if (!rtmp) {
        chrono_table_text(&st->envtab, "Part 3 skipped: no /dev/shm for a tmpfs TMPDIR");
    } else ms_part3_entries(st, cc, src, obj, rtmp, dtmp, (long long)sb.st_size);
}
#endif

/* Part 1's figures. */
static void ms_part1_figures(ms_prog *st)
{
    chrono_program *p = &st->p;
    const chrono_comparison *c = chrono_program_compared(p, "syscall_clock_gettime");
    if (c) chrono_program_note(p, "modeswitch: syscall(SYS_clock_gettime) / vDSO clock_gettime = %.1fx [%.1f, %.1f] (%.1f%% CI): "
                               "the same work with a user->kernel->user switch", c->ratio, c->ci_low, c->ci_high, 100 * c->ci_level);
    st->ns_getppid = ms_ns(p, "getppid_libc");
    st->ns_read1 = ms_ns(p, "read_1B_dev_zero");
    st->ns_cpuid = ms_ns(p, p->session.env.in_vm ? "cpuid_vm_exit" : "cpuid_serialising");
}

/* Part 2: fit time = a calls + b bytes per source, a row of the fit table each. */
static void ms_part2_fit(ms_prog *st)
{
    chrono_table_builder *tb = &st->fittab;
    int src;
    chrono_table_init(tb, "part2_fit", "Part 2: time = a calls + b bytes (relative weights); a is one call's switch", fit_cols, 10);
    for (src = 0; src < 3; src++) {
        double xc[12], xb[12], y[12], res[12], worst = 0;
        size_t k, m = 0;
        chrono_fit2 f;
        for (k = 0; k < st->np2[src]; k++) {
            double v = ms_ns(&st->p, st->p2names[src][k]);
            if (v != v) continue;
            xc[m] = (double)st->rd[src][k].calls;
            xb[m] = (double)(st->rd[src][k].calls * st->rd[src][k].chunk);
            y[m++] = v;
        }
        if (m < 3 || chrono_stats_fit2(xc, xb, y, m, CHRONO_FIT2_RELATIVE, res, &f) < 0) continue;
        for (k = 0; k < m; k++) if (fabs(res[k] / y[k]) > worst) worst = fabs(res[k] / y[k]);
        chrono_table_text(tb, labels[src]);
        chrono_table_number(tb, f.a / 1e3, "%.3f", NULL);
        chrono_table_number(tb, 2 * f.se_a / 1e3, "%.3f", NULL);
        chrono_table_number(tb, f.b * 1024, "%.2f", NULL);
        chrono_table_number(tb, 1.0 / f.b, "%.2f", NULL);
        chrono_table_number(tb, 200 * f.se_b / f.b, "%.1f", NULL);
        chrono_table_number(tb, f.r2, "%.4f", NULL);
        chrono_table_number(tb, 100 * worst, "%.1f", NULL);
        chrono_table_number(tb, f.a / (f.a + 4096 * f.b), "%.2f", NULL);
        chrono_table_number(tb, src == 2 ? st->ns_read1 / 1e3 : NAN, "%.3f", NULL);
        if (src == 2) { st->a_zero = f.a; st->frac4k = f.a / (f.a + 4096 * f.b); }
    }
    (void)chrono_program_table(&st->p, &tb->table);
    if (st->a_zero == st->a_zero && st->ns_read1 == st->ns_read1)
        chrono_program_note(&st->p, "modeswitch: per-call cost: fitted a (/dev/zero) %.0f ns, direct 1-byte read %.0f ns: %+.0f%% (bar: within 50%%) %s",
                            st->a_zero, st->ns_read1, 100 * (st->a_zero / st->ns_read1 - 1),
                            fabs(st->a_zero / st->ns_read1 - 1) <= 0.5 ? "ok" : "MISSED");
}

/* Part 3's figures. */
static void ms_part3_figures(ms_prog *st)
{
    chrono_program *p = &st->p;
    const chrono_comparison *cd = chrono_program_compared(p, "cc_tmpdir_disk");
    const chrono_comparison *cp = chrono_program_compared(p, "cc_pipe");
    const chrono_comparison *ws = chrono_program_compared(p, "write_asm_file_O_DSYNC");
    if (cd) { st->ns_ram = cd->b.ns.median; st->ns_disk = cd->a.ns.median; }
    if (cp) st->ns_pipe = cp->a.ns.median;
    if (ws) st->ns_dsync_extra = ws->a.ns.median - ws->b.ns.median;
    if (cd) chrono_program_note(p, "modeswitch: compile, TMPDIR on disk / tmpfs = %.3fx [%.3f, %.3f]", cd->ratio, cd->ci_low, cd->ci_high);
    if (cp) chrono_program_note(p, "modeswitch: compile, -pipe / TMPDIR tmpfs = %.3fx [%.3f, %.3f]", cp->ratio, cp->ci_low, cp->ci_high);
    if (ws && cd) chrono_program_note(p, "modeswitch: O_DSYNC writes of the .s file add %.1f ms = %+.1f%% of a compile",
                                      st->ns_dsync_extra / 1e6, 100 * st->ns_dsync_extra / st->ns_ram);
}

/* One then-vs-now row (60 MHz Pentium). */
static void ms_row(chrono_then_now_row *rows, size_t *nr, const char *then, double us, const char *now, double ns, double ghz,
                   const char *note)
{
    chrono_then_now_row *r = &rows[(*nr)++];
    memset(r, 0, sizeof *r);
    r->then = then;
    r->then_total_s = NAN;
    r->then_us_per_op = us;
    r->now = now;
    r->now_ns = ns;
    r->now_ghz = ghz;
    r->note = note;
}

/* Part 4's switch rows: a mode switch then, a ring switch, a VM exit, a context switch now. */
static void ms_part4_switches(ms_prog *st, chrono_then_now_row *rows, size_t *nr, double ghz)
{
    int vm = st->p.session.env.in_vm;
    ms_row(rows, nr, "real->protected switch", 21, "getppid / 2 (user->kernel)", st->ns_getppid / 2, ghz,
           "a ring switch (syscall/sysret) replaced a real<->protected mode switch");
    ms_row(rows, nr, "protected->real switch", 19, "getppid / 2 (kernel->user)", st->ns_getppid / 2, ghz, "the way back is the other half");
    snprintf(st->notes[8], MS_CELL, "the clock is ~60x faster, the switch much less so; here %s, PTI %s "
             "(~0.1 us bare metal without PTI, ~1 us with PTI in a PVM guest)", vm ? "a VM" : "bare metal", ms_pti(&st->p.session.env));
    ms_row(rows, nr, "round trip", 40, "getppid (a null system call)", st->ns_getppid, ghz, st->notes[8]);
    if (st->ns_cpuid == st->ns_cpuid)
        ms_row(rows, nr, "round trip", 40, vm ? "cpuid (a VM exit to the hypervisor)" : "cpuid (serialising, no VM exit)", st->ns_cpuid, ghz,
               vm ? "guest->host->guest is today's costliest switch" : "bare metal: an ordinary slow instruction");
    ms_row(rows, nr, "round trip", 40, "pipe round trip, one CPU (2 context switches)", ms_ns(&st->p, "pipe_roundtrip_one_cpu"), ghz,
           "process->process: two switches and the scheduler");
    ms_row(rows, nr, "round trip", 40, "pipe round trip, two CPUs (wake-ups across CPUs)", ms_ns(&st->p, "pipe_roundtrip_two_cpus"), ghz,
           "a cross-CPU wake-up: an IPI, and an idle CPU waking");
    snprintf(st->notes[3], MS_CELL, "one read() is one round trip, no real-mode buffer to bounce through; a 4 KiB read is %.0f%% switch",
             100 * st->frac4k);
    ms_row(rows, nr, "4-6 switches per 4 KB chunk (~5 x 20 us)", 100, "a of the fit (/dev/zero): one read()'s switch", st->a_zero, ghz,
           st->notes[3]);
}

/* Part 4: then vs now, the switches and the compiles. */
static void ms_part4(ms_prog *st)
{
    chrono_then_now_row rows[12];
    size_t nr = 0;
    double ghz = st->p.session.core_ghz, ram = st->ns_ram;
    ms_part4_switches(st, rows, &nr, ghz);
    snprintf(st->notes[4], MS_CELL, "1994 1.00x; now the baseline");
    ms_row(rows, &nr, "compile makeinfo.c, temp files on a RAM disk: 21.03 s", 21.03e6, "cc -O2 -c, TMPDIR on tmpfs", ram, ghz, st->notes[4]);
    snprintf(st->notes[5], MS_CELL, "1994 1.20x; now %.3fx: the page cache absorbs temp files", st->ns_disk / ram);
    ms_row(rows, &nr, "compile, on disk with a write cache: 25.27 s", 25.27e6, "cc -O2 -c, TMPDIR on --dir", st->ns_disk, ghz, st->notes[5]);
    snprintf(st->notes[6], MS_CELL, "1994 1.52x; now %.3fx: only the .s file's writes made synchronous (a stand-in)",
             (ram + st->ns_dsync_extra) / ram);
    ms_row(rows, &nr, "compile, no write cache: 32.07 s", 32.07e6, "tmpfs compile + O_DSYNC writes of the .s file", ram + st->ns_dsync_extra,
           ghz, st->notes[6]);
    snprintf(st->notes[7], MS_CELL, "no 1994 figure; now %.3fx of tmpfs: no temp files at all", st->ns_pipe / ram);
    ms_row(rows, &nr, "compile with -pipe", NAN, "cc -O2 -pipe -c", st->ns_pipe, ghz, st->notes[7]);
    if (chrono_then_now_build(&st->tn, "then_vs_now", "Part 4: then (60 MHz Pentium, DJGPP, 1994) vs now; "
                              "now_cycles_est are estimated core cycles", rows, nr, 60.0) == 0) {
        st->have_tn = 1;
        (void)chrono_program_table(&st->p, &st->tn.table);
    }
    if (st->ns_getppid == st->ns_getppid)
        chrono_program_note(&st->p, "modeswitch: null system call here %.2f us (PTI %s), against ~0.1 us on bare metal without PTI",
                            st->ns_getppid / 1e3, ms_pti(&st->p.session.env));
}

/* Children, descriptors and temp files gone, then the report and the tables. */
static int ms_end(ms_prog *st)
{
    int rc;
#if CHRONO_OS_LINUX
    size_t i;
    for (i = 2; i-- > 0;) if (st->pp_on[i]) pingpong_stop(&st->pp[i]);   /* newest first: its child holds the older pipes too */
    free(st->buf);
    ms_env_free(st->cram.env);
    ms_env_free(st->cdisk.env);
    for (i = 0; i < 3; i++) if (st->np2[i] && st->rd[i][0].fd >= 0) close(st->rd[i][0].fd);
    if (st->zero >= 0) close(st->zero);
    if (st->null >= 0) close(st->null);
#endif
    chrono_tmp_remove(&ms_tmp);
    rc = chrono_program_end(&st->p);
    if (st->have_tn) chrono_then_now_free(&st->tn);
    chrono_table_free(&st->envtab);
    chrono_table_free(&st->fittab);
    return rc;
}

/* Flags and the session; 1 to go on, else the exit status. */
static int ms_begin(ms_prog *st, int argc, char **argv)
{
    const chrono_cli_flag extra[] = {
        {"--bytes", CHRONO_CLI_INT, &st->bytes, 4096, 1 << 30, "most bytes read per point in Part 2 (default 16 MiB)"},
        {"--dir", CHRONO_CLI_STRING, &st->dir, 0, 0, "directory for the page-cache file and temp files (default /tmp)"},
        {"--compile", CHRONO_CLI_BOOL, &st->compile_quick, 0, 1, "run Part 3 (compiles, minutes) under --quick too"},
    };
    st->bytes = 16 << 20;
    st->zero = st->null = -1;
    st->ns_read1 = st->ns_getppid = st->ns_cpuid = st->a_zero = st->frac4k = NAN;
    st->ns_ram = st->ns_disk = st->ns_pipe = st->ns_dsync_extra = NAN;
    if (chrono_program_begin(&st->p, argc, argv, extra, sizeof extra / sizeof extra[0]) != 1) return chrono_program_end(&st->p);
    if (st->p.cli.quick && st->bytes == 16 << 20) st->bytes = 1 << 20;
#if CHRONO_OS_LINUX
    if (!st->dir) st->dir = access("/tmp", W_OK) == 0 ? "/tmp" : ".";
    if (!dir_ok(st->dir)) {
        fprintf(stderr, "modeswitch: --dir '%s' does not exist or is not a writable directory\n", st->dir);
        st->p.status = 2;
        return chrono_program_end(&st->p);
    }
#endif
    (void)chrono_tmp_catch(ms_on_signal);
    return 1;
}

int main(int argc, char **argv)
{
    static ms_prog st;
    int rc = ms_begin(&st, argc, argv);
    if (rc != 1) return rc;
    chrono_table_init(&st.envtab, "environment", "What dominates these figures", env_cols, 1);
    if (ms_part1(&st) < 0) return ms_end(&st);
#if CHRONO_OS_LINUX
    ms_part2(&st);
    ms_part3(&st);
#endif
    (void)chrono_program_table(&st.p, &st.envtab.table);
    (void)chrono_program_run(&st.p, st.e, st.n);
    if (st.p.cli.list) return ms_end(&st);
    ms_part1_figures(&st);
    ms_part2_fit(&st);
    ms_part3_figures(&st);
    ms_part4(&st);
    return ms_end(&st);
}
